// interpreter/stats.hpp — how a program's value is distributed: exactly, by
// running it once for every possible roll, or by sampling.
//
// Exact mode enumerates each roll's dice as a multiset with its multinomial
// weight (56 outcomes for 3d6, not 216) and sums exact rational probabilities.
// It assumes that a value does not depend on the order of the dice within one
// roll — true of every pool operation; only reading faces by position can
// break it — and checks that on every outcome by running it again with each
// roll's dice in the opposite order; a program that fails the check is sampled.
// The check compares lists as multisets, so a result that lists a roll's dice
// passes it; in exact mode such a list shows the dice in ascending order.
// Explosion chains are followed to `explosion_depth` extra dice (unset: deeper
// and deeper while more than max_cut_off of the runs go past them, within a
// budget of work); the probability of going further is reported as `unresolved`,
// never dropped or spread over the other outcomes. An exact attempt (composing, then
// enumerating) that takes longer than `time_limit`, or needs more than
// `max_branches` runs when that cap is given, is sampled instead: `samples`
// runs on `threads` threads, with 95% confidence intervals; deterministic for
// a given seed and thread count. The time limit makes the method depend on the
// machine's speed: whoever needs the same method everywhere (tests) pins it
// with max_branches, exact_only or sampled_only.
// Whatever the time allows, exact work stops at the engine's
// Limits::max_odds_work and max_odds_memory (then it samples, or fails under
// exact_only), and sampling at max_sample_work, shared equally by the threads
// (then the answer is of the runs taken, marked cut short).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "interpreter/values/bindings.hpp"
#include "interpreter/values/value.hpp"

namespace alea {

class Engine;
struct CompiledProgram;  // interpreter/program.hpp (internal)

enum class StatsMethod { Exact, Sampled };
// What ran the samples: the program lowered to a trace-free form (lowered.hpp),
// or the evaluator, for programs that do not lower. Both give the same runs.
enum class SamplerPath { None, Lowered, Evaluator };

// A probability: exact (exact() = "287/432", in lowest terms; value is that
// fraction rounded toward zero), or an estimate with its 95% confidence
// interval [low, high] (exact() = "").
//
// An exact probability holds its fraction as two integers, not necessarily in
// lowest terms (in 128 bits, or wider in GMP: BigFraction), and writes the
// text only when exact() is called: a composed distribution has hundreds of
// entries, and a caller that reads their values (or prints a few) should not
// pay for reducing and writing every fraction.
struct BigFraction;  // interpreter/big_fraction.hpp

struct Probability {
  double value = 0;
  double low = 0, high = 0;

  // "a/b" in lowest terms ("0/1", "1/1"), or "" for an estimate.
  [[nodiscard]] std::string exact() const;
  // exact(), or "" when that is longer than `longest` characters; a wide
  // fraction is then not written out.
  [[nodiscard]] std::string exact_within(std::size_t longest) const;
  [[nodiscard]] bool is_exact() const { return !text_.empty() || den_ != 0 || big_; }
  // Makes the fraction `text` ("a/b" in lowest terms) the exact probability.
  void set_exact(std::string text) {
    text_ = std::move(text);
    den_ = 0;
    big_.reset();
  }
  // Makes num/den (den > 0, any terms) the exact probability; value is left as it is.
  __extension__ void set_exact(unsigned __int128 num, unsigned __int128 den) {
    text_.clear();
    num_ = num;
    den_ = den;
    big_.reset();
  }
  // Makes the GMP fraction (den > 0, any terms) the exact probability; value is left as it is.
  void set_exact(std::shared_ptr<const BigFraction> fraction) {
    text_.clear();
    den_ = 0;
    big_ = std::move(fraction);
  }
  // The fraction when it is held in GMP integers (any terms), else nullptr.
  [[nodiscard]] const BigFraction* big_fraction() const { return big_.get(); }
  // The fraction when it is held in 128 bits (any terms): true, and num/den set.
  __extension__ bool small_fraction(unsigned __int128& num, unsigned __int128& den) const {
    if (den_ == 0) return false;
    num = num_;
    den = den_;
    return true;
  }

 private:
  std::string text_;
  __extension__ unsigned __int128 num_ = 0, den_ = 0;  // den_ == 0: text_ or big_ holds it
  std::shared_ptr<const BigFraction> big_;
};

struct DistributionEntry {
  Value value;  // a pool is counted as its total
  Probability probability;
};

// How one quantity is distributed: the program's value, or one field of a
// record value. Numbers come in ascending order, false before true, other
// values in the order first met. Each probability is of all runs, so the
// entries and Stats::unresolved add up to 1; mean and sd are of the runs that
// gave a value.
struct Distribution {
  std::string name;  // "" for the value itself, else the field's name
  std::vector<DistributionEntry> entries;
  bool numeric = false;  // every value is a number: mean and sd are set
  double mean = 0, sd = 0;
  std::string exact_mean;  // "15869/1296" when exact and numeric
};

struct Stats {
  StatsMethod method = StatsMethod::Exact;
  std::string reason;      // why it was sampled; empty when exact
  // How an exact answer was found: "composed" (each part's distribution
  // computed once and combined; `runs` counts the branches combined) or
  // "enumerated" (the program run once per outcome); empty when sampled.
  std::string exact_method;
  std::string not_composed;  // why composing did not apply, when it was tried and did not
  std::uint64_t runs = 0;  // outcomes enumerated, or samples drawn
  unsigned threads = 1;    // threads that sampled
  SamplerPath sampler = SamplerPath::None;  // None when exact
  std::string sampler_note;  // with the evaluator: what kept the program from being lowered
  Distribution value;
  std::vector<Distribution> fields;  // one per field when the value is a record
  // The probability of the runs that ended without a value (the distributions
  // above leave them out): cut_off, explosion chains followed past
  // explosion_depth (exact) or past the engine's limit; errors, any other error;
  // still_looping (composed only), the runs of a `loop` still going after
  // loop_rounds rounds, once less than 1e-15 of all runs were.
  Probability unresolved;
  Probability cut_off;
  Probability errors;
  Probability still_looping;
  std::int64_t loop_rounds = 0;
  std::int64_t explosion_depth = 0;  // exact: the extra dice each explosion chain was followed to
  // Exact: a pool's combinations of explosion chains rarer than 1 in this many
  // were cut off too (StatsOptions::explosion_depth); 0: none was.
  std::uint64_t rare_chains = 0;
  std::optional<Diagnostic> first_error;  // the first such error, when it was not a cut-off chain
  // Sampling that ended before `samples_asked` runs: `cut_short` names the
  // limit that stopped it ("max_sample_work", or "max_odds_memory" for the
  // different outcomes kept), or `interrupted` is set when the cancel flag
  // did. The distributions are then of the `runs` taken. With fewer than
  // min_partial_samples runs there is no answer: first_error says why
  // (StepLimitExceeded, SizeLimitExceeded or Interrupted) and the entries are
  // empty.
  bool interrupted = false;
  std::string cut_short;
  std::uint64_t samples_asked = 0;  // when sampled
  // The seconds the exact attempt was given (none: no limit, or no attempt
  // since sampling was asked for) and took (none: no attempt), and the
  // seconds the whole answer took.
  std::optional<double> time_limit;
  std::optional<double> exact_seconds;
  double seconds = 0;
};

// The fewest samples a cut-short or interrupted sampling run answers with.
inline constexpr std::uint64_t min_partial_samples = 100;
// Sampling uses at most this many threads, whatever StatsOptions::threads asks.
inline constexpr unsigned max_stats_threads = 256;

// The seconds an exact attempt takes, by default, before sampling instead:
// 1.5. A sanitizer build runs programs about ten times slower than the plain
// one, so there it is ten times longer, and a program is exact or sampled
// alike in both.
[[nodiscard]] double default_time_limit();
// The longest time limit that can be asked for: a year, in seconds.
inline constexpr double max_time_limit = 365.0 * 24 * 3600;
// max_branches when no cap is given.
inline constexpr std::uint64_t no_branch_cap = UINT64_MAX;

struct StatsOptions {
  // A hard cap on the branches (composing) or runs (enumerating) of an exact
  // answer, past which it is sampled instead; no_branch_cap: the time decides.
  std::uint64_t max_branches = no_branch_cap;
  // Seconds (0 < t <= max_time_limit) the exact attempt may take, composing
  // and enumerating together, before sampling instead (or failing, under
  // exact_only). Unset: default_time_limit, or no limit under exact_only.
  std::optional<double> time_limit;
  // Exact: the extra dice followed per explosion chain. Unset: first
  // first_explosion_depth; while the runs cut off pass max_cut_off of all, the
  // composed answer is computed again with deeper chains, each attempt doing
  // at most deepen_work_factor times the work of the one before (or
  // deepen_min_work) within the time limit, and the deepest answer found is
  // given: the same on every machine. The deeper
  // attempts also cut off a pool's combinations of chains rarer than 1 in
  // first_rare_chains (then 100 times rarer each time): several long chains
  // at once make more pools than the rest of the answer together.
  std::optional<std::int64_t> explosion_depth;
  static constexpr std::int64_t first_explosion_depth = 6;
  static constexpr double max_cut_off = 1e-12;
  static constexpr std::uint64_t first_rare_chains = 10'000'000'000'000;  // 1e13
  static constexpr std::uint64_t deepen_work_factor = 4;
  static constexpr std::uint64_t deepen_min_work = 10'000'000;
  bool exact_only = false;               // fail instead of sampling
  bool sampled_only = false;             // sample even when exact would do
  bool compose = true;                   // exact: compose distributions before enumerating runs
  bool enumerate = true;                 // exact: enumerate runs when composing does not apply
  std::uint64_t samples = 100'000;
  std::uint64_t seed = 0;
  unsigned threads = 0;  // 0: every core; at most max_stats_threads
  bool lowered = true;   // sample through the lowered program when there is one (false: the evaluator)
  // Called now and then from the calling thread with the fraction done (0..1).
  std::function<void(double)> progress;
  // Called now and then while the exact attempt runs, with the seconds it has taken.
  std::function<void(double)> exact_progress;
  // Set by the host (another thread, or a signal handler) to stop early:
  // exact work stops with an Interrupted error, sampling with the runs so far
  // (Stats::interrupted).
  const std::atomic<bool>* cancel = nullptr;
};

// The time limit `options` give the exact attempt, in seconds; nullopt: none.
[[nodiscard]] std::optional<double> time_limit_of(const StatsOptions& options);
// Whether `seconds` may be a time limit: 0 < seconds <= max_time_limit.
[[nodiscard]] bool valid_time_limit(double seconds);
// What a time limit may be, for the messages that refuse one: "more than 0 and at most …".
[[nodiscard]] std::string time_limit_rule();
// "1.5 s", "0.2 s", "120 s": a time limit as messages write it.
[[nodiscard]] std::string seconds_text(double seconds);

// The distribution of `program`'s value with `bindings`. A program that cannot
// be computed either way (exact_only and over budget) comes back with
// `first_error` set and no entries.
[[nodiscard]] Stats compute_stats(const Engine& engine, std::shared_ptr<const CompiledProgram> program,
                                  const Bindings& bindings, const StatsOptions& options);

}  // namespace alea
