// tests/rulesets/strategiya_rules_test.cpp — the character and combat rules of
// rulesets/strategiya.yaml against specs/strategiya.md beyond the single test
// vectors of sections 3.1-3.4 (skills, lives, movement, experience, battle, the bow,
// fleeing, hiding, disputes, and V178-V179 computed exactly by combat_duel_odds),
// which are data, tests/rulesets/vectors/strategiya-rules.yaml, run by
// vectors_test.cpp: here are the mistakes reported, the exact probabilities of
// section 3.5 from compute_stats (the engine behind `alea stats`) and the duels of
// V178-V179, which have no bound, sampled against their exact values.
// strategiya_econ_test.cpp has the world and economy; strategiya_coverage_test.cpp
// checks that the data files and the cases here together name every vector V1-V299.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"
#include "tests/rulesets/strategiya_cases.hpp"
#include "tests/support/shipped.hpp"
#include "tests/support/vectors.hpp"

namespace alea {
namespace strategiya_rules_test {

const Engine& engine() {
  static const Engine e = testing::engine_with_ruleset("strategiya");
  return e;
}

// combat_duel_odds answers only for the plain duel its recurrence describes, and
// a hero record's mistakes are the caller's errors.
TEST(Strategiya, RefusesWhatItCannotAnswer) {
  const auto error_of = [](std::string_view call) {
    ScriptedDice dice({});
    const Outcome o = engine().roll(call, dice);
    return o.ok() ? "ok: " + to_display(*o.value) : std::string(code_name(o.error->code)) + ": " + o.error->message;
  };
  EXPECT_EQ(error_of("strategiya.combat_duel_odds({str: 3, swords: 1}, {str: 3})"),
            "Refused: the exact odds are only for heroes without items, dragon, back or surrounded, and a has "
            "some; use alea stats on combat_duel");
  EXPECT_EQ(error_of("strategiya.combat_duel_odds({str: 1}, {str: 0})"),
            "Refused: b has STR 0 and does no damage: the duel is a stalemate (R32)");
  EXPECT_EQ(error_of("strategiya.combat_roll({strength: 3})"),
            "UnknownField: the argument 'attacker' is a hero, which has no field 'strength'");
  EXPECT_EQ(error_of("strategiya.hide([], [1])"), "Refused: each side needs a hero, but hiders is empty");
  EXPECT_EQ(error_of("strategiya.combat_battle([], [{}])"),
            "Refused: each side needs a hero, but first is empty");
}

// ---- 3.5 exact probabilities through compute_stats ------------------------------------------------

// The probability that `field` of the value (or the value itself, "") is `want`.
struct Odds {
  std::string id;
  std::string expr;
  std::string field;
  Value want;
  std::string exact;  // in lowest terms, "0" for an outcome that cannot happen
};

std::string probability_of(const Stats& s, const std::string& field, const Value& want) {
  const Distribution* d = &s.value;
  for (const auto& f : s.fields) {
    if (f.name == field) d = &f;
  }
  if (!field.empty() && d == &s.value) return "no field " + field;
  for (const auto& e : d->entries) {
    if (e.value == want) return e.probability.exact() == "0/1" ? "0" : e.probability.exact();
  }
  return "0";
}

class StrategiyaOdds : public ::testing::TestWithParam<Odds> {};

TEST_P(StrategiyaOdds, ComeOutOfTheStatisticsEngineExactly) {
  const Odds& c = GetParam();
  const Compiled prog = engine().compile(c.expr);
  ASSERT_TRUE(prog.ok()) << render_text(prog.diagnostics);
  StatsOptions options;
  options.exact_only = true;
  const Stats s = compute_stats(engine(), prog.program, {}, options);
  ASSERT_FALSE(s.first_error) << render_text(*s.first_error);
  ASSERT_EQ(s.method, StatsMethod::Exact) << s.reason;
  EXPECT_EQ(s.unresolved.exact(), "0/1");
  EXPECT_EQ(probability_of(s, c.field, c.want), c.exact) << c.expr;
}

Value label(const char* s) { return Value(std::string(s)); }

// clang-format off
const std::vector<Odds> odds = {
  Odds{"V168_pass", "strategiya.combat_roll({str: 1})", "outcome", label("pass"), "1/2"},
  Odds{"V168_hit", "strategiya.combat_roll({str: 1})", "outcome", label("hit"), "1/2"},
  Odds{"V169_hit", "strategiya.combat_roll({str: 3, swords: 1})", "outcome", label("hit"), "1/2"},
  Odds{"V169_sword_hit", "strategiya.combat_roll({str: 3, swords: 1})", "outcome", label("sword_hit"), "1/6"},
  Odds{"V169_pass", "strategiya.combat_roll({str: 3, swords: 1})", "outcome", label("pass"), "1/3"},
  Odds{"V170_shield_heal", "strategiya.combat_roll({str: 3, shield: true})", "outcome", label("shield_heal"), "1/6"},
  Odds{"V170_pass", "strategiya.combat_roll({str: 3, shield: true})", "outcome", label("pass"), "1/3"},
  Odds{"V170_hit", "strategiya.combat_roll({str: 3, shield: true})", "outcome", label("hit"), "1/2"},
  Odds{"V171_hit", "strategiya.combat_roll({str: 1}, {armour: true})", "outcome", label("hit"), "1/3"},
  Odds{"V171_armour_block", "strategiya.combat_roll({str: 1}, {armour: true})", "outcome", label("armour_block"), "1/6"},
  Odds{"V171_pass", "strategiya.combat_roll({str: 1}, {armour: true})", "outcome", label("pass"), "1/2"},
  Odds{"V172_one", "strategiya.flee(1)", "outcome", label("all_escaped"), "1/2"},
  Odds{"V172_both", "strategiya.flee(2)", "outcome", label("all_escaped"), "1/4"},
  Odds{"V172_at_least_one", "strategiya.flee(2)", "any_escaped", Value(true), "3/4"},
  Odds{"V173_no_shield", "strategiya.bow_shot()", "outcome", label("kill"), "1/36"},
  Odds{"V173_shield", "strategiya.bow_shot(true)", "outcome", label("kill"), "1/72"},
  Odds{"V175_1_1", "strategiya.hide([1], [1])", "outcome", label("hidden"), "5/12"},
  Odds{"V175_2_1", "strategiya.hide([2], [1])", "outcome", label("hidden"), "3/4"},
  Odds{"V175_1_2", "strategiya.hide([1], [2])", "outcome", label("hidden"), "1/6"},
  Odds{"V175_3_3", "strategiya.hide([3], [3])", "outcome", label("hidden"), "5/12"},
  Odds{"V175_5_3", "strategiya.hide([5], [3])", "outcome", label("hidden"), "13/18"},
  Odds{"V175_3_5", "strategiya.hide([3], [5])", "outcome", label("hidden"), "1/4"},
  Odds{"V175_0_1", "strategiya.hide([0], [1])", "outcome", label("hidden"), "0"},
  Odds{"V175_0_6", "strategiya.hide([0], [6])", "outcome", label("hidden"), "0"},
  Odds{"V176", "strategiya.hide([2, 1], [3])", "outcome", label("hidden"), "17/36"},
  Odds{"V177", "strategiya.hide([1, 1], [2])", "outcome", label("hidden"), "11/24"}};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Strategiya, StrategiyaOdds, ::testing::ValuesIn(odds),
                         [](const auto& param_info) { return param_info.param.id; });

// ---- V178-V179: duels, exactly and sampled ---------------------------------------------------------
//
// The duel is run by combat_duel itself (the loop of R27 to the end, under the iteration limit).
// Exactly: alea stats composes the loop as a chain over the duel's states, and P(a wins) must be
// the spec's fraction within the share still looping when the chain stopped (reported, under
// 1e-15) plus 1e-12. Sampled, for a few of them (the sampler's run of a loop): 3,000 duels from a
// fixed seed; the share of wins must lie within 4 standard errors of the exact value (a bound a
// correct duel misses about once in 16,000 seeds), and the reported 95% interval must hold it.

struct DuelOdds {
  std::string id;
  int a_str, a_lives, b_str, b_lives;
  std::int64_t num, den;  // P(a wins), the spec's exact answer
};

// The stats of the duel's outcome with `options`; no duel of plain heroes reaches the roll cap,
// so none of its values is a stalemate.
Stats duel_stats(const DuelOdds& c, const StatsOptions& options) {
  const std::string expr = fmt::format("strategiya.combat_duel({{str: {}, lives: {}}}, {{str: {}, lives: {}}}).outcome",
                                       c.a_str, c.a_lives, c.b_str, c.b_lives);
  const Compiled prog = engine().compile(expr);
  EXPECT_TRUE(prog.ok()) << render_text(prog.diagnostics);
  if (!prog.ok()) return {};
  Stats s = compute_stats(engine(), prog.program, {}, options);
  for (const auto& e : s.value.entries) EXPECT_NE(e.value, label("stalemate")) << expr;
  return s;
}

// The share of a's wins in `s`, or nullptr.
const Probability* a_wins(const Stats& s) {
  for (const auto& e : s.value.entries) {
    if (e.value == label("a_wins")) return &e.probability;
  }
  return nullptr;
}

class StrategiyaDuelExact : public ::testing::TestWithParam<DuelOdds> {};

TEST_P(StrategiyaDuelExact, IsTheSpecsFraction) {
  const DuelOdds& c = GetParam();
  StatsOptions options;
  options.exact_only = true;
  const Stats s = duel_stats(c, options);
  ASSERT_EQ(s.method, StatsMethod::Exact) << s.reason;
  EXPECT_EQ(s.exact_method, "composed");
  EXPECT_LT(s.still_looping.value, 1e-15);
  const Probability* wins = a_wins(s);
  ASSERT_NE(wins, nullptr) << c.id;
  const double exact = static_cast<double>(c.num) / static_cast<double>(c.den);
  EXPECT_NEAR(wins->value, exact, s.still_looping.value + 1e-12) << c.id << ": " << c.num << "/" << c.den;
}

class StrategiyaDuelSampled : public ::testing::TestWithParam<DuelOdds> {};

TEST_P(StrategiyaDuelSampled, MatchesTheExactAnswer) {
  const DuelOdds& c = GetParam();
  StatsOptions options;
  options.sampled_only = true;
  options.samples = 3000;
  options.seed = 7;
  options.threads = 1;
  const Stats s = duel_stats(c, options);
  ASSERT_EQ(s.method, StatsMethod::Sampled);
  ASSERT_FALSE(s.first_error) << render_text(*s.first_error);
  EXPECT_EQ(s.runs, 3000u);
  double total = 0;
  for (const auto& e : s.value.entries) total += e.probability.value;
  EXPECT_NEAR(total, 1.0, 1e-9);
  const Probability* wins = a_wins(s);
  ASSERT_NE(wins, nullptr) << c.id;
  const double exact = static_cast<double>(c.num) / static_cast<double>(c.den);
  const double sigma = std::sqrt(exact * (1 - exact) / 3000.0);
  EXPECT_NEAR(wins->value, exact, 4 * sigma) << c.id << ": " << c.num << "/" << c.den;
  EXPECT_LE(wins->low, wins->value);
  EXPECT_GE(wins->high, wins->value);
  EXPECT_LT(wins->high - wins->low, 0.04);
}

// clang-format off
const std::vector<DuelOdds> duels = {
  DuelOdds{"V178_1_1", 1, 1, 1, 1, 2, 3},
  DuelOdds{"V178_2_2", 1, 2, 1, 2, 16, 27},
  DuelOdds{"V178_3_3", 1, 3, 1, 3, 46, 81},
  DuelOdds{"V178_1_2", 1, 2, 1, 1, 7, 9},
  DuelOdds{"V178_2_1", 1, 1, 1, 2, 4, 9},
  DuelOdds{"V178_2_3", 1, 3, 1, 2, 19, 27},
  DuelOdds{"V178_3_2", 1, 2, 1, 3, 4, 9},
  DuelOdds{"V178_1_3", 1, 3, 1, 1, 23, 27},
  DuelOdds{"V178_4_4", 1, 4, 1, 4, 1216, 2187},
  DuelOdds{"V178_5_5", 1, 5, 1, 5, 10802, 19683},
  DuelOdds{"V179_5_5", 5, 15, 5, 15, 46, 81},
  DuelOdds{"V179_3_3", 3, 15, 3, 15, 10802, 19683},
  DuelOdds{"V179_5_3", 5, 15, 3, 15, 545, 729},
  DuelOdds{"V179_3_5", 3, 15, 5, 15, 256, 729},
  DuelOdds{"V179_4_6", 4, 15, 6, 20, 256, 729},
  DuelOdds{"V179_1_1", 1, 10, 1, 10, 619380496, 1162261467}};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Strategiya, StrategiyaDuelExact, ::testing::ValuesIn(duels),
                         [](const auto& param_info) { return param_info.param.id; });
// Sampled: the smallest duels, one won more often by each side and one even.
INSTANTIATE_TEST_SUITE_P(Strategiya, StrategiyaDuelSampled,
                         ::testing::Values(duels[0], duels[3], duels[4]),
                         [](const auto& param_info) { return param_info.param.id; });

}  // namespace strategiya_rules_test

// The cases of this file and of its data file, for the coverage check of
// strategiya_coverage_test.cpp.
std::vector<std::string> testing::strategiya_rules_cases() {
  std::vector<std::string> ids = testing::vector_ids("strategiya-rules.yaml");
  for (const auto& o : strategiya_rules_test::odds) ids.push_back(o.id);
  for (const auto& d : strategiya_rules_test::duels) ids.push_back(d.id);
  return ids;
}

}  // namespace alea
