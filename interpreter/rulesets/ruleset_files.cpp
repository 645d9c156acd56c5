// interpreter/rulesets/ruleset_files.cpp — where rulesets are found by name.
#include "interpreter/rulesets/ruleset_files.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace alea::detail {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> spellings(std::string_view name) {
  std::string dashed(name), underscored(name);
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  std::replace(underscored.begin(), underscored.end(), '-', '_');
  std::vector<std::string> out{std::string(name)};
  for (auto& s : {dashed, underscored}) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

// The file this code was loaded from: libalea.so, or the program it is linked into.
std::optional<fs::path> own_file() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&own_file), &info) != 0 && info.dli_fname && *info.dli_fname) {
    std::error_code ec;
    fs::path p = fs::canonical(info.dli_fname, ec);
    if (!ec) return p;
  }
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) return exe;
  return std::nullopt;
}

}  // namespace

bool is_ruleset_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

bool is_identifier(std::string_view s) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  return !s.empty() && letter(s[0]) &&
         std::all_of(s.begin(), s.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

bool is_mechanic_word(std::string_view word) {
  const auto dot = word.find('.');
  return dot != std::string_view::npos && is_ruleset_name(word.substr(0, dot)) &&
         is_identifier(word.substr(dot + 1));
}

std::optional<fs::path> shipped_rulesets_dir() {
  std::error_code ec;
  if (const auto self = own_file()) {
    // The install layout, relative to PREFIX/bin (the program) or PREFIX/lib (the library).
    for (const char* rel : {ALEA_RULESETS_FROM_BIN, ALEA_RULESETS_FROM_LIB}) {
      const fs::path installed = (self->parent_path() / rel).lexically_normal();
      if (fs::is_directory(installed, ec)) return installed;
    }
  }
  // A build tree: the rulesets of the source it was built from.
  if (fs::is_directory(ALEA_RULESETS_DIR, ec)) return fs::path(ALEA_RULESETS_DIR);
  return std::nullopt;
}

std::vector<fs::path> ruleset_search_dirs(const std::vector<std::string>& extra,
                                          const std::optional<fs::path>& shipped) {
  std::vector<fs::path> dirs;
  for (const auto& d : extra) dirs.emplace_back(d);
  if (const char* env = std::getenv("ALEA_PATH")) {
    std::string_view rest(env);
    while (true) {
      const auto colon = rest.find(':');
      const std::string_view entry = rest.substr(0, colon);
      if (!entry.empty()) dirs.emplace_back(entry);  // an empty entry is a stray colon, not "."
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  if (shipped) dirs.push_back(*shipped);
  return dirs;
}

std::optional<fs::path> find_ruleset_file(std::string_view name, const std::vector<fs::path>& dirs) {
  if (!is_ruleset_name(name)) return std::nullopt;
  const auto names = spellings(name);
  for (const auto& dir : dirs) {
    for (const auto& n : names) {
      fs::path file = dir / (n + ".yaml");
      std::error_code ec;
      if (fs::is_regular_file(file, ec)) return file;
    }
  }
  return std::nullopt;
}

}  // namespace alea::detail
