// cli/main.cpp — the `alea` program: subcommands, arguments and exit codes.
//
// Exit codes: 0 success, 1 the input had an error (the diagnostic is on
// stderr), 2 the command line itself was wrong.
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/repl.hpp"
#include "interpreter/api.hpp"

namespace {

constexpr int exit_ok = 0;
constexpr int exit_bad_input = 1;
constexpr int exit_usage = 2;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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
};

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (std::uint64_t{rd()} << 32) | rd();
}

int run_roll(const RollArgs& a, const std::string& source, const std::string& name) {
  alea::Engine engine;
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
    outcome = engine.run(compiled.program, {}, *dice);
  }
  if (a.json) {
    fmt::print("{}\n", alea::render_json(outcome, source, seed));
  }
  if (!outcome.ok()) {
    const alea::Diagnostics all = compiled.ok() ? alea::Diagnostics{*outcome.error} : compiled.diagnostics;
    std::fputs(alea::render_text(all).c_str(), stderr);
    return exit_bad_input;
  }
  if (!a.json) fmt::print("{}\n", outcome.value ? alea::render_breakdown(outcome) : "ok");
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
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"alea — a dice-and-rules language for tabletop games.\n"
               "With no command, opens the interactive REPL.",
               "alea"};
  app.set_version_flag("--version", "alea 0.1.0");
  app.require_subcommand(0, 1);
  app.footer("Exit codes: 0 success, 1 error in the input (reported on stderr), 2 bad usage.\n"
             "The language is described in docs/language.md.");

  std::optional<std::uint64_t> repl_seed;
  app.add_option("--seed", repl_seed, "Seed for the REPL's dice");

  RollArgs roll;
  CLI::App* roll_cmd = app.add_subcommand("roll", "Roll an expression and print the dice and the result");
  roll_cmd->add_option("expression", roll.words,
                       "The expression, e.g. \"4d6kh3\" (several words are joined with spaces)");
  add_dice_options(roll_cmd, roll);
  roll_cmd->footer("Examples:\n  alea roll 4d6kh3\n  alea roll \"3d6 explode 6\" --dice 6,4,1,3\n"
                   "  alea roll \"10d10>=8\" --seed 7 --json");

  RollArgs run;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a program from a file ('-' reads standard input)");
  run_cmd->add_option("file", run.file, "The program file")->required();
  add_dice_options(run_cmd, run);

  CLI::App* repl_cmd = app.add_subcommand("repl", "Open the interactive REPL (the same as no command)");
  repl_cmd->add_option("--seed", repl_seed, "Seed for the REPL's dice");

  // CLI11 reads a word like `[1,2]` as its own array syntax and splits it; a
  // leading space hides it, and the expression's words are trimmed again below.
  std::vector<std::string> words(argv, argv + argc);
  std::vector<char*> args;
  for (auto& w : words) {
    if (&w != &words.front() && w.size() >= 2 && w.front() == '[' && w.back() == ']') w.insert(0, " ");
    args.push_back(w.data());
  }
  try {
    app.parse(argc, args.data());
    if ((roll.min && roll.max) || (run.min && run.max)) throw UsageError("--min and --max exclude each other");
    if (*roll_cmd) {
      std::string source;
      for (const auto& w : roll.words) source += (source.empty() ? "" : " ") + w.substr(w.front() == ' ');
      if (source.empty()) throw UsageError("roll: give an expression to roll, as in: alea roll 4d6kh3");
      return run_roll(roll, source, "<input>");
    }
    if (*run_cmd) {
      std::string source;
      if (run.file == "-") {
        std::stringstream ss;
        ss << std::cin.rdbuf();
        source = ss.str();
      } else {
        std::ifstream in(run.file, std::ios::binary);
        if (!in) throw UsageError(fmt::format("cannot read '{}'", run.file));
        std::stringstream ss;
        ss << in.rdbuf();
        source = ss.str();
      }
      return run_roll(run, source, run.file == "-" ? "<stdin>" : run.file);
    }
    (void)repl_cmd;
    return alea::cli::run_repl({repl_seed});
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
