// interpreter/render/stats_analysis.hpp — what every report of a distribution (text, SVG, the
// alea.stats/1 document) reads off it beyond its probabilities: the cumulative shares and the
// percentiles, and whether a report of it could fit in max_render_size at all.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "interpreter/stats.hpp"

namespace alea {

// The percentiles every report gives: P(X <= v) >= p for these p, in percent.
inline constexpr int percentile_points[] = {5, 25, 50, 75, 95};

// A distribution with its cumulative columns and percentiles.
struct Analysis {
  std::vector<double> at_least, at_most;  // of all runs, like the probabilities
  std::vector<std::optional<std::int64_t>> percentiles;  // one per percentile_points, numeric only
};

// Computed from the exact fractions when there are some (GMP rationals, so that P(X <= 10) of 3d6
// is exactly 1/2 and the median is 10, not 11), and from the counts of the runs when sampled.
[[nodiscard]] Analysis analyse(const Stats& s, const Distribution& d);

// Whether `per_entry` bytes for each entry of the value's and the fields' distributions would
// already pass max_render_size: a document or chart that cannot fit is refused before it is built.
[[nodiscard]] bool too_many_entries(const Stats& s, std::uint64_t per_entry, std::int64_t max_render_size);

}  // namespace alea
