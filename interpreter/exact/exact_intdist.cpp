// interpreter/exact/exact_intdist.cpp — convolutions of integer distributions.
//
// Sums of dice are convolutions over a dense array of weights when the values
// span a small range (always, for ordinary dice). Every weight of a
// convolution is at most the product of the totals, so when that product fits
// in 64 or 128 bits the arithmetic runs on plain integers without overflow
// checks; otherwise on Weights.
#include "interpreter/exact/exact_intdist.hpp"

#include <algorithm>
#include <map>

namespace alea::compose {
namespace {

constexpr std::int64_t max_dense_width = 1 << 22;

template <class W>
W from_weight(const Weight& w) {
  if constexpr (std::is_same_v<W, Weight>)
    return w;
  else
    return static_cast<W>(w.small());
}
template <class W>
Weight to_weight(const W& w) {
  if constexpr (std::is_same_v<W, Weight>)
    return w;
  else
    return Weight::from_u128(static_cast<u128>(w));
}
template <class W>
bool is_zero(const W& w) {
  if constexpr (std::is_same_v<W, Weight>)
    return w.is_zero();
  else
    return w == 0;
}

template <class W>
std::vector<W> conv(Budget& budget, const std::vector<W>& a, const std::vector<W>& b) {
  budget.charge(a.size() * b.size());
  budget.charge_work((weight_cost<W> - 1) * a.size() * b.size());
  budget.charge_memory((a.size() + b.size()) * sizeof(W));
  std::vector<W> out(a.size() + b.size() - 1);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (is_zero(a[i])) continue;
    const W x = a[i];
    W* o = out.data() + i;
    for (std::size_t j = 0; j < b.size(); ++j) o[j] += x * b[j];
  }
  return out;
}

// The n-fold convolution of the dense weights `a` (n >= 1), by squaring.
template <class W>
std::vector<W> conv_power(Budget& budget, std::vector<W> a, std::uint64_t n) {
  std::vector<W> result;
  bool have = false;
  for (;;) {
    if (n & 1) {
      result = have ? conv(budget, result, a) : a;
      have = true;
    }
    n >>= 1;
    if (!n) break;
    a = conv(budget, a, a);
  }
  return result;
}

// The number of ways n dice, each showing one of `faces` consecutive values
// with equal weight, reach each total (lowest first): a sliding window sum per
// die, F times cheaper than a convolution.
template <class W>
std::vector<W> uniform_power(Budget& budget, std::size_t faces, std::uint64_t n) {
  std::vector<W> ways{W(1)}, next;
  // The last row alone holds n·(F-1)+1 weights, twice over.
  budget.expect(n * (faces - 1) + 1, 2 * (n * (faces - 1) + 1) * sizeof(W));
  ways.reserve(n * (faces - 1) + 1);
  next.reserve(n * (faces - 1) + 1);
  for (std::uint64_t die = 0; die < n; ++die) {
    next.resize(ways.size() + faces - 1);  // every element is written below
    budget.charge(next.size());
    budget.charge_work((weight_cost<W> - 1) * next.size());
    W window(0);
    for (std::size_t s = 0; s < next.size(); ++s) {
      if (s < ways.size()) window += ways[s];
      if (s >= faces) window -= ways[s - faces];
      next[s] = window;
    }
    ways.swap(next);
  }
  return ways;
}

// 0: 64 bits, 1: 128 bits, 2: Weights.
int width_class(const Weight& bound) {
  if (!bound.is_small()) return 2;
  return (bound.small() >> 64) == 0 ? 0 : 1;
}

template <class W>
IntDist dense_result(const std::vector<W>& w, std::int64_t lo) {
  IntDist d;
  d.entries.reserve(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!is_zero(w[i])) d.entries.emplace_back(lo + static_cast<std::int64_t>(i), to_weight(w[i]));
  }
  return d;
}

template <class W>
std::vector<W> dense_of(const IntDist& d, std::int64_t lo, std::int64_t width) {
  std::vector<W> out(static_cast<std::size_t>(width));
  for (const auto& [v, w] : d.entries) out[static_cast<std::size_t>(v - lo)] = from_weight<W>(w);
  return out;
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) not_composable("a pool's total would overflow");
  return r;
}

IntDist sparse_convolve(Budget& budget, const IntDist& a, const IntDist& b) {
  std::map<std::int64_t, Weight> m;
  budget.charge(a.entries.size() * b.entries.size());
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
      switch (width_class(bound)) {
        case 0:
          out = dense_result(conv(budget, dense_of<std::uint64_t>(a, a.entries.front().first, wa),
                                  dense_of<std::uint64_t>(b, b.entries.front().first, wb)),
                             lo);
          break;
        case 1:
          out = dense_result(conv(budget, dense_of<u128>(a, a.entries.front().first, wa),
                                  dense_of<u128>(b, b.entries.front().first, wb)),
                             lo);
          break;
        default:
          out = dense_result(conv(budget, dense_of<Weight>(a, a.entries.front().first, wa),
                                  dense_of<Weight>(b, b.entries.front().first, wb)),
                             lo);
      }
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
    if (uniform && checked_mul(width - 1, nn) + 1 <= max_dense_width) {
      // Counts of ways, times the weight each way has.
      const auto faces = static_cast<std::size_t>(width);
      const Weight each = a.entries[0].second.pow(n);
      switch (width_class(Weight(static_cast<std::uint64_t>(width)).pow(n))) {
        case 0:
          out = dense_result(uniform_power<std::uint64_t>(budget, faces, n), out_lo);
          break;
        case 1:
          out = dense_result(uniform_power<u128>(budget, faces, n), out_lo);
          break;
        default:
          out = dense_result(uniform_power<Weight>(budget, faces, n), out_lo);
      }
      if (!(each == Weight(1))) {
        for (auto& e : out.entries) e.second *= each;
      }
    } else if (width > 0 && width <= max_dense_width &&
               checked_mul(width - 1, nn) + 1 <= max_dense_width) {
      switch (width_class(ok.pow(n))) {
        case 0:
          out = dense_result(conv_power(budget, dense_of<std::uint64_t>(a, lo, width), n), out_lo);
          break;
        case 1:
          out = dense_result(conv_power(budget, dense_of<u128>(a, lo, width), n), out_lo);
          break;
        default:
          out = dense_result(conv_power(budget, dense_of<Weight>(a, lo, width), n), out_lo);
      }
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
