// tests/support/shipped.hpp — an Engine with one shipped ruleset loaded, built
// once per test binary (loading fails the test run loudly).
#pragma once

#include <stdexcept>
#include <string>

#include "interpreter/api.hpp"

namespace alea::testing {

// `name` is the file name without .yaml: "heroes-mythos".
inline Engine engine_with_ruleset(const std::string& name) {
  Engine en;
  const std::string shown = "rulesets/" + name + ".yaml";
  const Diagnostics d = en.load_ruleset_file(std::string(ALEA_SOURCE_DIR) + "/" + shown, shown);
  if (!d.empty()) throw std::runtime_error(render_text(d));
  return en;
}

}  // namespace alea::testing
