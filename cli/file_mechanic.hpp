// cli/file_mechanic.hpp — `PATH#MECHANIC`: a mechanic of a ruleset file named on the command
// line, loaded into an engine of its own, so that a copy of a ruleset (mine/my-game.yaml) can be
// set beside the one on the path of the same name (`alea stats my-game.check
// mine/my-game.yaml#check`).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "interpreter/api.hpp"

namespace alea::cli {

// A word of the form PATH#MECHANIC, PATH a ruleset file (it ends in .yaml or has a '/', and has
// no '=', as a setting `name=@FILE#ENTRY` has): its two parts. Nothing for any other word.
struct FileMechanicWord {
  std::string file, mechanic;
};
[[nodiscard]] std::optional<FileMechanicWord> file_mechanic_word(std::string_view word);

// The file of `word` loaded into `engine`, unless it has it already (an engine for this file
// alone, as a ruleset of its name on the path would be replaced): the call's target as
// RULESET.MECHANIC in that engine, or the file's own diagnostics when it does not
// load. A file that is not there, or a mechanic it does not have, throws UsageError naming
// `word` (after `command`), with the nearest name.
struct FileMechanic {
  std::string target;       // "my-game.check"
  Diagnostics problems;     // the file does not load
};
[[nodiscard]] FileMechanic load_file_mechanic(Engine& engine, std::string_view word, std::string_view command);

}  // namespace alea::cli
