// interpreter/ops/exact_support.hpp — internal: what a pool operation's `exact`
// (interpreter/ops/<family>.cpp) uses of the composed exact engine. It fills a
// compose::PoolStep from its parameters' values (one per parameter, none for
// one not written), and the hooks that apply it: on a die's face, per die
// drawing more (exact_die.hpp), or on a multiset (exact_multiset.hpp).
// Whatever the evaluator would fail on for these values, it refuses with
// not_composable, and the program is enumerated instead.
#pragma once

#include "interpreter/exact/exact_compose.hpp"
#include "interpreter/exact/exact_die.hpp"
#include "interpreter/exact/exact_multiset.hpp"
#include "interpreter/exact/exact_pool.hpp"

namespace alea::ops {

// Condition parameter i's test with its value, or the default (`highest`) when
// it was not written.
inline kernel::DieTest exact_test(const ast::PoolOp& op, std::size_t i, const Value* p, bool highest) {
  kernel::DieTest t;
  t.highest = highest;
  if (op.arg(i)) {
    t.fixed = true;
    t.op = op.param(i).op;
    t.value = compose::to_int(p[i]);
  }
  return t;
}

}  // namespace alea::ops
