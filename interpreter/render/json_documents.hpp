// interpreter/render/json_documents.hpp — the JSON documents alea prints for tools, built here
// once, so that `alea … --json`, a C API and a JSON-lines server print the same ones.
//
// Every document names its schema and version as its first key: {"schema": "alea.roll/1", …}.
// The schemas are the files schema/<name>-<version>.json (alea.roll/1: schema/alea.roll-1.json),
// and docs/json.md describes each document. Adding an optional key keeps a version; removing or
// renaming a key, or changing a type or a meaning, is a new version and a new file.
//
// The roll document is render_json (interpreter/api.hpp), bounded by max_render_size. An error
// is the same object wherever a document holds one (diagnostic_document_json): a failed roll's
// "error", a check's diagnostics, an alea.error/1's "error" and a distribution's first error.
//
// Like api.hpp, which includes it, this header shows no syntax tree: a ruleset, a mechanic and
// the statistics are passed by reference and defined in the interpreter's own headers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "interpreter/limits.hpp"

namespace alea {

struct Ruleset;       // interpreter/rulesets/ruleset.hpp
struct MechanicInfo;  // interpreter/rulesets/ruleset.hpp
struct Stats;         // interpreter/stats.hpp

// The schema of each document, the value of its "schema" key. The one place these are written:
// tests/cli/test_json_schema.py reads them here and checks them against schema/*.json.
inline constexpr std::string_view roll_schema = "alea.roll/1";
inline constexpr std::string_view stats_schema = "alea.stats/1";
inline constexpr std::string_view describe_schema = "alea.describe/1";
inline constexpr std::string_view rulesets_schema = "alea.rulesets/1";
inline constexpr std::string_view check_schema = "alea.check/1";
inline constexpr std::string_view test_schema = "alea.test/1";
inline constexpr std::string_view error_schema = "alea.error/1";
// `alea stats A B …`: several distributions side by side; and a sweep of settings, as a grid.
inline constexpr std::string_view compare_schema = "alea.compare/1";
inline constexpr std::string_view sweep_schema = "alea.sweep/1";
// `alea serve`'s reply to one request, which holds one of the documents above.
inline constexpr std::string_view reply_schema = "alea.reply/1";

// An error as a document shows it: the diagnostic, and `rendered`, the text standard error shows
// for it (render_text's caret snippet, unless the program reports this problem in words of its
// own, such as "alea: …" for a command line that is wrong).
struct ErrorReport {
  Diagnostic diagnostic;
  std::string rendered;
};
// A diagnostic with render_text's rendering.
[[nodiscard]] ErrorReport error_report(const Diagnostic& d);

// The error object of every document: {"code", "message", "location": {"file", "line",
// "column"} or null, "notes": [{"message", "location"}, …], "rendered"}.
[[nodiscard]] std::string diagnostic_document_json(const ErrorReport& report);

// alea.roll/1 of a roll that failed before anything was rolled, with an error reported in words
// of the program's own (a state file it cannot read): render_json's document, with no dice.
[[nodiscard]] std::string failed_roll_document(std::string_view expression, const ErrorReport& error);

// alea.error/1: a command that failed before it had a document of its own (an expression that
// does not compile for `stats`, an unknown ruleset for `describe`, a command line that is wrong).
// `command` is the subcommand ("stats"), or "" when there was none.
[[nodiscard]] std::string error_document(std::string_view command, const ErrorReport& error);

// alea.check/1: each file checked, with its errors (none: it is good).
struct CheckedFile {
  std::string file;  // as given on the command line ("-": standard input)
  std::vector<ErrorReport> errors;
};
[[nodiscard]] std::string check_document(const std::vector<CheckedFile>& files);

// alea.rulesets/1: the rulesets found, in order. `ruleset` is null for one that does not load.
struct ListedRuleset {
  std::string name;  // as in the file name: "my-game"
  std::string file;  // as shown to the user
  const Ruleset* ruleset = nullptr;
};
[[nodiscard]] std::string rulesets_document(const std::vector<ListedRuleset>& rulesets);

// alea.describe/1: a ruleset whole, or one of its mechanics with what it reads of the ruleset.
// Two-space indented, ending without a newline.
[[nodiscard]] std::string describe_ruleset_document(const Ruleset& ruleset);
[[nodiscard]] std::string describe_mechanic_document(const Ruleset& ruleset, const MechanicInfo& mechanic);

// What a distribution's report needs besides the Stats: what was asked and how.
struct StatsContext {
  std::string expression;              // shown as the title: "3d6", "my_game.check(dice: 3)"
  std::uint64_t seed = 0;              // the sampler's seed
  std::int64_t engine_explosion_limit = 100;  // where a sampled run did (max_explosion_depth)
  std::int64_t max_render_size = Limits{}.max_render_size;  // bytes any one rendering may take
};

// alea.stats/1 (docs/stats.md §5), two-space indented; nothing when it would pass
// max_render_size bytes.
[[nodiscard]] std::optional<std::string> stats_document(const Stats& stats, const StatsContext& context);

}  // namespace alea
