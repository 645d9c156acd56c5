// cli/ruleset_commands.hpp — `alea rulesets`, `alea describe`, `alea check`, and
// the text they print, which the REPL's :rulesets and :describe share.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/ruleset_path.hpp"
#include "interpreter/api.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"

namespace alea {
struct MechanicInfo;  // interpreter/rulesets/ruleset.hpp
struct ParamInfo;
}  // namespace alea

namespace alea::cli {

// `alea rulesets [--json]`: every ruleset of the path. Exit 0 even when some
// fail to load: those are listed as having errors.
int rulesets_command(const RulesetPath& path, bool json);

// The listing, with " (loaded)" after the rulesets that `loaded` has, and the
// loaded ones that are not in the path (loaded from a file) at the end.
[[nodiscard]] std::string rulesets_text(const RulesetPath& path, const Engine* loaded = nullptr);

// What `describe` found: the text to print, or an error (a message, with the code --json gives
// it, or the diagnostics of a broken ruleset).
struct Described {
  std::string text;
  std::string error;
  DiagCode error_code = DiagCode::RulesetNotFound;
  Diagnostics diagnostics;
  [[nodiscard]] bool ok() const { return error.empty() && diagnostics.empty(); }
};

// What a ruleset's description shows: the mechanics of one group (a group's name, or its first
// word), or everything (`full`). By default a ruleset of several groups is shown short: a line
// per mechanic, by group. --json always has everything.
struct DescribeView {
  std::string group;
  bool full = false;
};

// `what` is NAME, NAME.MECHANIC, or a ruleset file. A ruleset that `loaded`
// has is described as loaded; any other is loaded from the path first.
[[nodiscard]] Described describe(std::string_view what, const RulesetPath& path, bool json,
                                 const Engine* loaded = nullptr, const DescribeView& view = {});
int describe_command(std::string_view what, const RulesetPath& path, bool json, const DescribeView& view = {});

// The names of a ruleset's mechanics, in its order.
[[nodiscard]] std::vector<std::string> mechanic_names(const Ruleset& r);

// The name of a ruleset near `name`, or "".
[[nodiscard]] std::string closest_ruleset(std::string_view name, const RulesetPath& path,
                                          const Engine* loaded = nullptr);
// "there is no ruleset 'x' (did you mean 'y'?)…", naming the path's rulesets and the loaded ones.
[[nodiscard]] std::string no_such_ruleset(std::string_view name, const RulesetPath& path,
                                          const Engine* loaded = nullptr);

// `alea check FILE…`: ruleset files (.yaml) are loaded, other files compiled. With `json`, stdout
// has the alea.check/1 document instead of the "FILE: ok" lines.
int check_command(const std::vector<std::string>& files, const RulesetPath& path, const Limits& limits = {},
                  bool json = false);

// The rulesets `source` mentions (`my_game.` …) that `engine` has not
// loaded and the path has, loaded into `engine`. Returns their problems.
[[nodiscard]] Diagnostics load_mentioned(Engine& engine, const RulesetPath& path,
                                         std::string_view source);

// `alea roll RULESET.MECHANIC key=value…` as an expression of the language.
// A mistake in the call is shown in the command line as typed, named
// `<command line>`; one in the ruleset, in its file.
struct MechanicCall {
  std::string source;       // `my_game.check(dice: 3, red: 1)`
  Diagnostics diagnostics;  // no such ruleset, mechanic or parameter; or the ruleset does not load
};

// Whether `word` has the form RULESET.MECHANIC (interpreter/rulesets/ruleset_files.hpp).
using detail::is_mechanic_word;

// Whether `word` has the form name=value, as the words after RULESET.MECHANIC must.
// The name may be dotted, `attacker.pool=2`, to set one field of a record argument.
[[nodiscard]] bool is_setting(std::string_view word);

// Whether words[i] calls a mechanic rather than being an expression: it is
// FILE#MECHANIC, or RULESET.MECHANIC where the ruleset is on the path, its name
// has a '-' (no expression does) or a setting follows. `r.a` alone is
// otherwise an expression, a field of `r`. `alea roll` and `alea stats` ask it.
[[nodiscard]] bool calls_mechanic(const RulesetPath& path, const std::vector<std::string>& words, std::size_t i);

// One name=value word after RULESET.MECHANIC.
struct Setting {
  std::string key, value;          // "attacker.pool", "2"
  std::vector<std::string> parts;  // the key split at its dots: "attacker", "pool"
  std::uint32_t at = 0;            // where the word starts in the command line
};

// The setting a word (for which is_setting holds) makes.
[[nodiscard]] Setting parse_setting(std::string_view word, std::uint32_t at = 0);

// The arguments of a call as `name: value` pairs, one for each first name in the
// order first given: `a.b=1 a.c=2` is the record `a: {b: 1, c: 2}`. The settings
// are assumed consistent: no key twice, none both whole and by field.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> setting_arguments(
    const Ruleset& r, const MechanicInfo& m, const std::vector<Setting>& settings);

// Where the entries a bare word may name come from (cli/record_args.hpp).
struct RecordSources {
  std::vector<std::string> with;  // --with FILE: files of records
  std::string state_file;         // --state FILE: the characters it keeps
};

// Builds the call after checking that each word is `name=value` (a word that
// is not throws UsageError, its message starting with `command`), loading the
// ruleset into `engine`. A value may come from a file of records: `attacker=@party.yaml#ivan`,
// or `attacker=ivan` for an entry of one of the `sources`.
[[nodiscard]] MechanicCall mechanic_call(Engine& engine, const RulesetPath& path,
                                         std::string_view target,
                                         const std::vector<std::string>& words,
                                         std::string_view command = "roll",
                                         const RecordSources& sources = {});

// The parameter `name` of mechanic `m`, or of its ruleset, or null.
[[nodiscard]] const ParamInfo* find_param(const Ruleset& r, const MechanicInfo& m,
                                          std::string_view name);

// `value`, typed as name=value, as the argument of `p` in the language. It is
// an expression, inserted as it is, except that a bare word given to a label
// or string parameter is that text: on the command line `difficulty=hard`
// cannot mean a variable, as there are none; and `+1` is 1.
[[nodiscard]] std::string argument_text(const ParamInfo* p, const std::string& value);

// A command line that is wrong (exit 2): reported as "alea: <what>" and, with --json, as an
// alea.error/1 of this code (FileUnreadable for a program file that cannot be read).
struct UsageError : std::runtime_error {
  explicit UsageError(const std::string& what, DiagCode c = DiagCode::BadUsage) : std::runtime_error(what), code(c) {}
  DiagCode code;
};

}  // namespace alea::cli
