// interpreter/sample/lower_dice.cpp — lowering dice and pool operations (see
// lowerer.hpp), and pools used as numbers.
#include <algorithm>

#include "dsl/ast_walk.hpp"
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
  if (const auto* x = dynamic_cast<const ExplodeNode*>(t.pool.get()); x && !x->check) {
    auto total = std::make_unique<ExplodeTotalNode>();
    total->explode.reset(static_cast<const ExplodeNode*>(t.pool.release()));
    const auto* d = dynamic_cast<const DiceNode*>(total->explode->pool.get());
    if (d && !d->check) total->dice = d;
    return total;
  }
  if (const auto* k = dynamic_cast<const KeepNode*>(t.pool.get());
      k && k->which != ast::KeepWhich::Matching && !k->check) {
    auto total = std::make_unique<KeepTotalNode>();
    total->keep.reset(static_cast<const KeepNode*>(t.pool.release()));
    const auto* d = dynamic_cast<const DiceNode*>(total->keep->pool.get());
    if (d && !d->check) total->dice = d;
    return total;
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

Lowerer::Typed Lowerer::node(const ast::PoolOp& k, const ast::Expr&) {
  Typed in = pool(*k.pool);
  std::uint64_t bound = in.bound;
  std::unique_ptr<PoolOpNode> op;
  std::visit(
      [&](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, ast::Explode>) {
          auto n = std::make_unique<ExplodeNode>();
          n->mode = o.mode;
          n->cond = cond(o.cond);
          if (o.limit) {
            Typed limit = any(*o.limit);
            n->limit_none = limit.type == Type::None;  // `limit none`: no limit
            n->limit = n->limit_none ? std::move(limit.scalar) : as_number(std::move(limit));
            n->limit_span = o.limit->span;
          }
          if (o.mode == ast::ExplodeMode::Penetrate) bound = add_bounds(bound, 1);
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Reroll>) {
          auto n = std::make_unique<RerollNode>();
          n->cond = cond(o.cond);
          n->once = o.once;
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Keep>) {
          auto n = std::make_unique<KeepNode>();
          n->drop = o.drop;
          n->which = o.which;
          if (o.which == ast::KeepWhich::Matching) {
            n->cond = cond(o.cond);
            if (!n->cond) unsupported("'keep' without its condition");
          } else if (o.count) {
            n->count = number(*o.count);
            n->count_span = o.count->span;
            if (const auto* fixed = dynamic_cast<const ConstNode*>(n->count.get())) {
              n->count_value = fixed->value;  // a negative count still fails at run time
              n->count.reset();
            }
          }
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Under>) {
          auto n = std::make_unique<UnderNode>();
          n->target = number(*o.target);
          if (o.except) {
            n->except = std::make_unique<CondNode>();
            n->except->op = o.except->op;
            Typed v = any(*o.except->value);
            n->except_none = v.type == Type::None;  // `except none`: no exception
            n->except->value = n->except_none ? std::move(v.scalar) : as_number(std::move(v));
          }
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Sort>) {
          auto n = std::make_unique<SortNode>();
          n->descending = o.descending;
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Unique>) {
          op = std::make_unique<UniqueNode>();
        } else if constexpr (std::is_same_v<T, ast::Clamp>) {
          auto n = std::make_unique<ClampNode>();
          std::uint64_t extra = 0;
          for (const auto* side : {&o.low, &o.high}) {
            if (!*side) continue;
            ScalarPtr v = number(**side);
            const auto* c = dynamic_cast<const ConstNode*>(v.get());
            extra = std::max(extra, c ? magnitude(c->value) : UINT64_MAX);
            (side == &o.low ? n->low : n->high) = std::move(v);
          }
          // A clamped die shows its own face or a bound.
          bound = add_bounds(bound, extra);
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Count>) {
          // Handled below: it gives a number.
        } else if constexpr (std::is_same_v<T, ast::Cancel>) {
          unsupported("'cancel'");
        } else {
          static_assert(ast::dependent_false<T>, "Lowerer: a pool operation left out");
        }
      },
      k.op);
  if (const auto* c = std::get_if<ast::Count>(&k.op)) {
    auto n = std::make_unique<CountNode>();
    n->pool = std::move(in.pool);
    n->success = std::move(*cond(c->success));
    n->fail = cond(c->fail);
    n->twice = cond(c->twice);
    const auto* d = dynamic_cast<const DiceNode*>(n->pool.get());
    if (d && !d->check && !n->success.value && !(n->fail && n->fail->value) && !(n->twice && n->twice->value)) {
      n->dice = d;
    }
    return scalar(Type::Int, std::move(n));
  }
  op->pool = std::move(in.pool);
  op->span = k.op_span;
  // Sorting keeps the faces and `under` makes a success pool: their totals need no check.
  const bool keeps_total = std::holds_alternative<ast::Sort>(k.op) || std::holds_alternative<ast::Under>(k.op);
  op->check = keeps_total ? false : !safe(bound);
  return pool_of(std::move(op), bound);
}

}  // namespace alea
