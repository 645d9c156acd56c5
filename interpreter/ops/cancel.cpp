// interpreter/ops/cancel.cpp — cancel (`cancel red<=`, `cancel red<= combine except 6`).
//
// Each die of the cancelling pool, highest first, removes the closest die of
// the pool so related to it (`<=`: the highest die at or below it; `>=`: the
// lowest at or above it …). With `combine`, the cancellers that found nothing
// alone then join forces: while some remaining die (not matching `except`) is
// within reach of their sum, the highest such die is the target, and the
// cancellers spent are those with the smallest sum that reaches it (then the
// fewest, then the largest).
#include <algorithm>

#include <fmt/format.h>

#include "interpreter/eval/best_fit.hpp"
#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::cancel {

namespace P = param::CancelCombine;
static_assert(+P::by == +param::Cancel::by);

// --- the evaluator ------------------------------------------------------------

namespace {

// The second pass of `cancel … combine`.
void combine(PoolEval& ev, ast::CmpOp op, const PoolData& pool, std::vector<bool>& gone,
             std::vector<PoolDie> leftover) {
  if (op != ast::CmpOp::Le && op != ast::CmpOp::Lt) {
    ev.fail(DiagCode::InvalidArgument, "'combine' works with <= or < (cancellers add up to reach a die)");
  }
  const std::optional<DieTest> except = ev.optional_test(P::except);
  while (!leftover.empty()) {
    std::int64_t total = 0;
    for (const auto& r : leftover) total += r.face;  // faces are at most 10^6, dice at most 10^4
    std::optional<std::size_t> target;
    for (std::size_t i = 0; i < pool.dice.size(); ++i) {
      const std::int64_t f = pool.dice[i].face;
      if (gone[i] || (except && (*except)(ev.kind_of(pool.dice[i].id), f))) continue;
      if (!kernel::compare(op, f, total)) continue;  // `<=` or `<`
      if (!target || f > pool.dice[*target].face) target = i;
    }
    if (!target) return;
    const std::int64_t need = pool.dice[*target].face + (op == ast::CmpOp::Lt ? 1 : 0);
    // Every node the search visits counts as a step.
    std::int64_t visited = 0;
    const std::vector<std::size_t> used = best_fit(leftover, need, [&] {
      if (++visited % 1024 == 0) ev.charge(1024);
    });
    gone[*target] = true;
    const std::uint32_t victim_id = pool.dice[*target].id;
    ev.remove(victim_id, DieFate::Cancelled);
    ev.rec(victim_id).partner = static_cast<std::int32_t>(leftover[used.front()].id);
    for (std::size_t u : used) {
      ev.rec(leftover[u].id).marks |= MarkCancelling;
      ev.rec(leftover[u].id).partner = static_cast<std::int32_t>(victim_id);
    }
    for (auto it = used.rbegin(); it != used.rend(); ++it) {
      leftover.erase(leftover.begin() + static_cast<std::ptrdiff_t>(*it));
    }
  }
}

}  // namespace

Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData pool) {
  const ast::CmpOp cmp = op.param(P::by).op;
  if (cmp == ast::CmpOp::Ne) {
    ev.fail(DiagCode::InvalidArgument, "cancel needs one of <=, <, =, >=, > (a die cancels the closest die so related)");
  }
  const Value by_value = ev.value(P::by);
  const PoolData* by = by_value.as_pool();
  if (!by) {
    ev.fail_at(DiagCode::TypeMismatch, P::by,
               fmt::format("'cancel' needs a pool of dice to cancel with, got {}", describe(by_value)));
  }
  std::vector<PoolDie> cancellers = by->dice;
  std::stable_sort(cancellers.begin(), cancellers.end(), [](const PoolDie& a, const PoolDie& b) { return a.face > b.face; });
  std::vector<bool> gone(pool.dice.size(), false);
  std::vector<PoolDie> leftover;  // cancellers that found nothing alone, highest first
  const bool take_highest = cmp == ast::CmpOp::Le || cmp == ast::CmpOp::Lt || cmp == ast::CmpOp::Eq;
  for (const PoolDie& r : cancellers) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < pool.dice.size(); ++i) {
      if (gone[i] || !kernel::compare(cmp, pool.dice[i].face, r.face)) continue;
      if (!best || (take_highest ? pool.dice[i].face > pool.dice[*best].face : pool.dice[i].face < pool.dice[*best].face)) {
        best = i;
      }
    }
    if (!best) {
      leftover.push_back(r);
      continue;
    }
    gone[*best] = true;
    ev.remove(pool.dice[*best].id, DieFate::Cancelled);
    ev.rec(pool.dice[*best].id).partner = static_cast<std::int32_t>(r.id);
    ev.rec(r.id).marks |= MarkCancelling;
    ev.rec(r.id).partner = static_cast<std::int32_t>(pool.dice[*best].id);
  }
  if (op.id == PoolOpId::CancelCombine) combine(ev, cmp, pool, gone, leftover);
  PoolData result;
  result.successes = pool.successes;
  result.groups = pool.groups;
  for (std::size_t i = 0; i < pool.dice.size(); ++i) {
    if (!gone[i]) result.dice.push_back(pool.dice[i]);
  }
  return ev.finish(std::move(result));
}

// --- the exact engine -----------------------------------------------------------

void exact(const ast::PoolOp& op, const Value* p, const Limits&, compose::PoolStep& s) {
  s.kind = compose::PoolStep::Cancel;
  s.by = p[P::by];
  s.cancel_op = op.param(P::by).op;
  s.combine = op.id == PoolOpId::CancelCombine;
  if (s.combine && op.arg(P::except) && !p[P::except].is_none()) s.fail = exact_test(op, P::except, p, true);
}

// --- the sampler ----------------------------------------------------------------

// Not lowered: the cancelling pool is a second pool of dice, and the sampler's
// pools are one kind of dice in one run of the arena; the evaluator samples it.
void lower(LowerOp& cx, const ast::PoolOp&) { cx.unsupported("'cancel'"); }

}  // namespace alea::ops::cancel
