// interpreter/ops/explode.cpp — explode, compound, penetrate (`!`, `!!`, `!p`).
//
// Each die that shows the condition's face (by default its highest) draws
// another of its kind, and so on while the new die shows it too; all the dice
// that explode together in one round are one pool drawn. `explode` adds the new
// die to the pool, `penetrate` adds it one less, `compound` adds its face to the
// die that exploded. Without a limit a chain may be at most the engine's
// max_explosion_depth long (longer is an error); `limit N` cuts it at N extra
// dice on purpose. A condition that every face of a die meets never stops, and
// is refused unless there is a limit.
#include <map>
#include <optional>

#include <fmt/format.h>

#include "interpreter/ops/explode.hpp"

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::explode {

namespace P = param::Explode;  // the three rows list the same parameters
static_assert(+P::cond == +param::Compound::cond && +P::limit == +param::Compound::limit &&
              +P::cond == +param::Penetrate::cond && +P::limit == +param::Penetrate::limit);

namespace {

ExplodeMode mode_of(PoolOpId id) {
  return id == PoolOpId::Compound ? ExplodeMode::Compound
         : id == PoolOpId::Penetrate ? ExplodeMode::Penetrate
                                     : ExplodeMode::Explode;
}

}  // namespace

// --- the evaluator ------------------------------------------------------------

namespace {

// The kernel's dice (explode.hpp): each new die in the trace, drawn by this
// operation, the die that exploded marked.
class Traced : public EvalDice {
 public:
  Traced(PoolEval& ev, PoolData& pool, const DieTest& t, ExplodeMode mode)
      : EvalDice(ev, pool), t_(t),
        origin_(mode == ExplodeMode::Compound    ? DieOrigin::Compounded
                : mode == ExplodeMode::Penetrate ? DieOrigin::Penetrated
                                                 : DieOrigin::Exploded) {}

  bool passes(const Active& a, std::int64_t f) { return t_(ev_.kind_of(a.last_id), f); }
  Active compound(const Active& a, std::int64_t f) {
    const std::uint32_t id = add(a, f);
    ev_.rec(id).fate = DieFate::Added;
    return {a.pos, id};
  }
  const std::int64_t* draw_new() { return draw(); }
  Active append(const Active& a, std::size_t, std::int64_t f) {
    const std::uint32_t id = add(a, f);
    pool_.dice.push_back({f, id});
    return {pool_.dice.size() - 1, id};
  }

  // Decided by the kinds of dice, not by the faces they happen to show.
  void check_never_stops() {
    for (const std::uint32_t kind : ev_.kinds_in(pool_)) {
      if (t_.always(ev_.kind(kind))) {
        ev_.fail(DiagCode::NeverStops,
                 fmt::format("every face of a {} explodes on {}, so this would never stop; write a limit, "
                             "as in '{} limit 3'",
                             ev_.kind(kind).name(), PoolEval::text(t_), ev_.name()));
      }
    }
  }
  [[noreturn]] void fail_negative_limit(std::int64_t cap) {
    ev_.fail_at(DiagCode::InvalidArgument, P::limit, fmt::format("an explosion limit cannot be negative, got {}", cap));
  }
  [[noreturn]] void fail_limit(std::int64_t cap) {
    ev_.fail(DiagCode::ExplosionLimitExceeded,
             fmt::format("a die exploded {} times in a row (max_explosion_depth); write 'limit N' to cap "
                         "explosions on purpose",
                         cap));
  }
  [[noreturn]] void fail_overflow(ExplodeMode mode) {
    ev_.fail(DiagCode::IntegerOverflow, mode == ExplodeMode::Compound ? "integer overflow while compounding"
                                                                      : "integer overflow while penetrating");
  }

 private:
  DieTest t_;
  DieOrigin origin_;

  // The new die, its face f, drawn for a's die.
  std::uint32_t add(const Active& a, std::int64_t f) {
    ev_.rec(a.last_id).marks |= MarkExploded;
    return ev_.add_die(a.last_id, f, origin_);
  }
};

}  // namespace

Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData out) {
  const ExplodeMode mode = mode_of(op.id);
  const DieTest t = ev.test(P::cond, true);
  // `limit none` is the same as no limit clause.
  const Value limit_value = op.arg(P::limit) ? ev.value(P::limit) : Value(NoneValue{});
  std::optional<std::int64_t> limit;
  if (!limit_value.is_none()) {
    limit = ev.evaluator().to_int(limit_value, op.arg(P::limit)->span, "the explosion limit");
  }
  Traced d(ev, out, t, mode);
  rounds(d, mode, limit, ev.limits().max_explosion_depth);
  return ev.finish(std::move(out));
}

// --- the exact engine -----------------------------------------------------------

namespace {

using compose::DieSteps;
using compose::IntDist;

// explode, penetrate: the extra dice of one chain of step k from round r on,
// each through the later steps.
const IntDist& extras(DieSteps& dice, std::size_t k, std::int64_t r) {
  if (const IntDist* d = dice.memo(k, r, 0)) return *d;
  const compose::PoolStep& s = dice.step(k);
  // At the limit: cut on purpose, or an error the evaluator gives (cut off here).
  if (r == s.cap) return dice.remember(k, r, 0, s.explicit_limit ? IntDist::point(0) : IntDist::failed(true));
  std::vector<const IntDist*> parts;
  for (const auto& [f, w] : dice.faces()) {
    std::int64_t shown = f;
    if (s.mode == ExplodeMode::Penetrate && __builtin_sub_overflow(f, 1, &shown)) {
      compose::not_composable("a penetrating die would overflow");
    }
    if (s.test(dice.kind(), f)) {
      parts.push_back(&dice.hold(compose::convolve(dice.budget(), extras(dice, k, r + 1), dice.from(k + 1, shown))));
    } else {
      parts.push_back(&dice.from(k + 1, shown));
    }
  }
  return dice.remember(k, r, 0, dice.mixture(parts));
}

// compound: a die showing `sum` at round r of step k.
const IntDist& compounded(DieSteps& dice, std::size_t k, std::int64_t r, std::int64_t sum) {
  if (const IntDist* d = dice.memo(k, r, sum)) return *d;
  const compose::PoolStep& s = dice.step(k);
  if (r == s.cap) return dice.remember(k, r, sum, s.explicit_limit ? dice.from(k + 1, sum) : IntDist::failed(true));
  std::vector<const IntDist*> parts;
  for (const auto& [f, w] : dice.faces()) {
    std::int64_t next;
    if (__builtin_add_overflow(sum, f, &next)) compose::not_composable("a compounding die would overflow");
    parts.push_back(s.test(dice.kind(), f) ? &compounded(dice, k, r + 1, next) : &dice.from(k + 1, next));
  }
  return dice.remember(k, r, sum, dice.mixture(parts));
}

IntDist on_die(DieSteps& dice, std::size_t k, std::int64_t face) {
  const compose::PoolStep& s = dice.step(k);
  if (!s.test(dice.kind(), face)) return dice.from(k + 1, face);
  if (s.mode == ExplodeMode::Compound) return compounded(dice, k, 0, face);
  return compose::convolve(dice.budget(), extras(dice, k, 0), dice.from(k + 1, face));
}

// On a multiset: each die that explodes is replaced by its chain, as pools.
compose::Dist on_pools(compose::StepOnPool& cx) {
  using compose::Dist;
  const compose::PoolStep& s = cx.step;
  const std::int64_t shift = s.mode == ExplodeMode::Penetrate ? -1 : 0;
  if (!s.explicit_limit) {
    for (const auto& d : cx.pool.dice) {
      if (s.test.always(cx.need_kind(d))) compose::not_composable("an explosion that never stops");
    }
  }
  auto cut = [&](Value on_purpose) {
    if (s.explicit_limit) return Dist::point(std::move(on_purpose));
    Dist d;
    d.fail.cut = 1;
    return d;
  };
  std::map<std::pair<std::uint32_t, std::int64_t>, Dist> extra;  // (kind, round)
  // The extra dice a chain adds from round r on (each a one-die pool, joined).
  auto chain_extras = [&](auto&& self, const DieKind& kind, std::int64_t r) -> Dist {
    const auto key = std::make_pair(cx.kinds.id_of(kind), r);
    if (auto it = extra.find(key); it != extra.end()) return it->second;
    Dist d = r == s.cap ? cut(compose::make_sorted_pool({}, false))
                        : compose::bind(cx.budget, cx.fresh(kind), [&](const Value& v) {
                            const PoolDie& x = v.as_pool()->dice.front();
                            std::int64_t face;
                            if (__builtin_add_overflow(x.face, shift, &face))
                              compose::not_composable("a penetrating die would overflow");
                            const Value shown = compose::make_sorted_pool({{face, x.id}}, false);
                            if (!s.test(kind, x.face)) return Dist::point(shown);
                            return compose::map(cx.budget, self(self, kind, r + 1),
                                                [&](const Value& rest) { return compose::StepOnPool::join(shown, rest); });
                          });
    return extra.emplace(key, std::move(d)).first->second;
  };
  // A compounding die's final face from round r on, having reached `sum`.
  auto compound = [&](auto&& self, const DieKind& kind, std::uint32_t id, std::int64_t r, std::int64_t sum) -> Dist {
    if (r == s.cap) return cut(compose::make_sorted_pool({{sum, id}}, false));
    return compose::bind(cx.budget, cx.fresh(kind), [&](const Value& v) {
      const std::int64_t f = v.as_pool()->dice.front().face;
      std::int64_t next;
      if (__builtin_add_overflow(sum, f, &next)) compose::not_composable("a compounding die would overflow");
      if (!s.test(kind, f)) return Dist::point(compose::make_sorted_pool({{next, id}}, false));
      return self(self, kind, id, r + 1, next);
    });
  };
  // Only chains with no written limit are cut by depth, so only they by rarity.
  return cx.per_die(
      s.test,
      [&](const PoolDie& d) {
        const DieKind& kind = cx.need_kind(d);
        if (s.mode == ExplodeMode::Compound) return compound(compound, kind, d.id, 0, d.face);
        return compose::map(cx.budget, chain_extras(chain_extras, kind, 0), [&](const Value& rest) {
          return compose::StepOnPool::join(compose::make_sorted_pool({d}, false), rest);
        });
      },
      s.explicit_limit ? 0 : cx.budget.rare_chains);
}

}  // namespace

void exact(const ast::PoolOp& op, const Value* p, const Limits& limits, compose::PoolStep& s) {
  s.mode = mode_of(op.id);
  s.test = exact_test(op, P::cond, p, true);
  s.explicit_limit = !p[P::limit].is_none();
  s.cap = s.explicit_limit ? compose::to_int(p[P::limit]) : limits.max_explosion_depth;
  if (s.cap < 0) compose::not_composable("a negative explosion limit");
  s.draws = true;
  s.only_passing = true;
  s.adds_dice = s.mode != ExplodeMode::Compound;
  s.endless_if_always = !s.explicit_limit;
  s.on_die = &on_die;
  s.on_pools = &on_pools;
}

// --- the sampler ----------------------------------------------------------------

namespace {

using namespace lowered;

struct ExplodeNode final : PoolOpNode {
  ExplodeMode mode = ExplodeMode::Explode;
  std::unique_ptr<CondNode> cond;  // null: the die's highest face
  ScalarPtr limit;                 // null: the engine's limit
  bool limit_none = false;         // `limit` gives none: the engine's limit too
  Span limit_span;
  PoolRef eval(Run& run) const override;
  ScalarPtr as_total(lowered::PoolPtr& self) const override;
};

// An explosion used straight away as a number: the total of the dice and of
// every die added, counted as they are drawn (only counts of exploding dice
// matter for which dice are drawn). Only when no total needs a check. Its
// loop is not explode::rounds': it keeps neither the dice's places nor their
// faces, which the kernel's compounding and penetrating work on, and adds up
// each face inside the draw instead of storing it. So it follows the kernel
// by hand: the same draws and errors in the same order (no overflow, since
// no total needs a check).
struct ExplodeTotalNode final : Scalar {
  std::unique_ptr<const ExplodeNode> explode;
  const DiceNode* dice = nullptr;  // explode->pool, when a roll whose total needs no check
  std::int64_t eval(Run& run) const override;
};

// The kernel's dice (explode.hpp).
class Sampled : public RunDice {
 public:
  Sampled(Run& run, PoolRef& pool, const ExplodeNode& node, const Test& t)
      : RunDice(run, pool, node.span), t_(t), limit_span_(node.limit_span) {}

  [[nodiscard]] bool passes(std::uint32_t, std::int64_t f) const { return t_(f); }
  // The new dice go at the end of the pool, in the order of the dice that exploded.
  const std::int64_t* draw_new() {
    const std::size_t n = active.size();
    run_.count_dice(static_cast<std::int64_t>(n), span_);
    at_ = run_.alloc(n) - pool_.begin;
    faces_ = run_.at(pool_.begin);
    run_.draw(kind_, n, faces_ + at_);
    pool_.size += static_cast<std::uint32_t>(n);
    return faces_ + at_;
  }
  static std::uint32_t compound(std::uint32_t i, std::int64_t) { return i; }
  [[nodiscard]] std::uint32_t append(std::uint32_t, std::size_t i, std::int64_t) const {
    return at_ + static_cast<std::uint32_t>(i);
  }

  void check_never_stops() const {
    if (pool_.size > 0 && t_.always(kind_)) fail(DiagCode::NeverStops, span_);
  }
  [[noreturn]] void fail_negative_limit(std::int64_t) const { fail(DiagCode::InvalidArgument, limit_span_); }
  [[noreturn]] void fail_limit(std::int64_t) const { fail(DiagCode::ExplosionLimitExceeded, span_); }
  [[noreturn]] void fail_overflow(ExplodeMode) const { fail(DiagCode::IntegerOverflow, span_); }

 private:
  Test t_;
  Span limit_span_;
  std::uint32_t at_ = 0;  // where this round's new dice start in the pool
};

PoolRef ExplodeNode::eval(Run& run) const {
  const PoolRef in = pool->eval(run);
  const Test t = make_test(run, cond.get(), run.kind(in.kind), true);
  const std::int64_t limit_value = limit ? limit->eval(run) : 0;
  const std::optional<std::int64_t> written = limit && !limit_none ? std::optional(limit_value) : std::nullopt;
  // At the top of the arena, so that new dice can follow it.
  PoolRef out = pool->fresh && in.begin + in.size == run.top ? in : run.to_top(in, 0);
  Sampled d(run, out, *this, t);
  rounds(d, mode, written, run.limits->max_explosion_depth);
  return finish(run, out);
}

ScalarPtr ExplodeNode::as_total(lowered::PoolPtr& self) const {
  if (check) return nullptr;
  auto total = std::make_unique<ExplodeTotalNode>();
  total->explode.reset(static_cast<const ExplodeNode*>(self.release()));
  const auto* d = dynamic_cast<const DiceNode*>(total->explode->pool.get());
  if (d && !d->check) total->dice = d;
  return total;
}

std::int64_t ExplodeTotalNode::eval(Run& run) const {
  const ExplodeNode& x = *explode;
  std::int64_t local[64];
  PoolRef in;
  const std::int64_t* f = faces_of(run, dice, *x.pool, local, in);
  const Kind kind = run.kind(in.kind);
  const Test t = make_test(run, x.cond.get(), kind, true);
  const std::int64_t limit_value = x.limit ? x.limit->eval(run) : 0;
  const bool explicit_limit = x.limit && !x.limit_none;
  const std::int64_t cap = explicit_limit ? limit_value : run.limits->max_explosion_depth;
  if (cap < 0) fail(DiagCode::InvalidArgument, x.limit_span);
  if (f != local) f = run.at(in.begin);  // the condition and the limit may have grown the arena
  std::int64_t sum = 0, active = 0, added = 0;
  for (std::uint32_t i = 0; i < in.size; ++i) {
    sum += f[i];
    active += t(f[i]);
  }
  if (!explicit_limit && in.size > 0 && t.always(kind)) fail(DiagCode::NeverStops, x.span);
  const std::int64_t less = x.mode == ExplodeMode::Penetrate ? 1 : 0;
  for (std::int64_t round = 0; active > 0; ++round) {
    if (round == cap) {
      if (explicit_limit) break;
      fail(DiagCode::ExplosionLimitExceeded, x.span);
    }
    run.count_dice(active, x.span);
    std::int64_t next = 0;
    const auto n = static_cast<std::size_t>(active);
    if (kind.sides > 0) {
      run.dice->each_below(static_cast<std::uint64_t>(kind.sides), n, [&](std::size_t, std::uint64_t r) {
        const auto g = static_cast<std::int64_t>(r) + 1;
        sum += g - less;
        next += t(g);
      });
    } else {
      const std::int64_t* lf = kind.list->faces.data();
      run.dice->each_below(kind.list->faces.size(), n, [&](std::size_t, std::uint64_t r) {
        sum += lf[r] - less;
        next += t(lf[r]);
      });
    }
    added += active;
    active = next;
  }
  if (!in.successes) return sum;
  // A success pool counts its dice: compounding adds none.
  return in.size + (x.mode == ExplodeMode::Compound ? 0 : added);
}

}  // namespace

void lower(LowerOp& cx, const ast::PoolOp& op) {
  auto n = std::make_unique<ExplodeNode>();
  n->mode = mode_of(op.id);
  n->cond = cx.cond(P::cond);
  if (op.arg(P::limit)) {
    n->limit = cx.number_or_none(P::limit, n->limit_none);  // `limit none`: no limit
    n->limit_span = op.arg(P::limit)->span;
  }
  const std::uint64_t bound = n->mode == ExplodeMode::Penetrate ? LowerOp::add_bounds(cx.bound(), 1) : cx.bound();
  cx.give_pool(std::move(n), bound);
}

}  // namespace alea::ops::explode
