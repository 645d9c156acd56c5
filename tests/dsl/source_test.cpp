// tests/dsl/source_test.cpp — lines, code-point columns and the caret renderer.
#include <gtest/gtest.h>

#include "dsl/diagnostic.hpp"
#include "dsl/parser.hpp"

namespace alea {
namespace source_test {

std::string first_error(std::string_view text) {
  auto file = SourceFile::make("<input>", std::string(text));
  ParseResult r = parse(*file);
  return r.ok() ? std::string("<parsed>") : render_text(r.diagnostics);
}

TEST(Source, ColumnsCountCodePointsNotBytes) {
  auto f = SourceFile::make("x", "\"κόκκινα\" + @");
  // The '@' is the 13th character but the 20th byte.
  const auto offset = static_cast<std::uint32_t>(f->text().find('@'));
  EXPECT_EQ(f->line_column(offset).line, 1u);
  EXPECT_EQ(f->line_column(offset).column, 13u);
}

TEST(Source, LinesAreCountedAcrossCrLf) {
  auto f = SourceFile::make("x", "let a = 1\r\nlet b = 2\r\n@");
  const auto offset = static_cast<std::uint32_t>(f->text().find('@'));
  EXPECT_EQ(f->line_column(offset).line, 3u);
  EXPECT_EQ(f->line_column(offset).column, 1u);
  EXPECT_EQ(f->line_text(f->text().find("let b")), "let b = 2");
}

TEST(Diagnostic, CaretLinesUpUnderCyrillicText) {
  EXPECT_EQ(first_error("\"кубик\" + )"),
            "<input>:1:11: error: expected an expression after the operator, found ')' [ExpectedExpression]\n"
            " 1 | \"кубик\" + )\n"
            "   |           ^\n");
}

TEST(Diagnostic, CaretLinesUpUnderGreekText) {
  EXPECT_EQ(first_error("\"ζάρια\" +\n  3d"),
            "<input>:2:5: error: expected the number of sides after 'd' (a number, %, F, {faces} or (expression)), "
            "found end of input [ExpectedSides]\n"
            " 2 |   3d\n"
            "   |     ^\n");
}

TEST(Diagnostic, UnclosedParenPointsAtTheEndAndNotesTheOpening) {
  EXPECT_EQ(first_error("(1d6 + 3"),
            "<input>:1:9: error: expected ')', found end of input [UnclosedDelimiter]\n"
            " 1 | (1d6 + 3\n"
            "   |         ^\n"
            "<input>:1:1: note: to close this '('\n");
}

TEST(Diagnostic, TildesUnderlineTheWholeToken) {
  EXPECT_EQ(first_error("3d6 frobnicate"),
            "<input>:1:5: error: unexpected text after the expression, found 'frobnicate' [UnexpectedText]\n"
            " 1 | 3d6 frobnicate\n"
            "   |     ^~~~~~~~~~\n");
}

TEST(Diagnostic, LongLinesAreWindowedAroundTheCaret) {
  std::string text(5000, ' ');
  text[0] = '1';
  text += "+";
  const std::string out = first_error(text);
  EXPECT_LT(out.size(), 700u) << out;
  EXPECT_NE(out.find("<input>:1:5002:"), std::string::npos) << out;
}

TEST(Diagnostic, EveryCodeHasAName) {
  for (DiagCode c : all_codes()) EXPECT_FALSE(code_name(c).empty());
}

}  // namespace source_test
}  // namespace alea
