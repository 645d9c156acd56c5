// cli/state_file.hpp — the JSON file `--state FILE` keeps a character's state
// in between invocations: read it (a missing file is the default state), check
// it against the rulesets, and write it back atomically.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "cli/ruleset_path.hpp"
#include "interpreter/api.hpp"

namespace alea::cli {

// The entry of a state file that keeps named characters rather than a ruleset's counters:
// {"characters": {"ivan": {"str": 4}}}, each available by name as a record argument
// (cli/record_args.hpp). No ruleset's state is kept under it.
inline constexpr std::string_view characters_key = "characters";

// A state file that cannot be read, parsed, checked or written: what() is the
// whole report, one or more lines naming the file, ready for stderr.
struct StateFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The error of a state file as a JSON document holds it: StateInvalid, at the file, with the
// report's first line as its message and the whole report as what stderr shows.
[[nodiscard]] ErrorReport state_file_error_report(const std::string& file, const StateFileError& e);

// The advisory lock of a state file, held while it lives: `flock` on FILE.lock
// beside the file (beside the file a symbolic link names). A command that
// updates the state takes it before reading the file and keeps it until the
// new state is renamed into place, so two processes updating one file
// serialise and no update is lost. Throws StateFileError when another process
// holds it for longer than `wait`.
class StateLock {
 public:
  explicit StateLock(const std::string& file, std::chrono::milliseconds wait = std::chrono::seconds(5));
  ~StateLock();
  StateLock(StateLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  StateLock& operator=(StateLock&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }

 private:
  int fd_ = -1;
};

// The state in `file`; the empty state (every counter at its default) when
// there is no such file. Throws StateFileError.
[[nodiscard]] State read_state_file(const std::string& file);

// Throws StateFileError when `state` does not fit the rulesets `engine` has
// loaded, or holds an entry for a ruleset neither loaded nor on `path`.
void check_state_file(const std::string& file, const State& state, const Engine& engine, const RulesetPath& path);

// Writes `state` to `file` (take a StateLock first, before reading it) so that the file is always whole: the new text goes
// to a temporary file in the same directory, which is flushed to the disk and
// then renamed over `file`. A process killed while writing leaves the old
// file whole, and at most a hidden temporary `.FILE.PID.XXXXXX`, which the
// next write removes once that process is gone. Throws StateFileError.
void write_state_file(const std::string& file, const State& state);

}  // namespace alea::cli
