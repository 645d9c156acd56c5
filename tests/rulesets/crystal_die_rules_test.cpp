// tests/rulesets/crystal_die_rules_test.cpp — the shipped Crystal Die ruleset beyond
// the spec's vectors: each parameter standing for what the source leaves out (A3, A4,
// A7, A11, A15, A17, A18) changes what it says it changes; the set rules of R8/A8;
// bad die descriptions are refused at the place they are written; the breakdown and
// the JSON show every die with its type and colour; and the exact odds of a skirmish
// from the statistics engine match an enumeration written here, independently.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"
#include "tests/support/shipped.hpp"
#include "tests/support/pinned_stats.hpp"

namespace alea {
namespace crystal_die_rules_test {

const Engine& engine() {
  static const Engine e = testing::engine_with_ruleset("crystal-die");
  return e;
}

// The value (or the rendered error) of a call with scripted dice, all of which must be used.
std::string run(const std::string& call, std::vector<std::int64_t> faces = {}) {
  const std::size_t n = faces.size();
  ScriptedDice dice(std::move(faces));
  const Outcome o = engine().roll(call, dice);
  if (!o.ok()) return render_text(*o.error);
  EXPECT_EQ(dice.used(), n) << call;
  return to_display(*o.value);
}

std::string field(const std::string& call, const std::string& name, std::vector<std::int64_t> faces = {}) {
  ScriptedDice dice(std::move(faces));
  const Outcome o = engine().roll(call, dice);
  if (!o.ok()) return render_text(*o.error);
  const Value* f = o.value->field(name);
  if (!f) return "no field " + name;
  return f->as_str() ? *f->as_str() : to_display(*f);
}

const std::string red_attack = "{type: \"attack\", colour: \"red\"}";
const std::string blue_life_4 = "{type: \"life\", colour: \"blue\", face: 4}";

TEST(CrystalDieParameters, DuelCompareLessWinsOnALowerRoll) {
  const std::string call = "crystal_die.duel(" + red_attack + ", " + blue_life_4 + ", duel_compare: \"less\")";
  EXPECT_EQ(field(call, "won", {3}), "true");
  EXPECT_EQ(field(call, "won", {5}), "false");
  EXPECT_EQ(field(call, "won", {4}), "false");
  // A special die still wins on equal values (R6).
  EXPECT_EQ(field("crystal_die.duel({type: \"attack\", colour: \"red\", special: true}, " + blue_life_4 +
                      ", duel_compare: \"less\")",
                  "won", {4}),
            "true");
}

TEST(CrystalDieParameters, DuelEffectSaysWhereALosingTargetGoes) {
  EXPECT_EQ(field("crystal_die.duel(" + red_attack + ", " + blue_life_4 + ", duel_effect: \"imprison\")", "effect", {6}),
            "imprison");
  // per_shape: the duel die's shape's ability; a die without a shape has none (A7).
  const std::string destroyer = "{type: \"attack\", colour: \"red\", shape: \"destroyer\"}";
  EXPECT_EQ(field("crystal_die.duel(" + destroyer + ", " + blue_life_4 +
                      ", duel_effect: \"per_shape\", shape_ability: {destroyer: \"imprison\"})",
                  "effect", {6}),
            "imprison");
  EXPECT_EQ(field("crystal_die.duel(" + destroyer + ", " + blue_life_4 + ", duel_effect: \"per_shape\")", "effect", {6}),
            "none");
  EXPECT_EQ(field("crystal_die.duel(" + red_attack + ", " + blue_life_4 + ", duel_effect: \"per_shape\")", "effect", {6}),
            "none");
  // In a reserve attack, an imprisoned target leaves the field for its owner's Imprisonment.
  const std::string call = fmt::format(
      "crystal_die.reserve_attack({{reserve: [{}]}}, {{field: [{}]}}, \"p1\", [{{die: 0, side: \"opponent\", index: 0}}], "
      "duel_effect: \"imprison\")",
      red_attack, blue_life_4);
  EXPECT_EQ(run(call + ".p2", {5}),
            "{field: [], reserve: [], imprisoned: [{type: \"life\", colour: \"blue\", shape: none, special: false, "
            "face: 4}], abyss: []}");
}

TEST(CrystalDieParameters, DamageSplitInOrderSpendsEachDieInTurn) {
  EXPECT_EQ(run("crystal_die.split_damage([5, 3], 4, damage_split: \"in_order\")"), "{life: [1, 3], abyss: 0, lost: 0}");
  EXPECT_EQ(run("crystal_die.split_damage([3, 5], 4, damage_split: \"in_order\")"), "{life: [4], abyss: 1, lost: 0}");
  EXPECT_EQ(run("crystal_die.split_damage([3, 5], 4)"), "{life: [2, 2], abyss: 0, lost: 0}");
}

TEST(CrystalDieParameters, ColourBonusEffectAddOneRaisesTheDie) {
  const std::string call =
      "crystal_die.deploy([{type: \"attack\", colour: \"red\"}, {type: \"life\", colour: \"orange\"}], "
      "colour_bonus_effect: \"add_one\")";
  // The red 1 beside an orange (allied) die becomes a 2; the bonus lists the die as rolled.
  EXPECT_EQ(field(call, "attack", {1, 4}), "2");
  EXPECT_EQ(field(call, "bonuses", {1, 4}), "[{type: \"attack\", colour: \"red\", shape: none, special: false, face: 1}]");
  EXPECT_EQ(field("crystal_die.deploy([{type: \"attack\", colour: \"red\"}, {type: \"life\", colour: \"orange\"}])",
                  "attack", {1, 4}),
            "1");
}

TEST(CrystalDieParameters, ColourBonusOnDuelRollsIsOffUnlessAsked) {
  const std::string own = "[{type: \"life\", colour: \"orange\", face: 4}]";
  const std::string target = "{type: \"life\", colour: \"blue\", face: 1}";
  EXPECT_EQ(field("crystal_die.duel(" + red_attack + ", " + target + ", " + own + ")", "bonus", {1}), "false");
  EXPECT_EQ(field("crystal_die.duel(" + red_attack + ", " + target + ", " + own + ", colour_bonus_on_duel_rolls: true)",
                  "bonus", {1}),
            "true");
  // With add_one the 1 becomes 2 and beats the target's 1.
  EXPECT_EQ(run("crystal_die.duel(" + red_attack + ", " + target + ", " + own +
                ", colour_bonus_on_duel_rolls: true, colour_bonus_effect: \"add_one\").won",
                {1}),
            "true");
  EXPECT_EQ(run("crystal_die.duel(" + red_attack + ", " + target + ", " + own + ", colour_bonus_on_duel_rolls: true).won",
                {1}),
            "false");
}

const std::string two_life =
    "{field: [{type: \"life\", colour: \"red\", face: 1}, {type: \"attack\", colour: \"red\", face: 5}, "
    "{type: \"life\", colour: \"red\", face: 2}]}";

TEST(CrystalDieParameters, LifeRetakeFollowsTheArticleOrTheOriginalRule) {
  // R20: the first Life die is re-rolled (6) and put back on the field.
  EXPECT_EQ(run("crystal_die.regroup(" + two_life + ", 0)", {6}),
            "{player: {field: [{type: \"attack\", colour: \"red\", shape: none, special: false, face: 5}, "
            "{type: \"life\", colour: \"red\", shape: none, special: false, face: 2}, "
            "{type: \"life\", colour: \"red\", shape: none, special: false, face: 6}], reserve: [], imprisoned: [], "
            "abyss: []}, retaken: {type: \"life\", colour: \"red\", shape: none, special: false, face: 6}}");
  // R21: it goes to hand instead.
  EXPECT_EQ(run("crystal_die.regroup(" + two_life + ", 1, life_retake: \"original\").player.reserve"),
            "[{type: \"life\", colour: \"red\", shape: none, special: false, face: none}]");
  // none: no die is retaken; asking for one is refused, not ignored.
  EXPECT_EQ(run("crystal_die.regroup(" + two_life + ", none, life_retake: \"none\").retaken"), "none");
  EXPECT_NE(run("crystal_die.regroup(" + two_life + ", 1, life_retake: \"none\").retaken")
                .find("with life_retake=none no Life die is retaken, so a retake would change nothing [Refused]"),
            std::string::npos);
  // Only from several Life dice (R20).
  EXPECT_NE(run("crystal_die.regroup({field: [{type: \"life\", colour: \"red\", face: 1}]}, 0)")
                .find("a Life die is retaken only from several"),
            std::string::npos);
}

TEST(CrystalDieParameters, MaxRoundsEndsALongGameInADraw) {
  // P1 deals 1 a battle (2 - 1) to P2's Life 6; P2 deals nothing: six battles.
  const std::string call =
      "crystal_die.skirmish([{type: \"attack\", colour: \"red\"}, {type: \"life\", colour: \"red\"}], "
      "[{type: \"defence\", colour: \"blue\"}, {type: \"life\", colour: \"blue\"}]";
  EXPECT_EQ(field(call + ")", "rounds", {2, 3, 1, 6}), "6");
  EXPECT_EQ(field(call + ")", "winner", {2, 3, 1, 6}), "p1");
  EXPECT_EQ(field(call + ", max_rounds: 3)", "winner", {2, 3, 1, 6}), "draw");
  EXPECT_EQ(field(call + ", max_rounds: 3)", "rounds", {2, 3, 1, 6}), "3");
  // A17: nobody can hurt anybody: a draw after one battle.
  EXPECT_EQ(field(call + ")", "winner", {1, 3, 1, 6}), "draw");
  EXPECT_EQ(field(call + ")", "rounds", {1, 3, 1, 6}), "1");
}

TEST(CrystalDieParameters, ColourRelationsCanBeReplaced) {
  EXPECT_EQ(run("crystal_die.colour_relation(\"red\", \"orange\")"), "ally");
  // Another wheel (red, yellow, orange, green, blue, purple): red and orange two apart, enemies.
  const std::string wheel =
      "{red: {orange: \"enemy\", yellow: \"ally\", green: \"neutral\", blue: \"enemy\", purple: \"ally\", black: \"neutral\", white: \"neutral\"}, orange: {red: \"enemy\", yellow: \"ally\", green: \"ally\", blue: \"enemy\", purple: \"neutral\", black: \"neutral\", white: \"neutral\"}, yellow: {red: \"ally\", orange: \"ally\", green: \"enemy\", blue: \"neutral\", purple: \"enemy\", black: \"neutral\", white: \"neutral\"}, green: {red: \"neutral\", orange: \"ally\", yellow: \"enemy\", blue: \"ally\", purple: \"enemy\", black: \"neutral\", white: \"neutral\"}, blue: {red: \"enemy\", orange: \"enemy\", yellow: \"neutral\", green: \"ally\", purple: \"ally\", black: \"neutral\", white: \"neutral\"}, purple: {red: \"ally\", orange: \"neutral\", yellow: \"enemy\", green: \"enemy\", blue: \"ally\", black: \"neutral\", white: \"neutral\"}, black: {red: \"neutral\", orange: \"neutral\", yellow: \"neutral\", green: \"neutral\", blue: \"neutral\", purple: \"neutral\", white: \"enemy\"}, white: {red: \"neutral\", orange: \"neutral\", yellow: \"neutral\", green: \"neutral\", blue: \"neutral\", purple: \"neutral\", black: \"enemy\"}}";
  EXPECT_EQ(run("crystal_die.colour_relation(\"red\", \"orange\", colour_relations: " + wheel + ")"), "enemy");
  // A table the rules do not allow is refused at the argument (R3, A3).
  const auto refused = [](const std::string& table) {
    const std::string out = run("crystal_die.colour_relation(\"red\", \"orange\", colour_relations: " + table + ")");
    const auto at = out.find("colour_relations breaks the colour rules (R3, A3): ");
    return at == std::string::npos ? out : out.substr(at + 51, out.find(" [Refused]") - at - 51);
  };
  EXPECT_EQ(refused("{red: {orange: \"enemy\"}}"), "it has no entry for red to yellow");
  EXPECT_EQ(refused("{red: {orange: \"enemy\"}, orange: {red: \"ally\"}}"),
            "it is not the same both ways: red to orange is enemy, orange to red is ally");
  EXPECT_EQ(refused("{black: {white: \"ally\"}}"), "black and white are always enemies, not ally");
  std::string bad = wheel;
  const std::string entry = "red: {orange: \"enemy\"";
  bad.replace(bad.find(entry), entry.size(), "red: {orange: \"foe\"");
  EXPECT_EQ(refused(bad), "red to orange is foe; an entry is ally, enemy or neutral");
  // A die of the same colour counts as allied (the source does not say).
  EXPECT_EQ(run("crystal_die.colour_relation(\"red\", \"red\")"), "ally");
}

TEST(CrystalDieSets, FollowTheDraftRules) {
  auto problems = [](const std::string& dice, const std::string& extra = "") {
    return field("crystal_die.set_check(" + dice + extra + ")", "problems");
  };
  EXPECT_EQ(problems("[{type: \"attack\", colour: \"red\", shape: \"barrier\"}, {type: \"defence\", colour: \"red\"}, "
                     "{type: \"life\", colour: \"red\"}]",
                     ", set_size: 3"),
            "[\"a barrier is a defence die, not attack\"]");
  EXPECT_EQ(problems("[{type: \"attack\", colour: \"red\", special: true}, {type: \"defence\", colour: \"red\", special: true}, "
                     "{type: \"life\", colour: \"red\"}]",
                     ", set_size: 3"),
            "[\"a second special red die\"]");
  EXPECT_EQ(problems("[{type: \"attack\", colour: \"red\", shape: \"destroyer\"}, {type: \"attack\", colour: \"red\", "
                     "shape: \"destroyer\"}, {type: \"defence\", colour: \"red\"}, {type: \"life\", colour: \"red\"}]",
                     ", set_size: 4"),
            "[\"a second red destroyer\"]");
  // R8: the first two dice are of the card's colours (card 1: red and orange).
  EXPECT_EQ(problems("[{type: \"attack\", colour: \"red\"}, {type: \"defence\", colour: \"blue\"}, {type: \"life\", colour: \"red\"}]",
                     ", card: 1, set_size: 3"),
            "[\"a first pick in blue, not a colour of card 1\"]");
  EXPECT_EQ(problems("[{type: \"attack\", colour: \"red\"}, {type: \"defence\", colour: \"orange\"}, {type: \"life\", colour: \"blue\"}]",
                     ", card: 1, set_size: 3"),
            "[]");
}

TEST(CrystalDieCards, AreDealtOneEachFromTheFour) {
  EXPECT_EQ(run("crystal_die.deal_cards()", {2, 3}),
            "{p1_card: 2, p2_card: 4, p1_colours: [\"yellow\", \"green\"], p2_colours: [\"black\", \"white\"]}");
  // The second player draws from the three cards left.
  for (int a = 1; a <= 4; ++a) {
    for (int b = 1; b <= 3; ++b) {
      EXPECT_NE(field("crystal_die.deal_cards()", "p1_card", {a, b}), field("crystal_die.deal_cards()", "p2_card", {a, b}));
    }
  }
}

// ---- bad die descriptions -------------------------------------------------------------

TEST(CrystalDieErrors, AnUnknownColourOrTypeIsShownWhereItIsWritten) {
  EXPECT_EQ(run("crystal_die.deploy([{type: \"attack\", colour: \"purpel\"}])"),
            "<input>:1:46: error: the argument 'roll[0].colour' must be one of red, orange, yellow, green, blue, purple, "
            "black, white, got \"purpel\" [ArgumentOutOfRange]\n"
            " 1 | crystal_die.deploy([{type: \"attack\", colour: \"purpel\"}])\n"
            "   |                                              ^~~~~~~~\n"
            "note: did you mean 'purple'?\n");
  EXPECT_EQ(run("crystal_die.skirmish([{type: \"life\", colour: \"red\"}], [{type: \"atack\", colour: \"blue\"}])"),
            "<input>:1:63: error: the argument 'p2[0].type' must be one of attack, defence, life, got \"atack\" "
            "[ArgumentOutOfRange]\n"
            " 1 | crystal_die.skirmish([{type: \"life\", colour: \"red\"}], [{type: \"atack\", colour: \"blue\"}])\n"
            "   |                                                               ^~~~~~~\n"
            "note: did you mean 'attack'?\n");
  EXPECT_EQ(run("crystal_die.battle({field: [{type: \"life\", colour: \"red\", face: 9}]}, {})"),
            "<input>:1:65: error: the argument 'p1.field[0].face' must be a face of a d6, 1 to 6; got 9 [ArgumentOutOfRange]\n"
            " 1 | crystal_die.battle({field: [{type: \"life\", colour: \"red\", face: 9}]}, {})\n"
            "   |                                                                 ^\n");
  EXPECT_EQ(run("crystal_die.deploy([{type: \"life\", color: \"red\"}])"),
            "<input>:1:21: error: the argument 'roll[0]' is a die, which has no field 'color' [UnknownField]\n"
            " 1 | crystal_die.deploy([{type: \"life\", color: \"red\"}])\n"
            "   |                     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
            "note: did you mean 'colour'?\n"
            "note: the fields of a die: type, colour, shape, special, face\n");
  EXPECT_EQ(run("crystal_die.deploy([{colour: \"red\"}])"),
            "<input>:1:21: error: the argument 'roll[0]' is a die, which needs the field 'type' [MissingArgument]\n"
            " 1 | crystal_die.deploy([{colour: \"red\"}])\n"
            "   |                     ^~~~~~~~~~~~~~~\n"
            "note: type: its ability type (тип способности), which is its zone on the field (R1, R2, R9)\n");
}

// ---- what the breakdown and the JSON show ------------------------------------------------

TEST(CrystalDieTrace, ShowsEveryDieWithItsTypeAndColour) {
  ScriptedDice dice({5, 4, 1});
  const Outcome o = engine().roll(
      "crystal_die.deploy([{type: \"attack\", colour: \"red\", shape: \"destroyer\"}, {type: \"life\", colour: "
      "\"orange\"}, {type: \"defence\", colour: \"white\", special: true}])",
      dice);
  ASSERT_TRUE(o.ok()) << render_text(*o.error);
  const std::string text = render_breakdown(o);
  EXPECT_NE(text.find("\n  roll: 5(attack red destroyer) 4(life orange) 1(defence white special)"), std::string::npos)
      << text;
  const auto doc = nlohmann::json::parse(render_json(o, "deploy", std::nullopt));
  ASSERT_EQ(doc["dice"].size(), 3u);
  EXPECT_EQ(doc["dice"][0]["tags"],
            nlohmann::json({{"type", "attack"}, {"colour", "red"}, {"shape", "destroyer"}, {"special", false}}));
  EXPECT_EQ(doc["dice"][2]["tags"]["special"], true);
  EXPECT_EQ(doc["value"]["player"]["field"][0]["face"], 5);
  // The white special 1 has red, neutral to white, beside it: its bonus triggers (R5, R10).
  ASSERT_EQ(doc["value"]["bonuses"].size(), 1u);
  EXPECT_EQ(doc["value"]["bonuses"][0]["colour"], "white");
}

// ---- exact odds against an enumeration written here -------------------------------------

struct Army {
  std::vector<char> dice;  // 'a' attack, 'd' defence, 'l' life
};

// The winner of a skirmish, by the rules as the spec states them: both players roll every
// die; each battle deals max(0, A - D) to each side at once; with damage split highest first
// a side has no Life die left exactly when the damage so far reaches its Life total (A15);
// no damage either way, or max_rounds (100) battles, is a draw (A17).
std::string winner(const std::vector<int>& f1, const Army& a1, const std::vector<int>& f2, const Army& a2, int& rounds) {
  auto sum = [](const std::vector<int>& f, const Army& a, char t) {
    int s = 0;
    for (std::size_t i = 0; i < f.size(); ++i) s += a.dice[i] == t ? f[i] : 0;
    return s;
  };
  const int to2 = std::max(0, sum(f1, a1, 'a') - sum(f2, a2, 'd'));
  const int to1 = std::max(0, sum(f2, a2, 'a') - sum(f1, a1, 'd'));
  const int life1 = sum(f1, a1, 'l'), life2 = sum(f2, a2, 'l');
  for (rounds = 1;; ++rounds) {
    const bool dead1 = rounds * to1 >= life1, dead2 = rounds * to2 >= life2;
    if (dead1 && dead2) return "draw";
    if (dead2) return "p1";
    if (dead1) return "p2";
    if ((to1 == 0 && to2 == 0) || rounds == 100) return "draw";
  }
}

std::string fraction(std::int64_t num, std::int64_t den) {
  if (num == 0) return "0";
  const std::int64_t g = std::gcd(num, den);
  return fmt::format("{}/{}", num / g, den / g);
}

struct SkirmishCase {
  std::string id;
  Army a1, a2;
  std::uint64_t outcomes;  // what exact enumeration visits: every order of the dice (the skirmish reads it)
};

std::string army_text(const Army& a, const std::string& colour) {
  std::vector<std::string> dice;
  for (char t : a.dice) {
    dice.push_back(fmt::format("{{type: \"{}\", colour: \"{}\"}}", t == 'a' ? "attack" : t == 'd' ? "defence" : "life",
                               colour));
  }
  return fmt::format("[{}]", fmt::join(dice, ", "));
}

class CrystalDieStats : public ::testing::TestWithParam<SkirmishCase> {};

TEST_P(CrystalDieStats, SkirmishOddsAreExactAndMatchAnIndependentEnumeration) {
  const SkirmishCase& c = GetParam();
  const Compiled prog = engine().compile(
      fmt::format("crystal_die.skirmish({}, {})", army_text(c.a1, "red"), army_text(c.a2, "blue")));
  ASSERT_TRUE(prog.ok()) << render_text(prog.diagnostics);
  // Enumerated (a run per sequence of faces) and composed (roll_each draw by draw).
  StatsOptions enumerate;
  enumerate.compose = false;
  const Stats s = compute_stats(engine(), prog.program, {}, testing::exact_pinned(enumerate));
  ASSERT_EQ(s.method, StatsMethod::Exact) << (s.first_error ? s.first_error->message : s.reason);
  EXPECT_EQ(s.runs, c.outcomes);
  EXPECT_EQ(s.unresolved.exact(), "0/1");
  const Stats composed = compute_stats(engine(), prog.program, {}, testing::exact_pinned());
  ASSERT_EQ(composed.method, StatsMethod::Exact) << (composed.first_error ? composed.first_error->message : composed.reason);
  EXPECT_EQ(composed.exact_method, "composed");

  // Every sequence of faces, one by one.
  const std::size_t n1 = c.a1.dice.size(), n = n1 + c.a2.dice.size();
  std::int64_t total = 1;
  for (std::size_t i = 0; i < n; ++i) total *= 6;
  std::map<std::string, std::int64_t> wins;
  std::map<int, std::int64_t> by_rounds;
  for (std::int64_t code = 0; code < total; ++code) {
    std::int64_t rest = code;
    std::vector<int> f(n);
    for (auto& x : f) {
      x = static_cast<int>(rest % 6) + 1;
      rest /= 6;
    }
    int rounds = 0;
    const std::vector<int> f1(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(n1));
    const std::vector<int> f2(f.begin() + static_cast<std::ptrdiff_t>(n1), f.end());
    ++wins[winner(f1, c.a1, f2, c.a2, rounds)];
    ++by_rounds[rounds];
  }
  auto probability = [&](const Stats& stats, const std::string& name, const Value& v) {
    for (const auto& d : stats.fields) {
      if (d.name != name) continue;
      for (const auto& e : d.entries) {
        if (e.value == v) return e.probability.exact();
      }
      return std::string("0");
    }
    return std::string("no field");
  };
  for (const Stats* answer : {&s, &composed}) {
    for (const std::string w : {"p1", "p2", "draw"}) {
      EXPECT_EQ(probability(*answer, "winner", Value(w)), fraction(wins[w], total))
          << c.id << ", " << answer->exact_method << ": " << w;
    }
    for (const auto& [r, count] : by_rounds) {
      EXPECT_EQ(probability(*answer, "rounds", Value(r)), fraction(count, total))
          << c.id << ", " << answer->exact_method << ": " << r << " rounds";
    }
  }
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(CrystalDie, CrystalDieStats, ::testing::Values(
    // Attack and Life each: every winner occurs, games of up to 6 battles.
    SkirmishCase{"duel_of_pairs", Army{{'a', 'l'}}, Army{{'a', 'l'}}, 6 * 6 * 6 * 6},
    // Two alike Attack dice are one draw of two, but the skirmish reads its dice by
    // position, so the enumeration runs their 36 orders, not their 21 multisets.
    SkirmishCase{"alike_attackers", Army{{'a', 'a', 'l'}}, Army{{'l'}}, 6 * 6 * 6 * 6}),
    [](const ::testing::TestParamInfo<SkirmishCase>& i) { return i.param.id; });
// clang-format on

}  // namespace crystal_die_rules_test
}  // namespace alea
