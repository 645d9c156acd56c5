// cli/stats_render.hpp — a computed distribution (interpreter/stats.hpp) as text
// for a terminal, as JSON for tools and as an SVG chart; and the progress line
// shown while sampling. `alea stats` and the REPL's :stats share them.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"

namespace alea {
struct MechanicInfo;  // interpreter/rulesets/ruleset.hpp
}  // namespace alea

namespace alea::cli {

// What the renderers need besides the Stats: what was asked and how.
struct StatsContext {
  std::string expression;              // shown as the title: "3d6", "my_game.check(dice: 3)"
  std::uint64_t seed = 0;              // the sampler's seed
  std::int64_t explosion_depth = 12;   // where an exact run cut an explosion chain off
  std::int64_t engine_explosion_limit = 100;  // where a sampled run did (max_explosion_depth)
  std::int64_t max_render_size = Limits{}.max_render_size;  // bytes any one rendering may take
};

// The named outcomes a mechanic declares, so that those that never happen are
// listed too (with probability 0) and all are listed in the declared order:
// field name → labels, with "" for the value itself.
using DeclaredOutcomes = std::map<std::string, std::vector<std::string>>;

// The declared outcomes of a ruleset's mechanic (its label result or fields).
[[nodiscard]] DeclaredOutcomes declared_outcomes(const MechanicInfo& m);

// Adds each declared label that `stats` never met, with probability 0, and puts
// the labels of those distributions in the declared order.
void add_declared_outcomes(Stats& stats, const DeclaredOutcomes& declared);

// The report for a terminal, 80 columns wide. Past max_render_size bytes its
// table is cut at a line and ends with a marker saying how many lines were
// left out.
[[nodiscard]] std::string stats_text(const Stats& stats, const StatsContext& context);
// One JSON document (see docs/stats.md for its shape), or nothing when it
// would pass max_render_size bytes (too_large() then says so).
[[nodiscard]] std::optional<std::string> stats_json(const Stats& stats, const StatsContext& context);
// A standalone SVG bar chart, or nothing when it would pass max_render_size.
[[nodiscard]] std::optional<std::string> stats_svg(const Stats& stats, const StatsContext& context);
// Why stats_json or stats_svg gave nothing: `what` ("the JSON", "the chart")
// would pass max_render_size.
[[nodiscard]] Diagnostic too_large(std::string_view what, const StatsContext& context);
// An error as the JSON document `--json` prints instead of the distribution.
[[nodiscard]] std::string stats_error_json(const Diagnostic& d, std::string_view expression);

// Writes `text` to `file` through a temporary file in the same directory and a
// rename, so that the file is never seen half written. Returns an error
// message, or "" on success.
[[nodiscard]] std::string write_atomically(const std::string& file, const std::string& text);

// "sampling… 42%" on stderr, rewritten in place, once sampling has run for a
// second; only when stderr is a terminal. Give `callback()` to
// StatsOptions::progress and call `finish()` when compute_stats returns.
class ProgressLine {
 public:
  ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { finish(); }

  void update(double fraction);
  void finish();

 private:
  bool terminal_ = false;
  bool shown_ = false;
  int last_percent_ = -1;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace alea::cli
