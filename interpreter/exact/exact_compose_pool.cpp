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
#include "interpreter/ops/ops.hpp"

namespace alea::compose {

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

// The distributions of an operation's own expressions, one per parameter (the
// order the evaluator computes them); one not written is none.
void Composer::op_params(const ast::PoolOp& op, std::vector<Dist>& out) {
  ast::for_each_operand(op, [&](const ast::Expr* e, ast::Operand use) {
    out.push_back(e ? eval(*e, use == ast::Operand::Pool ? Demand::Full : Demand::Counted)
                    : Dist::point(NoneValue{}));
  });
}

// Each operation's step is made in interpreter/ops/<family>.cpp.
PoolStep Composer::make_step(const ast::PoolOp& op, const Value* p) {
  PoolStep s;
  s.span = op.op_span;
  switch (op.id) {
#define ALEA_POOL_OP(Id, family, ...) \
  case PoolOpId::Id: ops::family::exact(op, p, limits_, s); break;
#include "dsl/pool_ops.def"
#undef ALEA_POOL_OP
  }
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
      const std::int64_t bound = dice_bound(n, steps).first;
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
          after.dice = dice_bound(n, {s}).first - n;
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
