// cli/roll.cpp — one roll, as every command that rolls makes it.
#include "cli/roll.hpp"

#include "cli/ruleset_commands.hpp"
#include "cli/state_commands.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/ruleset_commands.hpp"

#include "dsl/resolver.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"

namespace alea::cli {

namespace {

// What a label of field `f` means, as the ruleset states it; "" when it does not.
std::string label_doc(const FieldInfo& f, const std::string& label) {
  const auto& t = f.type;
  const auto c = std::find(t.choices.begin(), t.choices.end(), label);
  const auto k = static_cast<std::size_t>(c - t.choices.begin());
  return c != t.choices.end() && k < t.choice_docs.size() ? t.choice_docs[k] : std::string();
}

// The sentence a refused call prints (MechanicInfo::refusal_allowed is false): the `why` field's
// text, each text of its list, or its label's doc; "" when the call was not refused.
std::string refusal(const RecordData& record, const MechanicInfo& m, std::int64_t max_bytes) {
  const auto value = [&](const std::string& name) -> const Value* {
    const auto at = std::find(record.names.begin(), record.names.end(), name);
    return at == record.names.end() ? nullptr : &record.values[static_cast<std::size_t>(at - record.names.begin())];
  };
  const Value* allowed = value(m.refusal_allowed);
  const Value* why = value(m.refusal_why);
  if (!allowed || !allowed->as_bool() || *allowed->as_bool() || !why) return {};
  const auto text = [&](const Value& v) { return v.as_str() ? *v.as_str() : to_display(v, max_bytes); };
  if (const auto* label = why->as_str()) {
    for (const auto& f : m.result) {
      if (f.name == m.refusal_why && !label_doc(f, *label).empty()) return label_doc(f, *label);
    }
    return *label;
  }
  if (const auto* list = why->as_list()) {
    std::vector<std::string> each;
    for (const auto& v : *list) each.push_back(text(v));
    return each.empty() ? fmt::format("{} is false", m.refusal_allowed) : fmt::format("{}", fmt::join(each, "; "));
  }
  return text(*why);
}

}  // namespace

// A mechanic's record, one field to a line after the call and its dice: on
// one line, `check(…) = {result: 10, success: true, …}` is too long to read. A
// label whose meaning the ruleset states is followed by it: `reason: blocked — the
// way is closed`. A call the mechanic's `refusal:` refuses: the sentence that says why.
std::string record_breakdown(const Outcome& o, std::int64_t max_bytes, const MechanicInfo* m,
                             const BreakdownStyle& style) {
  const std::string text = render_breakdown(o, max_bytes, style);
  const auto* record = o.value->as_record();
  if (!record) return text;
  const auto nl = std::min(text.find('\n'), text.size());
  std::string first = text.substr(0, nl);
  const std::string value = " = " + breakdown_total(to_display(*o.value, max_bytes), style);
  if (first.ends_with(value)) first.resize(first.size() - value.size());
  std::string out = first + text.substr(nl);
  // A field to a line: on a line of its own in text, a further line (a list item) in Markdown.
  const std::string_view line = style.format == BreakdownFormat::Text ? "\n" : breakdown_line(style);
  // A call the rules refuse: the sentence that says why, not the record.
  if (const std::string why = m ? refusal(*record, *m, max_bytes) : std::string(); !why.empty()) {
    return out + fmt::format("{}{}", line, breakdown_text("refused: " + why, style));
  }
  for (std::size_t i = 0; i < record->names.size(); ++i) {
    std::string field = fmt::format("{}: {}", record->names[i], to_display(record->values[i], max_bytes));
    const auto* label = record->values[i].as_str();
    for (const auto& f : m ? m->result : std::vector<FieldInfo>{}) {
      if (label && f.name == record->names[i] && !label_doc(f, *label).empty()) field += " — " + label_doc(f, *label);
    }
    out += fmt::format("{}{}", line, breakdown_text(field, style));
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

namespace {

// A variable's value is worked out before the roll and shows no dice: it may roll none.
class NoDice final : public DiceSource {
 public:
  void roll(const DieKind&, std::span<std::int64_t>) override {
    throw DiceSourceError(DiceSourceError::Kind::Exhausted,
                          "a variable's value rolls no dice: write the dice in the expression");
  }
};

// `NAME=` of a word that binds a variable, or "" for a word of the expression.
std::string_view variable_name(std::string_view word) {
  const auto eq = word.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == word.size() || word[eq + 1] == '=') return {};
  const std::string_view name = word.substr(0, eq);
  const bool wordlike = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
  return wordlike ? name : std::string_view{};
}

}  // namespace

std::size_t variable_words_start(const std::vector<std::string>& words) {
  std::size_t start = words.size();
  while (start > 1 && !variable_name(words[start - 1]).empty()) --start;
  return start;
}

Bindings variable_bindings(const Engine& engine, const std::vector<std::string>& words) {
  Bindings out;
  for (const std::string& w : words) {
    const auto eq = w.find('=');
    std::string name = w.substr(0, eq);
    if (eq == std::string::npos || !alea::detail::is_identifier(name) || eq + 1 == w.size()) {
      throw UsageError(fmt::format("'{}' is not NAME=VALUE with a variable name (a letter or '_' first, then "
                                   "letters, digits and '_')", w));
    }
    const std::string value = w.substr(eq + 1);
    if (out.find(name)) throw UsageError(fmt::format("'{}': the variable '{}' is given twice", w, name));
    NoDice none;
    const Outcome o = engine.roll(value, none);
    if (!o.ok()) throw UsageError(fmt::format("'{}': {}", w, o.error->message));
    if (!o.value) throw UsageError(fmt::format("'{}': the value gives nothing (write an expression)", w));
    out.set(std::move(name), *o.value);
  }
  return out;
}

void check_variables_read(const Compiled& program, const Bindings& variables) {
  const std::vector<std::string> read = host_names_read(program);
  for (const auto& [name, value] : variables.all()) {
    if (std::find(read.begin(), read.end(), name) != read.end()) continue;
    const std::string near = closest_name(name, read);
    throw UsageError(fmt::format("the variable '{}' is given but the expression never reads it{}", name,
                                 !near.empty() ? fmt::format(" (did you mean '{}'?)", near)
                                 : read.empty() ? std::string(" (it reads no variables)")
                                                : fmt::format(" (it reads {})", fmt::join(read, ", "))));
  }
}

std::string with_variables(std::string doc, const Bindings& variables, std::int64_t max_bytes) {
  std::string field = ",\"variables\":{";
  for (const auto& [name, value] : variables.all()) {
    // A name is a name of the language: nothing in it needs escaping.
    field += fmt::format("{}\"{}\":{}", field.back() == '{' ? "" : ",", name, render_value_json(value, max_bytes));
  }
  doc.insert(doc.size() - 1, field + "}");
  return doc;
}

RollRun roll_once(const Engine& engine, const RollInput& in) {
  RollRun r;
  r.compiled = engine.compile(in.source, in.name);
  if (!r.compiled.ok()) {
    r.outcome.error = r.compiled.diagnostics.front();
    return r;
  }
  if (in.choices) check_choices_read(engine, *in.choices, choices_read(r.compiled), in.what, in.choices_as_options);
  if (in.variables) check_variables_read(r.compiled, *in.variables);
  r.outcome = engine.run(r.compiled.program, in.variables ? *in.variables : Bindings{}, *in.dice,
                         {in.state, in.choices, in.cancel});
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
