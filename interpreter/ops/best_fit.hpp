// interpreter/ops/best_fit.hpp — which dice cancel a target: the search of
// `cancel … combine` (cancel.hpp), for the evaluator and the exact engine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace alea {

// Indices (ascending) into `dice` (sorted highest first, each with a `face`)
// of the subset with the smallest sum >= need; ties go to fewer dice, then to
// the subset whose faces, highest first, are lexicographically largest. The
// sum of all the dice reaches `need`. Searched by counts of each distinct
// face, so a pool of many equal dice costs little. `visit()` is called at
// every node of the search: the caller counts it as work, or gives up by
// throwing.
template <class Die, class Visit>
std::vector<std::size_t> best_fit(const std::vector<Die>& dice, std::int64_t need, Visit&& visit) {
  struct Group {
    std::int64_t face;
    std::size_t first, count;
  };
  std::vector<Group> groups;
  for (std::size_t i = 0; i < dice.size(); ++i) {
    if (!groups.empty() && groups.back().face == dice[i].face) {
      ++groups.back().count;
    } else {
      groups.push_back({dice[i].face, i, 1});
    }
  }
  std::vector<std::int64_t> rest(groups.size() + 1, 0);  // sum of the groups from g on
  for (std::size_t g = groups.size(); g-- > 0;) {
    rest[g] = rest[g + 1] + groups[g].face * static_cast<std::int64_t>(groups[g].count);
  }
  std::vector<std::size_t> take(groups.size(), 0), best_take;
  std::int64_t best_sum = -1;
  std::size_t best_n = 0;
  // Larger counts of larger faces are tried first, so among equally good
  // subsets the first found is the lexicographically largest.
  auto search = [&](auto&& self, std::size_t g, std::int64_t sum, std::size_t n) -> void {
    visit();
    if (best_sum >= 0 && (sum > best_sum || (sum == best_sum && n >= best_n))) return;
    if (sum >= need) {
      best_sum = sum;
      best_n = n;
      best_take = take;
      return;
    }
    if (g == groups.size() || sum + rest[g] < need) return;
    for (std::size_t k = groups[g].count + 1; k-- > 0;) {
      take[g] = k;
      self(self, g + 1, sum + groups[g].face * static_cast<std::int64_t>(k), n + k);
    }
    take[g] = 0;
  };
  search(search, 0, 0, 0);
  std::vector<std::size_t> out;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::size_t k = 0; k < best_take[g]; ++k) out.push_back(groups[g].first + k);
  }
  return out;
}

}  // namespace alea
