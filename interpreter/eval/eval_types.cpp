// interpreter/eval/eval_types.cpp — the evaluator's checks of a value against
// the type a ruleset declares for a parameter, a field or a result. The walk
// itself is interpreter/values/conform.hpp, shared with the exact engine, the
// loader and the state reader; here a problem is a located error, a missing
// field's default is evaluated, and the work is charged.
#include "interpreter/eval/eval_context.hpp"
#include "interpreter/values/conform.hpp"

namespace alea::detail {
namespace {

struct EvalHooks {
  Evaluator& ev;
  [[noreturn]] void fail(Diagnostic d) { throw EvalError{std::move(d)}; }
  void charge(Span at) { ev.charge(1, at); }
  std::optional<Value> field_default(const ast::FieldSpec& f) { return ev.eval(*f.default_value); }
  std::int64_t total(const Value& pool, Span at, const std::string& name) { return ev.to_int(pool, at, name); }
};

}  // namespace

Value Evaluator::conform(const ast::TypeSpec& t, const Value& v, const ast::Expr* src, Span span,
                         const What& what) {
  EvalHooks hooks{*this};
  return conform_to(hooks, t, v, TypePlace{src, span}, what);
}

void Evaluator::check_type(const ast::TypeSpec& t, const Value& v, Span span, const What& what) {
  (void)conform(t, v, nullptr, span, what);
}

}  // namespace alea::detail
