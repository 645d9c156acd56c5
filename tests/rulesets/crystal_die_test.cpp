// tests/rulesets/crystal_die_test.cpp — every test vector of specs/crystal-die.md
// (sections 3.1-3.5: C1-C8, B1-B5, O1-O5, U1-U4, F1-F11) through the shipped ruleset
// with scripted dice. The parameters that stand for what the source leaves out, bad die
// descriptions and the exact odds are in crystal_die_rules_test.cpp.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/api.hpp"
#include "tests/support/shipped.hpp"

namespace alea {
namespace {

const Engine& engine() {
  static const Engine e = testing::engine_with_ruleset("crystal-die");
  return e;
}

// A die as the language writes it: {type: "attack", colour: "red", face: 5}.
std::string die(const std::string& type, const std::string& colour, int face = 0, bool special = false,
                const std::string& shape = "") {
  std::string s = fmt::format("{{type: \"{}\", colour: \"{}\"", type, colour);
  if (!shape.empty()) s += fmt::format(", shape: \"{}\"", shape);
  if (special) s += ", special: true";
  if (face > 0) s += fmt::format(", face: {}", face);
  return s + "}";
}

std::string list(const std::vector<std::string>& items) { return fmt::format("[{}]", fmt::join(items, ", ")); }

// A call, the faces it rolls (all of them must be used), and the fields expected in its
// result as the language displays them ("" names the whole value).
struct Vector {
  std::string id;
  std::string call;
  std::vector<std::int64_t> faces;
  std::vector<std::pair<std::string, std::string>> expect;
};

// The value at a dotted path ("p1.imprisoned"), displayed; a string without its quotes.
std::string shown(const Value& v, const std::string& path) {
  const Value* at = &v;
  for (std::size_t from = 0; !path.empty() && from <= path.size();) {
    const auto dot = std::min(path.find('.', from), path.size());
    at = at->field(path.substr(from, dot - from));
    if (!at) throw std::runtime_error(fmt::format("no field '{}' in {}", path, to_display(v)));
    from = dot + 1;
  }
  return at->as_str() ? *at->as_str() : to_display(*at);
}

Outcome roll(const std::string& call, std::vector<std::int64_t> faces, std::size_t* used = nullptr) {
  ScriptedDice dice(std::move(faces));
  Outcome o = engine().roll(call, dice);
  if (used) *used = dice.used();
  return o;
}

class CrystalDieVector : public ::testing::TestWithParam<Vector> {};

TEST_P(CrystalDieVector, GivesTheSpecifiedResult) {
  const Vector& v = GetParam();
  std::size_t used = 0;
  const Outcome o = roll(v.call, v.faces, &used);
  ASSERT_TRUE(o.ok()) << v.call << ": " << render_text(*o.error);
  for (const auto& [field, want] : v.expect) {
    EXPECT_EQ(shown(*o.value, field), want) << v.id << ": " << v.call << " (field '" << field << "')";
  }
  // Exactly the scripted dice are rolled: no roll where the rules need none.
  EXPECT_EQ(used, v.faces.size()) << v.id << ": " << v.call;
}

// A full legal set: three dice of each type, with shapes.
const std::string set_9 = list({die("attack", "red", 0, false, "destroyer"), die("attack", "red", 0, false, "stormtrooper"),
                                die("attack", "orange", 0, false, "ballistic"), die("defence", "red", 0, false, "nullifier"),
                                die("defence", "orange", 0, false, "barrier"), die("defence", "blue", 0, false, "energizer"),
                                die("life", "red", 0, false, "systems_man"), die("life", "orange", 0, false, "fortress"),
                                die("life", "white", 0, true)});
const std::string no_life = list({die("attack", "red"), die("attack", "red"), die("attack", "red"), die("attack", "red"),
                                  die("attack", "red"), die("defence", "red"), die("defence", "red"), die("defence", "red"),
                                  die("defence", "red")});
const std::string set_8 = list({die("attack", "red"), die("attack", "red"), die("attack", "red"), die("defence", "red"),
                                die("defence", "red"), die("defence", "red"), die("life", "red"), die("life", "red")});

std::string bonus(const std::string& d, const std::vector<std::string>& others) {
  return fmt::format("crystal_die.bonus_check({}, {})", d, list(others));
}
std::string duel(bool special, int target) {
  return fmt::format("crystal_die.duel({}, {})", die("attack", "red", 0, special), die("life", "blue", target));
}
std::string split(const std::string& life, int damage) {
  return fmt::format("crystal_die.split_damage({}, {})", life, damage);
}

// The attack of O5: P1 commits x against P2's Life die t; P2 answers with y against x;
// P1 commits a second die against its own Attack die; P2 answers against that target.
const std::string o5_p1 = fmt::format("{{field: {}, reserve: {}}}", list({die("life", "red", 3), die("attack", "red", 2)}),
                                      list({die("attack", "red"), die("defence", "red")}));
const std::string o5_p2 = fmt::format("{{field: {}, reserve: {}}}", list({die("life", "blue", 4)}),
                                      list({die("attack", "blue"), die("life", "blue")}));
std::string o5(const std::string& moves) {
  return fmt::format("crystal_die.reserve_attack({}, {}, \"p1\", {})", o5_p1, o5_p2, moves);
}
const std::string o5_moves = "[{die: 0, side: \"opponent\", index: 0}, {die: 0, answer: \"duel\"}, "
                             "{die: 1, side: \"own\", index: 1}, {die: 1, answer: \"target\"}]";

// clang-format off
const std::vector<Vector> vectors = {
  // ---- 3.1 components and set-up ------------------------------------------------------------
  {"C1", "crystal_die.dice_total()", {}, {{"shapes", "9"}, {"colours", "8"}, {"ordinary", "72"},
                                          {"special", "8"}, {"total", "80"}}},
  {"C2", "crystal_die.set_check(" + set_9 + ")", {}, {{"valid", "true"}, {"size", "9"}, {"attack", "3"},
                                                      {"defence", "3"}, {"life", "3"}, {"problems", "[]"}}},
  {"C3", "crystal_die.set_check(" + no_life + ")", {}, {{"valid", "false"}, {"attack", "5"}, {"defence", "4"},
                                                        {"life", "0"}, {"problems", "[\"no Life die\"]"}}},
  {"C4", "crystal_die.set_check(" + set_8 + ")", {}, {{"valid", "false"}, {"size", "8"},
                                                      {"problems", "[\"a set has 9 dice, not 8\"]"}}},
  {"C5", "crystal_die.colour_relation(\"black\", \"white\")", {}, {{"", "enemy"}}},
  {"C5_reversed", "crystal_die.colour_relation(\"white\", \"black\")", {}, {{"", "enemy"}}},
  // C6 and C7 over every colour: CrystalDieColours below.
  {"C8", "crystal_die.cards_check()", {}, {{"cards", "4"}, {"covers_all", "true"}, {"each_once", "true"}}},

  // ---- 3.2 colour bonus trigger (A4, A5) -------------------------------------------------
  // B1: red shows 1, an orange die (red's ally on the wheel) is on its player's field.
  {"B1", bonus(die("attack", "red", 1), {die("life", "orange", 4)}), {}, {{"", "true"}}},
  // B2: the player's other dice are yellow and blue, red's enemies.
  {"B2", bonus(die("attack", "red", 1), {die("life", "yellow", 4), die("defence", "blue", 2)}), {}, {{"", "false"}}},
  {"B3", bonus(die("attack", "red", 2), {die("life", "orange", 4)}), {}, {{"", "false"}}},
  // B4: a special die shows 2; green is neutral to red, and so is black.
  {"B4", bonus(die("attack", "red", 2, true), {die("life", "green", 4)}), {}, {{"", "true"}}},
  {"B4_black", bonus(die("attack", "red", 2, true), {die("life", "black", 6)}), {}, {{"", "true"}}},
  {"B4_special_1", bonus(die("attack", "red", 1, true), {die("life", "green", 4)}), {}, {{"", "true"}}},
  // A5: the die alone on the field has no ally to trigger it.
  {"B_alone", bonus(die("attack", "red", 1), {}), {}, {{"", "false"}}},
  // B5 on every face 3-6: CrystalDieBonus below.
  // R10: at deployment, the red 1 beside an orange die triggers; the 4 and the 3 do not.
  {"B1_deploy", "crystal_die.deploy(" + list({die("attack", "red"), die("life", "orange"), die("defence", "yellow")}) + ")",
   {1, 4, 3}, {{"attack", "1"}, {"defence", "3"}, {"life", "[4]"},
               {"bonuses", "[{type: \"attack\", colour: \"red\", shape: none, special: false, face: 1}]"}}},

  // ---- 3.3 turn order ---------------------------------------------------------------------
  {"O1", "crystal_die.start(0, 0)", {}, {{"next", "battle"}, {"first", "nobody"}, {"drawn", "false"}}},
  {"O2", "crystal_die.start(3, 1)", {}, {{"next", "reserve_attack"}, {"first", "p1"}, {"drawn", "false"}}},
  {"O2_p2", "crystal_die.start(1, 3)", {}, {{"first", "p2"}}},
  {"O2_one_empty", "crystal_die.start(0, 2)", {}, {{"next", "reserve_attack"}, {"first", "p2"}}},
  // O3: a tie is drawn with a d2 (A10).
  {"O3_1", "crystal_die.start(2, 2)", {1}, {{"next", "reserve_attack"}, {"first", "p1"}, {"drawn", "true"}}},
  {"O3_2", "crystal_die.start(2, 2)", {2}, {{"first", "p2"}, {"drawn", "true"}}},
  {"O4", "crystal_die.after_attack(2, 1, passes: 2)", {}, {{"", "battle"}}},
  {"O4_one_pass", "crystal_die.after_attack(2, 1, passes: 1)", {}, {{"", "reserve_attack"}}},
  {"O4_empty", "crystal_die.after_attack(0, 0)", {}, {{"", "battle"}}},
  // O5: x rolls 3 against t (4), y 2 against x (3), P1's second die 1 against its own
  // Attack die (2), P2's second answer 1 against that target: every duel is lost, so x, y,
  // P1's second die and P2's second answer go to their owners' Imprisonment, t and the
  // other target stay, and initiative passes to P2.
  {"O5", o5(o5_moves), {3, 2, 1, 1},
   {{"p1.field", "[{type: \"life\", colour: \"red\", shape: none, special: false, face: 3}, "
                 "{type: \"attack\", colour: \"red\", shape: none, special: false, face: 2}]"},
    {"p1.reserve", "[]"},
    {"p1.imprisoned", "[{type: \"attack\", colour: \"red\", shape: none, special: false, face: 3}, "
                      "{type: \"defence\", colour: \"red\", shape: none, special: false, face: 1}]"},
    {"p1.abyss", "[]"},
    {"p2.field", "[{type: \"life\", colour: \"blue\", shape: none, special: false, face: 4}]"},
    {"p2.reserve", "[]"},
    {"p2.imprisoned", "[{type: \"attack\", colour: \"blue\", shape: none, special: false, face: 2}, "
                      "{type: \"life\", colour: \"blue\", shape: none, special: false, face: 1}]"},
    {"p2.abyss", "[]"}, {"passed", "false"}, {"next_first", "p2"}}},
  // O5 where the answers win: y (6) beats x (3), which goes to the Abyss instead of
  // Imprisonment (duel_effect abyss); P2's second answer (6) beats P1's own Attack die (2).
  {"O5_answers_win", o5(o5_moves), {3, 6, 1, 6},
   {{"p1.field", "[{type: \"life\", colour: \"red\", shape: none, special: false, face: 3}]"},
    {"p1.imprisoned", "[{type: \"defence\", colour: \"red\", shape: none, special: false, face: 1}]"},
    {"p1.abyss", "[{type: \"attack\", colour: \"red\", shape: none, special: false, face: 2}, "
                 "{type: \"attack\", colour: \"red\", shape: none, special: false, face: 3}]"},
    {"p2.field", "[{type: \"life\", colour: \"blue\", shape: none, special: false, face: 4}]"},
    {"p2.imprisoned", "[{type: \"attack\", colour: \"blue\", shape: none, special: false, face: 6}, "
                      "{type: \"life\", colour: \"blue\", shape: none, special: false, face: 6}]"},
    {"next_first", "p2"}}},
  // O5 without answers: x loses against t and goes to Imprisonment; t stays.
  {"O5_no_answer", o5("[{die: 0, side: \"opponent\", index: 0}, none, none]"), {2},
   {{"p1.reserve", "[{type: \"defence\", colour: \"red\", shape: none, special: false, face: none}]"},
    {"p1.imprisoned", "[{type: \"attack\", colour: \"red\", shape: none, special: false, face: 2}]"},
    {"p2.field", "[{type: \"life\", colour: \"blue\", shape: none, special: false, face: 4}]"},
    {"p2.reserve", "[{type: \"attack\", colour: \"blue\", shape: none, special: false, face: none}, "
                   "{type: \"life\", colour: \"blue\", shape: none, special: false, face: none}]"},
    {"next_first", "p2"}}},
  // A won duel sends its target to its owner's Abyss (duel_effect, A11).
  {"O5_target_falls", o5("[{die: 0, side: \"opponent\", index: 0}]"), {5},
   {{"p2.field", "[]"}, {"p2.abyss", "[{type: \"life\", colour: \"blue\", shape: none, special: false, face: 4}]"},
    {"p1.imprisoned", "[{type: \"attack\", colour: \"red\", shape: none, special: false, face: 5}]"}}},
  // O4: an initiator that passes commits nothing, and nothing moves.
  {"O4_pass", o5("[none]"), {}, {{"passed", "true"}, {"duels", "[]"}, {"next_first", "p2"},
                                 {"p1.imprisoned", "[]"}, {"p2.imprisoned", "[]"}}},

  // ---- 3.4 duel comparison (A11) -----------------------------------------------------------
  {"U1", duel(false, 4), {5}, {{"roll", "5"}, {"target_value", "4"}, {"won", "true"}, {"effect", "abyss"}}},
  {"U2", duel(false, 4), {4}, {{"won", "false"}, {"effect", "none"}}},
  {"U3", duel(true, 4), {4}, {{"won", "true"}}},
  {"U4", duel(true, 4), {3}, {{"won", "false"}}},

  // ---- 3.5 battle (R18, A14-A17) ----------------------------------------------------------
  {"F1", "crystal_die.battle_values({attack: [5, 4]}, {defence: [3], life: [4]})", {},
   {{"damage_to_p2", "6"}, {"life_p2", "[]"}, {"fell_p2", "1"}}},
  {"F2", "crystal_die.battle_values({defence: [6, 1]}, {attack: [2]})", {}, {{"damage_to_p1", "0"}}},
  {"F3", "crystal_die.battle_values({attack: [5, 4], defence: [6, 1], life: [3]}, {attack: [2], defence: [3], life: [4]})",
   {}, {{"damage_to_p1", "0"}, {"damage_to_p2", "6"}, {"life_p1", "[3]"}, {"life_p2", "[]"}, {"outcome", "p1_wins"}}},
  {"F4", "crystal_die.battle_values({attack: [6, 6], life: [2]}, {attack: [5], life: [3, 1]})", {},
   {{"damage_to_p1", "5"}, {"damage_to_p2", "12"}, {"life_p1", "[]"}, {"life_p2", "[]"}, {"outcome", "draw"}}},
  {"F5", split("[5, 3]", 4), {}, {{"life", "[2, 2]"}, {"abyss", "0"}}},
  {"F6", split("[5, 3]", 7), {}, {{"life", "[1]"}, {"abyss", "1"}}},
  {"F7", split("[5, 3]", 8), {}, {{"life", "[]"}, {"abyss", "2"}, {"lost", "0"}}},
  {"F7_20", split("[5, 3]", 20), {}, {{"life", "[]"}, {"abyss", "2"}, {"lost", "12"}}},
  {"F8", split("[2, 6, 3]", 5), {}, {{"life", "[2, 2, 2]"}}},
  {"F9", split("[6, 6]", 1), {}, {{"life", "[5, 6]"}}},
  // F1 with typed dice: the die that falls keeps its colour in the Abyss.
  {"F1_typed", fmt::format("crystal_die.battle({{field: {}}}, {{field: {}}})",
                           list({die("attack", "red", 5), die("attack", "orange", 4), die("life", "red", 3)}),
                           list({die("defence", "blue", 3), die("life", "blue", 4)})), {},
   {{"damage_to_p2", "6"}, {"damage_to_p1", "0"}, {"outcome", "p1_wins"}, {"p2.field", "[{type: \"defence\", colour: \"blue\", shape: none, special: false, face: 3}]"},
    {"fell_p2", "[{type: \"life\", colour: \"blue\", shape: none, special: false, face: 0}]"}}},
  // F10: dice in reserve, in Imprisonment or in the Abyss add nothing to the sums.
  {"F10", fmt::format("crystal_die.battle({{field: {}, reserve: {}, imprisoned: {}, abyss: {}}}, {{field: {}, reserve: {}}})",
                      list({die("attack", "red", 3), die("life", "red", 3)}), list({die("attack", "red")}),
                      list({die("attack", "red", 6)}), list({die("attack", "red", 6)}),
                      list({die("defence", "blue", 1), die("life", "blue", 5)}), list({die("defence", "blue")})), {},
   {{"damage_to_p2", "2"}, {"p2.field", "[{type: \"defence\", colour: \"blue\", shape: none, special: false, face: 1}, "
                                        "{type: \"life\", colour: \"blue\", shape: none, special: false, face: 3}]"},
    {"outcome", "continue"}}},
  // F11: both still have Life dice: the imprisoned dice go back to hand, without a value.
  {"F11", fmt::format("crystal_die.regroup({{field: {}, reserve: {}, imprisoned: {}}})",
                      list({die("life", "red", 2)}), list({die("defence", "red")}), list({die("attack", "red", 5)})), {},
   {{"player.reserve", "[{type: \"defence\", colour: \"red\", shape: none, special: false, face: none}, "
                       "{type: \"attack\", colour: \"red\", shape: none, special: false, face: none}]"},
    {"player.imprisoned", "[]"}, {"retaken", "none"}}},
  {"F11_after", "crystal_die.after_attack(1, 0)", {}, {{"", "reserve_attack"}}},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(CrystalDie, CrystalDieVector, ::testing::ValuesIn(vectors),
                         [](const ::testing::TestParamInfo<Vector>& i) { return i.param.id; });

TEST(CrystalDieVectors, CoverEveryVectorOfTheSpec) {
  std::vector<std::string> ids;
  for (const auto& v : vectors) ids.push_back(v.id.substr(0, v.id.find('_')));
  // C6, C7 and B5 are checked over every colour and face by the tests below.
  for (const char* want : {"C1", "C2", "C3", "C4", "C5", "C8", "B1", "B2", "B3", "B4", "O1", "O2", "O3", "O4", "O5",
                           "U1", "U2", "U3", "U4", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11"}) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), want), ids.end()) << want;
  }
}

const std::vector<std::string> chromatic = {"red", "orange", "yellow", "green", "blue", "purple"};

std::string relation(const std::string& a, const std::string& b) {
  const Outcome o = roll(fmt::format("crystal_die.colour_relation(\"{}\", \"{}\")", a, b), {});
  return o.ok() ? *o.value->as_str() : render_text(*o.error);
}

// C6: black and white are neutral to every chromatic colour, both ways.
TEST(CrystalDieColours, BlackAndWhiteAreNeutralToTheSixOthers) {
  for (const std::string bw : {"black", "white"}) {
    for (const auto& c : chromatic) {
      EXPECT_EQ(relation(bw, c), "neutral") << bw << "-" << c;
      EXPECT_EQ(relation(c, bw), "neutral") << c << "-" << bw;
    }
  }
}

// C7: among the other five chromatic colours, each has 2 allies, 2 enemies and 1 neutral;
// the placeholder is the wheel of A3 (neighbours ally, two apart enemy, opposite neutral),
// and the table is symmetric.
TEST(CrystalDieColours, EachChromaticColourHasTwoAlliesTwoEnemiesOneNeutral) {
  for (std::size_t i = 0; i < chromatic.size(); ++i) {
    int allies = 0, enemies = 0, neutral = 0;
    for (std::size_t j = 0; j < chromatic.size(); ++j) {
      if (i == j) continue;
      const std::string r = relation(chromatic[i], chromatic[j]);
      EXPECT_EQ(r, relation(chromatic[j], chromatic[i])) << chromatic[i] << "-" << chromatic[j];
      const std::size_t d = i > j ? i - j : j - i;
      const std::size_t steps = std::min(d, 6 - d);
      EXPECT_EQ(r, steps == 1 ? "ally" : steps == 2 ? "enemy" : "neutral") << chromatic[i] << "-" << chromatic[j];
      allies += r == "ally";
      enemies += r == "enemy";
      neutral += r == "neutral";
    }
    EXPECT_EQ(allies, 2) << chromatic[i];
    EXPECT_EQ(enemies, 2) << chromatic[i];
    EXPECT_EQ(neutral, 1) << chromatic[i];
  }
  const Outcome o = roll("crystal_die.colour_counts(\"green\")", {});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(to_display(*o.value), "{allies: [\"yellow\", \"blue\"], enemies: [\"orange\", \"purple\"], "
                                  "neutral: [\"red\", \"black\", \"white\"]}");
}

// B5: a die showing 3 to 6 never triggers its bonus, special or not, ally present or not.
TEST(CrystalDieBonus, NoFaceAboveTwoTriggers) {
  for (int face = 1; face <= 6; ++face) {
    for (const bool special : {false, true}) {
      const Outcome o = roll(bonus(die("attack", "red", face, special), {die("life", "orange", 4)}), {});
      ASSERT_TRUE(o.ok()) << render_text(*o.error);
      const bool triggers = face == 1 || (special && face == 2);
      EXPECT_EQ(*o.value->as_bool(), triggers) << "face " << face << (special ? " special" : "");
    }
  }
}

// O1: both players roll every die: the battle comes at once, and the whole game follows.
TEST(CrystalDieTurnOrder, AllDiceRolledMeansBattleAtOnce) {
  const std::string p1 = list({die("attack", "red"), die("life", "red")});
  const std::string p2 = list({die("defence", "blue"), die("life", "blue")});
  std::size_t used = 0;
  // P1 rolls 5, 3; P2 rolls 2, 2: 3 damage a battle against P2's 2 life, none back.
  const Outcome o = roll(fmt::format("crystal_die.skirmish({}, {})", p1, p2), {5, 3, 2, 2}, &used);
  ASSERT_TRUE(o.ok()) << render_text(*o.error);
  EXPECT_EQ(used, 4u);
  EXPECT_EQ(shown(*o.value, "winner"), "p1");
  EXPECT_EQ(shown(*o.value, "rounds"), "1");
  EXPECT_EQ(shown(*o.value, "damage_to_p2"), "3");
  EXPECT_EQ(shown(*o.value, "life_p1"), "[3]");
}

// O3: the draw for who starts is the seeded generator's: the same seed, the same player.
TEST(CrystalDieTurnOrder, TheTieDrawFollowsTheSeed) {
  std::vector<std::string> seen;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    const Outcome a = engine().roll("crystal_die.start(2, 2).first", seed);
    const Outcome b = engine().roll("crystal_die.start(2, 2).first", seed);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(to_display(*a.value), to_display(*b.value)) << seed;
    seen.push_back(*a.value->as_str());
  }
  // Both players start for some seed: it is a draw, not a fixed choice.
  EXPECT_NE(std::find(seen.begin(), seen.end(), "p1"), seen.end());
  EXPECT_NE(std::find(seen.begin(), seen.end(), "p2"), seen.end());
}

// F6, F7 the long way: every die of every small Life zone, every damage: highest first
// keeps the most dice; the total drops by the damage until nothing is left.
TEST(CrystalDieDamage, HighestFirstLowersTheTotalAndKeepsTheMostDice) {
  for (int a = 1; a <= 6; ++a) {
    for (int b = 1; b <= 6; ++b) {
      for (int dmg = 0; dmg <= 13; ++dmg) {
        const Outcome o = roll(split(fmt::format("[{}, {}]", a, b), dmg), {});
        ASSERT_TRUE(o.ok()) << render_text(*o.error);
        const auto& life = *o.value->field("life")->as_list();
        std::int64_t total = 0;
        for (const auto& v : life) total += *v.as_int();
        EXPECT_EQ(total, std::max(0, a + b - dmg)) << a << "," << b << " - " << dmg;
        // A die falls only when every die is down to 1 or less (A15).
        const int falls = dmg >= a + b ? 2 : (dmg > a + b - 2 ? 1 : 0);
        EXPECT_EQ(*o.value->field("abyss")->as_int(), falls) << a << "," << b << " - " << dmg;
        EXPECT_EQ(*o.value->field("lost")->as_int(), std::max(0, dmg - a - b));
      }
    }
  }
}

}  // namespace
}  // namespace alea
