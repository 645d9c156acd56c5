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

namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

}  // namespace

bool is_identifier(std::string_view s) {
  return !s.empty() && is_ident_start(s[0]) && std::all_of(s.begin(), s.end(), is_ident_char);
}

bool is_mechanic_word(std::string_view word) {
  const auto dot = word.find('.');
  return dot != std::string_view::npos && is_ruleset_name(word.substr(0, dot)) &&
         is_identifier(word.substr(dot + 1));
}

std::vector<std::string> mentioned_rulesets(std::string_view source) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < source.size()) {
    const char c = source[i];
    if (c == '#') {  // a comment, to the end of the line
      while (i < source.size() && source[i] != '\n') ++i;
    } else if (c == '"') {  // a string: it ends on its line; '\' escapes
      for (++i; i < source.size() && source[i] != '"' && source[i] != '\n'; ++i) {
        if (source[i] == '\\') ++i;
      }
      ++i;
    } else if (is_ident_start(c) && (i == 0 || source[i - 1] != '.')) {
      const std::size_t b = i;
      while (i < source.size() && is_ident_char(source[i])) ++i;
      if (i + 1 < source.size() && source[i] == '.' && is_ident_start(source[i + 1])) {
        std::string name(source.substr(b, i - b));
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
      }
    } else if (is_ident_char(c) || c == '.') {
      // A number, or a field after a '.': skip it whole, so `r.a.b` only names `r`.
      ++i;
      while (i < source.size() && is_ident_char(source[i])) ++i;
    } else {
      ++i;
    }
  }
  return out;
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
