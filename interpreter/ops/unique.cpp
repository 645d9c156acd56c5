// interpreter/ops/unique.cpp — unique (`u`), unique once (`uo`).
//
// Every die that shows the face of a die before it is rerolled, all of them
// together in one round. `unique` goes on a round at a time until all faces
// differ: it fails at once when one kind has more dice than different faces,
// and other impossible mixes end at max_rerolls rounds. `unique once` rerolls
// the repeated dice once and keeps what they show, repeats and all.
#include <algorithm>

#include <fmt/format.h>

#include "interpreter/ops/unique.hpp"

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::unique {

// --- the evaluator ------------------------------------------------------------

namespace {

// The kernel's dice (unique.hpp).
class Traced : public EvalDice {
 public:
  using EvalDice::EvalDice;

  void check_never_stops() {
    for (const std::uint32_t kind : ev_.kinds_in(pool_)) {
      const DieKind& k = ev_.kind(kind);
      const auto n = static_cast<std::int64_t>(std::count_if(
          pool_.dice.begin(), pool_.dice.end(), [&](const PoolDie& d) { return ev_.rec(d.id).kind == kind; }));
      if (n > k.distinct_faces()) {
        ev_.fail(DiagCode::NeverStops, fmt::format("{} dice cannot all differ: a {} has only {} different faces", n,
                                                   k.name(), k.distinct_faces()));
      }
    }
  }
  [[noreturn]] void fail_limit(std::int64_t cap) {
    ev_.fail(DiagCode::RerollLimitExceeded,
             fmt::format("duplicates were rerolled {} times in a row (max_rerolls)", cap));
  }
};

}  // namespace

Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData out) {
  Traced d(ev, out);
  rounds(d, op.id == PoolOpId::UniqueOnce, ev.limits().max_rerolls);
  return ev.finish(std::move(out));
}

// --- the exact engine -----------------------------------------------------------

namespace {

// `unique once` on one multiset of dice of one kind: one die of each face
// stays, the others are rolled again as one pool.
compose::Dist once_on_pools(compose::StepOnPool& cx) {
  const PoolData& p = cx.pool;
  std::vector<PoolDie> firsts;
  std::int64_t repeats = 0;
  for (const PoolDie& d : p.dice) {  // ascending
    if (d.id != p.dice.front().id) compose::not_composable("'unique once' on a pool of several kinds of dice");
    if (!firsts.empty() && firsts.back().face == d.face) {
      ++repeats;
    } else {
      firsts.push_back(d);
    }
  }
  if (repeats == 0) return compose::Dist::point(compose::make_sorted_pool(p.dice, p.successes));
  const DieKind& kind = cx.need_kind(p.dice.front());
  return compose::map(cx.budget, compose::roll_pools(cx.budget, cx.kinds, kind, repeats), [&](const Value& v) {
    std::vector<PoolDie> dice = firsts;
    dice.insert(dice.end(), v.as_pool()->dice.begin(), v.as_pool()->dice.end());
    return compose::make_sorted_pool(std::move(dice), p.successes);
  });
}

}  // namespace

// `unique` until all differ is not composed (its rounds are not followed);
// `unique once` is, on the multisets.
void exact(const ast::PoolOp& op, const Value*, const Limits& limits, compose::PoolStep& s) {
  const bool once = op.id == PoolOpId::UniqueOnce;
  s.cap = once ? 1 : limits.max_rerolls;
  s.draws = true;
  if (once) s.on_pools = &once_on_pools;
}

// --- the sampler ----------------------------------------------------------------

namespace {

using namespace lowered;

// The kernel's dice (unique.hpp).
class Sampled : public RunDice {
 public:
  using RunDice::RunDice;

  void check_never_stops() const {
    if (static_cast<std::int64_t>(pool_.size) > kind_.distinct()) fail(DiagCode::NeverStops, span_);
  }
  [[noreturn]] void fail_limit(std::int64_t) const { fail(DiagCode::RerollLimitExceeded, span_); }
};

struct UniqueNode final : PoolOpNode {
  bool once = false;
  PoolRef eval(Run& run) const override {
    const PoolRef in = pool->eval(run);
    PoolRef out = own(run, in);
    Sampled d(run, out, span);
    rounds(d, once, run.limits->max_rerolls);
    return finish(run, out);
  }
};

}  // namespace

void lower(LowerOp& cx, const ast::PoolOp& op) {
  auto n = std::make_unique<UniqueNode>();
  n->once = op.id == PoolOpId::UniqueOnce;
  cx.give_pool(std::move(n), cx.bound());
}

}  // namespace alea::ops::unique
