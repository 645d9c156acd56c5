// interpreter/eval/builtins.hpp — the functions every program can call.
#pragma once

#include <string>
#include <vector>

#include "dsl/resolver.hpp"

namespace alea {

struct BuiltinDoc {
  std::string name;
  std::string usage;    // "floor_div(a, b)"
  std::string summary;  // one line
};

// Signatures in builtin-id order, for the resolver.
[[nodiscard]] const std::vector<BuiltinSignature>& builtin_signatures();
[[nodiscard]] const std::vector<BuiltinDoc>& builtin_docs();

}  // namespace alea
