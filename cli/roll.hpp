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
// mechanic): the call and its dice, then one field to a line; a label whose meaning the
// ruleset states is followed by it. Any other value: render_breakdown's text.
[[nodiscard]] std::string record_breakdown(const Outcome& o, std::int64_t max_bytes, const MechanicInfo* m);

// Whether render_json refused a successful outcome's document as too large: its stand-in says
// "ok": false.
[[nodiscard]] bool refused_json(const std::string& doc);

}  // namespace alea::cli
