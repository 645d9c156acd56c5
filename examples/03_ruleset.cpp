// examples/03_ruleset.cpp — load a shipped ruleset, call one of its mechanics
// with the host's arguments, and read the fields of its record result.
#include <cstdio>
#include <string>

#include "interpreter/api.hpp"

int main(int argc, char** argv) {
  // The ruleset file; the test suite passes the repository's copy.
  const std::string file = argc > 1 ? argv[1] : "rulesets/heroes-mythos.yaml";
  alea::Engine engine;
  const alea::Diagnostics problems = engine.load_ruleset_file(file, "rulesets/heroes-mythos.yaml");
  if (!problems.empty()) {  // every mistake in the file, each with its line and column
    std::fputs(alea::render_text(problems).c_str(), stderr);
    return 1;
  }
  // Load first, then compile: a mechanic is a function named ruleset.mechanic.
  alea::Compiled check = engine.compile("heroes_mythos.check(dice, red: red)");
  if (!check.ok()) {
    std::fputs(alea::render_text(check.diagnostics).c_str(), stderr);
    return 1;
  }
  for (int red = 0; red <= 2; ++red) {
    alea::RandomDice dice(7);  // a fixed seed, so this example prints the same every time
    alea::Outcome o = engine.run(check.program, {{"dice", 3}, {"red", red}}, dice);
    if (!o.ok()) {
      std::fputs(alea::render_text(*o.error).c_str(), stderr);
      return 1;
    }
    const alea::Value& r = *o.value;  // {result, success, extra_successes, catastrophe, outcome}
    std::printf("3 white, %d red: result %s, %s, %s extra\n", red, alea::to_display(*r.field("result")).c_str(),
                alea::to_display(*r.field("outcome")).c_str(),
                alea::to_display(*r.field("extra_successes")).c_str());
  }
  return 0;
}
