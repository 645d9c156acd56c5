// interpreter/sample/lowered_pool.cpp — dice and pool operations of a lowered program.
//
// Each mirrors its counterpart in eval_pool.cpp: sub-expressions in the same
// order, the same rounds of extra dice drawn as the same pools, the same checks
// in the same order. Only the trace is left out, and a pool that no one else
// holds is changed in place.
#include <algorithm>
#include <bit>

#include "interpreter/sample/lowered_nodes.hpp"

namespace alea::lowered {

void fail(DiagCode code, Span span) { throw Fail{code, span}; }

FaceList::FaceList(std::vector<std::int64_t> f) : faces(std::move(f)) {
  min = *std::min_element(faces.begin(), faces.end());
  max = *std::max_element(faces.begin(), faces.end());
  std::vector<std::int64_t> s = faces;
  std::sort(s.begin(), s.end());
  distinct = std::unique(s.begin(), s.end()) - s.begin();
}

void Run::grow(std::size_t n) {
  if (top + n > UINT32_MAX) throw Bail{};
  arena.resize(std::max<std::size_t>(top + n, 2 * arena.size()));
}

PoolRef Run::to_top(const PoolRef& p, std::size_t room) {
  PoolRef out = p;
  out.begin = alloc(p.size + room);
  top -= room;
  std::copy_n(at(p.begin), p.size, at(out.begin));
  return out;
}

void check_total(Run& run, const PoolRef& p, Span span) {
  if (p.successes) return;  // its total is its size
  const std::int64_t* f = run.at(p.begin);
  std::int64_t sum = 0;
  for (std::uint32_t i = 0; i < p.size; ++i) {
    if (__builtin_add_overflow(sum, f[i], &sum)) {
      fail(DiagCode::IntegerOverflow, span);
    }
  }
}

namespace {

// A die's test, with its value computed: `cond` or, without one, the die's
// highest (or lowest) face.
struct Test {
  ast::CmpOp op = ast::CmpOp::Eq;
  std::int64_t value = 0;
  Range range{op, value};
  bool operator()(std::int64_t face) const { return range(face); }
  // True when every face of `k` passes (kernel::DieTest::always).
  bool always(const Kind& k) const {
    if (k.sides > 0) return kernel::every_face_passes(op, value, k.sides);
    return std::all_of(k.list->faces.begin(), k.list->faces.end(), [&](std::int64_t f) { return (*this)(f); });
  }
};

Test make_test(Run& run, const CondNode* cond, const Kind& k, bool highest) {
  if (cond) {
    const std::int64_t v = cond->eval(run);
    return {cond->op, v, Range(cond->op, v)};
  }
  const std::int64_t v = highest ? k.max_face() : k.min_face();
  return {ast::CmpOp::Eq, v, Range(ast::CmpOp::Eq, v)};
}

// A roll's faces for a node that uses them at once: drawn into `local` when
// they fit, else into the arena (DiceNode::eval, for a roll whose total needs
// no check); or the pool of any other node.
const std::int64_t* faces_of(Run& run, const DiceNode* dice, const Pool& pool, std::int64_t* local,
                             PoolRef& in) {
  if (!dice) {
    in = pool.eval(run);
    return run.at(in.begin);
  }
  in.size = static_cast<std::uint32_t>(dice->spec.prepare(run, in.kind));
  if (in.size <= 64) {
    run.draw(run.kind(in.kind), in.size, local);
    return local;
  }
  in.begin = run.alloc(in.size);
  run.draw(run.kind(in.kind), in.size, run.at(in.begin));
  return run.at(in.begin);
}

}  // namespace

PoolRef DiceNode::eval(Run& run) const {
  PoolRef p;
  const std::int64_t n = spec.prepare(run, p.kind);
  p.size = static_cast<std::uint32_t>(n);
  p.begin = run.alloc(p.size);
  run.draw(run.kind(p.kind), p.size, run.at(p.begin));
  if (check) check_total(run, p, spec.span);
  return p;
}

std::int64_t DiceTotalNode::eval(Run& run) const {
  std::int32_t code = 0;
  const auto n = static_cast<std::size_t>(dice->spec.prepare(run, code));
  const Kind k = run.kind(code);
  std::int64_t sum = 0;
  if (k.sides > 0 && !dice->check) {
    // At most max_dice faces of at most max_sides each: the sum fits.
    run.dice->each_below(static_cast<std::uint64_t>(k.sides), n,
                         [&sum](std::size_t, std::uint64_t x) { sum += static_cast<std::int64_t>(x); });
    return sum + static_cast<std::int64_t>(n);
  }
  // Every face drawn, then the total checked, as the evaluator draws the pool and then makes it.
  bool overflow = false;
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t f = 0;
    run.draw(k, 1, &f);
    overflow |= __builtin_add_overflow(sum, f, &sum);
  }
  if (overflow) fail(DiagCode::IntegerOverflow, dice->spec.span);
  return sum;
}

PoolRef ExplodeNode::eval(Run& run) const {
  const PoolRef in = pool->eval(run);
  const Kind kind = run.kind(in.kind);
  const Test t = make_test(run, cond.get(), kind, true);
  const std::int64_t limit_value = limit ? limit->eval(run) : 0;
  const bool explicit_limit = limit && !limit_none;
  const std::int64_t cap = explicit_limit ? limit_value : run.limits->max_explosion_depth;
  if (cap < 0) fail(DiagCode::InvalidArgument, limit_span);
  // At the top of the arena, so that new dice can follow it.
  PoolRef out = pool->fresh && in.begin + in.size == run.top ? in : run.to_top(in, 0);
  auto& active = run.active;
  active.clear();
  for (std::uint32_t i = 0; i < out.size; ++i) {
    if (t(run.arena[out.begin + i])) active.push_back(i);
  }
  if (!explicit_limit && out.size > 0 && t.always(kind)) fail(DiagCode::NeverStops, span);
  for (std::int64_t round = 0; !active.empty(); ++round) {
    if (round == cap) {
      if (explicit_limit) break;
      fail(DiagCode::ExplosionLimitExceeded, span);
    }
    const std::size_t n = active.size();
    run.count_dice(static_cast<std::int64_t>(n), span);
    auto& next = run.next;
    next.clear();
    if (mode == ast::ExplodeMode::Compound) {
      run.drawn.resize(n);
      run.draw(kind, n, run.drawn.data());
      std::int64_t* faces = run.at(out.begin);
      for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t f = run.drawn[i];
        if (__builtin_add_overflow(faces[active[i]], f, &faces[active[i]])) fail(DiagCode::IntegerOverflow, span);
        if (t(f)) next.push_back(active[i]);
      }
    } else {
      // The new dice go at the end of the pool, in the order of the dice that exploded.
      const std::uint32_t at = run.alloc(n) - out.begin;
      std::int64_t* faces = run.at(out.begin);
      run.draw(kind, n, faces + at);
      for (std::uint32_t i = 0; i < n; ++i) {
        const std::int64_t f = faces[at + i];
        if (mode == ast::ExplodeMode::Penetrate && __builtin_sub_overflow(f, 1, &faces[at + i])) {
          fail(DiagCode::IntegerOverflow, span);
        }
        if (t(f)) next.push_back(at + i);
      }
      out.size += static_cast<std::uint32_t>(n);
    }
    std::swap(active, next);
  }
  return finish(run, out);
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
  const std::int64_t less = x.mode == ast::ExplodeMode::Penetrate ? 1 : 0;
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
  return in.size + (x.mode == ast::ExplodeMode::Compound ? 0 : added);
}

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

namespace {

// Whether face a comes before face b, best first.
template <bool Highest>
bool better(std::int64_t a, std::int64_t b) {
  return Highest ? a > b : a < b;
}

// The n best of the m faces at f, as a stable sort best first would choose
// them (equal faces in the order rolled), as a mask. 0 < n < m <= 64. Picks
// the n best one at a time (the earliest of equal faces first), or, when fewer
// are left out, the m - n worst (the latest of equal faces first).
template <bool Highest>
[[gnu::always_inline]] inline std::uint64_t choose_few(const std::int64_t* f, std::uint32_t m, std::int64_t n) {
  const auto all = m == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << m) - 1;
  if (n <= static_cast<std::int64_t>(m) - n) {
    std::uint64_t chosen = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      std::uint32_t best = 0;
      bool found = false;
      for (std::uint32_t j = 0; j < m; ++j) {
        const bool take = !(chosen >> j & 1) && (!found || better<Highest>(f[j], f[best]));
        best = take ? j : best;
        found |= take;
      }
      chosen |= std::uint64_t{1} << best;
    }
    return chosen;
  }
  std::uint64_t out = 0;
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(m) - n; ++k) {
    std::uint32_t worst = 0;
    bool found = false;
    for (std::uint32_t j = 0; j < m; ++j) {
      const bool take = !(out >> j & 1) && (!found || !better<Highest>(f[j], f[worst]));
      worst = take ? j : worst;
      found |= take;
    }
    out |= std::uint64_t{1} << worst;
  }
  return all & ~out;
}

// The same for large pools: the n-th best face, how many dice beat it, and so
// how many equal to it are chosen (the first ones). Moves the faces that stay
// to the front, in order; returns how many stay. 0 < n < m.
template <bool Highest>
std::uint32_t keep_many(Run& run, std::int64_t* f, std::uint32_t m, std::int64_t n, bool drop) {
  auto& s = run.sorted;
  s.assign(f, f + m);
  std::nth_element(s.begin(), s.begin() + (n - 1), s.end(), better<Highest>);
  const std::int64_t edge = s[static_cast<std::size_t>(n - 1)];
  std::int64_t ties = n - std::count_if(f, f + m, [&](std::int64_t x) { return better<Highest>(x, edge); });
  std::uint32_t w = 0;
  for (std::uint32_t i = 0; i < m; ++i) {
    bool chosen = better<Highest>(f[i], edge);
    if (!chosen && f[i] == edge && ties > 0) {
      chosen = true;
      --ties;
    }
    if (chosen != drop) f[w++] = f[i];
  }
  return w;
}

}  // namespace

PoolRef KeepNode::eval(Run& run) const {
  const PoolRef in = pool->eval(run);
  if (which == ast::KeepWhich::Matching) {
    const Test t = make_test(run, cond.get(), run.kind(in.kind), true);
    PoolRef out = own(run, in);
    std::int64_t* f = run.at(out.begin);
    std::uint32_t w = 0;
    for (std::uint32_t i = 0; i < out.size; ++i) {
      if (t(f[i]) != drop) f[w++] = f[i];
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
  const std::uint32_t m = out.size;
  const bool highest = which == ast::KeepWhich::Highest;
  std::uint32_t w = 0;
  if (n >= m) {
    w = drop ? 0 : m;
  } else if (n == 0) {
    w = drop ? m : 0;
  } else if (m <= 64) {
    const std::uint64_t chosen = highest ? choose_few<true>(f, m, n) : choose_few<false>(f, m, n);
    const std::uint64_t stays = drop ? ~chosen : chosen;
    for (std::uint32_t i = 0; i < m; ++i) {
      f[w] = f[i];
      w += static_cast<std::uint32_t>(stays >> i & 1);
    }
  } else {
    w = highest ? keep_many<true>(run, f, m, n, drop) : keep_many<false>(run, f, m, n, drop);
  }
  out.size = w;
  return finish(run, out);
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
    const bool highest_stay = (k.which == ast::KeepWhich::Highest) != k.drop;
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
    const std::uint64_t chosen = k.which == ast::KeepWhich::Highest ? choose_few<true>(f, m, n) : choose_few<false>(f, m, n);
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
    if (f[i] <= t && !(has_except && not_counted(f[i]))) f[w++] = f[i];
  }
  out.size = w;
  out.successes = true;
  return out;  // a success pool's total is its size: nothing to check
}

PoolRef SortNode::eval(Run& run) const {
  const PoolRef in = pool->eval(run);
  const PoolRef out = own(run, in);
  std::int64_t* f = run.at(out.begin);
  if (descending) std::stable_sort(f, f + out.size, std::greater<>());
  else std::stable_sort(f, f + out.size);
  return out;  // the same faces: the same total
}

PoolRef UniqueNode::eval(Run& run) const {
  const PoolRef in = pool->eval(run);
  const PoolRef out = own(run, in);
  auto& dupes = run.active;
  for (std::int64_t round = 0;; ++round) {
    const std::int64_t* f = run.at(out.begin);
    dupes.clear();
    for (std::uint32_t i = 0; i < out.size; ++i) {
      if (std::find(f, f + i, f[i]) != f + i) dupes.push_back(i);
    }
    if (dupes.empty()) break;
    if (static_cast<std::int64_t>(out.size) > run.kind(out.kind).distinct()) fail(DiagCode::NeverStops, span);
    if (round == run.limits->max_rerolls) fail(DiagCode::RerollLimitExceeded, span);
    const std::size_t n = dupes.size();
    run.count_dice(static_cast<std::int64_t>(n), span);
    run.drawn.resize(n);
    run.draw(run.kind(out.kind), n, run.drawn.data());
    std::int64_t* faces = run.at(out.begin);
    for (std::size_t i = 0; i < n; ++i) faces[dupes[i]] = run.drawn[i];
  }
  return finish(run, out);
}

PoolRef ClampNode::eval(Run& run) const {
  const PoolRef in = pool->eval(run);
  const std::int64_t lo = low ? low->eval(run) : INT64_MIN;
  const std::int64_t hi = high ? high->eval(run) : INT64_MAX;
  if (lo > hi) fail(DiagCode::InvalidArgument, span);
  const PoolRef out = own(run, in);
  std::int64_t* f = run.at(out.begin);
  for (std::uint32_t i = 0; i < out.size; ++i) f[i] = std::clamp(f[i], lo, hi);
  return finish(run, out);
}

}  // namespace alea::lowered
