// interpreter/ops/sample_support.hpp — internal: what a pool operation's
// lowered node (interpreter/ops/<family>.cpp) uses of the sampler: the run's
// arena and dice, die tests with their values computed, and the faces of the
// pool it applies to.
//
// A lowered node mirrors the evaluator: its parameters in the same order, the
// same rounds of extra dice drawn as the same pools, the same checks in the same
// order. Only the trace is left out, and a pool that no one else holds is
// changed in place.
#pragma once

#include <algorithm>

#include "interpreter/sample/lowered_nodes.hpp"
#include "interpreter/sample/lowered_scalar.hpp"

namespace alea::lowered {

// A die's test, with its value computed: `cond` or, without one, the die's
// highest (or lowest) face.
struct Test {
  ast::CmpOp op = ast::CmpOp::Eq;
  std::int64_t value = 0;
  Range range{op, value};
  bool operator()(std::int64_t face) const { return range(face); }
  // True when every face of `k` passes (kernel::DieTest::always).
  [[nodiscard]] bool always(const Kind& k) const {
    if (k.sides > 0) return kernel::every_face_passes(op, value, k.sides);
    return std::all_of(k.list->faces.begin(), k.list->faces.end(), [&](std::int64_t f) { return (*this)(f); });
  }
};

inline Test make_test(Run& run, const CondNode* cond, const Kind& k, bool highest) {
  if (cond) {
    const std::int64_t v = cond->eval(run);
    return {cond->op, v, Range(cond->op, v)};
  }
  const std::int64_t v = highest ? k.max_face() : k.min_face();
  return {ast::CmpOp::Eq, v, Range(ast::CmpOp::Eq, v)};
}

// A roll's faces for a node that uses them at once: drawn into `local` when
// they fit, else into the arena (as DiceNode::eval, for a roll whose total
// needs no check); or the pool of any other node.
const std::int64_t* faces_of(Run& run, const DiceNode* dice, const Pool& pool, std::int64_t* local, PoolRef& in);

}  // namespace alea::lowered
