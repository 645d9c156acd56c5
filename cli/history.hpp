// cli/history.hpp — the REPL's history file: where it lives and how it is kept.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace alea::cli {

inline constexpr std::size_t history_cap = 1000;  // entries kept

// $ALEA_HISTORY, else $XDG_STATE_HOME/alea/history, else ~/.alea_history.
[[nodiscard]] std::optional<std::filesystem::path> history_path();

// One entry per line; a backslash escapes a newline (multi-line inputs) or itself.
[[nodiscard]] std::string encode_entry(std::string_view entry);
[[nodiscard]] std::string decode_entry(std::string_view line);

// The history file. It is rewritten after every input, merged with what other
// sessions wrote meanwhile, through a temporary file and a rename: a crash or a
// kill loses at most the input being typed. Sessions appending at once take
// turns on a lock file (FILE.lock), so none loses another's entries. Problems cost one warning, never
// the session.
class HistoryFile {
 public:
  explicit HistoryFile(std::optional<std::filesystem::path> path) : path_(std::move(path)) {
    if (!path_) warn("no history file: neither ALEA_HISTORY nor HOME is set");
  }

  [[nodiscard]] std::vector<std::string> load();

  void append(const std::string& entry);

 private:
  std::optional<std::filesystem::path> path_;
  bool warned_ = false, failed_ = false;

  void warn(const std::string& message);
  void fail(const std::string& message);
};

}  // namespace alea::cli
