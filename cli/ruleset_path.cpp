// cli/ruleset_path.cpp — the ruleset search path: --rulesets, $ALEA_PATH, the shipped rulesets.
#include "cli/ruleset_path.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <system_error>

#include "interpreter/rulesets/ruleset.hpp"

namespace alea::cli {

namespace fs = std::filesystem;

namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

// The file names `name` may have: as typed, then with '_' as '-' (the
// language's my_game is the file my-game.yaml), then the reverse.
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

std::optional<std::string> relative_if_under(const fs::path& file, const fs::path& dir) {
  const fs::path rel = file.lexically_relative(dir);
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  return rel.string();
}

}  // namespace

RulesetPath::RulesetPath(const std::vector<std::string>& extra) {
  for (const auto& d : extra) dirs_.emplace_back(d);
  if (const char* env = std::getenv("ALEA_PATH")) {
    std::string_view rest(env);
    while (true) {
      const auto colon = rest.find(':');
      const std::string_view entry = rest.substr(0, colon);
      if (!entry.empty()) dirs_.emplace_back(entry);  // an empty entry is a stray colon, not "."
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  if (auto shipped = shipped_dir()) {
    dirs_.push_back(*shipped);
    shipped_ = (dirs_.back() / "x").parent_path();  // without a trailing '/', as find() builds its files
  }
}

std::optional<fs::path> RulesetPath::shipped_dir() {
  std::error_code ec;
#ifdef ALEA_RULESETS_FROM_BIN
  // Installed: PREFIX/bin/alea finds PREFIX/share/alea/rulesets, wherever PREFIX was moved.
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = (exe.parent_path() / ALEA_RULESETS_FROM_BIN).lexically_normal();
    if (fs::is_directory(installed, ec)) return installed;
  }
#endif
#ifdef ALEA_RULESETS_DIR
  // A build tree: the rulesets of the source it was built from.
  if (fs::is_directory(ALEA_RULESETS_DIR, ec)) return fs::path(ALEA_RULESETS_DIR);
#endif
  return std::nullopt;
}

SourceOrigin RulesetPath::origin_of(const fs::path& found) const {
  return shipped_ && found.parent_path() == *shipped_ ? SourceOrigin::Library : SourceOrigin::User;
}

std::optional<fs::path> RulesetPath::find(std::string_view name) const {
  if (!is_ruleset_name(name)) return std::nullopt;
  const auto names = spellings(name);
  for (const auto& dir : dirs_) {
    for (const auto& n : names) {
      fs::path file = dir / (n + ".yaml");
      std::error_code ec;
      if (fs::is_regular_file(file, ec)) return file;
    }
  }
  return std::nullopt;
}

std::vector<RulesetPath::Entry> RulesetPath::all() const {
  // Keyed by the language's name, since my-game and my_game are
  // the same ruleset to the engine.
  std::map<std::string, Entry> found;
  for (const auto& dir : dirs_) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code fec;
      if (it->path().extension() == ".yaml" && it->is_regular_file(fec))
        files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());  // the same winner on every file system
    for (auto& f : files) {
      const std::string name = f.stem().string();
      if (!is_ruleset_name(name)) continue;
      found.try_emplace(ruleset_ident(name), Entry{name, std::move(f)});
    }
  }
  std::vector<Entry> out;
  for (auto& [ident, e] : found) out.push_back(std::move(e));
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return out;
}

bool is_ruleset_file(std::string_view arg) {
  return arg.ends_with(".yaml") || arg.find('/') != std::string_view::npos;
}

bool is_ruleset_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

std::string display_path(const fs::path& file) {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (ec) return file.string();
  const fs::path abs = fs::absolute(file, ec).lexically_normal();
  if (ec) return file.string();
  if (auto rel = relative_if_under(abs, cwd)) return *rel;
  // The current directory is a resolved path; the file's may go through a
  // symbolic link (a checkout under a linked home directory).
  const fs::path real = fs::weakly_canonical(abs, ec);
  if (!ec) {
    if (auto rel = relative_if_under(real, cwd)) return *rel;
  }
  return abs.string();
}

Diagnostics load_ruleset(Engine& engine, const fs::path& file, SourceOrigin origin) {
  return engine.load_ruleset_file(file, display_path(file), origin);
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

}  // namespace alea::cli
