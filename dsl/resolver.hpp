// dsl/resolver.hpp — names to slots, calls to functions, arity checks.
//
// The resolver runs once per program, before it is shared. It writes the
// `slot`, `target`, `builtin` and `fn` fields of the AST and reports every
// problem it finds, not only the first.
#pragma once

#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"

namespace alea {

struct BuiltinSignature {
  std::string name;
  int min_args = 0;
  int max_args = 0;  // -1: any number
};

struct ResolveContext {
  const std::vector<BuiltinSignature>* builtins = nullptr;  // index = builtin id
  // Functions defined elsewhere and visible here (earlier REPL lines, the stdlib),
  // later entries hiding earlier ones of the same name.
  std::vector<const ast::FnDef*> imported;
};

[[nodiscard]] Diagnostics resolve(ast::Program& program, const ResolveContext& context);

// The closest of `candidates` to `name` (edit distance ≤ 2), or "" if none.
[[nodiscard]] std::string closest_name(std::string_view name,
                                       const std::vector<std::string>& candidates);

}  // namespace alea
