// interpreter/exact/exact_intdist.cpp — convolutions of integer distributions.
//
// Sums of dice are convolutions over a dense array of weights when the values
// span a small range (always, for ordinary dice). Every weight of a
// convolution is at most the product of the totals, so the arithmetic runs on
// the narrowest type that holds that product, chosen once (with_width): plain
// 64- or 128-bit integers, inline limbs up to 512 bits, else GMP integers
// changed in place; never on a Weight per cell.
#include "interpreter/exact/exact_intdist.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "interpreter/exact/exact_limbs.hpp"

namespace alea::compose {
namespace {

constexpr std::int64_t max_dense_width = 1 << 22;
// Work units of one pair of a sparse convolution (a tree insertion, about 100 ns) beyond its branch.
constexpr std::uint64_t sparse_pair_work = 32;

// The convolution of dense weights, whose every sum stays within `bits` bits.
// Its cells are work; only the result's weights are outcomes (branches).
template <class W>
std::vector<W> conv(Budget& budget, const std::vector<W>& a, const std::vector<W>& b, std::size_t bits) {
  const std::uint64_t out_size = a.size() + b.size() - 1;
  budget.charge(out_size);
  budget.charge_work(limb_cost<W>(bits) * a.size() * b.size());
  budget.charge_memory(out_size * (sizeof(W) + (std::is_same_v<W, mpz_class> ? bits / 8 : 0)));
  std::vector<W> out(out_size, W(0));
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (weight_is_zero(a[i])) continue;
    W* o = out.data() + i;
    for (std::size_t j = 0; j < b.size(); ++j) add_product(o[j], a[i], b[j]);
  }
  return out;
}

// The n-fold convolution of the dense weights `a` (n >= 1), by squaring.
template <class W>
std::vector<W> conv_power(Budget& budget, std::vector<W> a, std::uint64_t n, std::size_t bits) {
  std::vector<W> result;
  bool have = false;
  for (;;) {
    if (n & 1) {
      result = have ? conv(budget, result, a, bits) : a;
      have = true;
    }
    n >>= 1;
    if (!n) break;
    a = conv(budget, a, a, bits);
  }
  return result;
}

// The number of ways n dice, each showing one of `faces` consecutive values
// with equal weight, reach each total: a sliding window sum per die, F times
// cheaper than a convolution. Every row is symmetric (as many ways to reach
// the lowest total plus s as the highest minus s), so only its lower half is
// computed, reading the upper half's cells as their mirror images.
//
// The last row holds the outcomes (branches); the rows before it are work, all
// known before starting: each cell is an addition and a subtraction of the
// limbs its weights take (F^die bits).
struct UniformSums {
  std::size_t faces;
  std::uint64_t n;
  std::uint64_t out_size = n * (faces - 1) + 1;
  double bits_per_die = std::log2(static_cast<double>(faces));

  // 64-bit limbs that hold every weight of the row of `dice` dice (at most
  // F^dice), with a bit to spare for the rounding of the logarithm.
  [[nodiscard]] std::size_t limbs(std::uint64_t dice) const {
    return static_cast<std::size_t>(bits_per_die * static_cast<double>(dice) + 2) / 64 + 1;
  }
  [[nodiscard]] static std::size_t half(std::uint64_t size) { return static_cast<std::size_t>((size - 1) / 2 + 1); }
  // Checks the work and memory of the whole program against the budget.
  void expect(Budget& budget, bool by_limbs, std::uint64_t cell_bytes) const {
    std::uint64_t work = 0;
    for (std::uint64_t die = 1; die <= n && work <= budget.max_work; ++die) {
      work += 2 * half(die * (faces - 1) + 1) * (by_limbs ? limbs(die) : 1);
    }
    budget.expect(out_size, work, 2 * half(out_size) * cell_bytes);
  }
};

// On machine integers W (64 or 128 bits), which the caller's bound fits.
template <class W>
std::vector<W> uniform_power(Budget& budget, std::size_t faces, std::uint64_t n) {
  const UniformSums u{faces, n};
  u.expect(budget, false, sizeof(W));
  std::vector<W> ways{W(1)}, next;
  ways.reserve(u.out_size);
  next.reserve(UniformSums::half(u.out_size));
  std::size_t size = 1;  // of the row in `ways`, whose lower half it holds
  for (std::uint64_t die = 0; die < n; ++die) {
    const std::size_t next_size = size + faces - 1;
    next.resize(UniformSums::half(next_size));  // every element is written below
    budget.charge_work(2 * next.size());
    W window(0);
    for (std::size_t s = 0; s < next.size(); ++s) {
      if (s < size) window += ways[std::min(s, size - 1 - s)];
      if (s >= faces) window -= ways[std::min(s - faces, size - 1 - (s - faces))];
      next[s] = window;
    }
    ways.swap(next);
    size = next_size;
  }
  const std::size_t half = ways.size();
  ways.resize(size);
  for (std::size_t s = half; s < size; ++s) ways[s] = ways[size - 1 - s];
  budget.charge(u.out_size);
  return ways;
}

// The same past 128 bits, on rows of limbs: each cell at the stride of the
// last row's limbs, and row k's cells added and subtracted on its own limbs
// alone (GMP's mpn functions), so early rows cost as little as their weights.
IntDist uniform_power_wide(Budget& budget, std::size_t faces, std::uint64_t n, std::int64_t lo) {
  const UniformSums u{faces, n};
  const std::size_t stride = u.limbs(n);
  u.expect(budget, true, stride * sizeof(mp_limb_t));
  const std::size_t cells = UniformSums::half(u.out_size);
  std::vector<mp_limb_t> ways(cells * stride), next(cells * stride), window(stride);
  ways[0] = 1;
  std::size_t size = 1;
  for (std::uint64_t die = 1; die <= n; ++die) {
    const std::size_t used = u.limbs(die);
    const std::size_t next_size = size + faces - 1;
    const std::size_t half = UniformSums::half(next_size);
    budget.charge_work(2 * half * used);
    std::fill(window.begin(), window.end(), mp_limb_t{0});
    auto cell = [&](std::size_t t) { return ways.data() + std::min(t, size - 1 - t) * stride; };
    const auto limbs = static_cast<mp_size_t>(used);
    for (std::size_t s = 0; s < half; ++s) {
      if (s < size) mpn_add_n(window.data(), window.data(), cell(s), limbs);
      if (s >= faces) mpn_sub_n(window.data(), window.data(), cell(s - faces), limbs);
      std::copy(window.begin(), window.begin() + static_cast<std::ptrdiff_t>(used), next.begin() + static_cast<std::ptrdiff_t>(s * stride));
    }
    ways.swap(next);
    size = next_size;
  }
  budget.charge(u.out_size);
  budget.charge_memory(u.out_size * sizeof(std::pair<std::int64_t, Weight>) + cells * stride * sizeof(mp_limb_t));
  IntDist d;
  d.entries.reserve(size);
  for (std::size_t s = 0; s < size; ++s) {
    // The upper half shares the lower half's integers.
    Weight w = s < cells ? Weight::from_limbs(ways.data() + s * stride, stride) : d.entries[size - 1 - s].second;
    d.entries.emplace_back(lo + static_cast<std::int64_t>(s), std::move(w));
  }
  return d;
}

template <class W>
IntDist dense_result(std::vector<W>&& w, std::int64_t lo) {
  IntDist d;
  d.entries.reserve(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!weight_is_zero(w[i])) d.entries.emplace_back(lo + static_cast<std::int64_t>(i), weight_of(std::move(w[i])));
  }
  return d;
}

template <class W>
std::vector<W> dense_of(const IntDist& d, std::int64_t lo, std::int64_t width) {
  std::vector<W> out(static_cast<std::size_t>(width), W(0));
  for (const auto& [v, w] : d.entries) out[static_cast<std::size_t>(v - lo)] = weight_as<W>(w);
  return out;
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) not_composable("a pool's total would overflow");
  return r;
}

IntDist sparse_convolve(Budget& budget, const IntDist& a, const IntDist& b) {
  std::map<std::int64_t, Weight> m;
  // A pair is a branch, and an insertion into a tree: many times a cell's work.
  const std::uint64_t pairs = a.entries.size() * b.entries.size();
  budget.charge(pairs);
  budget.charge_work(sparse_pair_work * pairs);
  for (const auto& [x, wx] : a.entries) {
    for (const auto& [y, wy] : b.entries) {
      std::int64_t s;
      if (__builtin_add_overflow(x, y, &s)) not_composable("a pool's total would overflow");
      m[s] += wx * wy;
    }
  }
  IntDist d;
  for (auto& [v, w] : m) d.entries.emplace_back(v, w);
  return d;
}

}  // namespace

IntDist convolve(Budget& budget, const IntDist& a, const IntDist& b) {
  IntDist out;
  if (!a.entries.empty() && !b.entries.empty()) {
    // Dense when both ranges and their sum's are narrow; the spans are checked
    // first, since faces as far apart as d{-2^63, 2^63-1} overflow them.
    std::int64_t da = 0, db = 0, dsum = 0, lo = 0;
    const bool dense = !__builtin_sub_overflow(a.entries.back().first, a.entries.front().first, &da) &&
                       !__builtin_sub_overflow(b.entries.back().first, b.entries.front().first, &db) &&
                       !__builtin_add_overflow(da, db, &dsum) && dsum < max_dense_width &&
                       !__builtin_add_overflow(a.entries.front().first, b.entries.front().first, &lo);
    const std::int64_t wa = da + 1, wb = db + 1;
    if (dense) {
      const Weight bound = a.total * b.total;
      out = with_width(bound, [&]<class W>(std::type_identity<W>) {
        return dense_result(conv(budget, dense_of<W>(a, a.entries.front().first, wa),
                                 dense_of<W>(b, b.entries.front().first, wb), bound.bits()),
                            lo);
      });
    } else {
      out = sparse_convolve(budget, a, b);
    }
  }
  out.total = a.total * b.total;
  out.fail = a.fail;
  out.fail.then(b.fail, b.total, a.ok());
  return out;
}

IntDist power(Budget& budget, const IntDist& a, std::uint64_t n) {
  if (n == 0) return IntDist::point(0);
  if (n == 1) return a;
  if (!a.fail.cut.is_zero() && !a.fail.err.is_zero()) {
    not_composable("a die may be cut off or fail, and which comes first depends on the other dice");
  }
  IntDist out;
  const Weight ok = a.ok();
  if (!a.entries.empty()) {
    const std::int64_t lo = a.entries.front().first;
    const std::int64_t hi = a.entries.back().first;
    const auto nn = static_cast<std::int64_t>(n);
    const std::int64_t out_lo = checked_mul(lo, nn);
    checked_mul(hi, nn);
    const std::int64_t width = hi - lo + 1;
    const bool uniform = static_cast<std::int64_t>(a.entries.size()) == width &&
                         std::all_of(a.entries.begin(), a.entries.end(), [&](const auto& e) {
                           return e.second == a.entries[0].second;
                         });
    // However many totals: the budget refuses a sum too big before it starts.
    if (uniform) {
      // Counts of ways, times the weight each way has.
      const auto faces = static_cast<std::size_t>(width);
      // F^n has about n·log2(F) bits (not computed: n may be far too big);
      // the margin covers the logarithm's rounding.
      const double bits = static_cast<double>(n) * std::log2(static_cast<double>(faces));
      if (bits < 63.5)
        out = dense_result(uniform_power<std::uint64_t>(budget, faces, n), out_lo);
      else if (bits < 127.5)
        out = dense_result(uniform_power<u128>(budget, faces, n), out_lo);
      else
        out = uniform_power_wide(budget, faces, n, out_lo);
      const Weight each = a.entries[0].second.pow(n);
      if (!(each == Weight(1))) {
        for (auto& e : out.entries) e.second *= each;
      }
    } else if (width > 0 && width <= max_dense_width &&
               checked_mul(width - 1, nn) + 1 <= max_dense_width) {
      const Weight bound = ok.pow(n);
      out = with_width(bound, [&]<class W>(std::type_identity<W>) {
        return dense_result(conv_power(budget, dense_of<W>(a, lo, width), n, bound.bits()), out_lo);
      });
    } else {
      IntDist base = a;
      base.fail = {};
      base.total = ok;
      IntDist acc = IntDist::point(0);
      for (std::uint64_t k = n;;) {
        if (k & 1) acc = sparse_convolve(budget, acc, base);
        k >>= 1;
        if (!k) break;
        base = sparse_convolve(budget, base, base);
      }
      out.entries = std::move(acc.entries);
    }
  }
  out.total = a.total.pow(n);
  const Weight failed = out.total - ok.pow(n);
  if (!a.fail.cut.is_zero()) out.fail.cut = failed;
  if (!a.fail.err.is_zero()) {
    out.fail.err = failed;
    out.fail.error = a.fail.error;
  }
  return out;
}

IntDist mix(Budget& budget, const std::vector<std::pair<Weight, const IntDist*>>& parts) {
  Weight common = 1;
  Weight outer = 0;
  bool first = true;
  for (const auto& [w, d] : parts) {
    common = first ? d->total : lcm(common, d->total);
    first = false;
    outer += w;
  }
  IntDist out;
  out.total = outer * common;
  std::int64_t lo = INT64_MAX, hi = INT64_MIN;
  std::size_t count = 0;
  for (const auto& [w, d] : parts) {
    if (d->entries.empty()) continue;
    lo = std::min(lo, d->entries.front().first);
    hi = std::max(hi, d->entries.back().first);
    count += d->entries.size();
  }
  budget.charge(count);
  // Values close together (always, for dice) are summed in place; others sorted
  // and merged. The span is taken unsigned: a removed die's marker is INT64_MIN.
  const bool dense =
      count > 0 && static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) < 4096;
  std::vector<Weight> sums(dense ? static_cast<std::size_t>(hi - lo + 1) : 0);
  std::vector<std::pair<std::int64_t, Weight>> all;
  for (const auto& [w, d] : parts) {
    const Weight k = w * (d->total == common ? Weight(1) : common.divexact(d->total));
    for (const auto& [v, x] : d->entries) {
      if (dense)
        sums[static_cast<std::size_t>(v - lo)] += k * x;
      else
        all.emplace_back(v, k * x);
    }
    Failures f = d->fail;
    f.scale(k);
    out.fail.then(f, 1, 1);  // adds them, keeping one error
  }
  if (dense) {
    for (std::size_t i = 0; i < sums.size(); ++i) {
      if (!sums[i].is_zero())
        out.entries.emplace_back(lo + static_cast<std::int64_t>(i), std::move(sums[i]));
    }
    return out;
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& e : all) {
    if (!out.entries.empty() && out.entries.back().first == e.first)
      out.entries.back().second += e.second;
    else
      out.entries.push_back(std::move(e));
  }
  return out;
}

Dist to_dist(const IntDist& d) {
  Dist out;
  out.entries.reserve(d.entries.size());
  for (const auto& [v, w] : d.entries) out.entries.emplace_back(Value(v), w);
  out.total = d.total;
  out.fail = d.fail;
  return out;
}

}  // namespace alea::compose
