// cli/output.cpp — see output.hpp. fmt::print throws std::system_error with
// errno when a write fails; stdio and iostreams only set an error flag, so
// both are checked once more at exit, after the last flush.
#include "cli/output.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string_view>
#include <algorithm>

namespace alea::cli {

void prepare_output() { std::signal(SIGPIPE, SIG_IGN); }

bool is_write_error(const std::system_error& e) {
  // fmt's own words (fwrite_fully); a thread that cannot start is another matter.
  return std::string_view(e.what()).starts_with("cannot write to file");
}

namespace {

// Why a write that someone else flushed (and did not check) failed, asked of
// the file itself: a pipe with no reader reports POLLERR, and a device that
// refuses writes (/dev/full) refuses an empty one too.
int earlier_error() {
  struct stat st {};
  if (::fstat(STDOUT_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
    pollfd p{STDOUT_FILENO, POLLOUT, 0};
    if (::poll(&p, 1, 0) == 1 && (p.revents & POLLERR) != 0) return EPIPE;
  }
  errno = 0;
  if (::write(STDOUT_FILENO, "", 0) < 0 && errno != 0) return errno;
  return EIO;
}

}  // namespace

int output_failed(int error) {
  if (error == EPIPE) return 0;
  // stderr may be the broken stream too; there is nothing more to do then.
  std::fprintf(stderr, "alea: cannot write the output: %s\n", std::strerror(error != 0 ? error : EIO));
  std::fflush(stderr);
  return exit_output_failed;
}

int finish_output(int code) {
  // std::cout shares stdout's buffer (synced with stdio): one flush, one errno.
  errno = 0;
  int error = std::fflush(stdout) == 0 ? 0 : errno;
  if (error == 0 && (std::ferror(stdout) || !std::cout.good())) error = earlier_error();
  if (error == 0) return code;
  const int result = output_failed(error);
  return result == 0 ? code : result;
}

std::size_t columns(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace alea::cli
