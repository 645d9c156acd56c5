// interpreter/rulesets/ruleset_loader.hpp — a ruleset file (YAML) to a Ruleset.
//
// Reports every mistake in the file at once, each at its line and column of
// the YAML file, including mistakes inside the expressions it holds; a
// ruleset with any mistake is not returned.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "dsl/parser.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/rulesets/ruleset.hpp"

namespace alea {

struct RulesetLoadOptions {
  ParseOptions parse;
  // Functions every ruleset may call (the stdlib).
  std::vector<ImportedFn> imports;
  std::vector<std::shared_ptr<const CompiledProgram>> import_programs;
  // The name the file must declare (its file name without .yaml), if known.
  std::optional<std::string> expected_name;
  // Library: a shipped ruleset, whose errors are reported where the user's
  // code called it (locate_in_user_code); User: a homebrewer's own.
  SourceOrigin origin = SourceOrigin::User;
  // Items in one list or mapping of a constant or a table (Limits::max_collection_size).
  std::int64_t max_collection_size = Limits{}.max_collection_size;
  // Bytes of the YAML text (Limits::max_file_bytes).
  std::int64_t max_file_bytes = Limits{}.max_file_bytes;
  // Where `extends: NAME` finds the ruleset a variant extends: the variant's own directory,
  // then $ALEA_PATH, then the shipped rulesets (detail::ruleset_search_dirs).
  std::vector<std::filesystem::path> search_dirs;
};

struct RulesetLoad {
  std::shared_ptr<const Ruleset> ruleset;  // null when there were errors
  Diagnostics diagnostics;
};

// `file_name` is shown in diagnostics ("rulesets/my-game.yaml").
[[nodiscard]] RulesetLoad load_ruleset(std::string yaml_text, std::string file_name,
                                       const RulesetLoadOptions& options);

}  // namespace alea
