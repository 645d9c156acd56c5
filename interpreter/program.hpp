// interpreter/program.hpp — a parsed and resolved program, ready to run.
//
// Immutable once compiled; shared by shared_ptr between threads and between the
// programs that import its functions (REPL lines, the stdlib).
#pragma once

#include <memory>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/source.hpp"

namespace alea {

struct CompiledProgram {
  std::shared_ptr<const SourceFile> source;
  std::unique_ptr<ast::Program> ast;
  // Programs whose functions this one calls; kept alive with it.
  std::vector<std::shared_ptr<const CompiledProgram>> imports;
  // Further sources its spans point into (a ruleset's expressions, each
  // embedded in the ruleset file).
  std::vector<std::shared_ptr<const SourceFile>> sources;
};

}  // namespace alea
