// tests/interpreter/semantics_test.cpp — each semantic decision of
// docs/language.md, as {expression, scripted dice, value or error}.
#include <gtest/gtest.h>

#include "tests/support/roll.hpp"

namespace alea::testing {
namespace {

struct Case {
  std::string_view expr;
  std::vector<std::int64_t> dice;
  std::string_view expected;  // to_display of the value, or "error: Code: message"
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.expr; }

class Semantics : public ::testing::TestWithParam<Case> {};

TEST_P(Semantics, GivesTheDocumentedResult) {
  const Case& c = GetParam();
  EXPECT_EQ(show(roll(c.expr, c.dice)), c.expected);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Dice, Semantics, ::testing::Values(
    Case{"d%", {100}, "100"},
    Case{"d%", {1}, "1"},
    Case{"d%", {0}, "error: ScriptedFaceInvalid: scripted die #1 is 0, which a d100 cannot show"},
    Case{"4dF", {-1, 0, 1, 1}, "1"},
    Case{"d{1,1,2,3,5,8}", {8}, "8"},
    Case{"d{1,1,2,3,5,8}", {4}, "error: ScriptedFaceInvalid: scripted die #1 is 4, which a d{1,1,2,3,5,8} cannot show"},
    Case{"(1d4)d6", {2, 6, 5}, "11"},
    Case{"let pool = 3 in pool d12", {1, 2, 3}, "6"},
    Case{"0d6", {}, "0"},
    Case{"3d6", {1, 2}, "error: ScriptedDiceExhausted: ran out of scripted dice: all 2 were used and a d6 is needed"}));

INSTANTIATE_TEST_SUITE_P(Explode, Semantics, ::testing::Values(
    // Explosion dice may explode again; they are drawn a round at a time.
    Case{"2d6!", {6, 6, 6, 2, 1}, "21"},
    // keep sees exploded dice as dice of their own.
    Case{"2d6!kh1", {6, 2, 5}, "6"},
    // compound joins them into the die that exploded: keep sees one die.
    Case{"2d6!!kh1", {6, 2, 5}, "11"},
    Case{"3d6 explode >=5", {5, 1, 1, 2}, "9"},
    Case{"1d6 explode 6 limit 2", {6, 6, 6}, "18"},
    Case{"1d6 explode 6 limit 0", {6}, "6"},
    Case{"1d1 explode 1 limit 3", {1, 1, 1, 1}, "4"},
    Case{"1d1 explode 1", {1}, "error: NeverStops: every face of a d1 explodes on =1, so this would never stop; write a limit, as in 'explode limit 3'"},
    Case{"2d6 explode >=1", {2, 3}, "error: NeverStops: every face of a d6 explodes on >=1, so this would never stop; write a limit, as in 'explode limit 3'"},
    // Penetrating dice count one less; the condition looks at the rolled face.
    Case{"1d6!p", {6, 6, 1}, "11"},
    // Left to right: explode then keep, or keep then explode.
    Case{"3d6!kh2", {6, 1, 2, 4}, "10"},
    Case{"3d6kh2!", {6, 1, 2, 4}, "12"},
    // Explode looks at the face a die shows now: raised to 6 by clamp, it explodes;
    // compounded past 6, it no longer shows a 6.
    Case{"2d6 clamp min 6 explode 6", {1, 6, 2, 3}, "17"},
    Case{"d6!! explode", {6, 4}, "10"}));

INSTANTIATE_TEST_SUITE_P(Reroll, Semantics, ::testing::Values(
    Case{"2d6r", {1, 4, 1, 3}, "7"},
    Case{"2d6 reroll <=2", {2, 5, 1, 6}, "11"},
    Case{"2d6ro<3", {1, 4, 2}, "6"},
    Case{"1d6 reroll <=6", {4}, "error: NeverStops: every face of a d6 is rerolled on <=6, so this would never stop; use 'reroll … once'"}));

INSTANTIATE_TEST_SUITE_P(KeepDrop, Semantics, ::testing::Values(
    Case{"4d6kh3", {4, 4, 6, 3}, "14"},
    Case{"4d6kl", {4, 4, 6, 3}, "3"},
    Case{"4d6dh1", {4, 4, 6, 3}, "11"},
    Case{"4d6d1", {4, 4, 6, 3}, "14"},
    Case{"2d6kh3", {4, 4}, "8"},
    Case{"5d6 keep >=4", {4, 1, 6, 3, 5}, "15"},
    Case{"5d6 drop <=2", {4, 1, 6, 2, 5}, "15"},
    Case{"3d6 keep highest (0-1)", {1, 2, 3}, "error: InvalidArgument: cannot keep or drop -1 dice"}));

INSTANTIATE_TEST_SUITE_P(Counting, Semantics, ::testing::Values(
    Case{"5d10>=8", {9, 2, 8, 10, 1}, "3"},
    Case{"5d10>8", {9, 2, 8, 10, 1}, "2"},
    Case{"5d10>=8f1", {9, 2, 8, 10, 1}, "2"},
    Case{"5d10cs>=8", {9, 2, 8, 10, 1}, "3"},
    Case{"5d10 count >=7 double 10", {10, 7, 1, 10, 3}, "5"},
    // Per-die comparison attached, total comparison spaced.
    Case{"3d6>=5", {5, 6, 1}, "2"},
    Case{"3d6 >= 5", {5, 6, 1}, "true"},
    Case{"3d6 under 4", {3, 5, 4}, "2"},
    Case{"3d6 under 4 + 0", {3, 5, 4}, "2"},
    Case{"sum(3d6 under 4)", {3, 5, 4}, "7"}));

INSTANTIATE_TEST_SUITE_P(Cancel, Semantics, ::testing::Values(
    // Each die of r, highest first, removes the highest die ≤ it.
    Case{"let w = 3d6 in let r = 1d6 in w cancel r<=", {4, 5, 5, 4}, "10"},
    Case{"let w = 3d6 in let r = 1d6 in w cancel r<=", {4, 5, 5, 5}, "9"},
    Case{"let w = 3d6 in let r = 1d6 in w cancel r<=", {4, 5, 5, 3}, "14"},
    Case{"let w = 3d6 in let r = 2d6 in w cancel r<=", {6, 4, 1, 6, 1}, "4"},
    Case{"let w = 2d6 in let r = 1d6 in w cancel r>=", {2, 5, 3}, "2"},
    Case{"let w = 2d6 in w cancel 3<=", {2, 5}, "error: TypeMismatch: 'cancel' needs a pool of dice to cancel with, got the number 3"}));

INSTANTIATE_TEST_SUITE_P(OtherPoolOps, Semantics, ::testing::Values(
    Case{"faces(4d6 sort)", {4, 1, 6, 3}, "[1, 3, 4, 6]"},
    Case{"faces(4d6sd)", {4, 1, 6, 3}, "[6, 4, 3, 1]"},
    Case{"faces(3d6u)", {2, 2, 5, 2, 3}, "[2, 3, 5]"},
    Case{"7d6u", {1, 2, 3, 4, 5, 6, 1}, "error: NeverStops: 7 dice cannot all differ: a d6 has only 6 different faces"},
    Case{"faces(4d6 clamp min 2 max 5)", {1, 6, 3, 2}, "[2, 5, 3, 2]"},
    Case{"4d6min3", {1, 6, 3, 2}, "15"},
    // unique rerolls the duplicate d2 although the d6s could not help it.
    Case{"faces(concat(3d6, 2d2) unique)", {3, 4, 5, 1, 1, 2}, "[3, 4, 5, 1, 2]"},
    Case{"2d1000000 unique", {5, 5, 7}, "12"},
    Case{"3 keep highest 1", {}, "error: TypeMismatch: 'keep' applies to a pool of dice, got the number 3"}));

INSTANTIATE_TEST_SUITE_P(Arithmetic, Semantics, ::testing::Values(
    Case{"1 + 2 * 3", {}, "7"},
    Case{"-7 / 2", {}, "-4"},
    Case{"7 / -2", {}, "-4"},
    Case{"-7 % 2", {}, "1"},
    Case{"7 % -2", {}, "-1"},
    Case{"trunc_div(-7, 2)", {}, "-3"},
    Case{"ceil_div(7, 2)", {}, "4"},
    Case{"round_div(7, 2)", {}, "4"},
    Case{"round_div(-7, 2)", {}, "-4"},
    Case{"round_div(5, 3)", {}, "2"},
    Case{"7 / 0", {}, "error: DivisionByZero: division by zero"},
    Case{"9223372036854775807 + 1", {}, "error: IntegerOverflow: integer overflow: the result does not fit in 64 bits"},
    Case{"-(0 - 9223372036854775807 - 1)", {}, "error: IntegerOverflow: integer overflow: the result does not fit in 64 bits"},
    Case{"3037000500 * 3037000500", {}, "error: IntegerOverflow: integer overflow: the result does not fit in 64 bits"},
    Case{"2d{9223372036854775807}", {9223372036854775807, 9223372036854775807}, "error: IntegerOverflow: integer overflow: the pool's total does not fit in 64 bits"},
    Case{"2d6 + 3", {3, 4}, "10"},
    Case{"3d6 == 10", {3, 3, 4}, "true"}));

INSTANTIATE_TEST_SUITE_P(Logic, Semantics, ::testing::Values(
    Case{"1 < 2 and 2 < 3", {}, "true"},
    Case{"not (1 > 2) or false", {}, "true"},
    Case{"false and 1", {}, "false"},
    Case{"if 1 then 2 else 3", {}, "error: TypeMismatch: the condition of 'if' must be true or false, got the number 1 (compare it, as in 'x > 0')"},
    Case{"if d6 >= 4 then \"hit\" else \"miss\"", {5}, "hit"},
    Case{"\"hit\" == \"hit\"", {}, "true"}));

INSTANTIATE_TEST_SUITE_P(Bindings, Semantics, ::testing::Values(
    Case{"let x = 3d6 in x + x", {1, 2, 3}, "12"},
    Case{"fn half(x) = x / 2\nhalf(9)", {}, "4"},
    Case{"fn fact(n) = if n <= 1 then 1 else n * fact(n - 1)\nfact(10)", {}, "3628800"},
    Case{"let a = 2\nlet b = a * 3\nb + 1", {}, "7"},
    Case{"fn f(x) = x + bonus\nlet bonus = 2\nf(1)", {}, "3"},
    Case{"strength + 1", {}, "error: UnknownName: unknown name 'strength'"},
    Case{"fn f(x) = f(x)\nf(1)", {}, "error: CallDepthExceeded: calls nested more than 64 deep (max_call_depth)"}));

INSTANTIATE_TEST_SUITE_P(Collections, Semantics, ::testing::Values(
    Case{"[1, 2, 3][2]", {}, "3"},
    Case{"[1, 2][2]", {}, "error: IndexOutOfRange: index 2 is out of range for a list of 2 items (indexes start at 0)"},
    Case{"{result: 14, success: true}.success", {}, "true"},
    Case{"{result: 14}[\"result\"]", {}, "14"},
    Case{"{result: 14}.resutl", {}, "error: UnknownField: the record has no field 'resutl'"},
    Case{"(3d6)[1]", {2, 5, 1}, "5"},
    Case{"len(4d6)", {1, 2, 3, 4}, "4"},
    Case{"with({hp: 3}, \"hp\", 1)", {}, "{hp: 1}"},
    Case{"concat([1], [2, 3])", {}, "[1, 2, 3]"},
    Case{"sum(concat(2d6, 1d8))", {1, 2, 8}, "11"},
    Case{"range(1, 3)", {}, "[1, 2, 3]"},
    Case{"max(3d6)", {1, 6, 2}, "6"},
    Case{"[1, \"hit\", {a: \"x\"}]", {}, "[1, \"hit\", {a: \"x\"}]"},
    Case{"sort([3, 1, 2])", {}, "[1, 2, 3]"},
    Case{"clamp(7, 1, 5)", {}, "5"}));

INSTANTIATE_TEST_SUITE_P(Tiers, Semantics, ::testing::Values(
    Case{"2d6 + 1 tiers { <=6: miss, 7..9: partial, >=10: hit }", {2, 3}, "miss"},
    Case{"2d6 + 1 tiers { <=6: miss, 7..9: partial, >=10: hit }", {3, 5}, "partial"},
    Case{"2d6 + 1 tiers { <=6: miss, 7..9: partial, >=10: hit }", {4, 5}, "hit"},
    Case{"d6 tiers { 1: \"one\", else: 0 }", {1}, "one"},
    Case{"d6 tiers { 1: \"one\", else: 0 }", {2}, "0"},
    Case{"d6 tiers { <=2: low }", {5}, "error: NoTierMatches: no tier matches the value 5 (add 'else: …' to catch the rest)"}));

INSTANTIATE_TEST_SUITE_P(Loops, Semantics, ::testing::Values(
    Case{"repeat 3 { d6 }", {1, 2, 3}, "[1, 2, 3]"},
    Case{"for x in [1, 2, 3] { x * x }", {}, "[1, 4, 9]"},
    Case{"for f in 3d6 { f + 1 }", {1, 2, 3}, "[2, 3, 4]"},
    Case{"loop hp = 10 until hp <= 0 { hp - d6 }", {6, 3, 4}, "-3"},
    Case{"loop n = 0 while n < 5 { n + 2 }", {}, "6"},
    Case{"loop n = 0 until n < 0 { n + 1 }", {}, "error: LoopLimitExceeded: the loop ran 10000 times without ending (max_loop_iterations)"},
    Case{"repeat 20000 { 1 }", {}, "error: LoopLimitExceeded: cannot repeat 20000 times; the limit is 10000 (max_loop_iterations)"}));
// clang-format on

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

}  // namespace
}  // namespace alea::testing
