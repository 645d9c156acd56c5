// cli/roll.cpp — one roll, as every command that rolls makes it.
#include "cli/roll.hpp"

#include "cli/state_commands.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "interpreter/rulesets/ruleset.hpp"

namespace alea::cli {

// A mechanic's record, one field to a line after the call and its dice: on
// one line, `check(…) = {result: 10, success: true, …}` is too long to read. A
// label whose meaning the ruleset states is followed by it: `reason: blocked — the
// way is closed`.
std::string record_breakdown(const Outcome& o, std::int64_t max_bytes, const MechanicInfo* m) {
  const std::string text = render_breakdown(o, max_bytes);
  const auto* record = o.value->as_record();
  if (!record) return text;
  const auto nl = std::min(text.find('\n'), text.size());
  std::string first = text.substr(0, nl);
  const std::string value = " = " + to_display(*o.value, max_bytes);
  if (first.ends_with(value)) first.resize(first.size() - value.size());
  std::string out = first + text.substr(nl);
  for (std::size_t i = 0; i < record->names.size(); ++i) {
    out += fmt::format("\n{}: {}", record->names[i], to_display(record->values[i], max_bytes));
    const auto* label = record->values[i].as_str();
    for (const auto& f : m ? m->result : std::vector<FieldInfo>{}) {
      if (!label || f.name != record->names[i]) continue;
      const auto& t = f.type;
      const auto c = std::find(t.choices.begin(), t.choices.end(), *label);
      const auto k = static_cast<std::size_t>(c - t.choices.begin());
      if (c != t.choices.end() && k < t.choice_docs.size() && !t.choice_docs[k].empty()) out += " — " + t.choice_docs[k];
    }
  }
  return out;
}

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
