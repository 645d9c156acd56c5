// cli/stats_compare.hpp — the reports of `alea stats` with several variants or a sweep: the
// measures read off each distribution (mean, sd, each named outcome's probability, each field's
// mean), a comparison table with differences against the first variant and the histograms
// side by side, a sweep's grid (text, CSV, JSON) and its heatmap, and their SVG charts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/stats_variants.hpp"

namespace alea::cli {

// One number read off a distribution.
struct Measure {
  std::string key;           // "mean", "sd", "P(true)", "result mean", "P(success)", "P(outcome=failure)"
  std::string field;         // the record field it is of; "" for the value itself
  std::string outcome;       // for a probability: "true", "success", "failure" (the label or bool field)
  bool probability = false;  // else a mean or an sd
  double value = 0;
  std::string exact;         // the exact fraction ("1099/2592"), "" when sampled
};

// The distribution of `s`'s field `field`, or of its value for ""; null when it has no such field.
[[nodiscard]] const Distribution* distribution_of(const Stats& s, const std::string& field);

// Every measure of `s`, in the order of its fields.
[[nodiscard]] std::vector<Measure> measures(const Stats& s);

// What --field and --outcome keep; nothing given keeps every measure.
struct MeasureFilter {
  std::vector<std::string> fields;    // record fields (their mean, sd and outcomes)
  std::vector<std::string> outcomes;  // `true`, a label, a bool field's name, or FIELD=LABEL
  [[nodiscard]] bool empty() const { return fields.empty() && outcomes.empty(); }
  [[nodiscard]] bool keeps(const Measure& m) const;
};

// The filter with each --outcome as the measures it means in `s`: `success` is the bool field
// of that name if there is one, else each label `success` (`outcome=success`). Throws
// UsageError when a --field or --outcome names nothing `s` has, listing what it has.
[[nodiscard]] MeasureFilter resolve_filter(const MeasureFilter& filter, const Stats& s);

// The whole result of one `alea stats` command line.
struct StatsReport {
  const StatsPlan* plan = nullptr;
  std::vector<StatsCell> cells;  // in order: combination by combination, each variant in turn
  std::size_t cells_asked = 0;   // fewer cells than that: interrupted
  MeasureFilter filter;
  bool colour = false;           // ANSI colours for the heatmap (a terminal, NO_COLOR unset)
  std::int64_t max_render_size = 0;
  [[nodiscard]] bool interrupted() const { return cells.size() < cells_asked; }
};

// Text for a terminal: the comparison (a column per variant and the differences, then the
// histograms) or the sweep's grid (and its heatmap for two swept settings and one measure).
[[nodiscard]] std::string report_text(const StatsReport& r);
// The grid, or the comparison, as CSV: a row per cell, a column per measure.
[[nodiscard]] std::string report_csv(const StatsReport& r);
// alea.compare/1 (no sweep: each variant's alea.stats/1) or alea.sweep/1 (the grid); nothing
// when it would pass max_render_size.
[[nodiscard]] std::optional<std::string> report_json(const StatsReport& r);
// The comparison's histograms overlaid with a legend, a sweep's curves (one swept setting) or
// heatmap (two, and one measure): a standalone SVG, or nothing past max_render_size.
// `cumulative` is "", "at-least" or "at-most" (the curves drawn for numbers).
[[nodiscard]] std::optional<std::string> report_svg(const StatsReport& r, std::string_view cumulative);

}  // namespace alea::cli
