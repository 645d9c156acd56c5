// cli/history.cpp — reading and rewriting the REPL's history file.
#include "cli/history.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

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

std::vector<std::string> HistoryFile::load() {
  std::vector<std::string> entries;
  if (!path_) return entries;
  std::error_code ec;
  if (!fs::exists(*path_, ec)) return entries;
  if (fs::is_directory(*path_, ec)) {
    fail(fmt::format("the history file {} is a directory", path_->string()));
    return entries;
  }
  std::ifstream in(*path_, std::ios::binary);
  if (!in) {
    // Writing now would replace entries that could not be read.
    fail(fmt::format("cannot read the history file {}: {}", path_->string(),
                     std::strerror(errno)));
    return entries;
  }
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) entries.push_back(decode_entry(line));
  }
  if (entries.size() > history_cap) entries.erase(entries.begin(), entries.end() - history_cap);
  return entries;
}

void HistoryFile::append(const std::string& entry) {
  if (!path_ || failed_) return;
  std::vector<std::string> entries = load();
  if (!entries.empty() && entries.back() == entry) return;
  entries.push_back(entry);
  if (entries.size() > history_cap) entries.erase(entries.begin(), entries.end() - history_cap);

  std::error_code ec;
  // Write through a symlink (a dotfile manager's), not over it.
  std::filesystem::path target = fs::is_symlink(*path_, ec) ? fs::canonical(*path_, ec) : *path_;
  if (ec) target = *path_;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  const std::filesystem::path tmp = fmt::format("{}.{}.tmp", target.string(), ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    for (const auto& e : entries) out << encode_entry(e) << '\n';
    out.flush();
    if (!out) {
      fail(fmt::format("cannot write the history file {}: {}", tmp.string(),
                       std::strerror(errno)));
      fs::remove(tmp, ec);
      return;
    }
  }
  // Inputs may hold anything a player typed: keep them private, as shells do.
  fs::permissions(tmp, fs::perms::owner_read | fs::perms::owner_write, ec);
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    fail(fmt::format("cannot write the history file {}: {}", target.string(), ec.message()));
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
