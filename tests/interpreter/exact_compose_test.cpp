// tests/interpreter/exact_compose_test.cpp — the composed exact engine against
// closed forms and known answers. That it gives what the enumeration of every
// run gives, for every value and record field, the cut-off tail and the errors,
// is checked for each case of the conformance corpus (tests/conformance/).
#include <fmt/format.h>
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <string>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace exact_compose_test {

const Engine& engine() {
  static const Engine e;
  return e;
}

Stats stats_of(std::string_view source, bool compose, StatsOptions o = {}) {
  const Compiled c = engine().compile(source);
  if (!c.ok()) throw std::runtime_error(render_text(c.diagnostics));
  o.compose = compose;
  o.exact_only = true;
  if (!compose) o.max_branches = 1'000'000;
  return compute_stats(engine(), c.program, {}, o);
}

// value (kind and display) → exact probability
std::map<std::string, std::string> table(const Distribution& d) {
  std::map<std::string, std::string> t;
  for (const auto& e : d.entries)
    t[fmt::format("{}:{}", static_cast<int>(e.value.kind()), to_display(e.value))] =
        e.probability.exact();
  return t;
}

// Compounding adds each extra die of a round to its own die: here the
// enumeration, which sees a round's dice as one multiset, cannot tell which
// die got which (it runs its order check and samples), so the composed answer
// is checked against the dice counted one by one: each die is 1, 2 (1/4 each)
// or 3 or 4 plus a d4 (1/16 for each sum), and the highest of two is taken.
TEST(ComposedExact, CompoundingDiceAreIndependent) {
  const Stats s = stats_of("2d4 compound >=3 limit 1 keep highest 1", true);
  EXPECT_EQ(s.exact_method, "composed");
  const std::map<std::string, std::string> expected = {
      {"0:1", "1/16"}, {"0:2", "3/16"}, {"0:4", "17/256"}, {"0:5", "5/32"},
      {"0:6", "3/16"}, {"0:7", "7/32"}, {"0:8", "31/256"}};
  EXPECT_EQ(table(s.value), expected);
}

// Each probability's double is its fraction rounded toward zero, as GMP's
// mpq_get_d gives it for the enumeration (the composed engine computes it
// without GMP when the numbers fit in 128 bits, and from the unreduced
// fraction when they do not), and its text is in lowest terms. 60d6 and 500d6
// are wider than 128 bits (500d6's tails are below the normal doubles); the
// denominator of 14d1013 has a prime factor that is reduced by a gcd.
TEST(ComposedExact, ProbabilitiesAsDoublesAreTheFractionsTruncated) {
  for (const char* e : {"3d6", "40d6", "10d10kh3", "3d6 explode 6 limit 5", "20d6>=5", "4dF", "60d6",
                        "d7 + d11 + d13 * 3", "3d6 - 20", "500d6", "14d1013 > 7000", "14d1013 % 1013"}) {
    const Stats s = stats_of(e, true);
    ASSERT_EQ(s.exact_method, "composed") << e;
    for (const auto& entry : s.value.entries) {
      mpq_class q(entry.probability.exact());
      EXPECT_EQ(entry.probability.value, q.get_d()) << e << " " << entry.probability.exact();
      mpq_class reduced = q;
      reduced.canonicalize();
      EXPECT_EQ(q.get_str(), reduced.get_str()) << e;
    }
    if (!s.value.numeric) continue;
    mpq_class mean(s.value.exact_mean);
    EXPECT_EQ(s.value.mean, mean.get_d()) << e;
  }
}

TEST(ComposedExact, FourD6KeepHighestThreeHasItsKnownMeanAndSd) {
  const Stats s = stats_of("4d6kh3", true);
  EXPECT_EQ(s.exact_method, "composed");
  EXPECT_EQ(s.value.exact_mean, "15869/1296");
  EXPECT_NEAR(s.value.sd, 2.846844, 5e-7);
}

// AnyDice's [explode d6] with "explode depth" 2: a 6 adds a die, at most twice,
// and the last die counts as it shows (a 6 there is 6, not a cut-off tail).
TEST(ComposedExact, ExplodingToDepthTwoIsAnyDicesExplodeD6) {
  const Stats s = stats_of("d6 explode 6 limit 2", true);
  EXPECT_EQ(s.exact_method, "composed");
  std::map<std::string, std::string> expected;
  for (int v = 1; v <= 5; ++v) expected[fmt::format("0:{}", v)] = "1/6";
  for (int v = 7; v <= 11; ++v) expected[fmt::format("0:{}", v)] = "1/36";
  for (int v = 13; v <= 18; ++v) expected[fmt::format("0:{}", v)] = "1/216";
  EXPECT_EQ(table(s.value), expected);
  EXPECT_EQ(s.value.exact_mean, "301/72");  // 3.5 (1 + 1/6 + 1/36)
  EXPECT_EQ(s.cut_off.exact(), "0/1");
  // Three of them: the mean adds up, and the benchmark's 3d6 at depth 2 agrees.
  EXPECT_EQ(stats_of("3d6 explode 6 limit 2", true).value.exact_mean, "301/24");
}

// The benchmark cases are composed; those too long to enumerate are checked
// against closed forms computed here.
TEST(ComposedExact, BenchmarkCasesAreComposed) {
  for (const char* e :
       {"3d6", "4d6kh3", "10d10kh3", "20d6>=5", "3d6 explode 6 limit 2", "3d6 explode 6 limit 5",
        "12d12<=7", "5d6", "40d6", "10d6kh5", "3d12 under 7 vs 2d12 under 6"}) {
    const Stats s = stats_of(e, true);
    EXPECT_EQ(s.method, StatsMethod::Exact) << e;
    EXPECT_EQ(s.exact_method, "composed") << e << ": " << s.not_composed;
  }
}

// `let x = A in let y = B in …` with B not reading x (what `A vs B` is built
// as): B is composed once, not once for each value of x, and stays within the
// default budget.
TEST(ComposedExact, AnInnerLetsValueIsComposedOnceForEveryValueOfTheOuter) {
  for (const char* e : {"let x = 20d6 in let y = 20d6 in x - y", "fn f(a, b) = a - b; 20d6 vs 20d6 by f"}) {
    const Stats s = stats_of(e, true);
    EXPECT_EQ(s.method, StatsMethod::Exact) << e;
    EXPECT_EQ(s.exact_method, "composed") << e << ": " << s.not_composed;
    EXPECT_EQ(s.value.exact_mean, "0/1") << e;
    EXPECT_EQ(table(s.value).size(), 201u) << e;  // -100 … 100
  }
}

// Two lets the rest reads once each are combined as the two sides of `>` are:
// the let form takes the very branches of the inline one (39,004 before, with
// b computed for each value of a).
TEST(ComposedExact, ALetFormCostsWhatTheInlineFormDoes) {
  const Stats lets = stats_of("let a = 10d10kh3 in let b = 10d10kh3 in a > b", true);
  const Stats inline_form = stats_of("10d10kh3 > 10d10kh3", true);
  ASSERT_EQ(lets.exact_method, "composed") << lets.not_composed;
  EXPECT_EQ(lets.runs, inline_form.runs);
  EXPECT_EQ(table(lets.value), table(inline_form.value));
}

// A roll cancelled by a roll is counted face by face: far fewer branches than
// the 594,594 pairs of multisets, and the mean the pairs gave.
TEST(ComposedExact, ARollCancelledByARollIsCountedFaceByFace) {
  StatsOptions o;
  o.max_branches = 200'000;
  const Stats s = stats_of("let w = 8d6 in let r = 6d6 in let k = w cancel r<= combine except 6 in len(k)", true, o);
  ASSERT_EQ(s.exact_method, "composed") << s.not_composed;
  EXPECT_LT(s.runs, 200'000u);
  EXPECT_EQ(s.value.exact_mean, "51472417037/19591041024");
}

mpq_class binomial_p(unsigned n, unsigned k, const mpq_class& p) {
  mpz_class c;
  mpz_bin_uiui(c.get_mpz_t(), n, k);
  mpq_class r = c;
  for (unsigned i = 0; i < k; ++i) r *= p;
  for (unsigned i = k; i < n; ++i) r *= 1 - p;
  return r;
}

std::string fraction(mpq_class q) {
  q.canonicalize();
  std::string s = q.get_str();
  return s.find('/') == std::string::npos ? s + "/1" : s;
}

TEST(ComposedExact, CountsFollowTheBinomialLaw) {
  const Stats a = stats_of("20d6>=5", true);
  const Stats b = stats_of("12d12<=7", true);
  for (unsigned k = 0; k <= 20; ++k) {
    EXPECT_EQ(table(a.value)[fmt::format("0:{}", k)], fraction(binomial_p(20, k, mpq_class(1, 3))))
        << k;
  }
  for (unsigned k = 0; k <= 12; ++k) {
    EXPECT_EQ(table(b.value)[fmt::format("0:{}", k)], fraction(binomial_p(12, k, mpq_class(7, 12))))
        << k;
  }
}

TEST(ComposedExact, FortyD6IsTheFortyFoldConvolution) {
  std::vector<mpz_class> ways{1};
  for (int die = 0; die < 40; ++die) {
    std::vector<mpz_class> next(ways.size() + 6);
    for (std::size_t s = 0; s < ways.size(); ++s) {
      for (int f = 1; f <= 6; ++f) next[s + static_cast<std::size_t>(f)] += ways[s];
    }
    ways = std::move(next);
  }
  mpz_class total;
  mpz_ui_pow_ui(total.get_mpz_t(), 6, 40);
  const auto t = table(stats_of("40d6", true).value);
  ASSERT_EQ(t.size(), 201u);
  for (std::size_t s = 40; s <= 240; ++s)
    EXPECT_EQ(t.at(fmt::format("0:{}", s)), fraction(mpq_class(ways[s], total))) << s;
}

TEST(ComposedExact, ReportsTheCutOffTailAsTheEnumerationDoes) {
  StatsOptions o;
  o.explosion_depth = 2;
  const Stats s = stats_of("3d6!", true, o);
  EXPECT_EQ(s.exact_method, "composed");
  // 1 - (1 - 1/216)^3: a run is cut off when any of its three chains is.
  EXPECT_EQ(s.cut_off.exact(),
            fraction(1 - mpq_class(215, 216) * mpq_class(215, 216) * mpq_class(215, 216)));
  EXPECT_EQ(s.unresolved.exact(), s.cut_off.exact());
  EXPECT_EQ(s.errors.exact(), "0/1");
}

TEST(ComposedExact, ARerollThatMayNeverEndFailsWithItsOwnError) {
  const Stats s = stats_of("d6r", true);
  EXPECT_EQ(s.exact_method, "composed");
  mpz_class den;
  mpz_ui_pow_ui(den.get_mpz_t(), 6, 101);
  EXPECT_EQ(s.errors.exact(), fraction(mpq_class(1, den)));
  ASSERT_TRUE(s.first_error.has_value());
  EXPECT_EQ(s.first_error->code, DiagCode::RerollLimitExceeded);
}

// A reroll of several dice on two faces cannot be enumerated (each die's chain
// branches at every roll); each die is independent: it ends on f in 3..6 with
// probability (1/6)(1 + 1/3 + … + (1/3)^100), or fails after 101 rolls of 1 or 2.
TEST(ComposedExact, RerollsOfSeveralDiceAreIndependent) {
  const Stats s = stats_of("2d6 reroll <=2", true);
  EXPECT_EQ(s.exact_method, "composed");
  mpq_class each = 0, third_power = 1;
  for (int r = 0; r <= 100; ++r) {
    each += mpq_class(1, 6) * third_power;
    third_power *= mpq_class(1, 3);
  }
  const mpq_class fail = third_power;  // (1/3)^101
  for (int total = 6; total <= 12; ++total) {
    const int ways = total <= 9 ? total - 5 : 13 - total;  // pairs of faces 3..6
    EXPECT_EQ(table(s.value).at(fmt::format("0:{}", total)), fraction(ways * each * each)) << total;
  }
  EXPECT_EQ(s.errors.exact(), fraction(1 - (1 - fail) * (1 - fail)));
  EXPECT_EQ(s.cut_off.exact(), "0/1");
}

TEST(ComposedExact, OverBudgetFallsBackToEnumeratingThenSampling) {
  StatsOptions o;
  o.max_branches = 50;
  o.samples = 1000;
  o.threads = 1;
  const Compiled c = engine().compile("10d10kh3");
  const Stats s = compute_stats(engine(), c.program, {}, o);
  EXPECT_EQ(s.method, StatsMethod::Sampled);
  EXPECT_NE(s.reason.find("max_branches"), std::string::npos) << s.reason;
}

// A loop that may run forever composes as a chain until less than 1e-15 of
// the runs are still looping: n = k with probability (5/6)^k / 6, exactly,
// for every k counted; the (5/6)^190 of runs past round 190 are reported.
TEST(ComposedExact, AGeometricLoopReportsTheRunsStillLooping) {
  const Stats s = stats_of("loop n = 0 until d6 == 6 { n + 1 }", true);
  EXPECT_EQ(s.exact_method, "composed");
  mpz_class five, six;
  mpz_ui_pow_ui(five.get_mpz_t(), 5, 190);
  mpz_ui_pow_ui(six.get_mpz_t(), 6, 190);
  const mpq_class tail(five, six);
  EXPECT_LE(tail.get_d(), 1e-15);
  EXPECT_GT(tail.get_d() * 6 / 5, 1e-15);  // one round fewer would not do
  EXPECT_EQ(s.still_looping.exact(), fraction(tail));
  EXPECT_EQ(s.loop_rounds, 190);
  EXPECT_EQ(s.unresolved.exact(), s.still_looping.exact());
  EXPECT_EQ(s.errors.exact(), "0/1");
  const auto t = table(s.value);
  ASSERT_EQ(t.size(), 190u);
  EXPECT_EQ(t.at("0:0"), "1/6");
  EXPECT_EQ(t.at("0:3"), "125/1296");
  // The mean of the runs counted is within the tail's weight of the true mean, 5.
  EXPECT_NEAR(s.value.mean, 5.0, 1e-12);
}

// The runs that reach max_loop_iterations end in the evaluator's error, as
// the enumeration finds: here those whose first four conditions are false.
TEST(ComposedExact, ALoopPastItsIterationLimitFailsAsTheEvaluatorDoes) {
  EngineOptions eo;
  eo.limits.max_loop_iterations = 3;
  const Engine e(eo);
  const Compiled c = e.compile("loop n = 0 until d2 == 2 { n + 1 }");
  StatsOptions o;
  o.exact_only = true;
  const Stats s = compute_stats(e, c.program, {}, o);
  EXPECT_EQ(s.exact_method, "composed");
  EXPECT_EQ(s.errors.exact(), "1/16");
  ASSERT_TRUE(s.first_error.has_value());
  EXPECT_EQ(s.first_error->code, DiagCode::LoopLimitExceeded);
  EXPECT_EQ(s.still_looping.exact(), "0/1");
  o.compose = false;
  const Stats enumerated = compute_stats(e, c.program, {}, o);
  EXPECT_EQ(enumerated.exact_method, "enumerated");
  EXPECT_EQ(table(enumerated.value), table(s.value));
  EXPECT_EQ(enumerated.errors.exact(), s.errors.exact());
}

// A state that grows every round (a log of the dice) makes every state
// distinct: composing stops at a budget, never hangs, and the answer is
// sampled. With no branch limit to speak of, the memory limit stops it.
TEST(ComposedExact, ALoopWhoseStateGrowsIsSampled) {
  EngineOptions eo;
  eo.limits.max_odds_memory = 2'000'000;
  const Engine small(eo);
  const char* log = "len(loop s = [] until len(s) > 0 and s[len(s) - 1] == 6 { append(s, d6) })";
  for (const std::uint64_t branches : {std::uint64_t{2'000}, std::uint64_t{1'000'000'000'000}}) {
    StatsOptions o;
    o.samples = 200;
    o.threads = 1;
    o.enumerate = false;
    o.max_branches = branches;
    const Compiled c = small.compile(log);
    const Stats s = compute_stats(small, c.program, {}, o);
    EXPECT_EQ(s.method, StatsMethod::Sampled);
    EXPECT_NE(s.reason.find(branches == 2'000 ? "(max_branches)" : "(max_odds_memory)"), std::string::npos)
        << s.reason;
  }
}

}  // namespace exact_compose_test
}  // namespace alea
