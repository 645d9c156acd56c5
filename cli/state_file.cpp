// cli/state_file.cpp — reading, checking and atomically writing a state file.
#include "cli/state_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "cli/ruleset_commands.hpp"
#include "interpreter/io/read_file.hpp"

namespace alea::cli {

namespace fs = std::filesystem;

namespace {

// A state file is a few counters; anything this big is not one.
constexpr auto max_state_bytes = static_cast<std::size_t>(Limits{}.max_file_bytes);

[[noreturn]] void fail(const std::string& file, const std::string& message) {
  throw StateFileError(fmt::format("{}: error: {} [StateInvalid]\n", file, message));
}

std::string os_error() { return std::strerror(errno); }

// Removes the temporary files of writers that no longer run.
void remove_stale_temporaries(const fs::path& dir, const std::string& prefix) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string rest = name.substr(prefix.size());  // PID.XXXXXX
    const auto dot = rest.find('.');
    if (dot == std::string::npos || dot == 0 || rest.size() - dot != 7) continue;
    pid_t pid = 0;
    const auto [p, err] = std::from_chars(rest.data(), rest.data() + dot, pid);
    if (err != std::errc() || p != rest.data() + dot || pid <= 0) continue;
    if (::kill(pid, 0) != 0 && errno == ESRCH) ::unlink(it->path().c_str());
  }
}

// The file a write replaces: `file` itself, or the file its symbolic link names.
fs::path write_target(const std::string& file) {
  fs::path target(file);
  std::error_code ec;
  // Through a symbolic link to the file it names, rather than replacing the link.
  if (fs::is_symlink(target, ec)) {
    const fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) target = resolved;
  }
  return target;
}

}  // namespace

StateLock::StateLock(const std::string& file, std::chrono::milliseconds wait) {
  const fs::path target = write_target(file);
  // A directory, a FIFO or a device is refused by the read that follows; no lock file beside it.
  if (struct stat st {}; ::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return;
  const std::string lock = target.string() + ".lock";
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  // No lock file (a directory that is missing or not writable): the state cannot be
  // written there either, and the write reports that; reading needs no lock.
  if (fd_ < 0) return;
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if ((errno != EWOULDBLOCK && errno != EINTR) || std::chrono::steady_clock::now() >= deadline) {
      const bool busy = errno == EWOULDBLOCK;
      const std::string why = os_error();
      ::close(fd_);
      fd_ = -1;
      fail(file, busy ? fmt::format("another alea has been updating the state file for {} seconds (it holds {}); "
                                    "nothing was rolled",
                                    std::chrono::duration_cast<std::chrono::seconds>(wait).count(), lock)
                      : fmt::format("cannot lock the state file ({}): {}", lock, why));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

StateLock::~StateLock() {
  // Closing the descriptor releases the lock. The lock file stays: removing it
  // would let a waiting process lock a file that no longer has a name.
  if (fd_ >= 0) ::close(fd_);
}

State read_state_file(const std::string& file) {
  const FileText read = read_file_capped(file, max_state_bytes);
  if (read.missing) return {};
  if (!read.text) {
    fail(file, fmt::format("cannot read the state file: it {}{}", read.error, read.too_large ? " (max_file_bytes)" : ""));
  }
  StateParse parsed = parse_state_json(*read.text, file);
  if (!parsed.state) throw StateFileError(render_text(parsed.diagnostics));
  return std::move(*parsed.state);
}

void check_state_file(const std::string& file, const State& state, const Engine& engine, const RulesetPath& path) {
  std::string report;
  for (const auto& [ruleset, values] : state.all()) {
    if (ruleset == characters_key) continue;
    if (engine.find_ruleset(ruleset) || (is_ruleset_name(ruleset) && path.find(ruleset))) continue;
    const std::string near = closest_ruleset(ruleset, path, &engine);
    report += fmt::format("{}: error: the state has an entry for '{}', which is no ruleset{} [StateInvalid]\n", file,
                          ruleset, near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near));
  }
  for (const auto& problem : engine.check_state(state)) {
    report += fmt::format("{}: error: {} [StateInvalid]\n", file, problem);
  }
  if (!report.empty()) throw StateFileError(report);
}

void write_state_file(const std::string& file, const State& state) {
  const fs::path target = write_target(file);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // `.FILE.PID.XXXXXX`: a writer killed before its rename leaves its temporary
  // file behind, and the next writer removes it once that process is gone.
  const std::string prefix = "." + target.filename().string() + ".";
  remove_stale_temporaries(dir, prefix);
  std::string tmp = (dir / fmt::format("{}{}.XXXXXX", prefix, ::getpid())).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) fail(file, fmt::format("cannot write the state file (in {}): {}", dir.string(), os_error()));
  const auto give_up = [&](const std::string& what) {
    const std::string why = os_error();
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(file, fmt::format("cannot write the state file ({}): {}; it was left as it was", what, why));
  };
  // The mode of the file it replaces, or what a new file would get.
  struct stat st {};
  mode_t mode = 0;
  if (::stat(target.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd, mode) != 0) give_up("setting its permissions");
  const std::string text = state_to_json(state) + "\n";
  if (!write_all(fd, text)) give_up("writing");
  if (::fsync(fd) != 0) give_up("flushing it to the disk");
  if (::close(fd) != 0) {
    const std::string why = os_error();
    ::unlink(tmp.c_str());
    fail(file, fmt::format("cannot write the state file: {}; it was left as it was", why));
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const std::string why = os_error();
    ::unlink(tmp.c_str());
    fail(file, fmt::format("cannot replace the state file: {}; it was left as it was", why));
  }
  // The rename itself reaches the disk with the directory.
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

ErrorReport state_file_error_report(const std::string& file, const StateFileError& e) {
  const std::string report = e.what();
  const auto shown = SourceFile::make(file, "");
  return {Diagnostic(DiagCode::StateInvalid, shown->span(0, 0), report.substr(0, report.find('\n'))), report};
}

}  // namespace alea::cli
