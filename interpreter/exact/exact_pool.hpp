// interpreter/exact/exact_pool.hpp — internal: the pool operations of the composed
// exact engine, with their parameters already evaluated.
//
// Two ways to compute a roll followed by operations, both driven by the hooks
// each operation's family sets on its PoolStep (interpreter/ops/<family>.cpp):
// - counted_total: the distribution of the pool's total (or count) without
//   listing its dice, icepool-style. Operations that treat each die on its own
//   (by its face, or drawing more for it) make each die's contribution a small
//   distribution (exact_die.hpp), and the pool's total is its n-fold
//   convolution. One keep of an end (the highest or lowest dice) is computed
//   over the distinct faces from the highest down, with binomial counts and a
//   small state (dice seen, dice kept, their sum).
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
#include "dsl/pool_ops.hpp"
#include "interpreter/ops/ops.hpp"

namespace alea::compose {

using kernel::DieTest;

struct Dist;
struct Budget;
class PoolKinds;
struct PoolStep;
class DieSteps;
class StepOnPool;

// One pool operation with its parameters' values, as the exact engine applies
// it. Its family's `exact` (interpreter/ops/<family>.cpp) fills the fields it
// uses and the hooks that say how it is applied; nothing here names an
// operation.
struct PoolStep {
  PoolOpId id{};
  Span span;  // the operation's text

  // --- its parameters' values, which only its family's hooks read ---
  DieTest test;                          // its condition
  std::optional<DieTest> fail, twice;    // `fail`/`except`, `double`
  std::int64_t cap = 0;                  // the most dice drawn in a row for one die
  bool explicit_limit = false;           // `limit N`: a chain cut at `cap` on purpose
  bool once = false;
  ops::ExplodeMode mode = ops::ExplodeMode::Explode;
  bool drop = false;
  std::int64_t target = 0;
  std::optional<std::int64_t> low, high;
  Value by;                              // a second pool, and how its dice compare
  ast::CmpOp cmp = ast::CmpOp::Le;
  bool combine = false;

  // --- how the engine applies it ---
  // Decides each die alone by its face, drawing nothing: the face the die ends
  // with, or nullopt when the operation removes it. `kind` is null for a die of
  // a pool given by the host. Applied per die for totals and to every die of a
  // multiset.
  std::optional<std::int64_t> (*face)(const PoolStep& s, const DieKind* kind, std::int64_t face) = nullptr;
  // Ends the pool with a number: what a die showing `face` adds to it.
  std::int64_t (*score)(const PoolStep& s, std::int64_t face) = nullptr;
  // Draws dice for one die (explode, reroll): what a die showing `face`
  // entering step k becomes through this and the later steps (exact_die.hpp).
  IntDist (*on_die)(DieSteps& dice, std::size_t k, std::int64_t face) = nullptr;
  // The step on one multiset of dice, when `face` and `score` do not say it.
  Dist (*on_pools)(StepOnPool& cx) = nullptr;
  // The step on every multiset of a roll at once (`pool`, a Dist::roll), with
  // its parameters' distributions (`params`, one per parameter: each certain,
  // or a roll too), counted face by face; nullopt when it does not apply.
  std::optional<Dist> (*on_rolls)(Budget& budget, PoolKinds& kinds, const PoolStep& s, const Dist& pool,
                                  const Dist* params) = nullptr;
  // Keeps (or drops) `count` dice from one end of the pool: the highest or the lowest.
  struct KeepEnd {
    std::int64_t count = 0;
    bool highest = true, drop = false;
  };
  std::optional<KeepEnd> keep_end;
  bool successes = false;   // the pool it leaves counts its dice
  bool adds_dice = false;   // on_die may add dice to the pool (an explosion's)
  bool draws = false;       // each die may draw `cap` more
  // Changes only the dice that pass `test`, each alone (StepOnPool::per_die): the others stay as
  // they are, and nothing else is read of them.
  bool only_passing = false;
  // Never stops when `test` passes on every face of a die: refused then.
  bool endless_if_always = false;
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

}  // namespace alea::compose
