// tests/interpreter/typed_dice_test.cpp — described dice and declared record types:
// roll_each rolls a list of die descriptions in order, keeps each die's tags in the
// trace (breakdown and JSON) and goes through the dice source like any roll, so exact
// statistics see it; a ruleset's `types:` check a whole value, fill in defaults and put
// a problem where it was written.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"
#include "tests/support/roll.hpp"

namespace alea {
namespace typed_dice_test {

using testing::breakdown;
using testing::roll;
using testing::show;

std::string rendered(const Outcome& o) { return o.ok() ? to_display(*o.value) : render_text(*o.error); }

TEST(RollEach, RollsEachDescribedDieInOrderAndGivesItsFace) {
  EXPECT_EQ(show(roll("roll_each([{die: 6, colour: \"red\"}, {die: 8, colour: \"blue\"}])", {5, 7})),
            "[{die: 6, colour: \"red\", face: 5}, {die: 8, colour: \"blue\", face: 7}]");
  // The second argument is the die of every description without one; a list gives faces.
  EXPECT_EQ(show(roll("roll_each([{kind: \"a\"}, {die: [0, 0, 5], kind: \"b\"}], 6)", {2, 5})),
            "[{kind: \"a\", face: 2}, {die: [0, 0, 5], kind: \"b\", face: 5}]");
  // One description alone is one die.
  EXPECT_EQ(show(roll("roll_each({type: \"life\"}, 6)", {4})), "{type: \"life\", face: 4}");
  // A face already there is replaced, in place.
  EXPECT_EQ(show(roll("roll_each({face: 1, type: \"life\"}, 6)", {4})), "{face: 4, type: \"life\"}");
  EXPECT_EQ(show(roll("roll_each([])", {})), "[]");
}

TEST(RollEach, ShowsEveryDieWithItsTags) {
  EXPECT_EQ(breakdown("roll_each([{type: \"attack\", colour: \"red\"}, {type: \"life\", special: true, hp: 2}], 6)", {5, 2}),
            "roll_each([{type: \"attack\", colour: \"red\"}, {type: \"life\", special: true, hp: 2}], 6) → "
            "roll_each([5(attack red) 2(life special hp=2)], 6) = "
            "[{type: \"attack\", colour: \"red\", face: 5}, {type: \"life\", special: true, hp: 2, face: 2}]");
  // A false flag and none say nothing; a die without tags is its face alone.
  EXPECT_EQ(breakdown("len(roll_each([{die: 6, special: false, shape: none}, {die: 4}]))", {3, 1}),
            "len(roll_each([{die: 6, special: false, shape: none}, {die: 4}])) → len(roll_each([3 1])) = 2");
}

TEST(RollEach, GivesEachDieItsTagsInJson) {
  Engine engine;
  ScriptedDice dice({5, 2});
  const Outcome o = engine.roll("roll_each([{type: \"attack\", colour: \"red\"}, {die: 8}], 6)", dice);
  ASSERT_TRUE(o.ok());
  const auto doc = nlohmann::json::parse(render_json(o, "x", std::nullopt));
  ASSERT_EQ(doc["dice"].size(), 2u);
  EXPECT_EQ(doc["dice"][0]["die"], "d6");
  EXPECT_EQ(doc["dice"][0]["face"], 5);
  EXPECT_EQ(doc["dice"][0]["tags"], nlohmann::json({{"type", "attack"}, {"colour", "red"}}));
  EXPECT_EQ(doc["dice"][1]["die"], "d8");
  EXPECT_EQ(doc["dice"][1]["tags"], nlohmann::json::object());
  EXPECT_EQ(doc["value"][0]["face"], 5);
  EXPECT_EQ(doc["value"][1]["face"], 2);
  // A die of an ordinary roll has no tags.
  ScriptedDice more({3});
  const auto plain = nlohmann::json::parse(render_json(engine.roll("d6", more), "d6", std::nullopt));
  EXPECT_TRUE(plain["dice"][0]["tags"].is_null());
}

TEST(RollEach, RefusesBadDescriptionsWhereTheyAreWritten) {
  EXPECT_EQ(rendered(roll("roll_each([{die: 6}, 3])", {})),
            "<input>:1:22: error: die 1 of 'roll_each' must be a record such as {die: 6, colour: \"red\"}, got the "
            "number 3 [TypeMismatch]\n"
            " 1 | roll_each([{die: 6}, 3])\n"
            "   |                      ^\n");
  EXPECT_EQ(show(roll("roll_each([{colour: \"red\"}])", {})),
            "error: InvalidArgument: die 0 of 'roll_each' says no 'die': give it one (die: 6, or die: [1, 1, 2]) or "
            "give 'roll_each' the die of every description without one, as in roll_each(dice, 6)");
  EXPECT_EQ(show(roll("roll_each([{die: 0}])", {})), "error: InvalidDie: die 0 of 'roll_each' needs at least 1 side, got 0");
  EXPECT_EQ(show(roll("roll_each([{die: \"d6\"}])", {})),
            "error: InvalidDie: die 0 of 'roll_each' must be a number of sides (6) or a list of faces ([1, 1, 2]), got "
            "the string \"d6\"");
  EXPECT_EQ(show(roll("roll_each([{die: [1, true]}])", {})),
            "error: InvalidDie: die 0 of 'roll_each' has a face that is not a number: the bool true");
  EXPECT_EQ(show(roll("roll_each(3)", {})),
            "error: TypeMismatch: 'roll_each' needs a list of dice, each a record such as {die: 6, colour: \"red\"}, "
            "or one such record, got the number 3");
  // Scripted faces must fit each die.
  EXPECT_EQ(show(roll("roll_each([{die: 4}])", {6})), "error: ScriptedFaceInvalid: scripted die #1 is 6, which a d4 cannot show");
}

TEST(RollEach, CountsItsDiceAgainstTheLimit) {
  EngineOptions options;
  options.limits.max_dice = 3;
  EXPECT_EQ(show(roll("roll_each([{die: 6}, {die: 6}, {die: 6}, {die: 6}])", {1, 2, 3, 4}, {}, options)),
            "error: DiceLimitExceeded: this roll needs 4 dice; at most 3 may be rolled at once (max_dice)");
}

// The dice a source was asked for, one pool per call.
class RecordingDice final : public DiceSource {
 public:
  std::vector<std::string> pools;
  void roll(const DieKind& kind, std::span<std::int64_t> faces) override {
    pools.push_back(fmt::format("{}x{}", faces.size(), kind.name()));
    for (auto& f : faces) f = kind.max_face();
  }
};

TEST(RollEach, DrawsARunOfIdenticalDiceAsOnePool) {
  Engine engine;
  RecordingDice dice;
  const Outcome o = engine.roll(
      "roll_each([{t: \"a\"}, {t: \"a\", face: 2}, {t: \"b\"}, {die: 8, t: \"b\"}, {t: \"a\"}], 6)", dice);
  ASSERT_TRUE(o.ok());
  // Dice alike but for an old face are one pool; a different tag or die starts another.
  EXPECT_EQ(dice.pools, (std::vector<std::string>{"2xd6", "1xd6", "1xd8", "1xd6"}));
}

// Where a program reads the list by position, two alike dice keep their order when composed:
// the first is any face, not the lower one (the multiset alone gave 11/36 for a 1).
TEST(RollEach, ComposedKeepsTheOrderOfAlikeDiceWhereTheProgramReadsIt) {
  Engine engine;
  const Compiled c = engine.compile("roll_each([{die: 6}, {die: 6}])[0].face");
  ASSERT_TRUE(c.ok());
  const Stats s = compute_stats(engine, c.program, {}, {});
  ASSERT_EQ(s.method, StatsMethod::Exact) << s.reason;
  EXPECT_EQ(s.exact_method, "composed");
  ASSERT_EQ(s.value.entries.size(), 6u);
  for (const auto& e : s.value.entries) EXPECT_EQ(e.probability.exact(), "1/6");
}

// Exact statistics compose roll_each draw by draw, or enumerate the multisets of a run of alike
// dice; either way the tags make no difference to the odds.
TEST(RollEach, IsExactInTheStatisticsEngine) {
  Engine engine;
  const Compiled c = engine.compile(
      "let d = roll_each([{t: \"x\"}, {t: \"x\"}, {t: \"y\"}], 6) in d[0].face + d[1].face - d[2].face");
  ASSERT_TRUE(c.ok());
  const Compiled plain = engine.compile("2d6 - 1d6");
  const Stats p = compute_stats(engine, plain.program, {}, {});
  StatsOptions enumerate;
  enumerate.compose = false;
  for (const StatsOptions& o : {StatsOptions{}, enumerate}) {
    const Stats s = compute_stats(engine, c.program, {}, o);
    ASSERT_EQ(s.method, StatsMethod::Exact) << s.reason;
    if (o.compose) {
      EXPECT_EQ(s.exact_method, "composed");
    } else {
      EXPECT_EQ(s.runs, 6u * 6u * 6u);  // read by position: every order of the two alike dice, times 6
    }
    ASSERT_EQ(s.value.entries.size(), p.value.entries.size());
    for (std::size_t i = 0; i < p.value.entries.size(); ++i) {
      EXPECT_EQ(s.value.entries[i].value, p.value.entries[i].value);
      EXPECT_EQ(s.value.entries[i].probability.exact(), p.value.entries[i].probability.exact());
    }
  }
}

// ---- declared record types -------------------------------------------------------------

constexpr std::string_view typed_ruleset = R"(schema: 1
name: typed
title: Typed
source: a test
types:
  die:
    doc: a die
    fields:
      type: {type: label, choices: [attack, defence, life], doc: its type}
      colour: {type: label, choices: [red, blue], doc: its colour}
      special: {type: bool, default: false, doc: wins ties}
      face: {type: "int?", default: null, min: 0, max: 6, doc: its value}
  side:
    doc: a player
    fields:
      field: {type: list, items: die, default: [], doc: the dice on the field}
parameters:
  champion: {type: "die?", default: {type: life, colour: red}, doc: one die}
mechanics:
  roll:
    doc: rolls an army
    params:
      army: {type: list, items: die, doc: the dice}
    body: roll_each(army, 6)
    returns: {type: list, items: die, doc: the dice rolled}
  size:
    doc: the dice on a side's field
    params:
      p: {type: side, doc: the side}
    body: len(p.field)
    returns: {type: int, doc: how many}
  champion_of:
    doc: the ruleset's champion
    body: champion
    returns: {type: "die?", doc: the champion}
)";

Engine typed_engine() {
  Engine e;
  const Diagnostics d = e.load_ruleset_text(typed_ruleset, "typed.yaml");
  if (!d.empty()) throw std::runtime_error(render_text(d));
  return e;
}

std::string run(const Engine& e, std::string_view src, std::vector<std::int64_t> faces = {}) {
  ScriptedDice dice(std::move(faces));
  const Outcome o = e.roll(src, dice);
  return o.ok() ? to_display(*o.value) : render_text(*o.error);
}

TEST(RecordTypes, FillInTheDefaultsOfMissingFieldsInTheirOrder) {
  const Engine e = typed_engine();
  EXPECT_EQ(run(e, "typed.roll([{colour: \"blue\", type: \"attack\"}])", {3}),
            "[{type: \"attack\", colour: \"blue\", special: false, face: 3}]");
  EXPECT_EQ(run(e, "typed.size({})"), "0");
  EXPECT_EQ(run(e, "typed.champion_of()"), "{type: \"life\", colour: \"red\", special: false, face: none}");
  EXPECT_EQ(run(e, "typed.champion_of(champion: none)"), "none");
}

TEST(RecordTypes, PointAtTheBadPartOfALiteral) {
  const Engine e = typed_engine();
  EXPECT_EQ(run(e, "typed.roll([{type: \"attack\", colour: \"red\"}, {type: \"atack\", colour: \"red\"}])"),
            "<input>:1:53: error: the argument 'army[1].type' must be one of attack, defence, life, got \"atack\" "
            "[ArgumentOutOfRange]\n"
            " 1 | typed.roll([{type: \"attack\", colour: \"red\"}, {type: \"atack\", colour: \"red\"}])\n"
            "   |                                                     ^~~~~~~\n"
            "note: did you mean 'attack'?\n");
  EXPECT_EQ(run(e, "typed.roll([{type: \"life\", colur: \"red\"}])"),
            "<input>:1:13: error: the argument 'army[0]' is a die, which has no field 'colur' [UnknownField]\n"
            " 1 | typed.roll([{type: \"life\", colur: \"red\"}])\n"
            "   |             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
            "note: did you mean 'colour'?\n"
            "note: the fields of a die: type, colour, special, face\n");
  EXPECT_EQ(run(e, "typed.roll([{type: \"life\"}])"),
            "<input>:1:13: error: the argument 'army[0]' is a die, which needs the field 'colour' [MissingArgument]\n"
            " 1 | typed.roll([{type: \"life\"}])\n"
            "   |             ^~~~~~~~~~~~~~\n"
            "note: colour: its colour\n");
  EXPECT_EQ(run(e, "typed.size({field: [{type: \"life\", colour: \"red\", face: 7}]})"),
            "<input>:1:57: error: the argument 'p.field[0].face' must be at most 6, got 7 [ArgumentOutOfRange]\n"
            " 1 | typed.size({field: [{type: \"life\", colour: \"red\", face: 7}]})\n"
            "   |                                                         ^\n");
  // A value that is not a literal is reported at the argument, with the same path.
  EXPECT_EQ(run(e, "let a = [3] in typed.roll(a)"),
            "<input>:1:27: error: the argument 'army[0]' must be a die, got the number 3 [TypeMismatch]\n"
            " 1 | let a = [3] in typed.roll(a)\n"
            "   |                           ^\n");
  EXPECT_EQ(run(e, "typed.roll([])"), "[]");
}

TEST(RecordTypes, AreCheckedWhenTheRulesetLoads) {
  auto load = [](std::string_view extra) {
    Engine e;
    const std::string yaml = fmt::format(
        "schema: 1\nname: x\ntitle: X\nsource: a test\n{}mechanics:\n  m:\n    doc: x\n    body: 1\n"
        "    returns: {{type: int, doc: x}}\n",
        extra);
    std::string out;
    for (const auto& d : e.load_ruleset_text(yaml, "x.yaml")) out += render_text(d);
    return out;
  };
  // A type may only use the types declared before it.
  EXPECT_EQ(load("types:\n  a:\n    doc: x\n    fields:\n      b: {type: b, doc: x}\n  b:\n    doc: x\n"
                 "    fields:\n      n: {type: int, doc: x}\n"),
            "x.yaml:9:17: error: unknown type 'b' [RulesetInvalidValue]\n"
            " 9 |       b: {type: b, doc: x}\n"
            "   |                 ^\n"
            "note: the types are int, bool, string, label, list, record, pool, any and those declared under 'types' "
            "(before this one); add '?' to admit null\n");
  EXPECT_EQ(load("types:\n  int:\n    doc: x\n    fields:\n      n: {type: int, doc: x}\n"),
            "x.yaml:6:3: error: the type name 'int' is already a type of the format [RulesetInvalidValue]\n"
            " 6 |   int:\n"
            "   |   ^~~\n");
  EXPECT_EQ(load("parameters:\n  p: {type: int, items: int, default: 1, doc: x}\n"),
            "x.yaml:6:25: error: 'items' applies to the type list [RulesetInvalidValue]\n"
            " 6 |   p: {type: int, items: int, default: 1, doc: x}\n"
            "   |                         ^~~\n");
  EXPECT_EQ(load("types:\n  d:\n    doc: x\n    fields: []\n"),
            "x.yaml:8:13: error: 'fields' maps each field of the record to its description [RulesetFieldType]\n"
            " 8 |     fields: []\n"
            "   |             ^\n");
  EXPECT_EQ(load("types:\n  d:\n    doc: x\n    fields:\n      n: {type: int, doc: x}\n"
                 "parameters:\n  p: {type: dd, default: null, doc: x}\n"),
            "x.yaml:11:13: error: unknown type 'dd' [RulesetInvalidValue]\n"
            " 11 |   p: {type: dd, default: null, doc: x}\n"
            "    |             ^~\n"
            "note: did you mean 'd'?\n");
}

}  // namespace typed_dice_test
}  // namespace alea
