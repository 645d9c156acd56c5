// cli/roll.cpp — one roll, as every command that rolls makes it.
#include "cli/roll.hpp"

#include "cli/state_commands.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/ruleset_commands.hpp"

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

std::vector<std::int64_t> parse_dice_list(const std::string& text) {
  std::vector<std::int64_t> faces;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto b = item.find_first_not_of(" \t");
    const auto e = item.find_last_not_of(" \t");
    if (b == std::string::npos) throw UsageError(fmt::format("--dice: empty item in '{}'", text));
    item = item.substr(b, e - b + 1);
    std::int64_t v = 0;
    const auto r = std::from_chars(item.data(), item.data() + item.size(), v);
    if (r.ec != std::errc() || r.ptr != item.data() + item.size()) {
      throw UsageError(fmt::format("--dice: '{}' is not a whole number (expected a list like 6,4,1,3)", item));
    }
    faces.push_back(v);
  }
  if (faces.empty()) throw UsageError("--dice: give at least one face, as in --dice 6,4,1,3");
  return faces;
}

Choices command_choices(const Engine& engine, const RollArgs& a) {
  Choices choices;
  for (const auto& w : a.choose) add_choice(engine, w, choices, "--choose");
  for (const auto& f : a.flags) {
    if (add_flag_choice(engine, f, choices)) continue;
    const auto flags = choice_flags(engine);
    throw UsageError(fmt::format("unknown option '{}'{}; run 'alea roll --help' for the options", f,
                                 flags.empty() ? std::string()
                                               : fmt::format(" (the rulesets used here add {})", fmt::join(flags, ", "))));
  }
  return choices;
}

RollDice roll_dice(const RollArgs& a, std::uint64_t (*unseeded)()) {
  RollDice d;
  if (!a.dice.empty()) {
    auto s = std::make_unique<ScriptedDice>(parse_dice_list(a.dice));
    d.scripted = s.get();
    d.source = std::move(s);
  } else if (a.min || a.max) {
    d.source = std::make_unique<ExtremeDice>(a.min ? ExtremeDice::End::Min : ExtremeDice::End::Max);
  } else {
    d.seed = a.seed ? *a.seed : unseeded();
    d.source = std::make_unique<RandomDice>(*d.seed);
  }
  return d;
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
