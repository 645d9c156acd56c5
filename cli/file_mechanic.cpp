// cli/file_mechanic.cpp — `PATH#MECHANIC` on the command line (file_mechanic.hpp).
#include "cli/file_mechanic.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <system_error>
#include <vector>

#include "cli/ruleset_commands.hpp"
#include "cli/ruleset_path.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"

namespace alea::cli {

namespace fs = std::filesystem;

std::optional<FileMechanicWord> file_mechanic_word(std::string_view word) {
  const auto hash = word.rfind('#');
  if (hash == std::string_view::npos || hash == 0) return std::nullopt;
  const std::string_view file = word.substr(0, hash);
  // `attacker=@party.yaml#ivan` is a setting, whose value is an entry of a file of records.
  if (!is_ruleset_file(file) || file.find('=') != std::string_view::npos) return std::nullopt;
  return FileMechanicWord{std::string(file), std::string(word.substr(hash + 1))};
}

namespace {

// The .yaml file of `file`'s directory nearest its name, as the user would type it; or "".
std::string nearest_file(const fs::path& file) {
  const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".yaml") names.push_back(it->path().filename().string());
  }
  const std::string near = closest_name(file.filename().string(), names);
  if (near.empty()) return near;
  return file.parent_path().empty() ? near : (file.parent_path() / near).string();
}

}  // namespace

FileMechanic load_file_mechanic(Engine& engine, std::string_view word, std::string_view command) {
  const auto parts = file_mechanic_word(word);
  if (!parts) throw std::logic_error("load_file_mechanic: not PATH#MECHANIC");
  if (!alea::detail::is_identifier(parts->mechanic)) {
    throw UsageError(fmt::format("{}: '{}': name a mechanic of the file after '#', as in {}#check", command, word,
                                 parts->file));
  }
  const fs::path file(parts->file);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    const std::string near = fs::exists(file, ec) ? std::string() : nearest_file(file);
    throw UsageError(fmt::format("{}: '{}': {} {}{}", command, word, parts->file,
                                 fs::exists(file, ec) ? "is not a file" : "is not there",
                                 near.empty() ? "" : fmt::format(" (did you mean {}?)", near)));
  }
  // The file's ruleset is the one it names (its file name, my-game.yaml: my-game).
  FileMechanic out;
  const Ruleset* r = engine.find_ruleset(file.stem().string());
  if (!r) {
    out.problems = load_ruleset(engine, file);
    if (!out.problems.empty()) return out;
    r = engine.find_ruleset(file.stem().string());
  }
  if (!r) throw std::logic_error("load_file_mechanic: the ruleset loaded has another name");
  if (!r->mechanic(parts->mechanic)) {
    const auto names = mechanic_names(*r);
    const std::string near = closest_name(parts->mechanic, names);
    throw UsageError(fmt::format("{}: '{}': {} has no mechanic '{}'{}; its mechanics: {}", command, word,
                                 parts->file, parts->mechanic,
                                 near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near),
                                 fmt::join(names, ", ")));
  }
  out.target = r->name + "." + parts->mechanic;
  return out;
}

}  // namespace alea::cli
