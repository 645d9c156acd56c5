// interpreter/exact/exact_weight.cpp — 128-bit weights that grow into GMP integers.
#include "interpreter/exact/exact_weight.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <numeric>

namespace alea::compose {

mpz_class mpz_of(u128 v) {
  mpz_class z(static_cast<unsigned long>(static_cast<std::uint64_t>(v >> 64)));
  z <<= 64;
  z += mpz_class(static_cast<unsigned long>(static_cast<std::uint64_t>(v)));
  return z;
}

// Binary gcd: shifts and subtractions, no 128-bit division; one hardware gcd
// when both fit in 64 bits.
u128 gcd128(u128 a, u128 b) {
  if ((a >> 64) == 0 && (b >> 64) == 0) {
    return std::gcd(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(b));
  }
  if (a == 0) return b;
  if (b == 0) return a;
  auto ctz = [](u128 x) {
    const auto lo = static_cast<std::uint64_t>(x);
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<std::uint64_t>(x >> 64));
  };
  const int shift = std::min(ctz(a), ctz(b));
  a >>= ctz(a);
  do {
    b >>= ctz(b);
    if (a > b) std::swap(a, b);
    b -= a;
  } while (b != 0);
  return a << shift;
}

Weight Weight::from_mpz(const mpz_class& z) { return from_mpz(mpz_class(z)); }

Weight Weight::from_mpz(mpz_class&& z) {
  Weight w;
  w.big_ = std::make_shared<mpz_class>(std::move(z));
  w.shrink();
  return w;
}

Weight Weight::from_limbs(const mp_limb_t* limbs, std::size_t n) {
  while (n > 0 && limbs[n - 1] == 0) --n;
  if (n <= 2) return from_u128(n == 0 ? 0 : n == 1 ? limbs[0] : (static_cast<u128>(limbs[1]) << 64) | limbs[0]);
  mpz_t view;
  return from_mpz(mpz_class(mpz_roinit_n(view, limbs, static_cast<mp_size_t>(n))));
}

void Weight::shrink() {
  const mpz_srcptr z = big_->get_mpz_t();
  if (mpz_size(z) > 2) return;
  small_ = mpz_size(z) == 0 ? 0 : mpz_getlimbn(z, 0);
  if (mpz_size(z) == 2) small_ |= static_cast<u128>(mpz_getlimbn(z, 1)) << 64;
  big_.reset();
}

mpz_ptr Weight::own() {
  if (!big_)
    big_ = std::make_shared<mpz_class>(mpz_of(small_));
  else if (big_.use_count() > 1)
    big_ = std::make_shared<mpz_class>(*big_);
  return big_->get_mpz_t();
}

mpz_srcptr Weight::view(mpz_ptr tmp, mp_limb_t* buf) const {
  if (big_) return big_->get_mpz_t();
  buf[0] = static_cast<mp_limb_t>(small_);
  buf[1] = static_cast<mp_limb_t>(small_ >> 64);
  return mpz_roinit_n(tmp, buf, buf[1] ? 2 : buf[0] ? 1 : 0);
}

std::size_t Weight::bits() const {
  if (big_) return mpz_sizeinbase(big_->get_mpz_t(), 2);
  const auto hi = static_cast<std::uint64_t>(small_ >> 64), lo = static_cast<std::uint64_t>(small_);
  if (hi) return 128 - static_cast<std::size_t>(__builtin_clzll(hi));
  return lo ? 64 - static_cast<std::size_t>(__builtin_clzll(lo)) : 0;
}

void Weight::limbs(mp_limb_t* out, std::size_t n) const {
  std::fill(out, out + n, mp_limb_t{0});
  if (!big_) {
    out[0] = static_cast<mp_limb_t>(small_);
    if (n > 1) out[1] = static_cast<mp_limb_t>(small_ >> 64);
    return;
  }
  const mpz_srcptr z = big_->get_mpz_t();
  const std::size_t used = std::min(n, mpz_size(z));
  std::copy(mpz_limbs_read(z), mpz_limbs_read(z) + used, out);
}

mpz_class Weight::to_mpz() const { return big_ ? *big_ : mpz_of(small_); }

namespace {

// v < 10^19 as exactly 19 digits (leading zeros kept), two at a time.
void write19(char* out, std::uint64_t v) {
  static constexpr char pairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  for (int i = 17; i > 0; i -= 2) {
    const std::uint64_t r = v % 100;
    v /= 100;
    std::memcpy(out + i, pairs + 2 * r, 2);
  }
  out[0] = static_cast<char>('0' + v);
}

}  // namespace

char* write_decimal(char* out, u128 v) {
  if ((v >> 64) == 0) return std::to_chars(out, out + 20, static_cast<std::uint64_t>(v)).ptr;
  // Base 10^19: v = (top·10^19 + mid)·10^19 + low, top < 4.
  constexpr std::uint64_t chunk = 10'000'000'000'000'000'000ull;  // 10^19
  const auto hi = static_cast<std::uint64_t>(v >> 64), lo = static_cast<std::uint64_t>(v);
  std::uint64_t low, mid;
  if (hi < chunk) {
    const std::uint64_t q = div128by64(hi, lo, chunk, &low);
    out = std::to_chars(out, out + 20, q).ptr;
  } else {
    const std::uint64_t q_lo = div128by64(hi % chunk, lo, chunk, &low);
    // v / 10^19 = (hi / 10^19)·2^64 + q_lo: split it once more.
    const std::uint64_t top = div128by64(hi / chunk, q_lo, chunk, &mid);
    out = std::to_chars(out, out + 20, top).ptr;
    write19(out, mid);
    out += 19;
  }
  write19(out, low);
  return out + 19;
}

std::string to_decimal(u128 v) {
  char buf[40];
  return std::string(buf, write_decimal(buf, v));
}

std::string Weight::str() const { return big_ ? big_->get_str() : to_decimal(small_); }

double Weight::to_double() const {
  if (big_) return big_->get_d();
  return static_cast<double>(small_);
}

// Past 128 bits, each operation changes this Weight's own GMP integer in
// place (o is read where it lies): no temporary integer per operation.
Weight& Weight::operator+=(const Weight& o) {
  if (!big_ && !o.big_) {
    u128 r;
    if (!__builtin_add_overflow(small_, o.small_, &r)) {
      small_ = r;
      return *this;
    }
  }
  mpz_t tmp;
  mp_limb_t buf[2];
  const mpz_srcptr b = o.view(tmp, buf);
  const mpz_ptr a = own();
  mpz_add(a, a, b);
  return *this;
}

Weight& Weight::operator-=(const Weight& o) {
  if (!big_ && !o.big_) {
    small_ -= o.small_;
    return *this;
  }
  mpz_t tmp;
  mp_limb_t buf[2];
  const mpz_srcptr b = o.view(tmp, buf);
  const mpz_ptr a = own();
  mpz_sub(a, a, b);
  shrink();
  return *this;
}

Weight& Weight::operator*=(const Weight& o) {
  if (!big_ && !o.big_) {
    u128 r;
    if (!__builtin_mul_overflow(small_, o.small_, &r)) {
      small_ = r;
      return *this;
    }
  }
  mpz_t tmp;
  mp_limb_t buf[2];
  const mpz_srcptr b = o.view(tmp, buf);
  const mpz_ptr a = own();
  mpz_mul(a, a, b);
  shrink();  // a product with 0
  return *this;
}

bool operator==(const Weight& a, const Weight& b) {
  if (!a.big_ && !b.big_) return a.small_ == b.small_;
  if (!a.big_ || !b.big_) return false;  // a big weight never fits in 128 bits
  return *a.big_ == *b.big_;
}

bool operator<(const Weight& a, const Weight& b) {
  if (!a.big_ && !b.big_) return a.small_ < b.small_;
  if (!a.big_) return true;
  if (!b.big_) return false;
  return *a.big_ < *b.big_;
}

Weight Weight::divexact(const Weight& b) const {
  if (!big_ && !b.big_) return from_u128(small_ / b.small_);
  mpz_t ta, tb;
  mp_limb_t ba[2], bb[2];
  mpz_class q;
  mpz_divexact(q.get_mpz_t(), view(ta, ba), b.view(tb, bb));
  return from_mpz(std::move(q));
}

Weight Weight::pow(std::uint64_t e) const {
  Weight result(1);
  Weight base = *this;
  while (e > 0) {
    if (e & 1) result *= base;
    e >>= 1;
    if (e) base *= base;
  }
  return result;
}

Weight gcd(const Weight& a, const Weight& b) {
  if (!a.big_ && !b.big_) return Weight::from_u128(gcd128(a.small_, b.small_));
  mpz_t ta, tb;
  mp_limb_t ba[2], bb[2];
  mpz_class g;
  mpz_gcd(g.get_mpz_t(), a.view(ta, ba), b.view(tb, bb));
  return Weight::from_mpz(std::move(g));
}

Weight lcm(const Weight& a, const Weight& b) {
  if (a == b) return a;
  return a.divexact(gcd(a, b)) * b;
}

}  // namespace alea::compose
