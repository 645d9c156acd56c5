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
#include <functional>
#include <map>

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

// A roll cancelled by a roll (both every multiset of their dice, Dist::roll),
// counted face by face from the highest down, as icepool's multiset
// evaluators do: at each face, how many dice of each roll show it, weighted
// C(left, k)·sides^k, and a small state: the dice of each roll still to
// place, the cancellers not yet used (faces, highest first) and the dice kept
// so far. Equal states merge, so the work follows the states and not the
// pairs of multisets.
//
// With `<=`, a canceller can take any die at or below its face: the cancellers
// at a face join the unused ones, and the dice at that face are taken by the
// highest of them, which is the choice cancel_dice makes taking the cancellers
// highest first (each lower one found the dice above it taken). With `<` they
// join after, and with `=` only those of the face can take it. Every canceller
// left is then below every die kept, so cancel_dice on what is left (the dice
// kept, the cancellers unused) cancels nothing alone and makes the combining
// pass exactly as on the whole pools.
std::optional<compose::Dist> on_rolls(compose::Budget& budget, compose::PoolKinds& kinds, const compose::PoolStep& s,
                                      const compose::Dist& pool, const compose::Dist* params) {
  using compose::Weight;
  const compose::Dist& by = params[P::by];
  if (!by.roll || !(s.cmp == ast::CmpOp::Le || s.cmp == ast::CmpOp::Lt || s.cmp == ast::CmpOp::Eq)) return std::nullopt;
  const DieKind* pool_kind = kinds.kind_of(PoolDie{0, pool.roll->id});
  const DieKind* by_kind = kinds.kind_of(PoolDie{0, by.roll->id});
  if (!pool_kind || !by_kind) return std::nullopt;
  if (s.combine && !combines_with(s.cmp)) compose::not_composable("a cancel that fails");
  // Each face of either kind, highest first, with how many sides of each show it.
  std::map<std::int64_t, std::pair<std::uint64_t, std::uint64_t>, std::greater<>> faces;
  for (const auto& [f, n] : compose::faces_of(*pool_kind)) faces[f].first = n;
  for (const auto& [f, n] : compose::faces_of(*by_kind)) faces[f].second = n;
  struct State {
    std::int64_t dice = 0, cancellers = 0;  // still to place
    std::vector<std::int64_t> unused;       // cancellers' faces, highest first
    std::vector<std::int64_t> kept;         // dice kept, highest first
    auto operator<=>(const State&) const = default;
  };
  std::map<State, Weight> states{{State{pool.roll->n, by.roll->n, {}, {}}, Weight(1)}};
  std::size_t left = faces.size();
  for (const auto& at : faces) {
    const std::int64_t face = at.first;  // (named, for the lambdas below)
    const auto& sides = at.second;
    const bool lowest = --left == 0;
    std::map<State, Weight> next;
    for (const auto& [st, w] : states) {
      const std::vector<Weight> dw = compose::binomial_weights(st.dice, sides.first);
      const std::vector<Weight> cw = compose::binomial_weights(st.cancellers, sides.second);
      for (std::int64_t kd = lowest ? st.dice : 0; kd <= st.dice; ++kd) {
        if (sides.first == 0 && kd > 0) break;
        for (std::int64_t kc = lowest ? st.cancellers : 0; kc <= st.cancellers; ++kc) {
          if (sides.second == 0 && kc > 0) break;
          budget.charge(1);
          State n{st.dice - kd, st.cancellers - kc, st.unused, st.kept};
          const auto join = [&] { n.unused.insert(n.unused.end(), static_cast<std::size_t>(kc), face); };
          if (s.cmp == ast::CmpOp::Le) join();
          std::int64_t taken = 0;
          if (s.cmp == ast::CmpOp::Eq) {
            taken = std::min(kd, kc);  // the others can take no lower die, and `=` does not combine
          } else {
            taken = std::min<std::int64_t>(kd, static_cast<std::int64_t>(n.unused.size()));
            n.unused.erase(n.unused.begin(), n.unused.begin() + taken);  // the highest take them
          }
          if (s.cmp == ast::CmpOp::Lt) join();
          n.kept.insert(n.kept.end(), static_cast<std::size_t>(kd - taken), face);
          const std::uint64_t bytes = sizeof(State) + sizeof(Weight) + 32 +
                                      (n.unused.size() + n.kept.size()) * sizeof(std::int64_t);
          const Weight add = w * dw[static_cast<std::size_t>(kd)] * cw[static_cast<std::size_t>(kc)];
          auto [it, fresh] = next.try_emplace(std::move(n), add);
          if (fresh) budget.charge_memory(bytes);  // as an outcome is (max_odds_memory)
          else it->second += add;
        }
      }
    }
    states = std::move(next);
  }
  compose::Accumulator acc(budget);
  for (const auto& [st, w] : states) {
    std::vector<PoolDie> kept, unused;
    for (const std::int64_t f : st.kept) kept.push_back({f, pool.roll->id});
    for (const std::int64_t f : st.unused) unused.push_back({f, by.roll->id});
    PoolData left_pool;
    left_pool.dice = kept;
    compose::StepOnPool cx(budget, kinds, s, left_pool);
    Refusals refusals{cx};
    const std::vector<bool> gone = s.combine ? cancel_dice(s.cmp, true, kept, unused, refusals) : std::vector<bool>(kept.size());
    std::vector<PoolDie> out;
    for (std::size_t i = 0; i < kept.size(); ++i) {
      if (!gone[i]) out.push_back(kept[i]);
    }
    acc.add(compose::make_sorted_pool(std::move(out), false), w);
  }
  compose::Dist d;
  acc.take_into(d);
  d.total = pool.total * by.total;
  return d;
}

}  // namespace

void exact(const ast::PoolOp& op, const Value* p, const Limits&, compose::PoolStep& s) {
  s.by = p[P::by];
  s.cmp = op.param(P::by).op;
  s.combine = op.id == PoolOpId::CancelCombine;
  if (s.combine && op.arg(P::except) && !p[P::except].is_none()) s.fail = exact_test(op, P::except, p, true);
  s.on_pools = &on_pools;
  s.on_rolls = &on_rolls;
}

// --- the sampler ----------------------------------------------------------------

// Not lowered: the cancelling pool is a second pool of dice, and the sampler's
// pools are one kind of dice in one run of the arena; the evaluator samples it.
void lower(LowerOp& cx, const ast::PoolOp&) { cx.unsupported("'cancel'"); }

}  // namespace alea::ops::cancel
