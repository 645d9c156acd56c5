// cli/main.cpp — the `alea` program: subcommands, arguments and exit codes.
//
// Exit codes: 0 success, 1 the input had an error (the diagnostic is on
// stderr), 2 the command line itself was wrong.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/repl.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/ruleset_path.hpp"
#include "cli/state_commands.hpp"
#include "cli/state_file.hpp"
#include "interpreter/io/read_file.hpp"
#include "cli/stats_command.hpp"
#include "interpreter/api.hpp"

namespace {

constexpr int exit_ok = 0;
constexpr int exit_bad_input = 1;
constexpr int exit_usage = 2;

using alea::cli::UsageError;

std::vector<std::int64_t> parse_dice_list(const std::string& text) {
  std::vector<std::int64_t> faces;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto b = item.find_first_not_of(" \t");
    const auto e = item.find_last_not_of(" \t");
    if (b == std::string::npos) throw UsageError(fmt::format("--dice: empty item in '{}'", text));
    item = item.substr(b, e - b + 1);
    std::int64_t v = 0;
    const auto r = std::from_chars(item.data(), item.data() + item.size(), v);
    if (r.ec != std::errc() || r.ptr != item.data() + item.size()) {
      throw UsageError(fmt::format("--dice: '{}' is not a whole number (expected a list like 6,4,1,3)", item));
    }
    faces.push_back(v);
  }
  if (faces.empty()) throw UsageError("--dice: give at least one face, as in --dice 6,4,1,3");
  return faces;
}

struct RollArgs {
  std::vector<std::string> words;
  std::string file;
  std::optional<std::uint64_t> seed;
  std::string dice;
  bool min = false, max = false, json = false;
  std::string state_file;              // --state FILE
  std::vector<std::string> choose;     // --choose NAME[=VALUE]
  std::vector<std::string> flags;      // other options: the choices' flags (--use-edge)
};

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (std::uint64_t{rd()} << 32) | rd();
}

// A mechanic's record, one field to a line after the call and its dice: on
// one line, `check(…) = {result: 10, success: true, …}` is too long to read.
std::string record_breakdown(const alea::Outcome& o) {
  const std::string text = alea::render_breakdown(o);
  const auto* record = o.value->as_record();
  if (!record) return text;
  const auto nl = std::min(text.find('\n'), text.size());
  std::string first = text.substr(0, nl);
  const std::string value = " = " + alea::to_display(*o.value);
  if (first.ends_with(value)) first.resize(first.size() - value.size());
  std::string out = first + text.substr(nl);
  for (std::size_t i = 0; i < record->names.size(); ++i) {
    out += fmt::format("\n{}: {}", record->names[i], alea::to_display(record->values[i]));
  }
  return out;
}

// The player's choices: --choose words and the flags the loaded rulesets declare.
alea::Choices command_choices(const alea::Engine& engine, const RollArgs& a) {
  alea::Choices choices;
  for (const auto& w : a.choose) alea::cli::add_choice(engine, w, choices, "--choose");
  for (const auto& f : a.flags) {
    if (alea::cli::add_flag_choice(engine, f, choices)) continue;
    const auto flags = alea::cli::choice_flags(engine);
    throw UsageError(fmt::format("unknown option '{}'{}; run 'alea roll --help' for the options", f,
                                 flags.empty() ? std::string()
                                               : fmt::format(" (the rulesets used here add {})", fmt::join(flags, ", "))));
  }
  return choices;
}

// A state file that cannot be read, checked or written: the report on stderr
// and, for --json, the usual document with the report's first line, at the file.
int state_failure(const RollArgs& a, const std::string& source, const alea::cli::StateFileError& e) {
  if (a.json) {
    const std::string report = e.what();
    const auto file = alea::SourceFile::make(a.state_file, "");
    const alea::Diagnostic d(alea::DiagCode::StateInvalid, file->span(0, 0), report.substr(0, report.find('\n')));
    nlohmann::ordered_json doc = {{"expression", source},
                                  {"ok", false},
                                  {"error", nlohmann::ordered_json::parse(alea::render_diagnostic_json(d))}};
    fmt::print("{}\n", doc.dump());
  }
  std::fflush(stdout);
  std::fputs(e.what(), stderr);
  return exit_bad_input;
}

int run_roll(const alea::Engine& engine, const RollArgs& a, const std::string& source, const std::string& name,
             const alea::cli::RulesetPath& path, bool fields_per_line = false) {
  const alea::Choices choices = command_choices(engine, a);
  std::optional<alea::State> state;
  // Held from before the state is read until the new state is in place: read-modify-write is atomic.
  std::optional<alea::cli::StateLock> lock;
  if (!a.state_file.empty()) {
    try {
      lock.emplace(a.state_file);
      state = alea::cli::read_state_file(a.state_file);
      alea::cli::check_state_file(a.state_file, *state, engine, path);
    } catch (const alea::cli::StateFileError& e) {
      return state_failure(a, source, e);
    }
  }
  std::unique_ptr<alea::DiceSource> dice;
  std::optional<std::uint64_t> seed;
  alea::ScriptedDice* scripted = nullptr;
  if (!a.dice.empty()) {
    auto s = std::make_unique<alea::ScriptedDice>(parse_dice_list(a.dice));
    scripted = s.get();
    dice = std::move(s);
  } else if (a.min || a.max) {
    dice = std::make_unique<alea::ExtremeDice>(a.min ? alea::ExtremeDice::End::Min : alea::ExtremeDice::End::Max);
  } else {
    seed = a.seed ? *a.seed : fresh_seed();
    dice = std::make_unique<alea::RandomDice>(*seed);
  }
  alea::Compiled compiled = engine.compile(source, name);
  alea::Outcome outcome;
  if (!compiled.ok()) {
    outcome.error = compiled.diagnostics.front();
  } else {
    outcome = engine.run(compiled.program, {}, *dice, {state ? &*state : nullptr, &choices});
  }
  // The state is saved before anything is shown: a roll whose state cannot
  // be kept is reported as failed, with the file as it was.
  if (outcome.ok() && state && outcome.state && !(*outcome.state == *state)) {
    try {
      alea::cli::write_state_file(a.state_file, *outcome.state);
    } catch (const alea::cli::StateFileError& e) {
      return state_failure(a, source, e);
    }
  }
  lock.reset();
  if (a.json) {
    std::string doc = alea::render_json(outcome, source, seed);
    if (state && outcome.ok() && outcome.state) {
      auto j = nlohmann::ordered_json::parse(doc);
      j["state"] = nlohmann::ordered_json::parse(alea::state_to_json(*outcome.state));
      doc = j.dump();
    }
    fmt::print("{}\n", doc);
  }
  if (!outcome.ok()) {
    const alea::Diagnostics all = compiled.ok() ? alea::Diagnostics{*outcome.error} : compiled.diagnostics;
    std::fputs(alea::render_text(all).c_str(), stderr);
    return exit_bad_input;
  }
  if (!a.json) {
    const std::string shown = !outcome.value ? "ok"
                              : fields_per_line ? record_breakdown(outcome)
                                                : alea::render_breakdown(outcome);
    fmt::print("{}\n", shown);
  }
  if (scripted && scripted->remaining() > 0) {
    const auto n = scripted->remaining();
    fmt::print(stderr, "note: {} scripted {} not used\n", n, n == 1 ? "die was" : "dice were");
  }
  return exit_ok;
}

void add_dice_options(CLI::App* cmd, RollArgs& a) {
  cmd->add_option("--seed", a.seed, "Seed for reproducible rolls (default: a fresh random seed)");
  cmd->add_option("--dice", a.dice,
                  "Use these faces instead of random ones, in the order the dice are rolled (e.g. 6,4,1,3)");
  cmd->add_flag("--min", a.min, "Every die shows its lowest face");
  cmd->add_flag("--max", a.max, "Every die shows its highest face");
  cmd->add_flag("--json", a.json, "Print the value and every die as one JSON document");
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

// Problems found before anything was rolled: every one on stderr and, for
// --json, the first as the usual JSON document.
int fail(const RollArgs& a, const alea::Diagnostics& d, std::string_view expression) {
  if (a.json) {
    alea::Outcome o;
    o.error = d.front();
    fmt::print("{}\n", alea::render_json(o, expression));
  }
  std::fputs(alea::render_text(d).c_str(), stderr);
  return exit_bad_input;
}

int roll_command(const RollArgs& a, const alea::cli::RulesetPath& path) {
  std::vector<std::string> words;
  for (const auto& w : a.words) words.push_back(w.substr(!w.empty() && w.front() == ' '));
  if (words.empty()) throw UsageError("roll: give an expression to roll, as in: alea roll 4d6kh3");
  alea::Engine engine;
  // `my-game.check dice=3` calls a mechanic. `r.a` alone is still an
  // expression unless a ruleset `r` exists; a '-' in the name or a setting
  // after it cannot be an expression, so those get the ruleset's error.
  if (alea::cli::is_mechanic_word(words[0])) {
    const std::string name = words[0].substr(0, words[0].find('.'));
    if (path.find(name) || name.find('-') != std::string::npos ||
        (words.size() > 1 && alea::cli::is_setting(words[1]))) {
      const std::vector<std::string> settings(words.begin() + 1, words.end());
      alea::cli::MechanicCall call = alea::cli::mechanic_call(engine, path, words[0], settings);
      if (call.diagnostics.empty()) call.diagnostics = alea::cli::load_mentioned(engine, path, call.source);
      if (!call.diagnostics.empty()) {
        return fail(a, call.diagnostics, fmt::format("{}", fmt::join(words, " ")));
      }
      return run_roll(engine, a, call.source, "<command line>", path, true);
    }
  }
  std::string source;
  for (const auto& w : words) source += (source.empty() ? "" : " ") + w;
  if (const auto d = alea::cli::load_mentioned(engine, path, source); !d.empty()) return fail(a, d, source);
  return run_roll(engine, a, source, "<input>", path);
}

int run_command(const RollArgs& a, const alea::cli::RulesetPath& path) {
  // Neither a FIFO, a device nor a huge file is read: only a regular file, or standard input, up to the cap.
  const auto max_bytes = static_cast<std::size_t>(alea::Limits{}.max_file_bytes);
  alea::FileText read = a.file == "-" ? alea::read_fd_capped(0, max_bytes) : alea::read_file_capped(a.file, max_bytes);
  if (!read.text) {
    const std::string shown = a.file == "-" ? "standard input" : fmt::format("'{}'", a.file);
    if (read.too_large) {
      std::fflush(stdout);
      fmt::print(stderr, "{}: error: cannot read {}: it {} (max_file_bytes)\n", a.file == "-" ? "<stdin>" : a.file,
                 shown, read.error);
      return exit_bad_input;
    }
    throw UsageError(fmt::format("cannot read {}: it {}", shown, read.error));
  }
  std::string source = std::move(*read.text);
  alea::Engine engine;
  if (const auto d = alea::cli::load_mentioned(engine, path, source); !d.empty()) return fail(a, d, source);
  return run_roll(engine, a, source, a.file == "-" ? "<stdin>" : a.file, path);
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

// Every subcommand's arguments, as CLI11 fills them in, and the subcommands set up.
struct Commands {
  std::vector<std::string> ruleset_dirs;
  std::optional<std::uint64_t> repl_seed;
  std::string repl_state;
  RollArgs roll, run;
  alea::cli::StatsArgs stats;
  bool list_json = false;
  std::string describe_what;
  bool describe_json = false;
  std::vector<std::string> check_files;
  CLI::App *roll_cmd = nullptr, *stats_cmd = nullptr, *run_cmd = nullptr, *rulesets_cmd = nullptr,
           *describe_cmd = nullptr, *check_cmd = nullptr;
};

void add_roll(CLI::App& app, Commands& c) {
  CLI::App* cmd = c.roll_cmd = app.add_subcommand(
      "roll", "Roll an expression, or call a ruleset's mechanic, and print the dice and the result");
  cmd->add_option("expression", c.roll.words,
                  "The expression, e.g. \"4d6kh3\" (several words are joined with spaces); or "
                  "RULESET.MECHANIC followed by name=value words");
  add_dice_options(cmd, c.roll);
  add_rulesets_option(cmd, c.ruleset_dirs);
  cmd->footer("Examples:\n  alea roll 4d6kh3\n  alea roll \"3d6 explode 6\" --dice 6,4,1,3\n"
              "  alea roll \"10d10>=8\" --seed 7 --json\n"
              "  alea roll RULESET.MECHANIC dice=3 --dice 4,5,5,4\n"
              "  alea roll 'RULESET.MECHANIC(dice: 3).success'   one field of its result\n"
              "  alea roll RULESET.MECHANIC --state hero.json    counters kept between rolls\n"
              "`alea rulesets` lists the rulesets and their mechanics; `alea describe RULESET.MECHANIC`\n"
              "shows a mechanic's parameters, its choice flags and a call to copy.\n"
              "A value after name= is an expression of the language (red=1, explode_limit=none);\n"
              "a bare word given to a label parameter is that label (difficulty=hard).\n"
              "A mechanic's record result is printed one field to a line after its dice.\n"
              "--state FILE keeps the rulesets' state (a character's counters) between calls;\n"
              "the file is replaced whole, never left half-written. A roll that fails changes nothing.");
}

void add_stats(CLI::App& app, Commands& c) {
  c.stats_cmd = alea::cli::add_stats_command(app, c.stats);
  add_rulesets_option(c.stats_cmd, c.ruleset_dirs);
}

void add_run(CLI::App& app, Commands& c) {
  CLI::App* cmd = c.run_cmd = app.add_subcommand("run", "Run a program from a file ('-' reads standard input)");
  cmd->add_option("file", c.run.file, "The program file")->required();
  add_dice_options(cmd, c.run);
  add_rulesets_option(cmd, c.ruleset_dirs);
  cmd->footer("Example:\n  alea run game.alea --seed 7");
}

void add_rulesets(CLI::App& app, Commands& c) {
  CLI::App* cmd = c.rulesets_cmd =
      app.add_subcommand("rulesets", "List the rulesets alea can find, with their mechanics");
  cmd->add_flag("--json", c.list_json, "Print the list as JSON: name, title, file, mechanics, ok");
  add_rulesets_option(cmd, c.ruleset_dirs);
  cmd->footer("Example:\n  alea rulesets --rulesets ~/games");
}

void add_describe(CLI::App& app, Commands& c) {
  CLI::App* cmd = c.describe_cmd =
      app.add_subcommand("describe", "Show a ruleset's parameters and mechanics, or one mechanic in full");
  cmd->add_option("name", c.describe_what, "NAME, NAME.MECHANIC, or a ruleset file")->required();
  cmd->add_flag("--json", c.describe_json, "Print the description as JSON");
  add_rulesets_option(cmd, c.ruleset_dirs);
  cmd->footer("Examples:\n  alea describe RULESET\n  alea describe RULESET.MECHANIC\n"
              "  alea describe rulesets/my-game.yaml\n"
              "`alea rulesets` lists the names.");
}

void add_check(CLI::App& app, Commands& c) {
  CLI::App* cmd = c.check_cmd = app.add_subcommand(
      "check", "Check ruleset files (.yaml) and programs (other files: compiled, not run); print every error");
  cmd->add_option("file", c.check_files, "The files to check ('-' reads a program from standard input)")
      ->required();
  add_rulesets_option(cmd, c.ruleset_dirs);
  cmd->footer("Prints 'FILE: ok' for each good file. Exit 0 if every file is good, 1 if any has an\n"
              "error or cannot be read.\n"
              "Example:\n  alea check my-game.yaml");
}

void add_repl(CLI::App& app, Commands& c) {
  CLI::App* cmd = app.add_subcommand("repl", "Open the interactive REPL (the same as no command)");
  cmd->add_option("--seed", c.repl_seed, "Seed for the REPL's dice");
  cmd->add_option("--state", c.repl_state,
                  "Keep the rulesets' state in this JSON file: read at the start, saved on each change")
      ->option_text("FILE");
  add_rulesets_option(cmd, c.ruleset_dirs);
  cmd->footer("Example:\n  alea repl --seed 7");
}

struct Subcommand {
  std::string_view name;
  void (*add)(CLI::App&, Commands&);
};
// In the order `alea --help` lists them.
constexpr Subcommand kSubcommands[] = {{"roll", add_roll},         {"stats", add_stats},
                                       {"run", add_run},           {"rulesets", add_rulesets},
                                       {"describe", add_describe}, {"check", add_check},
                                       {"repl", add_repl}};

// The subcommand the command line names, when nothing but --seed and
// --rulesets comes before it; otherwise "" (no command, help, version, a
// mistake). Setting CLI11 up is most of a short command's own time, so only
// that subcommand is set up; with "" every one is, for help and errors.
std::string_view named_command(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view w = argv[i];
    if (w == "--seed" || w == "--rulesets") {
      ++i;  // and its value
    } else if (!w.starts_with("--seed=") && !w.starts_with("--rulesets=")) {
      for (const Subcommand& c : kSubcommands) {
        if (w == c.name) return c.name;
      }
      return {};
    }
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"alea — a dice-and-rules language for tabletop games.\n"
               "With no command, opens the interactive REPL.",
               "alea"};
  app.set_version_flag("--version", "alea 0.1.0");
  app.require_subcommand(0, 1);
  app.footer("Exit codes: 0 success, 1 error in the input (reported on stderr), 2 bad usage.\n"
             "Rulesets are found in each --rulesets DIR, then each directory of ALEA_PATH\n"
             "(colon-separated), then the rulesets shipped with alea.\n"
             "The language is described in docs/language.md, rulesets in rulesets/README.md.");

  Commands c;
  app.add_option("--seed", c.repl_seed, "Seed for the REPL's dice");
  app.add_option("--state", c.repl_state,
                 "The REPL keeps the rulesets' state in this JSON file: read at the start, saved on each change")
      ->option_text("FILE");
  add_rulesets_option(&app, c.ruleset_dirs);
  const std::string_view only = named_command(argc, argv);
  for (const Subcommand& sub : kSubcommands) {
    if (only.empty() || only == sub.name) sub.add(app, c);
  }

  // CLI11 reads a word like `[1,2]` as its own array syntax and splits it; a
  // leading space hides it, and the expression's words are trimmed again below.
  std::vector<std::string> words(argv, argv + argc);
  std::vector<char*> args;
  for (auto& w : words) {
    if (&w != &words.front() && w.size() >= 2 && w.front() == '[' && w.back() == ']') w.insert(0, " ");
    args.push_back(w.data());
  }
  const auto chosen = [](const CLI::App* cmd) { return cmd && cmd->parsed(); };
  try {
    app.parse(argc, args.data());
    if ((c.roll.min && c.roll.max) || (c.run.min && c.run.max)) {
      throw UsageError("--min and --max exclude each other");
    }
    // What CLI11 left over, but the `--` that ends the options: the choices' flags.
    const auto leftovers = [&](CLI::App* cmd, std::vector<std::string>& flags) {
      if (!chosen(cmd)) return;
      for (auto& w : cmd->remaining()) {
        if (w != "--") flags.push_back(std::move(w));
      }
    };
    leftovers(c.roll_cmd, c.roll.flags);
    leftovers(c.run_cmd, c.run.flags);
    leftovers(c.stats_cmd, c.stats.flags);
    const alea::cli::RulesetPath path(c.ruleset_dirs);
    if (chosen(c.roll_cmd)) return roll_command(c.roll, path);
    if (chosen(c.run_cmd)) return run_command(c.run, path);
    if (chosen(c.stats_cmd)) return alea::cli::stats_command(c.stats, path);
    if (chosen(c.rulesets_cmd)) return alea::cli::rulesets_command(path, c.list_json);
    if (chosen(c.describe_cmd)) return alea::cli::describe_command(c.describe_what, path, c.describe_json);
    if (chosen(c.check_cmd)) return alea::cli::check_command(c.check_files, path);
    return alea::cli::run_repl({c.repl_seed, c.ruleset_dirs, c.repl_state});
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return exit_ok;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return exit_ok;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return exit_ok;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    fmt::print(stderr, "alea: {}\nRun 'alea --help' for usage.\n", e.what());
    return exit_usage;
  } catch (const UsageError& e) {
    fmt::print(stderr, "alea: {}\n", e.what());
    return exit_usage;
  }
}
