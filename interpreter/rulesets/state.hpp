// interpreter/rulesets/state.hpp — what lives between rolls, and what a player decides
// during one: values by ruleset and name.
//
// A ruleset declares its `state` (counters kept between rolls, such as a
// edge die's face) and its `choices` (decisions a player makes after
// seeing a roll). The host keeps a State for each character and passes it to
// every run; the run gives the new State back in Outcome::state, or, when it
// fails, nothing: a failed roll changes nothing. Choices are passed the same
// way for one run; a choice not given is decided by the ruleset's default
// policy. Neither is ever kept inside the Engine.
//
// As JSON (a state file, a bot's store), a State is one object per ruleset:
//   {"my-game": {"edge": 3}}
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "interpreter/values/value.hpp"

namespace alea {

struct Ruleset;

// Values by ruleset name ("my-game") and then by name ("edge").
class RulesetValues {
 public:
  using Map = std::map<std::string, std::map<std::string, Value, std::less<>>, std::less<>>;

  // The value, or null when none was set (the ruleset's default applies).
  [[nodiscard]] const Value* find(std::string_view ruleset, std::string_view name) const;
  void set(std::string_view ruleset, std::string_view name, Value v);
  void erase(std::string_view ruleset, std::string_view name);
  [[nodiscard]] bool empty() const { return values_.empty(); }
  [[nodiscard]] const Map& all() const { return values_; }
  friend bool operator==(const RulesetValues& a, const RulesetValues& b) { return a.values_ == b.values_; }

 private:
  Map values_;
};

// One character's counters kept between rolls.
class State : public RulesetValues {};

// The player's decisions for one run.
class Choices : public RulesetValues {};

// What a run reads besides its bindings: the character's state (null: every
// counter at its default) and the player's choices (null: none decided).
struct RunInput {
  const State* state = nullptr;
  const Choices* choices = nullptr;
  // Set by the host (another thread, or a signal handler) to stop the run: it
  // then ends soon with an `Interrupted` error, and nothing changes.
  const std::atomic<bool>* cancel = nullptr;
};

// A State from JSON text. A syntax error is a StateInvalid diagnostic at its
// line and column of a SourceFile named `name` (a file name); so is a value
// JSON cannot give a language value for (a fraction).
struct StateParse {
  std::optional<State> state;
  Diagnostics diagnostics;
};
[[nodiscard]] StateParse parse_state_json(std::string_view text, std::string name);

// The state as JSON text, rulesets and names in order, two-space indented.
[[nodiscard]] std::string state_to_json(const State& state);

// The problems of `state`'s entry for `ruleset` (ignoring other rulesets'
// entries): names the ruleset does not declare, values of the wrong type or
// out of range. Each is one line, naming the entry: "my-game.edge
// is 9; it must be at most 6".
[[nodiscard]] std::vector<std::string> state_problems(const Ruleset& ruleset, const State& state);

// The value of each counter of `ruleset` in `state`, its default where the
// state has none, in the order the ruleset declares them.
[[nodiscard]] std::vector<std::pair<std::string, Value>> state_of(const Ruleset& ruleset,
                                                                  const State& state);

}  // namespace alea
