// dsl/printer.hpp — AST back to canonical source text.
//
// The canonical form spells every modifier as words and parenthesises every
// binary operation, so printing is a fixed point: parse(print(x)) prints as
// print(x). Tests and the fuzzer use this; `alea fmt`-style tools may too.
#pragma once

#include <string>

#include "dsl/ast.hpp"

namespace alea {

[[nodiscard]] std::string print(const ast::Expr& e);
[[nodiscard]] std::string print(const ast::Program& p);

}  // namespace alea
