// interpreter/rulesets/ruleset_loader_examples.cpp — a mechanic's `examples:`: each a
// command-line call, or a mapping {call: …, expect: …} that states what the call gives.
// The loader checks what it can without running anything: the keys, and that an
// expected value fits the result the mechanic declares. A variant keeps the examples of the
// mechanics it inherits, renamed to call it. `alea check` and `alea test`
// run the calls (cli/examples.cpp).
#include <algorithm>

#include <fmt/format.h>

#include "dsl/resolver.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"
#include "interpreter/rulesets/ruleset_loader_parts.hpp"
#include "interpreter/values/conform.hpp"

namespace alea::detail {

namespace {

// The problem of an expected value against the result `m` declares, or nullopt. A mapping
// expected of a record result names some of its fields, each of which must be one it has.
std::optional<std::pair<Span, std::string>> expect_problem(RulesetReader& r, const YAML::Node& n,
                                                          const MechanicInfo& m) {
  const std::string mechanic = fmt::format("{}.{}", r.ruleset().name, m.name);
  if (m.returns) {
    if (auto p = type_problem(*m.returns, to_value(n), fmt::format("the expected result of {}", mechanic))) {
      return std::pair{r.span_of(n), std::move(*p)};
    }
    return std::nullopt;
  }
  if (m.result.empty()) return std::nullopt;  // the result did not load: reported already
  if (!n.IsMap()) {
    return std::pair{r.span_of(n), fmt::format("{} gives a record: expect a mapping of some of its fields, as in "
                                               "{{{}: …}}",
                                               mechanic, m.result.front().name)};
  }
  std::vector<std::string> names;
  for (const auto& f : m.result) names.push_back(f.name);
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string key = it->first.Scalar();
    const auto f = std::find_if(m.result.begin(), m.result.end(), [&](const FieldInfo& x) { return x.name == key; });
    if (f == m.result.end()) {
      std::string message = fmt::format("the result of {} has no field '{}'", mechanic, key);
      if (const std::string near = closest_name(key, names); !near.empty()) {
        message += fmt::format(" (did you mean '{}'?)", near);
      }
      return std::pair{r.span_of(it->first), std::move(message)};
    }
    if (auto p = type_problem(f->type, to_value(it->second), fmt::format("the expected '{}'", key))) {
      return std::pair{r.span_of(it->second), std::move(*p)};
    }
  }
  return std::nullopt;
}

// An example written in a base ruleset (its call in another file than the variant's): the
// call renamed to call the variant (`my-game.check dice=3` → `my-variant.check dice=3`), and the
// name it had recorded as where it comes from.
void inherit(RulesetReader& r, ExampleInfo& ex) {
  if (ex.call_span.empty() || ex.call_span.file == &r.file() || r.ruleset().name.empty()) return;
  const auto space = ex.call.find_first_of(" \t");
  const std::string first = ex.call.substr(0, space);
  if (!is_mechanic_word(first)) return;  // not a call: run as written, and reported as such
  const auto dot = first.find('.');
  ex.inherited_from = first.substr(0, dot);
  ex.call = r.ruleset().name + ex.call.substr(dot);
}

}  // namespace

void read_examples(RulesetReader& r, const YAML::Node& n, MechanicInfo& m) {
  if (!n.IsSequence()) {
    r.error(DiagCode::RulesetFieldType, r.span_of(n),
            "'examples' must be a list of command-line calls, each a text or a mapping {call: …, expect: …}");
    return;
  }
  for (const auto& e : n) {
    ExampleInfo ex;
    if (e.IsMap()) {
      if (!r.keys(e, r.span_of(e), "an example", {{"call", true}, {"expect", false}})) continue;
      const YAML::Node call = e["call"];
      if (!call) continue;
      const auto text = r.text(call, "an example's 'call'");
      if (!text) continue;
      ex.call = *text;
      ex.call_span = r.span_of(call);
      if (const YAML::Node expect = e["expect"]) {
        ex.expect = to_value(expect);
        ex.expect_span = r.span_of(expect);
        if (auto problem = expect_problem(r, expect, m)) {
          r.error(DiagCode::RulesetInvalidValue, problem->first, std::move(problem->second));
        }
      }
    } else {
      const auto text = r.text(e, "an example");
      if (!text) continue;
      ex.call = *text;
      ex.call_span = r.span_of(e);
    }
    inherit(r, ex);
    m.examples.push_back(std::move(ex));
  }
}

}  // namespace alea::detail
