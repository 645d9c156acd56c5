// interpreter/ops/unique.hpp — internal: the rounds of unique and unique once,
// the one loop the evaluator and the sampler run (unique.cpp): which dice are
// repeats, when each check fails, when the rounds end.
//
// It works on an engine's adaptor `d` over the pool (ops.hpp, "Shared loops"),
// which also gives:
//   check_never_stops()  fails when a kind of die has more dice in the pool
//                        than different faces
//   fail_limit(cap)
//   charge_items(n)      n dice looked at, counted as the engine counts work
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace alea::ops::unique {

// The dice of `d` that show the face of a die before them, in pool order.
// A small pool compares each die with those before it. A large one marks the
// faces seen, in a table when they span few values (a round then costs n plus
// the span), else by sorting (face, place) pairs (n log n).
template <class Dice, class List>
void find_repeats(Dice& d, List& repeats) {
  repeats.clear();
  const std::size_t m = d.size();
  constexpr std::size_t small = 32;
  if (m <= small) {
    for (std::size_t i = 0; i < m; ++i) {
      const std::int64_t f = d.face(d.die(i));
      for (std::size_t j = 0; j < i; ++j) {
        if (d.face(d.die(j)) == f) {
          repeats.push_back(d.die(i));
          break;
        }
      }
    }
    return;
  }
  std::int64_t low = d.face(d.die(0)), high = low;
  for (std::size_t i = 1; i < m; ++i) {
    low = std::min(low, d.face(d.die(i)));
    high = std::max(high, d.face(d.die(i)));
  }
  thread_local std::vector<char> seen;
  // As unsigned, high - low is the span even where it would overflow as signed.
  const auto span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
  if (span < 4 * m + 1024) {
    seen.assign(span + 1, 0);
    for (std::size_t i = 0; i < m; ++i) {
      char& s = seen[static_cast<std::uint64_t>(d.face(d.die(i))) - static_cast<std::uint64_t>(low)];
      if (s) repeats.push_back(d.die(i));
      s = 1;
    }
    return;
  }
  thread_local std::vector<std::pair<std::int64_t, std::size_t>> order;
  order.clear();
  for (std::size_t i = 0; i < m; ++i) order.emplace_back(d.face(d.die(i)), i);
  std::sort(order.begin(), order.end());
  seen.assign(m, 0);
  for (std::size_t k = 1; k < m; ++k) {
    if (order[k].first == order[k - 1].first) seen[order[k].second] = 1;
  }
  for (std::size_t i = 0; i < m; ++i) {
    if (seen[i]) repeats.push_back(d.die(i));
  }
}

// Rerolls the dice of `d` that show the face of a die before them, all of
// them at once, until none do: at most max_rerolls rounds (more is an error,
// and so is a pool that can never differ); or, `once`, a single round that
// leaves repeats be.
template <class Dice>
void rounds(Dice& d, bool once, std::int64_t max_rerolls) {
  auto& repeats = d.active;
  for (std::int64_t round = 0; !(once && round == 1); ++round) {
    d.charge_items(d.size());  // finding the repeats looks at every die
    find_repeats(d, repeats);
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
