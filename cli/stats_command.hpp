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
#include "interpreter/stats.hpp"

namespace alea::cli {

struct StatsArgs {
  std::vector<std::string> words;
  bool json = false;
  std::string svg;
  std::uint64_t samples = 100'000;
  std::uint64_t seed = 0;
  unsigned threads = 0;  // 0: every core
  bool exact = false, sampled = false;
  std::uint64_t max_branches = StatsOptions{}.max_branches;
  std::int64_t explosion_depth = StatsOptions{}.explosion_depth;
  std::string state_file;             // --state FILE: the counters a mechanic starts from (read only)
  std::vector<std::string> choose;    // --choose NAME[=VALUE]
  std::vector<std::string> flags;     // the choices' flags (--use-edge)
  Limits limits;                      // --limit NAME=VALUE
  // Raised (by a Ctrl-C handler) to stop the computation: sampling then
  // reports the runs so far, marked interrupted.
  const std::atomic<bool>* cancel = nullptr;
};

// Adds the `stats` subcommand and its options to `app`.
CLI::App* add_stats_command(CLI::App& app, StatsArgs& args);

// Runs it: exit 0, 1 for an error in the expression or the ruleset, 2 for bad usage
// (thrown as UsageError).
int stats_command(const StatsArgs& args, const RulesetPath& path);

}  // namespace alea::cli
