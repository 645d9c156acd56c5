// tests/support/pinned_stats.hpp — options for a test that asserts an exact answer: the
// method must not depend on the machine's speed (the default is a time limit), so the
// attempt has no time limit and the cap on branches that used to be the default.
#pragma once

#include <cstdint>

#include "interpreter/stats.hpp"

namespace alea::testing {

inline constexpr std::uint64_t pinned_max_branches = 100'000;

// `o`, exact only (no time limit) within pinned_max_branches.
inline StatsOptions exact_pinned(StatsOptions o = {}) {
  o.exact_only = true;
  o.max_branches = pinned_max_branches;
  return o;
}

}  // namespace alea::testing
