// cli/args.cpp — the subcommands and their options as CLI11 reads them, and
// --limit. See args.hpp.
#include "cli/args.hpp"

#include <charconv>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/exit_codes.hpp"
#include "cli/ruleset_commands.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/api.hpp"

namespace alea::cli {

namespace {

constexpr const char* limit_help =
    "Set one of the limits that keep a run finite, as in max_steps=5000000 (may be repeated); "
    "`alea limits` lists them";

void add_dice_options(CLI::App* cmd, RollArgs& a) {
  cmd->add_option("--seed", a.seed, "Seed for reproducible rolls (default: a fresh random seed)");
  cmd->add_option("--dice", a.dice,
                  "Use these faces instead of random ones, in the order the dice are rolled (e.g. 6,4,1,3)");
  cmd->add_flag("--min", a.min, "Every die shows its lowest face");
  cmd->add_flag("--max", a.max, "Every die shows its highest face");
  cmd->add_flag("--json", a.json, "Print the value and every die as one JSON document");
  cmd->add_option("--format", a.format,
                  "How the breakdown is written: text (the default), markdown or discord, for chat: "
                  "~~3~~ a removed die, **20** a die at its highest or lowest face, **13** the total")
      ->option_text("FORMAT")
      ->check(CLI::IsMember({"text", "markdown", "discord"}));
  cmd->add_option("--color", a.color,
                  "Colour the text breakdown: auto (the default: on a terminal, unless NO_COLOR is set), always "
                  "or never")
      ->option_text("WHEN")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_option("--state", a.state_file,
                  "Read the rulesets' state (counters kept between rolls) from this JSON file, and write it back "
                  "when the roll changes it; a missing file is the starting state")
      ->option_text("FILE");
  cmd->add_option("--choose", a.choose,
                  "Decide a ruleset's choice for this roll: NAME (true) or NAME=VALUE; may be repeated. A ruleset "
                  "may add a flag for a choice (--use-edge; `alea describe` lists them)")
      ->option_text("NAME[=VALUE]")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  // The flags rulesets declare for their choices are known only once the
  // rulesets are loaded: they are read from what CLI11 leaves over.
  cmd->allow_extras();
}

// --rulesets is accepted before the command and after it.
void add_rulesets_option(CLI::App* cmd, std::vector<std::string>& dirs) {
  cmd->add_option("--rulesets", dirs,
                  "Look for rulesets in DIR first (may be repeated; then $ALEA_PATH, then the shipped ones)")
      ->option_text("DIR")
      ->check(CLI::ExistingDirectory)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// --with, on the commands that call a mechanic with name=value words.
void add_with_option(CLI::App* cmd, std::vector<std::string>& files) {
  cmd->add_option("--with", files,
                  "Make every entry of this file of records (YAML or JSON) an argument by its name, as in "
                  "attacker=ivan (may be repeated); NAME=@FILE#ENTRY names one entry without it")
      ->option_text("FILE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// --limit, on every command that runs code and before the command (the REPL).
void add_limit_option(CLI::App* cmd, std::vector<std::string>& words) {
  cmd->add_option("--limit", words, limit_help)
      ->option_text("NAME=VALUE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// CLI11's view of the command line: where each subcommand's options land.
struct Setup {
  ParsedArgs& out;
  std::vector<std::string> limit_words;
  CLI::App *roll_cmd = nullptr, *stats_cmd = nullptr, *run_cmd = nullptr, *rulesets_cmd = nullptr,
           *describe_cmd = nullptr, *check_cmd = nullptr, *test_cmd = nullptr, *repl_cmd = nullptr, *limits_cmd = nullptr,
           *state_cmd = nullptr, *serve_cmd = nullptr;
};

void add_roll(CLI::App& app, Setup& s) {
  CLI::App* cmd = s.roll_cmd = app.add_subcommand(
      "roll", "Roll an expression, or call a ruleset's mechanic, and print the dice and the result");
  cmd->add_option("expression", s.out.roll.words,
                  "The expression, e.g. \"4d6kh3\" (several words are joined with spaces); or "
                  "RULESET.MECHANIC followed by name=value words");
  add_dice_options(cmd, s.out.roll);
  add_with_option(cmd, s.out.roll.with);
  add_rulesets_option(cmd, s.out.ruleset_dirs);
  add_limit_option(cmd, s.limit_words);
  cmd->footer("Examples:\n  alea roll 4d6kh3\n  alea roll \"3d6 explode 6\" --dice 6,4,1,3\n"
              "  alea roll \"10d10>=8\" --seed 7 --json\n"
              "  alea roll 'd20 + bonus' bonus=5                 a variable, shown as bonus:5\n"
              "  alea roll 4d6kh3 --format discord               for a chat: ~~1~~ dropped, **13** the total\n"
              "  alea roll RULESET.MECHANIC dice=3 --dice 4,5,5,4\n"
              "  alea roll 'RULESET.MECHANIC(dice: 3).success'   one field of its result\n"
              "  alea roll RULESET.MECHANIC --state hero.json    counters kept between rolls\n"
              "  alea roll mine/RULESET.yaml#MECHANIC dice=3   a mechanic of a ruleset file\n"
              "  alea roll RULESET.MECHANIC attacker=@party.yaml#ivan   a record from a file\n"
              "  alea roll RULESET.MECHANIC attacker=ivan --with party.yaml   every entry by name\n"
              "  alea roll 'repeat 50000 { d6 }' --limit max_loop_iterations=100000\n"
              "`alea rulesets` lists the rulesets and their mechanics; `alea describe RULESET.MECHANIC`\n"
              "shows a mechanic's parameters, its choice flags and a call to copy.\n"
              "A value after name= is an expression of the language (red=1, explode_limit=none);\n"
              "a bare word given to a label parameter is that label (difficulty=hard), in a record\n"
              "too (attacker='{colour: red, pool: 2}'); +1 is 1.\n"
              "A mechanic's record result is printed one field to a line after its dice.\n"
              "--state FILE keeps the rulesets' state (a character's counters) between calls;\n"
              "the file is replaced whole, never left half-written. A roll that fails changes nothing.\n"
              "Ctrl-C stops the roll (exit 130).");
}

void add_stats(CLI::App& app, Setup& s) {
  s.stats_cmd = add_stats_command(app, s.out.stats);
  add_with_option(s.stats_cmd, s.out.stats.with);
  add_rulesets_option(s.stats_cmd, s.out.ruleset_dirs);
  add_limit_option(s.stats_cmd, s.limit_words);
}

void add_run(CLI::App& app, Setup& s) {
  CLI::App* cmd = s.run_cmd = app.add_subcommand("run", "Run a program from a file ('-' reads standard input)");
  cmd->add_option("file", s.out.run.file, "The program file")->required();
  add_dice_options(cmd, s.out.run);
  add_rulesets_option(cmd, s.out.ruleset_dirs);
  add_limit_option(cmd, s.limit_words);
  cmd->footer("Examples:\n  alea run game.alea --seed 7\n  alea run game.alea bonus=5   the variable bonus for the program");
}

void add_rulesets(CLI::App& app, Setup& s) {
  CLI::App* cmd = s.rulesets_cmd =
      app.add_subcommand("rulesets", "List the rulesets alea can find, with their mechanics");
  cmd->add_flag("--json", s.out.list_json, "Print the list as JSON: name, title, file, mechanics, ok");
  add_rulesets_option(cmd, s.out.ruleset_dirs);
  cmd->footer("Example:\n  alea rulesets --rulesets ~/games");
}

void add_describe(CLI::App& app, Setup& s) {
  CLI::App* cmd = s.describe_cmd =
      app.add_subcommand("describe", "Show a ruleset's parameters and mechanics, one mechanic, or a record type");
  cmd->add_option("name", s.out.describe_what, "NAME, NAME.MECHANIC, NAME.TYPE (a record type), or a ruleset file")->required();
  cmd->add_option("group", s.out.describe_group,
                  "Show only this group of the ruleset's mechanics (its name, or its first word)");
  cmd->add_flag("--full", s.out.describe_full, "Describe every mechanic in full, whatever the ruleset's size; for one mechanic, "
                "the fields of the record types it takes too");
  cmd->add_flag("--json", s.out.describe_json, "Print the description as JSON (always in full)");
  add_rulesets_option(cmd, s.out.ruleset_dirs);
  cmd->footer("A ruleset whose mechanics come in several groups is shown short, a line per mechanic;\n"
              "name a group, or give --full, for the details. One mechanic names the fields of the record\n"
              "types it takes; RULESET.TYPE, or --full, shows them in full.\n"
              "Examples:\n  alea describe RULESET\n  alea describe RULESET GROUP\n  alea describe RULESET --full\n"
              "  alea describe RULESET.MECHANIC\n  alea describe RULESET.MECHANIC --full\n  alea describe RULESET.TYPE\n"
              "  alea describe rulesets/my-game.yaml\n"
              "`alea rulesets` lists the names.");
}

void add_state(CLI::App& app, Setup& s) {
  CLI::App* cmd = s.state_cmd =
      app.add_subcommand("state", "Show or set the counters a state file keeps (a character's state)");
  cmd->require_subcommand(1);
  CLI::App* show = cmd->add_subcommand("show", "Print every counter of the rulesets the file holds");
  show->add_option("file", s.out.state.file, "The state file")->required();
  CLI::App* set = cmd->add_subcommand("set", "Set counters, checked against their rulesets; all or none are written");
  set->add_option("file", s.out.state.file, "The state file (made when missing)")->required();
  set->add_option("settings", s.out.state.settings, "RULESET.COUNTER=VALUE words")->required();
  CLI::App* character =
      cmd->add_subcommand("set-character", "Keep a named character in the file, read from a file of records");
  character->add_option("file", s.out.state.file, "The state file (made when missing)")->required();
  character->add_option("name", s.out.state.character, "The character's name, which arguments give (attacker=NAME)")
      ->required();
  character->add_option("record", s.out.state.from, "@FILE#ENTRY, or @FILE for a file that is one record")->required();
  for (CLI::App* sub : {show, set, character}) {
    add_rulesets_option(sub, s.out.ruleset_dirs);
    sub->callback([&s, sub] { s.out.state.action = sub->get_name(); });
  }
  cmd->footer("Examples:\n  alea state show hero.json\n  alea state set hero.json my-game.edge=4\n"
              "  alea state set-character table.json ivan @party.yaml#ivan   then attacker=ivan --state table.json\n"
              "A mechanic changes the file only as its `changes:` declare; a counter given to it as an\n"
              "argument (edge=5) is a what-if, and leaves the file as it was.");
}

// A command that reads rulesets or programs named as its words (`check`, `test`): the words,
// --json, --rulesets and --limit, with its help.
struct FilesCommand {
  const char* name;
  const char* help;
  const char* words_name;
  const char* words_help;
  const char* json_help;
  const char* footer;
};

CLI::App* add_files_command(CLI::App& app, Setup& s, const FilesCommand& c, std::vector<std::string>& words, bool& json) {
  CLI::App* cmd = app.add_subcommand(c.name, c.help);
  cmd->add_option(c.words_name, words, c.words_help)->required();
  cmd->add_flag("--json", json, c.json_help);
  add_rulesets_option(cmd, s.out.ruleset_dirs);
  add_limit_option(cmd, s.limit_words);
  cmd->footer(c.footer);
  return cmd;
}

void add_check(CLI::App& app, Setup& s) {
  s.check_cmd = add_files_command(
      app, s,
      {"check", "Check ruleset files (.yaml) and programs (other files: compiled, not run); print every error",
       "file", "The files to check ('-' reads a program from standard input)",
       "Print one JSON document: each file, whether it is good, and its errors",
       "Prints 'FILE: ok' for each good file. A ruleset's examples are run too (see `alea test`).\n"
       "Exit 0 if every file is good, 1 if any has an error or cannot be read.\n"
       "Examples:\n  alea check my-game.yaml\n  alea check my-game.yaml game.alea --json"},
      s.out.check_files, s.out.check_json);
}

void add_test(CLI::App& app, Setup& s) {
  s.test_cmd = add_files_command(
      app, s,
      {"test", "Run the examples of rulesets' mechanics and compare each result with its 'expect'", "ruleset",
       "Rulesets to test: names on the ruleset path, or files (.yaml)",
       "Print one JSON document: each mechanic, its examples and its failures",
       "Prints PASS, FAIL or SKIP (no examples) for each mechanic, then a summary line. Exit 0 if\n"
       "every example gives what it states, 1 if any fails or a ruleset does not load.\n"
       "Examples:\n  alea test my-game.yaml\n  alea test RULESET --json"},
      s.out.test_rulesets, s.out.test_json);
}

void add_serve(CLI::App& app, Setup& s) {
  CLI::App* cmd = s.serve_cmd = app.add_subcommand(
      "serve", "Answer requests given as JSON lines on standard input, one JSON line each on standard output");
  ServeArgs& a = s.out.serve;
  cmd->add_option("--jobs", a.jobs, "Answer N requests at once; replies then come as each finishes (default 1: in order)")
      ->option_text("N")
      ->check(CLI::Range(1u, 256u));
  cmd->add_flag("--allow-files", a.allow_files, "Let requests read files by name (\"file\"); off by default");
  cmd->add_option("--timeout", a.timeout_ms, "The longest a request may run, in milliseconds (default 60000)")
      ->option_text("MS")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{86'400'000}));
  cmd->add_option("--max-request-bytes", a.max_request_bytes, "The longest request line (default 8000000)")
      ->option_text("N")
      ->check(CLI::Range(std::int64_t{1024}, std::int64_t{1'000'000'000}));
  cmd->add_option("--max-loaded-bytes", a.max_loaded_bytes,
                  "YAML bytes of all the rulesets loaded, shipped ones included (default 32000000)")
      ->option_text("N")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000'000}));
  add_rulesets_option(cmd, s.out.ruleset_dirs);
  add_limit_option(cmd, s.limit_words);
  cmd->footer("Each request is a JSON object on one line, with an \"id\" that its reply echoes:\n"
              "  {\"id\": 1, \"op\": \"roll\", \"expr\": \"4d6kh3\", \"seed\": 42}\n"
              "  {\"id\": 2, \"op\": \"stats\", \"expr\": \"3d6\"}\n"
              "  {\"id\": 3, \"op\": \"cancel\", \"target\": 2}\n"
              "The operations: roll, stats, describe, check, load, cancel. Every request runs under the\n"
              "limits (--limit, or lower ones in its \"limits\") and its time limit (\"timeout_ms\", at\n"
              "most --timeout). Ends at the end of input, once every request is answered. See docs/serve.md.");
}

void add_repl(CLI::App& app, Setup& s) {
  CLI::App* cmd = s.repl_cmd = app.add_subcommand("repl", "Open the interactive REPL (the same as no command)");
  cmd->add_option("--seed", s.out.repl_seed, "Seed for the REPL's dice");
  cmd->add_option("--state", s.out.repl_state,
                  "Keep the rulesets' state in this JSON file: read at the start, saved on each change")
      ->option_text("FILE");
  add_rulesets_option(cmd, s.out.ruleset_dirs);
  add_limit_option(cmd, s.limit_words);
  cmd->footer("Example:\n  alea repl --seed 7");
}

void add_limits(CLI::App& app, Setup& s) {
  s.limits_cmd = app.add_subcommand(
      "limits", "List the limits that keep a run finite, with their defaults; --limit NAME=VALUE sets one");
}

struct Subcommand {
  std::string_view name;
  void (*add)(CLI::App&, Setup&);
};
// In the order `alea --help` lists them.
constexpr Subcommand kSubcommands[] = {{"roll", add_roll},         {"stats", add_stats},
                                       {"run", add_run},           {"rulesets", add_rulesets},
                                       {"describe", add_describe}, {"check", add_check},
                                       {"test", add_test},
                                       {"state", add_state},       {"serve", add_serve},
                                       {"repl", add_repl},
                                       {"limits", add_limits}};

// The subcommand the command line names, when nothing but the options the
// program itself takes comes before it; otherwise "" (no command, help,
// version, a mistake). Setting CLI11 up is most of a short command's own
// time, so only that subcommand is set up; with "" every one is, for help
// and errors.
// Where the command word is: the first word after the options the program itself takes (and
// their values); words.size() when there is none.
std::size_t command_index(const std::vector<std::string>& words) {
  std::size_t i = 1;
  for (; i < words.size(); ++i) {
    const std::string_view w = words[i];
    if (w == "--seed" || w == "--rulesets" || w == "--state" || w == "--limit") {
      ++i;  // and its value
    } else if (!w.starts_with("--seed=") && !w.starts_with("--rulesets=") && !w.starts_with("--state=") &&
               !w.starts_with("--limit=")) {
      break;
    }
  }
  return std::min(i, words.size());
}

std::string_view named_command(const std::vector<std::string>& words) {
  const std::size_t i = command_index(words);
  if (i == words.size()) return {};
  for (const Subcommand& c : kSubcommands) {
    if (words[i] == c.name) return c.name;
  }
  return {};
}

// "'rol' is not an alea command. The most similar command is 'roll'", as git says it; a word
// like no command at all gets where to look, and an expression how to roll it.
std::string not_a_command(std::string_view word) {
  std::vector<std::string> names;
  for (const Subcommand& c : kSubcommands) names.emplace_back(c.name);
  names.emplace_back("help");
  const std::string near = closest_name(word, names);
  if (!near.empty()) return fmt::format("'{}' is not an alea command. The most similar command is '{}'", word, near);
  // A word with a digit may be an expression: `alea 3d6`.
  if (std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return fmt::format("'{}' is not an alea command. See 'alea help'; to roll an expression: alea roll '{}'", word,
                       word);
  }
  return fmt::format("'{}' is not an alea command. See 'alea help'", word);
}


// Whether the words ask for JSON: a `--json` before any `--` (after which every word is an
// argument). Read from the words themselves, for a command line CLI11 could not read.
bool asks_for_json(const std::vector<std::string>& words) {
  for (std::size_t i = 1; i < words.size() && words[i] != "--"; ++i) {
    if (words[i] == "--json") return true;
  }
  return false;
}

// A usage error as `alea` reports it: "alea: <message>" on stderr (with `hint` after it) and,
// when the command line asks for JSON, alea.error/1 on stdout.
ParsedArgs& usage_failure(ParsedArgs& out, const std::vector<std::string>& words, std::string_view message,
                          std::string_view hint = "") {
  out.exit_code = exit_usage;
  out.err = fmt::format("alea: {}\n{}", message, hint);
  if (asks_for_json(words)) {
    const Diagnostic d(DiagCode::BadUsage, Span{}, std::string(message));
    out.out = error_document(named_command(words), {d, out.err}) + "\n";
  }
  return out;
}

}  // namespace

std::string_view command_name(Command command) {
  switch (command) {
    case Command::Repl: return "";
    case Command::Roll: return "roll";
    case Command::Run: return "run";
    case Command::Stats: return "stats";
    case Command::Rulesets: return "rulesets";
    case Command::Describe: return "describe";
    case Command::Check: return "check";
    case Command::Test: return "test";
    case Command::Limits: return "limits";
    case Command::State: return "state";
    case Command::Serve: return "serve";
  }
  return "";
}

bool ParsedArgs::json() const {
  switch (command) {
    case Command::Roll: return roll.json;
    case Command::Run: return run.json;
    case Command::Stats: return stats.json;
    case Command::Rulesets: return list_json;
    case Command::Describe: return describe_json;
    case Command::Check: return check_json;
    case Command::Test: return test_json;
    default: return false;
  }
}

std::string limits_text() {
  std::size_t width = 0;
  for (const LimitInfo& l : limit_table()) width = std::max(width, l.name.size());
  std::string out = "The limits that keep a run finite. Set one with --limit NAME=VALUE (roll, run, stats,\n"
                    "check, repl); reaching one is an error that names it. See docs/language.md §17.\n\n";
  for (const LimitInfo& l : limit_table()) {
    out += fmt::format("  {:<{}}  {:>13}  {}\n", l.name, width, l.default_value, l.counts);
  }
  return out;
}

void apply_limit(std::string_view word, Limits& limits) {
  const auto eq = word.find('=');
  if (eq == std::string_view::npos) {
    throw UsageError(fmt::format("--limit '{}': give NAME=VALUE, as in --limit max_steps=5000000 "
                                 "(`alea limits` lists the names)", word));
  }
  const std::string_view name = word.substr(0, eq), value = word.substr(eq + 1);
  const LimitInfo* found = find_limit(name);
  if (!found) throw UsageError("--limit: " + unknown_limit(name));
  std::int64_t v = 0;
  const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
  if (r.ec != std::errc() || r.ptr != value.data() + value.size() || v <= 0) {
    throw UsageError(fmt::format("--limit {}: '{}' is not a positive whole number (the default is {})",
                                 found->name, value, found->default_value));
  }
  limits.*(found->member) = v;
}

ParsedArgs parse_args(std::vector<std::string> words) {
  ParsedArgs out;
  if (words.empty()) words.emplace_back("alea");
  CLI::App app{"alea — a dice-and-rules language for tabletop games.\n"
               "With no command, opens the interactive REPL.",
               "alea"};
  app.set_version_flag("--version", fmt::format("alea {}", alea::version()));
  app.require_subcommand(0, 1);
  app.footer("Exit codes: 0 success, 1 error in the input (reported on stderr), 2 bad usage,\n"
             "130 stopped by Ctrl-C.\n"
             "Rulesets are found in each --rulesets DIR, then each directory of ALEA_PATH\n"
             "(colon-separated), then the rulesets shipped with alea.\n"
             "Every run is bounded by limits (steps, dice, sizes); `alea limits` lists them and\n"
             "--limit NAME=VALUE sets one for roll, run, stats, check, test, serve and repl.\n"
             "The language is described in docs/language.md, rulesets in rulesets/README.md.\n"
             "`alea help COMMAND` (the same as `alea COMMAND --help`) shows a command's options.");

  // `alea help [COMMAND]` is `alea [COMMAND] --help`, as git's. A word where the command goes
  // that names none is refused here, with the nearest name: CLI11 would only say it was not expected.
  if (const std::size_t i = command_index(words); i < words.size() && !words[i].starts_with('-')) {
    if (words[i] == "help") {
      const bool names_one = i + 1 == words.size() || words[i + 1].starts_with('-') ||
                             !named_command({words[0], words[i + 1]}).empty();
      if (!names_one) return usage_failure(out, words, not_a_command(words[i + 1]));
      words.erase(words.begin() + static_cast<std::ptrdiff_t>(i));
      words.emplace_back("--help");
    } else if (named_command(words).empty()) {
      return usage_failure(out, words, not_a_command(words[i]));
    }
  }
  Setup s{out, {}};
  app.add_option("--seed", out.repl_seed, "Seed for the REPL's dice");
  app.add_option("--state", out.repl_state,
                 "The REPL keeps the rulesets' state in this JSON file: read at the start, saved on each change")
      ->option_text("FILE");
  add_rulesets_option(&app, out.ruleset_dirs);
  add_limit_option(&app, s.limit_words);
  const std::string_view only = named_command(words);
  for (const Subcommand& sub : kSubcommands) {
    if (only.empty() || only == sub.name) sub.add(app, s);
  }

  // CLI11 reads a word like `[1,2]` as its own array syntax and splits it; a
  // leading space hides it, and the expression's words are trimmed again later.
  std::vector<char*> args;
  for (auto& w : words) {
    if (&w != &words.front() && w.size() >= 2 && w.front() == '[' && w.back() == ']') w.insert(0, " ");
    args.push_back(w.data());
  }
  const auto chosen = [](const CLI::App* cmd) { return cmd && cmd->parsed(); };
  const auto stop = [&out](int code, std::string text, bool to_stdout) {
    out.exit_code = code;
    (to_stdout ? out.out : out.err) = std::move(text);
    return out;
  };
  try {
    app.parse(static_cast<int>(args.size()), args.data());
    if ((out.roll.min && out.roll.max) || (out.run.min && out.run.max)) {
      throw UsageError("--min and --max exclude each other");
    }
    for (const RollArgs* a : {&out.roll, &out.run}) {
      if (a->json && a->format != "text") throw UsageError(fmt::format("--json and --format {} exclude each other", a->format));
      if (a->color == "always" && (a->json || a->format != "text")) {
        throw UsageError(fmt::format("--color always colours the text breakdown, not {}",
                                     a->json ? "--json" : fmt::format("--format {}", a->format)));
      }
    }
    for (const auto& w : s.limit_words) {
      if (w == "help") return stop(exit_ok, limits_text(), true);
      apply_limit(w, out.limits);
    }
    out.roll.limits = out.run.limits = out.stats.limits = out.limits;
    if (out.describe_json && (out.describe_full || !out.describe_group.empty())) {
      throw UsageError(out.describe_full ? "--json always describes everything: leave out --full"
                                         : "--json describes the whole ruleset (alea.describe/1): leave out the group");
    }
    if (out.describe_full && !out.describe_group.empty()) {
      throw UsageError("--full shows every group: leave out the group, or --full");
    }
    // What CLI11 left over, but the `--` that ends the options: the choices' flags.
    const auto leftovers = [&](CLI::App* cmd, std::vector<std::string>& flags) {
      if (!chosen(cmd)) return;
      for (auto& w : cmd->remaining()) {
        if (w != "--") flags.push_back(std::move(w));
      }
    };
    leftovers(s.roll_cmd, out.roll.flags);
    leftovers(s.run_cmd, out.run.flags);
    leftovers(s.stats_cmd, out.stats.flags);
    if (chosen(s.roll_cmd)) out.command = Command::Roll;
    else if (chosen(s.run_cmd)) out.command = Command::Run;
    else if (chosen(s.stats_cmd)) out.command = Command::Stats;
    else if (chosen(s.rulesets_cmd)) out.command = Command::Rulesets;
    else if (chosen(s.describe_cmd)) out.command = Command::Describe;
    else if (chosen(s.check_cmd)) out.command = Command::Check;
    else if (chosen(s.test_cmd)) out.command = Command::Test;
    else if (chosen(s.state_cmd)) out.command = Command::State;
    else if (chosen(s.serve_cmd)) out.command = Command::Serve;
    else if (chosen(s.limits_cmd)) return stop(exit_ok, limits_text(), true);
    else out.command = Command::Repl;
    return out;
  } catch (const CLI::CallForHelp&) {
    return stop(exit_ok, app.help(), true);
  } catch (const CLI::CallForAllHelp&) {
    return stop(exit_ok, app.help("", CLI::AppFormatMode::All), true);
  } catch (const CLI::CallForVersion& e) {
    return stop(exit_ok, std::string(e.what()) + "\n", true);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      std::ostringstream o, err;
      const int code = app.exit(e, o, err);
      out.out = o.str();
      return stop(code, err.str(), false);
    }
    return usage_failure(out, words, e.what(), "Run 'alea --help' for usage.\n");
  } catch (const UsageError& e) {
    return usage_failure(out, words, e.what());
  }
}

}  // namespace alea::cli
