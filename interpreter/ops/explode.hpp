// interpreter/ops/explode.hpp — internal: the rounds of explode, compound and
// penetrate, the one loop the evaluator and the sampler run (explode.cpp): which
// dice explode, the cap, when each check fails, which dice go on.
//
// It works on an engine's adaptor `d` over the pool (ops.hpp, "Shared loops"),
// which also gives:
//   passes(e, f)      whether a die of e's kind that shows f explodes
//   compound(e, f)    f, drawn for e, is to be added to it: the E whose face
//                     takes the sum
//   draw_new()        draw()'s faces when each is to join the pool (the
//                     sampler draws them straight into their places)
//   append(e, i, f)   f, the round's i-th face, drawn for e, joins the pool as
//                     a new die: its E
//   check_never_stops()  fails when a kind of die in the pool explodes on
//                        every face
//   fail_negative_limit(cap), fail_limit(cap), fail_overflow(mode)
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "interpreter/ops/ops.hpp"

namespace alea::ops::explode {

// Explodes the dice of `d` that pass, round by round, all the dice of a round
// drawn at once. `limit` is the one written, which cuts a chain on purpose; or
// none: then a chain longer than max_depth is an error, and so is a kind of die
// that explodes on every face. One loop for the three modes, as the sampler
// had it: a copy for each mode draws in three places, which the compiler then
// does not inline.
template <class Dice>
void rounds(Dice& d, ExplodeMode mode, std::optional<std::int64_t> limit, std::int64_t max_depth) {
  const std::int64_t cap = limit.value_or(max_depth);
  if (cap < 0) d.fail_negative_limit(cap);
  auto& active = d.active;
  active.clear();
  for (std::size_t i = 0, m = d.size(); i < m; ++i) {
    const auto die = d.die(i);
    if (d.passes(die, d.face(die))) active.push_back(die);  // the face it shows now
  }
  if (!limit) d.check_never_stops();
  for (std::int64_t round = 0; !active.empty(); ++round) {
    if (round == cap) {
      if (limit) break;
      d.fail_limit(cap);
    }
    auto& next = d.next;
    next.clear();
    if (mode == ExplodeMode::Compound) {
      const std::int64_t* faces = d.draw();
      for (std::size_t i = 0, n = active.size(); i < n; ++i) {
        const std::int64_t f = faces[i];
        const auto die = d.compound(active[i], f);
        std::int64_t sum;
        if (__builtin_add_overflow(d.face(die), f, &sum)) d.fail_overflow(mode);
        d.set_face(die, sum);
        if (d.passes(die, f)) next.push_back(die);
      }
    } else {
      const std::int64_t* faces = d.draw_new();
      for (std::size_t i = 0, n = active.size(); i < n; ++i) {
        const std::int64_t f = faces[i];
        const auto die = d.append(active[i], i, f);
        if (mode == ExplodeMode::Penetrate) {
          std::int64_t less;
          if (__builtin_sub_overflow(f, 1, &less)) d.fail_overflow(mode);
          d.set_face(die, less);
        }
        if (d.passes(die, f)) next.push_back(die);  // the face drawn, before penetrating
      }
    }
    std::swap(active, next);
  }
}

}  // namespace alea::ops::explode
