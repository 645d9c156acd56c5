// cli/history.cpp — reading and rewriting the REPL's history file.
#include "cli/history.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "interpreter/io/read_file.hpp"

namespace alea::cli {

namespace fs = std::filesystem;

std::optional<fs::path> history_path() {
  const auto env = [](const char* name) -> std::string_view {
    const char* v = std::getenv(name);
    return v ? v : "";
  };
  if (!env("ALEA_HISTORY").empty()) return fs::path(env("ALEA_HISTORY"));
  // The XDG spec says to ignore a relative path here.
  if (const fs::path state(env("XDG_STATE_HOME")); state.is_absolute()) {
    return state / "alea" / "history";
  }
  if (!env("HOME").empty()) return fs::path(env("HOME")) / ".alea_history";
  return std::nullopt;
}

std::string encode_entry(std::string_view entry) {
  std::string out;
  for (const char c : entry) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string decode_entry(std::string_view line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      ++i;
      out += line[i] == 'n' ? '\n' : line[i];
    } else {
      out += line[i];
    }
  }
  return out;
}

namespace {

// A history file is at most history_cap entries; anything far larger is not one.
constexpr std::size_t max_history_bytes = 16 << 20;

// Holds `flock` on PATH.lock while it lives, so that two sessions appending at
// once both keep their entries. Without a lock file (a read-only directory), it
// holds nothing: the rewrite fails there anyway, with its own warning.
class HistoryLock {
 public:
  explicit HistoryLock(const fs::path& target) {
    // What is no regular file (/dev/null) is refused when it is read; no lock file beside it.
    if (struct stat st {}; ::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return;
    fd_ = ::open((target.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd_ < 0) return;
    // A few seconds at most: a stuck session must not freeze this one's prompt.
    for (int i = 0; i < 400 && ::flock(fd_, LOCK_EX | LOCK_NB) != 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  ~HistoryLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  HistoryLock(const HistoryLock&) = delete;
  HistoryLock& operator=(const HistoryLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

std::vector<std::string> HistoryFile::load() {
  std::vector<std::string> entries;
  if (!path_) return entries;
  const FileText read = read_file_capped(*path_, max_history_bytes);
  if (read.missing) return entries;
  if (!read.text) {
    // Writing now would replace entries that could not be read.
    fail(fmt::format("the history file {} {}", path_->string(), read.error));
    return entries;
  }
  std::string_view text = *read.text;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) entries.push_back(decode_entry(line));
  }
  if (entries.size() > history_cap) entries.erase(entries.begin(), entries.end() - history_cap);
  return entries;
}

void HistoryFile::append(const std::string& entry) {
  if (!path_ || failed_) return;
  std::error_code ec;
  // Write through a symlink (a dotfile manager's), not over it.
  std::filesystem::path target = fs::is_symlink(*path_, ec) ? fs::canonical(*path_, ec) : *path_;
  if (ec) target = *path_;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  // Read, merge and rename under the lock: another session's entry, written
  // between our read and our rename, would otherwise be lost.
  const HistoryLock lock(target);
  std::vector<std::string> entries = load();
  if (failed_) return;
  if (!entries.empty() && entries.back() == entry) return;
  entries.push_back(entry);
  if (entries.size() > history_cap) entries.erase(entries.begin(), entries.end() - history_cap);

  const std::filesystem::path tmp = fmt::format("{}.{}.tmp", target.string(), ::getpid());
  // Inputs may hold anything a player typed: keep them private, as shells do.
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  std::string text;
  for (const auto& e : entries) text += encode_entry(e) + '\n';
  if (fd < 0 || !write_all(fd, text) || ::fsync(fd) != 0) {
    fail(fmt::format("cannot write the history file {}: {}", tmp.string(), std::strerror(errno)));
    if (fd >= 0) ::close(fd);
    fs::remove(tmp, ec);
    return;
  }
  ::close(fd);
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    fail(fmt::format("cannot write the history file {}: {}", target.string(), ec.message()));
    return;
  }
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void HistoryFile::warn(const std::string& message) {
  if (warned_) return;
  warned_ = true;
  std::fflush(stdout);
  fmt::print(stderr, "warning: {}; history will not be kept\n", message);
}

void HistoryFile::fail(const std::string& message) {
  failed_ = true;
  warn(message);
}

}  // namespace alea::cli
