// interpreter/exact/exact_multiset.hpp — internal: pools as values in the composed
// exact engine, one per multiset of faces.
//
// A pool's dice are kept sorted by face, so that two orders of the same dice
// are one outcome (nothing composed can see the order: a program that reads it
// is enumerated instead). A die's id names its kind (`tag | index` into a
// PoolKinds table) rather than a record of a trace; a pool given by the host
// keeps its own ids, and an operation that needs the kind of such a die is not
// composed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "interpreter/values/dice.hpp"
#include "interpreter/exact/exact_dist.hpp"
#include "interpreter/exact/exact_pool.hpp"

namespace alea::compose {

class PoolKinds {
 public:
  static constexpr std::uint32_t tag = 0x8000'0000u;
  std::uint32_t id_of(const DieKind& k);
  // The kind of a die of a composed pool, or null for a host's pool.
  [[nodiscard]] const DieKind* kind_of(const PoolDie& d) const {
    if (!(d.id & tag)) return nullptr;
    return &kinds_[d.id & ~tag];
  }

 private:
  std::vector<DieKind> kinds_;
};

// The order a composed pool keeps its dice in.
inline bool by_face_then_id(const PoolDie& a, const PoolDie& b) {
  return a.face != b.face ? a.face < b.face : a.id < b.id;
}

// A pool value with these dice, sorted.
Value make_sorted_pool(std::vector<PoolDie> dice, bool successes);

// A pool that stands for `pool` wherever only its total, its number of dice
// and how few of its largest dice reach a target of at most `reach` are read
// (sum, len, fewest_reaching; detail::OnSummary): its largest dice up to the
// first whose running sum reaches `reach`, then the others evened out, each
// face q or q + 1, with the same total, all of one die id. Pools that differ
// only below that prefix become one. `pool` itself where it is one already,
// or where none can stand for it (a pool of successes, a total that
// overflows), or where it is not a pool.
Value summary_pool(const Value& pool, std::int64_t reach);

// `pool` before a step that changes only the dice passing `t` (PoolStep::only_passing), whose
// result is read only through its summary reaching `reach`: the dice that fail `t` replaced by
// their own summary, which stands for them in the summary of whatever the step makes of the
// others (a summary joined with more dice is a summary of the whole). `pool` itself when a die
// of that summary would pass `t`, or a die's kind is needed and not known.
Value summary_of_failing(const Value& pool, const DieTest& t, const PoolKinds& kinds, std::int64_t reach);

// C(n, k)·m^k for k = 0 … n: the weight of k of n dice showing a face that m
// of their sides show, the others placed elsewhere.
std::vector<Weight> binomial_weights(std::int64_t n, std::uint64_t m);

// The distinct faces of a kind, ascending, with how many of its sides show each.
std::vector<std::pair<std::int64_t, std::uint64_t>> faces_of(const DieKind& k);

// Every multiset of n dice of `kind`, as pools (marked as such: Dist::roll).
Dist roll_pools(Budget& budget, PoolKinds& kinds, const DieKind& kind, std::int64_t n);

// What a step computed for part of a pool, kept for the next pools that the
// same operation, with the same parameters' values, meets in one composition
// (Composer::step_memo): the dice that a multiset of exploding dice adds.
struct StepMemo {
  using Dice = std::vector<std::pair<std::int64_t, std::uint32_t>>;  // (face, id), sorted
  std::map<Dice, Dist> per_die;
  // For the last step of a let's value read only through summaries
  // (summary_pool): their reach. The pools this step makes, and the parts it
  // keeps here, are then summaries.
  std::optional<std::int64_t> reach;
};

// What one step makes of one pool: pools, or numbers for a step that scores.
// `memo`, when given, keeps what it computes for the step's next pools.
Dist apply_step(Budget& budget, PoolKinds& kinds, const PoolStep& step, const Value& pool,
                StepMemo* memo = nullptr);

// Whether a die showing `face` passes t; `kind` is null for a die of a pool
// given by the host, which only a fixed test can judge (else not composed).
bool passes(const DieTest& t, const DieKind* kind, std::int64_t face);

// One step on one multiset of dice (sorted by face), for a family's `on_pools`
// (interpreter/ops/<family>.cpp), with what such steps share.
class StepOnPool {
 public:
  StepOnPool(Budget& b, PoolKinds& k, const PoolStep& s, const PoolData& p, StepMemo* m = nullptr)
      : budget(b), kinds(k), step(s), pool(p), memo(m) {}

  Budget& budget;
  PoolKinds& kinds;
  const PoolStep& step;
  const PoolData& pool;
  StepMemo* memo;  // null: nothing is kept

  // The kind of a die; refused for a die of a pool given by the host.
  const DieKind& need_kind(const PoolDie& d) const;
  // Whether every die of the pool is of one kind.
  [[nodiscard]] bool one_kind() const;
  // Whether die d passes test t (a fixed test needs no kind).
  bool passes(const DieTest& t, const PoolDie& d) const;
  // A die of `kind` drawn anew, as a one-die pool.
  Dist fresh(const DieKind& kind);
  // The dice of two pools as one.
  static Value join(const Value& a, const Value& b);
  // The pool with each die that passes `t` replaced by the pool `chain(die)`
  // gives. What the passing dice become together depends on them alone, so
  // it is kept in `memo` for the next pool with the same passing dice.
  // With `rare` (1 in rare, Budget::rare_chains), the combinations of the
  // passing dice's pools rarer than that are cut off (Failures::cut).
  template <class Chain>
  Dist per_die(const DieTest& t, Chain chain, std::uint64_t rare = 0) {
    std::vector<PoolDie> still;
    StepMemo::Dice passing;
    for (const auto& d : pool.dice) {
      if (passes(t, d)) passing.emplace_back(d.face, d.id);
      else still.push_back(d);
    }
    // A summary of a part joined with more dice is a summary of the whole
    // (summary_pool), so the parts are kept as summaries too. (Where rare
    // combinations are cut, each summary is one: fewer are rare.)
    const std::optional<std::int64_t> reach = memo ? memo->reach : std::nullopt;
    const Value base = summarised(make_sorted_pool(std::move(still), false), reach);
    const auto join_rest = [&](const Value& v) { return join_summary(v, base, pool.successes, reach); };
    auto one_by_one = [&] {
      Dist r = Dist::point(make_sorted_pool({}, false));
      for (const auto& [face, id] : passing) {
        r = product(budget, r, chain(PoolDie{face, id}), join);
        cut_rare(r, rare);
      }
      return r;
    };
    // (Past max_prefixes passing dice, nothing is kept: together recurses once per die.)
    if (!memo || passing.size() > max_prefixes) return map(budget, one_by_one(), join_rest);
    const Dist& parts = together(passing, passing.size(), chain, rare, reach);
    if (!reach || pool.successes) return map(budget, parts, join_rest);
    return join_summaries(parts, base, *reach);
  }

 private:
  static constexpr std::size_t max_prefixes = 64;
  static Value join_as(const Value& a, const Value& b, bool successes);
  // The two joined, as a summary reaching `reach` where there is one.
  static Value join_summary(const Value& a, const Value& b, bool successes, std::optional<std::int64_t> reach);
  // map(parts, join_summary(·, base)), each part and base summaries: joined on
  // their totals, sizes and largest dice alone, a pool made for each distinct
  // result only.
  Dist join_summaries(const Dist& parts, const Value& base, std::int64_t reach);
  // v's summary reaching `reach` (summary_pool), or v when there is none.
  static Value summarised(Value v, std::optional<std::int64_t> reach) {
    return reach ? summary_pool(v, *reach) : v;
  }
  // Moves the outcomes of d rarer than 1 in `rare` to its cut-off share (rare 0:
  // none), and marks the budget when it moves any (Budget::cut_rare_chains).
  void cut_rare(Dist& d, std::uint64_t rare);

  // What the first n passing dice become together, from the memo, or made
  // from what the first n - 1 become (kept too: a pool's passing dice are
  // sorted, so the next pool with more of them starts there).
  template <class Chain>
  const Dist& together(const StepMemo::Dice& passing, std::size_t n, Chain& chain, std::uint64_t rare,
                       std::optional<std::int64_t> reach) {
    StepMemo::Dice key(passing.begin(), passing.begin() + static_cast<std::ptrdiff_t>(n));
    if (auto it = memo->per_die.find(key); it != memo->per_die.end()) return it->second;
    Dist r = n == 0 ? Dist::point(make_sorted_pool({}, false))
                    : product(budget, together(passing, n - 1, chain, rare, reach),
                              chain(PoolDie{passing[n - 1].first, passing[n - 1].second}),
                              [&](const Value& a, const Value& b) { return join_summary(a, b, false, reach); });
    // Cut at each prefix: what is rare among the first n - 1 dice's pools is
    // rarer still joined with the next die's.
    cut_rare(r, rare);
    // The outcomes were counted as they were made; the key counts here.
    budget.charge_memory(sizeof(Dist) + 64 + sizeof(key[0]) * key.size());
    return memo->per_die.emplace(std::move(key), std::move(r)).first->second;
  }
};

}  // namespace alea::compose
