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

// A function defined elsewhere and visible here under `name` (`check`, or
// `my_game.check` for a ruleset's mechanic).
struct ImportedFn {
  std::string name;
  const ast::FnDef* fn = nullptr;
};

struct ResolveContext {
  const std::vector<BuiltinSignature>* builtins = nullptr;  // index = builtin id
  // Functions defined elsewhere and visible here (earlier REPL lines, the stdlib,
  // rulesets), later entries hiding earlier ones of the same name.
  std::vector<ImportedFn> imported;
  // In a ruleset every name must be a local, a parameter or one of the
  // program's constants; elsewhere a free name is the host's to bind at run time.
  bool free_names_are_errors = false;
};

[[nodiscard]] Diagnostics resolve(ast::Program& program, const ResolveContext& context);

// The closest of `candidates` to `name` (edit distance ≤ 2), or "" if none.
[[nodiscard]] std::string closest_name(std::string_view name,
                                       const std::vector<std::string>& candidates);

}  // namespace alea
