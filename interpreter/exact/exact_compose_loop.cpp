// interpreter/exact/exact_compose_loop.cpp — `loop s = INIT until C { NEXT }`
// composed as a Markov chain over the loop's states.
//
// The states still looping are one merged distribution. Each round takes
// every distinct live state once: its condition (the runs where the loop ends
// are absorbed with that state as the loop's value) and its next state,
// computed once per state (a transition memo) and merged with the others'.
// The chain stops when no state is live, which is exact, or when the live
// mass is below loop_tail of all runs: that mass is then reported as runs
// still looping after so many rounds (Failures::loop, Composer::loop_rounds),
// never dropped silently. A state that keeps growing (a list appended to in
// every round) makes every state distinct: the budget stops it, and the
// program is sampled. The fields of the state that only count (the rolls, the
// turns: exact_compose_counters.cpp) are left out of the transition memo: the
// next states are computed with them at 0 and moved by the state's own.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "interpreter/exact/exact_compose.hpp"

namespace alea::compose {

namespace {

// The live mass below which a loop stops: 1e-15 of all runs.
constexpr std::uint64_t loop_tail_inverse = 1'000'000'000'000'000ull;

// A transition's outcome: the loop ended with this value, or goes on from it.
Value tagged(bool ended, Value v) { return make_list({Value(ended), std::move(v)}); }

// The transitions of one loop, by state.
class Transitions {
 public:
  const Dist* find(const Value& s) const {
    auto it = index_.find(hash_value(s));
    if (it == index_.end()) return nullptr;
    for (std::size_t i : it->second) {
      if (same(states_[i].first, s)) return &states_[i].second;
    }
    return nullptr;
  }
  const Dist& add(const Value& s, Dist d) {
    index_[hash_value(s)].push_back(states_.size());
    states_.emplace_back(s, std::move(d));
    return states_.back().second;
  }

 private:
  std::vector<std::pair<Value, Dist>> states_;
  std::unordered_map<std::size_t, std::vector<std::size_t>> index_;
};

Weight live_mass(const Dist& live) {
  Weight m = 0;
  for (const auto& [v, w] : live.entries) m += w;
  return m;
}

// Counters at most this large in magnitude are moved as counters (a state with a larger
// one is computed as it is). A counter is moved by amounts of at most 2^31, each `+` of
// the next state's expression once (exact_compose_counters.cpp): no sum overflows from 0
// where it would not from the state's counters, nor the other way.
constexpr std::int64_t loop_counter_bound = std::int64_t{1} << 40;

// `s` with each of `counters` set to 0: null when s is not a record with each of them an int
// within loop_counter_bound.
std::optional<Value> counters_at_zero(const Value& s, const std::vector<std::string>& counters) {
  const RecordData* r = s.as_record();
  if (!r) return std::nullopt;
  std::vector<Value> values = r->values;
  for (const std::string& f : counters) {
    const auto at = std::find(r->names.begin(), r->names.end(), f);
    if (at == r->names.end()) return std::nullopt;
    Value& v = values[static_cast<std::size_t>(at - r->names.begin())];
    const std::int64_t* n = v.as_int();
    if (!n || *n > loop_counter_bound || *n < -loop_counter_bound) return std::nullopt;
    v = Value(std::int64_t{0});
  }
  return make_record(r->names, std::move(values));
}

// A next state `x` computed from a state with its counters at 0, moved by `s`'s.
Value moved_by(const Value& x, const Value& s, const std::vector<std::string>& counters) {
  const RecordData* r = x.as_record();
  if (!r) not_composable("a loop's next state that is not a record");
  std::vector<Value> values = r->values;
  for (const std::string& f : counters) {
    const auto at = std::find(r->names.begin(), r->names.end(), f);
    const Value* by = s.field(f);
    const std::int64_t* n = at == r->names.end() ? nullptr : values[static_cast<std::size_t>(at - r->names.begin())].as_int();
    const std::int64_t* add = by ? by->as_int() : nullptr;
    std::int64_t moved = 0;
    if (!n || !add || __builtin_add_overflow(*n, *add, &moved)) not_composable("a loop's counter that cannot be moved");
    values[static_cast<std::size_t>(at - r->names.begin())] = Value(moved);
  }
  return make_record(r->names, std::move(values));
}

}  // namespace

Dist Composer::loop(const ast::Loop& k, const ast::Expr& e) {
  // Restored on return only: a throw abandons the whole composition, frames and all.
  const Value saved = slot(k.slot);
  Dist live = eval(*k.init, Demand::Full);
  Transitions transitions;
  // The counters of the state, and the next states of each state with them at 0.
  const std::vector<std::string> counters =
      live.entries.empty() ? std::vector<std::string>{} : loop_counters(k, e, live.entries[0].first);
  Transitions nexts;
  counters_.insert(counters.begin(), counters.end());
  // The evaluator's error for the runs that reach max_loop_iterations.
  std::shared_ptr<const Diagnostic> too_long;
  // One round from state s: [true, s] where the loop ends, [false, next] where it goes on.
  auto step = [&](const Value& s, bool last) -> Dist {
    const std::optional<Value> zero = counters.empty() || last ? std::nullopt : counters_at_zero(s, counters);
    if (zero) {
      // The condition on the state as it is; its next states from the memo of those at 0.
      return with_slot(k.slot, s, [&] {
        const Dist c = eval(*k.cond, Demand::Counted);
        return bind(budget_, c, [&](const Value& cv) {
          if (to_bool(cv) == k.until) return Dist::point(tagged(true, s));
          const Dist* next = nexts.find(*zero);
          if (!next) next = &nexts.add(*zero, with_slot(k.slot, *zero, [&] { return eval(*k.next, Demand::Full); }));
          return map(budget_, *next, [&](const Value& x) { return tagged(false, moved_by(x, s, counters)); });
        });
      });
    }
    if (!last) {
      if (const Dist* t = transitions.find(s)) return *t;
    }
    Dist r = with_slot(k.slot, s, [&] {
      const Dist c = eval(*k.cond, Demand::Counted);
      std::optional<Dist> next;
      return bind(budget_, c, [&](const Value& cv) {
        if (to_bool(cv) == k.until) return Dist::point(tagged(true, s));
        if (last) {
          if (!too_long) {
            too_long = std::make_shared<const Diagnostic>(
                DiagCode::LoopLimitExceeded, e.span,
                fmt::format("the loop ran {} times without ending (max_loop_iterations)", limits_.max_loop_iterations));
          }
          Dist failed;
          failed.fail.err = 1;
          failed.fail.error = too_long;
          return failed;
        }
        if (!next) next = eval(*k.next, Demand::Full);
        return map(budget_, *next, [](const Value& x) { return tagged(false, x); });
      });
    });
    if (last) return r;
    return transitions.add(s, std::move(r));
  };
  // The values the loop ended with in each round, each over that round's total.
  std::vector<Dist> ended;
  for (std::int64_t round = 0; !live.entries.empty(); ++round) {
    const Weight mass = live_mass(live);
    if (mass * Weight(loop_tail_inverse) < live.total) {
      // Less than loop_tail of the runs are still looping: they are not counted.
      live.fail.loop += mass;
      live.entries.clear();
      loop_rounds_ = loop_rounds_ == 0 ? round : std::min(loop_rounds_, round);
      break;
    }
    const bool last = round >= limits_.max_loop_iterations;
    Dist next = bind(budget_, live, [&](const Value& s) { return step(s, last); });
    if (next.steps > limits_.max_steps) not_composable("a run would take more than max_steps steps");
    if (next.dice > limits_.max_dice) not_composable("a run could roll more than max_dice dice");
    Dist done;
    done.total = next.total;
    live.entries.clear();
    for (auto& [v, w] : next.entries) {
      const auto& pair = *v.as_list();
      (*pair[0].as_bool() ? done : live).entries.emplace_back(pair[1], std::move(w));
    }
    live.total = std::move(next.total);
    live.fail = std::move(next.fail);
    live.steps = next.steps;
    live.dice = next.dice;
    if (!done.entries.empty()) ended.push_back(std::move(done));
  }
  // Every round's ended runs over the last total, which each round's total divides.
  Dist out;
  out.total = live.total;
  out.fail = std::move(live.fail);
  out.steps = live.steps;
  out.dice = live.dice;
  slot(k.slot) = saved;
  if (ended.size() == 1 && ended[0].total == out.total) {
    out.entries = std::move(ended[0].entries);
    return out;
  }
  Accumulator acc(budget_);
  for (const Dist& d : ended) {
    const Weight scale = out.total.divexact(d.total);
    for (const auto& [v, w] : d.entries) acc.add(v, w * scale);
  }
  acc.take_into(out);
  return out;
}

}  // namespace alea::compose
