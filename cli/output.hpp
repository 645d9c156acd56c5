// cli/output.hpp — standard output that fails loudly: a full disk or any
// other write error is reported and exits 1; a reader that went away (`| head`)
// ends the program quietly with status 0, never by SIGPIPE.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace alea::cli {

// An error or a note on stderr; stdout is flushed first so that the two streams appear in order
// on a terminal or in `2>&1`.
template <class... Args>
void report(fmt::format_string<Args...> format, Args&&... args) {
  std::fflush(stdout);
  fmt::print(stderr, format, std::forward<Args>(args)...);
  std::fflush(stderr);
}

// How many display columns UTF-8 text takes: one per code point (the docs quote Greek).
[[nodiscard]] std::size_t columns(std::string_view s);

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
