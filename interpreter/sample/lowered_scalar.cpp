// interpreter/sample/lowered_scalar.cpp — arithmetic, tiers, indexing and
// builtins of a lowered program, as evaluator.cpp and builtins.cpp compute and
// check them.
#include "interpreter/sample/lowered_scalar.hpp"

#include <algorithm>

namespace alea::lowered {

std::int64_t BinaryNode::eval(Run& run) const {
  const std::int64_t x = lhs->eval(run);
  const std::int64_t y = rhs->eval(run);
  const auto arith = [](const kernel::Checked& r, Span at) {
    if (r.failed) [[unlikely]] fail(r.code, at);
    return r.value;
  };
  switch (op) {
    case Op::Add: return arith(kernel::add(x, y), span);
    case Op::Sub: return arith(kernel::sub(x, y), span);
    case Op::Mul: return arith(kernel::mul(x, y), span);
    case Op::Div: return arith(kernel::floor_div(x, y), rhs_span);
    case Op::Mod: return arith(kernel::floor_mod(x, y), rhs_span);
    case Op::Eq: return x == y;
    case Op::Ne: return x != y;
    case Op::Lt: return x < y;
    case Op::Le: return x <= y;
    case Op::Gt: return x > y;
    case Op::Ge: return x >= y;
  }
  return 0;
}

const TierNode& TiersBase::pick(Run& run) const {
  const std::int64_t x = subject->eval(run);
  for (const TierNode& t : tiers) {
    switch (t.kind) {
      case ast::TierTest::Else: return t;
      case ast::TierTest::Range:
        if (x >= t.low->eval(run) && x <= t.high->eval(run)) return t;
        break;
      case ast::TierTest::Cmp:
        if (kernel::compare(t.op, x, t.low->eval(run))) return t;
        break;
    }
  }
  fail(DiagCode::NoTierMatches, span);
}

void ArgCheck::check(Run& run) const {
  std::int64_t v = run.scalars[slot];
  if (pool) {
    const PoolRef& p = run.pools[slot];
    std::uint64_t sum = 0;  // checked when the pool was made
    for (std::uint32_t i = 0; i < p.size; ++i) sum += static_cast<std::uint64_t>(run.arena[p.begin + i]);
    v = p.successes ? p.size : static_cast<std::int64_t>(sum);
  }
  if ((min && v < *min) || (max && v > *max)) fail(DiagCode::ArgumentOutOfRange, span);
  if (!choices.empty() && std::find(choices.begin(), choices.end(), v) == choices.end()) {
    fail(DiagCode::ArgumentOutOfRange, span);
  }
}

std::int64_t IndexNode::eval(Run& run) const {
  const PoolRef p = pool->eval(run);
  const std::int64_t i = index->eval(run);
  if (i < 0 || static_cast<std::uint64_t>(i) >= p.size) fail(DiagCode::IndexOutOfRange, index_span);
  return run.arena[p.begin + static_cast<std::size_t>(i)];
}

std::int64_t BuiltinNode::eval(Run& run) const {
  switch (fn) {
    case Builtin::SumFaces: {
      const PoolRef p = pool->eval(run);
      const std::int64_t* f = run.at(p.begin);
      std::int64_t s = 0;
      for (std::uint32_t i = 0; i < p.size; ++i) {
        if (__builtin_add_overflow(s, f[i], &s) && check) fail(DiagCode::IntegerOverflow, span);
      }
      return s;
    }
    case Builtin::Len: return pool->eval(run).size;
    case Builtin::MinFaces:
    case Builtin::MaxFaces: {
      const PoolRef p = pool->eval(run);
      if (p.size == 0) fail(DiagCode::InvalidArgument, span);
      const std::int64_t* f = run.at(p.begin);
      return fn == Builtin::MaxFaces ? *std::max_element(f, f + p.size) : *std::min_element(f, f + p.size);
    }
    default: break;
  }
  // Every argument first, in order, as the evaluator computes a call's
  // arguments; sum, min and max fold them as they come.
  std::int64_t v[3] = {0, 0, 0};
  bool overflow = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::int64_t x = args[i]->eval(run);
    switch (fn) {
      case Builtin::SumArgs: overflow |= __builtin_add_overflow(v[0], x, &v[0]); break;
      case Builtin::MinArgs: v[0] = i == 0 ? x : std::min(v[0], x); break;
      case Builtin::MaxArgs: v[0] = i == 0 ? x : std::max(v[0], x); break;
      default: v[i] = x; break;
    }
  }
  // A zero divisor is reported at the divisor, an overflow at the call.
  const auto checked = [&](const kernel::Checked& r) {
    if (r.failed) fail(r.code, r.code == DiagCode::DivisionByZero ? divisor_span : span);
    return r.value;
  };
  switch (fn) {
    case Builtin::SumArgs:
      if (overflow) fail(DiagCode::IntegerOverflow, span);
      return v[0];
    case Builtin::MinArgs:
    case Builtin::MaxArgs: return v[0];
    case Builtin::Abs: return checked(kernel::abs(v[0]));
    case Builtin::Clamp:
      if (v[1] > v[2]) fail(DiagCode::InvalidArgument, span);
      return std::clamp(v[0], v[1], v[2]);
    case Builtin::FloorDiv: return checked(kernel::floor_div(v[0], v[1]));
    case Builtin::CeilDiv: return checked(kernel::ceil_div(v[0], v[1]));
    case Builtin::TruncDiv: return checked(kernel::trunc_div(v[0], v[1]));
    case Builtin::RoundDiv: return checked(kernel::round_div(v[0], v[1]));
    case Builtin::SumFaces:
    case Builtin::Len:
    case Builtin::MinFaces:
    case Builtin::MaxFaces: break;  // above
  }
  return 0;
}

}  // namespace alea::lowered
