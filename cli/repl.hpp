// cli/repl.hpp — the interactive loop behind `alea` with no arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/limits.hpp"

namespace alea::cli {

struct ReplOptions {
  std::optional<std::uint64_t> seed;  // none: a fresh random seed
  std::vector<std::string> ruleset_dirs;  // --rulesets, searched before $ALEA_PATH
  std::string state_file;  // --state: the rulesets' state, read at the start and saved on each change
  Limits limits;           // --limit NAME=VALUE
};

// Runs until :quit or end of input; returns the process exit code.
int run_repl(const ReplOptions& options);

}  // namespace alea::cli
