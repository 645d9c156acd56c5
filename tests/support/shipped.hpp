// tests/support/shipped.hpp — an Engine with one shipped ruleset, or a test's own, loaded
// (loading fails the test run loudly).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

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

// "LINE:COL Code message / note …" for each problem loading `yaml` as rulesets/x.yaml reports.
inline std::vector<std::string> load_problems(std::string_view yaml) {
  Engine en;
  std::vector<std::string> out;
  for (const auto& d : en.load_ruleset_text(yaml, "rulesets/x.yaml", "x")) {
    const LineColumn lc = d.span.file->line_column(d.span.begin);
    std::string line = fmt::format("{}:{} {} {}", lc.line, lc.column, code_name(d.code), d.message);
    for (const auto& n : d.notes) line += " / " + n.message;
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace alea::testing
