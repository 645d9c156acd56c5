// examples/consumer/by_name.cpp — a ruleset loaded by name, as an installed program finds it:
// $ALEA_PATH first, then the rulesets installed with the library. Prints where it came from
// and one roll of its mechanic.
#include <cstdio>

#include "interpreter/api.hpp"

int main() {
  alea::Engine engine;
  const alea::Diagnostics problems = engine.load_ruleset("heroes-mythos");
  if (!problems.empty()) {
    std::fputs(alea::render_text(problems).c_str(), stderr);
    return 1;
  }
  std::printf("%s\n", engine.find_ruleset("heroes-mythos") ? alea::ruleset_summary(*engine.find_ruleset("heroes-mythos")).file.c_str() : "?");
  const alea::Outcome o = engine.roll("heroes_mythos.check(3, red: 1)", 7);
  std::printf("%s\n", o.ok() ? alea::render_breakdown(o).c_str() : alea::render_text(*o.error).c_str());
  return o.ok() ? 0 : 1;
}
