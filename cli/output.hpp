// cli/output.hpp — standard output that fails loudly: a full disk or any
// other write error is reported and exits 1; a reader that went away (`| head`)
// ends the program quietly with status 0, never by SIGPIPE.
#pragma once

#include <string_view>
#include <system_error>

namespace alea::cli {

constexpr int exit_output_failed = 1;

// Ignores SIGPIPE, so that a closed pipe is a write error (EPIPE) like any other.
void prepare_output();

// Whether `e` (as fmt::print throws it) is a failed write, and not some
// other system error.
[[nodiscard]] bool is_write_error(const std::system_error& e);

// Reports the write that failed with `error` and returns the exit code: 0 for
// a closed pipe (no message), exit_output_failed otherwise ("alea: cannot
// write the output: No space left on device" on stderr).
int output_failed(int error);

// Flushes std::cout and stdout and checks that everything written reached its
// file; returns `code`, or output_failed's code when something did not.
int finish_output(int code);

}  // namespace alea::cli
