// interpreter/ops/under.hpp — internal: whether a die succeeds under a target,
// the one definition the evaluator, the sampler and the exact engine use (under.cpp).
#pragma once

#include <cstdint>

namespace alea::ops::under {

// It shows the target or less, and does not meet `except`.
[[nodiscard]] inline bool succeeds(std::int64_t face, std::int64_t target, bool excepted) {
  return face <= target && !excepted;
}

}  // namespace alea::ops::under
