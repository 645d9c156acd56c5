// tests/rulesets/heroes_mythos_test.cpp — specs/heroes-mythos-d6.md beyond its
// test vectors (those are data, tests/rulesets/vectors/heroes-mythos.yaml, run by
// vectors_test.cpp): the breakdown of a check, its arguments, and the spec's
// probabilities exactly.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "tests/support/shipped.hpp"
#include "interpreter/stats.hpp"
#include "tests/support/pinned_stats.hpp"

namespace alea {
namespace heroes_mythos_test {

const Engine& engine() {
  static const Engine e = testing::engine_with_ruleset("heroes-mythos");
  return e;
}

// The breakdown names which red dice cancelled which white dice, and which
// dice were used and left over.
TEST(HeroesMythosTrace, ShowsCancellationsAndLeftoverDice) {
  struct Case {
    std::string call;
    std::vector<std::int64_t> faces;
    std::vector<std::string> lines;
  };
  const std::vector<Case> cases = {
      // D7: two pairs of reds, each summing to 5, remove both white 5s; the 6 stays.
      {"heroes_mythos.check(dice: 3, red: 4)", {5, 5, 6, 3, 3, 2, 2, 1}, {"3+2 cancelled 5, 3+2 cancelled 5"}},
      // T4: the red 4 removes the white 4.
      {"heroes_mythos.check(dice: 3, red: 1)", {4, 5, 5, 4}, {"4 cancelled 4"}},
      // D12: 5+5 covers 10 exactly; 6, 1 and 1 are the Extra Successes.
      {"heroes_mythos.check(dice: 4)", {5, 5, 6, 1, 1}, {"used: [5, 5]", "extra successes: [6, 1, 1]"}},
      // D8: 6+4 is the fewest dice (two), not 4+3+3.
      {"heroes_mythos.check(dice: 4)", {6, 4, 3, 3, 2}, {"used: [6, 4]", "extra successes: [3, 3, 2]"}},
  };
  for (const auto& c : cases) {
    ScriptedDice dice(c.faces);
    const Outcome o = engine().roll(c.call, dice);
    ASSERT_TRUE(o.ok()) << render_text(*o.error);
    const std::string text = render_breakdown(o);
    for (const auto& line : c.lines) EXPECT_NE(text.find("\n  " + line), std::string::npos) << text;
  }
}

TEST(HeroesMythosArguments, AreCheckedAgainstTheirDeclaredRanges) {
  ScriptedDice dice({1, 2, 3});
  Outcome o = engine().roll("heroes_mythos.check(dice: 0)", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::ArgumentOutOfRange);
  EXPECT_EQ(o.error->message, "the argument 'dice' must be at least 1, got 0");
  o = engine().roll("heroes_mythos.check(dice: 3, explode_limit: -1)", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->message, "the parameter 'explode_limit' must be at least 0, got -1");
  o = engine().roll("heroes_mythos.check(dice: 3, white: 2)", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::UnknownArgument);
  o = engine().roll("heroes_mythos.check(red: 2)", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::MissingArgument);
  EXPECT_EQ(o.error->message, "'heroes_mythos.check' needs the argument 'dice'");
}

// Section 3.3, exactly: compute_stats enumerates every roll. With a finite
// explode_limit (0 or 1) the answer is an exact fraction. With no limit the
// chains are followed to 3 extra dice and the rest is reported as unresolved,
// so the spec's fraction must lie in [P, P + unresolved]: a bound that cannot
// flake (at most 1% wide; deeper chains cost more runs than a unit test should).
struct Probability {
  std::string id;
  int white, red;
  std::string limit;  // "none" or a number
  std::string field;  // "success" or "catastrophe"
  std::int64_t num, den;
};

class SpecProbability : public ::testing::TestWithParam<Probability> {};

TEST_P(SpecProbability, HoldsExactly) {
  const Probability& c = GetParam();
  const Compiled prog = engine().compile(
      fmt::format("heroes_mythos.check(dice: {}, red: {}, explode_limit: {})", c.white, c.red, c.limit));
  ASSERT_TRUE(prog.ok()) << render_text(prog.diagnostics);
  StatsOptions options;
  // A catastrophe never reaches an explosion, so its probability needs no chain followed.
  options.explosion_depth = c.field == "catastrophe" ? 0 : 3;
  const Stats s = compute_stats(engine(), prog.program, {}, testing::exact_pinned(options));
  ASSERT_EQ(s.method, StatsMethod::Exact) << s.reason;
  const Distribution* field = nullptr;
  for (const auto& d : s.fields) {
    if (d.name == c.field) field = &d;
  }
  ASSERT_NE(field, nullptr);
  std::string exact = "0/1";
  double p = 0;
  for (const auto& e : field->entries) {
    if (e.value == Value(true)) {
      exact = e.probability.exact();
      p = e.probability.value;
    }
  }
  const std::string want = fmt::format("{}/{}", c.num, c.den);
  const double spec = static_cast<double>(c.num) / static_cast<double>(c.den);
  // A catastrophe never reaches an explosion, so the unresolved runs hold none.
  if (s.unresolved.exact() == "0/1" || c.field == "catastrophe") {
    EXPECT_EQ(exact, want) << c.id;
  } else {
    EXPECT_LT(s.unresolved.value, 0.01) << c.id;
    EXPECT_LE(p, spec + 1e-12) << c.id << ": " << exact;
    EXPECT_GE(p + s.unresolved.value, spec - 1e-12) << c.id << ": " << exact << " + " << s.unresolved.exact();
  }
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(HeroesMythos, SpecProbability, ::testing::Values(
  Probability{"P1", 3, 0, "0", "success", 5, 8},
  Probability{"P2", 3, 0, "none", "success", 287, 432},
  Probability{"P3", 3, 0, "1", "success", 287, 432},
  Probability{"P4", 3, 1, "0", "success", 67, 216},
  Probability{"P5", 3, 1, "none", "success", 1099, 2592},
  Probability{"P6", 4, 0, "none", "success", 587, 648},
  Probability{"P7", 2, 0, "none", "success", 11, 36},
  Probability{"P8", 3, 2, "none", "success", 4391, 15552},
  Probability{"C1", 1, 1, "none", "catastrophe", 7, 12},
  Probability{"C2a", 2, 1, "none", "catastrophe", 0, 1},
  Probability{"C2b", 3, 2, "none", "catastrophe", 0, 1},
  Probability{"C3", 2, 2, "none", "catastrophe", 581, 1296},
  Probability{"C4", 3, 3, "none", "catastrophe", 5957, 15552}),
  [](const auto& param_info) { return param_info.param.id; });
// clang-format on

}  // namespace heroes_mythos_test
}  // namespace alea
