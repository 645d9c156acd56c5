// cli/ruleset_path.hpp — where the command line and the REPL look for rulesets.
//
// The search path is, in order: each `--rulesets DIR`, each directory of
// $ALEA_PATH (colon-separated), then the rulesets shipped with alea. A ruleset
// NAME is the file NAME.yaml in the first directory that has one; an earlier
// directory hides a later one's ruleset of the same name.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/api.hpp"

namespace alea::cli {

class RulesetPath {
 public:
  // `extra`: the --rulesets directories, in the order given.
  explicit RulesetPath(const std::vector<std::string>& extra);

  [[nodiscard]] const std::vector<std::filesystem::path>& dirs() const { return dirs_; }
  // The --rulesets directories alone, which come first.
  [[nodiscard]] const std::vector<std::filesystem::path>& extra() const { return extra_; }

  // The file of ruleset `name` ("my-game" or "my_game"), or nothing.
  [[nodiscard]] std::optional<std::filesystem::path> find(std::string_view name) const;

  struct Entry {
    std::string name;  // the file name without .yaml
    std::filesystem::path file;
  };
  // Every ruleset of the path, sorted by name, hidden ones left out.
  [[nodiscard]] std::vector<Entry> all() const;

  // How to load a file that find() or all() gave: as library code when it is
  // one of the rulesets shipped with alea (the last directory), else as the
  // user's own code (--rulesets, $ALEA_PATH).
  [[nodiscard]] SourceOrigin origin_of(const std::filesystem::path& found) const;

 private:
  std::vector<std::filesystem::path> dirs_;
  std::vector<std::filesystem::path> extra_;
  std::optional<std::filesystem::path> shipped_;  // as the parent_path() of its files
};

// A command's Engine options: the limits it was given (--limit), and the --rulesets directories
// of `path` for the bases that `extends:` names; the rest as by default.
[[nodiscard]] EngineOptions engine_options(const Limits& limits, const RulesetPath& path);

// Whether `arg` names a file rather than a ruleset: it ends in .yaml or .yml,
// or has a '/' in it.
[[nodiscard]] bool is_ruleset_file(std::string_view arg);

// Whether `name` could be a ruleset's name: [a-z0-9_-], not empty. Anything
// else is never looked up, so no name can reach outside the search path.
[[nodiscard]] bool is_ruleset_name(std::string_view name);

// How a file is shown in messages: relative to the current directory when it
// is under it ("rulesets/my-game.yaml"), else its absolute path.
[[nodiscard]] std::string display_path(const std::filesystem::path& file);

// Loads `file` into `engine`, shown in diagnostics by display_path(). A file
// named on the command line is the user's code; one found on the search path
// is loaded with `path.origin_of(file)`.
[[nodiscard]] Diagnostics load_ruleset(Engine& engine, const std::filesystem::path& file,
                                       SourceOrigin origin = SourceOrigin::User);


}  // namespace alea::cli
