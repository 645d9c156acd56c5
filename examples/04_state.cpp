// examples/04_state.cpp — a ruleset's state kept by the host: two characters'
// superiority dice (rulesets/pbta-superiority.yaml), each an alea::State the
// program holds and passes to every roll, with the player's choice for one.
#include <cstdio>
#include <filesystem>
#include <string>

#include "interpreter/api.hpp"

int main(int argc, char** argv) {
  // The shipped rulesets' directory; the test suite passes a file in it.
  const std::filesystem::path dir =
      argc > 1 ? std::filesystem::path(argv[1]).parent_path() : std::filesystem::path("rulesets");
  alea::Engine engine;
  const alea::Diagnostics problems = engine.load_ruleset_file(dir / "pbta-superiority.yaml");
  if (!problems.empty()) {
    std::fputs(alea::render_text(problems).c_str(), stderr);
    return 1;
  }
  const alea::Compiled increase = engine.compile("pbta_superiority.increase(3)");
  const alea::Compiled move = engine.compile("pbta_superiority.move(1)");
  if (!increase.ok() || !move.ok()) return 1;

  // One State per character, kept by the host (a bot would store the JSON).
  alea::State anna, boris;
  // The player decides: Boris keeps his superiority die whatever the policy says.
  alea::Choices keep;
  keep.set("pbta-superiority", "use_superiority", false);

  for (alea::State* sheet : {&anna, &boris}) {
    alea::ScriptedDice none({});
    alea::Outcome o = engine.run(increase.program, {}, none, {sheet, nullptr});
    if (o.ok()) *sheet = *o.state;  // the new state comes back only from a roll that succeeds
  }
  for (alea::State* sheet : {&anna, &boris}) {
    alea::ScriptedDice dice({1, 3});  // both roll 1 and 3: 1 + 3 + 1 = 5, a miss
    const alea::Outcome o = engine.run(move.program, {}, dice, {sheet, sheet == &boris ? &keep : nullptr});
    if (!o.ok()) {
      std::fputs(alea::render_text(*o.error).c_str(), stderr);
      return 1;
    }
    *sheet = *o.state;
    std::printf("%s: total %s, %s, superiority used: %s\n", sheet == &anna ? "Anna" : "Boris",
                alea::to_display(*o.value->field("total")).c_str(), alea::to_display(*o.value->field("tier")).c_str(),
                alea::to_display(*o.value->field("superiority_used")).c_str());
  }
  std::printf("Anna's state: %s\nBoris's state: %s\n", alea::state_to_json(anna).c_str(),
              alea::state_to_json(boris).c_str());
  return 0;
}
