// interpreter/outcome.hpp — what one run of a program gives: a value or an
// error, and every die rolled on the way.
//
// Part of the public API (interpreter/api.hpp): it holds the compiled program
// only as an opaque handle, so that it does not bring in the syntax tree.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "interpreter/rulesets/state.hpp"
#include "interpreter/values/trace.hpp"
#include "interpreter/values/value.hpp"

namespace alea {

struct CompiledProgram;  // interpreter/program.hpp (internal)

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
  // The scripted faces no die took (DiceSource::unused), in order: a host that scripts a whole
  // roll, as `alea roll --dice` does, can refuse a roll that left some over.
  std::vector<std::int64_t> unused_dice;
  // Keeps the sources that the trace's spans point into alive.
  std::shared_ptr<const CompiledProgram> program;

  [[nodiscard]] bool ok() const { return !error.has_value(); }
};

}  // namespace alea
