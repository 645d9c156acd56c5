// interpreter/ops/explode.hpp — internal: the rounds of explode, compound and
// penetrate, the one loop the evaluator and the sampler run (explode.cpp): which
// dice explode, the cap, when each check fails, which dice go on.
//
// It works on an engine's adaptor `d` over the pool (ops.hpp, "Shared loops"),
// which also gives:
//   passes(e, f)      whether a die of e's kind that shows f explodes
//   compound(e, f)    f, drawn for e, is to be added to it: the E whose face
//                     takes the sum
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

template <ExplodeMode Mode, class Dice>
void rounds_as(Dice& d, bool explicit_limit, std::int64_t cap) {
  auto& active = d.active;
  active.clear();
  for (std::size_t i = 0; i < d.size(); ++i) {
    const auto die = d.die(i);
    if (d.passes(die, d.face(die))) active.push_back(die);  // the face it shows now
  }
  if (!explicit_limit) d.check_never_stops();
  for (std::int64_t round = 0; !active.empty(); ++round) {
    if (round == cap) {
      if (explicit_limit) break;
      d.fail_limit(cap);
    }
    const std::int64_t* faces = d.draw();
    auto& next = d.next;
    next.clear();
    for (std::size_t i = 0; i < active.size(); ++i) {
      const std::int64_t f = faces[i];
      if constexpr (Mode == ExplodeMode::Compound) {
        const auto die = d.compound(active[i], f);
        std::int64_t sum;
        if (__builtin_add_overflow(d.face(die), f, &sum)) d.fail_overflow(Mode);
        d.set_face(die, sum);
        if (d.passes(die, f)) next.push_back(die);
      } else {
        const auto die = d.append(active[i], i, f);
        if constexpr (Mode == ExplodeMode::Penetrate) {
          std::int64_t less;
          if (__builtin_sub_overflow(f, 1, &less)) d.fail_overflow(Mode);
          d.set_face(die, less);
        }
        if (d.passes(die, f)) next.push_back(die);  // the face drawn, before penetrating
      }
    }
    std::swap(active, next);
  }
}

// Explodes the dice of `d` that pass, round by round, all the dice of a round
// drawn at once. `limit` is the one written, which cuts a chain on purpose; or
// none: then a chain longer than max_depth is an error, and so is a kind of die
// that explodes on every face.
template <class Dice>
void rounds(Dice& d, ExplodeMode mode, std::optional<std::int64_t> limit, std::int64_t max_depth) {
  const std::int64_t cap = limit.value_or(max_depth);
  if (cap < 0) d.fail_negative_limit(cap);
  switch (mode) {
    case ExplodeMode::Explode: return rounds_as<ExplodeMode::Explode>(d, limit.has_value(), cap);
    case ExplodeMode::Compound: return rounds_as<ExplodeMode::Compound>(d, limit.has_value(), cap);
    case ExplodeMode::Penetrate: return rounds_as<ExplodeMode::Penetrate>(d, limit.has_value(), cap);
  }
}

}  // namespace alea::ops::explode
