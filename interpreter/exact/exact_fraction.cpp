// interpreter/exact/exact_fraction.cpp — probabilities in lowest terms, quickly.
#include "interpreter/exact/exact_fraction.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "interpreter/big_fraction.hpp"

namespace alea::compose {
namespace {

__extension__ using i128 = __int128;

std::string decimal(u128 v) {
  if ((v >> 64) == 0) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, static_cast<std::uint64_t>(v));
    return std::string(buf, r.ptr);
  }
  return to_decimal(v);
}

int clz(u128 x) {
  const auto hi = static_cast<std::uint64_t>(x >> 64);
  return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll(static_cast<std::uint64_t>(x));
}

// num/den (both > 0) rounded toward zero to a double, as mpq_get_d gives it:
// the first 53 bits of the quotient by one step of long division (Knuth's
// algorithm D) on the numbers shifted to their top bit.
double quotient(u128 num, u128 den) {
  const int sn = clz(num), sd = clz(den);
  const u128 n = num << sn, d = den << sd;  // both in [2^127, 2^128)
  // U = n·2^53 in three 64-bit limbs; q = floor(U / d) lies in [2^52, 2^54).
  const auto u2 = static_cast<std::uint64_t>(n >> 75);
  const auto u1 = static_cast<std::uint64_t>(n >> 11);
  const auto u0 = static_cast<std::uint64_t>(n << 53);
  const auto v1 = static_cast<std::uint64_t>(d >> 64), v0 = static_cast<std::uint64_t>(d);
  std::uint64_t rest;
  std::uint64_t q = div128by64(u2, u1, v1, &rest);  // u2 < 2^53 <= v1: no overflow
  // q overestimates by at most 2: step down while q·d > U.
  for (;;) {
    const u128 lo = static_cast<u128>(q) * v0, hi = static_cast<u128>(q) * v1;
    const u128 mid = (lo >> 64) + static_cast<std::uint64_t>(hi);
    const auto p0 = static_cast<std::uint64_t>(lo), p1 = static_cast<std::uint64_t>(mid);
    const auto p2 = static_cast<std::uint64_t>((hi >> 64) + (mid >> 64));
    const bool above = p2 != u2 ? p2 > u2 : p1 != u1 ? p1 > u1 : p0 > u0;
    if (!above) break;
    --q;
  }
  int e = sd - sn - 53;
  if (q >> 53) q >>= 1, ++e;  // keep 53 bits, dropping (truncating) the last
  return std::ldexp(static_cast<double>(q), e);
}

int ctz(u128 x) {
  const auto lo = static_cast<std::uint64_t>(x);
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<std::uint64_t>(x >> 64));
}



}  // namespace

namespace {

// num/den rounded toward zero, as mpq_get_d gives it.
double truncated(u128 num, u128 den) {
  if (num == 0) return 0;
  if ((num >> 53) == 0 && (den >> 53) == 0) {
    // Both exact as doubles: the division rounds to nearest, so step back
    // toward zero when it rounded up.
    const auto n = static_cast<double>(static_cast<std::uint64_t>(num));
    const auto d = static_cast<double>(static_cast<std::uint64_t>(den));
    double q = n / d;
    if (std::fma(q, d, -n) > 0) q = std::nextafter(q, 0.0);
    return q;
  }
  return quotient(num, den);
}

}  // namespace

// num/den (both > 0, any size) rounded toward zero to a double, as mpq_get_d gives it: the
// quotient to 64 bits or more, then truncated to 53 (truncating the floor of x truncates x).
double truncated(const mpz_class& num, const mpz_class& den) {
  if (num == 0) return 0;
  const long shift = 64 + static_cast<long>(mpz_sizeinbase(den.get_mpz_t(), 2)) -
                     static_cast<long>(mpz_sizeinbase(num.get_mpz_t(), 2));
  mpz_class q;
  if (shift >= 0) {
    mpz_mul_2exp(q.get_mpz_t(), num.get_mpz_t(), static_cast<mp_bitcnt_t>(shift));
  } else {
    mpz_fdiv_q_2exp(q.get_mpz_t(), num.get_mpz_t(), static_cast<mp_bitcnt_t>(-shift));
  }
  mpz_tdiv_q(q.get_mpz_t(), q.get_mpz_t(), den.get_mpz_t());
  if (static_cast<long>(mpz_sizeinbase(q.get_mpz_t(), 2)) - 1 - shift < -1022) {
    // Below the normal doubles: a multiple of 2^-1074, floor(x·2^1074), which ldexp keeps exactly.
    mpz_mul_2exp(q.get_mpz_t(), num.get_mpz_t(), 1074);
    mpz_tdiv_q(q.get_mpz_t(), q.get_mpz_t(), den.get_mpz_t());
    return std::ldexp(q.get_d(), -1074);
  }
  return std::ldexp(q.get_d(), static_cast<int>(-shift));
}

Probability Fractions::operator()(const Weight& w) const {
  if (!w.is_small() || !total_.is_small()) {
    // Wide: kept in GMP, unreduced, until its text is asked for.
    auto f = std::make_shared<BigFraction>();
    f->num = w.to_mpz();
    f->den = total_.to_mpz();
    Probability p;
    p.value = truncated(f->num, f->den);
    p.low = p.high = p.value;
    p.set_exact(std::move(f));
    return p;
  }
  Probability p;
  p.value = truncated(w.small(), total_.small());  // the same double in any terms
  p.low = p.high = p.value;
  p.set_exact(w.small(), total_.small());
  return p;
}

Moments moments(const std::vector<std::pair<std::int64_t, Weight>>& values) {
  // Sums of w, w·x and w·x² in 128 bits (positive and negative parts apart),
  // or in GMP when they would not fit.
  bool fits = true;
  u128 s0 = 0, s1p = 0, s1n = 0, s2 = 0;
  for (const auto& [x, w] : values) {
    if (!w.is_small()) {
      fits = false;
      break;
    }
    const u128 ax = x < 0 ? u128(-static_cast<i128>(x)) : u128(x);
    u128 wx, wxx;
    if (__builtin_mul_overflow(w.small(), ax, &wx) || __builtin_mul_overflow(wx, ax, &wxx) ||
        __builtin_add_overflow(s0, w.small(), &s0) || __builtin_add_overflow(s2, wxx, &s2) ||
        __builtin_add_overflow(x < 0 ? s1n : s1p, wx, x < 0 ? &s1n : &s1p)) {
      fits = false;
      break;
    }
  }
  if (fits && s0 != 0) {
    // The sums fit in 128 bits: mean = s1/s0 there; the variance
    // (s2·s0 - s1²)/s0² needs 256 bits when they are wide.
    Moments m;
    const bool negative = s1n > s1p;
    const u128 s1 = negative ? s1n - s1p : s1p - s1n;
    const u128 g = gcd128(s1, s0);
    const u128 num = s1 / g, den = s0 / g;
    m.exact_mean = (negative && num ? "-" : "") + decimal(num) + "/" + decimal(den);
    m.mean = negative ? -truncated(num, den) : truncated(num, den);
    if ((s0 >> 64) == 0 && (s1 >> 64) == 0 && (s2 >> 64) == 0) {
      const u128 n2 = s2 * s0 - s1 * s1;  // >= 0: it is s0² times a variance
      const u128 d2 = s0 * s0;
      const u128 g2 = gcd128(n2, d2);
      m.sd = std::sqrt(std::max(0.0, truncated(n2 / g2, d2 / g2)));
    } else {
      const mpz_class z0 = mpz_of(s0), z1 = mpz_of(s1);
      mpq_class var(mpz_of(s2) * z0 - z1 * z1, z0 * z0);
      var.canonicalize();
      m.sd = std::sqrt(std::max(0.0, var.get_d()));
    }
    return m;
  }
  mpz_class z0 = 0, z1 = 0, z2 = 0;
  if (fits) {
    z0 = mpz_of(s0);
    z1 = mpz_of(s1p) - mpz_of(s1n);
    z2 = mpz_of(s2);
  } else {
    for (const auto& [x, w] : values) {
      const mpz_class wz = w.to_mpz();
      const mpz_class xz = mpz_of(x < 0 ? u128(-static_cast<i128>(x)) : u128(x)) * (x < 0 ? -1 : 1);
      z0 += wz;
      z1 += wz * xz;
      z2 += wz * xz * xz;
    }
  }
  Moments m;
  mpq_class mean(z1, z0);
  mean.canonicalize();
  m.mean = mean.get_d();
  m.exact_mean = mean.get_str();
  if (m.exact_mean.find('/') == std::string::npos) m.exact_mean += "/1";
  mpq_class var(z2 * z0 - z1 * z1, z0 * z0);
  var.canonicalize();
  m.sd = std::sqrt(std::max(0.0, var.get_d()));
  return m;
}

}  // namespace alea::compose

namespace alea {

namespace {

// Divisibility by an odd p with one multiplication: x is a multiple of p
// exactly when x · p⁻¹ (modulo 2^128) is at most (2^128 - 1) / p, and then
// that product is x / p.
struct OddDivisor {
  compose::u128 inverse, limit;
  explicit OddDivisor(std::uint64_t p) : inverse(p), limit(~compose::u128{0} / p) {
    for (int i = 0; i < 6; ++i) inverse *= 2 - p * inverse;  // Newton: 3, 6, … 192 bits
  }
  bool divides(compose::u128 x, compose::u128* quotient) const {
    const compose::u128 q = x * inverse;
    if (q > limit) return false;
    *quotient = q;
    return true;
  }
};

std::uint64_t mod(compose::u128 x, std::uint64_t p) {
  if ((x >> 64) == 0) return static_cast<std::uint64_t>(x) % p;
  return static_cast<std::uint64_t>(x % p);
}

// A denominator's odd prime factors below 1000 with their exponents, and
// whether a factor beyond them is left.
struct Factored {
  compose::u128 of = 0;
  std::vector<std::pair<std::uint64_t, int>> primes;
  bool rest = false;
};

void factor(compose::u128 den, Factored& f) {
  f.of = den;
  f.primes.clear();
  compose::u128 rest = den >> compose::ctz(den);
  std::uint64_t p = 3;
  for (; rest > 1 && p <= 1000; p += 2) {
    if (mod(rest, p) != 0) continue;
    const OddDivisor d(p);
    int k = 0;
    for (compose::u128 q; d.divides(rest, &q); ++k) rest = q;
    f.primes.emplace_back(p, k);
  }
  f.rest = rest > 1;
}

// A wide fraction in lowest terms. Its denominator is nearly always a product of dice's numbers
// of faces, shared by every entry of a distribution: its prime factors below 1000 are found once
// (per thread), and each is divided out of both as often as it divides the numerator, which costs
// far less than a general gcd of numbers of a thousand bits. A factor beyond them is left to
// mpz_gcd.
void reduce(mpz_class& num, mpz_class& den) {
  if (num == 0) {
    den = 1;
    return;
  }
  thread_local mpz_class known;
  thread_local std::vector<std::pair<unsigned long, mp_bitcnt_t>> primes;
  thread_local bool rest = false;
  if (known != den) {
    known = den;
    primes.clear();
    mpz_class r = den;
    mpz_fdiv_q_2exp(r.get_mpz_t(), r.get_mpz_t(), mpz_scan1(r.get_mpz_t(), 0));
    for (unsigned long p = 3; p <= 1000 && r > 1; p += 2) {
      if (!mpz_divisible_ui_p(r.get_mpz_t(), p)) continue;
      const mpz_class prime = p;
      primes.emplace_back(p, mpz_remove(r.get_mpz_t(), r.get_mpz_t(), prime.get_mpz_t()));
    }
    rest = r > 1;
  }
  const mp_bitcnt_t twos = std::min(mpz_scan1(num.get_mpz_t(), 0), mpz_scan1(den.get_mpz_t(), 0));
  mpz_fdiv_q_2exp(num.get_mpz_t(), num.get_mpz_t(), twos);
  mpz_fdiv_q_2exp(den.get_mpz_t(), den.get_mpz_t(), twos);
  for (const auto& [p, k] : primes) {
    for (mp_bitcnt_t j = 0; j < k && mpz_divisible_ui_p(num.get_mpz_t(), p); ++j) {
      mpz_divexact_ui(num.get_mpz_t(), num.get_mpz_t(), p);
      mpz_divexact_ui(den.get_mpz_t(), den.get_mpz_t(), p);
    }
  }
  if (rest) {
    mpz_class g;
    mpz_gcd(g.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
    if (g != 1) {
      mpz_divexact(num.get_mpz_t(), num.get_mpz_t(), g.get_mpz_t());
      mpz_divexact(den.get_mpz_t(), den.get_mpz_t(), g.get_mpz_t());
    }
  }
}

// Any length of text, for big_text.
constexpr std::size_t any_length = std::numeric_limits<std::size_t>::max() / 2;

// The text of a wide fraction, or "" when it would be longer than `longest`.
std::string big_text(const BigFraction& f, std::size_t longest) {
  mpz_class num = f.num, den = f.den;
  reduce(num, den);
  // mpz_sizeinbase counts a digit too many at most: over by two or more is over.
  if (mpz_sizeinbase(num.get_mpz_t(), 10) + mpz_sizeinbase(den.get_mpz_t(), 10) > longest + 1) return "";
  std::string text = num.get_str() + "/" + den.get_str();
  return text.size() <= longest ? text : "";
}

}  // namespace

std::string Probability::exact_within(std::size_t longest) const {
  if (big_) return big_text(*big_, longest);
  std::string text = exact();
  return text.size() <= longest ? text : "";
}

std::string Probability::exact() const {
  if (big_) return big_text(*big_, any_length);
  if (den_ == 0) return text_;
  using compose::u128;
  u128 num = num_, den = den_;
  if (num == 0) {
    den = 1;
  } else {
    // The denominators are products of dice's numbers of faces, and the
    // entries of one distribution share theirs: its small prime factors are
    // found once (per thread), and a factor p^k of it is stripped from both
    // as often as p divides num. A factor beyond them (a die with a large
    // prime factor) is left to a general gcd.
    thread_local Factored known;
    if (known.of != den) factor(den, known);
    const int twos = std::min(compose::ctz(num), compose::ctz(den));
    num >>= twos, den >>= twos;
    for (const auto& [p, k] : known.primes) {
      const OddDivisor d(p);
      u128 q;
      for (int j = 0; j < k && d.divides(num, &q); ++j) {
        num = q;
        den *= d.inverse;  // den / p: exact
      }
    }
    if (known.rest) {
      const u128 g = compose::gcd128(num, den);
      num /= g, den /= g;
    }
  }
  char buf[80];
  char* end = compose::write_decimal(buf, num);
  *end++ = '/';
  end = compose::write_decimal(end, den);
  return {buf, end};
}

}  // namespace alea
