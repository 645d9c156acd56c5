// interpreter/io/read_file.hpp — reading a file the user named, whatever it turns out to be; writing a text whole.
//
// A name given as a ruleset, a program or a state file may be a directory, a FIFO that no
// one writes, /dev/zero or a 10 GB sparse file. Each is refused before any byte is read:
// the file is opened without blocking, the opened descriptor (links resolved) must be a
// regular file, and its size is checked against a cap, which also bounds the reading
// itself (a file that grows while it is read is still cut off there).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace alea {

struct FileText {
  std::optional<std::string> text;  // the whole file, or nullopt with `error`
  // Why it could not be read, to follow the file's name: "is a directory", "is a FIFO",
  // "is a device", "is 10737418240 bytes; at most 1000000 may be read",
  // "cannot be opened: No such file or directory".
  std::string error;
  bool missing = false;  // there is no such file (ENOENT)
  bool too_large = false;
};

// The text of `path`, at most `max_bytes` of it.
[[nodiscard]] FileText read_file_capped(const std::filesystem::path& path, std::size_t max_bytes);

// The text of an open descriptor (standard input), at most `max_bytes` of it. It blocks
// as reading does; a regular file or a pipe is read, a directory is refused.
[[nodiscard]] FileText read_fd_capped(int fd, std::size_t max_bytes);

// Writes all of `text` to `fd`, again after a short write or EINTR; false on
// an error, with errno set.
[[nodiscard]] bool write_all(int fd, std::string_view text);

}  // namespace alea
