// interpreter/ops/cancel.hpp — internal: which dice a cancel removes, the one
// definition the evaluator and the exact engine use (cancel.cpp); the sampler
// does not lower it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "dsl/ast.hpp"
#include "interpreter/ops/best_fit.hpp"
#include "interpreter/values/value.hpp"
#include "interpreter/values/kernels.hpp"

namespace alea::ops::cancel {

// Whether `op` lets cancellers add up to reach a die (`combine`).
[[nodiscard]] inline bool combines_with(ast::CmpOp op) { return op == ast::CmpOp::Le || op == ast::CmpOp::Lt; }

// Cancels the dice of `pool` with those of `by` under `op` (not `!=`); with
// `combine`, the cancellers left then join forces. Returns which dice of the
// pool are gone. The engine's `on` is told of each decision:
//   on.cancelled(i, canceller)            die i by one canceller alone;
//   on.begin_combine()                    before the second pass (which needs
//                                         combines_with(op));
//   on.excepted(i) -> bool                die i meets `except`;
//   on.combined(i, leftover, used)        die i by leftover[used…];
//   on.visit()                            each node of the search for them.
template <class On>
std::vector<bool> cancel_dice(ast::CmpOp op, bool combine, const std::vector<PoolDie>& pool,
                              const std::vector<PoolDie>& by, On& on) {
  std::vector<PoolDie> cancellers = by;
  std::stable_sort(cancellers.begin(), cancellers.end(), [](const PoolDie& a, const PoolDie& b) { return a.face > b.face; });
  std::vector<bool> gone(pool.size(), false);
  std::vector<PoolDie> leftover;  // cancellers that found nothing alone, highest first
  const bool take_highest = op == ast::CmpOp::Le || op == ast::CmpOp::Lt || op == ast::CmpOp::Eq;
  for (const PoolDie& r : cancellers) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < pool.size(); ++i) {
      if (gone[i] || !kernel::compare(op, pool[i].face, r.face)) continue;
      if (!best || (take_highest ? pool[i].face > pool[*best].face : pool[i].face < pool[*best].face)) best = i;
    }
    if (!best) {
      leftover.push_back(r);
      continue;
    }
    gone[*best] = true;
    on.cancelled(*best, r);
  }
  if (!combine) return gone;
  on.begin_combine();
  while (!leftover.empty()) {
    std::int64_t total = 0;
    for (const auto& r : leftover) total += r.face;  // faces are at most 10^6, dice at most 10^4
    std::optional<std::size_t> target;
    for (std::size_t i = 0; i < pool.size(); ++i) {
      const std::int64_t f = pool[i].face;
      if (gone[i] || on.excepted(i)) continue;
      if (!kernel::compare(op, f, total)) continue;  // `<=` or `<`
      if (!target || f > pool[*target].face) target = i;
    }
    if (!target) break;
    const std::int64_t need = pool[*target].face + (op == ast::CmpOp::Lt ? 1 : 0);
    const std::vector<std::size_t> used = best_fit(leftover, need, [&] { on.visit(); });
    gone[*target] = true;
    on.combined(*target, leftover, used);
    for (auto it = used.rbegin(); it != used.rend(); ++it) leftover.erase(leftover.begin() + static_cast<std::ptrdiff_t>(*it));
  }
  return gone;
}

}  // namespace alea::ops::cancel
