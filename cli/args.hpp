// cli/args.hpp — alea's command line read into the commands' settings,
// without running anything: main() runs what parse_args() returns, and
// fuzz/fuzz_args.cpp feeds it arbitrary words.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/serve.hpp"
#include "cli/state_edit.hpp"
#include "cli/stats_command.hpp"
#include "interpreter/limits.hpp"

namespace alea::cli {

// What `alea roll` and `alea run` were given.
struct RollArgs {
  std::vector<std::string> words;
  std::string file;
  std::optional<std::uint64_t> seed;
  std::string dice;
  bool min = false, max = false, json = false;
  std::string state_file;              // --state FILE
  std::vector<std::string> choose;     // --choose NAME[=VALUE]
  std::vector<std::string> flags;      // other options: the choices' flags (--use-edge)
  std::vector<std::string> with;       // --with FILE: files of records whose entries are arguments by name
  Limits limits;                       // --limit NAME=VALUE
  std::string format = "text";         // --format text|markdown|discord: how the breakdown is written
  std::string color = "auto";          // --color auto|always|never
};

enum class Command { Repl, Roll, Run, Stats, Rulesets, Describe, Check, Test, Limits, State, Serve };

struct ParsedArgs {
  Command command = Command::Repl;
  // Set when reading the command line ends the program (help, version, a
  // usage error, `alea limits`): print `out` on stdout and `err` on stderr,
  // and exit with this code. A usage error of a command line with --json has
  // its alea.error/1 document in `out`.
  std::optional<int> exit_code;
  std::string out, err;

  // The settings of every command; only the chosen one's are filled in.
  std::vector<std::string> ruleset_dirs;  // --rulesets DIR
  Limits limits;                          // --limit NAME=VALUE, for every command that runs code
  std::optional<std::uint64_t> repl_seed;
  std::string repl_state;
  RollArgs roll, run;
  StatsArgs stats;
  bool list_json = false;
  std::string describe_what;
  std::vector<std::string> describe_group;  // the words after NAME: one group's name
  bool describe_json = false, describe_full = false;
  std::vector<std::string> check_files;
  bool check_json = false;
  std::vector<std::string> test_rulesets;  // `alea test`: names or files
  bool test_json = false;
  StateArgs state;
  ServeArgs serve;

  // Whether the command chosen was given --json: then stdout is one JSON document, whatever happens.
  [[nodiscard]] bool json() const;
};

// The subcommand's name as typed ("roll"); "" for the REPL started without one.
[[nodiscard]] std::string_view command_name(Command command);

// Reads `words` (argv, the program's name first). Never throws but
// std::bad_alloc, and touches nothing but the directories --rulesets names
// (which must exist).
[[nodiscard]] ParsedArgs parse_args(std::vector<std::string> words);

// `alea limits`: every limit, its default and what it counts.
[[nodiscard]] std::string limits_text();

// Sets `limits` from one `--limit` word, NAME=VALUE; throws UsageError for an
// unknown name (with a "did you mean") or a value that is not a positive
// whole number.
void apply_limit(std::string_view word, Limits& limits);

}  // namespace alea::cli
