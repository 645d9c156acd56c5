// cli/roll.cpp — one roll, as every command that rolls makes it.
#include "cli/roll.hpp"

#include "cli/state_commands.hpp"

namespace alea::cli {

RollRun roll_once(const Engine& engine, const RollInput& in) {
  RollRun r;
  r.compiled = engine.compile(in.source, in.name);
  if (!r.compiled.ok()) {
    r.outcome.error = r.compiled.diagnostics.front();
    return r;
  }
  if (in.choices) check_choices_read(engine, *in.choices, choices_read(r.compiled), in.what, in.choices_as_options);
  r.outcome = engine.run(r.compiled.program, {}, *in.dice, {in.state, in.choices, in.cancel});
  if (r.outcome.ok() && !r.outcome.unused_dice.empty()) {
    r.outcome = refuse_unused_dice(std::move(r.outcome), in.source, in.name, in.scripted ? in.scripted->used() : 0,
                                   in.give_none);
  }
  if (in.state) r.what_if = counters_set(r.compiled);
  return r;
}

// The first `,"ok":` of the text is the key's, since the expression before it is a JSON string,
// whose quotes are escaped; the length of the stand-in is no test, as it holds the expression,
// which may be long.
bool refused_json(const std::string& doc) {
  const auto at = doc.find(",\"ok\":");
  return at != std::string::npos && doc.compare(at, 11, ",\"ok\":false") == 0;
}

}  // namespace alea::cli
