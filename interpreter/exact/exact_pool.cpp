// interpreter/exact/exact_pool.cpp — a pool's total without listing its dice.
//
// Each die goes through the operations on its own: DieSteps (exact_die.hpp)
// gives the distribution of what one die adds to the total (its own face and
// those of the dice its explosions add, each through the later operations),
// and the pool's total is the n-fold convolution. With one keep of an end (the
// highest or lowest dice), DieSteps gives each die's face before the keep, and
// keep_dp counts the multisets of faces from the first face kept down.
#include "interpreter/exact/exact_pool.hpp"

#include <algorithm>
#include <map>

#include "interpreter/exact/exact_die.hpp"
#include "interpreter/exact/exact_multiset.hpp"

namespace alea::compose {

bool counts_dice(const std::vector<PoolStep>& steps) {
  return std::any_of(steps.begin(), steps.end(), [](const PoolStep& s) { return s.successes; });
}

std::pair<std::int64_t, std::int64_t> dice_bound(std::int64_t n,
                                                 const std::vector<PoolStep>& steps) {
  // Saturating at 2^40, far above any limit on dice.
  __extension__ using wide = __int128;
  constexpr wide big = wide{1} << 40;
  auto sat = [&](wide x) { return std::min(x, big); };
  wide drawn = sat(n), size = sat(n);
  for (const auto& s : steps) {
    const wide cap = sat(s.cap);
    if (s.draws) {
      drawn = sat(drawn + size * cap);
      if (s.adds_dice) size = sat(size * (1 + cap));
    }
  }
  return {static_cast<std::int64_t>(drawn), static_cast<std::int64_t>(size)};
}

DieSteps::DieSteps(Budget& budget, const DieKind& kind, const std::vector<PoolStep>& steps, std::size_t end,
                   Mode mode)
    : budget_(budget), kind_(kind), steps_(steps), end_(end), mode_(mode) {
  // Counted before they are listed: a die of a million sides may be past the memory allowed.
  budget_.charge_memory(static_cast<std::uint64_t>(kind.face_count()) * sizeof(faces_[0]));
  const auto faces = faces_of(kind);
  faces_.reserve(faces.size());
  for (const auto& [v, w] : faces) faces_.emplace_back(v, Weight(w));
  counts_ = counts_dice(steps);
  if (end < steps.size() && steps[end].score) terminal_score_ = &steps[end];
}

const IntDist& DieSteps::fresh(std::size_t k) {
  if (auto it = fresh_.find(k); it != fresh_.end()) return it->second;
  std::vector<const IntDist*> parts;
  parts.reserve(faces_.size());
  for (const auto& [f, w] : faces_) parts.push_back(&from(k, f));
  IntDist d = mixture(parts);
  charge(d);
  return fresh_.emplace(k, std::move(d)).first->second;
}

const IntDist& DieSteps::from(std::size_t k, std::int64_t face) {
  const auto key = std::make_pair(k, face);
  if (auto it = from_.find(key); it != from_.end()) return it->second;
  IntDist d = compute(k, face);
  charge(d);
  return from_.emplace(key, std::move(d)).first->second;
}

IntDist DieSteps::mixture(const std::vector<const IntDist*>& parts) {
  std::vector<std::pair<Weight, const IntDist*>> p;
  p.reserve(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i) p.emplace_back(faces_[i].second, parts[i]);
  return mix(budget_, p);
}

IntDist DieSteps::compute(std::size_t k, std::int64_t face) {
  if (k == end_) {
    if (mode_ == Mode::Face) return IntDist::point(face);
    return IntDist::point(terminal_score_ ? terminal_score_->score(*terminal_score_, face) : counts_ ? 1 : face);
  }
  const PoolStep& s = steps_[k];
  if (s.face) {
    const std::optional<std::int64_t> f = s.face(s, &kind_, face);
    if (!f) return IntDist::point(mode_ == Mode::Face ? absent_face : 0);
    if (mode_ == Mode::Face && *f == absent_face) not_composable("a face that marks a removed die");
    return from(k + 1, *f);
  }
  if (s.on_die) return s.on_die(*this, k, face);
  not_composable("an operation the per-die computation does not cover");
}

namespace {

// Binomial coefficients C(m, c) for m <= n, row m starting at m(m+1)/2.
template <class W>
std::vector<W> pascal(std::int64_t n) {
  const auto rows = static_cast<std::size_t>(n + 1);
  std::vector<W> c(rows * (rows + 1) / 2, W(1));
  for (std::size_t m = 2; m < rows; ++m) {
    const std::size_t at = m * (m + 1) / 2, above = (m - 1) * m / 2;
    for (std::size_t j = 1; j < m; ++j) c[at + j] = c[above + j - 1] + c[above + j];
  }
  return c;
}

template <class W>
bool zero(const W& w) {
  if constexpr (std::is_same_v<W, Weight>)
    return w.is_zero();
  else
    return w == 0;
}

template <class W>
W as(const Weight& w) {
  if constexpr (std::is_same_v<W, Weight>)
    return w;
  else
    return static_cast<W>(w.small());
}

// Keep (or drop) the first `k` dice of n in the order of `cats` (each die shows
// category i with weight cats[i].first, or is absent with weight `gone`, never
// kept). Returns the sums of what the kept dice add (cats[i].second each).
template <class W>
std::optional<std::vector<std::pair<std::int64_t, W>>> keep_dp(
    Budget& budget, std::int64_t n, const std::vector<std::pair<W, std::int64_t>>& cats,
    const W& gone, std::int64_t k, bool keep) {
  std::int64_t hmin = 0, hmax = 0;
  for (const auto& [p, h] : cats) hmin = std::min(hmin, h), hmax = std::max(hmax, h);
  const std::int64_t most = keep ? k : n;  // dice that can be kept
  const std::int64_t lo = most * hmin, hi = most * hmax;
  const std::int64_t width = hi - lo + 1;
  if (width > (1 << 16)) return std::nullopt;
  const auto N = static_cast<std::size_t>(n);
  const auto K = static_cast<std::size_t>(k);
  const std::size_t qs = K + 1;
  // states[j·qs + q][s - lo]: j dice placed, q of them selected, the kept ones adding s;
  // only [first, last] of a layer can be nonzero.
  std::vector<std::vector<W>> states((N + 1) * qs);
  std::vector<std::size_t> first((N + 1) * qs, SIZE_MAX), last((N + 1) * qs, 0);
  auto add = [&](std::size_t j, std::size_t q, std::size_t si, const W& w) {
    const std::size_t l = j * qs + q;
    auto& v = states[l];
    if (v.empty()) {
      budget.charge_memory(static_cast<std::uint64_t>(width) * sizeof(W));
      v.assign(static_cast<std::size_t>(width), W(0));
    }
    v[si] += w;
    first[l] = std::min(first[l], si);
    last[l] = std::max(last[l], si);
  };
  const auto binomials = pascal<W>(n);
  auto C = [&](std::size_t m, std::size_t c) -> const W& { return binomials[m * (m + 1) / 2 + c]; };
  std::vector<W> out(static_cast<std::size_t>(width), W(0));
  {
    W pw(1);
    for (std::size_t a = 0; a <= N; ++a) {
      if (a > 0) {
        if (zero(gone)) break;
        pw = pw * gone;
      }
      add(a, 0, static_cast<std::size_t>(-lo), C(N, a) * pw);
    }
  }
  std::vector<W> powp(N + 1), powr(N + 1), fin;
  std::vector<bool> fin_done;
  for (std::size_t i = 0; i < cats.size(); ++i) {
    const W p = cats[i].first;
    const std::int64_t h = cats[i].second;
    W rest(0);
    for (std::size_t l = i + 1; l < cats.size(); ++l) rest += cats[l].first;
    powp[0] = W(1), powr[0] = W(1);
    for (std::size_t c = 1; c <= N; ++c) powp[c] = powp[c - 1] * p, powr[c] = powr[c - 1] * rest;
    // (m, need) → the weight of `need` or more of m dice showing this face, the rest lower.
    fin.assign((N + 1) * qs, W(0));
    fin_done.assign((N + 1) * qs, false);
    auto finish = [&](std::size_t m, std::size_t need) -> const W& {
      const std::size_t slot = m * qs + need;
      if (!fin_done[slot]) {
        for (std::size_t c = need; c <= m; ++c) fin[slot] += C(m, c) * powp[c] * powr[m - c];
        fin_done[slot] = true;
      }
      return fin[slot];
    };
    for (std::size_t j = N; j-- > 0;) {
      const std::size_t m = N - j;
      for (std::size_t q = 0; q < (keep ? K : qs); ++q) {
        const std::size_t l = j * qs + q;
        if (states[l].empty()) continue;
        const std::size_t from = first[l], to = last[l];
        budget.charge((to - from + 1) * (m + 1));
        budget.charge_work((weight_cost<W> - 1) * (to - from + 1) * (m + 1));
        // Each choice of c dice showing this face shifts the whole layer by
        // what the kept ones add and scales it by one weight: a loop over
        // the sums per choice, not the choices per sum.
        const W* src = states[l].data();
        for (std::size_t c = 1; c <= m; ++c) {
          std::size_t q2, kept;
          if (keep) {
            if (q + c >= K) break;
            q2 = q + c, kept = c;
          } else {
            const std::size_t sel = std::min(c, K - q);
            q2 = q + sel, kept = c - sel;
          }
          const W coef = C(m, c) * powp[c];
          const std::int64_t shift = static_cast<std::int64_t>(kept) * h;
          const std::size_t l2 = (j + c) * qs + q2;
          auto& dst = states[l2];
          if (dst.empty()) {
            budget.charge_memory(static_cast<std::uint64_t>(width) * sizeof(W));
            dst.assign(static_cast<std::size_t>(width), W(0));
          }
          W* d = dst.data();  // d[si + shift] is the sum si + shift
          for (std::size_t si = from; si <= to; ++si)
            d[static_cast<std::size_t>(static_cast<std::int64_t>(si) + shift)] += src[si] * coef;
          first[l2] = std::min(first[l2], static_cast<std::size_t>(static_cast<std::int64_t>(from) + shift));
          last[l2] = std::max(last[l2], static_cast<std::size_t>(static_cast<std::int64_t>(to) + shift));
        }
        if (keep && m >= K - q) {
          const std::size_t need = K - q;
          const W coef = finish(m, need);
          const std::int64_t shift = static_cast<std::int64_t>(need) * h;
          for (std::size_t si = from; si <= to; ++si)
            out[static_cast<std::size_t>(static_cast<std::int64_t>(si) + shift)] += src[si] * coef;
        }
      }
    }
  }
  for (std::size_t q = 0; q < qs; ++q) {
    const auto& layer = states[N * qs + q];
    for (std::size_t si = 0; si < layer.size(); ++si) out[si] += layer[si];
  }
  std::vector<std::pair<std::int64_t, W>> result;
  for (std::size_t si = 0; si < out.size(); ++si) {
    if (!zero(out[si])) result.emplace_back(static_cast<std::int64_t>(si) + lo, out[si]);
  }
  return result;
}

template <class W>
std::optional<IntDist> run_keep(Budget& budget, std::int64_t n,
                                const std::vector<std::pair<Weight, std::int64_t>>& cats,
                                const Weight& gone, std::int64_t k, bool keep) {
  std::vector<std::pair<W, std::int64_t>> c;
  for (const auto& [p, h] : cats) c.emplace_back(as<W>(p), h);
  auto r = keep_dp<W>(budget, n, c, as<W>(gone), k, keep);
  if (!r) return std::nullopt;
  IntDist d;
  for (const auto& [s, w] : *r) {
    if constexpr (std::is_same_v<W, Weight>)
      d.entries.emplace_back(s, w);
    else
      d.entries.emplace_back(s, Weight::from_u128(static_cast<u128>(w)));
  }
  return d;
}

// What a kept die showing `face` adds, through the steps after the keep (each
// decides by the face alone, the last may score).
std::int64_t after_keep(const DieKind& kind, const std::vector<PoolStep>& steps, std::size_t from,
                        bool counts, std::int64_t face) {
  for (std::size_t i = from; i < steps.size(); ++i) {
    const PoolStep& s = steps[i];
    if (s.score) return s.score(s, face);
    const std::optional<std::int64_t> f = s.face(s, &kind, face);
    if (!f) return 0;
    face = *f;
  }
  return counts ? 1 : face;
}

// Whether a step decides each die alone by its face, or ends the pool with a number.
bool by_face(const PoolStep& s) { return s.face || s.score; }

// Whether a step can be followed one die at a time; one that adds dice to the
// pool only when no keep follows.
bool per_die(const PoolStep& s, bool adds_dice_ok) {
  return s.face || (s.on_die && (adds_dice_ok || !s.adds_dice));
}

}  // namespace

std::optional<IntDist> counted_total(Budget& budget, const DieKind& kind, std::int64_t n,
                                     const std::vector<PoolStep>& steps) {
  if (kind.min_face() == absent_face) return std::nullopt;
  std::optional<std::size_t> keep_at;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const PoolStep& s = steps[i];
    if (s.score && i + 1 != steps.size()) return std::nullopt;
    if (s.keep_end) {
      if (keep_at) return std::nullopt;
      keep_at = i;
    }
    if (s.endless_if_always && s.test.always(kind))
      not_composable("every face would explode or be rerolled: the evaluator stops it");
  }
  const std::size_t score_end = !steps.empty() && steps.back().score ? steps.size() - 1 : steps.size();
  const bool counts = counts_dice(steps);
  if (steps.empty() && kind.is_plain()) {
    // A plain roll: faces 1..F, each once.
    IntDist die;
    die.total = Weight(static_cast<std::uint64_t>(kind.face_count()));
    for (std::int64_t f = 1; f <= kind.max_face(); ++f) die.entries.emplace_back(f, Weight(1));
    return power(budget, die, static_cast<std::uint64_t>(n));
  }
  if (!keep_at && std::all_of(steps.begin(), steps.end(), by_face)) {
    // Each face becomes one number, whatever the other dice show.
    std::map<std::int64_t, std::uint64_t> m;
    for (std::int64_t i = 0; i < kind.face_count(); ++i)
      ++m[after_keep(kind, steps, 0, counts, kind.face(i))];
    IntDist die;
    die.total = Weight(static_cast<std::uint64_t>(kind.face_count()));
    for (const auto& [v, w] : m) die.entries.emplace_back(v, Weight(w));
    return power(budget, die, static_cast<std::uint64_t>(n));
  }
  if (!keep_at) {
    for (std::size_t i = 0; i < score_end; ++i) {
      if (!per_die(steps[i], true)) return std::nullopt;
    }
    DieSteps p(budget, kind, steps, score_end, DieSteps::Mode::Contribution);
    return power(budget, p.fresh(0), static_cast<std::uint64_t>(n));
  }
  for (std::size_t i = 0; i < *keep_at; ++i) {
    if (!per_die(steps[i], false)) return std::nullopt;
  }
  if (!std::all_of(steps.begin() + static_cast<std::ptrdiff_t>(*keep_at) + 1, steps.end(), by_face))
    return std::nullopt;
  const PoolStep::KeepEnd& keep = *steps[*keep_at].keep_end;
  IntDist die;
  if (*keep_at == 0) {
    // Kept straight from the roll: each distinct face with the sides showing it.
    die.total = Weight(static_cast<std::uint64_t>(kind.face_count()));
    if (kind.is_plain()) {
      for (std::int64_t f = 1; f <= kind.max_face(); ++f) die.entries.emplace_back(f, Weight(1));
    } else {
      std::map<std::int64_t, std::uint64_t> m;
      for (std::int64_t i = 0; i < kind.face_count(); ++i) ++m[kind.face(i)];
      for (const auto& [v, w] : m) die.entries.emplace_back(v, Weight(w));
    }
  } else {
    DieSteps p(budget, kind, steps, *keep_at, DieSteps::Mode::Face);
    die = p.fresh(0);  // a copy: p goes
  }
  if (!die.fail.cut.is_zero() && !die.fail.err.is_zero()) {
    not_composable("a die may be cut off or fail, and which comes first depends on the other dice");
  }
  Weight gone = 0;
  std::vector<std::pair<Weight, std::int64_t>> cats;
  for (const auto& [face, w] : die.entries) {
    if (face == absent_face)
      gone = w;
    else
      cats.emplace_back(w, after_keep(kind, steps, *keep_at + 1, counts, face));
  }
  // Faces ascending; keeping the highest takes them from the top.
  if (keep.highest) std::reverse(cats.begin(), cats.end());
  std::int64_t k = keep.count;
  bool keeping = !keep.drop;
  if (keep.drop && gone.is_zero()) {
    // Dropping the first k of n is keeping the last n - k.
    k = std::max<std::int64_t>(0, n - k);
    keeping = true;
    std::reverse(cats.begin(), cats.end());
  }
  if (keeping && k == 0) {
    // Nothing is kept: the total of an empty pool.
    IntDist none;
    none.entries.emplace_back(0, die.ok().pow(static_cast<std::uint64_t>(n)));
    none.total = die.total.pow(static_cast<std::uint64_t>(n));
    const Weight failed = none.total - none.entries[0].second;
    if (!die.fail.cut.is_zero()) none.fail.cut = failed;
    if (!die.fail.err.is_zero()) none.fail.err = failed, none.fail.error = die.fail.error;
    if (none.entries[0].second.is_zero()) none.entries.clear();
    return none;
  }
  if (keeping && k >= n) {
    // Every die is kept: the total is a sum of independent dice.
    IntDist each;
    each.total = die.total;
    each.fail = die.fail;
    if (!gone.is_zero()) each.entries.emplace_back(0, gone);
    for (const auto& [w, h] : cats) each.entries.emplace_back(h, w);
    std::sort(each.entries.begin(), each.entries.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    IntDist merged = map_values(each, [](std::int64_t v) { return v; });
    return power(budget, merged, static_cast<std::uint64_t>(n));
  }
  if (n > 300) return std::nullopt;
  const Weight ok = die.ok();
  const Weight bound =
      die.total.pow(static_cast<std::uint64_t>(n)) * Weight(2).pow(static_cast<std::uint64_t>(n));
  std::optional<IntDist> r;
  if (bound.is_small() && (bound.small() >> 64) == 0)
    r = run_keep<std::uint64_t>(budget, n, cats, gone, k, keeping);
  else if (bound.is_small())
    r = run_keep<u128>(budget, n, cats, gone, k, keeping);
  else
    r = run_keep<Weight>(budget, n, cats, gone, k, keeping);
  if (!r) return std::nullopt;
  r->total = die.total.pow(static_cast<std::uint64_t>(n));
  const Weight failed = r->total - ok.pow(static_cast<std::uint64_t>(n));
  if (!die.fail.cut.is_zero()) r->fail.cut = failed;
  if (!die.fail.err.is_zero()) {
    r->fail.err = failed;
    r->fail.error = die.fail.error;
  }
  return r;
}

}  // namespace alea::compose
