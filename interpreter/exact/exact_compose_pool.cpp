// interpreter/exact/exact_compose_pool.cpp — rolls and pool operations in the
// composed exact engine.
//
// A chain such as `10d10 explode 10 kh3` is taken as a whole: its counts,
// sides and conditions are evaluated first (each may be random), then for each
// of their values the chain is computed as a total when only the total is
// needed and the operations allow it, or as its multisets otherwise.
#include <algorithm>

#include "dsl/ast_walk.hpp"
#include "interpreter/exact/exact_compose.hpp"

namespace alea::compose {
namespace {

DieTest fixed_test(ast::CmpOp op, const Value& v) {
  DieTest t;
  t.fixed = true;
  t.op = op;
  t.value = to_int(v);
  return t;
}

}  // namespace

DieKind Composer::die_kind(const ast::Dice& k, const Value& sides) {
  DieKind kind = DieKind::sides(100);
  switch (k.shape) {
    case ast::DieShape::Sides: {
      const std::int64_t s = to_int(sides);
      if (s < 1 || s > limits_.max_sides) not_composable("a die with a wrong number of sides");
      kind = DieKind::sides(s);
      break;
    }
    case ast::DieShape::Percent:
      break;
    case ast::DieShape::Fudge:
      kind = DieKind::fudge();
      break;
    case ast::DieShape::Faces:
      kind = DieKind::faces(k.faces);
      break;
  }
  return kind;
}

// The distributions of an operation's own expressions, one per operand of
// ast::for_each_operand (the order the evaluator computes them); an absent one
// (and `except` of a cancel without `combine`, which the evaluator never reads) is none.
void Composer::op_params(const ast::PoolOp& op, std::vector<Dist>& out) {
  const auto* cancel = std::get_if<ast::Cancel>(&op.op);
  const ast::Expr* unread = cancel && !cancel->combine && cancel->except ? cancel->except->value.get() : nullptr;
  ast::for_each_operand(op.op, [&](const ast::Expr* e, ast::Operand use) {
    out.push_back(e && e != unread ? eval(*e, use == ast::Operand::Pool ? Demand::Full : Demand::Counted)
                                   : Dist::point(NoneValue{}));
  });
}

PoolStep Composer::make_step(const ast::PoolOp& op, const Value* p) {
  PoolStep s;
  s.span = op.op_span;
  std::visit(
      [&](const auto& o) {
        using O = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<O, ast::Explode>) {
          s.kind = PoolStep::Explode;
          s.mode = o.mode;
          if (o.cond) s.test = fixed_test(o.cond->op, p[0]);
          s.explicit_limit = !p[1].is_none();
          s.cap = s.explicit_limit ? to_int(p[1]) : limits_.max_explosion_depth;
          if (s.cap < 0) not_composable("a negative explosion limit");
        } else if constexpr (std::is_same_v<O, ast::Reroll>) {
          s.kind = PoolStep::Reroll;
          s.test.highest = false;
          if (o.cond) s.test = fixed_test(o.cond->op, p[0]);
          s.once = o.once;
          s.cap = o.once ? 1 : limits_.max_rerolls;
        } else if constexpr (std::is_same_v<O, ast::Keep>) {
          s.drop = o.drop;
          if (o.which == ast::KeepWhich::Matching) {
            s.kind = PoolStep::KeepMatch;
            if (o.cond) s.test = fixed_test(o.cond->op, p[0]);
          } else {
            s.kind = PoolStep::KeepEnd;
            s.highest = o.which == ast::KeepWhich::Highest;
            s.count = o.count ? to_int(p[1]) : 1;
            if (s.count < 0) not_composable("keeping a negative number of dice");
          }
        } else if constexpr (std::is_same_v<O, ast::Count>) {
          s.kind = PoolStep::Count;
          s.test = fixed_test(o.success.op, p[0]);
          if (o.fail) s.fail = fixed_test(o.fail->op, p[1]);
          if (o.twice) s.twice = fixed_test(o.twice->op, p[2]);
        } else if constexpr (std::is_same_v<O, ast::Under>) {
          s.kind = PoolStep::Under;
          s.target = to_int(p[0]);
          if (o.except && !p[1].is_none()) s.fail = fixed_test(o.except->op, p[1]);
        } else if constexpr (std::is_same_v<O, ast::Cancel>) {
          s.kind = PoolStep::Cancel;
          s.by = p[0];
          s.cancel_op = o.op;
          s.combine = o.combine;
          if (o.combine && o.except && !p[1].is_none()) s.fail = fixed_test(o.except->op, p[1]);
        } else if constexpr (std::is_same_v<O, ast::Sort>) {
          s.kind = PoolStep::Sort;
        } else if constexpr (std::is_same_v<O, ast::Unique>) {
          s.kind = PoolStep::Unique;
        } else if constexpr (std::is_same_v<O, ast::Clamp>) {
          s.kind = PoolStep::Clamp;
          if (!p[0].is_none()) s.low = to_int(p[0]);
          if (!p[1].is_none()) s.high = to_int(p[1]);
          if (o.low && p[0].is_none()) to_int(p[0]);  // `clamp min none` fails in the evaluator
          if (o.high && p[1].is_none()) to_int(p[1]);
          if (s.low && s.high && *s.low > *s.high)
            not_composable("a clamp whose minimum is above its maximum");
        } else {
          static_assert(ast::dependent_false<O>, "Composer::make_step: a pool operation left out");
        }
      },
      op.op);
  return s;
}

Dist Composer::pool_chain(const ast::Expr& e, Demand d) {
  std::vector<const ast::PoolOp*> ops;  // innermost first
  const ast::Expr* base = &e;
  while (const auto* op = std::get_if<ast::PoolOp>(&base->kind)) {
    ops.push_back(op);
    base = op->pool.get();
  }
  std::reverse(ops.begin(), ops.end());
  depth_ += static_cast<std::int64_t>(ops.size());
  struct Leave {
    std::int64_t& depth;
    std::int64_t n;
    ~Leave() { depth -= n; }
  } leave{depth_, static_cast<std::int64_t>(ops.size())};
  const auto* dice = std::get_if<ast::Dice>(&base->kind);
  // parts: [count, sides] of the roll (or the pool), then each operation's parameters.
  std::vector<Dist> parts;
  std::vector<std::size_t> first;  // where each operation's parameters start in parts
  if (dice) {
    parts.push_back(dice->count ? eval(*dice->count, Demand::Counted) : Dist::point(1));
    parts.push_back(dice->shape == ast::DieShape::Sides ? eval(*dice->sides, Demand::Counted)
                                                        : Dist::point(NoneValue{}));
  } else {
    parts.push_back(eval(*base, Demand::Full));
  }
  for (const auto* op : ops) {
    first.push_back(parts.size());
    op_params(*op, parts);
  }
  // The evaluator computes an operation's parameters after the roll and the
  // operations before it; here they come first, which is the same unless a
  // parameter itself can fail (an exploding count of dice to keep…).
  for (std::size_t i = dice ? 2 : 1; i < parts.size(); ++i) {
    if (!parts[i].fail.none()) not_composable("a pool operation's parameter that may fail");
  }
  Dist r;
  if (dice) {
    r = bind_many(budget_, parts, [&](const std::vector<Value>& v) {
      const std::int64_t n = to_int(v[0]);
      if (n < 0) not_composable("a negative number of dice");
      const DieKind kind = die_kind(*dice, v[1]);
      std::vector<PoolStep> steps;
      steps.reserve(ops.size());
      for (std::size_t i = 0; i < ops.size(); ++i)
        steps.push_back(make_step(*ops[i], &v[first[i]]));
      const std::int64_t bound = dice_bound(n, limits_.max_rerolls, steps).first;
      if (bound > limits_.max_dice)
        not_composable("a roll that could need more than max_dice dice");
      Dist out;
      std::optional<IntDist> total;
      if (d == Demand::Counted) total = counted_total(budget_, kind, n, steps);
      if (total) {
        out = to_dist(*total);
      } else {
        out = roll_pools(budget_, kinds_, kind, n);
        for (const auto& s : steps) {
          out =
              bind(budget_, out, [&](const Value& p) { return apply_step(budget_, kinds_, s, p); });
        }
      }
      out.dice = bound;
      return out;
    });
  } else {
    r = bind_many(budget_, parts, [&](const std::vector<Value>& v) {
      Dist out = Dist::point(v[0]);
      for (std::size_t i = 0; i < ops.size(); ++i) {
        const PoolStep s = make_step(*ops[i], &v[first[i]]);
        out = bind(budget_, out, [&](const Value& p) {
          const PoolData* pool = p.as_pool();
          if (!pool) not_composable("a pool operation on something else than a pool");
          const auto n = static_cast<std::int64_t>(pool->dice.size());
          Dist after = apply_step(budget_, kinds_, s, p);
          after.dice = dice_bound(n, limits_.max_rerolls, {s}).first - n;
          return after;
        });
      }
      return out;
    });
  }
  r.steps += static_cast<std::int64_t>(ops.size());
  return r;
}

}  // namespace alea::compose
