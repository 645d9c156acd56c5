// dsl/parser.hpp — text to ast::Program.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"
#include "dsl/parse_options.hpp"
#include "dsl/source.hpp"

namespace alea {

struct ParseResult {
  std::unique_ptr<ast::Program> program;  // null when parsing failed
  Diagnostics diagnostics;               // at most one: the parser stops at the first error
  [[nodiscard]] bool ok() const { return program != nullptr; }
};

// Parses one source. Never throws for bad input; the error, if any, is in
// ParseResult::diagnostics, with at_end_of_input set when more text could fix it.
[[nodiscard]] ParseResult parse(const SourceFile& file, const ParseOptions& options = {});

// The reserved words of the language, for completion and documentation.
[[nodiscard]] const std::vector<std::string>& keywords();

namespace detail {
// Builds the AST from PEGTL's parse tree; defined in ast_builder.cpp.
struct BuildError {
  Diagnostic diagnostic;
};
}  // namespace detail

}  // namespace alea
