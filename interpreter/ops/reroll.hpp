// interpreter/ops/reroll.hpp — internal: the rounds of reroll and reroll once,
// the one loop the evaluator and the sampler run (reroll.cpp): which dice are
// rerolled, the cap, when each check fails, which dice go on.
//
// It works on an engine's adaptor `d` over the pool (ops.hpp, "Shared loops"),
// which also gives:
//   passes(e, f)         whether a die of e's kind that shows f is rerolled
//   check_never_stops()  fails when a kind of die in the pool is rerolled on
//                        every face
//   fail_limit(cap)
#pragma once

#include <cstdint>
#include <utility>

namespace alea::ops::reroll {

// Rerolls the dice of `d` that pass, round by round, all the dice of a round
// drawn at once: while the new dice pass too, at most max_rerolls rounds (more
// is an error, and so is a kind of die rerolled on every face); or `once`.
template <class Dice>
void rounds(Dice& d, bool once, std::int64_t max_rerolls) {
  auto& active = d.active;
  active.clear();
  for (std::size_t i = 0, m = d.size(); i < m; ++i) {
    const auto die = d.die(i);
    if (d.passes(die, d.face(die))) active.push_back(die);
  }
  const std::int64_t cap = once ? 1 : max_rerolls;
  if (!once) d.check_never_stops();
  for (std::int64_t round = 0; !active.empty(); ++round) {
    if (round == cap) {
      if (once) break;
      d.fail_limit(cap);
    }
    const std::int64_t* faces = d.draw();
    auto& next = d.next;
    next.clear();
    for (std::size_t i = 0, n = active.size(); i < n; ++i) {
      const auto die = d.reroll(active[i], faces[i]);
      if (d.passes(die, faces[i])) next.push_back(die);
    }
    std::swap(active, next);
  }
}

}  // namespace alea::ops::reroll
