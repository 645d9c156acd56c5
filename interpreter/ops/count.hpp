// interpreter/ops/count.hpp — internal: what one die adds to a count, the one
// definition the evaluator, the sampler and the exact engine use (count.cpp).
#pragma once

#include <cstdint>

namespace alea::ops::count {

// 1 for a success, 2 when it also meets `double`; 1 less when it meets `fail`
// (whether or not it is a success).
[[nodiscard]] inline std::int64_t score(bool success, bool twice, bool fail) {
  const auto s = static_cast<std::int64_t>(success);
  return s + (s & static_cast<std::int64_t>(twice)) - static_cast<std::int64_t>(fail);
}

}  // namespace alea::ops::count
