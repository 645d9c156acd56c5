// cli/stats_command.hpp — `alea stats EXPR…` and `alea stats RULESET.MECHANIC key=value…`:
// how a roll is distributed, exactly or by sampling (interpreter/stats.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/ruleset_path.hpp"
#include "cli/stats_render.hpp"
#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"

namespace alea::cli {

struct StatsArgs {
  std::vector<std::string> words;
  bool json = false;
  bool csv = false;                   // --csv: the grid (or the comparison) as CSV
  std::string svg;
  std::string chart;                  // --chart at-least|at-most: the curves an SVG draws
  std::vector<std::string> labels;    // --label, one per variant
  std::vector<std::string> fields;    // --field NAME: the record fields reported
  std::vector<std::string> outcomes;  // --outcome NAME: the outcomes reported
  std::uint64_t samples = 100'000;
  std::uint64_t seed = 0;
  unsigned threads = 0;  // 0: every core
  bool exact = false, sampled = false;
  std::uint64_t max_branches = StatsOptions{}.max_branches;  // no_branch_cap unless --max-branches
  double time_limit = 0;  // --time-limit SECONDS; 0: not given
  std::int64_t explosion_depth = -1;  // --explosion-depth N; -1: not given (deeper as needed)
  std::string state_file;             // --state FILE: the counters a mechanic starts from (read only)
  std::vector<std::string> choose;    // --choose NAME[=VALUE]
  std::vector<std::string> flags;     // the choices' flags (--use-edge)
  std::vector<std::string> with;      // --with FILE: files of records whose entries are arguments by name
  Limits limits;                      // --limit NAME=VALUE
  // Raised (by a Ctrl-C handler) to stop the computation: sampling then
  // reports the runs so far, marked interrupted.
  const std::atomic<bool>* cancel = nullptr;
};

// What `stats` asks besides the program: how (StatsOptions: exact_only, sampled_only, samples…),
// the title, and what the mechanic called declares. The notes of an exact-only failure name the
// settings as the caller's user writes them.
struct StatsQuery {
  StatsOptions options;
  std::string shown;               // the title: "3d6", "my_game.check(dice: 3)"
  DeclaredOutcomes declared;       // a mechanic's labels, shown even when never met
  std::string sampled_mechanic;    // a mechanic whose ruleset asks for sampling (odds: sampled)
  std::string_view max_branches_name = "--max-branches";
  std::string_view time_limit_name = "--time-limit";
  std::string_view to_sample = "leave out --exact to sample";
  const Bindings* variables = nullptr;  // the REPL session's, which the expression may read
};

// The distribution, or the problems that left none (no exact answer when only exact was asked
// for, every run an error, too few samples, interrupted).
struct StatsAnswer {
  std::optional<Stats> stats;
  StatsContext context;  // for the reports (stats_document, stats_text)
  Diagnostics diagnostics;
};
[[nodiscard]] StatsAnswer answer_stats(const Engine& engine, const Compiled& compiled, StatsQuery query);

// Adds the `stats` subcommand and its options to `app`.
CLI::App* add_stats_command(CLI::App& app, StatsArgs& args);

// Runs it: exit 0, 1 for an error in the expression or the ruleset, 2 for bad usage
// (thrown as UsageError).
int stats_command(const StatsArgs& args, const RulesetPath& path);

// Where a stats command runs: its engine (the rulesets loaded so far), the ruleset path, and, in
// the REPL, the session's variables and the inputs that defined its functions.
struct StatsSession {
  Engine& engine;
  const RulesetPath& path;
  const Bindings* variables = nullptr;
  Imports imports = {};
};

// The same in a session: the report on standard output, problems on standard error. `variants`
// makes every word a variant of its own, never joined into one expression (the REPL's :compare).
int run_stats(const StatsSession& session, const StatsArgs& args, bool variants = false);

}  // namespace alea::cli
