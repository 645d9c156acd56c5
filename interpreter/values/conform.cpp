// interpreter/values/conform.cpp — the type walk for values read from files.
#include "interpreter/values/conform.hpp"

namespace alea::detail {
namespace {

struct Problem {
  Diagnostic diagnostic;
};

struct FileHooks {
  [[noreturn]] void fail(Diagnostic d) { throw Problem{std::move(d)}; }
  void charge(Span) {}
  std::optional<Value> field_default(const ast::FieldSpec&) { return std::nullopt; }
  std::int64_t total(const Value&, Span at, const std::string& name) {
    throw Problem{Diagnostic(DiagCode::TypeMismatch, at, fmt::format("{} must be a number, not a pool", name))};
  }
};

}  // namespace

std::optional<std::string> type_problem(const ast::TypeSpec& t, const Value& v, What what) {
  FileHooks hooks;
  try {
    (void)conform_to(hooks, t, v, TypePlace{}, what);
  } catch (Problem& p) {
    return std::move(p.diagnostic.message);
  }
  return std::nullopt;
}

std::optional<Diagnostic> literal_problem(const ast::TypeSpec& t, const Value& v, const ast::Expr& src,
                                          What what) {
  FileHooks hooks;
  try {
    (void)conform_to(hooks, t, v, TypePlace{&src, src.span}, what);
  } catch (Problem& p) {
    return std::move(p.diagnostic);
  }
  return std::nullopt;
}

}  // namespace alea::detail
