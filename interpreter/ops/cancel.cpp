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

#include "interpreter/ops/cancel.hpp"
#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::cancel {

namespace P = param::CancelCombine;
static_assert(+P::by == +param::Cancel::by);

// --- the evaluator ------------------------------------------------------------

namespace {

// Each decision of cancel_dice, marked in the trace.
struct Marks {
  PoolEval& ev;
  const PoolData& pool;
  ast::CmpOp cmp;
  std::optional<DieTest> except;
  std::int64_t visited = 0;

  void cancelled(std::size_t i, const PoolDie& r) {
    ev.remove(pool.dice[i].id, DieFate::Cancelled);
    ev.rec(pool.dice[i].id).partner = static_cast<std::int32_t>(r.id);
    ev.rec(r.id).marks |= MarkCancelling;
    ev.rec(r.id).partner = static_cast<std::int32_t>(pool.dice[i].id);
  }
  void begin_combine() {
    if (!combines_with(cmp)) {
      ev.fail(DiagCode::InvalidArgument, "'combine' works with <= or < (cancellers add up to reach a die)");
    }
    except = ev.optional_test(P::except);
  }
  bool excepted(std::size_t i) { return except && (*except)(ev.kind_of(pool.dice[i].id), pool.dice[i].face); }
  void combined(std::size_t i, const std::vector<PoolDie>& leftover, const std::vector<std::size_t>& used) {
    const std::uint32_t victim = pool.dice[i].id;
    ev.remove(victim, DieFate::Cancelled);
    ev.rec(victim).partner = static_cast<std::int32_t>(leftover[used.front()].id);
    for (std::size_t u : used) {
      ev.rec(leftover[u].id).marks |= MarkCancelling;
      ev.rec(leftover[u].id).partner = static_cast<std::int32_t>(victim);
    }
  }
  // Every node the search visits counts as a step.
  void visit() {
    if (++visited % 1024 == 0) ev.charge(1024);
  }
};

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
  Marks marks{ev, pool, cmp, std::nullopt};
  const std::vector<bool> gone = cancel_dice(cmp, op.id == PoolOpId::CancelCombine, pool.dice, by->dice, marks);
  PoolData result;
  result.successes = pool.successes;
  result.groups = pool.groups;
  for (std::size_t i = 0; i < pool.dice.size(); ++i) {
    if (!gone[i]) result.dice.push_back(pool.dice[i]);
  }
  return ev.finish(std::move(result));
}

// --- the exact engine -----------------------------------------------------------

namespace {

// Each decision of cancel_dice on a multiset: only what may stop it matters.
struct Refusals {
  compose::StepOnPool& cx;
  std::int64_t visited = 0;

  void cancelled(std::size_t, const PoolDie&) {}
  void begin_combine() {
    if (!combines_with(cx.step.cmp)) compose::not_composable("a cancel that fails");
  }
  bool excepted(std::size_t i) { return cx.step.fail && cx.passes(*cx.step.fail, cx.pool.dice[i]); }
  void combined(std::size_t, const std::vector<PoolDie>&, const std::vector<std::size_t>&) {}
  // The evaluator counts these visits as steps; far fewer than its limit are allowed here.
  void visit() {
    if (++visited > 65536) compose::not_composable("a long search for cancelling dice");
  }
};

compose::Dist on_pools(compose::StepOnPool& cx) {
  const PoolData* by = cx.step.by.as_pool();
  if (cx.step.cmp == ast::CmpOp::Ne || !by) compose::not_composable("a cancel that fails");
  if (!cx.one_kind()) compose::not_composable("cancelling in a pool of several kinds of dice");
  Refusals refusals{cx};
  const std::vector<bool> gone = cancel_dice(cx.step.cmp, cx.step.combine, cx.pool.dice, by->dice, refusals);
  std::vector<PoolDie> kept;
  for (std::size_t i = 0; i < cx.pool.dice.size(); ++i) {
    if (!gone[i]) kept.push_back(cx.pool.dice[i]);
  }
  return compose::Dist::point(compose::make_sorted_pool(std::move(kept), cx.pool.successes));
}

}  // namespace

void exact(const ast::PoolOp& op, const Value* p, const Limits&, compose::PoolStep& s) {
  s.by = p[P::by];
  s.cmp = op.param(P::by).op;
  s.combine = op.id == PoolOpId::CancelCombine;
  if (s.combine && op.arg(P::except) && !p[P::except].is_none()) s.fail = exact_test(op, P::except, p, true);
  s.on_pools = &on_pools;
}

// --- the sampler ----------------------------------------------------------------

// Not lowered: the cancelling pool is a second pool of dice, and the sampler's
// pools are one kind of dice in one run of the arena; the evaluator samples it.
void lower(LowerOp& cx, const ast::PoolOp&) { cx.unsupported("'cancel'"); }

}  // namespace alea::ops::cancel
