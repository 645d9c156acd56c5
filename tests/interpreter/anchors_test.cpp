// tests/interpreter/anchors_test.cpp — expressions from the public documentation
// of Roll20, Foundry, rpg-dice-roller and avrae's d20 give their documented
// results with the same dice.
#include <gtest/gtest.h>

#include "tests/support/roll.hpp"

namespace alea::testing {
namespace anchors_test {

TEST(Anchors, KeepHighestThreeOfFourDropsTheThree) {
  EXPECT_EQ(breakdown("4d6kh3", {4, 4, 6, 3}), "4d6kh3 → 4 4 6 ~3~ = 14");
}

TEST(Anchors, ExplodingSixAddsADie) {
  EXPECT_EQ(breakdown("3d6 explode 6", {6, 4, 1, 3}), "3d6 explode 6 → 6! 4 1 +3 = 14");
  EXPECT_EQ(breakdown("3d6!", {6, 4, 1, 3}), "3d6! → 6! 4 1 +3 = 14");
}

TEST(Anchors, SuccessCountingShorthandCountsDice) {
  // rpg-dice-roller: 5d10>=8 counts the dice showing 8 or more.
  EXPECT_EQ(breakdown("5d10>=8", {9, 2, 8, 10, 1}), "5d10>=8 → 9* 2 8* 10* 1 = 3");
}

TEST(Anchors, DropLowestShorthand) {
  // Roll20: 4d6d1 drops the lowest die.
  EXPECT_EQ(show(roll("4d6d1", {3, 5, 1, 6})), "14");
}

TEST(Anchors, RerollOnceBelowTwo) {
  // D&D great weapon fighting: 2d6ro<2 rerolls each 1 once and keeps the new face.
  EXPECT_EQ(breakdown("2d6ro<2", {1, 5, 1}), "2d6ro<2 → ~1~→1 5 = 6");
}

TEST(Anchors, CompoundingJoinsExplosionsIntoOneDie) {
  EXPECT_EQ(breakdown("3d6!!", {6, 3, 1, 6, 2}), "3d6!! → 6!+6!+2 3 1 = 18");
}

TEST(Anchors, PenetratingDiceLoseOnePerExtraRoll) {
  // HackMaster: each extra roll counts one less; 6, 6, 3 rolled count 6 + 5 + 2.
  EXPECT_EQ(breakdown("1d6!p", {6, 6, 3}), "1d6!p → 6! +5! +2 = 13");
}

}  // namespace anchors_test
}  // namespace alea::testing
