// cli/repl.cpp — the interactive loop: evaluation, :commands, history, what tab completion offers.
//
// On a terminal, lines come from libedit (its readline-compatible API); from a
// pipe or a file they come from std::getline, with no prompts and no history,
// so `printf '3d6\n' | alea` works in scripts. Both feed the same Repl, so a
// script prints exactly what a person at the prompt would see.
//
// Results go to stdout; diagnostics, warnings and notes go to stderr, as with
// `alea roll`.
#include "cli/repl.hpp"
#include "cli/history.hpp"
#include "cli/interrupt.hpp"
#include "cli/output.hpp"
#include "cli/repl_dice.hpp"
#include "cli/repl_state.hpp"
#include "cli/repl_terminal.hpp"
#include "cli/roll.hpp"
#include "cli/ruleset_commands.hpp"
#include "cli/ruleset_path.hpp"
#include "cli/stats_command.hpp"
#include "cli/stats_render.hpp"
#include "cli/words.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/parser.hpp"
#include "interpreter/api.hpp"
#include "interpreter/eval/builtins.hpp"
#include "interpreter/program.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/stats.hpp"

namespace alea::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* prompt_first = "alea> ";
constexpr const char* prompt_more = "... ";

struct CommandDoc {
  std::string_view name;
  std::string_view usage;
  std::string_view summary;
};

constexpr CommandDoc commands[] = {
    {":help", ":help", "this text"},
    {":quit", ":quit, :q", "leave the REPL (Ctrl-D does the same)"},
    {":seed", ":seed [N]", "show the seed, or restart the random dice from seed N"},
    {":trace", ":trace on|off", "show every die with the result, or only the result"},
    {":vars", ":vars", "the variables and functions defined so far"},
    {":dice", ":dice 6,4,1", "the next dice rolled show these faces, then random again"},
    {":dice", ":dice clear", "forget the scripted faces not used yet"},
    {":load", ":load NAME|FILE", "load a ruleset; its mechanics become functions (my_game.check)"},
    {":reload", ":reload [NAME]", "load the rulesets loaded (or one) again from their files, after an edit"},
    {":rulesets", ":rulesets", "the rulesets alea can find, and those loaded"},
    {":describe", ":describe NAME[.M]", "a ruleset's mechanics, or one mechanic (or record type); --full: every detail"},
    {":stats", ":stats EXPR [OPTS]", "how EXPR is distributed: exact odds (or sampled), mean, table; alea stats's options"},
    {":compare", ":compare A B …", "variants side by side (each a word; quote with '…'), as alea stats A B"},
    {":state", ":state [reset]", "the rulesets' state kept between rolls (a character's counters), or back to the start"},
    {":choose", ":choose NAME[=V]", "decide a choice on the last roll (a choice the ruleset declares): made again, same dice"},
};

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string_view rtrim(std::string_view s) {
  const auto e = s.find_last_not_of(" \t\r\n");
  return e == std::string_view::npos ? std::string_view{} : s.substr(0, e + 1);
}

template <class Int>
bool parse_int(std::string_view text, Int& out) {
  const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

// Writes `text` to stdout a piece at a time, stopping at Ctrl-C: a huge value
// or table takes long to reach a terminal, and the prompt should come back.
void print_interruptible(std::string_view text) {
  constexpr std::size_t piece = 16 * 1024;
  for (std::size_t at = 0; at < text.size(); at += piece) {
    if (cancel_flag().load(std::memory_order_relaxed)) {
      fmt::print("\n");
      break;
    }
    fmt::print("{}", text.substr(at, piece));
  }
  std::fflush(stdout);
}

// ---- evaluation and commands --------------------------------------------------

// What became of one line.
struct Step {
  bool quit = false;
  std::optional<std::string> finished;  // a whole input or command, for the history
};

class Repl {
 public:
  Repl(std::uint64_t seed, RulesetPath path, std::string state_file, const Limits& limits)
      : engine_(engine_options(limits, path)), session_(engine_), dice_(seed), path_(std::move(path)), state_(engine_, session_, path_, std::move(state_file)) {
    session_.set_cancel(&cancel_flag());
  }

  // Reads the state file, if any; returns its problems.
  [[nodiscard]] std::string open_state() { return state_.open(); }

  [[nodiscard]] const Session& session() const { return session_; }
  [[nodiscard]] const Engine& engine() const { return engine_; }
  [[nodiscard]] const RulesetPath& path() const { return path_; }
  [[nodiscard]] std::uint64_t seed() const { return dice_.seed(); }
  [[nodiscard]] bool continuing() const { return !pending_.empty(); }
  void cancel() { pending_.clear(); }

  Step feed(std::string_view line) {
    Step step;
    if (!continuing()) {
      const std::string_view text = trim(line);
      if (text.empty()) return step;
      if (text.front() == ':') {
        step.quit = !command(text);
        // Up after a restart should bring back the last roll, not ":quit".
        if (!step.quit) step.finished = std::string(text);
        return step;
      }
      if (const auto call = command_line_call(text)) {
        // Kept in the history as typed; an empty source was a mistake, already reported.
        step.finished = std::string(text);
        if (!call->empty()) {
          pending_ = *call;
          (void)evaluate(true);
        }
        return step;
      }
      pending_ = std::string(line);
      step.finished = evaluate(false);
      return step;
    }
    // An empty line ends an incomplete input: show what is missing.
    const bool force = trim(line).empty();
    if (!force) {
      pending_ += '\n';
      pending_ += line;
    }
    step.finished = evaluate(force);
    return step;
  }

  // The input ended; an incomplete input still gets its diagnostic.
  std::optional<std::string> finish() { return continuing() ? evaluate(true) : std::nullopt; }

 private:
  Engine engine_;
  Session session_;
  ReplDice dice_;
  RulesetPath path_;
  ReplState state_;
  bool trace_ = true;
  std::string pending_;                            // the lines of an input so far
  std::vector<Session::Function> known_;  // the functions as of the last input, to say what is new
  // The inputs that defined functions, as the session keeps them, so that
  // :stats compiles its expression as the session would.
  std::vector<std::shared_ptr<const CompiledProgram>> imports_;

  // `my-game.check dice=3 red=1`: a mechanic called as on the command line, the ruleset
  // loaded from the path if need be. Gives the source of the call it stands for (an empty one
  // after reporting a mistake in it), or nothing when `text` is not in that form: its first word
  // names a ruleset's mechanic (not a variable's field, `r.result`), and every other word is a
  // name=value setting. Words are split at spaces outside brackets and quotes.
  std::optional<std::string> command_line_call(std::string_view text) {
    const std::vector<std::string> words = split_words(text);
    if (words.empty() || !is_mechanic_word(words[0])) return std::nullopt;
    const std::string name = words[0].substr(0, words[0].find('.'));
    if (session_.variables().find(name)) return std::nullopt;
    if (!engine_.find_ruleset(name) && !path_.find(name)) return std::nullopt;
    const std::vector<std::string> settings(words.begin() + 1, words.end());
    if (!std::all_of(settings.begin(), settings.end(), [](const std::string& w) { return is_setting(w); })) {
      return std::nullopt;
    }
    const auto before = engine_.rulesets().size();
    MechanicCall call;
    try {
      call = mechanic_call(engine_, path_, words[0], settings, words[0], {{}, state_.file()});
    } catch (const UsageError& e) {
      report("error: {}\n", e.what());
      return std::string();
    }
    for (std::size_t i = before; i < engine_.rulesets().size(); ++i) {
      const Ruleset& r = *engine_.rulesets()[i];
      report("note: loaded the ruleset {} ({})\n", r.name, r.file);
    }
    if (!call.diagnostics.empty()) {
      report("{}", render_text(call.diagnostics));
      return std::string();
    }
    return call.source;
  }

  // Evaluates the pending input; returns it once it is finished, or nothing
  // while it still waits for more lines.
  std::optional<std::string> evaluate(bool force) {
    // A ruleset the input calls (`my_game.check(3)`) is loaded from the
    // path as by :load, so that the REPL reads what `alea roll` reads.
    const auto before = engine_.rulesets().size();
    if (const Diagnostics d = load_mentioned(engine_, path_, pending_); !d.empty()) {
      report("{}", render_text(d));
      std::string finished = std::move(pending_);
      pending_.clear();
      return finished;
    }
    for (std::size_t i = before; i < engine_.rulesets().size(); ++i) {
      const Ruleset& r = *engine_.rulesets()[i];
      report("note: loaded the ruleset {} ({})\n", r.name, r.file);
    }
    std::optional<StateLock> state_lock;
    try {
      state_lock = state_.lock_and_refresh();
    } catch (const StateFileError& e) {
      report("{}error: the input was not run\n", e.what());
      std::string finished = std::move(pending_);
      pending_.clear();
      return finished;
    }
    dice_.begin_input();
    const State state_before = session_.state();
    const Outcome outcome = session_.eval(pending_, dice_);
    if (!outcome.ok()) {
      dice_.undo_input();
      if (outcome.error->at_end_of_input && !force) return std::nullopt;
      // The REPL says "interrupted" itself, once, whatever was stopped.
      if (outcome.error->code != DiagCode::Interrupted) report("{}", render_text(*outcome.error));
    } else {
      if (outcome.program) {
        const auto& statements = outcome.program->ast->statements;
        if (std::any_of(statements.begin(), statements.end(),
                        [](const ast::Statement& st) { return std::holds_alternative<ast::FnDef>(st); })) {
          imports_.push_back(outcome.program);
        }
      }
      show(outcome);
      keep_last(outcome);
      state_.changed(state_before, trace_);
      if (dice_.random_after_script() > 0) {
        report("note: the scripted faces ran out; {} {} rolled at random\n",
               dice_.random_after_script(),
               dice_.random_after_script() == 1 ? "die was" : "dice were");
      } else if (dice_.scripted_used() > 0 && !dice_.queued().empty()) {
        report("note: {} scripted {} left for the next rolls\n", dice_.queued().size(),
               dice_.queued().size() == 1 ? "face" : "faces");
      }
    }
    std::string finished = std::move(pending_);
    pending_.clear();
    return finished;
  }

  // `_` is the value of the last input that had one, as in Python's REPL.
  void keep_last(const Outcome& o) {
    if (!o.value || !o.program || !o.program->ast->main) return;
    if (const auto d = session_.set_variable("_", *o.value)) {
      report("note: '_' keeps the value before: {}\n", d->message);
    }
  }

  // The mechanic `o`'s main expression calls (`my_game.check(3)`), or null.
  [[nodiscard]] const MechanicInfo* mechanic_called(const Outcome& o) const {
    if (!o.program || !o.program->ast->main) return nullptr;
    const auto* call = std::get_if<ast::Call>(&o.program->ast->main->kind);
    if (!call) return nullptr;
    const auto dot = call->name.find('.');
    if (dot == std::string::npos) return nullptr;
    const Ruleset* r = engine_.find_ruleset(call->name.substr(0, dot));
    return r ? r->mechanic(call->name.substr(dot + 1)) : nullptr;
  }

  void show(const Outcome& o) {
    const auto before = known_;
    known_ = session_.functions();
    for (const auto& f : known_) {
      const auto it = std::find_if(before.begin(), before.end(), [&](const auto& b) { return b.name == f.name; });
      if (it == before.end() || it->defined_by != f.defined_by) {
        fmt::print("defined {}({})\n", f.name, fmt::join(f.params, ", "));
      }
    }
    if (!o.value) {
      std::fflush(stdout);
      return;
    }
    const bool has_main = o.program && o.program->ast->main;
    // The breakdown describes the main expression or, without one, the last
    // `let`; a `let` that rolled no dice has nothing to show but its value
    // (not "x = 1 = 1").
    const bool breakdown = trace_ && (has_main || !o.trace.dice.empty());
    const std::int64_t max_bytes = engine_.options().limits.max_render_size;
    // A mechanic's record is shown a field to a line, as `alea roll` shows it.
    const MechanicInfo* mechanic = has_main && o.value->as_record() ? mechanic_called(o) : nullptr;
    const std::string shown = breakdown ? (mechanic ? record_breakdown(o, max_bytes, mechanic) : render_breakdown(o, max_bytes))
                                        : to_display(*o.value, max_bytes);
    const std::size_t plain =
        has_main || o.globals.empty() ? o.globals.size() : o.globals.size() - 1;
    for (std::size_t i = 0; i < plain; ++i) {
      print_interruptible(fmt::format("{} = {}\n", o.globals[i].first, to_display(o.globals[i].second, max_bytes)));
    }
    if (has_main || o.globals.empty()) {
      print_interruptible(fmt::format("{}\n", shown));
    } else {
      print_interruptible(fmt::format("{} = {}\n", o.globals.back().first, shown));
    }
  }

  // Runs a :command; returns false for :quit.
  bool command(std::string_view text) {
    std::string_view name = text, arg;
    if (const auto space = text.find_first_of(" \t"); space != std::string_view::npos) {
      name = text.substr(0, space);
      arg = trim(text.substr(space));
    }
    if (name == ":quit" || name == ":q" || name == ":exit") return false;
    if (name == ":help" || name == ":h" || name == ":?") {
      help();
    } else if (name == ":seed") {
      seed_command(arg);
    } else if (name == ":trace") {
      trace_command(arg);
    } else if (name == ":vars") {
      vars();
    } else if (name == ":dice") {
      dice_command(arg);
    } else if (name == ":load") {
      load_command(arg);
    } else if (name == ":rulesets") {
      fmt::print("{}", rulesets_text(path_, &engine_));
    } else if (name == ":describe") {
      describe_ruleset(arg);
    } else if (name == ":reload") {
      reload_command(arg);
    } else if (name == ":stats" || name == ":compare") {
      stats_of(name, arg, name == ":compare");
    } else if (name == ":state") {
      state_.command(arg);
    } else if (name == ":choose") {
      choose(arg);
    } else {
      report("error: unknown command '{}'; :help lists the commands\n", name);
    }
    std::fflush(stdout);
    return true;
  }

  static void help() {
    fmt::print("Type an expression to roll it; its dice are shown with the result.\n\nCommands:\n");
    for (const auto& c : commands) fmt::print("  {:<20}{}\n", c.usage, c.summary);
    fmt::print(
        "\nExamples:\n"
        "  4d6kh3                    four d6, keep the highest three\n"
        "  3d6! + 2                  exploding d6, plus 2\n"
        "  5d10>=8                   count the dice showing 8 or more\n"
        "  let str = 4d6kh3          a variable, usable on later lines\n"
        "  fn mod(s) = (s - 10) / 2  a function, usable on later lines\n"
        "  d20 + mod(str)\n"
        "  :rulesets                 the rulesets alea can find\n"
        "  :load my-game             a ruleset; then call its mechanics:\n"
        "  my_game.check(3, red: 1)  in the language, or as on the command line:\n"
        "  my-game.check dice=3 red=1\n"
        "  _ + 1                     the last result, plus 1\n"
        "  :stats d20 + mod(str)     its odds: exact table, mean, percentiles, histogram\n"
        "  :compare 3d6 4d6kh3       two variants side by side, and their difference\n"
        "\nTab completes keywords, functions, variables and the mechanics of the loaded\n"
        "rulesets (a ruleset an input calls is loaded from the path). An unfinished line\n"
        "(such as '3d6 +') continues on the next; an empty line ends it.\n"
        "Ctrl-C abandons the line being typed, or stops a roll, :stats or a long print and\n"
        "comes back to the prompt (the session is kept); Up and Down go through the history.\n");
  }

  void seed_command(std::string_view arg) {
    if (arg.empty()) {
      fmt::print("seed {}\n", dice_.seed());
      return;
    }
    std::uint64_t seed = 0;
    if (!parse_int(arg, seed)) {
      report("error: ':seed' needs a whole number from 0 to {}, as in ':seed 42'; got '{}'\n",
             std::numeric_limits<std::uint64_t>::max(), arg);
      return;
    }
    dice_.reseed(seed);
    fmt::print("seed {}\n", seed);
  }

  void trace_command(std::string_view arg) {
    if (arg == "on") {
      trace_ = true;
    } else if (arg == "off") {
      trace_ = false;
    } else if (!arg.empty()) {
      report("error: ':trace' takes 'on' or 'off'; got '{}'\n", arg);
      return;
    }
    fmt::print("trace {}\n", trace_ ? "on" : "off");
  }

  void vars() const {
    const auto& all = session_.variables().all();
    const auto functions = session_.functions();
    if (all.empty() && functions.empty()) {
      fmt::print("no variables or functions yet; try 'let x = 3d6' or 'fn bonus(s) = s / 2'\n");
      return;
    }
    for (const auto& [name, value] : all) print_interruptible(fmt::format("{} = {}\n", name, to_display(value)));
    for (const auto& f : functions) fmt::print("fn {}({})\n", f.name, fmt::join(f.params, ", "));
  }

  // A failed load reports its diagnostics and changes nothing: the engine
  // loads a ruleset whole or not at all.
  void load_command(std::string_view arg) {
    if (arg.empty()) {
      report("error: ':load' needs a ruleset's name or file, as in ':load my-game'\n");
      return;
    }
    std::filesystem::path file(arg);
    SourceOrigin origin = SourceOrigin::User;  // a file named here is the user's own
    if (!is_ruleset_file(arg)) {
      const auto found = path_.find(arg);
      if (!found) {
        report("error: {}\n", no_such_ruleset(arg, path_, &engine_));
        return;
      }
      file = *found;
      origin = path_.origin_of(file);
    }
    if (std::error_code ec; !std::filesystem::is_regular_file(file, ec)) {
      report("error: cannot read the ruleset file '{}' (is it there?)\n", arg);
      return;
    }
    if (const Diagnostics d = load_ruleset(engine_, file, origin); !d.empty()) {
      report("{}error: the ruleset was not loaded; nothing changed\n", render_text(d));
      return;
    }
    // The ruleset loaded is the one the file names, which may differ from `arg`.
    const Ruleset* r = nullptr;
    for (const Ruleset* l : engine_.rulesets()) {
      if (l->file == display_path(file)) r = l;
    }
    if (!r) return;
    fmt::print("loaded {} — {}\n", r->name, r->title);
    for (const auto& m : r->mechanics) {
      std::vector<std::string> params;
      for (const auto& p : m.params) {
        params.push_back(p.default_value ? fmt::format("{} = {}", p.name, to_display(*p.default_value)) : p.name);
      }
      fmt::print("  {}.{}({})\n      {}\n", r->ident, m.name, fmt::join(params, ", "), m.doc);
    }
  }

  // :reload [NAME] — each loaded ruleset (or NAME) again from its file, as a homebrewer edits
  // it. One that no longer loads is reported and kept as it was.
  void reload_command(std::string_view arg) {
    std::vector<const Ruleset*> which;
    for (const Ruleset* r : engine_.rulesets()) {
      if (arg.empty() || r->name == arg || r->ident == arg) which.push_back(r);
    }
    if (which.empty()) {
      if (arg.empty()) report("error: no ruleset is loaded; :load one first\n");
      else report("error: the ruleset '{}' is not loaded (:rulesets lists those loaded)\n", arg);
      return;
    }
    for (const Ruleset* r : which) {
      const std::string name = r->name, file = r->file;
      if (const Diagnostics d = load_ruleset(engine_, file, path_.origin_of(file)); !d.empty()) {
        report("{}error: {} was not reloaded; it stays as it was\n", render_text(d), name);
        continue;
      }
      fmt::print("reloaded {} ({})\n", name, file);
    }
    if (!imports_.empty()) {
      report("note: the functions defined before keep the rulesets as they were; define them again to use "
             "the new ones\n");
    }
  }

  void describe_ruleset(std::string_view arg) const {
    if (arg.empty()) {
      report("error: ':describe' needs a ruleset's name, as in ':describe my-game' or "
             "':describe my-game.check' (:rulesets lists them)\n");
      return;
    }
    const Described d = describe(arg, path_, false, &engine_);
    if (!d.diagnostics.empty()) {
      report("{}", render_text(d.diagnostics));
    } else if (!d.error.empty()) {
      report("error: {}\n", d.error);
    } else {
      fmt::print("{}", d.text);
    }
  }

  // :stats [OPTIONS] EXPR… and :compare A B … — as `alea stats` (the same options), with the
  // session's variables and functions. Nothing about the session changes (a ruleset EXPR calls
  // is loaded, as for any input); the sampler has its own seed, 0 unless --seed.
  void stats_of(std::string_view command, std::string_view arg, bool variants) {
    if (arg.empty()) {
      report("error: '{}' needs {}\n", command,
             variants ? "the variants, as in ':compare 3d6 4d6kh3' or ':compare 'd20 + 2' '2d10''"
                      : "an expression, as in ':stats 2d6' or ':stats 4d6kh3'");
      return;
    }
    StatsArgs args;
    std::vector<std::string> words = split_words(arg);
    if (std::any_of(words.begin(), words.end(), [](const std::string& w) { return w.starts_with("--"); })) {
      // Options: read as the command line reads them (CLI11 takes its words last first).
      CLI::App app;
      CLI::App* cmd = add_stats_command(app, args);
      words.insert(words.begin(), "stats");
      std::reverse(words.begin(), words.end());
      try {
        app.parse(words);
      } catch (const CLI::CallForHelp&) {
        fmt::print("{}", cmd->help());
        return;
      } catch (const CLI::ParseError& e) {
        report("error: {}: {}\n", command, e.what());
        return;
      }
      args.flags = cmd->remaining();
    } else {
      args.words = std::move(words);
    }
    args.cancel = &cancel_flag();
    const auto before = engine_.rulesets().size();
    try {
      std::fflush(stdout);
      run_stats({engine_, path_, &session_.variables(), imports_}, args, variants);
    } catch (const UsageError& e) {
      report("error: {}\n", e.what());
    }
    std::fflush(stdout);
    for (std::size_t i = before; i < engine_.rulesets().size(); ++i) {
      const Ruleset& r = *engine_.rulesets()[i];
      report("note: loaded the ruleset {} ({})\n", r.name, r.file);
    }
  }

  // :choose — the player decides after seeing the roll: it is made again
  // with the same dice and the decision.
  void choose(std::string_view arg) {
    // Locked, not read again: the decision remakes the last roll from the
    // state it started from.
    std::optional<StateLock> state_lock;
    try {
      state_lock = state_.lock();
    } catch (const StateFileError& e) {
      report("{}error: the roll was not made again; nothing changed\n", e.what());
      return;
    }
    const State before = session_.state();
    dice_.begin_input();
    const std::optional<Outcome> o = state_.choose(arg, dice_);
    if (!o) return;
    if (!o->ok()) {
      dice_.undo_input();
      if (o->error->code == DiagCode::Interrupted) return;
      report("{}error: the roll was not made again; nothing changed\n", render_text(*o->error));
      return;
    }
    show(*o);
    keep_last(*o);
    state_.changed(before, false);
  }

  void dice_command(std::string_view arg) {
    if (arg.empty()) {
      if (dice_.queued().empty()) {
        fmt::print("no scripted faces; the dice are random (set some with ':dice 6,4,1')\n");
      } else {
        fmt::print("next dice: {}\n", fmt::join(dice_.queued(), " "));
      }
      return;
    }
    if (arg == "clear" || arg == "off") {
      dice_.clear_script();
      fmt::print("no scripted faces; the dice are random\n");
      return;
    }
    const auto faces = parse_faces(arg);
    if (!faces) {
      report(
          "error: ':dice' needs whole numbers separated by commas, as in ':dice 6,4,1'; got '{}'\n",
          arg);
      return;
    }
    dice_.script(*faces);
    fmt::print("next dice: {}\n", fmt::join(*faces, " "));
  }
};

// ---- the terminal -------------------------------------------------------------

// What tab completion offers; libedit's callbacks reach the session through
// these, and there is one REPL per process.
const Session* completion_session = nullptr;
const Repl* completion_repl = nullptr;

// Whether the line so far is the command `name` and its argument.
bool cmd_is(std::string_view line_start, std::string_view name) {
  return line_start.starts_with(name) &&
         (line_start.size() == name.size() || line_start[name.size()] == ' ' || line_start[name.size()] == '\t');
}

// The candidates after `before`, each with what to type after it: '(' after a
// function, since a call takes no space before its arguments; ' ' after a
// word; nothing after a name that is both (`min`, `max`).
std::map<std::string, char> words_for(std::string_view before, std::string_view word) {
  std::map<std::string, char> words;
  const auto add = [&words](std::string w, char after) {
    auto [it, fresh] = words.emplace(std::move(w), after);
    if (!fresh && it->second != after) it->second = '\0';
  };
  const std::string_view line_start = trim(before);
  if (line_start.empty() && !word.empty() && word.front() == ':') {
    for (const auto& c : commands) add(std::string(c.name), ' ');
    add(":q", ' ');
  } else if (line_start == ":trace") {
    add("on", ' ');
    add("off", ' ');
  } else if (line_start == ":dice") {
    add("clear", ' ');
  } else if (line_start == ":state") {
    add("reset", ' ');
  } else if (cmd_is(line_start, ":choose") && completion_repl) {
    for (const Ruleset* r : completion_repl->engine().rulesets()) {
      for (const auto& c : r->choices) add(c.name, c.type.kind == ast::TypeSpec::Bool ? ' ' : '=');
    }
  } else if (const std::string_view cmd = line_start.substr(0, line_start.find_first_of(" \t"));
             completion_repl && (cmd == ":load" || cmd == ":describe")) {
    // '-' breaks words, so in ':load my-ga' the word is 'ga': each
    // candidate is offered from where the word starts.
    const std::string_view typed = trim(line_start.substr(cmd.size()));
    std::vector<std::string> names;
    for (const auto& e : completion_repl->path().all()) names.push_back(e.name);
    if (cmd == ":describe") {
      for (const Ruleset* r : completion_repl->engine().rulesets()) {
        if (std::find(names.begin(), names.end(), r->name) == names.end()) names.push_back(r->name);
        for (const auto& m : r->mechanics) names.push_back(r->name + "." + m.name);
      }
    }
    for (const auto& n : names) {
      if (n.starts_with(typed)) add(n.substr(typed.size()), ' ');
    }
  } else if (line_start.empty() || line_start.front() != ':' || cmd_is(line_start, ":stats")) {
    for (const auto& k : keywords()) add(k, ' ');
    for (const auto& b : builtin_docs()) add(b.name, '(');
    if (completion_session) {
      for (auto& v : completion_session->variables().names()) add(std::move(v), ' ');
      for (auto& f : completion_session->functions()) add(std::move(f.name), '(');
    }
    if (completion_repl) {
      for (const Ruleset* r : completion_repl->engine().rulesets()) {
        for (const auto& m : r->mechanics) add(r->ident + "." + m.name, '(');
      }
    }
  }
  return words;
}

int run_terminal(Repl& repl) {
  catch_interrupts();
  HistoryFile history(history_path());
  completion_session = &repl.session();
  completion_repl = &repl;
  Terminal terminal(words_for, history.load());
  fmt::print("alea: roll dice and rules. :help lists the commands, Ctrl-D leaves. (seed {})\n",
             repl.seed());
  std::fflush(stdout);
  while (true) {
    ReadResult r = terminal.read(repl.continuing() ? prompt_more : prompt_first);
    if (r.kind == ReadResult::Kind::Interrupted) {
      fmt::print("^C\n");
      std::fflush(stdout);
      repl.cancel();
      continue;
    }
    Step step;
    if (r.kind == ReadResult::Kind::End) {
      fmt::print("\n");
      step.quit = true;
      step.finished = repl.finish();
    } else {
      step = repl.feed(r.line);
    }
    if (cancel_flag().load(std::memory_order_relaxed)) report("interrupted\n");
    if (step.finished) {
      // A space left by tab completion is not part of the input worth keeping.
      const std::string entry(rtrim(*step.finished));
      terminal.remember(entry);
      history.append(entry);
    }
    if (step.quit) return 0;
  }
}

// Input from a file or a pipe. Ctrl-C stops what runs, as on a terminal, and
// then the script: there is no prompt to come back to. It exits 130 after the
// input it stopped, which is undone as on a terminal; a second Ctrl-C kills.
int run_script(Repl& repl) {
  stop_on_interrupt(true);
  const auto stopped = [] { return cancel_flag().load(std::memory_order_relaxed); };
  for (std::string line; !stopped() && std::getline(std::cin, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (repl.feed(line).quit) return 0;
  }
  if (!stopped()) (void)repl.finish();
  if (stopped()) {
    report("interrupted\n");
    return exit_interrupted;
  }
  return 0;
}

}  // namespace

int run_repl(const ReplOptions& options) {
  Repl repl(options.seed ? *options.seed : alea::fresh_seed(), RulesetPath(options.ruleset_dirs), options.state_file,
            options.limits);
  if (const std::string problems = repl.open_state(); !problems.empty()) {
    std::fputs(problems.c_str(), stderr);
    return 1;
  }
  if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
    // libedit edits multibyte (UTF-8) text only under the user's locale.
    std::setlocale(LC_CTYPE, "");
    return run_terminal(repl);
  }
  return run_script(repl);
}

}  // namespace alea::cli
