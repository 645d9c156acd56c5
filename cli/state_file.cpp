// cli/state_file.cpp — reading, checking and atomically writing a state file.
#include "cli/state_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli/ruleset_commands.hpp"

namespace alea::cli {

namespace fs = std::filesystem;

namespace {

// A state file is a few counters; anything this big is not one.
constexpr std::uintmax_t max_state_bytes = 1 << 20;

[[noreturn]] void fail(const std::string& file, const std::string& message) {
  throw StateFileError(fmt::format("{}: error: {} [StateInvalid]\n", file, message));
}

std::string os_error() { return std::strerror(errno); }

// Writes all of `text` to `fd`.
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

}  // namespace

State read_state_file(const std::string& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  if (fs::is_directory(file, ec)) fail(file, "this is a directory, not a state file");
  if (const auto size = fs::file_size(file, ec); !ec && size > max_state_bytes) {
    fail(file, fmt::format("the file has {} bytes; a state file holds at most {}", size, max_state_bytes));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(file, fmt::format("cannot read the state file: {}", os_error()));
  std::ostringstream text;
  text << in.rdbuf();
  StateParse parsed = parse_state_json(text.str(), file);
  if (!parsed.state) throw StateFileError(render_text(parsed.diagnostics));
  return std::move(*parsed.state);
}

void check_state_file(const std::string& file, const State& state, const Engine& engine, const RulesetPath& path) {
  std::string report;
  for (const auto& [ruleset, values] : state.all()) {
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
  fs::path target(file);
  std::error_code ec;
  // Through a symbolic link to the file it names, rather than replacing the link.
  if (fs::is_symlink(target, ec)) {
    const fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) target = resolved;
  }
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

}  // namespace alea::cli
