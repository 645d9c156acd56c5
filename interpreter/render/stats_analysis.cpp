// interpreter/render/stats_analysis.cpp — cumulative shares and percentiles of a distribution
// (stats_analysis.hpp).
#include "interpreter/render/stats_analysis.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <cmath>

namespace alea {

Analysis analyse(const Stats& s, const Distribution& d) {
  Analysis a;
  const std::size_t n = d.entries.size();
  // Weights in one unit: exact rationals, or counts of runs.
  const bool exact = s.method == StatsMethod::Exact;
  const double runs = static_cast<double>(s.runs);
  std::vector<mpq_class> w(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Probability& p = d.entries[i].probability;
    if (exact && p.is_exact()) {
      w[i] = mpq_class(p.exact());
      w[i].canonicalize();
    } else {
      w[i] = mpq_class(static_cast<double>(std::llround(p.value * runs)));
    }
  }
  // As the probabilities are computed: exact ones by GMP, counts by division.
  auto share_of = [&](const mpq_class& q) {
    return exact ? q.get_d() : mpq_class(q).get_d() / (runs > 0 ? runs : 1);
  };
  mpq_class resolved = 0;
  for (const auto& x : w) resolved += x;
  mpq_class below = 0;
  for (std::size_t i = 0; i < n; ++i) {
    a.at_least.push_back(share_of(resolved - below));
    below += w[i];
    a.at_most.push_back(share_of(below));
  }
  if (d.numeric) {
    // The smallest v with P(X <= v) >= p, among the runs that gave a value.
    for (const int point : percentile_points) {
      const mpq_class target = resolved * mpq_class(point, 100);
      mpq_class sum = 0;
      std::optional<std::int64_t> found;
      for (std::size_t i = 0; i < n && resolved > 0; ++i) {
        sum += w[i];
        if (sum >= target) {
          found = *d.entries[i].value.as_int();
          break;
        }
      }
      a.percentiles.push_back(found);
    }
  }
  return a;
}

bool too_many_entries(const Stats& s, std::uint64_t per_entry, std::int64_t max_render_size) {
  std::uint64_t entries = s.value.entries.size();
  for (const auto& f : s.fields) entries += f.entries.size();
  return entries * per_entry > static_cast<std::uint64_t>(std::max<std::int64_t>(0, max_render_size));
}

}  // namespace alea
