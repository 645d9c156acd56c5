// tests/dsl/parser_test.cpp — what each input parses to (printed in canonical
// form) or which error it gives. The lexical traps of dice notation each have a row.
#include <gtest/gtest.h>

#include <functional>

#include "dsl/ast_walk.hpp"
#include "dsl/parser.hpp"
#include "dsl/printer.hpp"
#include "dsl/resolver.hpp"

namespace alea {
namespace parser_test {

struct ParseCase {
  std::string_view input;
  std::string_view printed;  // canonical form; empty when an error is expected
  std::string_view error;    // the headline; empty when parsing must succeed
};

std::ostream& operator<<(std::ostream& os, const ParseCase& c) { return os << c.input; }

class ParserTest : public ::testing::TestWithParam<ParseCase> {};

TEST_P(ParserTest, ProducesTheExpectedTreeOrError) {
  const ParseCase& c = GetParam();
  auto file = SourceFile::make("<input>", std::string(c.input));
  ParseResult r = parse(*file);
  if (c.error.empty()) {
    ASSERT_TRUE(r.ok()) << render_text(r.diagnostics);
    std::string printed = print(*r.program);
    printed.pop_back();  // the trailing newline
    EXPECT_EQ(printed, c.printed);
    // Printing is a fixed point: the canonical form parses to itself.
    auto again = parse(*SourceFile::make("<p>", printed));
    ASSERT_TRUE(again.ok()) << render_text(again.diagnostics);
    EXPECT_EQ(print(*again.program), printed + "\n");
  } else {
    ASSERT_FALSE(r.ok()) << print(*r.program);
    EXPECT_EQ(render_headline(r.diagnostics.at(0)), c.error);
  }
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Dice, ParserTest, ::testing::Values(
    ParseCase{"3d6", "(3)d(6)", ""},
    ParseCase{"d20 + 5", "(d(20) + 5)", ""},
    ParseCase{"d%", "d%", ""},
    ParseCase{"4dF", "(4)dF", ""},
    ParseCase{"d{1,1,2,3,5,8}", "d{1,1,2,3,5,8}", ""},
    ParseCase{"d{-1..1}", "d{-1,0,1}", ""},
    ParseCase{"(1d4)d6", "((1)d(4))d(6)", ""},
    ParseCase{"3d(2*3)", "(3)d((2 * 3))", ""},
    ParseCase{"pool d12", "(pool)d(12)", ""},
    ParseCase{"attacker.pool d12", "(attacker.pool)d(12)", ""},
    ParseCase{"dex + d8", "(dex + d(8))", ""},
    ParseCase{"dFoo", "dFoo", ""},
    ParseCase{"2d", "", "<input>:1:3: error: expected the number of sides after 'd' (a number, %, F, {faces} or (expression)), found end of input [ExpectedSides]"},
    ParseCase{"d20bonus", "", "<input>:1:4: error: unknown dice modifier 'bonus' [UnexpectedText]"}));

INSTANTIATE_TEST_SUITE_P(Shorthand, ParserTest, ::testing::Values(
    ParseCase{"4d6kh3", "((4)d(6) keep highest 3)", ""},
    ParseCase{"4d6k3", "((4)d(6) keep highest 3)", ""},
    ParseCase{"4d6kl", "((4)d(6) keep lowest)", ""},
    ParseCase{"4d6dh1", "((4)d(6) drop highest 1)", ""},
    // `d` after a roll is Roll20's drop-lowest, never a second roll.
    ParseCase{"4d6d1", "((4)d(6) drop lowest 1)", ""},
    ParseCase{"3d6!", "((3)d(6) explode)", ""},
    ParseCase{"3d6!>=5", "((3)d(6) explode >=5)", ""},
    // `!=` right after `!` is an explode condition, not inequality.
    ParseCase{"3d6!=5", "((3)d(6) explode =5)", ""},
    ParseCase{"3d6 != 5", "((3)d(6) != 5)", ""},
    ParseCase{"5d6!!", "((5)d(6) compound)", ""},
    // A target right after an explode is the explode's condition.
    ParseCase{"5d6!!>8", "((5)d(6) compound >8)", ""},
    ParseCase{"5d6!p", "((5)d(6) penetrate)", ""},
    ParseCase{"2d6r", "((2)d(6) reroll)", ""},
    ParseCase{"2d6ro<2", "((2)d(6) reroll <2 once)", ""},
    // Attached comparisons count dice; spaced ones compare the total.
    ParseCase{"10d10>=8", "((10)d(10) count >=8)", ""},
    ParseCase{"10d10 >= 8", "((10)d(10) >= 8)", ""},
    ParseCase{"10d10>=8f1", "((10)d(10) count >=8 fail =1)", ""},
    ParseCase{"10d10cs>7", "((10)d(10) count >7)", ""},
    ParseCase{"4d6min2", "((4)d(6) clamp min 2)", ""},
    ParseCase{"4d6sd", "((4)d(6) sort desc)", ""},
    ParseCase{"4d6u", "((4)d(6) unique)", ""},
    ParseCase{"4d6!kh3", "(((4)d(6) explode) keep highest 3)", ""},
    ParseCase{"1d20kx", "", "<input>:1:6: error: unknown dice modifier 'x' [UnexpectedText]"}));

INSTANTIATE_TEST_SUITE_P(Words, ParserTest, ::testing::Values(
    ParseCase{"3d6 explode 6 limit 3", "((3)d(6) explode =6 limit 3)", ""},
    ParseCase{"3d6 explode >= 5", "((3)d(6) explode >=5)", ""},
    ParseCase{"4d6 keep highest 3", "((4)d(6) keep highest 3)", ""},
    ParseCase{"4d6 drop lowest", "((4)d(6) drop lowest)", ""},
    ParseCase{"4d6 keep >= 3", "((4)d(6) keep >=3)", ""},
    ParseCase{"2d6 reroll <= 2 once", "((2)d(6) reroll <=2 once)", ""},
    ParseCase{"10d10 count >= 7 double 10", "((10)d(10) count >=7 double =10)", ""},
    ParseCase{"pool d12 under ST", "((pool)d(12) under ST)", ""},
    ParseCase{"3d6 cancel red<=", "((3)d(6) cancel red<=)", ""},
    ParseCase{"3d6 cancel red <=", "((3)d(6) cancel red<=)", ""},
    ParseCase{"4d6 clamp min 2 max 5", "((4)d(6) clamp min 2 max 5)", ""},
    ParseCase{"4d6 keep", "", "<input>:1:9: error: expected 'highest', 'lowest' or a condition such as '>=5' after the word, found end of input [ExpectedToken]"},
    ParseCase{"3d6 cancel red", "", "<input>:1:15: error: expected a comparison after the cancelling pool, as in 'cancel red<=', found end of input [ExpectedToken]"}));

INSTANTIATE_TEST_SUITE_P(Expressions, ParserTest, ::testing::Values(
    ParseCase{"1 + 2 * 3", "(1 + (2 * 3))", ""},
    ParseCase{"(1 + 2) * 3", "((1 + 2) * 3)", ""},
    ParseCase{"-3 - -2", "((-3) - (-2))", ""},
    ParseCase{"not a and b or c", "(((not a) and b) or c)", ""},
    ParseCase{"1 < 2 == true", "", "<input>:1:7: error: unexpected text after the expression, found '=' [UnexpectedText]"},
    ParseCase{"if x > 3 then 1 else 2", "(if (x > 3) then 1 else 2)", ""},
    ParseCase{"let x = 3d6 in x + 1", "(let x = (3)d(6) in (x + 1))", ""},
    ParseCase{"[1, 2][0]", "[1, 2][0]", ""},
    ParseCase{"{a: 1, b: \"hit\"}.b", "{a: 1, b: \"hit\"}.b", ""},
    ParseCase{"2d6 + 1 tiers { <=6: miss, 7..9: partial, else: hit }",
              "(((2)d(6) + 1) tiers {<=6: (\"miss\"), 7..9: (\"partial\"), else: (\"hit\")})", ""},
    ParseCase{"repeat 6 { 4d6kh3 }", "(repeat 6 {((4)d(6) keep highest 3)})", ""},
    ParseCase{"for x in [1, 2] { x * 2 }", "(for x in [1, 2] {(x * 2)})", ""},
    ParseCase{"loop hp = 10 until hp <= 0 { hp - d6 }", "(loop hp = 10 until (hp <= 0) {(hp - d(6))})", ""},
    ParseCase{"fn half(x) = x / 2\nhalf(7)", "fn half(x) = (x / 2)\nhalf(7)", ""},
    ParseCase{"let a = 1; let b = 2; a + b", "let a = 1\nlet b = 2\n(a + b)", ""},
    ParseCase{"3d6 # a comment", "(3)d(6)", ""},
    ParseCase{"(1 + 2", "", "<input>:1:7: error: expected ')', found end of input [UnclosedDelimiter]"},
    ParseCase{"3 +", "", "<input>:1:4: error: expected an expression after the operator, found end of input [ExpectedExpression]"},
    ParseCase{"if x then 1", "", "<input>:1:12: error: expected 'else' ('if' always needs both branches), found end of input [ExpectedToken]"},
    ParseCase{"let in = 3", "", "<input>:1:5: error: 'in' is a reserved word and cannot be used as a name [ReservedWord]"},
    ParseCase{"fn f(d4) = d4", "", "<input>:1:6: error: 'd4' is a reserved word and cannot be used as a name [ReservedWord]"},
    ParseCase{"4d6 keep 3", "", "<input>:1:10: error: say which dice: 'highest N' or 'lowest N' for N dice, '=N' for the dice showing N [AmbiguousKeep]"},
    ParseCase{"{a 1}", "", "<input>:1:4: error: expected ':', found '1' [ExpectedToken]"},
    ParseCase{"[1, 2,]", "[1, 2]", ""},
    ParseCase{"sort([3, 1]) + clamp(7, 1, 5)", "(sort([3, 1]) + clamp(7, 1, 5))", ""},
    ParseCase{"\"open", "", "<input>:1:6: error: unterminated string (strings end with '\"' on the same line), found end of input [UnterminatedString]"},
    ParseCase{"99999999999999999999", "", "<input>:1:1: error: the number 99999999999999999999 is too large (numbers are 64-bit integers) [IntegerTooLarge]"},
    ParseCase{"", "", "<input>:1:1: error: expected an expression [ExpectedExpression]"}));
// clang-format on

TEST(Parser, MarksErrorsAtTheEndOfInputSoTheReplCanContinue) {
  for (std::string_view text : {"3d6 +", "(1 +", "if x then 1", "[1, 2", "let x ="}) {
    auto r = parse(*SourceFile::make("<input>", std::string(text)));
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_TRUE(r.diagnostics[0].at_end_of_input) << text;
  }
  auto r = parse(*SourceFile::make("<input>", "3d6 )"));
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(r.diagnostics[0].at_end_of_input);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(CallsAndRulesets, ParserTest, ::testing::Values(
    ParseCase{"none", "none", ""},
    ParseCase{"3d6 explode 6 limit none", "((3)d(6) explode =6 limit none)", ""},
    ParseCase{"f(1, b: 2)", "f(1, b: 2)", ""},
    ParseCase{"f(b: d6, a: 1)", "f(b: d(6), a: 1)", ""},
    ParseCase{"heroes_mythos.check(3, red: 1)", "heroes_mythos.check(3, red: 1)", ""},
    // Without '(' a dotted name is a field, not a call.
    ParseCase{"r.check + 1", "(r.check + 1)", ""},
    ParseCase{"fn f(a, b = 2, c = a + b) = a; f(1)", "fn f(a, b = 2, c = (a + b)) = a\nf(1)", ""},
    ParseCase{"3d6 cancel red<= combine", "((3)d(6) cancel red<= combine)", ""},
    ParseCase{"3d6 cancel red<= combine except 6", "((3)d(6) cancel red<= combine except =6)", ""},
    ParseCase{"3d6 cancel red<= combine except >=5 + 1", "(((3)d(6) cancel red<= combine except >=5) + 1)", ""},
    ParseCase{"let none = 1 in none", "", "<input>:1:5: error: 'none' is a reserved word and cannot be used as a name [ReservedWord]"},
    ParseCase{"f(a: )", "", "<input>:1:6: error: expected an expression, found ')' [ExpectedExpression]"},
    ParseCase{"fn f(a = ) = 1", "", "<input>:1:10: error: expected an expression, found ')' [ExpectedExpression]"},
    ParseCase{"2d6 + 1 vs 2d6", "(((2)d(6) + 1) vs (2)d(6))", ""},
    ParseCase{"d20 vs d20 by beats(5, margin: 2)", "(d(20) vs d(20) by beats(5, margin: 2))", ""},
    ParseCase{"pool d12 under ST except 12 vs opposed by melee", "(((pool)d(12) under ST except =12) vs opposed by melee)", ""},
    ParseCase{"a vs b by contest", "(a vs b)", ""},
    // `vs` is built as lets and a call (ast.hpp, Opposed) and prints back as written.
    ParseCase{"d20 vs d20 by f(x)", "(d(20) vs d(20) by f(x))", ""},
    ParseCase{"(a vs b by f(1)) vs (c vs d)", "((a vs b by f(1)) vs (c vs d))", ""},
    ParseCase{"a vs b by f(c vs d by g)", "(a vs b by f((c vs d by g)))", ""},
    ParseCase{"let first = 1 in first vs 2", "(let first = 1 in (first vs 2))", ""},
    ParseCase{"fn f(a, b) = a vs b; f(1, 2)", "fn f(a, b) = (a vs b)\nf(1, 2)", ""},
    ParseCase{"d20 vs d20 by f($first)", "", "<input>:1:17: error: expected ')', found '$' [UnclosedDelimiter]"},
    ParseCase{"1 vs", "", "<input>:1:5: error: expected 'opposed' or the other roll after 'vs', found end of input [ExpectedExpression]"},
    ParseCase{"1 vs 2 by", "", "<input>:1:10: error: expected the name of the function that compares the rolls after 'by', found end of input [ExpectedToken]"},
    ParseCase{"3d6 cancel red<= combine except", "", "<input>:1:32: error: expected a condition such as '6' or '>=5', found end of input [ExpectedToken]"}));
// clang-format on

TEST(Parser, RefusesDeepNestingWithADiagnostic) {
  const std::string deep = std::string(10'000, '(') + "1" + std::string(10'000, ')');
  auto r = parse(*SourceFile::make("<input>", deep));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0].code, DiagCode::NestingTooDeep);
  std::string minus;
  for (int i = 0; i < 10'000; ++i) minus += "- ";
  r = parse(*SourceFile::make("<input>", minus + "1"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0].code, DiagCode::NestingTooDeep);
  // Well within the limit parses fine.
  const std::string ok = std::string(150, '(') + "1" + std::string(150, ')');
  EXPECT_TRUE(parse(*SourceFile::make("<input>", ok)).ok());
}

TEST(Parser, RefusesOversizedInputBeforeParsing) {
  const std::string big(1'000'000, '1');
  auto r = parse(*SourceFile::make("<input>", big));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0].code, DiagCode::InputTooLong);
  EXPECT_EQ(r.diagnostics[0].message, "input is 1000000 bytes long; the limit is 100000 bytes (max_input_bytes)");
}

// Every expression a pool operation holds is a child in ast::for_each_child, so
// each pass sees it: the resolver binds the local `n` in all of them (none is
// left a free name for the host to supply) and the depth counts the deepest.
// Every row of dsl/pool_ops.def, written out in full from the row itself with
// every parameter given as the name `n`: it parses as that row, each parameter
// is a child the resolver sees, the printer gives it back as written, and its
// shorthand (if any) parses as the same row.
TEST(Parser, EveryPoolOperationRowParsesAsWrittenInTheRegistry) {
  for (const PoolOpInfo& row : kPoolOps) {
    std::string text(row.written);
    for (const PoolOpPart& part : row.parts) {
      if (part.kind == PoolOpPart::None) break;
      text += ' ';
      if (part.kind == PoolOpPart::Word) {
        text += part.text;
        continue;
      }
      if (!part.text.empty()) text += std::string(part.text) + ' ';
      text += part.kind == PoolOpPart::Cond ? ">=n" : part.kind == PoolOpPart::Pool ? "n<=" : "n";
    }
    SCOPED_TRACE(text);
    auto r = parse(*SourceFile::make("<input>", "let n = 2 in 4d6 " + text));
    ASSERT_TRUE(r.ok()) << render_text(r.diagnostics);
    ASSERT_TRUE(resolve(*r.program, ResolveContext{}).empty());
    const auto& let = std::get<ast::Let>(r.program->main->kind);
    const auto* op = std::get_if<ast::PoolOp>(&let.body->kind);
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(op->id, row.id) << row.name;
    ASSERT_EQ(op->params.size(), row.param_count());
    std::size_t names = 0, free = 0;
    std::function<void(const ast::Expr&)> walk = [&](const ast::Expr& e) {
      if (const auto* name = std::get_if<ast::Name>(&e.kind)) {
        ++names;
        if (name->slot < 0) ++free;
      }
      ast::for_each_child(e, walk);
    };
    walk(*let.body);
    EXPECT_EQ(names, row.param_count());
    EXPECT_EQ(free, 0u);
    EXPECT_EQ(print(*let.body), "((4)d(6) " + text + ")");

    std::string shorthands(row.shorthand);
    for (std::size_t at = 0; !shorthands.empty() && at != std::string::npos;) {
      const std::size_t end = shorthands.find(' ', at);
      const std::string sh = shorthands.substr(at, end == std::string::npos ? end : end - at);
      at = end == std::string::npos ? end : end + 1;
      auto bare = parse(*SourceFile::make("<input>", "4d6" + sh));
      auto given = parse(*SourceFile::make("<input>", "4d6" + sh + "5"));
      auto& got = bare.ok() ? bare : given;
      ASSERT_TRUE(got.ok()) << "4d6" << sh << ": " << render_text(given.diagnostics);
      const auto* sop = std::get_if<ast::PoolOp>(&got.program->main->kind);
      ASSERT_NE(sop, nullptr) << sh;
      EXPECT_EQ(sop->id, row.id) << "4d6" << sh;
      // Written apart from the roll, it is an error that says to attach it
      // (`4d6 >=` is a comparison missing its right side instead).
      if (sh.front() == '>') continue;
      const auto apart = parse(*SourceFile::make("<input>", "4d6 " + sh));
      ASSERT_FALSE(apart.ok()) << "4d6 " << sh;
      EXPECT_NE(render_text(apart.diagnostics).find("shorthand modifiers are written against the roll"), std::string::npos)
          << render_text(apart.diagnostics);
    }
  }
}

TEST(Parser, AWordThatIsNoModifierGetsNoNoteAboutShorthands) {
  const auto r = parse(*SourceFile::make("<input>", "4d6 foo"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(render_text(r.diagnostics).find("shorthand"), std::string::npos) << render_text(r.diagnostics);
}

TEST(Parser, APoolOperationsParametersCountTowardTheDepth) {
  // `4d6` is two levels deep and the condition's value four.
  auto deep = parse(*SourceFile::make("<input>", "4d6 under 1 except (1 + (1 + (1 + 1)))"));
  ASSERT_TRUE(deep.ok()) << render_text(deep.diagnostics);
  EXPECT_EQ(deep.program->main->depth, 5u);
}

// `A vs B by f(x)` is `let $first = A in let $second = B in f($first,
// $second, x)`: no engine sees a `vs`. The names cannot be written, so x's
// `first` is the user's; the lets count as one level of nesting, as written.
TEST(Parser, VsIsBuiltAsLetsAndACall) {
  const auto file = SourceFile::make("<input>", "fn f(a, b, c) = c; let first = 1 in d20 vs d20 by f(first)");
  auto r = parse(*file);
  ASSERT_TRUE(r.ok()) << render_text(r.diagnostics);
  const auto& user = std::get<ast::Let>(r.program->main->kind);
  EXPECT_FALSE(user.vs);
  const ast::Expr& e = *user.body;
  const auto* outer = std::get_if<ast::Let>(&e.kind);
  ASSERT_NE(outer, nullptr);
  EXPECT_TRUE(outer->vs);
  EXPECT_EQ(outer->name, ast::vs_first);
  const auto* inner = std::get_if<ast::Let>(&outer->body->kind);
  ASSERT_NE(inner, nullptr);
  EXPECT_FALSE(inner->vs);
  EXPECT_EQ(inner->name, ast::vs_second);
  const auto* call = std::get_if<ast::Call>(&inner->body->kind);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->name, "f");
  ASSERT_EQ(call->args.size(), 3u);
  EXPECT_EQ(std::get<ast::Name>(call->args[0]->kind).name, ast::vs_first);
  EXPECT_EQ(std::get<ast::Name>(call->args[1]->kind).name, ast::vs_second);
  // The lets span the whole `vs`; the call, where an error inside f is reported, its `by` clause.
  auto slice = [](Span s) { return s.file->slice(s); };
  EXPECT_EQ(slice(e.span), "d20 vs d20 by f(first)");
  EXPECT_EQ(slice(outer->body->span), "d20 vs d20 by f(first)");
  EXPECT_EQ(slice(inner->body->span), "by f(first)");
  EXPECT_EQ(e.depth, 3u);  // max(d20, d20, f(…)) + 1: the call's depth 2, counted once
  EXPECT_EQ(outer->body->depth, 3u);

  ASSERT_TRUE(resolve(*r.program, ResolveContext{}).empty());
  EXPECT_EQ(std::get<ast::Name>(call->args[2]->kind).slot, user.slot);  // the user's `first`
  EXPECT_EQ(std::get<ast::Name>(call->args[0]->kind).slot, outer->slot);
  EXPECT_EQ(std::get<ast::Name>(call->args[1]->kind).slot, inner->slot);
}

// `E vs opposed`: the second side is an Opposed node that evaluates E again;
// E itself is the child of the `let $first` alone.
TEST(Parser, VsOpposedIsAnOpposedNodeForTheSecondSide) {
  const auto file = SourceFile::make("<input>", "fn melee(a, b) = a; pool d12 vs opposed by melee");
  auto r = parse(*file);
  ASSERT_TRUE(r.ok()) << render_text(r.diagnostics);
  const auto& outer = std::get<ast::Let>(r.program->main->kind);
  const auto& inner = std::get<ast::Let>(outer.body->kind);
  const auto* opposed = std::get_if<ast::Opposed>(&inner.value->kind);
  ASSERT_NE(opposed, nullptr);
  EXPECT_EQ(opposed->side, outer.value.get());
  int children = 0;
  ast::for_each_child(*inner.value, [&](const ast::Expr&) { ++children; });
  EXPECT_EQ(children, 0);
  // Outside a mechanic with sides it is an error, at the whole `vs`.
  const auto d = resolve(*r.program, ResolveContext{});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, DiagCode::OpposedWithoutSides);
  EXPECT_EQ(d[0].span.file->slice(d[0].span), "pool d12 vs opposed by melee");
}

}  // namespace parser_test
}  // namespace alea
