// fuzz/fuzz_ruleset.cpp — libFuzzer harness: load a ruleset file; every problem
// comes back as diagnostics with a renderable position, and a ruleset that
// loads has mechanics that compile and run (or fail cleanly) under tight limits.
// Also: written_nodes_bound, which lets the loader build the tree without counting the
// parser's events first, is never below the count of those events.
#include <cstdint>
#include <string>

#include "interpreter/api.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/yaml_bounds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16384) return 0;
  const std::string yaml(reinterpret_cast<const char*>(data), size);
  try {
    const auto over = alea::yaml_event_overflow(yaml, {alea::written_nodes_bound(yaml), SIZE_MAX});
    if (over && !over->too_deep) __builtin_trap();
  } catch (const YAML::Exception&) {
    // not YAML, or nested past yaml-cpp's own guard: no count to compare
  }
  alea::EngineOptions options;
  options.limits.max_dice = 200;
  options.limits.max_steps = 20'000;
  options.limits.max_loop_iterations = 200;
  options.limits.max_collection_size = 200;
  alea::Engine engine(options);
  const alea::Diagnostics problems = engine.load_ruleset_text(yaml, "fuzz.yaml");
  if (!problems.empty()) {
    if (alea::render_text(problems).empty()) __builtin_trap();
    if (!engine.rulesets().empty()) __builtin_trap();  // nothing from a broken ruleset
    return 0;
  }
  const alea::Ruleset* r = engine.rulesets().at(0);
  for (const auto& m : r->mechanics) {
    const alea::Compiled c = engine.compile(r->ident + "." + m.name + "()");
    if (!c.ok()) continue;  // it has required parameters
    alea::RandomDice dice(7);
    const alea::Outcome o = engine.run(c.program, {}, dice);
    if (o.ok() == o.error.has_value()) __builtin_trap();
    (void)alea::render_breakdown(o);
    (void)alea::render_json(o, "fuzz");
  }
  return 0;
}
