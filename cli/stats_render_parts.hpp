// cli/stats_render_parts.hpp — internal to the stats renderers: what the text
// renderer (stats_render.cpp) shares with the SVG chart (stats_render_svg.cpp) and the
// comparison's reports (stats_compare.cpp, stats_chart.cpp). Only those files include it. What the JSON document shares with them too, analyse() and
// too_many_entries(), is the library's (interpreter/render/stats_analysis.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/render/stats_analysis.hpp"
#include "interpreter/stats.hpp"

namespace alea::cli::detail {

// ---- numbers as people read them

// A number with at most `digits` decimals, without trailing zeros: 10.5, 12.2446, 7.
[[nodiscard]] std::string decimal(double x, int digits = 4);
// A probability as a percentage with two decimals: "0.46%", "<0.01%", ">99.99%".
[[nodiscard]] std::string percent(double p);
// A share of the runs for a sentence: "0.46%", or "0.0000000012".
[[nodiscard]] std::string share(double p);
// The exact fraction when it is no longer than `longest`: "1/216"; else "".
[[nodiscard]] std::string short_fraction(const Probability& p, std::size_t longest = 11);
// The 95% interval of a sampled probability: "0.41–0.52%".
[[nodiscard]] std::string interval(const Probability& p);
// n with commas between groups of three digits: "41,000".
[[nodiscard]] std::string thousands(std::uint64_t n);
[[nodiscard]] std::string plural(std::uint64_t n, std::string_view one, std::string_view many);
// A value as shown in a table or under a bar, cut at 40 columns.
[[nodiscard]] std::string shown_value(const Value& v);
// `s` padded with spaces to `width` terminal columns.
[[nodiscard]] std::string pad_left(std::string_view s, std::size_t width);
[[nodiscard]] std::string pad_right(std::string_view s, std::size_t width);
// A histogram bar `width` columns long at `max`, in eighths of a column.
[[nodiscard]] std::string bar(double p, double max, std::size_t width);

// ---- SVG (stats_render_svg.cpp)

// Text with &, <, >, " escaped for XML.
[[nodiscard]] std::string xml(std::string_view s);
// A coordinate with at most one decimal.
[[nodiscard]] std::string num(double x);
// A round step for an axis from 0 to `max` with at most about five lines.
[[nodiscard]] double nice_step(double max);
// A tick of a probability axis, with as many decimals as the step needs: "2.5%".
[[nodiscard]] std::string axis_percent(double p, double step);

// The colour of a heatmap's cell at `f` (0 lowest to 1 highest): pale yellow, through teal, to
// deep blue (stats_chart.cpp).
struct Rgb {
  int red, green, blue;
};
[[nodiscard]] Rgb heat_colour(double f);

// ---- what a distribution says

enum class Shape { Numeric, Bool, Other };

[[nodiscard]] Shape shape_of(const Distribution& d);
// Whether the value is a record whose fields have distributions of their own.
[[nodiscard]] bool is_record_value(const Stats& s);

// Bool distributions always list false and true.
[[nodiscard]] Distribution with_both_bools(const Stats& s, Distribution d);
// "P(true) = 12.50% (1/8)".
[[nodiscard]] std::string bool_text(const Stats& s, const Distribution& d);

}  // namespace alea::cli::detail
