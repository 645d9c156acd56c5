// dsl/ast_builder.cpp — PEGTL parse tree → ast::Program, one function per node kind.

#include <algorithm>

#include <fmt/format.h>

#include "dsl/ast.hpp"
#include "dsl/ast_walk.hpp"
#include "dsl/parse_tree_selector.hpp"
#include "dsl/parser.hpp"

namespace alea {
namespace {

namespace g = grammar;
using Node = grammar::ParseTree::Node;
using ast::ExprPtr;

constexpr std::int64_t max_face_range = 10'000;

// The depth of a node's deepest child.
std::uint32_t child_depth(const ast::Expr& e) {
  std::uint32_t d = 0;
  ast::for_each_child(e, [&](const ast::Expr& c) { d = std::max(d, c.depth); });
  return d;
}

class Builder {
 public:
  Builder(const SourceFile& file, std::size_t max_depth) : file_(file), max_depth_(max_depth) {}

  std::unique_ptr<ast::Program> program(const grammar::ParseTree& tree) {
    auto prog = std::make_unique<ast::Program>();
    for (const Node c : tree.root()) {
      if (c.is_type<g::fn_def>()) {
        ast::FnDef fn;
        fn.span = span(c);
        for (const Node part : c.children()) {
          if (part.is_type<g::fn_name>()) {
            fn.name = part.string();
          } else if (part.is_type<g::param>()) {
            fn.params.push_back(part.children().at(0).string());
            fn.param_spans.push_back(span(part.children()[0]));
            fn.defaults.push_back(part.children().size() > 1 ? expr(part.children()[1]) : nullptr);
          } else {
            fn.body = expr(part);
          }
        }
        prog->statements.emplace_back(std::move(fn));
      } else if (c.is_type<g::global_let>()) {
        ast::GlobalLet let;
        let.span = span(c);
        let.name = c.children().at(0).string();
        let.value = expr(c.children().at(1));
        prog->statements.emplace_back(std::move(let));
      } else if (c.is_type<g::main_expr>()) {
        prog->main = expr(c.children().at(0));
      }
    }
    return prog;
  }

 private:
  const SourceFile& file_;
  std::size_t max_depth_;

  Span span(const Node n) const {
    return file_.span(static_cast<std::uint32_t>(n.begin()), static_cast<std::uint32_t>(n.end()));
  }

  [[noreturn]] void fail(DiagCode code, const Node n, std::string message) const {
    throw detail::BuildError{Diagnostic(code, span(n), std::move(message))};
  }

  // `depth`: 0 to count it from the children; a desugared node gives the
  // depth of the node that was written.
  template <class T>
  ExprPtr make(T kind, Span s, std::uint32_t depth = 0) const {
    // Long chains (`1+1+…`, `.a.a.a`, `3d6!!!!…`) nest the tree as deeply as
    // brackets do; every pass recurses over it, so its depth is bounded too.
    auto e = std::make_unique<ast::Expr>(ast::Expr{std::move(kind), s});
    if (depth == 0) depth = child_depth(*e) + 1;
    if (depth > max_depth_) {
      throw detail::BuildError{Diagnostic(
          DiagCode::NestingTooDeep, s,
          fmt::format("expression is nested more than {} levels deep, counting each operator of a chain "
                      "(max_nesting × 4)",
                      max_depth_))};
    }
    e->depth = depth;
    return e;
  }

  // The value of an `integer` or `neg_integer` node: digits, after a '-' for the latter.
  std::int64_t integer_value(const Node n) const {
    const std::string_view text = n.string_view();
    const bool negative = !text.empty() && text.front() == '-';
    std::uint64_t magnitude = 0;
    bool overflow = false;
    for (const char c : text.substr(negative ? 1 : 0)) {
      overflow |= __builtin_mul_overflow(magnitude, 10u, &magnitude);
      overflow |= __builtin_add_overflow(magnitude, static_cast<unsigned>(c - '0'), &magnitude);
    }
    const std::uint64_t most = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    if (overflow || magnitude > most) {
      fail(DiagCode::IntegerTooLarge, n,
           fmt::format("the number {} is too large (numbers are 64-bit integers)", text));
    }
    return negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  }

  static ast::CmpOp cmp_op(std::string_view s) {
    if (s == ">=") return ast::CmpOp::Ge;
    if (s == "<=") return ast::CmpOp::Le;
    if (s == "<>" || s == "!=") return ast::CmpOp::Ne;
    if (s == ">") return ast::CmpOp::Gt;
    if (s == "<") return ast::CmpOp::Lt;
    return ast::CmpOp::Eq;  // "=" and "=="
  }

  // `a.b.c` → Field(Field(Name a, b), c).
  ExprPtr name_path(const Node n) const {
    const std::string_view text = n.string_view();
    const Span whole = span(n);
    std::size_t dot = text.find('.');
    ExprPtr e = make(ast::Name{std::string(text.substr(0, dot)), -1, {}},
                     file_.span(whole.begin, whole.begin + static_cast<std::uint32_t>(std::min(dot, text.size()))));
    while (dot != std::string_view::npos) {
      const std::size_t next = text.find('.', dot + 1);
      const std::string_view field = text.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1);
      const auto end = whole.begin + static_cast<std::uint32_t>(next == std::string_view::npos ? text.size() : next);
      e = make(ast::Field{std::move(e), std::string(field)}, file_.span(whole.begin, end));
      dot = next;
    }
    return e;
  }

  ExprPtr arg(const Node n) const {
    if (n.is_type<g::arg>()) return arg(n.children().at(0));
    if (n.is_type<g::name_path>()) return name_path(n);
    return expr(n);
  }

  // A condition: [cmp_op,] value, as the op_param of an ALEA_COND holds it.
  ast::Cond cond(const Node n) const {
    ast::Cond c;
    c.span = span(n);
    if (n.children().at(0).is_type<g::cmp_op>()) {  // cond, word_cond and keep_cond alike
      c.op = cmp_op(n.children()[0].string_view());
      c.value = arg(n.children().at(1));
    } else {
      c.value = arg(n.children()[0]);
    }
    return c;
  }

  ExprPtr dice(const Node n) const {
    std::size_t i = 0;
    ast::Dice d;
    if (n.is_type<g::paren_group>()) {
      if (n.children().size() == 1) {
        ExprPtr inner = expr(n.children()[0]);
        inner->span = span(n);
        return inner;
      }
      d.count = expr(n.children()[i++]);
    } else if (n.is_type<g::counted_dice>()) {
      d.count = make(ast::IntLit{integer_value(n.children()[i])}, span(n.children()[i]));
      ++i;
    } else if (n.is_type<g::named_dice>()) {
      d.count = name_path(n.children()[i++]);
    }
    const Node sides = n.children().at(i++);
    const Node s = sides.children().at(0);
    if (s.is_type<g::percent>()) {
      d.shape = ast::DieShape::Percent;
    } else if (s.is_type<g::fudge>()) {
      d.shape = ast::DieShape::Fudge;
    } else if (s.is_type<g::faces>()) {
      d.shape = ast::DieShape::Faces;
      for (const Node f : s.children()) {
        if (f.is_type<g::face_range>()) {
          const std::int64_t lo = signed_value(f.children().at(0));
          const std::int64_t hi = signed_value(f.children().at(1));
          // Neither the width nor the loop may overflow at the ends of int64.
          if (hi < lo || static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) >=
                             static_cast<std::uint64_t>(max_face_range)) {
            fail(DiagCode::InvalidDie, f,
                 fmt::format("a face range must go upwards and hold at most {} faces", max_face_range));
          }
          for (std::int64_t v = lo; v < hi; ++v) d.faces.push_back(v);
          d.faces.push_back(hi);
        } else {
          d.faces.push_back(signed_value(f));
        }
        if (static_cast<std::int64_t>(d.faces.size()) > max_face_range) {
          fail(DiagCode::InvalidDie, s, fmt::format("a die may have at most {} faces", max_face_range));
        }
      }
    } else {
      d.shape = ast::DieShape::Sides;
      d.sides = s.is_type<g::integer>() ? make(ast::IntLit{integer_value(s)}, span(s)) : expr(s);
    }
    const Span core = file_.span(span(n).begin, span(sides).end);
    ExprPtr e = make(std::move(d), core);
    for (; i < n.children().size(); ++i) e = shorthand(std::move(e), n.children()[i]);
    return e;
  }

  std::int64_t signed_value(const Node n) const {
    if (n.is_type<g::neg_integer>()) return integer_value(n);  // from_chars reads the sign
    return integer_value(n);
  }

  // A condition for a parameter that is a plain number (its `op` is unused).
  ast::Cond number(ExprPtr value) const {
    ast::Cond c;
    if (value) c.span = value->span;
    c.value = std::move(value);
    return c;
  }

  // A parameter from the node of its op_param (grammar.hpp), read as its row's
  // part says: a condition, a number, or a pool and its comparison.
  ast::Cond param(const PoolOpPart& part, const Node n) const {
    switch (part.kind) {
      case PoolOpPart::Cond: return cond(n);
      case PoolOpPart::Number: return number(arg(n.children().at(0)));
      case PoolOpPart::Pool: {
        ast::Cond c = number(arg(n.children().at(0)));
        c.op = cmp_op(n.children().at(1).string_view());
        return c;
      }
      case PoolOpPart::None:
      case PoolOpPart::Word: break;
    }
    fail(DiagCode::UnexpectedText, n, "unexpected text");
  }

  // Any pool operation, from its row of dsl/pool_ops.def: the rule's row, or
  // the row of an op_is it matched; each parameter from the op_param that
  // names it, an optional one not written absent.
  ExprPtr pool_op(ExprPtr pool, const Node n) const {
    PoolOpId id = *n.pool_op();
    for (const Node c : n.children()) {
      if (const auto row = c.op_is()) id = *row;
    }
    const PoolOpInfo& row = pool_op_info(id);
    std::vector<ast::Cond> params(row.param_count());
    for (const Node c : n.children()) {
      const auto name = c.op_param();
      if (!name) continue;
      const std::size_t i = row.param_index(*name);
      if (i == params.size()) {  // a grammar rule that names a parameter its row has not
        fail(DiagCode::UnexpectedText, c,
             fmt::format("'{}' has no parameter '{}' (dsl/pool_ops.def)", row.written, *name));
      }
      params[i] = param(row.param(i), c);
    }
    const Span s = pool->span.merge(span(n));
    return make(ast::PoolOp{std::move(pool), id, std::move(params), span(n)}, s);
  }

  ExprPtr shorthand(ExprPtr pool, const Node n) const {
    if (n.pool_op()) return pool_op(std::move(pool), n);
    fail(DiagCode::UnexpectedText, n, "unknown dice modifier");
  }

  ExprPtr word_mod(ExprPtr pool, const Node n) const {
    const auto ch = n.children();
    if (n.pool_op()) return pool_op(std::move(pool), n);
    if (n.is_type<g::field_access>()) {
      const Span s = pool->span.merge(span(n));
      return make(ast::Field{std::move(pool), ch.at(0).string()}, s);
    }
    if (n.is_type<g::index_access>()) {
      const Span s = pool->span.merge(span(n));
      return make(ast::Index{std::move(pool), expr(ch.at(0))}, s);
    }
    fail(DiagCode::UnexpectedText, n, "unexpected text");
  }

  static ast::BinOp bin_op(std::string_view s) {
    if (s == "+") return ast::BinOp::Add;
    if (s == "-") return ast::BinOp::Sub;
    if (s == "*") return ast::BinOp::Mul;
    if (s == "/") return ast::BinOp::Div;
    if (s == "%") return ast::BinOp::Mod;
    if (s == "==") return ast::BinOp::Eq;
    if (s == "!=") return ast::BinOp::Ne;
    if (s == "<") return ast::BinOp::Lt;
    if (s == "<=") return ast::BinOp::Le;
    if (s == ">") return ast::BinOp::Gt;
    if (s == ">=") return ast::BinOp::Ge;
    if (s == "and") return ast::BinOp::And;
    return ast::BinOp::Or;
  }

  // `x op y op z`, folded to the left.
  ExprPtr binary_chain(const Node n) const {
    ExprPtr lhs = expr(n.children().at(0));
    for (std::size_t i = 1; i + 1 < n.children().size(); i += 2) {
      const Node op = n.children()[i];
      ExprPtr rhs = expr(n.children()[i + 1]);
      const Span s = lhs->span.merge(rhs->span);
      lhs = make(ast::Binary{bin_op(op.string_view()), std::move(lhs), std::move(rhs), span(op)}, s);
    }
    return lhs;
  }

  ast::TierTest tier_test(const Node n) const {
    ast::TierTest t;
    t.span = span(n);
    if (n.is_type<g::tier_else>()) {
      t.kind = ast::TierTest::Else;
    } else if (n.is_type<g::tier_cmp>()) {
      t.kind = ast::TierTest::Cmp;
      t.op = cmp_op(n.children().at(0).string_view());
      t.low = arg(n.children().at(1));
    } else if (n.children().size() == 2) {
      t.kind = ast::TierTest::Range;
      t.low = arg(n.children()[0]);
      t.high = arg(n.children()[1]);
    } else {
      t.kind = ast::TierTest::Cmp;
      t.low = arg(n.children().at(0));
    }
    return t;
  }

 public:
  ExprPtr expr(const Node n) const {
    const Span s = span(n);
    const auto ch = n.children();
    if (n.is_type<g::integer>()) return make(ast::IntLit{integer_value(n)}, s);
    if (n.is_type<g::neg_integer>()) return make(ast::IntLit{integer_value(n)}, s);
    if (n.is_type<g::string_body>()) return make(ast::StrLit{unescape(n.string_view())}, file_.span(s.begin - 1, s.end + 1));
    if (n.is_type<g::true_lit>()) return make(ast::BoolLit{true}, s);
    if (n.is_type<g::false_lit>()) return make(ast::BoolLit{false}, s);
    if (n.is_type<g::none_lit>() || n.is_type<g::none_arg>()) return make(ast::NoneLit{}, s);
    if (n.is_type<g::name_ref>()) return make(ast::Name{n.string(), -1, {}}, s);
    if (n.is_type<g::name_path>()) return name_path(n);
    if (n.is_type<g::arg>()) return arg(n);
    if (n.is_type<g::counted_dice>() || n.is_type<g::named_dice>() || n.is_type<g::single_dice>() ||
        n.is_type<g::paren_group>()) {
      return dice(n);
    }
    if (n.is_type<g::postfix>()) {
      ExprPtr e = expr(ch.at(0));
      for (std::size_t i = 1; i < ch.size(); ++i) e = word_mod(std::move(e), ch[i]);
      return e;
    }
    if (n.is_type<g::unary>()) return make(ast::Unary{ast::UnOp::Neg, expr(ch.at(1))}, s);
    if (n.is_type<g::negation>()) return make(ast::Unary{ast::UnOp::Not, expr(ch.at(1))}, s);
    if (n.is_type<g::product>() || n.is_type<g::sum>() || n.is_type<g::comparison>() ||
        n.is_type<g::conjunction>() || n.is_type<g::disjunction>()) {
      return binary_chain(n);
    }
    if (n.is_type<g::versus>()) return versus(n);
    if (n.is_type<g::tiered>()) {
      ast::Tiers t;
      t.subject = expr(ch.at(0));
      for (const Node tier : ch.at(1).children()) {
        ast::Tier one;
        one.test = tier_test(tier.children().at(0));
        const Node r = tier.children().at(1);
        one.result = r.is_type<g::tier_label>() ? make(ast::StrLit{r.string()}, span(r)) : expr(r);
        t.tiers.push_back(std::move(one));
      }
      return make(std::move(t), s);
    }
    if (n.is_type<g::list_lit>()) {
      ast::ListLit l;
      for (const Node c : ch) l.items.push_back(expr(c));
      return make(std::move(l), s);
    }
    if (n.is_type<g::record_lit>()) {
      ast::RecordLit r;
      for (const Node f : ch) {
        std::string name = f.children().at(0).string();
        for (const auto& existing : r.names) {
          if (existing == name) {
            fail(DiagCode::DuplicateDefinition, f.children()[0],
                 fmt::format("field '{}' appears twice in this record", name));
          }
        }
        r.names.push_back(std::move(name));
        r.values.push_back(expr(f.children().at(1)));
      }
      return make(std::move(r), s);
    }
    if (n.is_type<g::call>()) {
      ast::Call c;
      c.name = ch.at(0).string();
      c.name_span = span(ch[0]);
      for (std::size_t i = 1; i < ch.size(); ++i) {
        if (ch[i].is_type<g::named_arg>()) {
          c.arg_names.push_back(ch[i].children().at(0).string());
          c.arg_name_spans.push_back(span(ch[i].children()[0]));
          c.args.push_back(expr(ch[i].children().at(1)));
        } else {
          c.arg_names.emplace_back();
          c.arg_name_spans.emplace_back();
          c.args.push_back(expr(ch[i]));
        }
      }
      return make(std::move(c), s);
    }
    if (n.is_type<g::if_expr>()) {
      return make(ast::If{expr(ch.at(0)), expr(ch.at(1)), expr(ch.at(2))}, s);
    }
    if (n.is_type<g::let_expr>()) {
      return make(ast::Let{ch.at(0).string(), -1, expr(ch.at(1)), expr(ch.at(2))}, s);
    }
    if (n.is_type<g::repeat_expr>()) return make(ast::Repeat{expr(ch.at(0)), expr(ch.at(1))}, s);
    if (n.is_type<g::for_expr>()) {
      return make(ast::For{ch.at(0).string(), -1, expr(ch.at(1)), expr(ch.at(2))}, s);
    }
    if (n.is_type<g::loop_expr>()) {
      return make(ast::Loop{ch.at(0).string(), -1, expr(ch.at(1)), ch.at(2).string_view() == "until",
                            expr(ch.at(3)), expr(ch.at(4))},
                  s);
    }
    fail(DiagCode::UnexpectedText, n, "unexpected text");
  }

  // `A vs B [by f(args)]` and `E vs opposed [by f(args)]`, desugared:
  // `let $first = A in let $second = B in f($first, $second, args)`, B being
  // an Opposed node for `opposed` (ast.hpp). The call and the hidden names
  // have the span of the `by` clause (of the whole `vs …` clause without it),
  // where an error inside f is reported; the lets have the span of the whole.
  ExprPtr versus(const Node n) const {
    const Span s = span(n);
    const Node clause = n.children().at(1);
    ExprPtr first = expr(n.children().at(0));
    const Node rhs = clause.children().at(0);
    ExprPtr second = rhs.is_type<g::opposed_word>() ? nullptr : expr(rhs);
    ast::Call call;
    call.name = "contest";
    call.name_span = span(clause);
    Span rule_span = span(clause);
    if (clause.children().size() > 1) {
      const Node by = clause.children()[1];
      call.name = by.children().at(0).string();
      call.name_span = span(by.children()[0]);
      rule_span = span(by);
      for (std::size_t i = 1; i < by.children().size(); ++i) {
        const Node a = by.children()[i];
        if (a.is_type<g::named_arg>()) {
          call.arg_names.push_back(a.children().at(0).string());
          call.arg_name_spans.push_back(span(a.children()[0]));
          call.args.push_back(expr(a.children().at(1)));
        } else {
          call.arg_names.emplace_back();
          call.arg_name_spans.emplace_back();
          call.args.push_back(expr(a));
        }
      }
    }
    // The two results come first, as the hidden names.
    for (const std::string_view hidden : {ast::vs_second, ast::vs_first}) {
      call.args.insert(call.args.begin(), make(ast::Name{std::string(hidden), -1, {}}, rule_span));
      call.arg_names.insert(call.arg_names.begin(), std::string());
      call.arg_name_spans.insert(call.arg_name_spans.begin(), Span{});
    }
    ExprPtr rule = make(std::move(call), rule_span);
    // Both lets count as the one level that was written, for the limit on nesting.
    const std::uint32_t depth = std::max({first->depth, second ? second->depth : 0u, rule->depth}) + 1;
    if (!second) second = make(ast::Opposed{first.get(), {}, {}, -1}, s);
    ExprPtr inner = make(ast::Let{std::string(ast::vs_second), -1, std::move(second), std::move(rule)}, s, depth);
    ast::Let outer{std::string(ast::vs_first), -1, std::move(first), std::move(inner)};
    outer.vs = true;
    return make(std::move(outer), s, depth);
  }

  static std::string unescape(std::string_view raw) {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '\\' && i + 1 < raw.size()) {
        const char c = raw[++i];
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
      } else {
        out += raw[i];
      }
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<ast::Program> build_ast(const grammar::ParseTree& tree, const SourceFile& file,
                                        std::size_t max_depth) {
  return Builder(file, max_depth).program(tree);
}

}  // namespace alea
