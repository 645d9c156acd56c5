// interpreter/ops/reroll.cpp — reroll, reroll … once (`r`, `ro`).
//
// Each die that shows the condition's face (by default its lowest) is rolled
// again, its new die taking its place; all the dice rerolled together in one
// round are one pool drawn. `reroll` goes on while the new die shows it too,
// at most max_rerolls times in a row (more is an error); `once` rerolls each
// die at most once. A condition that every face of a die meets never stops,
// and is refused unless `once`.
#include <map>
#include <memory>

#include <fmt/format.h>

#include "interpreter/ops/reroll.hpp"

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::reroll {

namespace P = param::Reroll;
static_assert(+P::cond == +param::RerollOnce::cond);

// --- the evaluator ------------------------------------------------------------

namespace {

// The kernel's dice (reroll.hpp).
class Traced : public EvalDice {
 public:
  Traced(PoolEval& ev, PoolData& pool, const DieTest& t) : EvalDice(ev, pool), t_(t) {}

  bool passes(const Active& a, std::int64_t f) { return t_(ev_.kind_of(a.last_id), f); }
  void check_never_stops() {
    for (const std::uint32_t kind : ev_.kinds_in(pool_)) {
      if (t_.always(ev_.kind(kind))) {
        ev_.fail(DiagCode::NeverStops,
                 fmt::format("every face of a {} is rerolled on {}, so this would never stop; use 'reroll … once'",
                             ev_.kind(kind).name(), PoolEval::text(t_)));
      }
    }
  }
  [[noreturn]] void fail_limit(std::int64_t cap) {
    ev_.fail(DiagCode::RerollLimitExceeded, fmt::format("a die was rerolled {} times in a row (max_rerolls)", cap));
  }

 private:
  DieTest t_;
};

}  // namespace

Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData out) {
  Traced d(ev, out, ev.test(P::cond, false));
  rounds(d, op.id == PoolOpId::RerollOnce, ev.limits().max_rerolls);
  return ev.finish(std::move(out));
}

// --- the exact engine -----------------------------------------------------------

namespace {

using compose::DieSteps;
using compose::Dist;
using compose::IntDist;

// The error of a die rerolled `cap` times in a row, as the evaluator gives it.
std::shared_ptr<const Diagnostic> limit_error(Span span, std::int64_t cap) {
  return std::make_shared<const Diagnostic>(DiagCode::RerollLimitExceeded, span,
                                            fmt::format("a die was rerolled {} times in a row (max_rerolls)", cap));
}

// A die rerolled at round r of step k, until it no longer matches.
const IntDist& chain(DieSteps& dice, std::size_t k, std::int64_t r) {
  if (const IntDist* d = dice.memo(k, r, 0)) return *d;
  const compose::PoolStep& s = dice.step(k);
  if (r == s.cap) return dice.remember(k, r, 0, IntDist::failed(false, limit_error(s.span, s.cap)));
  std::vector<const IntDist*> parts;
  for (const auto& [f, w] : dice.faces()) parts.push_back(s.test(dice.kind(), f) ? &chain(dice, k, r + 1) : &dice.from(k + 1, f));
  return dice.remember(k, r, 0, dice.mixture(parts));
}

IntDist on_die(DieSteps& dice, std::size_t k, std::int64_t face) {
  const compose::PoolStep& s = dice.step(k);
  if (!s.test(dice.kind(), face)) return dice.from(k + 1, face);
  return s.once ? dice.fresh(k + 1) : chain(dice, k, 0);
}

// On a multiset: each die that matches is replaced by its chain's last die.
Dist on_pools(compose::StepOnPool& cx) {
  const compose::PoolStep& s = cx.step;
  if (!s.once) {
    for (const auto& d : cx.pool.dice) {
      if (s.test.always(cx.need_kind(d))) compose::not_composable("a reroll that never stops");
    }
  }
  std::map<std::pair<std::uint32_t, std::int64_t>, Dist> chains;  // (kind, round)
  auto again = [&](auto&& self, const DieKind& kind, std::int64_t r) -> Dist {
    const auto key = std::make_pair(cx.kinds.id_of(kind), r);
    if (auto it = chains.find(key); it != chains.end()) return it->second;
    Dist d;
    if (r == s.cap) {
      d.fail.err = 1;
      d.fail.error = limit_error(s.span, s.cap);
    } else {
      d = compose::bind(cx.budget, cx.fresh(kind), [&](const Value& v) {
        if (s.test(kind, v.as_pool()->dice.front().face)) return self(self, kind, r + 1);
        return Dist::point(v);
      });
    }
    return chains.emplace(key, std::move(d)).first->second;
  };
  return cx.per_die(s.test, [&](const PoolDie& d) {
    const DieKind& kind = cx.need_kind(d);
    return s.once ? cx.fresh(kind) : again(again, kind, 0);
  });
}

}  // namespace

void exact(const ast::PoolOp& op, const Value* p, const Limits& limits, compose::PoolStep& s) {
  s.test = exact_test(op, P::cond, p, false);
  s.once = op.id == PoolOpId::RerollOnce;
  s.cap = s.once ? 1 : limits.max_rerolls;
  s.draws = true;
  s.only_passing = true;
  s.endless_if_always = !s.once;
  s.on_die = &on_die;
  s.on_pools = &on_pools;
}

// --- the sampler ----------------------------------------------------------------

namespace {

using namespace lowered;

struct RerollNode final : PoolOpNode {
  std::unique_ptr<CondNode> cond;  // null: the die's lowest face
  bool once = false;
  PoolRef eval(Run& run) const override;
};

// The kernel's dice (reroll.hpp).
class Sampled : public RunDice {
 public:
  Sampled(Run& run, PoolRef& pool, Span span, const Test& t) : RunDice(run, pool, span), t_(t) {}

  [[nodiscard]] bool passes(std::uint32_t, std::int64_t f) const { return t_(f); }
  void check_never_stops() const {
    if (pool_.size > 0 && t_.always(kind_)) fail(DiagCode::NeverStops, span_);
  }
  [[noreturn]] void fail_limit(std::int64_t) const { fail(DiagCode::RerollLimitExceeded, span_); }

 private:
  Test t_;
};

PoolRef RerollNode::eval(Run& run) const {
  const PoolRef in = pool->eval(run);
  const Test t = make_test(run, cond.get(), run.kind(in.kind), false);
  PoolRef out = own(run, in);
  Sampled d(run, out, span, t);
  rounds(d, once, run.limits->max_rerolls);
  return finish(run, out);
}

}  // namespace

void lower(LowerOp& cx, const ast::PoolOp& op) {
  auto n = std::make_unique<RerollNode>();
  n->cond = cx.cond(P::cond);
  n->once = op.id == PoolOpId::RerollOnce;
  cx.give_pool(std::move(n), cx.bound());
}

}  // namespace alea::ops::reroll
