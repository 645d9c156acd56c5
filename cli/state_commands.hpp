// cli/state_commands.hpp — the rulesets' state and choices on the command
// line and in the REPL: `--choose NAME[=VALUE]` and the flags rulesets declare
// (`--use-edge`), and the text that shows a state and its changes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "interpreter/api.hpp"

namespace alea {
struct MechanicInfo;
}

namespace alea::cli {

// Adds the decision `word` makes to `into`: NAME or RULESET.NAME (a bool
// choice, decided true), or either with =VALUE (VALUE as a setting's value:
// an expression, or a bare word for a label). NAME is looked up in the
// rulesets `engine` has loaded. Throws UsageError, its message starting with
// `command`.
void add_choice(const Engine& engine, std::string_view word, Choices& into, std::string_view command);

// Whether `option` ("--use-edge", "--no-use-edge") is the flag
// of a choice of a loaded ruleset; if so, adds its decision (true, or false
// after "no-") to `into`.
bool add_flag_choice(const Engine& engine, std::string_view option, Choices& into);

// The flags the loaded rulesets declare, as "--use-edge", for messages.
[[nodiscard]] std::vector<std::string> choice_flags(const Engine& engine);

// Throws UsageError for the first decision in `decided` that `read` (choices_read) does not
// hold: deciding it would change nothing. `what` names the roll: "my-game.check",
// "this roll". The message names the decision as the command line's option (`--use-edge`), or,
// unless `as_options`, as a request's "choices" entry.
void check_choices_read(const Engine& engine, const Choices& decided, const std::vector<RulesetName>& read,
                        std::string_view what, bool as_options = true);

// For `alea stats`, which runs a mechanic without a state or choices: the
// named arguments that give the counters `mechanic` reads their values in
// `state` and its choices the decisions in `choices`, each as `name: value`,
// leaving out the names in `given` (set on the command line already).
[[nodiscard]] std::vector<std::string> state_and_choice_arguments(const Ruleset& ruleset, const MechanicInfo& mechanic,
                                                                  const State& state, const Choices& choices,
                                                                  const std::vector<std::string>& given);

// The state of every loaded ruleset that keeps one, a counter to a line:
// "my-game.edge = 3   (1 to 6, starts at 1) S, the face …".
[[nodiscard]] std::string state_text(const Engine& engine, const State& state);

// What changed from `before` to `after`, a counter to a line:
// "my-game.edge: 5 → 1"; "" when nothing did.
[[nodiscard]] std::string state_changes_text(const Engine& engine, const State& before, const State& after);

// The choices of the loaded rulesets, and `decided` where set, a choice to a line.
[[nodiscard]] std::string choices_text(const Engine& engine, const Choices& decided);

}  // namespace alea::cli
