// interpreter/exact/exact_die.hpp — internal: what one die becomes through a
// pool's steps, for a pool's total without listing its dice (exact_pool.cpp).
//
// Each die goes through the steps on its own. DieSteps gives, for a die showing
// a face as it enters step k, the distribution of what it ends as: what it adds
// to the total (Contribution), or its face before a keep (Face). A step that
// decides by the face alone is applied here; one that draws dice for the die
// (explode, reroll) gives its own `on_die` (interpreter/ops/<family>.cpp),
// which builds on `from`, `fresh` and `mixture` and keeps its chains in `memo`.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "interpreter/exact/exact_intdist.hpp"
#include "interpreter/exact/exact_pool.hpp"

namespace alea::compose {

// In Face mode, a die an operation removed.
inline constexpr std::int64_t absent_face = std::numeric_limits<std::int64_t>::min();

class DieSteps {
 public:
  enum class Mode { Contribution, Face };

  DieSteps(Budget& budget, const DieKind& kind, const std::vector<PoolStep>& steps, std::size_t end, Mode mode);

  Budget& budget() { return budget_; }
  const DieKind& kind() const { return kind_; }
  const PoolStep& step(std::size_t k) const { return steps_[k]; }
  // The distinct faces of the kind, with how many sides show each.
  const std::vector<std::pair<std::int64_t, Weight>>& faces() const { return faces_; }

  // A die just drawn, entering step k.
  const IntDist& fresh(std::size_t k);
  // A die showing `face`, entering step k.
  const IntDist& from(std::size_t k, std::int64_t face);
  // The faces' parts mixed, each weighted by how many sides show its face.
  IntDist mixture(const std::vector<const IntDist*>& parts);
  // Keeps a distribution made on the way while parts point at it.
  const IntDist& hold(IntDist d) {
    charge(d);
    return scratch_.emplace_back(std::move(d));
  }
  // A step's own memo: what it computed for (step, a, b), or null.
  const IntDist* memo(std::size_t k, std::int64_t a, std::int64_t b) const {
    const auto it = memo_.find({k, a, b});
    return it == memo_.end() ? nullptr : &it->second;
  }
  const IntDist& remember(std::size_t k, std::int64_t a, std::int64_t b, IntDist d) {
    charge(d);
    return memo_.insert_or_assign({k, a, b}, std::move(d)).first->second;
  }

 private:
  Budget& budget_;
  const DieKind& kind_;
  const std::vector<PoolStep>& steps_;
  std::size_t end_;
  Mode mode_;
  std::vector<std::pair<std::int64_t, Weight>> faces_;
  bool counts_ = false;
  const PoolStep* terminal_score_ = nullptr;
  std::map<std::pair<std::size_t, std::int64_t>, IntDist> from_;
  std::map<std::size_t, IntDist> fresh_;
  std::map<std::tuple<std::size_t, std::int64_t, std::int64_t>, IntDist> memo_;
  std::deque<IntDist> scratch_;

  IntDist compute(std::size_t k, std::int64_t face);
  // Each distribution kept is a unit of work and its bytes (a die of many
  // faces, or a long chain, keeps one for each face and step it reaches).
  void charge(const IntDist& d) {
    budget_.charge_memory(sizeof(IntDist) + node_bytes + d.entries.size() * sizeof(d.entries[0]));
    budget_.charge_work(1);
  }
  static constexpr std::size_t node_bytes = 64;  // a map node's links and key
};

}  // namespace alea::compose
