// interpreter/sample/lowered_scalar.hpp — internal: the nodes of a lowered program
// that give a number, a boolean, a string (by index) or none.
//
// Each mirrors evaluator.cpp: every operand is computed in the order written
// (`and`/`or` and `if` skip as there), then checked as the evaluator checks it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "interpreter/sample/lowered_nodes.hpp"

namespace alea::lowered {

struct ConstNode final : Scalar {
  std::int64_t value = 0;
  explicit ConstNode(std::int64_t v) : value(v) {}
  std::int64_t eval(Run&) const override { return value; }
};

struct SlotNode final : Scalar {
  std::size_t slot = 0;
  explicit SlotNode(std::size_t s) : slot(s) {}
  std::int64_t eval(Run& run) const override { return run.scalars[slot]; }
};
struct PoolSlotNode final : Pool {
  std::size_t slot = 0;
  explicit PoolSlotNode(std::size_t s) : slot(s) { fresh = false; }
  PoolRef eval(Run& run) const override { return run.pools[slot]; }
};

// A pool used as a number: the sum of its faces, or its size for a success pool.
// Its total was checked when the pool was made.
struct TotalNode final : Scalar {
  PoolPtr pool;
  std::int64_t eval(Run& run) const override {
    const PoolRef p = pool->eval(run);
    if (p.successes) return p.size;
    const std::int64_t* f = run.at(p.begin);
    std::uint64_t sum = 0;  // unsigned: wraps where the evaluator would have failed already
    for (std::uint32_t i = 0; i < p.size; ++i) sum += static_cast<std::uint64_t>(f[i]);
    return static_cast<std::int64_t>(sum);
  }
};

// `let` binds a value to a slot, then gives its body.
struct Binding {
  std::size_t slot = 0;
  ScalarPtr scalar;  // one of the two
  PoolPtr pool;
  void bind(Run& run) const {
    if (scalar) run.scalars[slot] = scalar->eval(run);
    else run.pools[slot] = pool->eval(run);
  }
};
struct LetNode final : Scalar {
  Binding binding;
  ScalarPtr body;
  std::int64_t eval(Run& run) const override {
    binding.bind(run);
    return body->eval(run);
  }
};
struct LetPoolNode final : Pool {
  Binding binding;
  PoolPtr body;
  PoolRef eval(Run& run) const override {
    binding.bind(run);
    return body->eval(run);
  }
};

// A function's parameter checked against its declared type, at run time: a
// number's bounds (a pool's total for a pool) or a string's choices.
struct ArgCheck {
  std::size_t slot = 0;
  bool pool = false;
  std::optional<std::int64_t> min, max;
  std::vector<std::int64_t> choices;  // the indexes of the strings allowed; empty: any
  Span span;
  void check(Run& run) const;
};
// The entry into a call of a function, inlined: every argument (in the
// caller's order), then their checks in order, then each default left out.
// With a declared result, the body is `result`, then read from its slot.
struct CallEntry {
  std::optional<Binding> result;
  std::vector<Binding> args;
  std::vector<ArgCheck> checks;
  struct Default {
    Binding value;
    std::optional<ArgCheck> check;
  };
  std::vector<Default> defaults;
  void enter(Run& run) const {
    for (const Binding& a : args) a.bind(run);
    for (const ArgCheck& c : checks) c.check(run);
    for (const Default& d : defaults) {
      d.value.bind(run);
      if (d.check) d.check->check(run);
    }
  }
};
struct CallNode final : Scalar {
  CallEntry entry;
  ScalarPtr body;
  std::optional<ArgCheck> result;  // of the value it gives
  std::int64_t eval(Run& run) const override {
    entry.enter(run);
    if (entry.result) entry.result->bind(run);
    if (result) result->check(run);
    return body->eval(run);
  }
};
struct CallPoolNode final : Pool {
  CallEntry entry;
  PoolPtr body;
  std::optional<ArgCheck> result;
  PoolRef eval(Run& run) const override {
    entry.enter(run);
    if (entry.result) entry.result->bind(run);
    if (result) result->check(run);
    return body->eval(run);
  }
};

struct IfNode final : Scalar {
  ScalarPtr cond, then_, else_;
  std::int64_t eval(Run& run) const override { return cond->eval(run) ? then_->eval(run) : else_->eval(run); }
};
struct IfPoolNode final : Pool {
  ScalarPtr cond;
  PoolPtr then_, else_;
  PoolRef eval(Run& run) const override { return cond->eval(run) ? then_->eval(run) : else_->eval(run); }
};

struct NotNode final : Scalar {
  ScalarPtr operand;
  std::int64_t eval(Run& run) const override { return !operand->eval(run); }
};
struct NegNode final : Scalar {
  ScalarPtr operand;
  Span span;
  std::int64_t eval(Run& run) const override {
    const kernel::Checked r = kernel::neg(operand->eval(run));
    if (r.failed) fail(r.code, span);
    return r.value;
  }
};

// `and`, `or`: the right side only when the left does not decide.
struct LogicNode final : Scalar {
  bool is_and = true;
  ScalarPtr lhs, rhs;
  std::int64_t eval(Run& run) const override {
    const std::int64_t l = lhs->eval(run);
    if (is_and ? !l : l) return l;
    return rhs->eval(run);
  }
};

enum class Op : std::uint8_t { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge };

// Both operands, then the operation: checked arithmetic, floored division.
struct BinaryNode final : Scalar {
  Op op = Op::Add;
  ScalarPtr lhs, rhs;
  Span span, rhs_span;  // overflow is reported at the whole, a zero divisor at the right side
  std::int64_t eval(Run& run) const override;
};
// `==` or `!=` between values of different kinds: both are computed, and they differ.
struct UnequalKindsNode final : Scalar {
  bool ne = false;
  ScalarPtr lhs, rhs;  // either may be a pool's total, computed only for its dice
  std::int64_t eval(Run& run) const override {
    (void)lhs->eval(run);
    (void)rhs->eval(run);
    return ne;
  }
};

struct TierNode {
  ast::TierTest::Kind kind = ast::TierTest::Else;
  ast::CmpOp op = ast::CmpOp::Eq;
  ScalarPtr low, high;
  ScalarPtr result;  // TiersNode
  PoolPtr pool;      // TiersPoolNode
};
struct TiersBase {
  ScalarPtr subject;
  std::vector<TierNode> tiers;
  Span span;
  // The tier the subject falls in.
  const TierNode& pick(Run& run) const;
};
struct TiersNode final : Scalar, TiersBase {
  std::int64_t eval(Run& run) const override { return pick(run).result->eval(run); }
};
struct TiersPoolNode final : Pool, TiersBase {
  PoolRef eval(Run& run) const override { return pick(run).pool->eval(run); }
};

// `pool[i]`: the face of a pool's die.
struct IndexNode final : Scalar {
  PoolPtr pool;
  ScalarPtr index;
  Span index_span;
  std::int64_t eval(Run& run) const override;
};

// Builtins of numbers and pools (builtins.cpp).
enum class Builtin : std::uint8_t {
  SumFaces, SumArgs, Len, MinFaces, MaxFaces, MinArgs, MaxArgs, Abs,
  FloorDiv, CeilDiv, TruncDiv, RoundDiv, Clamp
};
struct BuiltinNode final : Scalar {
  Builtin fn = Builtin::SumArgs;
  std::vector<ScalarPtr> args;
  PoolPtr pool;  // SumFaces, Len, MinFaces, MaxFaces
  Span span, divisor_span;
  bool check = true;  // SumFaces: the faces of a success pool may not add up
  std::int64_t eval(Run& run) const override;
};

}  // namespace alea::lowered
