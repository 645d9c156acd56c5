// tests/interpreter/exact_compose_test.cpp — the composed exact engine against
// the enumeration of every run: for each expression of a corpus, both must
// give the same exact probability for every value and every record field, the
// same cut-off tail and the same errors; and the expressions that should be
// composed must be.
#include <fmt/format.h>
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <string>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace {

const Engine& engine() {
  static const Engine e = [] {
    Engine x;
    for (const char* name : {"heroes-mythos", "dozen-die", "crystal-die", "pbta-superiority"}) {
      const auto d = x.load_ruleset_file(fmt::format("{}/rulesets/{}.yaml", ALEA_SOURCE_DIR, name));
      if (!d.empty()) throw std::runtime_error(render_text(d));
    }
    return x;
  }();
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

void expect_same(const Stats& fast, const Stats& slow, std::string_view what) {
  ASSERT_EQ(slow.method, StatsMethod::Exact)
      << what << ": " << (slow.first_error ? slow.first_error->message : "");
  EXPECT_EQ(table(fast.value), table(slow.value)) << what;
  EXPECT_EQ(fast.value.exact_mean, slow.value.exact_mean) << what;
  EXPECT_EQ(fast.value.sd, slow.value.sd) << what;
  ASSERT_EQ(fast.fields.size(), slow.fields.size()) << what;
  for (std::size_t i = 0; i < fast.fields.size(); ++i) {
    EXPECT_EQ(fast.fields[i].name, slow.fields[i].name) << what;
    EXPECT_EQ(table(fast.fields[i]), table(slow.fields[i])) << what << " ." << fast.fields[i].name;
    EXPECT_EQ(fast.fields[i].exact_mean, slow.fields[i].exact_mean)
        << what << " ." << fast.fields[i].name;
  }
  EXPECT_EQ(fast.cut_off.exact(), slow.cut_off.exact()) << what;
  EXPECT_EQ(fast.errors.exact(), slow.errors.exact()) << what;
  EXPECT_EQ(fast.unresolved.exact(), slow.unresolved.exact()) << what;
  EXPECT_EQ(fast.first_error.has_value(), slow.first_error.has_value()) << what;
  if (fast.first_error && slow.first_error) {
    EXPECT_EQ(fast.first_error->code, slow.first_error->code) << what;
    EXPECT_EQ(fast.first_error->message, slow.first_error->message) << what;
    EXPECT_EQ(fast.first_error->notes.size(), slow.first_error->notes.size()) << what;
  }
  // Numbers ascending and booleans false first, as the enumeration orders them.
  for (std::size_t i = 1; i < fast.value.entries.size(); ++i) {
    const Value& a = fast.value.entries[i - 1].value;
    const Value& b = fast.value.entries[i].value;
    if (a.as_int() && b.as_int()) {
      EXPECT_LT(*a.as_int(), *b.as_int()) << what;
    }
  }
}

struct Case {
  const char* expr;
  bool composed = true;  // false: composing does not apply, the enumeration answers
  int explosion_depth = 6;
};

// ctest names each case by its expression (not by the bytes of the struct).
void PrintTo(const Case& c, std::ostream* os) { *os << c.expr; }

class ComposedAgreesWithEnumeration : public testing::TestWithParam<Case> {};

TEST_P(ComposedAgreesWithEnumeration, ExactlyForEveryValue) {
  const Case& c = GetParam();
  StatsOptions o;
  o.explosion_depth = c.explosion_depth;
  const Stats fast = stats_of(c.expr, true, o);
  if (!c.composed) {
    // Enumerated (or, when the order of the dice matters, not exact at all).
    EXPECT_NE(fast.exact_method, "composed") << c.expr;
    return;
  }
  const Stats slow = stats_of(c.expr, false, o);
  ASSERT_EQ(fast.method, StatsMethod::Exact) << c.expr << ": " << fast.reason;
  EXPECT_EQ(fast.exact_method, "composed") << c.expr << ": " << fast.not_composed;
  EXPECT_EQ(slow.exact_method, "enumerated");
  expect_same(fast, slow, c.expr);
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, ComposedAgreesWithEnumeration,
    testing::Values(
        // The benchmark cases, or smaller versions where enumerating takes too long.
        Case{"3d6"}, Case{"4d6kh3"}, Case{"6d10kh3"}, Case{"12d6>=5"},
        Case{"3d6 explode 6 limit 2"}, Case{"3d6 explode 6 limit 5"}, Case{"7d12<=7"}, Case{"5d6"},
        Case{"10d6"}, Case{"10d6kh5"}, Case{"3d12 under 7 vs 2d12 under 6"},
        // Arithmetic on dice.
        Case{"d20 + 5"}, Case{"2d6 - d4"}, Case{"d6 * d6"}, Case{"d20 / 3"}, Case{"d10 % 3"},
        Case{"-d6 + 2"}, Case{"(d4)d6"}, Case{"2d(d4 + 2)"}, Case{"d6 + d6 == 7"},
        Case{"3d6 >= 10 and d6 > 3"}, Case{"not (d6 == 1) or d4 == 4"}, Case{"max(d6, d6)"},
        Case{"min(3d6, 10)"}, Case{"abs(d6 - d6)"}, Case{"clamp(2d6, 4, 9)"},
        Case{"floor_div(d20, 3) + ceil_div(d20, 3)"}, Case{"round_div(d20, 4)"}, Case{"4dF"},
        Case{"2d% / 10"}, Case{"3d{1,1,2,3,5,8}"}, Case{"d{-3..3} * d{-1..1}"},
        // Keep and drop.
        Case{"4d6kl1"}, Case{"5d6dh2"}, Case{"5d6dl1"}, Case{"2d20kh"}, Case{"2d20kl"},
        Case{"6d6 keep >=4"}, Case{"6d6 drop =1"}, Case{"4dF keep highest 2"},
        Case{"3d{1,1,2,3,5,8}kh2"}, Case{"4d6kh3 + 4d6kl1"}, Case{"5d6 keep >=3 keep highest 2"},
        Case{"5d6 drop <=2 drop lowest 1"}, Case{"6d6 keep highest 0"}, Case{"3d6 keep highest 5"},
        Case{"4d6kh3 >= 4"}, Case{"5d10kh3 count >=8 fail 1"}, Case{"4d6kh2 clamp min 3"},
        Case{"(d4)d6 keep highest (d2)"},
        // Reroll.
        Case{"d6r"}, Case{"d6 reroll 6"}, Case{"2d6ro1"}, Case{"3d6 reroll 1 once keep highest 2"},
        Case{"3d6 reroll >=5 once count >=5"},
        // Explode, compound, penetrate.
        Case{"d6!"}, Case{"2d6!"}, Case{"d6!", true, 2}, Case{"d6!!"},
        Case{"2d6 compound 6 limit 3"}, Case{"d6!p"}, Case{"2d6 penetrate 6 limit 3"},
        Case{"3d6 explode >=5 limit 2"}, Case{"4d6 explode 6 limit 2 keep highest 3"},
        Case{"3d6kh2 explode 6 limit 2"}, Case{"2d6!!kh1"}, Case{"3d6 explode 6 limit 1 count >=5"},
        Case{"2d10 explode 10 limit 2 under 8"}, Case{"d6 explode 6 limit 0"},
        Case{"3d6 compound 6 limit 1 keep highest 2"}, Case{"2d6 explode 6 limit 2 reroll 1 once"},
        // Count, under, cancel, sort, clamp.
        Case{"5d10>=8f1"}, Case{"5d10 count >=8 fail 1 double 10"}, Case{"4d12 under 5"},
        Case{"4d12 under 5 + 1"}, Case{"3d12 under 8 except 7"}, Case{"sum(4d12 under 5)"},
        Case{"let red = 2d6 in 3d6 cancel red<="},
        Case{"let red = 3d6 in 3d6 cancel red<= combine"},
        Case{"let red = 2d6 in 3d6 cancel red<= combine except 6"},
        Case{"let red = 2d6 in 3d6 cancel red>="}, Case{"3d6 sort desc"},
        Case{"4d6 clamp min 2 max 5"}, Case{"3d6 under 3 keep highest 1"},
        // if, let, fn, globals.
        Case{"let x = d6 in x + x"}, Case{"let x = d6 in x * d6"},
        Case{"let p = 4d6 in p keep highest 3 + len(p)"}, Case{"if d6 > 3 then 2d6 else d20"},
        Case{"fn f(a, b) = a * 2 + b; f(d6, d4)"}, Case{"fn g(p) = p keep highest 1; g(3d6)"},
        Case{"fn h(x = d6) = x + x; h()"}, Case{"let p = 3d6 in [p, p keep highest 1]"},
        Case{"let x = d6; x + x"}, Case{"let x = 2d6; let y = x + d6; y"}, Case{"let x = 3d6"},
        Case{"fn twice(p) = p + p; twice(2d6)"}, Case{"fn best(n) = n d6 keep highest 1; best(d3)"},
        // Records, tiers, lists, loops.
        Case{"{a: d6, b: d6 > 3}"},
        Case{"let t = 2d6 in {total: t, hit: t >= 10, tier: t tiers {<=6: miss, 7..9: partial, "
             "else: full}}"},
        Case{"[d4, d4]"}, Case{"sort([d6, d6, d6])"},
        Case{"3d6 tiers {<=8: low, 9..12: mid, else: high}"}, Case{"repeat 3 { d6 }"},
        Case{"sum(repeat 3 { d6 })"}, Case{"for x in [1, 2, 3] { x + d4 }"},
        Case{"len(3d6 keep >=4)"}, Case{"contains(3d6, 6)"}, Case{"max(4d6)"}, Case{"str(d6)"},
        Case{"kind(3d6)"}, Case{"let r = {n: 2d6} in r.n + 1"}, Case{"[1, 2, 3][d3 - 1]"},
        Case{"{a: 3d6, b: 2}.a"}, Case{"let s = loop i = 0 until i >= 3 { i + 1 } in s + d6"},
        // Opposed rolls.
        Case{"2d6 + 1 vs 2d6"},
        Case{"fn beats(a, b, by_at_least) = a >= b + by_at_least; d20 vs d20 by beats(5)"},
        Case{"d20 vs d20"}, Case{"4d6kh3 vs 3d6"},
        // Ruleset mechanics.
        Case{"heroes_mythos.check(3, explode_limit: 0)"},
        Case{"heroes_mythos.check(3, red: 1, explode_limit: 0)"},
        Case{"heroes_mythos.check(1, red: 1)"},
        Case{"heroes_mythos.check(2, red: 1, explode_limit: 2)"},
        Case{"heroes_mythos.check(2, red: 2, difficulty: 8)", true, 2},
        // Ruleset state, choices, tiers and record types: a counter set by name
        // or changed by a mechanic, a choice as a named argument, a tier scale,
        // record arguments whose missing fields get their type's defaults.
        Case{"pbta_superiority.increase(d3)"},
        Case{"pbta_superiority.increase(d3 - 1, superiority: d6)"},
        Case{"pbta_superiority.gm_decrease(superiority: d6)"},
        Case{"pbta_superiority.turn_to(d6)"},
        Case{"pbta_superiority.tier(2d6 + d3 - 2)"},
        Case{"pbta_superiority.tier_rank(2d6) + 1"},
        Case{"crystal_die.after_attack(d3 - 1, d2 - 1, passes: d3 - 1)"},
        Case{"crystal_die.battle({field: [{type: \"attack\", colour: \"red\", face: d6}, "
             "{type: \"life\", colour: \"red\", face: 3}]}, {field: [{type: \"defence\", "
             "colour: \"blue\", face: d6}, {type: \"life\", colour: \"blue\", face: d2}]})"},
        // A counter read after a call changed it, and what draws described
        // dice or reads the order of a roll: enumerated.
        Case{"pbta_superiority.turn_to(d6) + pbta_superiority.current()", false},
        Case{"pbta_superiority.move(1)", false},
        Case{"pbta_superiority.move(d3 - 1, superiority: 4, use_superiority: d2 == 1)", false},
        Case{"pbta_superiority.roll(2, use_superiority: true, superiority: d6)", false},
        Case{"roll_each([{die: 6, kind: \"d6\"}, {die: [0, 0, 1], kind: \"fate\"}])", false},
        Case{"crystal_die.duel({type: \"attack\", colour: \"red\"}, "
             "{type: \"life\", colour: \"blue\", face: d6})", false},
        // Errors on some rolls, and what reads the order of the dice: enumerated.
        Case{"d6 / (d6 - 1)", false}, Case{"faces(3d6)", false}, Case{"(3d6)[0]", false},
        Case{"for x in 3d6 { x }", false}, Case{"dozen_die.check(9)", false},
        Case{"2d4 unique", false}));

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
// without GMP when the numbers fit in 128 bits).
TEST(ComposedExact, ProbabilitiesAsDoublesAreTheFractionsTruncated) {
  for (const char* e : {"3d6", "40d6", "10d10kh3", "3d6 explode 6 limit 5", "20d6>=5", "4dF",
                        "60d6", "d7 + d11 + d13 * 3", "3d6 - 20"}) {
    const Stats s = stats_of(e, true);
    ASSERT_EQ(s.exact_method, "composed") << e;
    for (const auto& entry : s.value.entries) {
      mpq_class q(entry.probability.exact());
      EXPECT_EQ(entry.probability.value, q.get_d()) << e << " " << entry.probability.exact();
    }
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

}  // namespace
}  // namespace alea
