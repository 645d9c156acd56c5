// tests/interpreter/stats_test.cpp — exact distributions against values known
// by hand or from the specs, and sampling within its stated intervals.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <gmpxx.h>

#include "interpreter/api.hpp"
#include "interpreter/exact/exact.hpp"
#include "interpreter/stats.hpp"
#include "interpreter/stats_probe.hpp"
#include "tests/support/pinned_stats.hpp"

namespace alea {
namespace stats_test {

Stats stats_of(const Engine& engine, std::string_view source, StatsOptions options = {}) {
  const Compiled c = engine.compile(source);
  if (!c.ok()) throw std::runtime_error(render_text(c.diagnostics));
  return compute_stats(engine, c.program, {}, options);
}

std::string exact_of(const Distribution& d, const Value& v) {
  for (const auto& e : d.entries) {
    if (e.value == v) return e.probability.exact();
  }
  return "absent";
}

// Before it starts, an enumeration with a time limit estimates its runs from 16 random runs
// (stats_probe.hpp), and does not begin what cannot end in time. The estimate is near the runs
// taken where the paths are alike (one roll, two rolls), and low where some are much longer than
// most (a roll that depends on another, races of rolls): it never stops an enumeration as too
// long that is not.
TEST(ExactStats, EstimatesTheRunsOfAnEnumerationBeforeItStarts) {
  Engine engine;
  StatsOptions enumerate;
  enumerate.compose = false;
  enumerate.exact_only = true;
  struct Case {
    const char* source;
    bool alike;
  };
  for (const auto& [source, alike] : {Case{"3d6", true}, Case{"d6 + d6", true}, Case{"4d{1,1,1,2,3}", true},
                                      Case{"if d6 == 6 then 3d6 else 0", false},
                                      Case{"loop x = 0 until x >= 10 { x + d6 }", false},
                                      Case{"loop x = 0 until x >= 12 { x + 2d{1,1,1,2,3} }", false},
                                      Case{"6d6 explode 6 limit 2", false}, Case{"5d6 explode 6 limit 3", false},
                                      // read in order: every sequence of faces is a run
                                      Case{"let p = 3d6 in p[1]", true},
                                      Case{"let p = 2d{1,1,2} in for d in p { d + d4 }", true}}) {
    SCOPED_TRACE(source);
    const Compiled c = engine.compile(source);
    ASSERT_TRUE(c.ok());
    const auto e = estimate_runs(c.program, {}, engine.options().limits, {}, may_read_order(*c.program->ast), 60);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->probes, 16);
    const Stats s = compute_stats(engine, c.program, {}, enumerate);
    ASSERT_EQ(s.exact_method, "enumerated");
    const auto runs = static_cast<double>(s.runs);
    EXPECT_LE(e->runs, 1.5 * runs);
    EXPECT_LE(e->mean, 1.5 * runs);
    if (alike) {
      // Every path passes the same rolls: each estimate is the count (through logarithms).
      EXPECT_NEAR(e->runs, runs, runs * 1e-9);
      EXPECT_NEAR(e->mean, runs, runs * 1e-9);
    } else {
      // A few long paths (the rolls a six explodes into) raise the mean, not the median.
      EXPECT_GE(e->mean, 2 * e->runs);
    }
  }
}

TEST(ExactStats, ProbabilityWritesItsFractionInLowestTerms) {
  Probability p;
  EXPECT_EQ(p.exact(), "");  // an estimate has no fraction
  EXPECT_FALSE(p.is_exact());
  p.set_exact(6, 216);
  EXPECT_TRUE(p.is_exact());
  EXPECT_EQ(p.exact(), "1/36");
  p.set_exact(0, 216);
  EXPECT_EQ(p.exact(), "0/1");
  p.set_exact(1296, 1296);
  EXPECT_EQ(p.exact(), "1/1");
  // 6^40 and a weight of 40d6 (2^10 · 3^5 · 5^20): both wider than 64 bits.
  __extension__ using u128 = unsigned __int128;
  u128 total = 1, weight = 1024 * 243;
  for (int i = 0; i < 40; ++i) total *= 6;
  for (int i = 0; i < 20; ++i) weight *= 5;
  p.set_exact(weight, total);
  EXPECT_EQ(p.exact(), "95367431640625/53720962492138205969645568") << "5^20 / (2^30 · 3^35)";
  p.set_exact(~u128{0}, u128{1} << 127);  // 39 digits over 2^127
  EXPECT_EQ(p.exact(),
            "340282366920938463463374607431768211455/170141183460469231731687303715884105728");
  p.set_exact(u128{10'000'000'000'000'000'000ull} * 10'000'000'000'000'000'000ull + 7, 2);
  EXPECT_EQ(p.exact(), "100000000000000000000000000000000000007/2");
  p.set_exact("2/3");
  EXPECT_EQ(p.exact(), "2/3");
}

TEST(ExactStats, ThreeD6IsTheKnownTriangle) {
  Engine engine;
  StatsOptions enumerate;
  enumerate.compose = false;
  const Stats s = stats_of(engine, "3d6", enumerate);
  EXPECT_EQ(s.method, StatsMethod::Exact);
  EXPECT_EQ(s.exact_method, "enumerated");
  EXPECT_EQ(s.runs, 56u);  // multisets of three d6, not 216 sequences
  ASSERT_EQ(s.value.entries.size(), 16u);
  EXPECT_EQ(exact_of(s.value, 3), "1/216");
  EXPECT_EQ(exact_of(s.value, 10), "1/8");
  EXPECT_EQ(exact_of(s.value, 18), "1/216");
  EXPECT_EQ(s.value.exact_mean, "21/2");
  EXPECT_NEAR(s.value.sd, std::sqrt(35.0 / 4), 1e-12);
  EXPECT_EQ(s.unresolved.exact(), "0/1");
}

TEST(ExactStats, FourD6KeepHighestThreeHasItsKnownMean) {
  Engine engine;
  const Stats s = stats_of(engine, "4d6kh3");
  EXPECT_EQ(s.method, StatsMethod::Exact);
  EXPECT_EQ(s.value.exact_mean, "15869/1296");
  EXPECT_NEAR(s.value.sd, 2.846844, 5e-7);
  EXPECT_EQ(exact_of(s.value, 18), "7/432");  // 21/1296 in lowest terms
  EXPECT_EQ(exact_of(s.value, 3), "1/1296");
}

TEST(ExactStats, ReportsTheCutOffExplosionTail) {
  Engine engine;
  StatsOptions o;
  o.explosion_depth = 2;
  const Stats s = stats_of(engine, "d6 explode 6", o);
  EXPECT_EQ(s.method, StatsMethod::Exact);
  // Two extra dice are followed; a third six in a row is the unresolved tail.
  EXPECT_EQ(s.unresolved.exact(), "1/216");
  // The other outcomes keep their own probabilities: nothing is spread over them.
  EXPECT_EQ(exact_of(s.value, 1), "1/6");
  EXPECT_EQ(exact_of(s.value, 7), "1/36");
  EXPECT_EQ(exact_of(s.value, 13), "1/216");
}

// With no depth asked for, chains are followed deeper until less than 1e-12 of
// the runs go past them. Each of these attempts does a few thousand units of
// work, far inside the 10 million a deeper attempt may do.
TEST(ExactStats, FollowsExplosionChainsDeeperUntilTheTailIsNegligible) {
  Engine engine;
  // 6 extra dice leave 6^-7 out; three times as deep, 6^-19 (4e-15).
  Stats s = stats_of(engine, "d6 explode 6");
  EXPECT_EQ(s.explosion_depth, 18);
  EXPECT_EQ(s.unresolved.exact(), "1/609359740010496");
  EXPECT_EQ(exact_of(s.value, 13), "1/216");
  // A die that explodes half the time: 18 extra dice leave 2^-19 out, and the
  // fall from 6 to 18 says 40 are needed: 2^-41 (4.5e-13).
  s = stats_of(engine, "d4 explode >= 3");
  EXPECT_EQ(s.explosion_depth, 40);
  EXPECT_EQ(s.unresolved.exact(), "1/2199023255552");
  // A depth given is kept, however much it leaves out.
  StatsOptions o;
  o.explosion_depth = 6;
  s = stats_of(engine, "d6 explode 6", o);
  EXPECT_EQ(s.explosion_depth, 6);
  EXPECT_EQ(s.unresolved.exact(), "1/279936");
  // No deeper than the engine's max_explosion_depth.
  EngineOptions capped;
  capped.limits.max_explosion_depth = 10;
  const Engine shallow(capped);
  s = stats_of(shallow, "d6 explode 6");
  EXPECT_EQ(s.explosion_depth, 10);
  EXPECT_EQ(s.unresolved.exact(), "1/362797056");
  // A deeper attempt is bounded by work, not time, so that a loaded machine gives
  // the same answer: 10d6 needs about 180 thousand units at 6 extra dice and
  // 3.7 million at 18. Under a budget of a million, the deeper attempt is
  // given up and the answer at 6 stands, its tail reported.
  EngineOptions frugal;
  frugal.limits.max_odds_work = 1'000'000;
  const Engine thrifty(frugal);
  s = stats_of(thrifty, "10d6 explode 6");
  EXPECT_EQ(s.method, StatsMethod::Exact);
  EXPECT_EQ(s.explosion_depth, 6);
  EXPECT_GT(s.cut_off.value, 1e-6);
  s = stats_of(engine, "10d6 explode 6");
  EXPECT_EQ(s.explosion_depth, 18);
  EXPECT_LT(s.cut_off.value, 1e-12);
  // Nothing to follow: the first depth, with nothing left out.
  s = stats_of(engine, "3d6");
  EXPECT_EQ(s.explosion_depth, 6);
  EXPECT_EQ(s.unresolved.exact(), "0/1");
}

// The deeper attempts also cut off a pool's combinations of chains rarer than
// 1e-13: those runs join the tail, and no other value gains or loses anything.
TEST(ExactStats, CutsRareCombinationsOfChainsIntoTheTail) {
  Engine engine;
  const std::string source = "3d6 explode 6 keep highest 2";  // about 1 ms: far inside the 0.25 s allowed
  const Stats deep = stats_of(engine, source);
  StatsOptions o;
  o.explosion_depth = 18;
  const Stats given = stats_of(engine, source, o);
  EXPECT_EQ(deep.explosion_depth, 18);
  EXPECT_EQ(deep.rare_chains, StatsOptions::first_rare_chains);
  EXPECT_EQ(given.rare_chains, 0u);
  // A sum adds each die's chain on its own: followed as deep, nothing is cut as rare, and none is named.
  const Stats sum = stats_of(engine, "3d6 explode 6");
  EXPECT_EQ(sum.explosion_depth, 18);
  EXPECT_EQ(sum.rare_chains, 0u);
  EXPECT_LE(deep.unresolved.value, StatsOptions::max_cut_off);
  const mpq_class grew = mpq_class(deep.unresolved.exact()) - mpq_class(given.unresolved.exact());
  EXPECT_GT(grew, 0);  // something was rare enough to cut
  ASSERT_EQ(deep.value.entries.size(), given.value.entries.size());
  mpq_class lost = 0;
  for (std::size_t i = 0; i < given.value.entries.size(); ++i) {
    ASSERT_EQ(deep.value.entries[i].value, given.value.entries[i].value);
    const mpq_class d = mpq_class(given.value.entries[i].probability.exact()) -
                        mpq_class(deep.value.entries[i].probability.exact());
    EXPECT_GE(d, 0) << to_display(given.value.entries[i].value);
    lost += d;
  }
  EXPECT_EQ(lost, grew);
}

TEST(ExactStats, CountsNamedOutcomesAndRecordFields) {
  Engine engine;
  const Stats s = stats_of(engine, "let t = 2d6 in {total: t, hit: t >= 10, tier: t tiers {<=6: miss, 7..9: partial, else: full}}");
  ASSERT_EQ(s.fields.size(), 3u);
  EXPECT_EQ(s.fields[0].name, "total");
  EXPECT_EQ(s.fields[0].exact_mean, "7/1");
  EXPECT_EQ(exact_of(s.fields[1], true), "1/6");
  EXPECT_EQ(exact_of(s.fields[2], Value(std::string("miss"))), "5/12");
  EXPECT_EQ(exact_of(s.fields[2], Value(std::string("full"))), "1/6");
}

// A die read by its position in the roll is any face, not the lowest or the middle one:
// the enumeration runs every order of the roll, and composing, which keeps a pool's
// faces sorted, refuses to read them in order.
TEST(ExactStats, ReadsADieByItsPositionInTheRoll) {
  Engine engine;
  for (const char* source : {"faces(2d6)[0]", "let p = 3d6 in p[0]", "let p = 3d6 in p[1]",
                             "let p = 3d6 in (for d in p { d })[0]", "let p = 3d6 in (for d in p { d })[2]"}) {
    SCOPED_TRACE(source);
    const Stats s = stats_of(engine, source);
    ASSERT_EQ(s.method, StatsMethod::Exact) << s.reason;
    EXPECT_EQ(s.exact_method, "enumerated");
    ASSERT_EQ(s.value.entries.size(), 6u);
    for (const auto& e : s.value.entries) EXPECT_EQ(e.probability.exact(), "1/6");
  }
  // Alike faces have one order: composed.
  const Stats alike = stats_of(engine, "let p = 3d6 in if p == 18 then (for d in p { d })[0] else 0");
  EXPECT_EQ(alike.exact_method, "composed") << alike.not_composed;
  EXPECT_EQ(exact_of(alike.value, 6), "1/216");
  // Why composing did not answer, where the enumeration did.
  const Stats listed = stats_of(engine, "let p = 3d6 in (for d in p { d })[0]");
  EXPECT_NE(listed.not_composed.find("the order of a pool's dice is read"), std::string::npos) << listed.not_composed;
}

// Each compounding die adds the new die of its own position: the enumeration runs
// every order of both rolls, and agrees with composing each die on its own.
TEST(ExactStats, EnumerationSeesACompoundingDiePairedWithItsNewDie) {
  Engine engine;
  StatsOptions enumerate;
  enumerate.compose = false;
  const Stats s = stats_of(engine, "2d4 compound >1 limit 2 drop >3", enumerate);
  EXPECT_EQ(s.exact_method, "enumerated");
  // Each die on its own: 1 (1/4), 3 (1/16), else dropped (11/16).
  const Stats composed = stats_of(engine, "2d4 compound >1 limit 2 drop >3");
  EXPECT_EQ(composed.exact_method, "composed");
  for (const Stats* x : {&s, &composed}) {
    EXPECT_EQ(exact_of(x->value, 0), "121/256");
    EXPECT_EQ(exact_of(x->value, 3), "11/128");
  }
}

TEST(ExactStats, ListsARollsDiceInTheOrderRolled) {
  Engine engine;
  const Stats pair = stats_of(engine, "faces(2d6)");
  EXPECT_EQ(pair.method, StatsMethod::Exact);
  EXPECT_EQ(pair.value.entries.size(), 36u);  // every order of two d6, as a roll lists them
  EXPECT_EQ(exact_of(pair.value, make_list({Value(1), Value(2)})), "1/36");
  EXPECT_EQ(exact_of(pair.value, make_list({Value(2), Value(1)})), "1/36");
  // Two rolls of one die each: [1, 2] and [2, 1] are different outcomes.
  const Stats two = stats_of(engine, "[d4, d4]");
  EXPECT_EQ(two.value.entries.size(), 16u);
  EXPECT_EQ(exact_of(two.value, make_list({Value(2), Value(1)})), "1/16");
  EXPECT_EQ(exact_of(stats_of(engine, "{a: [d2, 1]}").value, make_record({"a"}, {make_list({Value(2), Value(1)})})), "1/2");
}

TEST(ExactStats, TellsCutOffChainsFromErrors) {
  Engine engine;
  StatsOptions o;
  o.explosion_depth = 1;
  const Stats s = stats_of(engine, "if d2 == 1 then 1 / 0 else d6 explode 6", o);
  EXPECT_EQ(s.errors.exact(), "1/2");
  EXPECT_EQ(s.cut_off.exact(), "1/72");  // d2 = 2, then 6, then 6 again
  EXPECT_EQ(s.unresolved.exact(), "37/72");
  ASSERT_TRUE(s.first_error.has_value());
  EXPECT_EQ(s.first_error->code, DiagCode::DivisionByZero);
}

TEST(ExactStats, SamplesOverBudgetAndIsDeterministicForASeed) {
  Engine engine;
  StatsOptions o;
  o.max_branches = 10;
  o.samples = 20'000;
  o.seed = 7;
  o.threads = 2;
  const Stats a = stats_of(engine, "3d6", o);
  const Stats b = stats_of(engine, "3d6", o);
  EXPECT_EQ(a.method, StatsMethod::Sampled);
  EXPECT_EQ(a.runs, 20'000u);
  ASSERT_EQ(a.value.entries.size(), b.value.entries.size());
  for (std::size_t i = 0; i < a.value.entries.size(); ++i) {
    EXPECT_EQ(a.value.entries[i].probability.value, b.value.entries[i].probability.value);
  }
  // P(10) = 1/8 lies in its 95% interval for this seed (fixed, so this cannot flake).
  for (const auto& e : a.value.entries) {
    if (e.value == Value(10)) {
      EXPECT_LE(e.probability.low, 0.125);
      EXPECT_GE(e.probability.high, 0.125);
    }
  }
  // The sampled mean is within 4.5 standard errors of 10.5 (sd of 3d6 is 2.958).
  EXPECT_NEAR(a.value.mean, 10.5, 4.5 * 2.958 / std::sqrt(20'000.0));
}

TEST(ExactStats, HeroesMythosProbabilitiesHoldExactly) {
  Engine engine;
  ASSERT_TRUE(engine.load_ruleset_file(ALEA_SOURCE_DIR "/rulesets/heroes-mythos.yaml").empty());
  auto p = [&](std::string_view call, std::string_view field, const Value& v) {
    const Stats s = stats_of(engine, call);
    EXPECT_EQ(s.method, StatsMethod::Exact) << call;
    for (const auto& d : s.fields) {
      if (d.name == field) return exact_of(d, v);
    }
    return std::string("no field");
  };
  // Without explosions (explode_limit 0) the enumeration is finite and exact.
  EXPECT_EQ(p("heroes_mythos.check(3, explode_limit: 0)", "success", true), "5/8");             // P1
  EXPECT_EQ(p("heroes_mythos.check(3, red: 1, explode_limit: 0)", "success", true), "67/216");  // P4
  // Catastrophe never involves an explosion, so it is exact whatever the limit.
  EXPECT_EQ(p("heroes_mythos.check(1, red: 1)", "catastrophe", true), "7/12");                  // C1
  EXPECT_EQ(p("heroes_mythos.check(2, red: 2)", "catastrophe", true), "581/1296");              // C3
}

// Exact and sampled agree for shipped mechanics: every probability of every
// field sampled from 5,000 runs (fixed seed, so deterministic) lies within
// 5 standard errors of the exact one — with a new seed the chance that any of
// the entries below strays that far is about 1e-4. Fields that list dice are
// left out: exact mode shows a roll's dice ascending (one multiset), sampling
// in the order rolled (docs/stats.md says so).
TEST(ExactStats, AgreesWithSamplingOnShippedMechanics) {
  Engine engine;
  for (const char* name : {"heroes-mythos", "dozen-die"}) {
    ASSERT_TRUE(engine.load_ruleset_file(fmt::format("{}/rulesets/{}.yaml", ALEA_SOURCE_DIR, name)).empty()) << name;
  }
  for (const char* call : {"heroes_mythos.check(3, red: 1, explode_limit: 0)",
                           "dozen_die.melee({pool: 2, ST: 7}, {pool: 1, ST: 6})",
                           "dozen_die.armour_save(2, 3, 1)", "dozen_die.check(9)"}) {
    const Compiled c = engine.compile(call);
    ASSERT_TRUE(c.ok()) << render_text(c.diagnostics);
    const Stats exact = compute_stats(engine, c.program, {}, testing::exact_pinned());
    ASSERT_EQ(exact.method, StatsMethod::Exact) << call;
    StatsOptions o;
    o.sampled_only = true;
    o.samples = 5'000;
    o.seed = 11;
    o.threads = 2;
    const Stats sampled = compute_stats(engine, c.program, {}, o);
    ASSERT_EQ(sampled.fields.size(), exact.fields.size()) << call;
    for (std::size_t f = 0; f < exact.fields.size(); ++f) {
      for (const auto& e : exact.fields[f].entries) {
        if (e.value.as_list()) continue;
        double got = 0;
        for (const auto& g : sampled.fields[f].entries) {
          if (g.value == e.value) got = g.probability.value;
        }
        const double p = e.probability.value;
        EXPECT_NEAR(got, p, 5 * std::sqrt(p * (1 - p) / 5'000.0) + 1e-9)
            << call << " " << exact.fields[f].name << " = " << to_display(e.value);
      }
    }
  }
}

}  // namespace stats_test
}  // namespace alea
