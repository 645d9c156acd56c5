// interpreter/ops/reroll.cpp — reroll, reroll … once (`r`, `ro`).
//
// Each die that shows the condition's face (by default its lowest) is rolled
// again, its new die taking its place; all the dice rerolled together in one
// round are one pool drawn. `reroll` goes on while the new die shows it too,
// at most max_rerolls times in a row (more is an error); `once` rerolls each
// die at most once. A condition that every face of a die meets never stops,
// and is refused unless `once`.
#include <fmt/format.h>

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::reroll {

namespace P = param::Reroll;
static_assert(+P::cond == +param::RerollOnce::cond);

// --- the evaluator ------------------------------------------------------------

Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData out) {
  const bool once = op.id == PoolOpId::RerollOnce;
  const DieTest t = ev.test(P::cond, false);
  std::vector<Active> active;
  for (std::size_t i = 0; i < out.dice.size(); ++i) {
    if (t(ev.kind_of(out.dice[i].id), out.dice[i].face)) active.push_back({i, out.dice[i].id});
  }
  const std::int64_t cap = once ? 1 : ev.limits().max_rerolls;
  if (!once) {
    for (const std::uint32_t kind : ev.kinds_in(out)) {
      if (t.always(ev.kind(kind))) {
        ev.fail(DiagCode::NeverStops,
                fmt::format("every face of a {} is rerolled on {}, so this would never stop; use 'reroll … once'",
                            ev.kind(kind).name(), PoolEval::text(t)));
      }
    }
  }
  for (std::int64_t round = 0; !active.empty(); ++round) {
    if (round == cap) {
      if (once) break;
      ev.fail(DiagCode::RerollLimitExceeded, fmt::format("a die was rerolled {} times in a row (max_rerolls)", cap));
    }
    std::vector<Active> next;
    for (const Active& a : ev.reroll_all(out, active)) {
      if (t(ev.kind_of(a.last_id), out.dice[a.pos].face)) next.push_back(a);
    }
    active = std::move(next);
  }
  return ev.finish(std::move(out));
}

// --- the exact engine -----------------------------------------------------------

void exact(const ast::PoolOp& op, const Value* p, const Limits& limits, compose::PoolStep& s) {
  s.kind = compose::PoolStep::Reroll;
  s.test = exact_test(op, P::cond, p, false);
  s.once = op.id == PoolOpId::RerollOnce;
  s.cap = s.once ? 1 : limits.max_rerolls;
}

// --- the sampler ----------------------------------------------------------------

namespace {

using namespace lowered;

struct RerollNode final : PoolOpNode {
  std::unique_ptr<CondNode> cond;  // null: the die's lowest face
  bool once = false;
  PoolRef eval(Run& run) const override;
};

PoolRef RerollNode::eval(Run& run) const {
  const PoolRef in = pool->eval(run);
  const Kind kind = run.kind(in.kind);
  const Test t = make_test(run, cond.get(), kind, false);
  const PoolRef out = own(run, in);
  auto& active = run.active;
  active.clear();
  for (std::uint32_t i = 0; i < out.size; ++i) {
    if (t(run.arena[out.begin + i])) active.push_back(i);
  }
  const std::int64_t cap = once ? 1 : run.limits->max_rerolls;
  if (!once && out.size > 0 && t.always(kind)) fail(DiagCode::NeverStops, span);
  for (std::int64_t round = 0; !active.empty(); ++round) {
    if (round == cap) {
      if (once) break;
      fail(DiagCode::RerollLimitExceeded, span);
    }
    const std::size_t n = active.size();
    run.count_dice(static_cast<std::int64_t>(n), span);
    run.drawn.resize(n);
    run.draw(kind, n, run.drawn.data());
    std::int64_t* faces = run.at(out.begin);
    auto& next = run.next;
    next.clear();
    for (std::size_t i = 0; i < n; ++i) {
      faces[active[i]] = run.drawn[i];
      if (t(run.drawn[i])) next.push_back(active[i]);
    }
    std::swap(active, next);
  }
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
