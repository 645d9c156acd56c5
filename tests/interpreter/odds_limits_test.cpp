// tests/interpreter/odds_limits_test.cpp — the odds engine's own limits:
// exact work and memory (max_odds_work, max_odds_memory) whatever max_branches
// allows, the total work of sampling (max_sample_work), the thread count, and
// the cancel flag. Each hostile program here ran for minutes or hours, or
// grew past a gigabyte, before these limits; each must now end quickly.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace odds_limits_test {

Stats stats_of(const Engine& engine, std::string_view source, const StatsOptions& options) {
  const Compiled c = engine.compile(source);
  if (!c.ok()) throw std::runtime_error(render_text(c.diagnostics));
  return compute_stats(engine, c.program, {}, options);
}

Stats stats_of(std::string_view source, const StatsOptions& options) { return stats_of(Engine(), source, options); }

Engine with_limits(void (*set)(Limits&)) {
  EngineOptions o;
  set(o.limits);
  return Engine(o);
}

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

StatsOptions exact_only(std::uint64_t max_branches = StatsOptions{}.max_branches) {
  StatsOptions o;
  o.exact_only = true;
  o.max_branches = max_branches;
  return o;
}

// A cap on the branches pins the method: with the time alone, a million outcomes are exact
// on a fast machine.
constexpr std::uint64_t old_default_cap = 100'000;

TEST(OddsLimits, AHugeDieIsRefusedBeforeItsFirstRun) {
  const Stats s = stats_of("d1000000+1", exact_only(old_default_cap));
  ASSERT_TRUE(s.first_error);
  EXPECT_TRUE(has(s.first_error->message, "(max_branches)")) << s.first_error->message;
  EXPECT_TRUE(s.value.entries.empty());
}

TEST(OddsLimits, AHugeDieFallsBackToSampling) {
  StatsOptions o;
  o.max_branches = old_default_cap;
  o.samples = 2000;
  o.threads = 2;
  const Stats s = stats_of("d1000000+1", o);
  EXPECT_EQ(s.method, StatsMethod::Sampled);
  EXPECT_EQ(s.runs, 2000u);
  EXPECT_TRUE(s.cut_short.empty());
}

TEST(OddsLimits, AThousandDiceKeepingHalfStopsAtALimit) {
  const Stats s = stats_of("1000d1000kh500", exact_only());
  ASSERT_TRUE(s.first_error);
  EXPECT_TRUE(has(s.first_error->message, "no exact answer")) << s.first_error->message;
  EXPECT_TRUE(has(s.first_error->message, "(max_")) << s.first_error->message;
}

TEST(OddsLimits, RaisingMaxBranchesDoesNotLetMemoryRunAway) {
  // 10 million multisets of 20 dice, each kept as a pool: gigabytes.
  const Stats s = stats_of("for x in 20d10 { x }", exact_only(1'000'000'000'000));
  ASSERT_TRUE(s.first_error);
  EXPECT_TRUE(has(s.first_error->message, "(max_odds_memory)") || has(s.first_error->message, "(max_odds_work)"))
      << s.first_error->message;
}

TEST(OddsLimits, ComposingStopsAtMaxOddsWorkAndSaysSo) {
  const Engine e = with_limits([](Limits& l) { l.max_odds_work = 50; });
  StatsOptions o;
  o.compose = true;
  o.exact_only = true;
  o.max_branches = 1'000'000'000;
  const Stats s = stats_of(e, "10d6", o);
  ASSERT_TRUE(s.first_error);
  EXPECT_TRUE(has(s.first_error->message, "(max_odds_work)")) << s.first_error->message;
}

TEST(OddsLimits, EnumeratingStopsAtMaxOddsWork) {
  const Engine e = with_limits([](Limits& l) { l.max_odds_work = 2000; });
  StatsOptions o = exact_only(1'000'000'000);
  o.compose = false;
  const Stats s = stats_of(e, "4d6kh3", o);
  ASSERT_TRUE(s.first_error);
  EXPECT_TRUE(has(s.first_error->message, "(max_odds_work)")) << s.first_error->message;
}

TEST(OddsLimits, EnumeratingStopsAtMaxOddsMemory) {
  const Engine e = with_limits([](Limits& l) { l.max_odds_memory = 2000; });
  StatsOptions o = exact_only();
  o.compose = false;
  const Stats s = stats_of(e, "[d6, d6, d6]", o);
  ASSERT_TRUE(s.first_error);
  EXPECT_TRUE(has(s.first_error->message, "(max_odds_memory)")) << s.first_error->message;
}

// Each roll of seven dice makes its exploded pools, which then merge into the
// few that what follows reads: over the whole computation they pass 9 MB, but
// no more than 2 MB are held at once, and that is what the limit measures.
TEST(OddsLimits, MaxOddsMemoryCountsTheOutcomesHeldNotEveryOneMade) {
  const Engine e = with_limits([](Limits& l) { l.max_odds_memory = 4'000'000; });
  const Stats s = stats_of(
      e, "let w = 7d6 in let p = w explode 6 limit 3 in let s = sum(p) in if s >= 20 then fewest_reaching(p, 20) else 0",
      exact_only());
  EXPECT_FALSE(s.first_error) << s.first_error->message;
  EXPECT_EQ(s.method, StatsMethod::Exact);
}

TEST(OddsLimits, WithinTheLimitsTheAnswerStaysExact) {
  const Stats s = stats_of("4d6kh3", exact_only());
  EXPECT_FALSE(s.first_error);
  EXPECT_EQ(s.method, StatsMethod::Exact);
  EXPECT_EQ(s.value.exact_mean, "15869/1296");
}

// 3000 steps a run: 100,000 runs would take a minute.
const std::string long_runs = "sum(repeat 1000 { d6 })";

TEST(OddsLimits, SamplingStopsAtMaxSampleWorkWithTheRunsTaken) {
  StatsOptions o;
  o.sampled_only = true;
  o.threads = 2;
  o.seed = 3;
  const Engine e = with_limits([](Limits& l) { l.max_sample_work = 2'000'000; });
  const Stats s = stats_of(e, long_runs, o);
  EXPECT_EQ(s.method, StatsMethod::Sampled);
  EXPECT_EQ(s.cut_short, "max_sample_work");
  EXPECT_FALSE(s.interrupted);
  EXPECT_EQ(s.samples_asked, 100'000u);
  EXPECT_GE(s.runs, min_partial_samples);
  EXPECT_LT(s.runs, 2000u);
  EXPECT_FALSE(s.value.entries.empty());
  EXPECT_NEAR(s.value.mean, 3500, 60);
  // The same seed and threads stop at the same run, with the same answer.
  const Stats again = stats_of(e, long_runs, o);
  EXPECT_EQ(again.runs, s.runs);
  EXPECT_EQ(again.value.mean, s.value.mean);
}

TEST(OddsLimits, TooFewSamplesWithinMaxSampleWorkIsAnError) {
  StatsOptions o;
  o.sampled_only = true;
  o.threads = 1;
  const Engine e = with_limits([](Limits& l) { l.max_sample_work = 30'000; });
  const Stats s = stats_of(e, long_runs, o);
  ASSERT_TRUE(s.first_error);
  EXPECT_EQ(s.first_error->code, DiagCode::StepLimitExceeded);
  EXPECT_TRUE(has(s.first_error->message, "(max_sample_work)")) << s.first_error->message;
  EXPECT_TRUE(s.value.entries.empty());
}

// An outcome that prints past max_render_size would be cut short, and its
// cut text could equal another's: it is counted as an error, never merged.
TEST(OddsLimits, AnOutcomeTooLongToPrintIsAnErrorNotMergedWithAnother) {
  const Engine e = with_limits([](Limits& l) { l.max_render_size = 8; });  // "[1, 2, 3]" is 9 bytes
  const std::string_view source = "if d2 == 1 then repeat 3 { d6 } else [2]";
  for (const bool sampled : {true, false}) {
    StatsOptions o;
    o.sampled_only = sampled;
    o.exact_only = !sampled;
    o.compose = false;  // the enumeration, which keeps each outcome by how it prints
    o.samples = 4000;
    o.threads = 1;
    const Stats s = stats_of(e, source, o);
    ASSERT_EQ(s.value.entries.size(), 1u) << "sampled " << sampled;
    EXPECT_EQ(to_display(s.value.entries[0].value), "[2]");
    ASSERT_TRUE(s.first_error) << "sampled " << sampled;
    EXPECT_EQ(s.first_error->code, DiagCode::SizeLimitExceeded);
    EXPECT_TRUE(has(s.first_error->message, "(max_render_size)")) << s.first_error->message;
    EXPECT_NEAR(s.errors.value, 0.5, sampled ? 0.05 : 0.0);  // 4,000 runs: 0.05 is over 6 sd
  }
}

// Each different outcome sampling keeps counts against max_odds_memory:
// a list of 200 dice is a new one every run.
TEST(OddsLimits, SamplingStopsAtMaxOddsMemoryWithTheRunsTaken) {
  StatsOptions o;
  o.sampled_only = true;
  o.threads = 2;
  o.seed = 3;
  const Engine e = with_limits([](Limits& l) { l.max_odds_memory = 4'000'000; });
  const Stats s = stats_of(e, "repeat 200 { d6 }", o);
  EXPECT_EQ(s.cut_short, "max_odds_memory");
  EXPECT_GE(s.runs, min_partial_samples);
  EXPECT_LT(s.runs, 10'000u);
  EXPECT_EQ(s.value.entries.size(), s.runs);  // no two alike
  const Engine tight = with_limits([](Limits& l) { l.max_odds_memory = 40'000; });
  const Stats none = stats_of(tight, "repeat 200 { d6 }", o);
  ASSERT_TRUE(none.first_error);
  EXPECT_EQ(none.first_error->code, DiagCode::SizeLimitExceeded);
  EXPECT_TRUE(has(none.first_error->message, "(max_odds_memory)")) << none.first_error->message;
}

TEST(OddsLimits, TheLoweredSamplerCountsItsWorkToo) {
  StatsOptions o;
  o.sampled_only = true;
  o.threads = 2;
  o.samples = 1'000'000;
  const Engine e = with_limits([](Limits& l) { l.max_sample_work = 5000; });
  const Stats s = stats_of(e, "3d6", o);
  EXPECT_EQ(s.sampler, SamplerPath::Lowered);
  EXPECT_EQ(s.cut_short, "max_sample_work");
  EXPECT_GE(s.runs, min_partial_samples);
  EXPECT_LE(s.runs, 5000u);
}

TEST(OddsLimits, ThreadsPastTheMaximumAreClamped) {
  StatsOptions o;
  o.sampled_only = true;
  o.threads = 5000;
  o.samples = 1000;
  const Stats s = stats_of("3d6", o);
  EXPECT_EQ(s.threads, max_stats_threads);
  EXPECT_EQ(s.runs, 1000u);
}

TEST(OddsLimits, ARaisedFlagStopsExactWorkWithInterrupted) {
  const std::atomic<bool> stop{true};
  StatsOptions o;
  o.cancel = &stop;
  for (const bool compose : {true, false}) {
    o.compose = compose;
    const Stats s = stats_of("4d6kh3", o);
    EXPECT_TRUE(s.interrupted);
    ASSERT_TRUE(s.first_error);
    EXPECT_EQ(s.first_error->code, DiagCode::Interrupted);
  }
}

TEST(OddsLimits, ARaisedFlagBeforeAnySampleIsAnInterruptedError) {
  const std::atomic<bool> stop{true};
  StatsOptions o;
  o.sampled_only = true;
  o.cancel = &stop;
  const Stats s = stats_of("3d6", o);
  EXPECT_TRUE(s.interrupted);
  ASSERT_TRUE(s.first_error);
  EXPECT_EQ(s.first_error->code, DiagCode::Interrupted);
}

TEST(OddsLimits, AFlagRaisedWhileSamplingReturnsTheSamplesSoFar) {
  std::atomic<bool> stop{false};
  StatsOptions o;
  o.sampled_only = true;
  o.threads = 2;
  o.samples = 1'000'000'000;
  o.cancel = &stop;
  const Engine e = with_limits([](Limits& l) { l.max_sample_work = INT64_MAX; });
  std::thread raiser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  const Stats s = stats_of(e, "sum(repeat 10 { d6 })", o);
  raiser.join();
  EXPECT_TRUE(s.interrupted);
  EXPECT_TRUE(s.cut_short.empty());
  EXPECT_LT(s.runs, o.samples);
  if (s.runs >= min_partial_samples) {
    EXPECT_FALSE(s.value.entries.empty());
    EXPECT_NEAR(s.value.mean, 35, 2);
  } else {
    ASSERT_TRUE(s.first_error);
    EXPECT_EQ(s.first_error->code, DiagCode::Interrupted);
  }
}

// ---- the time limit ------------------------------------------------------------------------------

// Hopeless in any time: composing it passes max_odds_work after seconds.
const std::string_view hopeless =
    "let a = 10d10kh3 in let b = 10d10kh3 in let c = 10d10kh3 in let d = 10d10kh3 in let e = 10d10kh3 in "
    "let f = 10d10kh3 in [a, b, c, d, e, f]";

TEST(OddsLimits, PastTheTimeLimitItSamplesAndSaysWhy) {
  StatsOptions o;
  o.time_limit = 0.2;
  o.samples = 200;
  o.threads = 1;
  const auto start = std::chrono::steady_clock::now();
  const Stats s = stats_of(hopeless, o);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));  // not the seconds to max_odds_work
  EXPECT_EQ(s.method, StatsMethod::Sampled);
  EXPECT_EQ(s.runs, 200u);
  EXPECT_TRUE(has(s.reason, "an exact answer takes more than 0.2 s (time_limit)")) << s.reason;
}

TEST(OddsLimits, ExactOnlyWithATimeLimitFailsPastItWithoutSampling) {
  StatsOptions o;
  o.exact_only = true;
  o.time_limit = 0.2;
  const Stats s = stats_of(hopeless, o);
  ASSERT_TRUE(s.first_error);
  EXPECT_TRUE(has(s.first_error->message, "no exact answer: an exact answer takes more than 0.2 s (time_limit)"))
      << s.first_error->message;
  EXPECT_EQ(s.runs, 0u);
  EXPECT_TRUE(s.value.entries.empty());
}

// A pool passed down thirty functions, each calling the next twice: the scan that decides
// whether the pool can be held as summaries (exact_compose_summary.cpp) met each call where it
// is made, 2^30 times, and never looked at the clock. It now stops at a number of nodes, and
// the time limit holds. The calls themselves run on the plain evaluator, which now stops at
// the composer's deadline too: before, it ran them to max_steps (0.75 s on a 2-core machine, 55 s
// under ASan) and gave the same message late; how late is a benchmark's question, not this test's.
TEST(OddsLimits, APoolPassedDownFunctionsThatCallTwiceStaysWithinTheTimeLimit) {
  std::string program = "fn f0(p) = sum(p)\n";
  for (int i = 1; i <= 30; ++i) program += fmt::format("fn f{}(p) = f{}(p) + f{}(p)\n", i, i - 1, i - 1);
  program += "let pool = 3d6 in f30(pool)";
  StatsOptions o;
  o.exact_only = true;
  o.time_limit = 0.05;
  const Stats s = stats_of(program, o);
  ASSERT_TRUE(s.first_error);
  EXPECT_EQ(s.first_error->message, "no exact answer: an exact answer takes more than 0.05 s (time_limit)");
}

// Blind to the order of its dice (92,378 multisets), and slow to run: a loop of 200 rounds.
constexpr const char* slow_rolls = "10d10kh5 + loop i = 0 until i >= 200 { i + 1 }";

TEST(OddsLimits, ExactOnlyWaitsUnlessATimeLimitIsGiven) {
  StatsOptions o;
  EXPECT_EQ(time_limit_of(o), default_time_limit());
  o.exact_only = true;
  EXPECT_EQ(time_limit_of(o), std::nullopt);
  o.time_limit = 30;
  EXPECT_EQ(time_limit_of(o), 30);
}

// The runs an enumeration needs, at the time its first run took, cannot end in time: it is
// not begun (10 dice have 92,378 multisets, each run a loop of 200 rounds).
TEST(OddsLimits, AnEnumerationThatCannotEndInTimeIsNotBegun) {
  StatsOptions o;
  o.compose = false;
  o.exact_only = true;
  o.time_limit = 0.2;
  const Stats s = stats_of(slow_rolls, o);
  ASSERT_TRUE(s.first_error);
  EXPECT_TRUE(has(s.first_error->message, "takes more than 0.2 s (time_limit): 92377 more runs at"))
      << s.first_error->message;
}

// A program that may read its dice by position is enumerated in every order of each
// roll: 10 dice have 10^10 orders, which no budget takes.
TEST(OddsLimits, AnEnumerationInOrderCountsEveryOrder) {
  StatsOptions o;
  o.compose = false;
  o.exact_only = true;
  const Stats s = stats_of("for x in 10d10 { x }", o);
  ASSERT_TRUE(s.first_error);
  EXPECT_TRUE(has(s.first_error->message, "one roll of 10 dice has 10000000000 outcomes in order"))
      << s.first_error->message;
}

TEST(OddsLimits, ABadTimeLimitIsRefused) {
  for (const double t : {-1.0, 0.0, std::nan(""), 1e99, HUGE_VAL}) {
    StatsOptions o;
    o.time_limit = t;
    const Stats s = stats_of("3d6", o);
    ASSERT_TRUE(s.first_error) << t;
    EXPECT_EQ(s.first_error->code, DiagCode::InvalidArgument);
    EXPECT_TRUE(has(s.first_error->message, "the time limit must be more than 0")) << s.first_error->message;
  }
}

// With no time limit the cancel flag is what stops a long attempt, composing or enumerating.
TEST(OddsLimits, AFlagRaisedDuringAnExactAttemptWithNoTimeLimitStopsIt) {
  for (const bool compose : {true, false}) {
    std::atomic<bool> stop{false};
    StatsOptions o;
    o.exact_only = true;
    o.compose = compose;
    o.cancel = &stop;
    std::thread raiser([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      stop = true;
    });
    const Stats s = stats_of(compose ? hopeless : slow_rolls, o);
    raiser.join();
    EXPECT_TRUE(s.interrupted) << compose;
    ASSERT_TRUE(s.first_error);
    EXPECT_EQ(s.first_error->code, DiagCode::Interrupted);
  }
}

}  // namespace odds_limits_test
}  // namespace alea
