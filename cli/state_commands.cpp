// cli/state_commands.cpp — choices from the command line, and a state shown as text.
#include "cli/state_commands.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/ruleset_commands.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/rulesets/ruleset.hpp"

namespace alea::cli {

namespace {

// "bool" for a choice, which admits none only to mean "not decided".
std::string type_text(const ast::TypeSpec& t) {
  ast::TypeSpec shown = t;
  shown.optional = false;
  return ast::type_name(shown);
}

struct FoundChoice {
  const Ruleset* ruleset = nullptr;
  const ChoiceInfo* choice = nullptr;
};

std::vector<std::string> all_choice_names(const Engine& engine) {
  std::vector<std::string> out;
  for (const Ruleset* r : engine.rulesets()) {
    for (const auto& c : r->choices) out.push_back(c.name);
  }
  return out;
}

FoundChoice find_choice(const Engine& engine, std::string_view name, std::string_view command) {
  std::string_view ruleset;
  if (const auto dot = name.find('.'); dot != std::string_view::npos) {
    ruleset = name.substr(0, dot);
    name = name.substr(dot + 1);
  }
  std::vector<FoundChoice> found;
  for (const Ruleset* r : engine.rulesets()) {
    if (!ruleset.empty() && r->ident != ruleset_ident(ruleset)) continue;
    if (const auto* c = r->choice(name)) found.push_back({r, c});
    // Its flag's name is as good as its own: `use-edge`.
    for (const auto& c : r->choices) {
      if (!c.flag.empty() && c.flag == name && c.name != name) found.push_back({r, &c});
    }
  }
  if (found.size() == 1) return found[0];
  if (found.size() > 1) {
    std::vector<std::string> which;
    for (const auto& f : found) which.push_back(fmt::format("{}.{}", f.ruleset->name, name));
    throw UsageError(fmt::format("{}: more than one ruleset has the choice '{}'; write {}", command, name,
                                 fmt::join(which, " or ")));
  }
  const auto names = all_choice_names(engine);
  std::string hint;
  if (const auto near = closest_name(name, names); !near.empty()) {
    hint = fmt::format(" (did you mean '{}'?)", near);
  } else if (names.empty()) {
    hint = "; the rulesets this command uses declare no choices";
  } else {
    hint = fmt::format("; the choices are: {}", fmt::join(names, ", "));
  }
  throw UsageError(fmt::format("{}: there is no choice '{}'{}", command, name, hint));
}

}  // namespace

void add_choice(const Engine& engine, std::string_view word, Choices& into, std::string_view command) {
  const auto eq = word.find('=');
  const std::string_view name = word.substr(0, eq);
  const FoundChoice f = find_choice(engine, name, command);
  const ChoiceInfo& c = *f.choice;
  Value v = true;
  if (eq == std::string_view::npos) {
    if (c.type.kind != ast::TypeSpec::Bool) {
      throw UsageError(fmt::format("{}: the choice '{}' is {}: give its value, as in {}=…", command, c.name,
                                   type_text(c.type), c.name));
    }
  } else {
    const std::string text = argument_text(&c, std::string(word.substr(eq + 1)));
    ScriptedDice no_dice({});
    const Outcome o = engine.roll(text, no_dice);
    if (!o.ok() || !o.value) {
      throw UsageError(fmt::format("{}: '{}' is not a value for the choice '{}' ({}): {}", command,
                                   word.substr(eq + 1), c.name, type_text(c.type),
                                   o.error ? o.error->message : "it gives no value"));
    }
    v = *o.value;
    const auto* s = v.as_str();
    const bool in_choices = !s || c.type.choices.empty() ||
                            std::find(c.type.choices.begin(), c.type.choices.end(), *s) != c.type.choices.end();
    const auto* i = v.as_int();
    const bool in_range = !i || ((!c.type.min || *i >= *c.type.min) && (!c.type.max || *i <= *c.type.max));
    if (!type_admits(c.type, v) || !in_choices || !in_range) {
      throw UsageError(fmt::format("{}: the choice '{}' must be {}, got {}", command, c.name, type_text(c.type),
                                   describe(v)));
    }
  }
  if (const Value* earlier = into.find(f.ruleset->name, c.name); earlier && !(*earlier == v)) {
    throw UsageError(fmt::format("{}: the choice '{}' is decided twice, {} and {}", command, c.name,
                                 to_display(*earlier), to_display(v)));
  }
  into.set(f.ruleset->name, c.name, std::move(v));
}

bool add_flag_choice(const Engine& engine, std::string_view option, Choices& into) {
  if (!option.starts_with("--")) return false;
  std::string_view flag = option.substr(2);
  bool value = true;
  if (flag.starts_with("no-")) {
    flag.remove_prefix(3);
    value = false;
  }
  for (const Ruleset* r : engine.rulesets()) {
    for (const auto& c : r->choices) {
      if (c.flag.empty() || c.flag != flag) continue;
      if (const Value* earlier = into.find(r->name, c.name); earlier && !(*earlier == Value(value))) {
        throw UsageError(fmt::format("{}: the choice '{}' is decided twice, {} and {}", option, c.name,
                                     to_display(*earlier), value));
      }
      into.set(r->name, c.name, value);
      return true;
    }
  }
  return false;
}

std::vector<std::string> choice_flags(const Engine& engine) {
  std::vector<std::string> out;
  for (const Ruleset* r : engine.rulesets()) {
    for (const auto& c : r->choices) {
      if (!c.flag.empty()) out.push_back("--" + c.flag);
    }
  }
  return out;
}

void check_choices_read(const Engine& engine, const Choices& decided, const std::vector<RulesetName>& read,
                        std::string_view what, bool as_options) {
  for (const auto& [ruleset, values] : decided.all()) {
    for (const auto& [name, value] : values) {
      if (std::find(read.begin(), read.end(), RulesetName{ruleset, name}) != read.end()) continue;
      std::string how = as_options ? fmt::format("--choose {}", name) : fmt::format("\"choices\": {}.{}", ruleset, name);
      if (const Ruleset* r = engine.find_ruleset(ruleset); r && as_options) {
        if (const ChoiceInfo* c = r->choice(name); c && !c->flag.empty()) how = "--" + c->flag;
      }
      throw UsageError(fmt::format("{}: {} never reads the choice '{}' of {}: deciding it would change nothing",
                                   how, what, name, ruleset));
    }
  }
}

std::vector<std::string> state_and_choice_arguments(const Ruleset& ruleset, const MechanicInfo& mechanic,
                                                    const State& state, const Choices& choices,
                                                    const std::vector<std::string>& given) {
  std::vector<std::string> out;
  const auto add = [&](const std::string& name, const Value* v) {
    if (!v || std::find(given.begin(), given.end(), name) != given.end()) return;
    // A counter the mechanic never reads is left out; a choice it never reads was refused before.
    if (std::find(mechanic.settable.begin(), mechanic.settable.end(), name) == mechanic.settable.end()) return;
    // A value of a state or a choice is JSON-shaped, and JSON's literals are the language's.
    out.push_back(fmt::format("{}: {}", name, render_value_json(*v)));
  };
  for (const auto& c : ruleset.state) add(c.name, state.find(ruleset.name, c.name));
  for (const auto& c : ruleset.choices) add(c.name, choices.find(ruleset.name, c.name));
  return out;
}

std::string state_text(const Engine& engine, const State& state) {
  std::string out;
  for (const Ruleset* r : engine.rulesets()) {
    for (const auto& [name, v] : state_of(*r, state)) {
      const StateInfo& info = *r->state_counter(name);
      std::string range;
      if (info.type.min && info.type.max) range = fmt::format("{} to {}, ", *info.type.min, *info.type.max);
      else if (info.type.min) range = fmt::format("at least {}, ", *info.type.min);
      else if (info.type.max) range = fmt::format("at most {}, ", *info.type.max);
      out += fmt::format("{}.{} = {}   ({}starts at {}) {}\n", r->name, name, to_display(v), range,
                         to_display(info.default_value.value_or(Value(NoneValue{}))), info.doc);
    }
  }
  return out;
}

std::string state_changes_text(const Engine& engine, const State& before, const State& after) {
  std::string out;
  for (const Ruleset* r : engine.rulesets()) {
    const auto a = state_of(*r, before);
    const auto b = state_of(*r, after);
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
      if (a[i].second == b[i].second) continue;
      out += fmt::format("{}.{}: {} → {}\n", r->name, a[i].first, to_display(a[i].second), to_display(b[i].second));
    }
  }
  return out;
}

std::string choices_text(const Engine& engine, const Choices& decided) {
  std::string out;
  for (const Ruleset* r : engine.rulesets()) {
    for (const auto& c : r->choices) {
      const Value* v = decided.find(r->name, c.name);
      out += fmt::format("{}.{} ({}{}) = {}   {}\n", r->name, c.name, type_text(c.type),
                         c.flag.empty() ? "" : fmt::format(", --{}", c.flag),
                         v ? to_display(*v) : "not decided (the mechanic's policy decides)", c.doc);
    }
  }
  return out;
}

}  // namespace alea::cli
