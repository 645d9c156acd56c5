// interpreter/ops/clamp.cpp — clamp (`min2`, `max5`, `clamp min 2 max 5`): each
// die below the minimum shows the minimum, each above the maximum the maximum.
// A minimum above the maximum is an error.
#include <algorithm>

#include <fmt/format.h>

#include "interpreter/ops/clamp.hpp"

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::clamp {

namespace P = param::Clamp;

// --- the evaluator ------------------------------------------------------------

Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData out) {
  const std::optional<std::int64_t> low = op.arg(P::low) ? std::optional(ev.number(P::low, "the clamp minimum")) : std::nullopt;
  const std::optional<std::int64_t> high = op.arg(P::high) ? std::optional(ev.number(P::high, "the clamp maximum")) : std::nullopt;
  if (low && high && *low > *high) {
    ev.fail(DiagCode::InvalidArgument, fmt::format("clamp's minimum {} is above its maximum {}", *low, *high));
  }
  for (auto& d : out.dice) {
    const std::int64_t f = face(d.face, low, high);
    if (f != d.face) {
      d.face = f;
      DieRecord& r = ev.rec(d.id);
      r.face = f;
      r.marks |= MarkClamped;
      r.fate_by = ev.span();
    }
  }
  return ev.finish(std::move(out));
}

// --- the exact engine -----------------------------------------------------------

void exact(const ast::PoolOp& op, const Value* p, const Limits&, compose::PoolStep& s) {
  s.face = [](const compose::PoolStep& c, const DieKind*, std::int64_t f) -> std::optional<std::int64_t> {
    return face(f, c.low, c.high);
  };
  if (!p[P::low].is_none()) s.low = compose::to_int(p[P::low]);
  if (!p[P::high].is_none()) s.high = compose::to_int(p[P::high]);
  if (op.arg(P::low) && p[P::low].is_none()) compose::to_int(p[P::low]);  // `clamp min none` fails in the evaluator
  if (op.arg(P::high) && p[P::high].is_none()) compose::to_int(p[P::high]);
  if (s.low && s.high && *s.low > *s.high) compose::not_composable("a clamp whose minimum is above its maximum");
}

// --- the sampler ----------------------------------------------------------------

namespace {

using namespace lowered;

struct ClampNode final : PoolOpNode {
  ScalarPtr low, high;  // either may be null
  PoolRef eval(Run& run) const override {
    const PoolRef in = pool->eval(run);
    const std::int64_t lo = low ? low->eval(run) : INT64_MIN;
    const std::int64_t hi = high ? high->eval(run) : INT64_MAX;
    if (lo > hi) fail(DiagCode::InvalidArgument, span);
    const PoolRef out = own(run, in);
    std::int64_t* f = run.at(out.begin);
    for (std::uint32_t i = 0; i < out.size; ++i) f[i] = face(f[i], lo, hi);
    return finish(run, out);
  }
};

}  // namespace

void lower(LowerOp& cx, const ast::PoolOp& op) {
  auto n = std::make_unique<ClampNode>();
  std::uint64_t extra = 0;
  for (const std::size_t side : {std::size_t{P::low}, std::size_t{P::high}}) {
    if (!op.arg(side)) continue;
    ScalarPtr v = cx.number(side);
    const auto* c = dynamic_cast<const ConstNode*>(v.get());
    extra = std::max(extra, c ? LowerOp::magnitude(c->value) : UINT64_MAX);
    (side == P::low ? n->low : n->high) = std::move(v);
  }
  // A clamped die shows its own face or a bound.
  cx.give_pool(std::move(n), LowerOp::add_bounds(cx.bound(), extra));
}

}  // namespace alea::ops::clamp
