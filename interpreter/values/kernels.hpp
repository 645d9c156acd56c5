// interpreter/values/kernels.hpp — internal: the integer arithmetic, comparisons and
// die tests that the evaluator, the composed exact engine and the sampler all
// compute, written once. Header-only and inline: the sampler's and the exact
// engine's inner loops call them.
//
// A checked operation gives its value or the DiagCode of its failure; each
// engine reports that in its own way (a diagnostic at its own place, a lowered
// run's Fail, a composition refused).
#pragma once

#include <cstdint>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"
#include "interpreter/values/dice.hpp"

namespace alea::kernel {

struct Checked {
  std::int64_t value = 0;
  bool failed = false;
  DiagCode code = DiagCode::IntegerOverflow;  // when failed: IntegerOverflow or DivisionByZero
};

constexpr Checked overflow() { return {0, true, DiagCode::IntegerOverflow}; }
constexpr Checked division_by_zero() { return {0, true, DiagCode::DivisionByZero}; }

inline Checked add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return overflow();
  return {r};
}
inline Checked sub(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) return overflow();
  return {r};
}
inline Checked mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return overflow();
  return {r};
}
inline Checked neg(std::int64_t a) { return sub(0, a); }
constexpr Checked abs(std::int64_t a) {
  if (a == INT64_MIN) return overflow();
  return {a < 0 ? -a : a};
}

// a / b rounded toward zero; the other divisions start from it. A zero divisor
// is found first, then the one quotient that overflows (INT64_MIN / -1).
constexpr Checked trunc_div(std::int64_t a, std::int64_t b) {
  if (b == 0) return division_by_zero();
  if (a == INT64_MIN && b == -1) return overflow();
  return {a / b};
}

// Rounded toward negative infinity: `/` and floor_div. With floor_mod,
// a / b * b + a % b == a always holds.
constexpr Checked floor_div(std::int64_t a, std::int64_t b) {
  Checked q = trunc_div(a, b);
  if (!q.failed && a % b != 0 && ((a < 0) != (b < 0))) --q.value;
  return q;
}

// Takes the sign of the divisor: `%`. Only a zero divisor fails (INT64_MIN % -1 is 0).
constexpr Checked floor_mod(std::int64_t a, std::int64_t b) {
  if (b == 0) return division_by_zero();
  if (b == -1) return {0};
  std::int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return {r};
}

// Rounded toward positive infinity.
constexpr Checked ceil_div(std::int64_t a, std::int64_t b) {
  Checked q = trunc_div(a, b);
  if (!q.failed && a % b != 0 && ((a < 0) == (b < 0))) ++q.value;
  return q;
}

// Rounded to the nearest integer; a half rounds away from zero (7/2 → 4, -7/2 → -4).
constexpr Checked round_div(std::int64_t a, std::int64_t b) {
  Checked q = trunc_div(a, b);
  if (q.failed) return q;
  const std::int64_t r = a % b;
  // |2r| >= |b| without overflow: compare |r| with |b| - |r|.
  const std::uint64_t ar = r < 0 ? -static_cast<std::uint64_t>(r) : static_cast<std::uint64_t>(r);
  const std::uint64_t ab = b < 0 ? -static_cast<std::uint64_t>(b) : static_cast<std::uint64_t>(b);
  if (ar >= ab - ar && r != 0) q.value += ((a < 0) != (b < 0)) ? -1 : 1;
  return q;
}

// Whether `x op y` holds.
constexpr bool compare(ast::CmpOp op, std::int64_t x, std::int64_t y) {
  switch (op) {
    case ast::CmpOp::Eq: return x == y;
    case ast::CmpOp::Ne: return x != y;
    case ast::CmpOp::Lt: return x < y;
    case ast::CmpOp::Le: return x <= y;
    case ast::CmpOp::Gt: return x > y;
    case ast::CmpOp::Ge: return x >= y;
  }
  return false;
}

// Whether every face 1..n (n >= 1) passes `op value`: decided from the bounds,
// without visiting a million faces.
constexpr bool every_face_passes(ast::CmpOp op, std::int64_t value, std::int64_t n) {
  switch (op) {
    case ast::CmpOp::Eq: return n == 1 && value == 1;
    case ast::CmpOp::Ne: return value < 1 || value > n;
    case ast::CmpOp::Lt: return value > n;
    case ast::CmpOp::Le: return value >= n;
    case ast::CmpOp::Gt: return value < 1;
    case ast::CmpOp::Ge: return value <= 1;
  }
  return false;
}

// A condition on a die's face, its value computed: fixed (`>=5`), or else the
// die's own highest (or lowest) face, which depends on the die.
struct DieTest {
  bool fixed = false;
  ast::CmpOp op = ast::CmpOp::Eq;
  std::int64_t value = 0;
  bool highest = true;  // without a fixed value: the die's highest face, else its lowest

  [[nodiscard]] bool operator()(const DieKind& k, std::int64_t face) const {
    if (!fixed) return face == (highest ? k.max_face() : k.min_face());
    return compare(op, face, value);
  }
  // Every face of `k` passes: an explosion or reroll that could never stop.
  [[nodiscard]] bool always(const DieKind& k) const {
    if (k.is_plain() && fixed) return every_face_passes(op, value, k.max_face());
    for (std::int64_t i = 0; i < k.face_count(); ++i) {
      if (!(*this)(k, k.face(i))) return false;
    }
    return true;
  }
};

}  // namespace alea::kernel
