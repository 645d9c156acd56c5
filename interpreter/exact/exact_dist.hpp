// interpreter/exact/exact_dist.hpp — internal: finite distributions with integer
// weights, the values the composed exact engine computes for every expression.
//
// A Dist holds distinct values (compared structurally: a pool by its dice, not
// by its total) with weights, and the weight of the runs that end without a
// value: explosion chains cut off at the depth, runs that end in one error, and
// runs of a `loop` still going when the rest of the mass was negligible.
// Probabilities are weights over `total`. Two Dists of expressions evaluated
// one after the other combine as "the first, then the second": the runs that
// fail in the first never reach the second.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "interpreter/exact/exact_weight.hpp"
#include "interpreter/values/value.hpp"

namespace alea::compose {

// Thrown when composing does not apply (an error some run would meet, an
// operation that sees the order of dice…): the program is enumerated instead.
struct NotComposable {
  std::string why;
};
// Thrown when composing would pass a budget: `limit` names it (max_branches,
// max_odds_work or max_odds_memory).
struct OverBudget {
  std::string limit;
};
// Thrown when the host raised the cancel flag (StatsOptions::cancel).
struct Cancelled {};

[[noreturn]] void not_composable(std::string why);
// A pool's faces in order (an index, a `for`): the composer keeps a pool's dice sorted,
// their roll order lost, so only a pool whose faces are all alike can be read in order.
const std::vector<PoolDie>& read_in_order(const PoolData& pool);
[[noreturn]] void order_not_kept();

// The runs that end without a value.
struct Failures {
  Weight cut;  // explosion chains followed past the depth
  Weight err;  // runs that end in `error`
  Weight loop;  // runs still looping when a loop's live mass fell below loop_tail (not counted)
  std::shared_ptr<const Diagnostic> error;

  // These failures, then `later`'s for the `ok` of `own_total` runs that got past them.
  void then(const Failures& later, const Weight& later_total, const Weight& ok);
  void scale(const Weight& k) {
    cut *= k;
    err *= k;
    if (!loop.is_zero()) loop *= k;
  }
  [[nodiscard]] bool none() const { return cut.is_zero() && err.is_zero() && loop.is_zero(); }
};

// Whether two values are the same outcome: equal and indistinguishable by any
// later operation (unlike ==, which compares pools by their totals).
bool same(const Value& a, const Value& b);
std::size_t hash_value(const Value& v);

struct Dist {
  std::vector<std::pair<Value, Weight>> entries;  // distinct values, nonzero weights
  Weight total = 1;
  Failures fail;
  std::int64_t steps = 0;  // most expression nodes one run evaluates for it
  std::int64_t dice = 0;   // most dice one run rolls for it
  // Set when the entries are every multiset of `n` dice of one kind, the die id
  // `id` (roll_pools): an operation may then count them face by face instead
  // of taking them one by one. Whatever makes a new distribution leaves it unset.
  struct Roll {
    std::uint32_t id = 0;
    std::int64_t n = 0;
  };
  std::optional<Roll> roll;
  // The bytes counted against max_odds_memory for its entries as they were
  // made (Accumulator::take_into); a mixture that takes it up gives back, up
  // to this, what it alone held (Budget::release).
  std::uint64_t held = 0;

  static Dist point(Value v) {
    Dist d;
    d.entries.emplace_back(std::move(v), Weight(1));
    return d;
  }
  [[nodiscard]] Weight ok() const { return total - fail.cut - fail.err - fail.loop; }
  [[nodiscard]] bool is_point() const {
    return entries.size() == 1 && fail.none() && entries[0].second == total;
  }
};

struct Budget;

// Merges weights of equal values (by same()); counts every addition as a
// branch, and every new entry's bytes as memory held.
class Accumulator {
 public:
  explicit Accumulator(Budget& budget) : budget_(budget) {}
  // With `shared`, contents of v that another value holds too (an outcome of
  // the distribution v was made from, by map or product) were counted there
  // and are not counted again; otherwise v is counted whole, as the only
  // holder of what it holds.
  void add(Value v, const Weight& w, bool shared = false);
  // Every weight so far times k.
  void scale(const Weight& k);
  // The entries merged so far, and the bytes counted for them, into d.
  void take_into(Dist& d) {
    table_.clear();
    hashes_.clear();
    d.entries = std::move(entries_);
    d.held = charged_;
    charged_ = 0;
  }

 private:
  Budget& budget_;
  std::uint64_t charged_ = 0;
  std::vector<std::pair<Value, Weight>> entries_;
  // Once there are many entries: each one's hash, and an open-addressed table
  // of their places (index + 1; 0 is free), probed linearly.
  std::vector<std::size_t> hashes_;
  std::vector<std::uint32_t> table_;
  void place(std::size_t i);
  // The first slot to probe for hash h: its high bits after a multiply, so that
  // hashes alike in their low bits (ints are their own hash) still spread.
  [[nodiscard]] std::size_t slot_of(std::size_t h) const {
    return static_cast<std::size_t>((h * 0x9E3779B97F4A7C15ull) >> (64 - std::countr_zero(table_.size())));
  }
};

// The counters and ceilings shared by every combination in one computation.
// `branches` are outcomes combined (max_branches, the caller's); `work` is
// the same plus the work that is not a branch (DP cells, weights wider than
// 128 bits), against max_odds_work whatever max_branches allows; `memory` the
// bytes of the outcomes held: every one created, but those of a distribution
// a mixture took up, that nothing else holds (max_odds_memory). Every
// charge polls the cancel flag; every `poll_every` units of work, the clock,
// against `deadline` (time_limit), and reports the time spent to `progress`.
struct Budget {
  using Clock = std::chrono::steady_clock;
  // Reading the clock costs tens of nanoseconds; a unit of work a few: once per
  // this many units, the deadline is checked within about a millisecond.
  static constexpr std::uint64_t poll_every = 4096;

  std::uint64_t branches = 0;
  std::uint64_t max = 0;
  std::uint64_t work = 0;
  std::uint64_t max_work = UINT64_MAX;
  std::uint64_t memory = 0;
  std::uint64_t max_memory = UINT64_MAX;
  const std::atomic<bool>* cancel = nullptr;
  // Explosion chains on a pool: a combination of the chains of its dice rarer
  // than 1 in `rare_chains` (among that pool's combinations) is cut off as a
  // chain past the depth is (0: none is). StatsOptions::explosion_depth.
  std::uint64_t rare_chains = 0;
  bool cut_rare_chains = false;  // whether any combination was cut so

  // No deadline and no progress: the clock is never read.
  void set_clock(Clock::time_point start_at, Clock::time_point deadline_at,
                 const std::function<void(double)>* progress_to) {
    start = start_at;
    deadline = deadline_at;
    progress = progress_to && *progress_to ? progress_to : nullptr;
    next_poll = deadline == Clock::time_point::max() && !progress ? UINT64_MAX : work + poll_every;
  }

  [[nodiscard]] Clock::time_point deadline_at() const { return deadline; }

  void charge(std::uint64_t n) {
    branches += n;
    work += n;
    check();
  }
  // Work that is not a branch of the result.
  void charge_work(std::uint64_t n) {
    work += n;
    check();
  }
  void charge_memory(std::uint64_t bytes) {
    memory += bytes;
    check();
  }
  // Bytes counted before that are no longer held.
  void release(std::uint64_t bytes) { memory -= std::min(memory, bytes); }
  // Before a step known to take `n` branches holding `bytes`: fails now
  // rather than after spending the budget (the time too, at the rate so far).
  void expect(std::uint64_t n, std::uint64_t bytes) const { expect(n, n, bytes); }
  // The same, for a step that also does `work` units that are not branches
  // (the cells of a dynamic program).
  void expect(std::uint64_t n, std::uint64_t work_units, std::uint64_t bytes) const {
    if (n > max - std::min(max, branches)) throw OverBudget{"max_branches"};
    if (work_units > max_work - std::min(max_work, work)) throw OverBudget{"max_odds_work"};
    if (bytes > max_memory - std::min(max_memory, memory)) throw OverBudget{"max_odds_memory"};
    if (deadline != Clock::time_point::max() && past_deadline_after(n)) throw OverBudget{"time_limit"};
  }
  void check() {
    if (branches > max) throw OverBudget{"max_branches"};
    if (work > max_work) throw OverBudget{"max_odds_work"};
    if (memory > max_memory) throw OverBudget{"max_odds_memory"};
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled{};
    if (work >= next_poll) poll_clock();
  }

 private:
  Clock::time_point start{};
  Clock::time_point deadline = Clock::time_point::max();
  const std::function<void(double)>* progress = nullptr;
  std::uint64_t next_poll = UINT64_MAX;
  // The time spent is reported ten times a second.
  static constexpr std::chrono::milliseconds report_every{100};
  Clock::time_point next_report{};

  void poll_clock();  // throws OverBudget{"time_limit"} past the deadline
  // Whether `n` more units of work, at the rate so far, end past the deadline.
  [[nodiscard]] bool past_deadline_after(std::uint64_t n) const;
};

// The bytes a value holds, roughly: what an outcome costs to keep.
std::uint64_t value_bytes(const Value& v);

using ValueFn = std::function<Value(const Value&)>;
using PairFn = std::function<Value(const Value&, const Value&)>;
using BindFn = std::function<Dist(const Value&)>;
using BindManyFn = std::function<Dist(const std::vector<Value>&)>;

// f of each value.
Dist map(Budget& b, const Dist& d, const ValueFn& f);
// `a`, then `b` (independent), combined by f.
Dist product(Budget& b, const Dist& a, const Dist& d, const PairFn& f);
// For each value of `outer`, the distribution f gives for it; weights are
// brought to a common total (the lcm of the inner totals).
Dist bind(Budget& b, const Dist& outer, const BindFn& f);
// For each combination of the values of `parts` (evaluated in order), what f
// gives for it: bind over all the parts at once, without building lists.
Dist bind_many(Budget& b, const std::vector<Dist>& parts, const BindManyFn& f);

}  // namespace alea::compose
