// cli/ruleset_path.cpp — the ruleset search path: --rulesets, $ALEA_PATH, the shipped rulesets.
#include "cli/ruleset_path.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <system_error>

#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"

namespace alea::cli {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> relative_if_under(const fs::path& file, const fs::path& dir) {
  const fs::path rel = file.lexically_relative(dir);
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  return rel.string();
}

}  // namespace

RulesetPath::RulesetPath(const std::vector<std::string>& extra)
    : dirs_(detail::ruleset_search_dirs(extra)), extra_(extra.begin(), extra.end()) {
  if (const auto shipped = detail::shipped_rulesets_dir(); shipped && !dirs_.empty() && dirs_.back() == *shipped) {
    shipped_ = (dirs_.back() / "x").parent_path();  // without a trailing '/', as find() builds its files
  }
}

SourceOrigin RulesetPath::origin_of(const fs::path& found) const {
  return shipped_ && found.parent_path() == *shipped_ ? SourceOrigin::Library : SourceOrigin::User;
}

std::optional<fs::path> RulesetPath::find(std::string_view name) const {
  return detail::find_ruleset_file(name, dirs_);
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

bool is_ruleset_name(std::string_view name) { return detail::is_ruleset_name(name); }

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

EngineOptions engine_options(const Limits& limits, const RulesetPath& path) {
  EngineOptions options;
  options.limits = limits;
  options.ruleset_dirs = path.extra();
  return options;
}

}  // namespace alea::cli
