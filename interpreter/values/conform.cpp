// interpreter/values/conform.cpp — the type walk for values read from files.
#include "interpreter/values/conform.hpp"

namespace alea::detail {
namespace {

struct Problem {
  std::string message;
};

struct FileHooks {
  [[noreturn]] void fail(Diagnostic d) { throw Problem{std::move(d.message)}; }
  void charge(Span) {}
  std::optional<Value> field_default(const ast::FieldSpec&) { return std::nullopt; }
  std::int64_t total(const Value&, Span, const std::string& name) {
    throw Problem{fmt::format("{} must be a number, not a pool", name)};
  }
};

}  // namespace

std::optional<std::string> type_problem(const ast::TypeSpec& t, const Value& v, std::string_view what) {
  FileHooks hooks;
  try {
    (void)conform_to(hooks, t, v, TypePlace{}, what);
  } catch (Problem& p) {
    return std::move(p.message);
  }
  return std::nullopt;
}

}  // namespace alea::detail
