// interpreter/sample/lower_dice.cpp — lowering dice and pool operations (see
// lowerer.hpp; each operation's own lowering is in interpreter/ops/), and pools
// used as numbers.
#include <algorithm>

#include "interpreter/ops/ops.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea {

using namespace lowered;

ScalarPtr Lowerer::as_number(Typed t) {
  if (t.type == Type::Int) return std::move(t.scalar);
  if (t.type != Type::Pool) unsupported(fmt::format("{} where a number is needed", type_name(t.type)));
  if (dynamic_cast<const DiceNode*>(t.pool.get())) {
    // A roll used only as a number: its faces need not be kept.
    auto total = std::make_unique<DiceTotalNode>();
    total->dice.reset(static_cast<const DiceNode*>(t.pool.release()));
    return total;
  }
  if (const auto* op = dynamic_cast<const PoolOpNode*>(t.pool.get())) {
    // An operation that can give its total without keeping the faces (ops/explode.cpp, ops/keep.cpp).
    if (ScalarPtr total = op->as_total(t.pool)) return total;
  }
  auto total = std::make_unique<TotalNode>();
  total->pool = std::move(t.pool);
  return total;
}

std::unique_ptr<CondNode> Lowerer::cond(const ast::Cond& c) {
  auto n = std::make_unique<CondNode>();
  n->op = c.op;
  n->value = number(*c.value);
  if (const auto* k = dynamic_cast<const ConstNode*>(n->value.get())) {
    n->fixed = k->value;
    n->value.reset();
  }
  return n;
}

Lowerer::Typed Lowerer::node(const ast::Dice& k, const ast::Expr& e) {
  DiceSpec spec;
  spec.span = e.span;
  if (k.count) {
    spec.count = number(*k.count);
    spec.count_span = k.count->span;
  }
  std::uint64_t bound = 0;
  switch (k.shape) {
    case ast::DieShape::Sides:
      spec.sides = number(*k.sides);
      spec.sides_span = k.sides->span;
      if (const auto* c = dynamic_cast<const ConstNode*>(spec.sides.get());
          c && c->value >= 1 && c->value <= out_.limits_.max_sides) {
        spec.kind = static_cast<std::int32_t>(c->value);  // checked once here, as the evaluator would on every run
        spec.sides.reset();
      }
      bound = static_cast<std::uint64_t>(std::max<std::int64_t>(1, out_.limits_.max_sides));
      if (!spec.sides) bound = static_cast<std::uint64_t>(spec.kind);
      break;
    case ast::DieShape::Percent:
      spec.kind = 100;
      bound = 100;
      break;
    case ast::DieShape::Fudge:
    case ast::DieShape::Faces: {
      out_.lists_.push_back(std::make_unique<const FaceList>(
          k.shape == ast::DieShape::Fudge ? std::vector<std::int64_t>{-1, 0, 1} : k.faces));
      const FaceList& list = *out_.lists_.back();
      spec.kind = -static_cast<std::int32_t>(out_.lists_.size() - 1);
      bound = std::max(magnitude(list.min), magnitude(list.max));
      break;
    }
  }
  if (const auto* c = dynamic_cast<const ConstNode*>(spec.count.get())) {
    spec.count_value = c->value;  // a negative count still fails at run time, after the draws before it
    spec.count.reset();
  }
  auto n = std::make_unique<DiceNode>();
  n->spec = std::move(spec);
  n->check = !safe(bound);
  return pool_of(std::move(n), bound);
}

// Each operation's node is made in interpreter/ops/<family>.cpp.
Lowerer::Typed Lowerer::node(const ast::PoolOp& k, const ast::Expr&) {
  LowerOp cx(*this, k, pool(*k.pool));
  switch (k.id) {
#define ALEA_POOL_OP(Id, family, ...) \
  case PoolOpId::Id: ops::family::lower(cx, k); break;
#include "dsl/pool_ops.def"
#undef ALEA_POOL_OP
  }
  return cx.result();
}

}  // namespace alea
