// interpreter/ops/unique.cpp — unique (`u`): every die that shows the face of
// a die before it is rerolled, a round at a time, until all faces differ. Fails
// at once when one kind has more dice than different faces; other impossible
// mixes end at max_rerolls rounds.
#include <algorithm>

#include <fmt/format.h>

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::unique {

// --- the evaluator ------------------------------------------------------------

Value eval(PoolEval& ev, const ast::PoolOp&, PoolData out) {
  for (std::int64_t round = 0;; ++round) {
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
    ev.reroll_all(out, dupes);
  }
  return ev.finish(std::move(out));
}

// --- the exact engine -----------------------------------------------------------

// Not composed: the rounds are not followed (exact_multiset.cpp refuses it).
void exact(const ast::PoolOp&, const Value*, const Limits& limits, compose::PoolStep& s) {
  s.kind = compose::PoolStep::Unique;
  s.cap = limits.max_rerolls;
}

// --- the sampler ----------------------------------------------------------------

namespace {

using namespace lowered;

struct UniqueNode final : PoolOpNode {
  PoolRef eval(Run& run) const override {
    const PoolRef in = pool->eval(run);
    const PoolRef out = own(run, in);
    auto& dupes = run.active;
    for (std::int64_t round = 0;; ++round) {
      const std::int64_t* f = run.at(out.begin);
      dupes.clear();
      for (std::uint32_t i = 0; i < out.size; ++i) {
        if (std::find(f, f + i, f[i]) != f + i) dupes.push_back(i);
      }
      if (dupes.empty()) break;
      if (static_cast<std::int64_t>(out.size) > run.kind(out.kind).distinct()) fail(DiagCode::NeverStops, span);
      if (round == run.limits->max_rerolls) fail(DiagCode::RerollLimitExceeded, span);
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

void lower(LowerOp& cx, const ast::PoolOp&) { cx.give_pool(std::make_unique<UniqueNode>(), cx.bound()); }

}  // namespace alea::ops::unique
