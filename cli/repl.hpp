// cli/repl.hpp — the interactive loop behind `alea` with no arguments.
#pragma once

#include <cstdint>
#include <optional>

namespace alea::cli {

struct ReplOptions {
  std::optional<std::uint64_t> seed;  // none: a fresh random seed
};

// Runs until :quit or end of input; returns the process exit code.
int run_repl(const ReplOptions& options);

}  // namespace alea::cli
