// dsl/printer.cpp — canonical source for every node kind.
#include "dsl/printer.hpp"

#include <fmt/format.h>

#include "dsl/ast_walk.hpp"

namespace alea {
namespace ast {

std::string_view spelling(CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return "=";
    case CmpOp::Ne: return "<>";
    case CmpOp::Lt: return "<";
    case CmpOp::Le: return "<=";
    case CmpOp::Gt: return ">";
    case CmpOp::Ge: return ">=";
  }
  throw std::logic_error("unreachable: CmpOp");
}

std::string type_name(const TypeSpec& t) {
  std::string base;
  switch (t.kind) {
    case TypeSpec::Any: base = "any"; break;
    case TypeSpec::Int: base = "int"; break;
    case TypeSpec::Bool: base = "bool"; break;
    case TypeSpec::Str: base = "string"; break;
    case TypeSpec::Label: base = "label"; break;
    case TypeSpec::List: base = "list"; break;
    case TypeSpec::Record: base = "record"; break;
    case TypeSpec::Pool: base = "pool"; break;
  }
  if (t.record) base = t.record->name;
  // `list?` with items: "list? of int", which `list of int?` would misread as optional items.
  if (t.items) return (t.optional ? "list? of " : "list of ") + type_name(*t.items);
  return t.optional ? base + "?" : base;
}

std::string_view spelling(BinOp op) {
  switch (op) {
    case BinOp::Add: return "+";
    case BinOp::Sub: return "-";
    case BinOp::Mul: return "*";
    case BinOp::Div: return "/";
    case BinOp::Mod: return "%";
    case BinOp::Eq: return "==";
    case BinOp::Ne: return "!=";
    case BinOp::Lt: return "<";
    case BinOp::Le: return "<=";
    case BinOp::Gt: return ">";
    case BinOp::Ge: return ">=";
    case BinOp::And: return "and";
    case BinOp::Or: return "or";
  }
  throw std::logic_error("unreachable: BinOp");
}

}  // namespace ast

namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string arg(const ast::Expr& e);

std::string cond(const ast::Cond& c) { return fmt::format("{}{}", ast::spelling(c.op), arg(*c.value)); }

// Modifier arguments must be a number, a name or a parenthesised expression.
std::string arg(const ast::Expr& e) {
  if (const auto* i = std::get_if<ast::IntLit>(&e.kind)) return fmt::format("{}", i->value);
  if (std::holds_alternative<ast::Name>(e.kind) || std::holds_alternative<ast::NoneLit>(e.kind)) return print(e);
  return "(" + print(e) + ")";
}

// Any operation, from its row of dsl/pool_ops.def.
std::string pool_op(const ast::PoolOp& op) {
  const PoolOpInfo& info = pool_op_info(op.id);
  std::string s(info.written);
  std::size_t i = 0;
  for (const PoolOpPart& part : info.parts) {
    if (part.kind == PoolOpPart::None) break;
    if (part.kind == PoolOpPart::Word) {
      s += fmt::format(" {}", part.text);
      continue;
    }
    const ast::Cond& p = op.param(i++);
    if (!p.value) continue;
    s += ' ';
    if (!part.text.empty()) s += fmt::format("{} ", part.text);
    switch (part.kind) {
      case PoolOpPart::Cond: s += cond(p); break;
      case PoolOpPart::Number: s += arg(*p.value); break;
      case PoolOpPart::Pool: s += fmt::format("{}{}", arg(*p.value), ast::spelling(p.op)); break;
      case PoolOpPart::None:
      case PoolOpPart::Word: break;
    }
  }
  return s;
}

std::string tier_test(const ast::TierTest& t) {
  switch (t.kind) {
    case ast::TierTest::Else: return "else";
    case ast::TierTest::Range: return arg(*t.low) + ".." + arg(*t.high);
    case ast::TierTest::Cmp: return fmt::format("{}{}", ast::spelling(t.op), arg(*t.low));
  }
  throw std::logic_error("unreachable: TierTest");
}

template <class Items>
std::string join(const Items& items) {
  std::string s;
  for (const auto& i : items) {
    if (!s.empty()) s += ", ";
    s += print(*i);
  }
  return s;
}

// A desugared `vs` (ast.hpp, Opposed) as it was written: `(A vs B by f(x))`,
// `(E vs opposed)`; without `by` when it calls `contest` with the two alone.
std::string versus(const ast::Let& first) {
  const auto& second = std::get<ast::Let>(first.body->kind);
  const auto& rule = std::get<ast::Call>(second.body->kind);
  const bool opposed = std::holds_alternative<ast::Opposed>(second.value->kind);
  std::string s = "(" + print(*first.value) + " vs " + (opposed ? "opposed" : print(*second.value));
  if (rule.name != "contest" || rule.args.size() != 2) {
    s += " by " + rule.name;
    if (rule.args.size() > 2) {
      std::string args;
      for (std::size_t i = 2; i < rule.args.size(); ++i) {
        if (i > 2) args += ", ";
        if (!rule.arg_names[i].empty()) args += rule.arg_names[i] + ": ";
        args += print(*rule.args[i]);
      }
      s += "(" + args + ")";
    }
  }
  return s + ")";
}

}  // namespace

std::string print(const ast::Expr& e) {
  return std::visit(
      [](const auto& k) -> std::string {
        using T = std::decay_t<decltype(k)>;
        if constexpr (std::is_same_v<T, ast::IntLit>) {
          return k.value < 0 ? fmt::format("({})", k.value) : fmt::format("{}", k.value);
        } else if constexpr (std::is_same_v<T, ast::BoolLit>) {
          return k.value ? "true" : "false";
        } else if constexpr (std::is_same_v<T, ast::StrLit>) {
          return quote(k.value);
        } else if constexpr (std::is_same_v<T, ast::NoneLit>) {
          return "none";
        } else if constexpr (std::is_same_v<T, ast::Name>) {
          return k.name;
        } else if constexpr (std::is_same_v<T, ast::Dice>) {
          std::string s = k.count ? "(" + print(*k.count) + ")" : "";
          switch (k.shape) {
            case ast::DieShape::Sides: return s + "d(" + print(*k.sides) + ")";
            case ast::DieShape::Percent: return s + "d%";
            case ast::DieShape::Fudge: return s + "dF";
            case ast::DieShape::Faces: {
              std::string f;
              for (auto v : k.faces) f += (f.empty() ? "" : ",") + fmt::format("{}", v);
              return s + "d{" + f + "}";
            }
          }
          throw std::logic_error("unreachable: DieShape");
        } else if constexpr (std::is_same_v<T, ast::PoolOp>) {
          return "(" + print(*k.pool) + " " + pool_op(k) + ")";
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          return k.op == ast::UnOp::Neg ? "(-" + print(*k.operand) + ")" : "(not " + print(*k.operand) + ")";
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          return fmt::format("({} {} {})", print(*k.lhs), ast::spelling(k.op), print(*k.rhs));
        } else if constexpr (std::is_same_v<T, ast::If>) {
          return fmt::format("(if {} then {} else {})", print(*k.cond), print(*k.then_), print(*k.else_));
        } else if constexpr (std::is_same_v<T, ast::Let>) {
          if (k.vs) return versus(k);
          return fmt::format("(let {} = {} in {})", k.name, print(*k.value), print(*k.body));
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          std::string args;
          for (std::size_t i = 0; i < k.args.size(); ++i) {
            if (i) args += ", ";
            if (i < k.arg_names.size() && !k.arg_names[i].empty()) args += k.arg_names[i] + ": ";
            args += print(*k.args[i]);
          }
          return fmt::format("{}({})", k.name, args);
        } else if constexpr (std::is_same_v<T, ast::ListLit>) {
          return "[" + join(k.items) + "]";
        } else if constexpr (std::is_same_v<T, ast::RecordLit>) {
          std::string s;
          for (std::size_t i = 0; i < k.names.size(); ++i) {
            s += (i ? ", " : "") + k.names[i] + ": " + print(*k.values[i]);
          }
          return "{" + s + "}";
        } else if constexpr (std::is_same_v<T, ast::Index>) {
          return fmt::format("{}[{}]", print(*k.object), print(*k.index));
        } else if constexpr (std::is_same_v<T, ast::Field>) {
          return fmt::format("{}.{}", print(*k.object), k.name);
        } else if constexpr (std::is_same_v<T, ast::Opposed>) {
          return "opposed";  // printed within its `vs`
        } else if constexpr (std::is_same_v<T, ast::Tiers>) {
          std::string s;
          for (const auto& t : k.tiers) {
            s += (s.empty() ? "" : ", ") + tier_test(t.test) + ": (" + print(*t.result) + ")";
          }
          return fmt::format("({} tiers {{{}}})", print(*k.subject), s);
        } else if constexpr (std::is_same_v<T, ast::Repeat>) {
          return fmt::format("(repeat {} {{{}}})", print(*k.count), print(*k.body));
        } else if constexpr (std::is_same_v<T, ast::For>) {
          return fmt::format("(for {} in {} {{{}}})", k.var, print(*k.list), print(*k.body));
        } else if constexpr (std::is_same_v<T, ast::Loop>) {
          return fmt::format("(loop {} = {} {} {} {{{}}})", k.var, print(*k.init),
                             k.until ? "until" : "while", print(*k.cond), print(*k.next));
        } else {
          static_assert(ast::dependent_false<T>, "print: an expression kind left out");
        }
      },
      e.kind);
}

std::string print(const ast::Program& p) {
  std::string s;
  for (const auto& st : p.statements) {
    if (const auto* fn = std::get_if<ast::FnDef>(&st)) {
      std::string params;
      for (std::size_t i = 0; i < fn->params.size(); ++i) {
        params += (i ? ", " : "") + fn->params[i];
        if (i < fn->defaults.size() && fn->defaults[i]) params += " = " + print(*fn->defaults[i]);
      }
      s += fmt::format("fn {}({}) = {}\n", fn->name, params, print(*fn->body));
    } else {
      const auto& let = std::get<ast::GlobalLet>(st);
      s += fmt::format("let {} = {}\n", let.name, print(*let.value));
    }
  }
  if (p.main) s += print(*p.main) + "\n";
  return s;
}

}  // namespace alea
