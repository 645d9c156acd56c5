// interpreter/eval/evaluator.hpp — entry point of the tree-walking evaluator.
//
// Everything that changes during one evaluation (dice, budget, trace, call
// stack) lives in the evaluation, never in the program, so one program may be
// evaluated from many threads at once.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "interpreter/values/bindings.hpp"
#include "interpreter/values/dice.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/program.hpp"
#include "interpreter/rulesets/state.hpp"
#include "interpreter/values/trace.hpp"
#include "interpreter/values/value.hpp"

namespace alea {

// The result of one evaluation: a value or an error, plus every die rolled on
// the way, whichever of the two it ended with.
struct Outcome {
  std::optional<Value> value;       // empty on error, or when the program only defines functions
  std::optional<Diagnostic> error;
  Trace trace;
  // The program-level `let`s, in order, with their values (the REPL keeps them).
  std::vector<std::pair<std::string, Value>> globals;
  // The state after the run: the one it was given, with the changes its
  // mechanics made. Empty when the run failed: a failed run changes nothing.
  std::optional<State> state;
  // The expression nodes the run evaluated (what max_steps limits): its work.
  std::int64_t steps = 0;
  // Keeps the sources that the trace's spans point into alive.
  std::shared_ptr<const CompiledProgram> program;

  [[nodiscard]] bool ok() const { return !error.has_value(); }
};

// Evaluates `program`, drawing faces from `dice` and looking free names up in
// `bindings`; rulesets' state and choices come from `input`. Problems in the
// program or its input come back in Outcome::error; only std::bad_alloc escapes.
[[nodiscard]] Outcome evaluate(std::shared_ptr<const CompiledProgram> program,
                               const Bindings& bindings, DiceSource& dice, const Limits& limits,
                               const RunInput& input = {});

}  // namespace alea
