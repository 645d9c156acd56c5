// interpreter/exact/exact_limbs.hpp — internal: fixed-width unsigned integers
// of N 64-bit limbs, held inline (no heap), for dynamic programs whose every
// weight is known to stay below a bound (the product of the totals).
//
// The arithmetic is GMP's mpn layer on the limb arrays: the same well-tested
// carry chains GMP uses for its own integers, without mpz's allocation. Values
// never overflow N limbs: the caller picks N from the bound (with_width).
#pragma once

#include <gmpxx.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "interpreter/exact/exact_weight.hpp"

namespace alea::compose {

template <std::size_t N>
struct Limbs {
  static_assert(N >= 2 && sizeof(mp_limb_t) == sizeof(std::uint64_t));
  mp_limb_t l[N] = {};

  Limbs() = default;
  explicit Limbs(std::uint64_t v) { l[0] = v; }
  explicit Limbs(const Weight& w) { w.limbs(l, N); }

  Limbs& operator+=(const Limbs& o) {
    mpn_add_n(l, l, o.l, N);
    return *this;
  }
  Limbs& operator-=(const Limbs& o) {
    mpn_sub_n(l, l, o.l, N);
    return *this;
  }
  [[nodiscard]] bool is_zero() const { return mpn_zero_p(l, N) != 0; }
  // The limbs up to the highest nonzero one.
  [[nodiscard]] mp_size_t used() const {
    mp_size_t n = N;
    while (n > 0 && l[n - 1] == 0) --n;
    return n;
  }
  // *this += a·b, which the bound keeps within N limbs.
  void add_product(const Limbs& a, const Limbs& b) {
    mp_size_t na = a.used(), nb = b.used();
    if (na == 0 || nb == 0) return;
    const mp_limb_t* x = a.l;
    const mp_limb_t* y = b.l;
    if (na < nb) std::swap(x, y), std::swap(na, nb);
    mp_limb_t product[2 * N];
    mpn_mul(product, x, na, y, nb);
    const mp_size_t n = std::min<mp_size_t>(na + nb, N);
    mpn_add(l, l, N, product, n);
  }
};

// Calls f with a std::type_identity of the narrowest type that holds every
// weight up to `bound`: 64 or 128 bits, 192 to 512 bits inline, else GMP
// integers (in place: each += and *= reuses its buffer).
template <class F>
decltype(auto) with_width(const Weight& bound, F&& f) {
  const std::size_t bits = bound.bits();
  if (bits <= 64) return f(std::type_identity<std::uint64_t>{});
  if (bits <= 128) return f(std::type_identity<u128>{});
  if (bits <= 192) return f(std::type_identity<Limbs<3>>{});
  if (bits <= 256) return f(std::type_identity<Limbs<4>>{});
  if (bits <= 384) return f(std::type_identity<Limbs<6>>{});
  if (bits <= 512) return f(std::type_identity<Limbs<8>>{});
  return f(std::type_identity<mpz_class>{});
}

template <class W>
inline constexpr bool is_limbs = false;
template <std::size_t N>
inline constexpr bool is_limbs<Limbs<N>> = true;

// Work units of one addition on a weight of type W holding up to `bits` bits:
// its 64-bit limbs (a machine integer is one).
template <class W>
std::uint64_t limb_cost(std::size_t bits) {
  if constexpr (is_limbs<W>)
    return sizeof(W) / sizeof(mp_limb_t);
  else if constexpr (std::is_same_v<W, mpz_class> || std::is_same_v<W, Weight>)
    return bits / 64 + 1;
  else
    return 1;
}

// Conversions and arithmetic shared by every weight type of a dynamic program.
template <class W>
W weight_as(const Weight& w) {
  if constexpr (std::is_same_v<W, Weight>)
    return w;
  else if constexpr (std::is_same_v<W, mpz_class>)
    return w.to_mpz();
  else if constexpr (is_limbs<W>)
    return W(w);
  else
    return static_cast<W>(w.small());
}
template <class W>
Weight weight_of(W&& w) {
  using T = std::remove_cvref_t<W>;
  if constexpr (std::is_same_v<T, Weight>)
    return std::forward<W>(w);
  else if constexpr (std::is_same_v<T, mpz_class>)
    return Weight::from_mpz(std::forward<W>(w));
  else if constexpr (is_limbs<T>)
    return Weight::from_limbs(w.l, sizeof(T) / sizeof(mp_limb_t));
  else
    return Weight::from_u128(static_cast<u128>(w));
}
template <class W>
bool weight_is_zero(const W& w) {
  if constexpr (std::is_same_v<W, Weight> || is_limbs<W>)
    return w.is_zero();
  else if constexpr (std::is_same_v<W, mpz_class>)
    return sgn(w) == 0;
  else
    return w == 0;
}
// acc += a·b, without a temporary.
template <class W>
void add_product(W& acc, const W& a, const W& b) {
  if constexpr (is_limbs<W>)
    acc.add_product(a, b);
  else if constexpr (std::is_same_v<W, mpz_class>)
    mpz_addmul(acc.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
  else
    acc += a * b;
}

}  // namespace alea::compose
