// tests/interpreter/semantics_test.cpp — breakdowns, traces, error notes and
// limits. Each semantic decision of docs/language.md, as expression, scripted
// dice and value or error, is a case of the conformance corpus (tests/conformance/).
#include <gtest/gtest.h>

#include "tests/support/roll.hpp"

namespace alea::testing {
namespace semantics_test {

TEST(Breakdown, ShowsEachRollInPlace) {
  EXPECT_EQ(breakdown("4d6kh3 + 2", {4, 4, 6, 3}), "4d6kh3 + 2 → [4 4 6 ~3~] + 2 = 16");
  EXPECT_EQ(breakdown("2d20kh1 + d4", {3, 17, 2}), "2d20kh1 + d4 → [~3~ 17] + [2] = 19");
}

TEST(Breakdown, MarksOnlyWhatTheLastCountCounted) {
  EXPECT_EQ(breakdown("4d6 under 4 count >=3", {6, 4, 1, 3}), "4d6 under 4 count >=3 → ~6~ 4* 1 3* = 2");
}

TEST(Breakdown, ShowsADroppedExplosionDie) {
  EXPECT_EQ(breakdown("3d6!kh1", {6, 5, 1, 4}), "3d6!kh1 → 6! ~5~ ~1~ ~+4~ = 6");
}

TEST(Breakdown, ShowsTheTierReachedInsideLet) {
  EXPECT_EQ(breakdown("let stat = 1 in 2d6 + stat tiers { <=6: miss, else: hit }", {4, 5}),
            "let stat = 1 in 2d6 + stat tiers { <=6: miss, else: hit } → let stat = 1 in [4 5] + stat tiers { "
            "<=6: miss, else: hit } = 10 → hit");
}

TEST(Breakdown, ShowsAnEmptyRoll) { EXPECT_EQ(breakdown("0d6", {}), "0d6 → [] = 0"); }

TEST(Errors, SuggestANameInScopeForATypo) {
  const Outcome o = roll("let strength = 3 in strenght + 1", {});
  ASSERT_FALSE(o.ok());
  ASSERT_EQ(o.error->notes.size(), 1u);
  EXPECT_EQ(o.error->notes[0].message, "did you mean 'strength'?");
}

// The names a `vs` gives its two results cannot be written, so no typo is one of them.
TEST(Errors, NeverSuggestTheHiddenNamesOfVs) {
  const Outcome o = roll("fn f(a, b, c) = c; d20 vs d20 by f(firs)", {3, 4});
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->message, "unknown name 'firs'");
  EXPECT_TRUE(o.error->notes.empty()) << o.error->notes[0].message;
  const Outcome local = roll("fn f(a, b, c) = c; let first = 1 in d20 vs d20 by f(firts)", {3, 4});
  ASSERT_FALSE(local.ok());
  ASSERT_EQ(local.error->notes.size(), 1u);
  EXPECT_EQ(local.error->notes[0].message, "did you mean 'first'?");
}

TEST(Limits, RerollingForeverEndsAtTheRerollLimit) {
  ExtremeDice lowest(ExtremeDice::End::Min);  // every reroll shows 1 again
  const Outcome o = Engine().roll("2d6 reroll <=5", lowest);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::RerollLimitExceeded);
  EXPECT_EQ(o.error->message, "a die was rerolled 100 times in a row (max_rerolls)");
}

TEST(Limits, HugeDiceDoNotMakeChecksSlow) {
  // Each of these once took seconds: the checks visited every face of every die.
  EngineOptions o;
  for (std::string_view src : {"5000d1000000 explode <=999999", "5000d1000000 reroll <=999999 once"}) {
    Engine engine(o);
    RandomDice dice(1);
    const Outcome out = engine.roll(src, dice);
    EXPECT_TRUE(out.ok() || out.error->code == DiagCode::DiceLimitExceeded) << src;
  }
}

TEST(Breakdown, ShowsRerollsAndTheirReplacements) {
  EXPECT_EQ(breakdown("2d6r", {1, 4, 1, 3}), "2d6r → ~1~→~1~→3 4 = 7");
}

TEST(Breakdown, ShowsTheTierReached) {
  EXPECT_EQ(breakdown("2d6 + 1 tiers { <=6: miss, 7..9: partial, >=10: hit }", {3, 5}),
            "2d6 + 1 tiers { <=6: miss, 7..9: partial, >=10: hit } → [3 5] + 1 tiers { <=6: miss, 7..9: "
            "partial, >=10: hit } = 9 → partial");
}

TEST(Breakdown, SaysWhichDieCancelledWhich) {
  EXPECT_EQ(breakdown("let r = 1d6 in 3d6 cancel r<=", {4, 4, 5, 5}),
            "let r = 1d6 in 3d6 cancel r<= → let r = [4] in [~4~ 5 5] = 10\n  4 cancelled 4");
}

TEST(Breakdown, ListsRollsInsideFunctionsOnSeparateLines) {
  EXPECT_EQ(breakdown("fn attack(n) = n d6\nattack(2) + attack(1)", {1, 2, 3}),
            "attack(2) + attack(1) = 6\n  n d6: 1 2\n  n d6: 3");
}

TEST(Trace, RecordsWhichOperationChangedEachDie) {
  const Outcome o = roll("4d6kh3", {4, 4, 6, 3});
  ASSERT_TRUE(o.ok());
  ASSERT_EQ(o.trace.dice.size(), 4u);
  EXPECT_EQ(o.trace.dice[3].fate, DieFate::Dropped);
  EXPECT_EQ(o.trace.dice[3].fate_by.file->slice(o.trace.dice[3].fate_by), "kh3");
  EXPECT_EQ(o.trace.dice[0].fate, DieFate::Kept);
}

TEST(Trace, LinksExplosionDiceToTheDieThatExploded) {
  const Outcome o = roll("2d6!", {6, 2, 6, 1});
  ASSERT_TRUE(o.ok());
  ASSERT_EQ(o.trace.dice.size(), 4u);
  EXPECT_EQ(o.trace.dice[2].parent, 0);
  EXPECT_EQ(o.trace.dice[3].parent, 2);
  EXPECT_EQ(o.trace.dice[3].origin, DieOrigin::Exploded);
  EXPECT_TRUE(o.trace.dice[2].marks & MarkExploded);
}

}  // namespace semantics_test
}  // namespace alea::testing
