// interpreter/rulesets/stdlib.cpp — the embedded standard library sources.
#include "interpreter/rulesets/stdlib.hpp"

namespace alea {

const std::vector<StdlibSource>& stdlib_sources() {
  static const std::vector<StdlibSource> sources = {
#include "stdlib_sources.inc"
  };
  return sources;
}

}  // namespace alea
