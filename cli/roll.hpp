// cli/roll.hpp — one roll as `alea roll`, `alea run` and `alea serve` make it: compile, check
// the choices against what the program reads, run, and refuse scripted dice left over.
#pragma once

#include <atomic>
#include <memory>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.hpp"
#include "interpreter/api.hpp"

namespace alea {
struct MechanicInfo;  // interpreter/rulesets/ruleset.hpp
}

namespace alea::cli {

// Variables given on the command line after an expression, `alea roll 'd20 + bonus' bonus=5`:
// trailing NAME=VALUE words, each VALUE an expression of the language that rolls no dice.
// `alea stats` can take them the same way.

// Where the trailing NAME=VALUE words of `words` begin (words.size() when there are none); the
// first word is always the expression's. NAME is taken loosely here (`3x=5`, `a.b=1`), for
// variable_bindings to refuse by name.
[[nodiscard]] std::size_t variable_words_start(const std::vector<std::string>& words);

// The variables the NAME=VALUE `words` bind, each value worked out by `engine`. Throws
// UsageError naming the word for a word that is not NAME=VALUE with a name of the language, a
// name given twice, or a value that does not compile, fails, or rolls dice.
[[nodiscard]] Bindings variable_bindings(const Engine& engine, const std::vector<std::string>& words);

// Throws UsageError when `variables` give a name that `program` never reads (with the names
// it does read, and the nearest of them).
void check_variables_read(const Compiled& program, const Bindings& variables);

// An alea.roll/1 document `doc` with "variables": {name: value, …} added as its last key.
[[nodiscard]] std::string with_variables(std::string doc, const Bindings& variables, std::int64_t max_bytes);

struct RollInput {
  std::string source;
  std::string name = "<input>";        // shown in diagnostics
  DiceSource* dice = nullptr;          // never null
  const ScriptedDice* scripted = nullptr;  // `dice`, when it is scripted: its faces must all be taken
  std::string_view give_none;          // how the user gives no dice: "leave out --dice"
  const State* state = nullptr;        // the counters the rulesets start from (null: defaults)
  const Choices* choices = nullptr;
  std::string what = "this roll";      // names the roll in a choice's error: "my-game.check"
  const std::atomic<bool>* cancel = nullptr;
  bool choices_as_options = true;  // a choice's error names it as an option (`--use-edge`), else as "choices"
  const Bindings* variables = nullptr;  // the command line's NAME=VALUE words; each must be read
};

struct RollRun {
  Compiled compiled;
  Outcome outcome;  // a compile error comes back as its error
  // With a state: the counters the program set by name (counters_set), what-ifs a host keeping
  // the character's state leaves as they were.
  std::vector<RulesetName> what_if;
  // Every problem to report: the compiler's, or the run's error.
  [[nodiscard]] Diagnostics diagnostics() const {
    return compiled.ok() ? (outcome.error ? Diagnostics{*outcome.error} : Diagnostics{}) : compiled.diagnostics;
  }
};

// `--dice 6,4,1,3` as faces; throws UsageError for anything else.
[[nodiscard]] std::vector<std::int64_t> parse_dice_list(const std::string& text);

// The player's choices: --choose words and the flags the loaded rulesets declare. Throws
// UsageError for an unknown flag or choice.
[[nodiscard]] Choices command_choices(const Engine& engine, const RollArgs& a);

// The dice a roll's options ask for: scripted (--dice), the lowest or highest faces (--min,
// --max), or random from --seed, else from `unseeded()`. Throws UsageError for a bad --dice.
struct RollDice {
  std::unique_ptr<DiceSource> source;
  ScriptedDice* scripted = nullptr;  // `source`, when the dice are scripted
  std::optional<std::uint64_t> seed;  // the seed of random dice
};
[[nodiscard]] RollDice roll_dice(const RollArgs& a, std::uint64_t (*unseeded)());

// Throws UsageError when a choice decided is one the program never reads.
[[nodiscard]] RollRun roll_once(const Engine& engine, const RollInput& input);

// The breakdown of a roll whose value is a mechanic's record (`m`, or null for a record of no
// mechanic), written in `style`: the call and its dice, then one field to a line; a label whose
// meaning the ruleset states is followed by it. A call that the mechanic's `refusal:` says the
// rules forbid: "refused: " and the sentence that says why, in place of the fields. Any other
// value: render_breakdown's text.
[[nodiscard]] std::string record_breakdown(const Outcome& o, std::int64_t max_bytes, const MechanicInfo* m,
                                           const BreakdownStyle& style = {});

// Whether render_json refused a successful outcome's document as too large: its stand-in says
// "ok": false.
[[nodiscard]] bool refused_json(const std::string& doc);

}  // namespace alea::cli
