// tests/support/roll.hpp — helpers that roll an expression with scripted dice.
#pragma once

#include <string>
#include <vector>

#include "interpreter/api.hpp"

namespace alea::testing {

// Compiles and runs `source` with the given faces; the Outcome carries the
// value or the error.
inline Outcome roll(std::string_view source, std::vector<std::int64_t> faces,
                    const Bindings& bindings = {}, const EngineOptions& options = {}) {
  Engine engine(options);
  ScriptedDice dice(std::move(faces));
  return engine.roll(source, dice, bindings);
}

// The value as text, or "error: <Code>: <message>".
inline std::string show(const Outcome& o) {
  if (!o.ok()) return "error: " + std::string(code_name(o.error->code)) + ": " + o.error->message;
  return o.value ? to_display(*o.value) : "<none>";
}

inline std::string breakdown(std::string_view source, std::vector<std::int64_t> faces) {
  const Outcome o = roll(source, std::move(faces));
  return o.ok() ? render_breakdown(o) : show(o);
}

}  // namespace alea::testing
