// dsl/parser.cpp — runs the PEGTL grammar and turns its errors into Diagnostics.
#include "dsl/parser.hpp"

#include <cctype>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "dsl/grammar.hpp"
#include "dsl/parse_tree_selector.hpp"

namespace alea {
namespace grammar {

// clang-format off
// Every must<> point has a message, written "Code|text": the code names the
// DiagCode, the text is what was expected. must_if's static_assert refuses a
// must<> point without one.
template <class Rule> inline constexpr const char* error_message = nullptr;
#define ALEA_MSG(rule, text) template <> inline constexpr const char* error_message<rule> = text
ALEA_MSG(ws, "ExpectedToken|unexpected character");
ALEA_MSG(expression, "ExpectedExpression|expected an expression");
ALEA_MSG(unary, "ExpectedExpression|expected an expression after '-'");
ALEA_MSG(product, "ExpectedExpression|expected an expression after the operator");
ALEA_MSG(tiered, "ExpectedExpression|expected an expression after the comparison");
ALEA_MSG(negation, "ExpectedExpression|expected an expression after 'not'");
ALEA_MSG(conjunction, "ExpectedExpression|expected an expression after 'or'");
ALEA_MSG(sides, "ExpectedSides|expected the number of sides after 'd' (a number, %, F, {faces} or (expression))");
ALEA_MSG(no_letters, "UnexpectedText|unknown dice modifier");
ALEA_MSG(close_paren, "UnclosedDelimiter|expected ')'");
ALEA_MSG(close_bracket, "UnclosedDelimiter|expected ']'");
ALEA_MSG(close_brace, "UnclosedDelimiter|expected '}'");
ALEA_MSG(faces_close, "UnclosedDelimiter|expected ',' or '}' in the list of faces");
ALEA_MSG(face_list, "ExpectedToken|expected a face value (a whole number or a range like 1..6)");
ALEA_MSG(string_body, "UnterminatedString|unterminated string");
ALEA_MSG(string_close, "UnterminatedString|unterminated string (strings end with '\"' on the same line)");
ALEA_MSG(list_items, "ExpectedExpression|expected a list item");
ALEA_MSG(record_items, "ExpectedToken|expected a field 'name: value'");
ALEA_MSG(call_items, "ExpectedExpression|expected an argument");
ALEA_MSG(param_items, "ExpectedToken|expected a parameter name");
ALEA_MSG(arg, "ExpectedExpression|expected a number, a name or a parenthesised expression");
template <PoolOpId H, PoolOpId L, PoolOpId M>
inline constexpr const char* error_message<keep_what<H, L, M>> =
    "ExpectedToken|expected 'highest', 'lowest' or a condition such as '>=5' after the word";
ALEA_MSG(keep_count_or_face, "AmbiguousKeep|say which dice: 'highest N' or 'lowest N' for N dice, '=N' for the dice showing N");
ALEA_MSG(reserved, "ReservedWord|is a reserved word and cannot be used as a name");
ALEA_MSG(record_field, "ExpectedToken|expected a field 'name: value'");
ALEA_MSG(word_cond, "ExpectedToken|expected a condition such as '6' or '>=5'");
ALEA_MSG(count_extras, "ExpectedToken|unexpected text after 'count'");
ALEA_MSG(cancel_op, "ExpectedToken|expected a comparison after the cancelling pool, as in 'cancel red<='");
ALEA_MSG(clamp_bounds, "ExpectedToken|expected 'min N' and/or 'max N' after 'clamp'");
ALEA_MSG(field_name, "ExpectedToken|expected a field name after '.'");
ALEA_MSG(kw_then, "ExpectedToken|expected 'then'");
ALEA_MSG(kw_else, "ExpectedToken|expected 'else' ('if' always needs both branches)");
ALEA_MSG(kw_in, "ExpectedToken|expected 'in'");
ALEA_MSG(let_name, "ExpectedToken|expected a name after 'let'");
ALEA_MSG(for_var, "ExpectedToken|expected a name after 'for'");
ALEA_MSG(loop_var, "ExpectedToken|expected a name after 'loop'");
ALEA_MSG(loop_mode, "ExpectedToken|expected 'until' or 'while'");
ALEA_MSG(fn_name, "ExpectedToken|expected a function name after 'fn'");
ALEA_MSG(params, "ExpectedToken|expected '(' and the parameter list");
ALEA_MSG(block, "ExpectedToken|expected '{' and the body");
ALEA_MSG(pegtl::one<'='>, "ExpectedToken|expected '='");
ALEA_MSG(pegtl::one<'{'>, "ExpectedToken|expected '{'");
ALEA_MSG(pegtl::one<':'>, "ExpectedToken|expected ':'");
ALEA_MSG(tier_result, "ExpectedExpression|expected the tier's result after ':'");
ALEA_MSG(tier_list, "ExpectedToken|expected a tier such as '<=6: miss', '7..9: partial' or 'else: hit'");
ALEA_MSG(vs_rhs, "ExpectedExpression|expected 'opposed' or the other roll after 'vs'");
ALEA_MSG(rule_name, "ExpectedToken|expected the name of the function that compares the rolls after 'by'");
ALEA_MSG(end_of_input, "UnexpectedText|unexpected text after the expression");
#undef ALEA_MSG
// A pool operation's parameter is expected as the rule that reads it.
template <op_param_name Name, class Rule>
inline constexpr const char* error_message<op_param<Name, Rule>> = error_message<Rule>;
// clang-format on

struct error_messages {
  template <class Rule>
  static constexpr const char* message = error_message<Rule>;
  template <class Rule>
  static constexpr bool raise_on_failure = false;  // only must<> points raise
};

template <class Rule>
using control = pegtl::must_if<error_messages>::control<Rule>;

// The control of the parse: the error messages above, and the flat parse tree
// (parse_tree_selector.hpp) built as rules start, succeed and fail.
template <class Rule>
struct tree_control : control<Rule> {
  template <pegtl::apply_mode A, pegtl::rewind_mode M, template <class...> class Action,
            template <class...> class Control, class Input>
  [[nodiscard]] static bool match(Input& in, ParseState& ps, ParseTree& tree) {
    if constexpr (!may_hold_node<Rule, 8>) {
      return control<Rule>::template match<A, M, Action, Control>(in, ps, tree);
    } else {
      const std::uint32_t mark = tree.mark();
      const auto begin = static_cast<std::uint32_t>(in.byte());
      if (!control<Rule>::template match<A, M, Action, Control>(in, ps, tree)) {
        tree.truncate(mark);  // a failed attempt leaves no nodes behind
        return false;
      }
      if constexpr (is_folded_kind(node_kind<Rule>)) {
        tree.add_folded(node_kind<Rule>, mark, begin, static_cast<std::uint32_t>(in.byte()));
      } else if constexpr (node_kind<Rule> != 0) {
        tree.add(node_kind<Rule>, mark, begin, static_cast<std::uint32_t>(in.byte()));
      }
      return true;
    }
  }
};

}  // namespace grammar

namespace {

DiagCode code_from_name(std::string_view name) {
  for (DiagCode c : all_codes()) {
    if (code_name(c) == name) return c;
  }
  return DiagCode::ExpectedToken;
}

// Describes what stands at `offset`, for "…, found X".
std::string found_at(std::string_view text, std::size_t offset) {
  std::size_t i = offset;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')) ++i;
  if (i >= text.size()) return "end of input";
  std::size_t j = i;
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (word(text[i])) {
    while (j < text.size() && word(text[j]) && j - i < 20) ++j;
  } else {
    j = i + 1;
    while (j < text.size() && (static_cast<unsigned char>(text[j]) & 0xC0) == 0x80) ++j;
  }
  return fmt::format("'{}'", text.substr(i, j - i));
}

// Whether `found` ("'kh3'") is a shorthand modifier written after a space:
// whether it parses as the modifiers attached to a roll do, alone or with a
// number after it (`cs` of `4d6 cs >=5`, `min` of `min 2`), unless it is a
// comparison.
bool looks_like_shorthand(std::string_view found) {
  if (found.size() < 3) return false;
  const std::string w(found.substr(1, found.size() - 2));
  // `4d6 >=5` is a comparison, and `1 < 2 < 3` a misplaced one: never the
  // count's shorthand.
  if (w.find_first_of("<>=") == 0) return false;
  for (const std::string& text : {w, w + "1"}) {
    grammar::ParseState state{0, 4};
    pegtl::memory_input<> in(text.data(), text.size(), "");
    try {
      if (pegtl::parse<pegtl::seq<pegtl::plus<grammar::shorthand>, pegtl::eof>>(in, state)) return true;
    } catch (const pegtl::parse_error&) {
    }
  }
  return false;
}

// The offset of the innermost bracket left open before `offset`, if any.
std::optional<std::size_t> unclosed_open(std::string_view text, std::size_t offset, char close) {
  const char open = close == ')' ? '(' : close == ']' ? '[' : '{';
  std::vector<std::size_t> stack;
  bool in_string = false, in_comment = false;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    const char c = text[i];
    if (in_comment) {
      if (c == '\n') in_comment = false;
      continue;
    }
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"' || c == '\n') in_string = false;
      continue;
    }
    if (c == '#') in_comment = true;
    else if (c == '"') in_string = true;
    else if (c == open) stack.push_back(i);
    else if (c == close && !stack.empty()) stack.pop_back();
  }
  if (stack.empty()) return std::nullopt;
  return stack.back();
}

Diagnostic from_parse_error(const SourceFile& file, const pegtl::parse_error& e, std::size_t max_nesting) {
  const std::string_view raw = e.message();
  const auto bar = raw.find('|');
  const DiagCode code = bar == std::string_view::npos ? DiagCode::ExpectedToken
                                                      : code_from_name(raw.substr(0, bar));
  std::string text(bar == std::string_view::npos ? raw : raw.substr(bar + 1));
  const std::size_t at = e.positions().empty() ? 0 : e.positions().front().byte;
  const std::string found = found_at(file.text(), at);
  std::size_t where = at;
  // Point at what was found rather than at the blanks before it.
  while (where < file.text().size() && std::isspace(static_cast<unsigned char>(file.text()[where]))) ++where;
  const bool at_end = found == "end of input";
  if (code == DiagCode::ReservedWord) {
    text = fmt::format("{} {}", found, text);
  } else if (code == DiagCode::AmbiguousKeep) {
    // The message says what to write instead; what was found is plain.
  } else if (text == "unknown dice modifier") {
    std::size_t j = where;
    while (j < file.text().size() && (std::isalnum(static_cast<unsigned char>(file.text()[j])) || file.text()[j] == '_')) ++j;
    text = fmt::format("unknown dice modifier '{}'", file.text().substr(where, j - where));
  } else if (code == DiagCode::NestingTooDeep) {
    text = fmt::format("expression is nested more than {} levels deep (max_nesting)", max_nesting);
  } else {
    text += ", found " + found;
  }
  const auto end = static_cast<std::uint32_t>(
      std::min(file.text().size(), where + (at_end ? 0 : std::max<std::size_t>(1, found.size() - 2))));
  Diagnostic d(code, file.span(static_cast<std::uint32_t>(where), end), std::move(text));
  if (code == DiagCode::UnexpectedText && looks_like_shorthand(found)) {
    d.note({}, "shorthand modifiers are written against the roll, with no space: '4d6kh3', '3d6!'; "
               "after a space use the words: '4d6 keep highest 3'");
  }
  d.at_end_of_input = at_end && code != DiagCode::NestingTooDeep;
  if (code == DiagCode::UnclosedDelimiter) {
    const char close = raw.find("')'") != std::string_view::npos   ? ')'
                       : raw.find("']'") != std::string_view::npos ? ']'
                                                                   : '}';
    if (auto open = unclosed_open(file.text(), at, close)) {
      const auto o = static_cast<std::uint32_t>(*open);
      d.note(file.span(o, o + 1), fmt::format("to close this '{}'", file.text()[o]));
    }
  }
  return d;
}

}  // namespace

namespace {

// The spelling of a keyword rule, read off the PEGTL keyword it derives from.
template <char... Cs>
std::string spelling_of(const pegtl::ascii::keyword<Cs...>*) {
  return std::string{Cs...};
}

template <class... Rules>
std::vector<std::string> spellings(pegtl::type_list<Rules...>) {
  return {spelling_of(static_cast<const Rules*>(nullptr))...};
}

}  // namespace

const std::vector<std::string>& keywords() {
  static const std::vector<std::string> words = spellings(grammar::keyword::subs_t());
  return words;
}

std::unique_ptr<ast::Program> build_ast(const grammar::ParseTree& tree, const SourceFile& file,
                                        std::size_t max_depth);

ParseResult parse(const SourceFile& file, const ParseOptions& options) {
  ParseResult result;
  const std::string& text = file.text();
  if (text.size() > options.max_input_bytes) {
    result.diagnostics.emplace_back(
        DiagCode::InputTooLong, file.span(0, 0),
        fmt::format("input is {} bytes long; the limit is {} bytes (max_input_bytes)", text.size(),
                    options.max_input_bytes));
    return result;
  }
  grammar::ParseState state{0, options.max_nesting};
  // One tree per thread, reused: a parse allocates nothing for its nodes.
  thread_local grammar::ParseTree tree;
  tree.reset(text);
  struct Trim {
    grammar::ParseTree& tree;
    ~Trim() { tree.trim(); }
  } trim{tree};
  pegtl::memory_input<pegtl::tracking_mode::lazy, pegtl::eol::lf_crlf, const char*> in(
      text.data(), text.data() + text.size(), file.name().c_str());
  try {
    if (!pegtl::parse<grammar::program, pegtl::nothing, grammar::tree_control>(in, state, tree)) {
      result.diagnostics.emplace_back(DiagCode::ExpectedExpression, file.span(0, 0),
                                      "expected an expression");
      return result;
    }
    tree.finish();
    result.program = build_ast(tree, file, 4 * options.max_nesting);
    if (result.program->statements.empty() && !result.program->main) {
      const auto end = static_cast<std::uint32_t>(text.size());
      Diagnostic d(DiagCode::ExpectedExpression, file.span(end, end), "expected an expression");
      d.at_end_of_input = true;
      result.program.reset();
      result.diagnostics.push_back(std::move(d));
    }
  } catch (const pegtl::parse_error& e) {
    result.diagnostics.push_back(from_parse_error(file, e, options.max_nesting));
  } catch (const detail::BuildError& e) {
    result.diagnostics.push_back(e.diagnostic);
  }
  return result;
}

}  // namespace alea
