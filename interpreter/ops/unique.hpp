// interpreter/ops/unique.hpp — internal: the rounds of unique and unique once,
// the one loop the evaluator and the sampler run (unique.cpp): which dice are
// repeats, when each check fails, when the rounds end.
//
// It works on an engine's adaptor `d` over the pool (ops.hpp, "Shared loops"),
// which also gives:
//   check_never_stops()  fails when a kind of die has more dice in the pool
//                        than different faces
//   fail_limit(cap)
#pragma once

#include <cstdint>

namespace alea::ops::unique {

// Rerolls the dice of `d` that show the face of a die before them, all of
// them at once, until none do: at most max_rerolls rounds (more is an error,
// and so is a pool that can never differ); or, `once`, a single round that
// leaves repeats be.
template <class Dice>
void rounds(Dice& d, bool once, std::int64_t max_rerolls) {
  auto& repeats = d.active;
  for (std::int64_t round = 0; !(once && round == 1); ++round) {
    repeats.clear();
    for (std::size_t i = 0, m = d.size(); i < m; ++i) {
      const std::int64_t f = d.face(d.die(i));
      for (std::size_t j = 0; j < i; ++j) {
        if (d.face(d.die(j)) == f) {
          repeats.push_back(d.die(i));
          break;
        }
      }
    }
    if (repeats.empty()) break;
    if (!once) {  // `once` can neither fail nor go on
      d.check_never_stops();
      if (round == max_rerolls) d.fail_limit(max_rerolls);
    }
    const std::int64_t* faces = d.draw();
    for (std::size_t i = 0, n = repeats.size(); i < n; ++i) d.reroll(repeats[i], faces[i]);
  }
}

}  // namespace alea::ops::unique
