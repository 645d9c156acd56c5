// interpreter/rulesets/ruleset_files.hpp — where rulesets are found by name, for
// Engine::load_ruleset and the command line: the directories given, then those of
// $ALEA_PATH (colon-separated), then the rulesets shipped with alea. A ruleset NAME is
// the file NAME.yaml in the first directory that has one.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::detail {

// Whether `name` could be a ruleset's name: [a-z0-9_-], not empty. Anything
// else is never looked up, so no name can reach outside the search path.
[[nodiscard]] bool is_ruleset_name(std::string_view name);

// Whether `s` has the form of a name of the language: a letter or '_', then letters, digits
// and '_' (ASCII).
[[nodiscard]] bool is_identifier(std::string_view s);

// Whether `word` has the form RULESET.MECHANIC, with a ruleset name as in a file name:
// "my-game.check", how the command line and the Python module name a mechanic to call.
[[nodiscard]] bool is_mechanic_word(std::string_view word);

// The ruleset names an expression mentions as `name.`, outside strings and
// comments, in the order first seen ("my_game" for my_game.check).
[[nodiscard]] std::vector<std::string> mentioned_rulesets(std::string_view source);

// The shipped rulesets: PREFIX/share/alea/rulesets next to an installed libalea or alea
// (found from the file the code runs from, so a moved prefix still works), else those of
// the source tree a build tree was made from; none when neither exists.
[[nodiscard]] std::optional<std::filesystem::path> shipped_rulesets_dir();

// `extra`, then each directory of $ALEA_PATH, then `shipped` if any.
[[nodiscard]] std::vector<std::filesystem::path> ruleset_search_dirs(
    const std::vector<std::string>& extra,
    const std::optional<std::filesystem::path>& shipped = shipped_rulesets_dir());

// The file of ruleset `name` in the first of `dirs` that has it: as typed, then with '_' as
// '-' (the language's my_game is the file my-game.yaml), then the reverse; or nothing.
[[nodiscard]] std::optional<std::filesystem::path> find_ruleset_file(std::string_view name,
                                                                     const std::vector<std::filesystem::path>& dirs);

}  // namespace alea::detail
