// interpreter/rulesets/stdlib.hpp — the standard library's sources, embedded at build
// time from stdlib/*.alea (see stdlib/CMakeLists.txt).
#pragma once

#include <string_view>
#include <vector>

namespace alea {

struct StdlibSource {
  std::string_view name;  // "pools.alea"
  std::string_view text;
};

[[nodiscard]] const std::vector<StdlibSource>& stdlib_sources();

}  // namespace alea
