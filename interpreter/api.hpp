// interpreter/api.hpp — the public C++ API of alea. The examples use nothing
// else; the command line, the REPL and the fuzzers use it too, and include the
// interpreter's own headers explicitly where they need more.
//
//   alea::Engine engine;                       // default limits
//   alea::Outcome o = engine.roll("4d6kh3", 42);   // compile + run with seed 42
//   if (o.ok()) fmt::print("{}\n", alea::render_breakdown(o));
//
// An Engine is immutable once built: compile() and run() are const and may be
// called from many threads at once. A compiled program is shared and immutable;
// everything that changes during a run (dice, trace, budget) belongs to the run.
//
// This header shows no syntax tree: a compiled program and a loaded ruleset are
// opaque here (their definitions, interpreter/program.hpp and
// interpreter/rulesets/ruleset.hpp, are the interpreter's own), so that code
// using only the API is not rebuilt when the language's internals change. The
// test api.header_check keeps it so (tests/api_header_check.cmake).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "dsl/parse_options.hpp"
#include "interpreter/compile_cache.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/render/json_documents.hpp"
#include "interpreter/rulesets/state.hpp"
#include "interpreter/values/bindings.hpp"
#include "interpreter/values/dice.hpp"
#include "interpreter/values/trace.hpp"
#include "interpreter/values/value.hpp"

namespace alea {

// A program parsed and resolved, ready to run; shared and immutable. Opaque:
// held by std::shared_ptr<const CompiledProgram> and passed back to run().
struct CompiledProgram;
// A ruleset loaded into an Engine; opaque: ruleset_summary() describes it.
struct Ruleset;

// The library's version, "0.2.0" (the project's).
[[nodiscard]] std::string_view version();

struct EngineOptions {
  Limits limits;
  ParseOptions parse;
  // How many compiled programs compile() keeps by source text, for hosts that
  // compile the same expressions again and again (CompileCache); 0: none.
  std::size_t compile_cache = 256;
  // The rulesets shipped with the host: the directory load_ruleset searches last and loads
  // from as SourceOrigin::Library. Empty (the default): PREFIX/share/alea/rulesets next to the
  // installed library or program, else the source tree's. A host that carries its own copy
  // (the Python package, in alea/rulesets/) names it here.
  std::filesystem::path shipped_rulesets{};
  // Where a variant's `extends: NAME` looks for its base after the variant's own directory and
  // before $ALEA_PATH and the shipped rulesets: the directories the host's own lookups search
  // first (the command line's --rulesets), in order.
  std::vector<std::filesystem::path> ruleset_dirs{};
};

// A compiled program, or the diagnostics that stopped it.
struct Compiled {
  std::shared_ptr<const CompiledProgram> program;
  Diagnostics diagnostics;
  [[nodiscard]] bool ok() const { return program != nullptr; }
};

using Imports = std::span<const std::shared_ptr<const CompiledProgram>>;

// A function of the standard library, for completion and `:help`.
struct StdlibFunction {
  std::string name;
  std::vector<std::string> params;
  std::string file;  // "pools.alea"
};

// What a host may read of a loaded ruleset: what to call and what to show.
struct RulesetSummary {
  struct Mechanic {
    std::string name;                 // "check", called as `my_game.check(…)`
    std::string doc;
    std::string group;                // "" when it has none
    std::vector<std::string> params;  // its own, in the order of the call
    std::vector<std::string> result;  // a record result's fields, in order; empty for a plain result
    // The ruleset-wide parameters, counters and choices it reads: the only ones a call may set.
    std::vector<std::string> settable;
  };
  std::string name;   // as in the file, in State and in Choices: "my-game"
  std::string ident;  // as in the language: "my_game"
  std::string title;
  std::string doc;
  std::string file;   // as shown in diagnostics
  std::vector<Mechanic> mechanics;
  std::vector<std::string> parameters;  // ruleset-wide options, which a mechanic that reads them may be given
  std::vector<std::string> state;       // the counters it keeps in a State
  std::vector<std::string> choices;     // the decisions a Choices may hold for it
};
[[nodiscard]] RulesetSummary ruleset_summary(const Ruleset& ruleset);

// A name a ruleset declares, as a State or a Choices holds it: the ruleset, as in the file
// ("my-game"), and the counter or choice.
struct RulesetName {
  std::string ruleset;
  std::string name;
  friend bool operator==(const RulesetName&, const RulesetName&) = default;
};
// The choices that running `program` can read, through every function it calls: deciding any
// other changes nothing, and a host taking decisions for one roll can say so.
[[nodiscard]] std::vector<RulesetName> choices_read(const Compiled& program);
// The counters that the calls written in `program` set by name (`edge: 5`), in the order
// written, each once. A run starts such a counter from the value given, as a what-if; a host
// keeping a character's state may choose not to store the result.
[[nodiscard]] std::vector<RulesetName> counters_set(const Compiled& program);

// The names `program` reads from the host's Bindings (free names that no `let`, parameter or
// ruleset declares), each once, in the order first written.
[[nodiscard]] std::vector<std::string> host_names_read(const Compiled& program);

class Engine {
 public:
  Engine() = default;
  // Throws std::invalid_argument, naming the limit, when a limit is negative.
  explicit Engine(EngineOptions options) : options_(std::move(options)), cache_(options_.compile_cache) {
    if (std::string problem = limits_problem(options_.limits); !problem.empty()) throw std::invalid_argument(problem);
  }
  // A copy has the same options and rulesets, and a compile cache of its own.
  Engine(const Engine& other);
  // The rulesets of `rulesets_from`, with other options (a host's tighter limits for one caller);
  // throws as the constructor above.
  Engine(const Engine& rulesets_from, EngineOptions options);
  Engine& operator=(const Engine&) = delete;

  [[nodiscard]] const EngineOptions& options() const { return options_; }

  // Loads a ruleset; its mechanics become callable as `ident.mechanic`
  // (`my_game.check`). Returns every problem found; on any problem
  // nothing is loaded. A ruleset of the same name replaces the one loaded
  // before. A load may run while other threads compile, run and compute odds with this
  // Engine: each of those takes the set of rulesets once, at its start, and sees the whole new
  // ruleset or none of it; loads wait for one another. A program compiled before a load keeps
  // the mechanics it was compiled against.
  // `origin`: SourceOrigin::Library for a ruleset shipped with the host, whose
  // errors are then reported where the user's code called it (as for the
  // stdlib; see locate_in_user_code); User (the default) for a homebrewer's own.
  [[nodiscard]] Diagnostics load_ruleset_file(const std::filesystem::path& file,
                                              std::string shown_as = "",
                                              SourceOrigin origin = SourceOrigin::User);
  // A variant's `extends: NAME` is looked up in `extends_dir` (the variant's directory) if
  // given, then $ALEA_PATH, then the shipped rulesets.
  [[nodiscard]] Diagnostics load_ruleset_text(std::string_view yaml, std::string shown_as,
                                              std::optional<std::string> expected_name = std::nullopt,
                                              SourceOrigin origin = SourceOrigin::User,
                                              const std::filesystem::path& extends_dir = {});
  // Loads the ruleset `name` ("my-game" or "my_game") from the first directory that has
  // NAME.yaml: each of `dirs`, then those of $ALEA_PATH (colon-separated), then the rulesets
  // shipped with alea: EngineOptions::shipped_rulesets, or else PREFIX/share/alea/rulesets next
  // to the installed library (or program).
  // A shipped ruleset is loaded as SourceOrigin::Library, any other as User. A name with
  // characters other than a-z, 0-9, '_' and '-', or one found nowhere, is RulesetNotFound.
  [[nodiscard]] Diagnostics load_ruleset(std::string_view name, const std::vector<std::string>& dirs = {});
  // A loaded ruleset by name ("my-game" or "my_game"), or null; see ruleset_summary. The
  // pointer stays valid as long as the Engine, even once another load replaces that ruleset.
  [[nodiscard]] const Ruleset* find_ruleset(std::string_view name) const;
  [[nodiscard]] std::vector<const Ruleset*> rulesets() const;
  [[nodiscard]] const std::vector<StdlibFunction>& stdlib_functions() const;

  // Parses and resolves `source`. `name` is shown in diagnostics ("<input>",
  // a file name). It may call the stdlib, the loaded rulesets' mechanics, and
  // the functions of `imports`. Without imports, a program compiled before
  // from the same source and name may come back (EngineOptions::compile_cache).
  [[nodiscard]] Compiled compile(std::string_view source, std::string name = "<input>",
                                 Imports imports = {}) const;

  // Runs a compiled program with the host's bindings and a dice source. An
  // error inside the stdlib or a library ruleset comes back at the user's
  // call into it (locate_in_user_code).
  [[nodiscard]] Outcome run(std::shared_ptr<const CompiledProgram> program, const Bindings& bindings,
                            DiceSource& dice) const;
  // The same, reading the rulesets' state and the player's choices from
  // `input`. The new state comes back in Outcome::state (a failed run gives
  // none: nothing changed); `*input.state` itself is never written, so one
  // Engine serves many characters from many threads.
  //
  //   alea::State sheet;                                  // kept by the host
  //   alea::Choices decide;
  //   decide.set("my-game", "use_edge", true);
  //   alea::Outcome o = engine.run(move, {}, dice, {&sheet, &decide});
  //   if (o.ok()) sheet = *o.state;
  [[nodiscard]] Outcome run(std::shared_ptr<const CompiledProgram> program, const Bindings& bindings,
                            DiceSource& dice, const RunInput& input) const;
  // The problems of `state` for the loaded rulesets it has entries for (see
  // state_problems); entries of rulesets not loaded are left alone.
  [[nodiscard]] std::vector<std::string> check_state(const State& state) const;

  // Compiles and runs in one step; a compile error comes back in Outcome::error.
  [[nodiscard]] Outcome roll(std::string_view source, DiceSource& dice,
                             const Bindings& bindings = {}) const;
  [[nodiscard]] Outcome roll(std::string_view source, std::uint64_t seed) const;

 private:
  struct StdlibSet;  // the compiled stdlib, shared by every Engine
  static const StdlibSet& shared_stdlib();
  // The loaded rulesets: one immutable set, replaced whole by each load (copy on write).
  struct RulesetSet {
    std::vector<std::shared_ptr<const Ruleset>> rulesets;
    std::uint64_t generation = 0;  // 1 + the loads before it
  };
  [[nodiscard]] std::shared_ptr<const RulesetSet> snapshot() const;
  [[nodiscard]] Compiled compile_with(const RulesetSet& set, std::string_view source, std::string name,
                                      Imports imports, bool with_stdlib,
                                      SourceOrigin origin = SourceOrigin::User) const;

  EngineOptions options_;
  mutable std::mutex set_mutex_;  // held only while set_ is read or replaced
  std::shared_ptr<const RulesetSet> set_ = std::make_shared<const RulesetSet>();
  mutable std::mutex load_mutex_;  // one load at a time
  // Rulesets that a load replaced: kept, so that find_ruleset's pointers stay valid.
  std::vector<std::shared_ptr<const Ruleset>> retired_;
  mutable CompileCache cache_{options_.compile_cache};
};

// A run given scripted faces (ScriptedDice) that it did not all take, made an error: a
// ScriptedDiceUnused diagnostic over the whole `source`, saying which faces were left and that
// the roll took `took` of them, so that nothing the run did is kept (no state changes) and a host
// that scripted a whole roll learns that its dice and the rules disagree. `give_none` is how the
// host's user gives no dice, for a run that rolls none ("leave out --dice"). An outcome with no
// unused dice comes back as it was.
[[nodiscard]] Outcome refuse_unused_dice(Outcome outcome, std::string_view source, std::string name,
                                         std::size_t took, std::string_view give_none);

// Variables, functions and the rulesets' state that persist from one input to
// the next, as in the REPL or a bot's conversation. Not thread-safe: one
// session per conversation (and per character, for the state).
class Session {
 public:
  explicit Session(const Engine& engine) : engine_(engine) {}

  // Compiles and runs one input with the player's `choices`. On success its
  // `let`s, `fn`s and state changes are kept; on any error nothing about the
  // session changes. The values kept may hold max_session_size items in all
  // (Value::size); an input that would pass it is a SizeLimitExceeded error.
  Outcome eval(std::string_view source, DiceSource& dice, std::string name = "<input>",
               const Choices& choices = {});

  // The player decides after seeing the roll: the last input that succeeded
  // is made again with the same dice (`more` gives any dice beyond them) and
  // these choices, from the session as it was before it. On success its
  // result replaces the last input's; on error the session keeps the last
  // input's result. Fails (returns an error) when there is no last input.
  Outcome revise(const Choices& choices, DiceSource& more);
  [[nodiscard]] bool can_revise() const { return last_.has_value(); }
  // A flag the host sets (from another thread or a signal handler) to stop
  // the eval or revise running: it ends with an `Interrupted` error and the
  // session is left as it was. Null (the default): never stopped.
  void set_cancel(const std::atomic<bool>* cancel) { cancel_ = cancel; }
  // The choices the last input was made with.
  [[nodiscard]] const Choices& last_choices() const;

  [[nodiscard]] const State& state() const { return state_; }
  void set_state(State state) { state_ = std::move(state); }

  [[nodiscard]] const Bindings& variables() const { return variables_; }
  // Sets a variable as a `let` would. Refused, with a SizeLimitExceeded error
  // (no place) and the session unchanged, when the values kept would then
  // pass max_session_size.
  [[nodiscard]] std::optional<Diagnostic> set_variable(std::string name, Value v);
  struct Function {
    std::string name;
    std::vector<std::string> params;
    std::size_t defined_by = 0;  // which successful input defined it last (counts from 0)
  };
  // The functions defined so far, each by its latest definition, in the order first defined.
  [[nodiscard]] std::vector<Function> functions() const;

 private:
  const Engine& engine_;
  Bindings variables_;
  std::vector<std::shared_ptr<const CompiledProgram>> programs_;  // those that define functions
  State state_;
  const std::atomic<bool>* cancel_ = nullptr;
  // The last input that succeeded, and the session as it was before it.
  struct Last {
    std::string source, name;
    Choices choices;
    std::vector<std::int64_t> faces;  // every face it drew, in order
    Bindings variables;
    std::size_t programs = 0;
    State state;
  };
  std::optional<Last> last_;
  Outcome eval_recorded(std::string_view source, DiceSource& dice, std::string name, const Choices& choices);
  // The error for `variables`, when they pass max_session_size.
  [[nodiscard]] std::optional<Diagnostic> over_session_budget(const Bindings& variables,
                                                              const CompiledProgram& program) const;
};

// Rendering is bounded by `max_bytes` (Limits::max_render_size): its time and
// memory stay in proportion to it whatever the value, however large or shared.

// The dice and the result as one line, e.g. "4d6kh3 → 4 4 6 ~3~ = 14"; further
// lines follow when dice were rolled inside functions or loops. Past
// max_bytes the text is cut and ends with a marker saying how much was left
// out and naming max_render_size.
[[nodiscard]] std::string render_breakdown(const Outcome& outcome,
                                           std::int64_t max_bytes = Limits{}.max_render_size);

// How a breakdown is written for where it is read (docs/language.md, "The breakdown at the table").
enum class BreakdownFormat {
  Text,      // 4d6kh3 → 6 4 ~1~ 3 = 13
  Markdown,  // `4d6kh3` → **6** 4 ~~1~~ 3 = **13**; further lines as list items
  Discord,   // as Markdown; further lines as quotes ("> "), which Discord shows indented
};
struct BreakdownStyle {
  BreakdownFormat format = BreakdownFormat::Text;
  // Text only: ANSI colours for a terminal: the total bold, a removed die dim and struck
  // through, a die showing its highest face green, its lowest red.
  bool color = false;
  // The host's variables (the Bindings of the run): each free name of the shown expression
  // that they bind is shown with its value, `bonus:5`.
  const Bindings* variables = nullptr;
};
// render_breakdown's text in `style`. A die showing its kind's highest face (a crit) or its
// lowest (a fumble) is marked in Markdown (**20**) and in colour; a die of one face never is.
[[nodiscard]] std::string render_breakdown(const Outcome& outcome, std::int64_t max_bytes,
                                           const BreakdownStyle& style);
// A value, a further line's start and a piece of plain text as render_breakdown writes them in
// `style`: "**13**" in Markdown; "\n  ", "\n- " or "\n> "; text with Markdown's marks escaped.
[[nodiscard]] std::string breakdown_total(std::string_view value, const BreakdownStyle& style);
[[nodiscard]] std::string_view breakdown_line(const BreakdownStyle& style);
[[nodiscard]] std::string breakdown_text(std::string_view text, const BreakdownStyle& style);
// The outcome as one JSON document, alea.roll/1 (docs/json.md): value, dice, events, or the
// error; with the seed the dice came from, when there was one, so that a roll can be replayed.
// A document that would pass max_bytes is refused whole: in its place comes
// {"schema", "expression", "ok": false, "error": {"code": "SizeLimitExceeded", …}, "dice": [],
// "events": []}. The other documents are in interpreter/render/json_documents.hpp.
[[nodiscard]] std::string render_json(const Outcome& outcome, std::string_view expression,
                                      std::optional<std::uint64_t> seed = std::nullopt,
                                      std::int64_t max_bytes = Limits{}.max_render_size);
// render_json's document for a run that was given a State (RunInput::state): when the run
// succeeded, it also holds "state", the state after the run, and, when the program set counters
// by name (counters_set, passed as `what_if`), "what_if": ["my-game.edge", …], counters that a
// host keeping the character's state leaves as they were, since their values were what-ifs.
[[nodiscard]] std::string render_json_with_state(const Outcome& outcome, std::string_view expression,
                                                 std::optional<std::uint64_t> seed,
                                                 const std::vector<RulesetName>& what_if,
                                                 std::int64_t max_bytes = Limits{}.max_render_size);
// A diagnostic as the JSON object of render_json's "error", the one every document uses:
// {"code", "message", "location": {"file", "line", "column"} or null,
//  "notes": [{"message", "location"}, …], "rendered": render_text(diagnostic)}.
[[nodiscard]] std::string render_diagnostic_json(const Diagnostic& diagnostic);
// A value as JSON: numbers, booleans, strings, null for none, arrays, objects
// with a record's fields in order; a pool as its total. A value whose JSON
// would pass max_bytes gives {"error": {"code": "SizeLimitExceeded", "message": …}}.
[[nodiscard]] std::string render_value_json(const Value& value,
                                            std::int64_t max_bytes = Limits{}.max_render_size);

}  // namespace alea
