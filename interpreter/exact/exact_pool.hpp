// interpreter/exact/exact_pool.hpp — internal: the pool operations of the composed
// exact engine, with their parameters already evaluated.
//
// Two ways to compute a roll followed by operations:
// - counted_total: the distribution of the pool's total (or count) without
//   listing its dice, icepool-style. Operations that treat each die on its own
//   (explode, reroll, clamp, keep/drop by value, under, count) make each die's
//   contribution a small distribution, and the pool's total is its n-fold
//   convolution. One keep/drop highest or lowest is computed over the distinct
//   faces from the highest down, with binomial counts and a small state (dice
//   seen, dice kept, their sum).
// - the pools themselves (exact_multiset.cpp): every multiset of faces, as the
//   evaluator would build it, for values that something downstream inspects.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "dsl/ast.hpp"
#include "interpreter/values/dice.hpp"
#include "interpreter/exact/exact_intdist.hpp"
#include "interpreter/values/kernels.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/ops/ops.hpp"

namespace alea::compose {

using kernel::DieTest;

struct Dist;
class PoolKinds;
struct PoolStep;
// An operation's own step on multisets (interpreter/ops/<family>.cpp), for
// what the cases of exact_multiset.cpp do not cover.
using OnPools = Dist (*)(Budget& budget, PoolKinds& kinds, const PoolStep& step, const PoolData& pool);

struct PoolStep {
  enum Kind {
    Explode,
    Reroll,
    KeepEnd,
    KeepMatch,
    Count,
    Under,
    Clamp,
    Sort,
    Unique,
    Cancel
  } kind = Sort;
  Span span;  // the operation's text
  // Explode: mode, test, cap (extra dice per chain), explicit_limit.
  ops::ExplodeMode mode = ops::ExplodeMode::Explode;
  DieTest test;
  std::int64_t cap = 0;
  bool explicit_limit = false;
  // Reroll: test, once, cap (rerolls in a row). Unique: cap (rounds).
  bool once = false;
  // KeepEnd (keep/drop highest/lowest `count`), KeepMatch (keep/drop dice matching `test`).
  bool drop = false;
  bool highest = true;
  std::int64_t count = 0;
  // Count: success (in test), fail, twice.
  std::optional<DieTest> fail, twice;
  // Under: target, except (in `fail`).
  std::int64_t target = 0;
  // Clamp.
  std::optional<std::int64_t> low, high;
  // Cancel: the cancelling pool, the comparison, combine, except (in `fail`).
  Value by;
  ast::CmpOp cancel_op = ast::CmpOp::Le;
  bool combine = false;
  // When set, the step on multisets is this (and never per die).
  OnPools on_pools = nullptr;
};

// Whether a pool made by these steps counts its dice (a success pool from `under`).
bool counts_dice(const std::vector<PoolStep>& steps);

// The distribution of the total of `n` dice of `kind` after `steps` (the last
// may be Count), or nullopt when the steps need the pools themselves.
std::optional<IntDist> counted_total(Budget& budget, const DieKind& kind, std::int64_t n,
                                     const std::vector<PoolStep>& steps);

// The most dice one run may draw for `n` dice and these steps, and the most
// dice the pool may then hold; both saturate.
std::pair<std::int64_t, std::int64_t> dice_bound(std::int64_t n,
                                                 const std::vector<PoolStep>& steps);

// The Diagnostic a die rerolled `cap` times in a row gives.
std::shared_ptr<const Diagnostic> reroll_limit_error(Span span, std::int64_t cap);

}  // namespace alea::compose
