// cli/stats_render.hpp — a computed distribution (interpreter/stats.hpp) as text
// for a terminal and as an SVG chart (as JSON for tools: the library's stats_document,
// interpreter/render/json_documents.hpp, which also defines the StatsContext they all read);
// and the progress line shown while sampling. `alea stats` and the REPL's :stats share them.
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
// A standalone SVG bar chart, or nothing when it would pass max_render_size.
[[nodiscard]] std::optional<std::string> stats_svg(const Stats& stats, const StatsContext& context);
// Why stats_document (the library's alea.stats/1) or stats_svg gave nothing: `what` ("the
// JSON", "the chart") would pass max_render_size.
[[nodiscard]] Diagnostic too_large(std::string_view what, const StatsContext& context);

// Writes `text` to `file` through a temporary file in the same directory and a
// rename, so that the file is never seen half written. Returns an error
// message, or "" on success.
[[nodiscard]] std::string write_atomically(const std::string& file, const std::string& text);

// "sampling… 42%" on stderr, rewritten in place, once sampling has run for a
// second; only when stderr is a terminal. Call update() from StatsOptions::progress
// and `finish()` when compute_stats returns. A sweep names its cell: "cell 3/32… 42%".
class ProgressLine {
 public:
  ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { finish(); }

  void update(double fraction, std::string_view what = "sampling");
  // An exact attempt `seconds` long so far: shown from its first second on.
  void elapsed(double seconds, std::string_view what = "exact odds");
  // Whether anything is ever shown: standard error is a terminal.
  [[nodiscard]] bool shows() const { return terminal_; }
  void finish();

 private:
  bool terminal_ = false;
  bool shown_ = false;
  std::string last_;  // the line shown

  void show(const std::string& text);
  std::chrono::steady_clock::time_point start_;
};

}  // namespace alea::cli
