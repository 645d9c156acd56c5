// cli/exit_codes.hpp — what the alea program's exit status says (`alea --help` lists them).
#pragma once

namespace alea::cli {

constexpr int exit_ok = 0;
constexpr int exit_bad_input = 1;  // an error in the input, reported on stderr
constexpr int exit_usage = 2;      // a command line that is not one
// A command stopped by Ctrl-C (128 + SIGINT, as shells report it).
constexpr int exit_interrupted = 130;

}  // namespace alea::cli
