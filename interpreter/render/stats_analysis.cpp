// interpreter/render/stats_analysis.cpp — cumulative shares and percentiles of a distribution
// (stats_analysis.hpp).
#include "interpreter/render/stats_analysis.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "interpreter/big_fraction.hpp"

namespace alea {

namespace {

__extension__ using u128 = unsigned __int128;

void set_u128(mpz_class& z, u128 v) {
  const mp_limb_t limbs[2] = {static_cast<mp_limb_t>(v), static_cast<mp_limb_t>(v >> 64)};
  mpz_import(z.get_mpz_t(), 2, -1, sizeof(mp_limb_t), 0, 0, limbs);
}

// The exact probabilities of `d` as numerators over one common denominator
// (the lcm of theirs, nearly always the largest): the cumulative sums and the
// percentiles are then sums and comparisons of integers, with no gcd per
// addition (a distribution of 500d6 has 2501 fractions of 1300 bits).
bool common_denominator(const Distribution& d, std::vector<mpz_class>& num, mpz_class& den) {
  std::vector<mpz_class> dens(d.entries.size());
  num.resize(d.entries.size());
  den = 1;
  for (std::size_t i = 0; i < d.entries.size(); ++i) {
    const Probability& p = d.entries[i].probability;
    if (!p.is_exact()) return false;
    u128 n = 0, m = 0;
    if (const BigFraction* f = p.big_fraction()) {  // wide: as it is held, unreduced
      num[i] = f->num;
      dens[i] = f->den;
    } else if (p.small_fraction(n, m)) {  // in 128 bits: as it is held, unreduced
      set_u128(num[i], n);
      set_u128(dens[i], m);
    } else {
      const std::string text = p.exact();  // "a/b" in lowest terms
      const std::size_t slash = text.find('/');
      num[i].set_str(text.substr(0, slash), 10);
      dens[i].set_str(text.substr(slash + 1), 10);
    }
    if (dens[i] > den) den = dens[i];
  }
  for (const auto& b : dens) {
    if (!mpz_divisible_p(den.get_mpz_t(), b.get_mpz_t())) mpz_lcm(den.get_mpz_t(), den.get_mpz_t(), b.get_mpz_t());
  }
  for (std::size_t i = 0; i < num.size(); ++i) {
    if (dens[i] != den) {
      mpz_divexact(dens[i].get_mpz_t(), den.get_mpz_t(), dens[i].get_mpz_t());
      num[i] *= dens[i];
    }
  }
  return true;
}

// The cumulative shares and percentiles of weights `w` (integers over one
// unit, or rationals), each share written by share_of.
template <class T, class Share>
Analysis cumulate(const Distribution& d, const std::vector<T>& w, Share share_of) {
  Analysis a;
  const std::size_t n = d.entries.size();
  T resolved = 0;
  for (const auto& x : w) resolved += x;
  T below = 0;
  for (std::size_t i = 0; i < n; ++i) {
    a.at_least.push_back(share_of(T(resolved - below)));
    below += w[i];
    a.at_most.push_back(share_of(below));
  }
  if (d.numeric) {
    // The smallest v with P(X <= v) >= p, among the runs that gave a value: one pass for all the
    // points, which are ascending.
    a.percentiles.assign(std::size(percentile_points), std::nullopt);
    std::vector<T> targets;
    for (const int point : percentile_points) targets.push_back(resolved * point);
    std::size_t next = 0;
    T sum = 0, hundred = 0;
    for (std::size_t i = 0; i < n && resolved > 0 && next < targets.size(); ++i) {
      sum += w[i];
      hundred = sum * 100;
      while (next < targets.size() && hundred >= targets[next]) {
        a.percentiles[next++] = *d.entries[i].value.as_int();
      }
    }
  }
  return a;
}

}  // namespace

Analysis analyse(const Stats& s, const Distribution& d) {
  const std::size_t n = d.entries.size();
  const bool exact = s.method == StatsMethod::Exact;
  const double runs = static_cast<double>(s.runs);
  // As the probabilities are computed: exact ones by GMP, counts by division.
  auto count = [&](const Probability& p) { return static_cast<long>(std::llround(p.value * runs)); };
  if (!exact) {
    std::vector<mpz_class> w(n);
    for (std::size_t i = 0; i < n; ++i) w[i] = count(d.entries[i].probability);
    return cumulate(d, w, [&](const mpz_class& x) { return x.get_d() / (runs > 0 ? runs : 1); });
  }
  std::vector<mpz_class> w;
  mpz_class unit;
  if (common_denominator(d, w, unit)) {
    mpq_class q;
    return cumulate(d, w, [&](const mpz_class& x) {
      q.get_num() = x;
      q.get_den() = unit;
      return q.get_d();
    });
  }
  // Exact, with some probabilities estimated: rationals and counts of runs together.
  std::vector<mpq_class> r(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Probability& p = d.entries[i].probability;
    if (p.is_exact()) {
      r[i] = mpq_class(p.exact());
      r[i].canonicalize();
    } else {
      r[i] = count(p);
    }
  }
  return cumulate(d, r, [](const mpq_class& x) { return x.get_d(); });
}

bool too_many_entries(const Stats& s, std::uint64_t per_entry, std::int64_t max_render_size) {
  std::uint64_t entries = s.value.entries.size();
  for (const auto& f : s.fields) entries += f.entries.size();
  return entries * per_entry > static_cast<std::uint64_t>(std::max<std::int64_t>(0, max_render_size));
}

}  // namespace alea
