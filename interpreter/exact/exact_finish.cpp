// interpreter/exact/exact_finish.cpp — the composed engine's entry point, and its
// distribution turned into Stats exactly as stats.cpp reports an enumeration:
// the same grouping of values (a pool counted as its total), the same order,
// the same fractions in lowest terms and the same rounding to doubles.
#include <fmt/format.h>
#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "interpreter/exact/exact.hpp"
#include "interpreter/exact/exact_compose.hpp"
#include "interpreter/exact/exact_fraction.hpp"
#include "interpreter/stats_tally.hpp"

namespace alea::compose {
namespace {

// Weights of values grouped as stats.cpp's Tally groups them.
struct Tally {
  std::vector<std::pair<Value, Weight>> entries;
  std::unordered_map<std::int64_t, std::size_t> numbers;
  std::map<std::string, std::size_t> others;

  void add(const Value& raw, const Weight& w) {
    const Value v = tally::counted(raw);
    auto found = [&](auto& index, auto key) {
      auto [it, fresh] = index.emplace(std::move(key), entries.size());
      if (fresh)
        entries.emplace_back(v, w);
      else
        entries[it->second].second += w;
    };
    if (const auto* i = v.as_int())
      found(numbers, *i);
    else
      found(others, fmt::format("{}:{}", static_cast<int>(v.kind()), to_display(v)));
  }
};

Distribution finish(std::string name, Tally t, const Fractions& fractions) {
  Distribution d;
  d.name = std::move(name);
  auto less = [](const auto& a, const auto& b) { return tally::value_less(a.first, b.first); };
  if (!std::is_sorted(t.entries.begin(), t.entries.end(), less)) {
    std::stable_sort(t.entries.begin(), t.entries.end(), less);
  }
  d.numeric =
      !t.entries.empty() && std::all_of(t.entries.begin(), t.entries.end(),
                                        [](const auto& e) { return e.first.as_int() != nullptr; });
  d.entries.reserve(t.entries.size());
  for (const auto& [v, w] : t.entries) d.entries.push_back({v, fractions(w)});
  if (d.numeric) {
    std::vector<std::pair<std::int64_t, Weight>> xs;
    xs.reserve(t.entries.size());
    for (const auto& [v, w] : t.entries) xs.emplace_back(*v.as_int(), w);
    Moments m = moments(xs);
    d.mean = m.mean;
    d.sd = m.sd;
    d.exact_mean = std::move(m.exact_mean);
  }
  return d;
}

Stats to_stats(Dist&& dist, const Composer& c) {
  Tally value;
  std::vector<std::string> names;
  std::vector<Tally> fields;
  const bool numbers = std::all_of(dist.entries.begin(), dist.entries.end(),
                                   [](const auto& e) { return e.first.as_int() != nullptr; });
  if (numbers) {
    value.entries = std::move(dist.entries);  // distinct numbers already
  } else {
    for (const auto& [v, w] : dist.entries) {
      value.add(v, w);
      if (const auto* r = v.as_record()) {
        for (std::size_t i = 0; i < r->names.size(); ++i) {
          auto it = std::find(names.begin(), names.end(), r->names[i]);
          if (it == names.end()) {
            names.push_back(r->names[i]);
            fields.emplace_back();
            it = names.end() - 1;
          }
          fields[static_cast<std::size_t>(it - names.begin())].add(r->values[i], w);
        }
      }
    }
  }
  // Each row of the answer holds its value and exact probability, next to the distribution
  // it comes from; a number's row its weight once more, for the moments.
  std::uint64_t rows = value.entries.size();
  for (const auto& f : fields) rows += f.entries.size();
  c.expect_memory(rows * (sizeof(DistributionEntry) + sizeof(std::pair<std::int64_t, Weight>)));
  Fractions fractions(dist.total);
  Stats s;
  s.method = StatsMethod::Exact;
  s.exact_method = "composed";
  s.runs = std::max<std::uint64_t>(c.branches(), 1);
  s.value = finish("", std::move(value), fractions);
  for (std::size_t i = 0; i < fields.size(); ++i)
    s.fields.push_back(finish(names[i], std::move(fields[i]), fractions));
  s.cut_off = fractions(dist.fail.cut);
  s.errors = fractions(dist.fail.err);
  s.still_looping = fractions(dist.fail.loop);
  if (!dist.fail.loop.is_zero()) s.loop_rounds = c.loop_rounds();
  s.unresolved = fractions(dist.fail.cut + dist.fail.err + dist.fail.loop);
  if (!dist.fail.err.is_zero() && dist.fail.error) s.first_error = *dist.fail.error;
  return s;
}

}  // namespace

std::string over_budget_reason(const std::string& limit, const StatsOptions& options, const Limits& limits) {
  if (limit == "max_odds_work")
    return fmt::format("composing needs more than {} units of work (max_odds_work)", limits.max_odds_work);
  if (limit == "max_odds_memory")
    return fmt::format("composing needs more than {} bytes of outcomes (max_odds_memory)", limits.max_odds_memory);
  if (limit == "time_limit")
    return fmt::format("an exact answer takes more than {} (time_limit)", seconds_text(time_limit_of(options).value_or(0)));
  return fmt::format("composing needs more than {} branches (max_branches)", options.max_branches);
}

Composed compose_stats(const CompiledProgram& program, const Bindings& bindings, const Limits& limits,
                       const StatsOptions& options, std::chrono::steady_clock::time_point start,
                       std::chrono::steady_clock::time_point deadline, std::uint64_t rare_chains) {
  Composer c(bindings, limits, options.max_branches, options.cancel);
  c.set_clock(start, deadline, &options.exact_progress);
  c.cut_rare_chains(rare_chains);
  c.keep_order(may_read_order(*program.ast));
  try {
    Dist d = c.run_program(*program.ast);
    Stats s = to_stats(std::move(d), c);
    return {std::move(s), "", "", false, c.cut_rare_chains(), c.loop_counters(), c.summarised(), c.work()};
  } catch (const NotComposable& n) {
    return {std::nullopt, n.why, "", false, false, {}, 0, c.work()};
  } catch (const OverBudget& o) {
    return {std::nullopt, over_budget_reason(o.limit, options, limits), o.limit, false, false, {}, 0, c.work()};
  } catch (const Cancelled&) {
    return {std::nullopt, "interrupted", "", true, false, {}, 0, c.work()};
  }
}

}  // namespace alea::compose
