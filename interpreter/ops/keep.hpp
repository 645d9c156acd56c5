// interpreter/ops/keep.hpp — internal: whether a die stays after keep or drop
// by a condition, the one definition the evaluator, the sampler and the exact
// engine use (keep.cpp).
#pragma once

namespace alea::ops::keep {

// `keep C` keeps the dice that meet C; `drop C` the others.
[[nodiscard]] inline bool stays(bool matches, bool drop) { return matches != drop; }

}  // namespace alea::ops::keep
