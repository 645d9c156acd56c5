// interpreter/exact/exact_intdist.hpp — internal: distributions over integers (a
// die's contribution to a pool's total, the total itself), with sums of
// independent dice computed as convolutions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "interpreter/exact/exact_dist.hpp"

namespace alea::compose {

struct IntDist {
  std::vector<std::pair<std::int64_t, Weight>> entries;  // ascending values, nonzero weights
  Weight total = 1;
  Failures fail;

  static IntDist point(std::int64_t v) {
    IntDist d;
    d.entries.emplace_back(v, Weight(1));
    return d;
  }
  static IntDist failed(bool cut, std::shared_ptr<const Diagnostic> error = nullptr) {
    IntDist d;
    if (cut)
      d.fail.cut = 1;
    else
      d.fail.err = 1, d.fail.error = std::move(error);
    return d;
  }
  [[nodiscard]] Weight ok() const { return total - fail.cut - fail.err; }
};

// The sum of `a` and then `b` (independent).
IntDist convolve(Budget& budget, const IntDist& a, const IntDist& b);
// The sum of n independent copies of `a`. Its failures must be of one kind
// (cut or error), which the order of the copies cannot change.
IntDist power(Budget& budget, const IntDist& a, std::uint64_t n);
// Part i with weight parts[i].first (a mixture); weights are brought to a common total.
IntDist mix(Budget& budget, const std::vector<std::pair<Weight, const IntDist*>>& parts);
// f of each value (which must not fail).
template <class F>
IntDist map_values(const IntDist& d, F f);

// As a Dist of numbers.
Dist to_dist(const IntDist& d);

template <class F>
IntDist map_values(const IntDist& d, F f) {
  std::vector<std::pair<std::int64_t, Weight>> out;
  out.reserve(d.entries.size());
  for (const auto& [v, w] : d.entries) out.emplace_back(f(v), w);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  IntDist r;
  for (auto& e : out) {
    if (!r.entries.empty() && r.entries.back().first == e.first)
      r.entries.back().second += e.second;
    else
      r.entries.push_back(std::move(e));
  }
  r.total = d.total;
  r.fail = d.fail;
  return r;
}

}  // namespace alea::compose
