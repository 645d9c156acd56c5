// interpreter/sample/lowered_nodes.hpp — internal: the nodes of a lowered program
// (see lowered.hpp) and the state of one run over them.
//
// Every node mirrors one kind of AST node as the evaluator runs it: the same
// sub-expressions in the same order, the same dice drawn as the same pools, the
// same checks at the same moments. Types were settled when lowering, so a node
// never meets a value of the wrong kind. Numbers, booleans (0/1), strings (an
// index into the program's strings) and none are all int64 "scalars"; a pool
// is a run of faces in the run's arena.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"
#include "interpreter/values/dice.hpp"
#include "interpreter/values/kernels.hpp"
#include "interpreter/limits.hpp"

namespace alea::lowered {

// A run that ends in an error: the code and place the evaluator reports (the
// message is the evaluator's, replayed on the same dice when it is wanted).
struct Fail {
  DiagCode code;
  Span span;
};
[[noreturn]] void fail(DiagCode code, Span span);
// Thrown when a run meets something the lowered form cannot follow; the run is
// then replayed by the evaluator from the same dice.
struct Bail {};

// A die with listed faces: dF, d{1,1,2}.
struct FaceList {
  explicit FaceList(std::vector<std::int64_t> f);
  std::vector<std::int64_t> faces;
  std::int64_t min = 0, max = 0, distinct = 0;
};

// The kind of every die of a pool (a lowered pool never mixes kinds).
struct Kind {
  std::int64_t sides = 0;          // > 0: faces 1..sides
  const FaceList* list = nullptr;  // otherwise
  [[nodiscard]] std::int64_t min_face() const { return sides > 0 ? 1 : list->min; }
  [[nodiscard]] std::int64_t max_face() const { return sides > 0 ? sides : list->max; }
  [[nodiscard]] std::int64_t distinct() const { return sides > 0 ? sides : list->distinct; }
};

// A pool: 16 bytes, so that nodes hand it back in registers.
struct PoolRef {
  std::uint32_t begin = 0, size = 0;  // faces at Run::arena[begin, begin + size)
  std::int32_t kind = 0;              // > 0: a plain die of that many sides; else -kind indexes Run::lists
  bool successes = false;             // made by `under`: counts its dice as a number
};

// The faces that pass `op value`, tested without a branch: those in the range
// lo..lo+width (wrapping, unsigned), or for `!=` those outside it.
struct Range {
  std::uint64_t lo = 0, width = 0;
  bool outside = false;
  Range(ast::CmpOp op, std::int64_t v) {
    std::int64_t low = INT64_MIN, high = INT64_MAX;
    switch (op) {
      case ast::CmpOp::Eq: low = high = v; break;
      case ast::CmpOp::Ne: low = high = v; outside = true; break;
      case ast::CmpOp::Lt: if (v == INT64_MIN) outside = true; else high = v - 1; break;  // none
      case ast::CmpOp::Le: high = v; break;
      case ast::CmpOp::Gt: if (v == INT64_MAX) outside = true; else low = v + 1; break;  // none
      case ast::CmpOp::Ge: low = v; break;
    }
    lo = static_cast<std::uint64_t>(low);
    width = static_cast<std::uint64_t>(high) - lo;
  }
  bool operator()(std::int64_t f) const { return (static_cast<std::uint64_t>(f) - lo <= width) != outside; }
};

// The state of one run, kept by a thread and reused by all its runs so that a
// run allocates nothing once the buffers have grown to fit.
struct Run {
  RandomDice* dice = nullptr;
  const Limits* limits = nullptr;
  std::int64_t rolled = 0;            // dice drawn so far, against max_dice
  std::vector<std::int64_t> arena;    // the faces of every pool of the run
  std::size_t top = 0;                // arena[0, top) is in use
  std::vector<const FaceList*> lists;  // the program's dice with listed faces
  std::vector<std::int64_t> scalars;  // let-bound scalars by slot
  std::vector<PoolRef> pools;         // let-bound pools by slot
  std::vector<std::uint32_t> active, next;  // the dice that go on this round and the next (RunDice)
  std::vector<std::int64_t> drawn;          // one round's faces
  std::vector<std::int64_t> sorted;         // keep's working copy

  void reset() {
    rolled = 0;
    top = 0;
  }
  // Room for n faces at the top of the arena; returns where they start.
  std::uint32_t alloc(std::size_t n) {
    if (top + n > arena.size()) grow(n);
    const auto at = static_cast<std::uint32_t>(top);
    top += n;
    return at;
  }
  void grow(std::size_t n);
  std::int64_t* at(std::uint32_t i) { return arena.data() + i; }
  [[nodiscard]] Kind kind(std::int32_t k) const {
    return k > 0 ? Kind{k, nullptr} : Kind{0, lists[static_cast<std::size_t>(-k)]};
  }
  // Counts n more dice against max_dice, as the evaluator does before a draw.
  void count_dice(std::int64_t n, Span span) {
    if (n > limits->max_dice - rolled) fail(DiagCode::DiceLimitExceeded, span);
    rolled += n;
  }
  // n faces of `k` into out, drawn as RandomDice::roll draws one pool.
  void draw(const Kind& k, std::size_t n, std::int64_t* out) {
    if (k.sides > 0) {
      dice->each_below(static_cast<std::uint64_t>(k.sides), n,
                       [out](std::size_t i, std::uint64_t x) { out[i] = static_cast<std::int64_t>(x) + 1; });
    } else {
      const std::int64_t* f = k.list->faces.data();
      dice->each_below(k.list->faces.size(), n, [out, f](std::size_t i, std::uint64_t x) { out[i] = f[x]; });
    }
  }
  // A copy of `p` at the top of the arena, so that it may grow there.
  PoolRef to_top(const PoolRef& p, std::size_t room);
};

struct Scalar {
  virtual ~Scalar() = default;
  virtual std::int64_t eval(Run& run) const = 0;
};
struct Pool {
  virtual ~Pool() = default;
  virtual PoolRef eval(Run& run) const = 0;
  // Its result belongs to the one who asked for it, who may change it in
  // place; false when it is also held elsewhere (a let-bound pool).
  bool fresh = true;
  // The totals of its results might not fit in 64 bits: check them as the
  // evaluator does (never for dice of up to max_sides faces).
  bool check = true;
};
using ScalarPtr = std::unique_ptr<const Scalar>;
using PoolPtr = std::unique_ptr<const Pool>;

// Fails with IntegerOverflow at `span` unless the total of p's faces fits in 64 bits.
void check_total(Run& run, const PoolRef& p, Span span);

// A per-die condition whose value is computed at run time (or fixed).
struct CondNode {
  ast::CmpOp op = ast::CmpOp::Eq;
  ScalarPtr value;  // null: `fixed`
  std::int64_t fixed = 0;
  std::int64_t eval(Run& run) const { return value ? value->eval(run) : fixed; }
};

// A pool operation's shared parts: the pool it applies to and its own text.
struct PoolOpNode : Pool {
  PoolPtr pool;
  Span span;  // the operation's text (PoolOp::op_span)
  // The input pool, changeable in place: itself when fresh, else a copy.
  PoolRef own(Run& run, const PoolRef& in) const { return pool->fresh ? in : run.to_top(in, 0); }
  PoolRef finish(Run& run, const PoolRef& p) const {
    if (check) check_total(run, p, span);
    return p;
  }
  // This node used straight away as a number, when it can give its total
  // without keeping the faces: a node that takes `self` (which holds this
  // one); else null, and `self` is left alone.
  virtual ScalarPtr as_total(PoolPtr& /*self*/) const {
    return nullptr;
  }
};

// `NdS`, `dF`, `d{…}`: count and sides as the evaluator computes and checks them.
struct DiceSpec {
  ScalarPtr count;  // null: count_value
  std::int64_t count_value = 1;
  Span count_span;
  ScalarPtr sides;  // null: `kind` is fixed
  Span sides_span;
  std::int32_t kind = 0;  // as PoolRef::kind
  Span span;  // the whole term
  // The number of dice and their kind, checked, and the dice counted against max_dice.
  std::int64_t prepare(Run& run, std::int32_t& k) const {
    const std::int64_t n = count ? count->eval(run) : count_value;
    if (n < 0) fail(DiagCode::NegativeCount, count_span);
    k = kind;
    if (sides) {
      const std::int64_t s = sides->eval(run);
      if (s < 1 || s > run.limits->max_sides) fail(DiagCode::InvalidDie, sides_span);
      k = static_cast<std::int32_t>(s);  // max_sides fits (LoweredProgram::lower)
    }
    run.count_dice(n, span);
    return n;
  }
};
struct DiceNode final : Pool {
  DiceSpec spec;
  PoolRef eval(Run& run) const override;
};
// A roll used straight away as a number: its total, without keeping its faces.
struct DiceTotalNode final : Scalar {
  std::unique_ptr<const DiceNode> dice;
  std::int64_t eval(Run& run) const override;
};

// The nodes of the pool operations are in interpreter/ops/<family>.cpp.

}  // namespace alea::lowered
