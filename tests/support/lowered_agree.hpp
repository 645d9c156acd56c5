// tests/support/lowered_agree.hpp — the lowered (trace-free) form of a program
// against the evaluator, roll for roll: for many seeds, the same value or the
// same error at the same place, and the generator left in the same state (the
// same dice were drawn). Used by the conformance driver and lowered_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "interpreter/eval/evaluator.hpp"
#include "interpreter/sample/lowered.hpp"

namespace alea::testing {

// Limits small enough that a corpus meets every limit now and then.
inline Limits tight_limits() {
  Limits l;
  l.max_dice = 40;
  l.max_explosion_depth = 3;
  l.max_rerolls = 3;
  l.max_sides = 100;
  return l;
}

// Runs `source` on seeds 0..seeds-1 both ways, at the engine's limits; returns
// how many runs ended in an error (so a case can show it met the errors it is
// there for). Each disagreement is a test failure naming the source and seed.
inline int agree(const Engine& engine, std::string_view source, const Bindings& bindings, int seeds) {
  const Limits& limits = engine.options().limits;
  const Compiled c = engine.compile(source);
  EXPECT_TRUE(c.ok()) << source << "\n" << render_text(c.diagnostics);
  if (!c.ok()) return 0;
  std::string why;
  const auto fast = LoweredProgram::lower(*c.program, bindings, limits, why);
  EXPECT_TRUE(fast) << source << " is not lowered: " << why;
  if (!fast) return 0;
  LoweredProgram::Scratch scratch(*fast);
  int errors = 0;
  for (int seed = 0; seed < seeds; ++seed) {
    RandomDice walker_dice(static_cast<std::uint64_t>(seed)), fast_dice(static_cast<std::uint64_t>(seed));
    const Outcome o = evaluate(c.program, bindings, walker_dice, limits);
    const LoweredResult r = fast->run(scratch, fast_dice);
    const std::string where = fmt::format("{} (seed {})", source, seed);
    EXPECT_TRUE(walker_dice == fast_dice) << where << ": the two drew different dice";
    if (o.error) {
      ++errors;
      if (r.status != LoweredResult::Status::Error) {
        ADD_FAILURE() << where << ": the evaluator failed (" << o.error->message << "), the lowered form did not";
        continue;
      }
      EXPECT_EQ(code_name(r.code), code_name(o.error->code)) << where;
      EXPECT_TRUE(r.span.file == o.error->span.file && r.span.begin == o.error->span.begin &&
                  r.span.end == o.error->span.end)
          << where << ": " << r.span.begin << ".." << r.span.end << " vs " << o.error->span.begin << ".."
          << o.error->span.end;
    } else if (!o.value) {
      EXPECT_EQ(r.status, LoweredResult::Status::NoValue) << where;
    } else {
      if (r.status != LoweredResult::Status::Value) {
        ADD_FAILURE() << where << ": the evaluator gave " << to_display(*o.value) << ", the lowered form did not";
        continue;
      }
      const Value want = o.value->as_pool() ? Value(*o.value->number()) : *o.value;
      EXPECT_EQ(to_display(fast->value(r)), to_display(want)) << where;
      EXPECT_TRUE(fast->value(r) == want) << where;
    }
  }
  return errors;
}

}  // namespace alea::testing
