// interpreter/exact/exact_multiset.hpp — internal: pools as values in the composed
// exact engine, one per multiset of faces.
//
// A pool's dice are kept sorted by face, so that two orders of the same dice
// are one outcome (nothing composed can see the order: a program that reads it
// is enumerated instead). A die's id names its kind (`tag | index` into a
// PoolKinds table) rather than a record of a trace; a pool given by the host
// keeps its own ids, and an operation that needs the kind of such a die is not
// composed.
#pragma once

#include <cstdint>
#include <vector>

#include "interpreter/values/dice.hpp"
#include "interpreter/exact/exact_dist.hpp"
#include "interpreter/exact/exact_pool.hpp"

namespace alea::compose {

class PoolKinds {
 public:
  static constexpr std::uint32_t tag = 0x8000'0000u;
  std::uint32_t id_of(const DieKind& k);
  // The kind of a die of a composed pool, or null for a host's pool.
  [[nodiscard]] const DieKind* kind_of(const PoolDie& d) const {
    if (!(d.id & tag)) return nullptr;
    return &kinds_[d.id & ~tag];
  }

 private:
  std::vector<DieKind> kinds_;
};

// A pool value with these dice, sorted.
Value make_sorted_pool(std::vector<PoolDie> dice, bool successes);

// Every multiset of n dice of `kind`, as pools.
Dist roll_pools(Budget& budget, PoolKinds& kinds, const DieKind& kind, std::int64_t n);

// What one step makes of one pool: pools, or numbers for Count.
Dist apply_step(Budget& budget, PoolKinds& kinds, const PoolStep& step, const Value& pool);

}  // namespace alea::compose
