// cli/examples.hpp — a ruleset's examples run as `alea roll` runs them: `alea check`
// reports the ones that fail, `alea test` reports them mechanic by mechanic.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cli/ruleset_path.hpp"
#include "interpreter/api.hpp"

namespace alea {
struct ExampleInfo;   // interpreter/rulesets/ruleset.hpp
struct MechanicInfo;
struct Ruleset;
}  // namespace alea

namespace alea::cli {

// The words of an example as a POSIX shell splits them: blanks separate words,
// and '…' or "…" quote (a value such as 'grades=["easy", "hard"]').
[[nodiscard]] std::vector<std::string> shell_words(std::string_view line);

// One example run: no problems when it ran and gave what it states (`expect:`). A problem is
// shown at the example in the ruleset file: its call, or its `expect` for a mismatch.
struct ExampleRun {
  const MechanicInfo* mechanic = nullptr;
  const ExampleInfo* example = nullptr;
  Diagnostics problems;
};

// Runs every example of every mechanic of `r`, loaded into `engine`: with its scripted dice
// (--dice), or else with a fixed seed, when it only has to run. The seed is 1, so that an
// example without --dice runs the same each time.
[[nodiscard]] std::vector<ExampleRun> run_examples(Engine& engine, const RulesetPath& path, const Ruleset& r);

// The ruleset `engine` loaded from `file` (a file named on the command line), or null.
[[nodiscard]] const Ruleset* loaded_from(const Engine& engine, const std::filesystem::path& file);

// `alea test RULESET…`: each a name on the path or a file. Prints PASS, FAIL or SKIP for each
// mechanic and a summary line, or with `json` the alea.test/1 document; the failures are shown
// in full on stderr. Exit 0 when every example passes, 1 when one fails or a ruleset does not load.
int test_command(const std::vector<std::string>& rulesets, const RulesetPath& path, const Limits& limits, bool json);

}  // namespace alea::cli
