// tests/interpreter/exact_summary_test.cpp — the summary of a pool that the exact engine
// holds for a let read only through sum, len and fewest_reaching (compose::summary_pool):
// it answers those the same as the pool, and a summary of a part joined with more dice is
// a summary of the whole, which is what lets explode keep its parts as summaries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "interpreter/exact/exact_multiset.hpp"

namespace alea::compose {
namespace {

std::vector<std::int64_t> faces_of(const Value& pool) {
  std::vector<std::int64_t> out;
  for (const PoolDie& d : pool.as_pool()->dice) out.push_back(d.face);
  return out;
}

// fewest_reaching as the builtin documents it: how few of the largest reach t together.
std::optional<std::size_t> fewest(std::vector<std::int64_t> xs, std::int64_t t) {
  std::sort(xs.begin(), xs.end(), std::greater<>());
  std::int64_t run = 0;
  std::size_t k = 0;
  while (run < t && k < xs.size()) run += xs[k++];
  if (run < t) return std::nullopt;
  return k;
}

std::int64_t total(const std::vector<std::int64_t>& xs) {
  std::int64_t s = 0;
  for (auto x : xs) s += x;
  return s;
}

Value pool_of(const std::vector<std::int64_t>& faces) {
  std::vector<PoolDie> dice;
  for (auto f : faces) dice.push_back({f, PoolKinds::tag});
  return make_sorted_pool(std::move(dice), false);
}

// Random pools: up to 12 dice, faces from a range that is sometimes below 1.
struct Pools {
  std::mt19937 rng{20261129};
  std::vector<std::int64_t> next() {
    const int lo = std::uniform_int_distribution<int>(0, 3)(rng) == 0 ? -3 : 1;
    const int hi = std::uniform_int_distribution<int>(2, 10)(rng);
    const int n = std::uniform_int_distribution<int>(0, 12)(rng);
    std::vector<std::int64_t> out;
    for (int i = 0; i < n; ++i) out.push_back(std::uniform_int_distribution<int>(lo, hi)(rng));
    return out;
  }
  std::int64_t reach() { return std::uniform_int_distribution<int>(-2, 40)(rng); }
};

TEST(ExactSummary, AnswersTotalSizeAndFewestReachingUpToItsReach) {
  Pools pools;
  int merged = 0;
  for (int i = 0; i < 4000; ++i) {
    const auto faces = pools.next();
    const std::int64_t reach = pools.reach();
    const Value pool = pool_of(faces);
    const Value s = summary_pool(pool, reach);
    const auto kept = faces_of(s);
    ASSERT_EQ(kept.size(), faces.size());
    ASSERT_EQ(total(kept), total(faces));
    for (std::int64_t t = -1; t <= reach; ++t) {
      ASSERT_EQ(fewest(kept, t), fewest(faces, t)) << "reach " << reach << ", target " << t;
    }
    // Summarised again, it is itself.
    EXPECT_EQ(summary_pool(s, reach).as_pool(), s.as_pool());
    merged += kept != faces;
  }
  // Not every pool is its own summary: the test would hold for the identity too.
  EXPECT_GT(merged, 1000);
}

TEST(ExactSummary, ASummaryJoinedWithMoreDiceIsASummaryOfTheWhole) {
  Pools pools;
  for (int i = 0; i < 4000; ++i) {
    auto a = pools.next();
    const auto b = pools.next();
    const std::int64_t reach = pools.reach();
    auto joined = faces_of(summary_pool(pool_of(a), reach));
    joined.insert(joined.end(), b.begin(), b.end());
    a.insert(a.end(), b.begin(), b.end());
    EXPECT_EQ(faces_of(summary_pool(pool_of(joined), reach)), faces_of(summary_pool(pool_of(a), reach)))
        << "reach " << reach;
  }
}

}  // namespace
}  // namespace alea::compose
