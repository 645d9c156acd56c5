// tests/interpreter/field_bounds_test.cpp — a field of a record type or of a side
// bounded by another field of the same record (`lives: {max: max_lives}`): the
// evaluator refuses a record that breaks it, at the field, in both the plain
// and the exact engine; a field left at none has no bound; the loader refuses
// a bound that names no int field of the record, and a bound by name on a
// parameter. A list's items take bounds and choices of their own
// (`items: {type: label, choices: […]}`).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"
#include "tests/support/roll.hpp"
#include "tests/support/shipped.hpp"

namespace alea {
namespace field_bounds_test {

constexpr std::string_view yaml = R"(schema: 1
name: x
title: X
source: a test
functions: |
  fn diff(mine, theirs) = mine - theirs
types:
  hero:
    doc: a hero
    fields:
      lives: {type: "int?", min: 0, max: max_lives, default: null, doc: lives now; none for full}
      max_lives: {type: int, min: 1, doc: the most lives he can have}
mechanics:
  missing:
    doc: the lives a hero has lost
    params:
      hero: {type: hero, doc: the hero}
    body: if hero.lives == none then 0 else hero.max_lives - hero.lives
    returns: {type: int, doc: lives lost}
  grades:
    doc: the grades of a path
    params:
      path: {type: list, items: {type: label, choices: [easy, hard]}, doc: the grades}
      costs: {type: list, items: {type: int, min: 1, max: 3}, default: [], doc: the cost of each}
    body: len(path) + sum(costs)
    returns: {type: int, doc: a count}
  clash:
    doc: each side rolls its pool, which is at most its dice
    sides:
      names: [attacker, defender]
      fields:
        pool: {type: int, min: 0, max: dice, doc: the dice rolled}
        dice: {type: int, min: 0, doc: the dice the side has}
    body: pool d6 vs opposed by diff
    returns: {type: int, doc: how far the attacker is ahead}
)";

const Engine& engine() {
  static const Engine e = testing::engine_with_text(yaml);
  return e;
}

std::string run(std::string_view call, std::vector<std::int64_t> faces = {}) {
  ScriptedDice dice(std::move(faces));
  return testing::show(engine().roll(call, dice));
}

TEST(FieldBounds, AFieldIsBoundedByItsSibling) {
  EXPECT_EQ(run("x.missing({lives: 2, max_lives: 3})"), "1");
  EXPECT_EQ(run("x.missing({lives: 3, max_lives: 3})"), "0");
  EXPECT_EQ(run("x.missing({max_lives: 3})"), "0");  // none: no bound
  EXPECT_EQ(run("x.missing({lives: 9, max_lives: 2})"),
            "error: ArgumentOutOfRange: the argument 'hero.lives' must be at most its max_lives, 2; got 9");
  // Its own bounds first.
  EXPECT_EQ(run("x.missing({lives: -1, max_lives: 2})"),
            "error: ArgumentOutOfRange: the argument 'hero.lives' must be at least 0, got -1");
}

TEST(FieldBounds, TheErrorStandsAtTheField) {
  ScriptedDice dice({});
  const std::string call = "x.missing({lives: 9, max_lives: 2})";
  const Outcome o = engine().roll(call, dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->span.begin, call.find('9'));
  EXPECT_EQ(o.error->span.end, call.find('9') + 1);
}

TEST(FieldBounds, ASideFieldIsBoundedToo) {
  EXPECT_EQ(run("x.clash({pool: 1, dice: 2}, {pool: 1, dice: 1})", {6, 2}), "4");
  EXPECT_EQ(run("x.clash({pool: 1, dice: 2}, {pool: 3, dice: 1})"),
            "error: ArgumentOutOfRange: the argument 'defender.pool' must be at most its dice, 1; got 3");
}

// The exact engine checks the same types: a broken record gives no odds.
TEST(FieldBounds, TheExactEngineRefusesTheSameRecords) {
  StatsOptions o;
  o.exact_only = true;
  const Compiled good = engine().compile("x.clash({pool: 1, dice: 2}, {pool: 1, dice: 1})");
  ASSERT_TRUE(good.ok()) << render_text(good.diagnostics);
  const Stats s = compute_stats(engine(), good.program, {}, o);
  EXPECT_EQ(s.exact_method, "composed") << s.not_composed;
  EXPECT_EQ(s.value.exact_mean, "0/1");
  const Compiled bad = engine().compile("x.clash({pool: 1, dice: 2}, {pool: 3, dice: 1})");
  ASSERT_TRUE(bad.ok()) << render_text(bad.diagnostics);
  const Stats t = compute_stats(engine(), bad.program, {}, o);
  ASSERT_TRUE(t.first_error) << t.exact_method;
  EXPECT_EQ(t.first_error->message, "the argument 'defender.pool' must be at most its dice, 1; got 3");
  EXPECT_TRUE(t.value.entries.empty());
}

// "LINE:COL Code message" of each problem the loader reports for `fields` of a type `t`
// and `params` of a mechanic `m`.
std::vector<std::string> problems(std::string_view fields, std::string_view params) {
  const std::string text = fmt::format(
      "schema: 1\nname: x\ntitle: X\nsource: a test\ntypes:\n  t:\n    doc: t\n    fields:\n{}"
      "mechanics:\n  m:\n    doc: d\n    params:\n{}    body: 1\n    returns: {{type: int, doc: one}}\n",
      fields, params);
  return testing::load_problems(text);
}

TEST(FieldBounds, TheLoaderRefusesABoundThatNamesNoIntField) {
  const std::string param = "      r: {type: t, doc: r}\n";
  EXPECT_EQ(problems("      a: {type: int, max: mostt, doc: a}\n      most: {type: int, doc: m}\n", param),
            (std::vector<std::string>{
                "9:27 RulesetInvalidValue 'max' is a number, or another field of the record; it has no field 'mostt' / did you mean 'most'?"}));
  EXPECT_EQ(problems("      a: {type: int, min: b, doc: a}\n      b: {type: bool, doc: b}\n", param),
            (std::vector<std::string>{"9:27 RulesetInvalidValue 'min: b' names a field, which must be another int field of the record"}));
  EXPECT_EQ(problems("      a: {type: int, doc: a}\n",
                     "      n: {type: int, max: most, doc: n}\n      most: {type: int, doc: m}\n"),
            (std::vector<std::string>{"14:27 RulesetFieldType 'max' must be a whole number here; a bound by another field's name is "
                                      "for the fields of a record type or of a side"}));
}

TEST(FieldBounds, ListItemsTakeBoundsAndChoicesOfTheirOwn) {
  EXPECT_EQ(run("x.grades([\"easy\", \"hard\"], [1, 3])"), "6");
  EXPECT_EQ(run("x.grades([\"easy\", \"hadr\"])"),
            "error: ArgumentOutOfRange: the argument 'path[1]' must be one of easy, hard, got \"hadr\"");
  EXPECT_EQ(run("x.grades([], [1, 4])"), "error: ArgumentOutOfRange: the argument 'costs[1]' must be at most 3, got 4");
  EXPECT_EQ(problems("      a: {type: int, doc: a}\n", "      l: {type: list, items: {type: int, mni: 0}, doc: l}\n"),
            (std::vector<std::string>{"14:42 RulesetUnknownKey unknown key 'mni' in 'items' / did you mean 'min'?"}));
}

}  // namespace field_bounds_test
}  // namespace alea
