// interpreter/ops/under.cpp — under (`pool d12 under ST`, `under 12 except 12`).
//
// Roll-under: the dice that show the target or less succeed and stay; the rest
// fail and go. A die that meets `except` fails whatever the target (`except
// none` is no exception). The result is a success pool: used as a number it
// counts its dice.
#include "interpreter/ops/under.hpp"

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::under {

namespace P = param::Under;

// --- the evaluator ------------------------------------------------------------

Value eval(PoolEval& ev, const ast::PoolOp&, PoolData pool) {
  const std::int64_t target = ev.number(P::target, "the target of 'under'");
  const std::optional<DieTest> except = ev.optional_test(P::except);
  PoolData result;
  result.successes = true;
  result.groups = pool.groups;
  for (const auto& d : pool.dice) {
    if (succeeds(d.face, target, except && (*except)(ev.kind_of(d.id), d.face))) {
      ev.rec(d.id).marks |= MarkSuccess;
      result.dice.push_back(d);
    } else {
      ev.remove(d.id, DieFate::Failed);
    }
  }
  return ev.finish(std::move(result));
}

// --- the exact engine -----------------------------------------------------------

void exact(const ast::PoolOp& op, const Value* p, const Limits&, compose::PoolStep& s) {
  s.successes = true;
  s.face = [](const compose::PoolStep& u, const DieKind* kind, std::int64_t f) -> std::optional<std::int64_t> {
    if (!succeeds(f, u.target, u.fail && compose::passes(*u.fail, kind, f))) return std::nullopt;
    return f;
  };
  s.target = compose::to_int(p[P::target]);
  if (op.arg(P::except) && !p[P::except].is_none()) s.fail = exact_test(op, P::except, p, true);
}

// --- the sampler ----------------------------------------------------------------

namespace {

using namespace lowered;

struct UnderNode final : PoolOpNode {
  ScalarPtr target;
  std::unique_ptr<CondNode> except;  // null: no exception
  bool except_none = false;          // its value is none: no exception either
  PoolRef eval(Run& run) const override;
};

PoolRef UnderNode::eval(Run& run) const {
  const PoolRef in = pool->eval(run);
  const std::int64_t t = target->eval(run);
  const std::int64_t ev = except ? except->eval(run) : 0;
  const bool has_except = except && !except_none;
  const Range not_counted(except ? except->op : ast::CmpOp::Eq, ev);
  PoolRef out = own(run, in);
  std::int64_t* f = run.at(out.begin);
  std::uint32_t w = 0;
  for (std::uint32_t i = 0; i < out.size; ++i) {
    if (succeeds(f[i], t, has_except && not_counted(f[i]))) f[w++] = f[i];
  }
  out.size = w;
  out.successes = true;
  return out;  // a success pool's total is its size: nothing to check
}

}  // namespace

void lower(LowerOp& cx, const ast::PoolOp& op) {
  auto n = std::make_unique<UnderNode>();
  n->target = cx.number(P::target);
  if (op.arg(P::except)) {
    n->except = std::make_unique<CondNode>();
    n->except->op = op.param(P::except).op;
    n->except->value = cx.number_or_none(P::except, n->except_none);  // `except none`: no exception
  }
  cx.give_pool(std::move(n), cx.bound(), /*same_total=*/true);
}

}  // namespace alea::ops::under
