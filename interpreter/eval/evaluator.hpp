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
#include "interpreter/outcome.hpp"
#include "interpreter/program.hpp"
#include "interpreter/rulesets/state.hpp"
#include "interpreter/values/trace.hpp"
#include "interpreter/values/value.hpp"

namespace alea {

// Evaluates `program`, drawing faces from `dice` and looking free names up in
// `bindings`; rulesets' state and choices come from `input`. Problems in the
// program or its input come back in Outcome::error; only std::bad_alloc escapes.
[[nodiscard]] Outcome evaluate(std::shared_ptr<const CompiledProgram> program,
                               const Bindings& bindings, DiceSource& dice, const Limits& limits,
                               const RunInput& input = {});

}  // namespace alea
