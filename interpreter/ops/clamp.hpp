// interpreter/ops/clamp.hpp — internal: a die's face once clamped, the one
// definition the evaluator, the sampler and the exact engine use (clamp.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

namespace alea::ops::clamp {

// `low` <= `high`, checked before (an error in every engine).
[[nodiscard]] inline std::int64_t face(std::int64_t f, std::int64_t low, std::int64_t high) {
  return std::clamp(f, low, high);
}
[[nodiscard]] inline std::int64_t face(std::int64_t f, const std::optional<std::int64_t>& low,
                                       const std::optional<std::int64_t>& high) {
  return face(f, low.value_or(std::numeric_limits<std::int64_t>::min()),
              high.value_or(std::numeric_limits<std::int64_t>::max()));
}

}  // namespace alea::ops::clamp
