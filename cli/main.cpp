// cli/main.cpp — the `alea` program: subcommands, arguments and exit codes.
//
// Exit codes: 0 success, 1 the input had an error (the diagnostic is on
// stderr) or the output could not be written, 2 the command line itself was
// wrong, 130 stopped by Ctrl-C.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/args.hpp"
#include "cli/examples.hpp"
#include "cli/exit_codes.hpp"
#include "cli/file_mechanic.hpp"
#include "cli/interrupt.hpp"
#include "cli/output.hpp"
#include "cli/repl.hpp"
#include "cli/roll.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/ruleset_path.hpp"
#include "cli/state_commands.hpp"
#include "cli/state_file.hpp"
#include "cli/stats_command.hpp"
#include "interpreter/api.hpp"
#include "interpreter/io/read_file.hpp"
#include "interpreter/rulesets/ruleset.hpp"

namespace {

using alea::cli::exit_bad_input;
using alea::cli::exit_ok;
using alea::cli::exit_usage;
using alea::cli::RollArgs;
using alea::cli::UsageError;

// A state file that cannot be read, checked or written: the report on stderr
// and, for --json, the failed roll's document with the report's first line, at the file.
int state_failure(const RollArgs& a, const std::string& source, const alea::cli::StateFileError& e) {
  if (a.json) fmt::print("{}\n", alea::failed_roll_document(source, alea::cli::state_file_error_report(a.state_file, e)));
  std::fflush(stdout);
  std::fputs(e.what(), stderr);
  return exit_bad_input;
}

// The mechanic a command calls, as typed: "my-game.check".
std::string mechanic_word(const RollArgs& a) {
  const std::string& w = a.words.front();
  return w.substr(!w.empty() && w.front() == ' ');
}

// How the breakdown is written: --format, and colour (--color) when it goes to a terminal and
// NO_COLOR (no-color.org) is unset or empty.
alea::BreakdownStyle breakdown_style(const RollArgs& a, const alea::Bindings* variables) {
  alea::BreakdownStyle style;
  style.variables = variables;
  if (a.format == "markdown") style.format = alea::BreakdownFormat::Markdown;
  if (a.format == "discord") style.format = alea::BreakdownFormat::Discord;
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  style.color = a.color == "always" ||
                (a.color == "auto" && style.format == alea::BreakdownFormat::Text && ::isatty(STDOUT_FILENO) == 1 &&
                 !(no_color && *no_color) && !(term && std::string_view(term) == "dumb"));
  return style;
}

// `mechanic`: the call is of that mechanic, whose record is shown a field to a line.
int run_roll(const alea::Engine& engine, const RollArgs& a, const std::string& source, const std::string& name,
             const alea::cli::RulesetPath& path, const alea::MechanicInfo* mechanic = nullptr,
             const alea::Bindings* variables = nullptr) {
  const alea::Choices choices = alea::cli::command_choices(engine, a);
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
  alea::cli::RollDice dice = alea::cli::roll_dice(a, alea::fresh_seed);
  const std::optional<std::uint64_t> seed = dice.seed;
  alea::cli::RollInput input{source, name, dice.source.get(), dice.scripted, "leave out --dice", state ? &*state : nullptr,
                             &choices, name == "<command line>" ? mechanic_word(a) : "this roll",
                             &alea::cli::cancel_flag()};
  input.variables = variables;
  alea::cli::RollRun run = alea::cli::roll_once(engine, input);
  const alea::Outcome& outcome = run.outcome;
  // The state is saved before anything is shown: a roll whose state cannot
  // be kept is reported as failed, with the file as it was.
  // A counter given as an argument is a what-if: the file keeps the character's stored values.
  const std::vector<alea::RulesetName>& what_if = run.what_if;
  if (outcome.ok() && state && !what_if.empty()) {
    std::vector<std::string> names;
    for (const auto& n : what_if) names.push_back(fmt::format("{}.{}", n.ruleset, n.name));
    fmt::print(stderr, "note: {} {} given as {}: a what-if, so {} is left as it was (alea state set {} {}=… changes it)\n",
               fmt::join(names, ", "), what_if.size() == 1 ? "is" : "are",
               what_if.size() == 1 ? "an argument" : "arguments", a.state_file, a.state_file, names.front());
  } else if (outcome.ok() && state && outcome.state && !(*outcome.state == *state)) {
    try {
      alea::cli::write_state_file(a.state_file, *outcome.state);
    } catch (const alea::cli::StateFileError& e) {
      return state_failure(a, source, e);
    }
  }
  lock.reset();
  if (a.json) {
    const std::int64_t max_bytes = engine.options().limits.max_render_size;
    const std::string doc = state ? alea::render_json_with_state(outcome, source, seed, what_if, max_bytes)
                                  : alea::render_json(outcome, source, seed, max_bytes);
    if (outcome.ok() && alea::cli::refused_json(doc)) {
      // The document would have passed max_render_size: an error like any other.
      fmt::print("{}\n", doc);
      const auto j = nlohmann::json::parse(doc);
      const alea::Diagnostic d(alea::DiagCode::SizeLimitExceeded, alea::Span{}, j["error"]["message"].get<std::string>());
      std::fputs(alea::render_text(alea::Diagnostics{d}).c_str(), stderr);
      return exit_bad_input;
    }
    fmt::print("{}\n", variables && !variables->all().empty() ? alea::cli::with_variables(doc, *variables, max_bytes) : doc);
  }
  if (!outcome.ok()) {
    std::fputs(alea::render_text(run.diagnostics()).c_str(), stderr);
    return outcome.error->code == alea::DiagCode::Interrupted ? alea::cli::exit_interrupted : exit_bad_input;
  }
  if (!a.json) {
    const alea::BreakdownStyle style = breakdown_style(a, variables);
    const std::int64_t max_bytes = engine.options().limits.max_render_size;
    const std::string shown = !outcome.value ? "ok"
                              : mechanic     ? alea::cli::record_breakdown(outcome, max_bytes, mechanic, style)
                                             : alea::render_breakdown(outcome, max_bytes, style);
    fmt::print("{}\n", shown);
  }
  return exit_ok;
}

// Problems found before anything was rolled: every one on stderr and, for
// --json, the first as the usual JSON document.
int fail(const RollArgs& a, const alea::Diagnostics& d, std::string_view expression) {
  if (a.json) {
    alea::Outcome o;
    o.error = d.front();
    fmt::print("{}\n", alea::render_json(o, expression, std::nullopt, a.limits.max_render_size));
  }
  std::fputs(alea::render_text(d).c_str(), stderr);
  return exit_bad_input;
}

int roll_command(const RollArgs& a, const alea::cli::RulesetPath& path) {
  std::vector<std::string> words;
  for (const auto& w : a.words) words.push_back(w.substr(!w.empty() && w.front() == ' '));
  if (words.empty()) throw UsageError("roll: give an expression to roll, as in: alea roll 4d6kh3");
  alea::Engine engine(alea::cli::engine_options(a.limits, path));
  // `my-game.check dice=3` calls a mechanic (calls_mechanic says when a word
  // does); `mine/my-game.yaml#check` calls one of that file, loaded first.
  if (alea::cli::calls_mechanic(path, words, 0)) {
    std::string target = words[0];
    if (alea::cli::file_mechanic_word(target)) {
      alea::cli::FileMechanic fm = alea::cli::load_file_mechanic(engine, words[0], "roll");
      if (!fm.problems.empty()) return fail(a, fm.problems, words[0]);
      target = fm.target;
    }
    const std::string name = target.substr(0, target.find('.'));
    const std::vector<std::string> settings(words.begin() + 1, words.end());
    alea::cli::MechanicCall call = alea::cli::mechanic_call(engine, path, target, settings, "roll", {a.with, a.state_file});
    if (call.diagnostics.empty()) call.diagnostics = alea::cli::load_mentioned(engine, path, call.source);
    if (!call.diagnostics.empty()) {
      return fail(a, call.diagnostics, fmt::format("{}", fmt::join(words, " ")));
    }
    const alea::Ruleset* r = engine.find_ruleset(name);
    const alea::MechanicInfo* m = r ? r->mechanic(target.substr(target.find('.') + 1)) : nullptr;
    return run_roll(engine, a, call.source, "<command line>", path, m);
  }
  // `d20 + bonus bonus=5`: the trailing name=value words bind the expression's variables.
  const auto split = static_cast<std::ptrdiff_t>(alea::cli::variable_words_start(words));
  std::string source;
  for (auto w = words.begin(); w != words.begin() + split; ++w) source += (source.empty() ? "" : " ") + *w;
  if (const auto d = alea::cli::load_mentioned(engine, path, source); !d.empty()) return fail(a, d, source);
  const alea::Bindings variables = alea::cli::variable_bindings(engine, {words.begin() + split, words.end()});
  return run_roll(engine, a, source, "<input>", path, nullptr, &variables);
}

int run_command(const RollArgs& a, const alea::cli::RulesetPath& path) {
  // Neither a FIFO, a device nor a huge file is read: only a regular file, or standard input, up to the cap.
  const auto max_bytes = static_cast<std::size_t>(a.limits.max_file_bytes);
  alea::FileText read = a.file == "-" ? alea::read_fd_capped(0, max_bytes) : alea::read_file_capped(a.file, max_bytes);
  if (!read.text) {
    const std::string shown = a.file == "-" ? "standard input" : fmt::format("'{}'", a.file);
    const std::string message = fmt::format("cannot read {}: it {}", shown, read.error);
    if (!read.too_large) throw UsageError(message, alea::DiagCode::FileUnreadable);
    const std::string report =
        fmt::format("{}: error: {} (max_file_bytes)\n", a.file == "-" ? "<stdin>" : a.file, message);
    if (a.json) {
      const alea::Diagnostic d(alea::DiagCode::FileUnreadable, alea::Span{}, message + " (max_file_bytes)");
      fmt::print("{}\n", alea::error_document("run", {d, report}));
    }
    std::fflush(stdout);
    std::fputs(report.c_str(), stderr);
    return exit_bad_input;
  }
  std::string source = std::move(*read.text);
  alea::Engine engine(alea::cli::engine_options(a.limits, path));
  if (const auto d = alea::cli::load_mentioned(engine, path, source); !d.empty()) return fail(a, d, source);
  // `alea run game.alea bonus=5`: the words after the file that are not options bind variables.
  RollArgs options = a;
  std::vector<std::string> variable_words;
  std::erase_if(options.flags, [&](const std::string& w) {
    if (w.starts_with('-')) return false;
    variable_words.push_back(w);
    return true;
  });
  const alea::Bindings variables = alea::cli::variable_bindings(engine, variable_words);
  return run_roll(engine, options, source, a.file == "-" ? "<stdin>" : a.file, path, nullptr, &variables);
}

// Runs the command the command line names. A command line found wrong on the way (UsageError)
// is reported here: on stderr and, for --json, as alea.error/1.
int run_command_line(alea::cli::ParsedArgs& c) {
  namespace cli = alea::cli;
  if (c.exit_code) {
    std::fputs(c.out.c_str(), stdout);
    std::fflush(stdout);
    std::fputs(c.err.c_str(), stderr);
    return *c.exit_code;
  }
  try {
    if (c.command == cli::Command::Repl) {
      return cli::run_repl({c.repl_seed, c.ruleset_dirs, c.repl_state, c.limits});
    }
    const alea::cli::RulesetPath path(c.ruleset_dirs);
    int code = exit_ok;
    switch (c.command) {
      case cli::Command::Rulesets: code = cli::rulesets_command(path, c.list_json); break;
      case cli::Command::Describe: {
        const cli::DescribeView view{fmt::format("{}", fmt::join(c.describe_group, " ")), c.describe_full};
        code = cli::describe_command(c.describe_what, path, c.describe_json, view);
        break;
      }
      case cli::Command::State: code = cli::state_command(c.state, path); break;
      case cli::Command::Serve: code = cli::serve_command(c.serve, c.limits, c.ruleset_dirs); break;
      default: {
        // Commands that run code: the first Ctrl-C stops them cleanly.
        cli::stop_on_interrupt();
        c.stats.cancel = &cli::cancel_flag();
        if (c.command == cli::Command::Roll) code = roll_command(c.roll, path);
        if (c.command == cli::Command::Run) code = run_command(c.run, path);
        if (c.command == cli::Command::Stats) code = cli::stats_command(c.stats, path);
        if (c.command == cli::Command::Check) code = cli::check_command(c.check_files, path, c.limits, c.check_json);
        if (c.command == cli::Command::Test) code = cli::test_command(c.test_rulesets, path, c.limits, c.test_json);
        if (cli::cancel_flag().load()) code = cli::exit_interrupted;
      }
    }
    return code;
  } catch (const UsageError& e) {
    const std::string report = fmt::format("alea: {}\n", e.what());
    if (c.json()) {
      const alea::Diagnostic d(e.code, alea::Span{}, e.what());
      fmt::print("{}\n", alea::error_document(cli::command_name(c.command), {d, report}));
      std::fflush(stdout);
    }
    std::fputs(report.c_str(), stderr);
    return exit_usage;
  }
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = alea::cli;
  cli::prepare_output();
  cli::ParsedArgs c = cli::parse_args(std::vector<std::string>(argv, argv + argc));
  try {
    return cli::finish_output(run_command_line(c));
  } catch (const std::system_error& e) {
    // fmt::print found stdout (or stderr) closed or full.
    if (!cli::is_write_error(e)) throw;
    return cli::output_failed(e.code().value());
  }
}
