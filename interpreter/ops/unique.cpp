// interpreter/ops/unique.cpp — unique (`u`), unique once (`uo`).
//
// Every die that shows the face of a die before it is rerolled, all of them
// together in one round. `unique` goes on a round at a time until all faces
// differ: it fails at once when one kind has more dice than different faces,
// and other impossible mixes end at max_rerolls rounds. `unique once` rerolls
// the repeated dice once and keeps what they show, repeats and all.
#include <algorithm>

#include <fmt/format.h>

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::unique {

// --- the evaluator ------------------------------------------------------------

Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData out) {
  const bool once = op.id == PoolOpId::UniqueOnce;
  for (std::int64_t round = 0; !(once && round == 1); ++round) {
    std::vector<Active> dupes;
    for (std::size_t i = 0; i < out.dice.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (out.dice[j].face == out.dice[i].face) {
          dupes.push_back({i, out.dice[i].id});
          break;
        }
      }
    }
    if (dupes.empty()) break;
    if (!once) {  // `once` leaves repeats be: it can neither fail nor go on
      for (const std::uint32_t kind : ev.kinds_in(out)) {
        const DieKind& k = ev.kind(kind);
        const auto n = static_cast<std::int64_t>(std::count_if(
            out.dice.begin(), out.dice.end(), [&](const PoolDie& d) { return ev.rec(d.id).kind == kind; }));
        if (n > k.distinct_faces()) {
          ev.fail(DiagCode::NeverStops, fmt::format("{} dice cannot all differ: a {} has only {} different faces", n,
                                                    k.name(), k.distinct_faces()));
        }
      }
      if (round == ev.limits().max_rerolls) {
        ev.fail(DiagCode::RerollLimitExceeded,
                fmt::format("duplicates were rerolled {} times in a row (max_rerolls)", round));
      }
    }
    ev.reroll_all(out, dupes);
  }
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

struct UniqueNode final : PoolOpNode {
  bool once = false;
  PoolRef eval(Run& run) const override {
    const PoolRef in = pool->eval(run);
    const PoolRef out = own(run, in);
    auto& dupes = run.active;
    for (std::int64_t round = 0; !(once && round == 1); ++round) {
      const std::int64_t* f = run.at(out.begin);
      dupes.clear();
      for (std::uint32_t i = 0; i < out.size; ++i) {
        if (std::find(f, f + i, f[i]) != f + i) dupes.push_back(i);
      }
      if (dupes.empty()) break;
      if (!once && static_cast<std::int64_t>(out.size) > run.kind(out.kind).distinct()) fail(DiagCode::NeverStops, span);
      if (!once && round == run.limits->max_rerolls) fail(DiagCode::RerollLimitExceeded, span);
      const std::size_t n = dupes.size();
      run.count_dice(static_cast<std::int64_t>(n), span);
      run.drawn.resize(n);
      run.draw(run.kind(out.kind), n, run.drawn.data());
      std::int64_t* faces = run.at(out.begin);
      for (std::size_t i = 0; i < n; ++i) faces[dupes[i]] = run.drawn[i];
    }
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
