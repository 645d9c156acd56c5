// interpreter/ops/keep.cpp — keep and drop: the highest or lowest N (`kh3`,
// `dl`, `keep highest 3`), or the dice that match a condition (`keep >=5`).
//
// Of equal faces the one rolled first counts as the higher (and as the lower):
// the choice a stable sort, best first, would make. `drop …` removes exactly
// what `keep …` would keep. N is 1 when not written, and may not be negative;
// more than the pool holds keeps them all.
#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "interpreter/ops/keep.hpp"

#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/exact_support.hpp"
#include "interpreter/ops/ops.hpp"
#include "interpreter/ops/sample_support.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea::ops::keep {

namespace {

// The six rows: which dice are chosen, and whether they stay or go.
enum class Which { Highest, Lowest, Matching };
struct Mode {
  Which which;
  bool drop;
};
Mode mode_of(PoolOpId id) {
  using enum PoolOpId;
  const Which which = id == KeepHighest || id == DropHighest ? Which::Highest
                      : id == KeepLowest || id == DropLowest ? Which::Lowest
                                                             : Which::Matching;
  return {which, id == DropHighest || id == DropLowest || id == DropMatching};
}

// The parameter of each shape: a count, or a condition; each the only one.
constexpr std::size_t count_param = param::KeepHighest::count;
constexpr std::size_t cond_param = param::KeepMatching::cond;
static_assert(count_param == +param::KeepLowest::count && count_param == +param::DropHighest::count &&
              count_param == +param::DropLowest::count && cond_param == +param::DropMatching::cond);

}  // namespace

// --- the evaluator ------------------------------------------------------------

Value eval(PoolEval& ev, const ast::PoolOp& op, PoolData out) {
  const Mode m = mode_of(op.id);
  PoolData result;
  result.successes = out.successes;
  result.groups = out.groups;
  result.dice.reserve(out.dice.size());
  const auto place = [&](std::size_t i, bool chosen) {
    if (stays(chosen, m.drop)) {
      result.dice.push_back(out.dice[i]);
    } else {
      ev.remove(out.dice[i].id, DieFate::Dropped);
    }
  };
  if (m.which == Which::Matching) {
    const DieTest t = ev.test(cond_param, true);
    for (std::size_t i = 0; i < out.dice.size(); ++i) place(i, t(ev.kind_of(out.dice[i].id), out.dice[i].face));
  } else {
    const std::int64_t n = op.arg(count_param) ? ev.number(count_param, "the number of dice to keep or drop") : 1;
    if (n < 0) ev.fail_at(DiagCode::InvalidArgument, count_param, fmt::format("cannot keep or drop {} dice", n));
    std::vector<std::int64_t> faces(out.dice.size()), sorted;
    for (std::size_t i = 0; i < faces.size(); ++i) faces[i] = out.dice[i].face;
    choose(faces.data(), faces.size(), n, m.which == Which::Highest, sorted, place);
  }
  return ev.finish(std::move(result));
}

// --- the exact engine -----------------------------------------------------------

namespace {

// Keeping an end of one multiset: its dice are ascending, so the highest k are the last k.
compose::Dist end_on_pools(compose::StepOnPool& cx) {
  if (!cx.one_kind()) compose::not_composable("keeping from a pool of several kinds of dice");
  const compose::PoolStep::KeepEnd& e = *cx.step.keep_end;
  const auto& dice = cx.pool.dice;
  const auto n = static_cast<std::int64_t>(dice.size());
  const std::int64_t k = std::min(e.count, n);
  std::vector<PoolDie> out;
  for (std::int64_t i = 0; i < n; ++i) {
    const bool selected = e.highest ? i >= n - k : i < k;
    if (stays(selected, e.drop)) out.push_back(dice[static_cast<std::size_t>(i)]);
  }
  return compose::Dist::point(compose::make_sorted_pool(std::move(out), cx.pool.successes));
}

}  // namespace

void exact(const ast::PoolOp& op, const Value* p, const Limits&, compose::PoolStep& s) {
  const Mode m = mode_of(op.id);
  s.drop = m.drop;
  if (m.which == Which::Matching) {
    s.test = exact_test(op, cond_param, p, true);
    s.face = [](const compose::PoolStep& c, const DieKind* kind, std::int64_t f) -> std::optional<std::int64_t> {
      if (!stays(compose::passes(c.test, kind, f), c.drop)) return std::nullopt;
      return f;
    };
  } else {
    const std::int64_t count = op.arg(count_param) ? compose::to_int(p[count_param]) : 1;
    if (count < 0) compose::not_composable("keeping a negative number of dice");
    s.keep_end = compose::PoolStep::KeepEnd{count, m.which == Which::Highest, m.drop};
    s.on_pools = &end_on_pools;
  }
}

// --- the sampler ----------------------------------------------------------------

namespace {

using namespace lowered;

struct KeepNode final : PoolOpNode {
  bool drop = false;
  Which which = Which::Highest;
  ScalarPtr count;  // Highest/Lowest; null: count_value
  std::int64_t count_value = 1;
  Span count_span;
  std::unique_ptr<CondNode> cond;  // Matching
  PoolRef eval(Run& run) const override;
  ScalarPtr as_total(lowered::PoolPtr& self) const override;
  // Highest/Lowest: the pool `in` with its n best dice kept (or dropped).
  PoolRef apply(Run& run, const PoolRef& in, std::int64_t n) const;
};

// `keep highest` (lowest, drop …) used straight away as a number: the total of
// the dice that stay, without moving them. Only when that total needs no check.
struct KeepTotalNode final : Scalar {
  std::unique_ptr<const KeepNode> keep;  // Highest or Lowest
  const DiceNode* dice = nullptr;        // keep->pool, when a roll whose total needs no check
  std::int64_t eval(Run& run) const override;
};

PoolRef KeepNode::eval(Run& run) const {
  const PoolRef in = pool->eval(run);
  if (which == Which::Matching) {
    const Test t = make_test(run, cond.get(), run.kind(in.kind), true);
    PoolRef out = own(run, in);
    std::int64_t* f = run.at(out.begin);
    std::uint32_t w = 0;
    for (std::uint32_t i = 0; i < out.size; ++i) {
      if (stays(t(f[i]), drop)) f[w++] = f[i];
    }
    out.size = w;
    return finish(run, out);
  }
  const std::int64_t n = count ? count->eval(run) : count_value;
  if (n < 0) fail(DiagCode::InvalidArgument, count_span);
  return apply(run, in, n);
}

// Dice in, the kept ones out (in place when the pool is fresh).
PoolRef KeepNode::apply(Run& run, const PoolRef& in, std::int64_t n) const {
  PoolRef out = own(run, in);
  std::int64_t* f = run.at(out.begin);
  std::uint32_t w = 0;
  choose(f, out.size, n, which == Which::Highest, run.sorted, [&](std::size_t i, bool chosen) {
    f[w] = f[i];
    w += static_cast<std::uint32_t>(stays(chosen, drop));
  });
  out.size = w;
  return finish(run, out);
}

ScalarPtr KeepNode::as_total(lowered::PoolPtr& self) const {
  if (which == Which::Matching || check) return nullptr;
  auto total = std::make_unique<KeepTotalNode>();
  total->keep.reset(static_cast<const KeepNode*>(self.release()));
  const auto* d = dynamic_cast<const DiceNode*>(total->keep->pool.get());
  if (d && !d->check) total->dice = d;
  return total;
}

std::int64_t KeepTotalNode::eval(Run& run) const {
  const KeepNode& k = *keep;
  std::int64_t local[64];
  PoolRef in;
  const std::int64_t* f = faces_of(run, dice, *k.pool, local, in);
  const std::int64_t n = k.count ? k.count->eval(run) : k.count_value;
  if (n < 0) fail(DiagCode::InvalidArgument, k.count_span);
  const std::uint32_t m = in.size;
  if (f != local) f = run.at(in.begin);  // the count may have grown the arena
  if (n > 0 && n < m && !in.successes) {
    // A total does not depend on which of equal dice stays: when one die goes
    // (4d6kh3) or one stays (2d20kh1), a minimum or a maximum gives it.
    const bool highest_stay = (k.which == Which::Highest) != k.drop;
    const std::int64_t staying = k.drop ? static_cast<std::int64_t>(m) - n : n;
    if (staying == 1 || staying + 1 == static_cast<std::int64_t>(m)) {
      std::int64_t sum = f[0], lo = f[0], hi = f[0];  // safe: k.check is false
      for (std::uint32_t i = 1; i < m; ++i) {
        sum += f[i];
        lo = std::min(lo, f[i]);
        hi = std::max(hi, f[i]);
      }
      if (staying == 1) return highest_stay ? hi : lo;
      return sum - (highest_stay ? lo : hi);
    }
  }
  if (n > 0 && n < m && m <= 64) {
    // The total of the dice that stay, without moving them.
    const std::uint64_t chosen = k.which == Which::Highest ? choose_few<true>(f, m, n) : choose_few<false>(f, m, n);
    const std::uint64_t stays = k.drop ? ~chosen : chosen;
    if (in.successes) return std::popcount(stays & ((m == 64 ? 0 : std::uint64_t{1} << m) - 1));
    std::int64_t sum = 0;  // safe: k.check is false
    for (std::uint32_t i = 0; i < m; ++i) sum += f[i] & -static_cast<std::int64_t>(stays >> i & 1);
    return sum;
  }
  if (f == local) {
    in.begin = run.alloc(m);  // the general case wants the pool in the arena
    std::copy_n(f, m, run.at(in.begin));
  }
  const PoolRef out = k.apply(run, in, n);
  if (out.successes) return out.size;
  std::int64_t sum = 0;
  for (std::uint32_t i = 0; i < out.size; ++i) sum += run.arena[out.begin + i];
  return sum;
}

}  // namespace

void lower(LowerOp& cx, const ast::PoolOp& op) {
  const Mode m = mode_of(op.id);
  auto n = std::make_unique<KeepNode>();
  n->drop = m.drop;
  n->which = m.which;
  if (m.which == Which::Matching) {
    n->cond = cx.cond(cond_param);
    if (!n->cond) cx.unsupported("'keep' without its condition");
  } else if (op.arg(count_param)) {
    n->count = cx.number(count_param);
    n->count_span = op.arg(count_param)->span;
    if (const auto* fixed = dynamic_cast<const ConstNode*>(n->count.get())) {
      n->count_value = fixed->value;  // a negative count still fails at run time
      n->count.reset();
    }
  }
  cx.give_pool(std::move(n), cx.bound());
}

}  // namespace alea::ops::keep
