// interpreter/ops/count.cpp — count (`>=5`, `cs>=5`, `count >=5 fail 1 double 10`).
//
// The pool becomes a number: each die that meets the success condition counts
// 1, or 2 when it also meets `double`; each that meets `fail` takes 1 away
// (whether or not it is a success). The trace marks which die did what; only
// the last count of a chain decides the marks.
#include "interpreter/ops/count.hpp"

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::count {

namespace P = param::Count;

// --- the evaluator ------------------------------------------------------------

Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData pool) {
  const DieTest success = ev.test(P::success, true);
  const std::optional<DieTest> failure = op.arg(P::fail) ? std::optional(ev.test(P::fail, true)) : std::nullopt;
  const std::optional<DieTest> twice = op.arg(P::twice) ? std::optional(ev.test(P::twice, true)) : std::nullopt;
  std::int64_t n = 0;
  for (const auto& d : pool.dice) {
    DieRecord& r = ev.rec(d.id);
    r.marks &= static_cast<std::uint16_t>(~(MarkSuccess | MarkFailure | MarkDouble));  // this count decides
    const DieKind& k = ev.kind_of(d.id);
    const bool s = success(k, d.face);
    const bool t = s && twice && (*twice)(k, d.face);
    const bool f = failure && (*failure)(k, d.face);
    if (s) r.marks |= MarkSuccess;
    if (t) r.marks |= MarkDouble;
    if (f) r.marks |= MarkFailure;
    n += score(s, t, f);
  }
  return n;
}

// --- the exact engine -----------------------------------------------------------

// Every test of a count is written, so none needs the kind of die.
void exact(const ast::PoolOp& op, const Value* p, const Limits&, compose::PoolStep& s) {
  s.test = exact_test(op, P::success, p, true);
  if (op.arg(P::fail)) s.fail = exact_test(op, P::fail, p, true);
  if (op.arg(P::twice)) s.twice = exact_test(op, P::twice, p, true);
  s.score = [](const compose::PoolStep& c, std::int64_t f) {
    const bool success = compose::passes(c.test, nullptr, f);
    return score(success, success && c.twice && compose::passes(*c.twice, nullptr, f),
                 c.fail && compose::passes(*c.fail, nullptr, f));
  };
}

// --- the sampler ----------------------------------------------------------------

namespace {

using namespace lowered;

struct Counter {
  Range success, fail, twice;
  bool has_fail, has_twice;
  std::int64_t operator()(std::int64_t f) const {
    const bool s = success(f);
    return score(s, s && has_twice && twice(f), has_fail && fail(f));
  }
};

struct CountNode final : Scalar {
  lowered::PoolPtr pool;
  CondNode success;
  std::unique_ptr<CondNode> fail, twice;
  // `pool`, when a roll whose total needs no check and every condition is a
  // fixed number: the dice are counted as they are drawn, never stored.
  const DiceNode* dice = nullptr;
  std::int64_t eval(Run& run) const override;
};

std::int64_t CountNode::eval(Run& run) const {
  if (dice) {
    std::int32_t code = 0;
    const auto m = static_cast<std::size_t>(dice->spec.prepare(run, code));
    const Kind k = run.kind(code);
    const Range s(success.op, success.fixed);
    std::int64_t n = 0;
    if (!fail && !twice) {
      if (k.sides > 0) {
        run.dice->each_below(static_cast<std::uint64_t>(k.sides), m,
                             [&](std::size_t, std::uint64_t x) { n += s(static_cast<std::int64_t>(x) + 1); });
      } else {
        const std::int64_t* f = k.list->faces.data();
        run.dice->each_below(k.list->faces.size(), m, [&](std::size_t, std::uint64_t x) { n += s(f[x]); });
      }
      return n;
    }
    const Counter c{s, Range(fail ? fail->op : ast::CmpOp::Eq, fail ? fail->fixed : 0),
                    Range(twice ? twice->op : ast::CmpOp::Eq, twice ? twice->fixed : 0), fail != nullptr,
                    twice != nullptr};
    if (k.sides > 0) {
      run.dice->each_below(static_cast<std::uint64_t>(k.sides), m,
                           [&](std::size_t, std::uint64_t x) { n += c(static_cast<std::int64_t>(x) + 1); });
    } else {
      const std::int64_t* f = k.list->faces.data();
      run.dice->each_below(k.list->faces.size(), m, [&](std::size_t, std::uint64_t x) { n += c(f[x]); });
    }
    return n;
  }
  const PoolRef p = pool->eval(run);
  const std::int64_t sv = success.eval(run);
  const std::int64_t fv = fail ? fail->eval(run) : 0;
  const std::int64_t tv = twice ? twice->eval(run) : 0;
  const std::int64_t* f = run.at(p.begin);
  const Counter c{Range(success.op, sv), Range(fail ? fail->op : ast::CmpOp::Eq, fv),
                  Range(twice ? twice->op : ast::CmpOp::Eq, tv), fail != nullptr, twice != nullptr};
  std::int64_t n = 0;
  for (std::uint32_t i = 0; i < p.size; ++i) n += c(f[i]);
  return n;
}

}  // namespace

void lower(LowerOp& cx, const ast::PoolOp&) {
  auto n = std::make_unique<CountNode>();
  n->pool = cx.take_pool();
  n->success = std::move(*cx.cond(P::success));
  n->fail = cx.cond(P::fail);
  n->twice = cx.cond(P::twice);
  const auto* d = dynamic_cast<const DiceNode*>(n->pool.get());
  if (d && !d->check && !n->success.value && !(n->fail && n->fail->value) && !(n->twice && n->twice->value)) {
    n->dice = d;
  }
  cx.give_number(std::move(n));
}

}  // namespace alea::ops::count
