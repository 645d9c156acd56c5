// tests/support/shipped.hpp — an Engine with one shipped ruleset, or a test's own, loaded
// (loading fails the test run loudly).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

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

// An Engine with the ruleset `yaml` loaded as rulesets/x.yaml (a test's own ruleset).
inline Engine engine_with_text(std::string_view yaml) {
  Engine en;
  const Diagnostics d = en.load_ruleset_text(yaml, "rulesets/x.yaml", "x");
  if (!d.empty()) throw std::runtime_error(render_text(d));
  return en;
}

}  // namespace alea::testing
