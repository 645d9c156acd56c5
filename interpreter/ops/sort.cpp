// interpreter/ops/sort.cpp — sort, sort desc (`s`, `sd`): the same dice in
// order of their faces, ascending or descending; equal faces stay in the order
// rolled.
#include <algorithm>
#include <functional>

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::sort {

// --- the evaluator ------------------------------------------------------------

Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData out) {
  const bool descending = op.id == PoolOpId::SortDesc;
  std::stable_sort(out.dice.begin(), out.dice.end(), [&](const PoolDie& a, const PoolDie& b) {
    return descending ? a.face > b.face : a.face < b.face;
  });
  return ev.finish(std::move(out));
}

// --- the exact engine -----------------------------------------------------------

// A multiset has no order: the pools are the same.
// The exact engine's pools are multisets: sorting leaves each die as it is.
void exact(const ast::PoolOp&, const Value*, const Limits&, compose::PoolStep& s) {
  s.face = [](const compose::PoolStep&, const DieKind*, std::int64_t f) -> std::optional<std::int64_t> { return f; };
}

// --- the sampler ----------------------------------------------------------------

namespace {

using namespace lowered;

struct SortNode final : PoolOpNode {
  bool descending = false;
  PoolRef eval(Run& run) const override {
    const PoolRef in = pool->eval(run);
    const PoolRef out = own(run, in);
    std::int64_t* f = run.at(out.begin);
    if (descending) std::stable_sort(f, f + out.size, std::greater<>());
    else std::stable_sort(f, f + out.size);
    return out;  // the same faces: the same total
  }
};

}  // namespace

void lower(LowerOp& cx, const ast::PoolOp& op) {
  auto n = std::make_unique<SortNode>();
  n->descending = op.id == PoolOpId::SortDesc;
  cx.give_pool(std::move(n), cx.bound(), /*same_total=*/true);
}

}  // namespace alea::ops::sort
