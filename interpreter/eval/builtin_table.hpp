// interpreter/eval/builtin_table.hpp — internal: what each engine needs to know of a
// builtin, read from its row of the table in builtins.cpp (ids are the
// resolver's: ast::Call::builtin).
#pragma once

#include <cstddef>
#include <cstdint>

namespace alea {
class Value;
}

namespace alea::detail {

struct BuiltinCall;  // eval_context.hpp
using BuiltinFn = Value (*)(BuiltinCall&);

// What a builtin sees of an argument, for the exact engine's demand analysis.
enum class ArgUse : std::uint8_t {
  Whole,        // the value itself: a pool's dice
  Total,        // a number: only a pool's total
  TotalIfMany,  // alone, a list or pool whose items it reads; one of several, a number
  Passed,       // given back as it is: seen as the call's own value is
};

// How the sampler computes a builtin (lower_call.cpp).
enum class Lowering : std::uint8_t {
  None,  // not lowered: such a program is left to the evaluator
  Note,  // its value, the label computed first
  Sum, Min, Max,  // of a pool's faces, or of the arguments
  Len,            // of a pool
  Abs, Clamp, FloorDiv, CeilDiv, TruncDiv, RoundDiv,  // of numbers
};

// What a builtin gives when the exact engine hands it, as argument 1, a pool
// that stands for another: one with the same total, the same number of dice
// and the same largest dice up to a reach (compose::summary_pool).
enum class OnSummary : std::uint8_t {
  No,     // it may read more of the pool
  Same,   // the same value: the total, the size
  Reach,  // the same value while argument 2 is at most the reach
  Shape,  // the same while argument 2 is at most the reach, but for the lists inside
};

struct BuiltinCaps {
  OnSummary on_summary = OnSummary::No;
  bool sees_order = false;  // reads the order of a roll's dice, not only which faces came up
  // Rolls dice itself, each die one item of the list it gives (or the one record, for one
  // die) and nothing else: the exact engine composes it draw by draw (Composer::drawn_items).
  bool draws = false;
  ArgUse first = ArgUse::Whole, rest = ArgUse::Whole;  // argument 0, and every later one
  Lowering lowered_as = Lowering::None;

  [[nodiscard]] ArgUse arg(std::size_t i) const { return i == 0 ? first : rest; }
  // The exact engine calls it on each combination of its arguments' values (one that
  // draws, draw by draw).
  [[nodiscard]] bool composes() const { return !sees_order; }
};

[[nodiscard]] BuiltinFn builtin_function(std::int32_t id);
[[nodiscard]] const BuiltinCaps& builtin_caps(std::int32_t id);

}  // namespace alea::detail
