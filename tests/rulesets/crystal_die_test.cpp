// tests/rulesets/crystal_die_test.cpp — specs/crystal-die.md: that the data file
// tests/rulesets/vectors/crystal-die.yaml (its test vectors, sections 3.1-3.5: C1-C8,
// B1-B5, O1-O5, U1-U4, F1-F11, run by vectors_test.cpp) covers every vector of the spec,
// and the vectors checked over every colour and face (C6, C7, B5) and the skirmishes,
// turn order and damage split with scripted dice. The parameters that stand for what the source leaves out, bad die
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
#include "tests/support/vectors.hpp"

namespace alea {
namespace crystal_die_test {

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

using testing::shown;

Outcome roll(const std::string& call, std::vector<std::int64_t> faces, std::size_t* used = nullptr) {
  ScriptedDice dice(std::move(faces));
  Outcome o = engine().roll(call, dice);
  if (used) *used = dice.used();
  return o;
}

std::string bonus(const std::string& d, const std::vector<std::string>& others) {
  return fmt::format("crystal_die.bonus_check({}, {})", d, list(others));
}
std::string split(const std::string& life, int damage) {
  return fmt::format("crystal_die.split_damage({}, {})", life, damage);
}

TEST(CrystalDieVectors, CoverEveryVectorOfTheSpec) {
  std::vector<std::string> ids;
  for (const auto& id : testing::vector_ids("crystal-die.yaml")) ids.push_back(id.substr(0, id.find('_')));
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

}  // namespace crystal_die_test
}  // namespace alea
