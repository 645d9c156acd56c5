// tests/rulesets/heroes_mythos_test.cpp — every test vector of
// specs/heroes-mythos-d6.md through the shipped ruleset, with scripted dice,
// and the spec's probabilities exactly.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "tests/support/shipped.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace {

const Engine& engine() {
  static const Engine e = testing::engine_with_ruleset("heroes-mythos");
  return e;
}

struct Vector {
  std::string id;
  std::vector<std::int64_t> white, red, explosions;
  std::int64_t difficulty = 10;
  std::optional<std::int64_t> limit;  // explode_limit; none when empty
  std::int64_t result = 0;
  bool success = false;
  std::int64_t extra = 0;
  bool catastrophe = false;
  std::vector<std::int64_t> rolled_explosions;  // when not all the scripted explosion dice are used
};

std::string call_for(const Vector& v) {
  return fmt::format("heroes_mythos.check(dice: {}, red: {}, difficulty: {}, explode_limit: {})", v.white.size(),
                     v.red.size(), v.difficulty, v.limit ? fmt::format("{}", *v.limit) : "none");
}

std::int64_t field_int(const Value& v, std::string_view name) {
  const Value* f = v.field(name);
  if (!f || !f->as_int()) throw std::runtime_error(fmt::format("no int field '{}' in {}", name, to_display(v)));
  return *f->as_int();
}
bool field_bool(const Value& v, std::string_view name) {
  const Value* f = v.field(name);
  if (!f || !f->as_bool()) throw std::runtime_error(fmt::format("no bool field '{}' in {}", name, to_display(v)));
  return *f->as_bool();
}

class SpecVector : public ::testing::TestWithParam<Vector> {};

TEST_P(SpecVector, GivesTheSpecifiedResult) {
  const Vector& v = GetParam();
  std::vector<std::int64_t> faces = v.white;
  faces.insert(faces.end(), v.red.begin(), v.red.end());
  faces.insert(faces.end(), v.explosions.begin(), v.explosions.end());
  ScriptedDice dice(faces);
  const Outcome o = engine().roll(call_for(v), dice);
  ASSERT_TRUE(o.ok()) << render_text(*o.error);
  const Value& r = *o.value;
  EXPECT_EQ(field_int(r, "result"), v.result) << to_display(r);
  EXPECT_EQ(field_bool(r, "success"), v.success) << to_display(r);
  EXPECT_EQ(field_int(r, "extra_successes"), v.extra) << to_display(r);
  EXPECT_EQ(field_bool(r, "catastrophe"), v.catastrophe) << to_display(r);
  const std::string outcome = v.catastrophe ? "catastrophe" : v.success ? "success" : "failure";
  EXPECT_EQ(to_display(*r.field("outcome")), outcome);
  // The explosion dice actually rolled, in order.
  std::vector<std::int64_t> exploded;
  for (const auto& d : o.trace.dice) {
    if (d.origin == DieOrigin::Exploded) exploded.push_back(d.face);
  }
  EXPECT_EQ(exploded, v.rolled_explosions.empty() ? v.explosions : v.rolled_explosions);
}

// clang-format off
const std::vector<Vector> vectors = {
  // 3.1 worked examples from the text
  {"T1", {4, 4, 2}, {}, {}, 10, {}, 10, true, 0, false, {}},
  {"T2", {6, 4, 1}, {}, {3}, 10, {}, 14, true, 2, false, {}},
  {"T3", {6, 4, 1}, {}, {6, 2}, 10, {}, 19, true, 3, false, {}},
  {"T4", {4, 5, 5}, {4}, {}, 10, {}, 10, true, 0, false, {}},
  {"T5", {4, 5, 5}, {5}, {}, 10, {}, 9, false, 0, false, {}},
  {"T6", {4, 3, 5}, {4}, {}, 10, {}, 8, false, 0, false, {}},
  // 3.2 vectors derived from the rules and resolutions
  {"Ra", {6, 4, 1}, {6}, {}, 10, {}, 5, false, 0, false, {}},
  {"Rb", {6, 4, 1}, {4, 3}, {2}, 10, {}, 8, false, 0, false, {}},
  {"Rc", {3, 2}, {3, 2}, {}, 10, {}, 0, false, 0, true, {}},
  {"D1", {4, 5, 5}, {3}, {}, 10, {}, 14, true, 1, false, {}},
  {"D2", {6, 4, 1}, {5}, {3}, 10, {}, 10, true, 0, false, {}},
  {"D3", {5, 5, 4}, {3, 2}, {}, 10, {}, 9, false, 0, false, {}},
  {"D4", {6, 6}, {4, 4}, {2, 3}, 10, {}, 17, true, 2, false, {}},
  {"D5", {6, 6, 2}, {6, 6}, {}, 10, {}, 2, false, 0, false, {}},
  {"D6", {5, 2}, {3, 2}, {}, 10, {}, 5, false, 0, false, {}},
  {"D7", {5, 5, 6}, {3, 3, 2, 2}, {1}, 10, {}, 7, false, 0, false, {}},
  {"D8", {6, 4, 3, 3}, {}, {2}, 10, {}, 18, true, 3, false, {}},
  {"D9", {3, 3, 3, 2}, {}, {}, 10, {}, 11, true, 0, false, {}},
  {"D10", {6, 2, 1}, {}, {6, 6, 6, 4}, 10, 2, 21, true, 3, false, {6, 6}},
  {"D11", {6, 2, 1}, {}, {6, 6, 6, 4}, 10, {}, 31, true, 5, false, {}},
  {"D12", {5, 5, 6, 1}, {}, {1}, 10, {}, 18, true, 3, false, {}},
  {"D13", {2, 2}, {1, 1}, {}, 10, {}, 2, false, 0, false, {}},
  {"D14", {6, 5}, {5, 4}, {1}, 10, {}, 7, false, 0, false, {}},
  {"D15", {1, 1, 1}, {6}, {}, 10, {}, 2, false, 0, false, {}},
  {"D16", {5, 4, 2}, {1, 1, 1}, {}, 10, {}, 9, false, 0, false, {}},
  {"D17", {4, 3, 1}, {2, 2, 2}, {}, 10, {}, 3, false, 0, false, {}},
  {"D18", {6, 3}, {3}, {4}, 10, {}, 10, true, 0, false, {}},
  {"D19", {5, 5, 5, 2}, {}, {}, 8, {}, 17, true, 2, false, {}},
  {"D20", {6, 6, 6}, {6}, {1, 2}, 10, {}, 15, true, 2, false, {}},
  {"D21", {2, 2, 2}, {5, 5}, {}, 10, {}, 2, false, 0, false, {}},
  {"D22", {5, 5}, {2, 2, 2, 2, 2}, {}, 10, {}, 5, false, 0, false, {}},
  {"D23", {6, 5, 5}, {3, 3}, {5}, 10, {}, 16, true, 1, false, {}},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(HeroesMythos, SpecVector, ::testing::ValuesIn(vectors),
                         [](const auto& param_info) { return param_info.param.id; });

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
  const Stats s = compute_stats(engine(), prog.program, {}, options);
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

}  // namespace
}  // namespace alea
