// interpreter/ops/sample_support.hpp — internal: what a pool operation's
// lowered node (interpreter/ops/<family>.cpp) uses of the sampler: the run's
// arena and dice, die tests with their values computed, the faces of the pool
// it applies to, and a pool's dice as the round kernels see them (RunDice).
//
// A lowered node mirrors the evaluator: its parameters in the same order, the
// same rounds of extra dice drawn as the same pools, the same checks in the same
// order (the round kernels of ops/<family>.hpp are the evaluator's own loops).
// Only the trace is left out, and a pool that no one else holds is changed in
// place.
#pragma once

#include <algorithm>

#include "interpreter/sample/lowered_nodes.hpp"
#include "interpreter/sample/lowered_scalar.hpp"

namespace alea::lowered {

// A die's test, with its value computed: `cond` or, without one, the die's
// highest (or lowest) face.
struct Test {
  ast::CmpOp op = ast::CmpOp::Eq;
  std::int64_t value = 0;
  Range range{op, value};
  bool operator()(std::int64_t face) const { return range(face); }
  // True when every face of `k` passes (kernel::DieTest::always).
  [[nodiscard]] bool always(const Kind& k) const {
    if (k.sides > 0) return kernel::every_face_passes(op, value, k.sides);
    return std::all_of(k.list->faces.begin(), k.list->faces.end(), [&](std::int64_t f) { return (*this)(f); });
  }
};

inline Test make_test(Run& run, const CondNode* cond, const Kind& k, bool highest) {
  if (cond) {
    const std::int64_t v = cond->eval(run);
    return {cond->op, v, Range(cond->op, v)};
  }
  const std::int64_t v = highest ? k.max_face() : k.min_face();
  return {ast::CmpOp::Eq, v, Range(ast::CmpOp::Eq, v)};
}

// A roll's faces for a node that uses them at once: drawn into `local` when
// they fit, else into the arena (as DiceNode::eval, for a roll whose total
// needs no check); or the pool of any other node.
const std::int64_t* faces_of(Run& run, const DiceNode* dice, const Pool& pool, std::int64_t* local, PoolRef& in);

// A pool's dice as a round kernel sees them in the sampler (ops.hpp, "Shared
// loops"): each die its place in the pool, its face in the arena. The lists
// and the drawn faces are the run's, so that a round allocates nothing once
// they have grown. A family's adaptor derives from it, with its test and its
// errors (bare codes at the operation's span).
class RunDice {
 public:
  RunDice(Run& run, PoolRef& pool, Span span)
      : active(run.active), next(run.next), run_(run), pool_(pool), kind_(run.kind(pool.kind)),
        faces_(run.at(pool.begin)), span_(span) {}

  std::vector<std::uint32_t>& active;
  std::vector<std::uint32_t>& next;
  [[nodiscard]] std::size_t size() const { return pool_.size; }
  [[nodiscard]] static std::uint32_t die(std::size_t i) { return static_cast<std::uint32_t>(i); }
  [[nodiscard]] std::int64_t face(std::uint32_t i) const { return faces_[i]; }
  void set_face(std::uint32_t i, std::int64_t f) { faces_[i] = f; }
  const std::int64_t* draw() {
    const std::size_t n = active.size();
    run_.count_dice(static_cast<std::int64_t>(n), span_);
    run_.drawn.resize(n);
    run_.draw(kind_, n, run_.drawn.data());
    return run_.drawn.data();
  }
  // Work is not counted run by run: a run's cost is measured once, on the
  // evaluator (SampleBudget).
  static void charge_items(std::size_t) {}
  std::uint32_t reroll(std::uint32_t i, std::int64_t f) {
    faces_[i] = f;
    return i;
  }

 protected:
  Run& run_;
  PoolRef& pool_;  // the node's own, not a copy: the adaptor's fields then live in registers
  Kind kind_;
  std::int64_t* faces_;  // the pool's, at run_.arena[pool_.begin]: again after the arena grows
  Span span_;
};

}  // namespace alea::lowered
