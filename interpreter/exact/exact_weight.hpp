// interpreter/exact/exact_weight.hpp — internal: the non-negative integer weights of
// the composed exact engine (exact_*.cpp).
//
// A probability is a weight over the total weight of its distribution, both
// integers. Most weights fit in 128 bits (6^40 does); a Weight holds those
// inline and moves to a GMP integer only when a sum or a product would not fit,
// so the common cases never allocate. A GMP integer is shared between copies
// and changed in place by +=, -= and *= when no other copy holds it: a sum
// accumulated in a Weight reuses one buffer. (Dynamic programs whose bound is
// known use inline fixed-width limbs instead: exact_limbs.hpp.)
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

namespace alea::compose {

__extension__ using u128 = unsigned __int128;

class Weight {
 public:
  Weight() = default;
  Weight(std::uint64_t v) : small_(v) {}  // NOLINT(google-explicit-constructor)
  static Weight from_u128(u128 v) {
    Weight w;
    w.small_ = v;
    return w;
  }
  static Weight from_mpz(const mpz_class& z);
  static Weight from_mpz(mpz_class&& z);
  // The value of n 64-bit limbs, lowest first (high zero limbs allowed).
  static Weight from_limbs(const mp_limb_t* limbs, std::size_t n);

  [[nodiscard]] bool is_zero() const { return !big_ && small_ == 0; }
  [[nodiscard]] bool is_small() const { return !big_; }
  [[nodiscard]] u128 small() const { return small_; }  // only when is_small()
  [[nodiscard]] mpz_class to_mpz() const;
  // The number of bits of the value (0 for 0).
  [[nodiscard]] std::size_t bits() const;
  // Writes the value as n limbs, lowest first; it must fit.
  void limbs(mp_limb_t* out, std::size_t n) const;
  [[nodiscard]] std::string str() const;
  [[nodiscard]] double to_double() const;

  Weight& operator+=(const Weight& o);
  Weight& operator-=(const Weight& o);  // the result must not be negative
  Weight& operator*=(const Weight& o);
  friend Weight operator+(Weight a, const Weight& b) { return a += b; }
  friend Weight operator-(Weight a, const Weight& b) { return a -= b; }
  friend Weight operator*(Weight a, const Weight& b) { return a *= b; }
  friend bool operator==(const Weight& a, const Weight& b);
  friend bool operator<(const Weight& a, const Weight& b);

  // a / b where b divides a.
  [[nodiscard]] Weight divexact(const Weight& b) const;
  [[nodiscard]] Weight pow(std::uint64_t e) const;
  friend Weight gcd(const Weight& a, const Weight& b);
  friend Weight lcm(const Weight& a, const Weight& b);

 private:
  u128 small_ = 0;
  // Set when the value needs more than 128 bits; changed only when use_count() is 1.
  std::shared_ptr<mpz_class> big_;

  // A GMP integer this Weight alone holds, with its value, to change in place.
  mpz_ptr own();
  // Back to 128 bits when the value fits again.
  void shrink();
  // The value as a read-only GMP integer, without allocating: a small one's
  // limbs go in buf[2], its integer in tmp.
  mpz_srcptr view(mpz_ptr tmp, mp_limb_t* buf) const;
};

// The greatest common divisor (gcd(0, b) = b).
[[nodiscard]] u128 gcd128(u128 a, u128 b);

// What one operation on a weight of type W (Weight, or a machine integer) costs, in work units:
// a GMP integer costs several times a machine one.
template <class W>
inline constexpr std::uint64_t weight_cost = std::is_same_v<W, Weight> ? 8 : 1;

// (hi·2^64 + lo) / d for hi < d, with its remainder: one hardware division.
inline std::uint64_t div128by64(std::uint64_t hi, std::uint64_t lo, std::uint64_t d,
                                std::uint64_t* rem) {
#if defined(__x86_64__)
  std::uint64_t q, r;
  __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d));
  *rem = r;
  return q;
#else
  const u128 n = (static_cast<u128>(hi) << 64) | lo;
  *rem = static_cast<std::uint64_t>(n % d);
  return static_cast<std::uint64_t>(n / d);
#endif
}

// A u128 as a GMP integer.
[[nodiscard]] mpz_class mpz_of(u128 v);

// A u128 in decimal; write_decimal writes it at `out` (at most 39 characters)
// and returns the end.
std::string to_decimal(u128 v);
char* write_decimal(char* out, u128 v);

}  // namespace alea::compose
