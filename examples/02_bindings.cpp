// examples/02_bindings.cpp — one compiled program, many characters: the host
// passes each character's numbers as bindings and reads the trace.
#include <cstdio>

#include "interpreter/api.hpp"

int main() {
  alea::Engine engine;
  alea::Compiled program = engine.compile("attack d20 keep highest 1 + bonus");
  if (!program.ok()) {
    std::fputs(alea::render_text(program.diagnostics).c_str(), stderr);
    return 1;
  }
  struct Character {
    const char* name;
    int attack, bonus;
  };
  for (const Character& c : {Character{"Ariadne", 2, 3}, Character{"Brasidas", 1, 5}}) {
    alea::RandomDice dice(7);  // a fixed seed, so this example prints the same every time
    alea::Outcome o = engine.run(program.program, {{"attack", c.attack}, {"bonus", c.bonus}}, dice);
    if (!o.ok()) {
      std::fputs(alea::render_text(*o.error).c_str(), stderr);
      return 1;
    }
    std::printf("%s: %s\n", c.name, alea::render_breakdown(o).c_str());
    // The trace holds every die, with its fate and the operation behind it.
    for (const alea::DieRecord& die : o.trace.dice) {
      std::printf("  d20 showed %lld (%s)\n", static_cast<long long>(die.face),
                  std::string(alea::fate_name(die.fate)).c_str());
    }
  }
  return 0;
}
