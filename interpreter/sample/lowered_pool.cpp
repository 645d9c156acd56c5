// interpreter/sample/lowered_pool.cpp — the arena of a lowered program's pools, and
// its rolls. The pool operations' nodes are in interpreter/ops/<family>.cpp.
#include <algorithm>

#include "interpreter/ops/sample_support.hpp"

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

// A roll's faces for a node that uses them at once: drawn into `local` when
// they fit, else into the arena (DiceNode::eval, for a roll whose total needs
// no check); or the pool of any other node.
const std::int64_t* faces_of(Run& run, const DiceNode* dice, const Pool& pool, std::int64_t* local, PoolRef& in) {
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

}  // namespace alea::lowered
