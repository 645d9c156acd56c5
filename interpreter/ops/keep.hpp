// interpreter/ops/keep.hpp — internal: whether a die stays after keep or drop
// by a condition, the one definition the evaluator, the sampler and the exact
// engine use; and which dice keep or drop highest or lowest chooses, the one
// the evaluator and the sampler use (keep.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace alea::ops::keep {

// `keep C` keeps the dice that meet C; `drop C` the others.
[[nodiscard]] inline bool stays(bool matches, bool drop) { return matches != drop; }

// Whether face a comes before face b, best first.
template <bool Highest>
bool better(std::int64_t a, std::int64_t b) {
  return Highest ? a > b : a < b;
}

// The n best of the m faces at f, as a stable sort best first would choose
// them (equal faces in the order rolled), as a mask. 0 < n < m <= 64. Picks
// the n best one at a time (the earliest of equal faces first), or, when fewer
// are left out, the m - n worst (the latest of equal faces first).
template <bool Highest>
[[gnu::always_inline]] inline std::uint64_t choose_few(const std::int64_t* f, std::uint32_t m, std::int64_t n) {
  const auto all = m == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << m) - 1;
  if (n <= static_cast<std::int64_t>(m) - n) {
    std::uint64_t chosen = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      std::uint32_t best = 0;
      bool found = false;
      for (std::uint32_t j = 0; j < m; ++j) {
        const bool take = !(chosen >> j & 1) && (!found || better<Highest>(f[j], f[best]));
        best = take ? j : best;
        found |= take;
      }
      chosen |= std::uint64_t{1} << best;
    }
    return chosen;
  }
  std::uint64_t out = 0;
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(m) - n; ++k) {
    std::uint32_t worst = 0;
    bool found = false;
    for (std::uint32_t j = 0; j < m; ++j) {
      const bool take = !(out >> j & 1) && (!found || !better<Highest>(f[j], f[worst]));
      worst = take ? j : worst;
      found |= take;
    }
    out |= std::uint64_t{1} << worst;
  }
  return all & ~out;
}

// The same for large pools: the n-th best face, how many dice beat it, and so
// how many equal to it are chosen (the first ones). `sorted` is room for a
// copy of the faces. 0 < n < m.
template <bool Highest, class Each>
void choose_many(const std::int64_t* f, std::size_t m, std::int64_t n, std::vector<std::int64_t>& sorted,
                 Each&& each) {
  sorted.assign(f, f + m);
  std::nth_element(sorted.begin(), sorted.begin() + (n - 1), sorted.end(), better<Highest>);
  const std::int64_t edge = sorted[static_cast<std::size_t>(n - 1)];
  std::int64_t ties = n - std::count_if(f, f + m, [&](std::int64_t x) { return better<Highest>(x, edge); });
  for (std::size_t i = 0; i < m; ++i) {
    bool chosen = better<Highest>(f[i], edge);
    if (!chosen && f[i] == edge && ties > 0) {
      chosen = true;
      --ties;
    }
    each(i, chosen);
  }
}

// Which of the m faces at f keep or drop highest (lowest) n chooses: calls
// each(i, chosen) for every die, in order. `sorted` is room for a copy of the
// faces, for large pools. n >= 0.
template <class Each>
void choose(const std::int64_t* f, std::size_t m, std::int64_t n, bool highest, std::vector<std::int64_t>& sorted,
            Each&& each) {
  if (n == 0 || static_cast<std::uint64_t>(n) >= m) {
    for (std::size_t i = 0; i < m; ++i) each(i, n > 0);
  } else if (m <= 64) {
    const auto few = static_cast<std::uint32_t>(m);
    const std::uint64_t chosen = highest ? choose_few<true>(f, few, n) : choose_few<false>(f, few, n);
    for (std::size_t i = 0; i < m; ++i) each(i, (chosen >> i & 1) != 0);
  } else if (highest) {
    choose_many<true>(f, m, n, sorted, each);
  } else {
    choose_many<false>(f, m, n, sorted, each);
  }
}

}  // namespace alea::ops::keep
