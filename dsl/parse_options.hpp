// dsl/parse_options.hpp — the parser's ceilings, which a host sets through
// EngineOptions::parse (interpreter/api.hpp) without seeing the parser.
#pragma once

#include <cstddef>

namespace alea {

struct ParseOptions {
  std::size_t max_input_bytes = 100'000;  // longer input is refused before parsing
  std::size_t max_nesting = 200;          // brackets, prefix operators and nested forms
};

}  // namespace alea
