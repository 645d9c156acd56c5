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

StepMemo* Composer::step_memo(const ast::Expr& chain, std::size_t op, const PoolStep& step, const Value* params,
                               std::size_t n, std::optional<std::int64_t> reach) {
  // Only a step that draws dice for some of a pool's dice has anything to keep.
  if (!step.draws) return nullptr;
  MemoKey key{0, &chain, Demand::Full, {Value(static_cast<std::int64_t>(op))}};
  key.slots.insert(key.slots.end(), params, params + n);
  // A summary's reach last: the operation's keys without one are shorter.
  if (reach) key.slots.emplace_back(*reach);
  auto it = step_memos_.find(key);
  if (it != step_memos_.end()) return &it->second;
  budget_.charge_memory(sizeof(MemoKey) + sizeof(StepMemo) + sizeof(Value) * key.slots.size());
  StepMemo memo;
  memo.reach = reach;
  return &step_memos_.emplace(std::move(key), std::move(memo)).first->second;
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

namespace {

// Decides or draws for each die on its own (face, on_die): a one-die pool through it is that die.
bool draws_per_die(const PoolStep& s) { return (s.face || s.on_die) && !s.keep_end && !s.score; }

}  // namespace

// The total of `n` dice that each go through `steps` on their own (explode,
// reroll, a face changed or removed), then one keep or drop of the highest or
// lowest: the dice an explosion adds make the pool's size random, so the
// keep cannot be counted over a fixed number of dice (counted_total). Each
// die with everything it drew is computed once, as a one-die pool through the
// operations' own steps; the pool is then folded one die at a time over a
// small state, the `count` dice at the kept end (and, for a drop, the sum of
// all), merging equal states, as icepool's keep evaluators do. Nullopt when
// the steps are not of that shape.
std::optional<Dist> Composer::keep_after_draws(const DieKind& kind, std::int64_t n,
                                               const std::vector<PoolStep>& steps) {
  if (steps.size() < 2 || !steps.back().keep_end || counts_dice(steps)) return std::nullopt;
  if (!std::all_of(steps.begin(), steps.end() - 1, draws_per_die)) return std::nullopt;
  const PoolStep::KeepEnd keep = *steps.back().keep_end;
  if (keep.count < 0) return std::nullopt;
  const auto k = static_cast<std::size_t>(keep.count);
  const auto sum = [](std::int64_t a, std::int64_t b) {
    const kernel::Checked c = kernel::add(a, b);
    if (c.failed) not_composable("a pool's total would overflow");
    return c.value;
  };
  // A state: the sum of every die (read by a drop only), then at most k faces
  // of the end kept or dropped, the most extreme first.
  const auto state = [&](std::int64_t all, std::vector<std::int64_t> end) {
    std::sort(end.begin(), end.end(), [&](std::int64_t a, std::int64_t b) { return keep.highest ? a > b : a < b; });
    if (end.size() > k) end.resize(k);
    std::vector<Value> items;
    items.reserve(end.size() + 1);
    items.emplace_back(keep.drop ? all : 0);
    for (const std::int64_t f : end) items.emplace_back(f);
    return make_list(std::move(items));
  };
  const auto end_of = [](const Value& st) {
    const auto& items = *st.as_list();
    std::vector<std::int64_t> end;
    end.reserve(items.size());
    for (std::size_t i = 1; i < items.size(); ++i) end.push_back(*items[i].as_int());
    return end;
  };
  // One die and what it drew, through every step but the keep.
  Dist die = roll_pools(budget_, kinds_, kind, 1);
  for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
    die = bind(budget_, die, [&](const Value& p) { return apply_step(budget_, kinds_, steps[i], p); });
  }
  if (!die.fail.cut.is_zero() && !die.fail.err.is_zero()) {
    not_composable("a die may be cut off or fail, and which comes first depends on the other dice");
  }
  die = map(budget_, die, [&](const Value& p) {
    std::int64_t all = 0;
    std::vector<std::int64_t> faces;
    for (const PoolDie& x : p.as_pool()->dice) {
      all = sum(all, x.face);
      faces.push_back(x.face);
    }
    return state(all, std::move(faces));
  });
  Dist acc = Dist::point(state(0, {}));
  for (std::int64_t i = 0; i < n; ++i) {
    acc = product(budget_, acc, die, [&](const Value& a, const Value& b) {
      std::vector<std::int64_t> end = end_of(a);
      const std::vector<std::int64_t> more = end_of(b);
      end.insert(end.end(), more.begin(), more.end());
      return state(sum(*(*a.as_list())[0].as_int(), *(*b.as_list())[0].as_int()), std::move(end));
    });
  }
  return map(budget_, acc, [&](const Value& st) -> Value {
    std::int64_t end = 0;
    for (const std::int64_t f : end_of(st)) end = sum(end, f);
    if (!keep.drop) return end;
    const kernel::Checked c = kernel::sub(*(*st.as_list())[0].as_int(), end);
    if (c.failed) not_composable("a pool's total would overflow");
    return c.value;
  });
}

// One operation on a roll's every multiset at once (PoolStep::on_rolls), when
// each of its parameters is certain, or a roll for one that is a pool.
std::optional<Dist> Composer::on_rolls(const std::vector<const ast::PoolOp*>& ops, const std::vector<Dist>& parts) {
  if (ops.size() != 1 || !parts[0].roll || !parts[0].fail.none()) return std::nullopt;
  std::vector<Value> v;  // the parameters' values (a roll's first multiset, to make the step)
  bool fits = true;
  ast::for_each_operand(*ops[0], [&](const ast::Expr*, ast::Operand use) {
    const Dist& p = parts[v.size() + 1];
    fits = fits && (p.is_point() || (use == ast::Operand::Pool && p.roll && p.fail.none()));
    v.push_back(p.entries.empty() ? Value(NoneValue{}) : p.entries.front().first);
  });
  if (!fits) return std::nullopt;
  const PoolStep s = make_step(*ops[0], v.data());
  if (!s.on_rolls) return std::nullopt;
  std::optional<Dist> r = s.on_rolls(budget_, kinds_, s, parts[0], &parts[1]);
  if (!r) return std::nullopt;
  for (const Dist& p : parts) {
    r->steps += p.steps;
    r->dice += p.dice;
  }
  return r;
}

// The step of `op` when it changes only the dice passing its test (PoolStep::only_passing) and its
// parameters (`params`, as op_params gives them) have one value each.
std::optional<PoolStep> Composer::only_passing_step(const ast::PoolOp& op, const Dist* params, std::size_t n) {
  std::vector<Value> values;
  for (std::size_t i = 0; i < n; ++i) {
    if (!params[i].is_point() || !params[i].fail.none()) return std::nullopt;
    values.push_back(params[i].entries[0].first);
  }
  PoolStep s = make_step(op, values.data());
  if (!s.only_passing) return std::nullopt;
  return s;
}

// A pool (parts[0]) before one step that changes only the dice passing its test, whose pools are
// read only through their summaries reaching `reach`: pools alike in their passing dice and the
// summary of the others give the same summaries, so they are merged before the step
// (summary_of_failing), which then runs once for each.
void Composer::merge_failing(const ast::PoolOp& op, std::vector<Dist>& parts, std::int64_t reach) {
  if (parts[0].entries.size() < 2) return;
  const std::optional<PoolStep> s = only_passing_step(op, parts.data() + 1, parts.size() - 1);
  if (s) merge_by_failing(parts[0], *s, reach, std::nullopt);
}

void Composer::merge_by_failing(Dist& d, const PoolStep& s, std::int64_t reach, std::optional<std::size_t> item) {
  const std::uint64_t held = d.held;
  d = map(budget_, d, [&](const Value& v) {
    if (!item) return summary_of_failing(v, s.test, kinds_, reach);
    std::vector<Value> items = *v.as_list();
    items[*item] = summary_of_failing(items[*item], s.test, kinds_, reach);
    return make_list(std::move(items));
  });
  d.held += held;  // what the values before held, the merged ones hold or it goes
}

Dist Composer::pool_chain(const ast::Expr& e, Demand d) {
  std::vector<const ast::PoolOp*> ops;  // innermost first
  const ast::Expr* base = &e;
  while (const auto* op = std::get_if<ast::PoolOp>(&base->kind)) {
    ops.push_back(op);
    base = op->pool.get();
  }
  std::reverse(ops.begin(), ops.end());
  // A let's value that what follows reads only through its summary (summarised).
  std::optional<std::int64_t> summary;
  if (summarising_.let && summarising_.let->value.get() == &e) {
    summary = summarising_.reach;
    summarised_.insert(summarising_.let);
    summarising_.let = nullptr;
  }
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
  // How many parameters operation i has.
  const auto params_of = [&](std::size_t i) { return (i + 1 < first.size() ? first[i + 1] : parts.size()) - first[i]; };
  // The last operation's pools are summaries when the chain's are.
  const auto last_reach = [&](std::size_t i) { return i + 1 == ops.size() ? summary : std::nullopt; };
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
      std::optional<Dist> kept;
      if (total) {
        out = to_dist(*total);
      } else if (d == Demand::Counted && (kept = keep_after_draws(kind, n, steps))) {
        out = std::move(*kept);
      } else {
        out = roll_pools(budget_, kinds_, kind, n);
        for (std::size_t i = 0; i < steps.size(); ++i) {
          StepMemo* memo = step_memo(e, i, steps[i], &v[first[i]], params_of(i), last_reach(i));
          out = bind(budget_, out,
                     [&](const Value& p) { return apply_step(budget_, kinds_, steps[i], p, memo); });
        }
      }
      out.dice = bound;
      return out;
    });
  } else if (std::optional<Dist> counted = on_rolls(ops, parts)) {
    r = std::move(*counted);
  } else {
    if (summary && ops.size() == 1) merge_failing(*ops[0], parts, *summary);
    r = bind_many(budget_, parts, [&](const std::vector<Value>& v) {
      Dist out = Dist::point(v[0]);
      for (std::size_t i = 0; i < ops.size(); ++i) {
        const PoolStep s = make_step(*ops[i], &v[first[i]]);
        StepMemo* memo = step_memo(e, i, s, &v[first[i]], params_of(i), last_reach(i));
        out = bind(budget_, out, [&](const Value& p) {
          const PoolData* pool = p.as_pool();
          if (!pool) not_composable("a pool operation on something else than a pool");
          const auto n = static_cast<std::int64_t>(pool->dice.size());
          Dist after = apply_step(budget_, kinds_, s, p, memo);
          after.dice = dice_bound(n, {s}).first - n;
          return after;
        });
      }
      return out;
    });
  }
  r.steps += static_cast<std::int64_t>(ops.size());
  // (A step that made summaries already, explode's, leaves nothing to change.)
  if (summary && std::any_of(r.entries.begin(), r.entries.end(), [&](const auto& entry) {
        return summary_pool(entry.first, *summary).as_pool() != entry.first.as_pool();
      })) {
    const std::uint64_t held = r.held;
    r = map(budget_, r, [&](const Value& v) { return summary_pool(v, *summary); });
    r.held += held;  // what the pools before held, their summaries hold or it goes
  }
  return r;
}

}  // namespace alea::compose
