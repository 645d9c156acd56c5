// interpreter/io/read_file.cpp — see read_file.hpp.
#include "interpreter/io/read_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace alea {

namespace {

FileText failure(std::string why) {
  FileText out;
  out.error = std::move(why);
  return out;
}

FileText too_large(std::string why) {
  FileText out = failure(std::move(why));
  out.too_large = true;
  return out;
}

// What `st` is, when it is not something to read as text.
std::optional<std::string> not_a_file(const struct stat& st) {
  if (S_ISREG(st.st_mode)) return std::nullopt;
  if (S_ISDIR(st.st_mode)) return "is a directory";
  if (S_ISFIFO(st.st_mode)) return "is a FIFO (a named pipe), not a file";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "is a device, not a file";
  if (S_ISSOCK(st.st_mode)) return "is a socket, not a file";
  return "is not a regular file";
}

// Reads `fd` to its end, failing once more than `max_bytes` arrive.
FileText read_all(int fd, std::size_t max_bytes, std::size_t expected) {
  std::string text;
  text.reserve(std::min(expected, max_bytes) + 1);
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return failure(fmt::format("cannot be read: {}", std::strerror(errno)));
    }
    if (n == 0) break;
    if (static_cast<std::size_t>(n) > max_bytes - text.size()) {
      return too_large(fmt::format("is more than {} bytes; at most {} may be read", max_bytes, max_bytes));
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  FileText out;
  out.text = std::move(text);
  return out;
}

}  // namespace

FileText read_file_capped(const std::filesystem::path& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO no one writes to would otherwise wait forever.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    FileText out = failure(err == ENOENT ? std::string("does not exist")
                                         : fmt::format("cannot be opened: {}", std::strerror(err)));
    out.missing = err == ENOENT;
    return out;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return failure(fmt::format("cannot be examined: {}", std::strerror(errno)));
  if (auto why = not_a_file(st)) return failure(std::move(*why));
  const auto size = static_cast<std::uintmax_t>(st.st_size);
  if (size > max_bytes) return too_large(fmt::format("is {} bytes; at most {} may be read", size, max_bytes));
  // A regular file never blocks; clear the flag anyway so that no read returns EAGAIN.
  if (const int flags = ::fcntl(fd, F_GETFL); flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return read_all(fd, max_bytes, static_cast<std::size_t>(size));
}

FileText read_fd_capped(int fd, std::size_t max_bytes) {
  struct stat st {};
  if (::fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return failure("is a directory");
    if (S_ISREG(st.st_mode) && static_cast<std::uintmax_t>(st.st_size) > max_bytes) {
      return too_large(fmt::format("is {} bytes; at most {} may be read", st.st_size, max_bytes));
    }
  }
  return read_all(fd, max_bytes, 0);
}

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace alea
