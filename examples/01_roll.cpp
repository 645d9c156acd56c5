// examples/01_roll.cpp — the smallest embedding: compile once, roll with a seed,
// print the breakdown; then the same roll with dice a player rolled by hand.
#include <cstdio>

#include "interpreter/api.hpp"

int main() {
  alea::Engine engine;  // default limits, safe for untrusted input

  // 1. One line: compile and roll with a fixed seed (same seed, same dice).
  alea::Outcome o = engine.roll("4d6 keep highest 3", 42);
  std::printf("%s\n", alea::render_breakdown(o).c_str());

  // 2. Compile once, run many times with different dice sources.
  alea::Compiled program = engine.compile("3d6 explode 6");
  if (!program.ok()) {
    std::fputs(alea::render_text(program.diagnostics).c_str(), stderr);
    return 1;
  }
  alea::ScriptedDice table_dice({6, 4, 1, 3});  // the faces the player called out
  alea::Outcome scripted = engine.run(program.program, {}, table_dice);
  std::printf("%s\n", alea::render_breakdown(scripted).c_str());
  std::printf("total: %lld\n", static_cast<long long>(*scripted.value->number()));

  // 3. Errors are values, never exceptions or crashes.
  alea::Outcome bad = engine.roll("3d6 +", 1);
  std::printf("%s", alea::render_text(*bad.error).c_str());
  return 0;
}
