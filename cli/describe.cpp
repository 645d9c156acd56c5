// cli/describe.cpp — `alea describe NAME[.MECHANIC]` (or NAME.TYPE, a record type) and the REPL's :describe:
// a ruleset's documentation, from what its file declares, as text; with --json, the library's
// alea.describe/1 document (interpreter/render/describe_json.cpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "cli/examples.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "cli/ruleset_commands.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/rulesets/ruleset.hpp"

namespace alea::cli {

namespace {

constexpr std::size_t width = 80;

// `text` wrapped to `width` columns, each line indented by `indent` spaces;
// a line break in the text is kept.
std::string wrap(std::string_view text, std::size_t indent) {
  std::string out;
  const std::string pad(indent, ' ');
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto nl = text.find('\n', pos);
    const std::string_view line =
        text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
    std::string current = pad;
    std::size_t used = indent;  // columns in `current`
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && line[i] == ' ') ++i;
      const auto end = std::min(line.find(' ', i), line.size());
      if (i == end) break;
      const std::string_view word = line.substr(i, end - i);
      if (used > indent && used + 1 + columns(word) > width) {
        out += current + "\n";
        current = pad;
        used = indent;
      }
      if (used > indent) {
        current += ' ';
        ++used;
      }
      current += word;
      used += columns(word);
      i = end;
    }
    out += current + "\n";
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

std::string trim_end(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// "int, default 0, at least 0": what the parameter accepts.
std::string param_attributes(const ParamInfo& p) {
  std::vector<std::string> parts{ast::type_name(p.type)};
  parts.push_back(p.default_value ? "default " + to_display(*p.default_value) : "required");
  const auto& t = p.type;
  if (!t.face.empty())
    parts.push_back((t.kind == ast::TypeSpec::List ? "each a face of a " : "a face of a ") + t.face);
  else if (t.min && t.max)
    parts.push_back(fmt::format("{} to {}", *t.min, *t.max));
  else if (t.min)
    parts.push_back(fmt::format("at least {}", *t.min));
  else if (t.max)
    parts.push_back(fmt::format("at most {}", *t.max));
  if (!t.min_field.empty()) parts.push_back(fmt::format("at least its {}", t.min_field));
  if (!t.max_field.empty()) parts.push_back(fmt::format("at most its {}", t.max_field));
  if (!t.choices.empty()) parts.push_back(fmt::format("one of {}", fmt::join(t.choices, ", ")));
  const auto items = [](std::int64_t n) { return fmt::format("{} item{}", n, n == 1 ? "" : "s"); };
  if (t.min_length && t.max_length && *t.min_length == *t.max_length)
    parts.push_back(items(*t.min_length));
  else if (t.min_length && t.max_length)
    parts.push_back(fmt::format("{} to {}", *t.min_length, items(*t.max_length)));
  else if (t.min_length)
    parts.push_back("at least " + items(*t.min_length));
  else if (t.max_length)
    parts.push_back("at most " + items(*t.max_length));
  // `items: {type: int, min: 0}`: the items' own bounds (a face was said above).
  if (const auto* i = t.items.get(); i && t.face.empty()) {
    if (i->min && i->max) parts.push_back(fmt::format("each {} to {}", *i->min, *i->max));
    else if (i->min) parts.push_back(fmt::format("each at least {}", *i->min));
    else if (i->max) parts.push_back(fmt::format("each at most {}", *i->max));
    if (!i->choices.empty()) parts.push_back(fmt::format("each one of {}", fmt::join(i->choices, ", ")));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string field_attributes(const ast::TypeSpec& t) {
  if (t.choices.empty()) return ast::type_name(t);
  return fmt::format("{}: {}", ast::type_name(t), fmt::join(t.choices, ", "));
}

// "name (attributes)" then its doc, wrapped under it.
void item(std::string& out, std::size_t indent, std::string_view head, std::string_view doc) {
  out += std::string(indent, ' ') + std::string(head) + "\n";
  if (!doc.empty()) out += wrap(doc, indent + 4);
}

void params_text(std::string& out, std::size_t indent, const std::vector<ParamInfo>& params) {
  for (const auto& p : params)
    item(out, indent, fmt::format("{} ({})", p.name, param_attributes(p)), p.doc);
}

// ---- state, choices and tiers ---------------------------------------------------

void state_text(std::string& out, std::size_t indent, const std::vector<StateInfo>& state) {
  for (const auto& s : state) {
    std::string attrs = param_attributes(s);
    if (const auto at = attrs.find("default "); at != std::string::npos) attrs.replace(at, 8, "starts at ");
    if (s.type.min || s.type.max) attrs += s.clamp ? ", a change stops at the bounds" : ", a change past them is an error";
    item(out, indent, fmt::format("{} ({})", s.name, attrs), s.doc);
  }
}

void choices_text(std::string& out, std::size_t indent, const std::vector<ChoiceInfo>& choices) {
  for (const auto& c : choices) {
    ast::TypeSpec t = c.type;
    t.optional = false;
    item(out, indent,
         fmt::format("{} ({}{})", c.name, ast::type_name(t), c.flag.empty() ? "" : ", flag --" + c.flag), c.doc);
  }
}

std::string level_range(const TierScale& t, std::size_t i) {
  const auto& from = t.levels[i].from;
  const std::optional<std::int64_t> to =
      i + 1 < t.levels.size() ? std::optional<std::int64_t>(*t.levels[i + 1].from - 1) : std::nullopt;
  if (!from) return fmt::format("{}-", *to);
  if (!to) return fmt::format("{}+", *from);
  return *from == *to ? fmt::format("{}", *from) : fmt::format("{}–{}", *from, *to);
}

void tiers_text(std::string& out, const std::vector<TierScale>& tiers) {
  for (const auto& t : tiers) {
    out += "\n";
    item(out, 2, fmt::format("{} (functions {}(x), the level; {}_rank(x), from 0)", t.name, t.name, t.name), t.doc);
    for (std::size_t i = 0; i < t.levels.size(); ++i) {
      item(out, 4, fmt::format("{} ({})", t.levels[i].name, level_range(t, i)), t.levels[i].doc);
    }
  }
}

void requirements_text(std::string& out, std::size_t indent, const std::vector<RequirementInfo>& requirements) {
  if (requirements.empty()) return;
  out += std::string(indent, ' ') + "requires, before it runs:\n";
  for (const auto& q : requirements) {
    item(out, indent + 2, q.check,
         q.argument.empty() ? q.message : fmt::format("{} (else refused at the argument '{}')", q.message, q.argument));
  }
}

void changes_text(std::string& out, std::size_t indent, const std::vector<ChangeInfo>& changes) {
  if (changes.empty()) return;
  out += std::string(indent, ' ') + "changes the state:\n";
  for (const auto& c : changes) {
    std::string how = c.op == "reset" ? "reset to its start" : fmt::format("{} {}", c.op, c.value);
    if (!c.when.empty()) how += fmt::format(", when {}", c.when);
    out += fmt::format("{}  {}: {}\n", std::string(indent, ' '), c.counter, how);
  }
}

// An example of the file ("my-game.check dice=3 red=1 --dice 4,5,5,4")
// in the language: "my_game.check(dice: 3, red: 1)". The dice options
// have no place there, so they are left out; `a.b=1 a.c=2` is the record
// argument `a: {b: 1, c: 2}`, as on the command line.
std::string language_form(const Ruleset& r, const MechanicInfo& m, std::string_view example) {
  const std::vector<std::string> words = shell_words(example);
  std::vector<Setting> settings;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const auto& w = words[i];
    if (w.starts_with("--")) {
      if (w == "--dice" || w == "--seed") ++i;  // and its value
      continue;
    }
    if (is_setting(w)) settings.push_back(parse_setting(w));
  }
  std::vector<std::string> args;
  for (const auto& [key, text] : setting_arguments(r, m, settings))
    args.push_back(fmt::format("{}: {}", key, text));
  return fmt::format("{}.{}({})", r.ident, m.name, fmt::join(args, ", "));
}

// A value a required parameter accepts, for an example call; "" if none comes to mind.
std::string sample_value(const ast::TypeSpec& t) {
  if (!t.choices.empty()) return t.choices.front();
  switch (t.kind) {
    case ast::TypeSpec::Int:
      return fmt::format("{}", t.min ? *t.min : t.max ? std::min<std::int64_t>(*t.max, 1) : 1);
    case ast::TypeSpec::Bool:
      return "true";
    default:
      return t.optional ? "none" : "";
  }
}

// The first example of the file; without one, a call with the required
// parameters only, or "" when some cannot be made up.
std::string example_call(const Ruleset& r, const MechanicInfo& m) {
  if (!m.examples.empty()) return m.examples.front().call;
  std::string s = r.name + "." + m.name;
  for (const auto& p : m.params) {
    if (p.default_value) continue;
    if (std::find(m.sides.begin(), m.sides.end(), p.name) != m.sides.end()) {
      for (const auto& f : m.side_fields) {  // a side, field by field
        const std::string v = sample_value(f.type);
        if (v.empty()) return "";
        s += fmt::format(" {}.{}={}", p.name, f.name, v);
      }
      continue;
    }
    if (const TypeInfo* t = r.record_type(p.type)) {  // a declared record type: its required fields
      std::string given;
      for (const auto& f : t->fields) {
        if (f.default_value) continue;
        const std::string v = sample_value(f.type);
        if (v.empty()) return "";
        given += fmt::format(" {}.{}={}", p.name, f.name, v);
      }
      s += given.empty() ? fmt::format(" {}={{}}", p.name) : given;
      continue;
    }
    const std::string v = sample_value(p.type);
    if (v.empty()) return "";
    s += " " + p.name + "=" + v;
  }
  return s;
}

// The declared record types a type names, itself or through `items`.
void types_named(const ast::TypeSpec& t, std::vector<std::string>& out) {
  if (t.record && std::find(out.begin(), out.end(), t.record->name) == out.end()) {
    out.push_back(t.record->name);
    for (const auto& f : t.record->fields) types_named(f.type, out);
  }
  if (t.items) types_named(*t.items, out);
}

// The declared record types the mechanic's parameters take, in the ruleset's order.
std::vector<const TypeInfo*> types_taken(const Ruleset& r, const MechanicInfo& m) {
  std::vector<std::string> names;
  for (const auto& p : m.params) types_named(p.type, names);
  std::vector<const TypeInfo*> out;
  for (const auto& t : r.types) {
    if (std::find(names.begin(), names.end(), t.name) != names.end()) out.push_back(&t);
  }
  return out;
}

void types_text(std::string& out, std::size_t indent, const std::vector<const TypeInfo*>& types) {
  for (const auto* t : types) {
    item(out, indent, fmt::format("a {} is a record of:", t->name), "");
    params_text(out, indent + 2, t->fields);
  }
}

// The short form of the same: a line per type naming its fields (wrapped under a hanging indent),
// then where to read them in full: `alea describe RULESET.TYPE` (unless a mechanic has the type's
// name), or --full.
void types_names_text(std::string& out, const Ruleset& r, const std::vector<const TypeInfo*>& types) {
  if (types.empty()) return;
  std::vector<std::string> reachable;  // the types `alea describe RULESET.TYPE` shows
  for (const auto* t : types) {
    std::vector<std::string> fields;
    for (const auto& f : t->fields) fields.push_back(f.name);
    out += wrap(fmt::format("a {} is a record of {} field{}: {}", t->name, fields.size(), fields.size() == 1 ? "" : "s",
                            fmt::join(fields, ", ")),
                2)
               .substr(2);
    if (!r.mechanic(t->name)) reachable.push_back(t->name);
  }
  if (reachable.empty()) out += "each field in full: add --full\n";
  else if (reachable.size() == 1) out += fmt::format("each field in full: alea describe {}.{} (or add --full)\n", r.name, reachable.front());
  else out += fmt::format("each field in full: alea describe {}.TYPE, as {}.{} (or add --full)\n", r.name, r.name, reachable.front());
}

// `with_ruleset_parameters`: for one mechanic shown alone, the ruleset's
// parameters too, since a call may set them, and the record types its parameters take: their
// fields in full with `types_in_full`, else only their names.
void mechanic_text(std::string& out, const Ruleset& r, const MechanicInfo& m, std::size_t indent,
                   bool with_ruleset_parameters, bool types_in_full = false) {
  const std::string pad(indent, ' ');
  if (!m.params.empty()) {
    out += pad + "parameters, in call order:\n";
    params_text(out, indent + 2, m.params);
  }
  if (!m.sides.empty()) {
    out += fmt::format("{}each side ({}) is a record of:\n", pad, fmt::join(m.sides, ", "));
    params_text(out, indent + 2, m.side_fields);
  }
  if (with_ruleset_parameters && types_in_full) types_text(out, indent, types_taken(r, m));
  else if (with_ruleset_parameters) types_names_text(out, r, types_taken(r, m));
  const auto parameters = read_by(m, r.parameters);
  const auto state = read_by(m, r.state);
  const auto choices = read_by(m, r.choices);
  if (with_ruleset_parameters && !parameters.empty()) {
    out += pad + "parameters of the whole ruleset that it reads, settable on this call too:\n";
    params_text(out, indent + 2, parameters);
  }
  if (with_ruleset_parameters && !state.empty()) {
    out += pad + "the ruleset's state that it reads, from --state FILE, or set on this call:\n";
    state_text(out, indent + 2, state);
  }
  if (with_ruleset_parameters && !choices.empty()) {
    out += pad + "the player's choices it reads (--choose NAME[=VALUE], or set on this call):\n";
    choices_text(out, indent + 2, choices);
  }
  if (!m.result.empty()) {
    out += pad + "result, a record:\n";
    for (const auto& f : m.result) {
      item(out, indent + 2, fmt::format("{} ({})", f.name, field_attributes(f.type)), f.doc);
      for (std::size_t k = 0; k < f.type.choice_docs.size() && k < f.type.choices.size(); ++k) {
        if (!f.type.choice_docs[k].empty()) item(out, indent + 6, f.type.choices[k] + ":", f.type.choice_docs[k]);
      }
    }
  } else if (m.returns) {
    item(out, indent, fmt::format("returns ({})", field_attributes(*m.returns)), m.returns_doc);
  }
  if (!m.refusal_allowed.empty()) {
    out += wrap(fmt::format("refused when {} is false: {} says why, and the call prints that instead of its record",
                            m.refusal_allowed, m.refusal_why),
                indent);
  }
  requirements_text(out, indent, m.requirements);
  changes_text(out, indent, m.changes);
  if (m.sampled_odds) out += pad + "odds: it has no bound: alea stats composes its loops as chains when it can, else samples it\n";
  if (!m.examples.empty()) {
    out += pad + "examples:\n";
    for (const auto& e : m.examples) {
      out += fmt::format("{}  alea roll {}{}\n", pad, e.call,
                         e.inherited_from.empty() ? "" : fmt::format("   # inherited from {}", e.inherited_from));
    }
  }
}

// "  combat: attack, damage, duel, …": one group's mechanics, the
// names wrapped to `width` columns under a hanging indent.
std::string contents_line(const std::string& group, const std::vector<std::string>& names) {
  std::string out;
  std::string current = fmt::format("  {}:", group);
  std::size_t used = columns(current);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string word = names[i] + (i + 1 < names.size() ? "," : "");
    if (used + 1 + columns(word) > width && used > 6) {
      out += current + "\n";
      current = std::string(5, ' ');
      used = 5;
    }
    current += " " + word;
    used += 1 + columns(word);
  }
  return out + current + "\n";
}

// The ruleset's name, title, source, file and doc.
std::string ruleset_head(const Ruleset& r) {
  std::string out =
      fmt::format("{} — {}\nsource: {}\nfile: {}\n", r.name, r.title, trim_end(r.source), r.file);
  if (!r.extends.empty()) {
    std::string changed;
    std::string added;
    for (const auto& o : r.overrides) {
      if (o.starts_with("adds ")) added += (added.empty() ? "" : ", ") + o.substr(5);
      else changed += (changed.empty() ? "" : ", ") + o;
    }
    out += fmt::format("extends {}", r.extends);
    if (!changed.empty()) out += "; overrides: " + changed;
    if (!added.empty()) out += "; adds: " + added;
    out += changed.empty() && added.empty() ? "; changes nothing\n" : "\n";
  }
  if (!r.doc.empty()) {
    out += "\n";
    // The doc is the author's text, line breaks and all: only indented.
    for (std::size_t pos = 0; pos < r.doc.size();) {
      const auto nl = std::min(r.doc.find('\n', pos), r.doc.size());
      const auto line = std::string_view(r.doc).substr(pos, nl - pos);
      out += line.empty() ? "\n" : "  " + std::string(line) + "\n";
      pos = nl + 1;
    }
    out = trim_end(out) + "\n";
  }
  return out;
}

// The groups in the order they first appear; mechanics without one ("") come last.
std::vector<std::string> groups_of(const Ruleset& r) {
  std::vector<std::string> groups;
  for (const auto& m : r.mechanics) {
    if (std::find(groups.begin(), groups.end(), m.group) == groups.end()) groups.push_back(m.group);
  }
  std::stable_partition(groups.begin(), groups.end(), [](const std::string& g) { return !g.empty(); });
  return groups;
}

// Each mechanic of group `g` in full, under a heading when the ruleset has groups.
void group_text(std::string& out, const Ruleset& r, const std::string& g, bool grouped) {
  out += grouped ? fmt::format("\nMechanics: {}\n", g.empty() ? "other" : g) : "\nMechanics:\n";
  for (const auto& m : r.mechanics) {
    if (m.group != g) continue;
    out += "\n";
    item(out, 2, fmt::format("{}.{}", r.name, m.name), m.doc);
    mechanic_text(out, r, m, 4, false);
  }
}

// `--full`: everything the ruleset declares, every mechanic in full.
std::string ruleset_text(const Ruleset& r) {
  std::string out = ruleset_head(r);
  const std::vector<std::string> groups = groups_of(r);
  const bool grouped = !(groups.size() == 1 && groups.front().empty());
  // With several groups, a table of contents first: one line per group.
  if (grouped && groups.size() > 1) {
    out += fmt::format("\nMechanics by group ({}, each described below):\n", r.mechanics.size());
    for (const auto& g : groups) {
      std::vector<std::string> names;
      for (const auto& m : r.mechanics) {
        if (m.group == g) names.push_back(m.name);
      }
      out += contents_line(g.empty() ? "other" : g, names);
    }
  }
  if (!r.types.empty()) {
    out += "\nTypes of records the mechanics take and give:\n";
    for (const auto& t : r.types) {
      item(out, 2, fmt::format("{}: a record of", t.name), t.doc);
      params_text(out, 4, t.fields);
    }
  }
  if (!r.parameters.empty()) {
    out += "\nParameters of the whole ruleset, settable on each mechanic that reads them:\n";
    params_text(out, 2, r.parameters);
  }
  if (!r.state.empty()) {
    out += "\nState kept between rolls (alea roll --state FILE; :state in the REPL):\n";
    state_text(out, 2, r.state);
  }
  if (!r.choices.empty()) {
    out += "\nChoices the player makes after a roll (--choose NAME[=VALUE]; :choose in the REPL):\n";
    choices_text(out, 2, r.choices);
  }
  if (!r.tiers.empty()) {
    out += "\nTiers, lowest first:\n";
    tiers_text(out, r.tiers);
  }
  for (const auto& g : groups) group_text(out, r, g, grouped);
  out +=
      fmt::format("\nalea describe {}.MECHANIC shows one mechanic and how to call it.\n", r.name);
  return out;
}

// The first sentence of `doc` (up to ". " or the end), cut to fit `room` columns.
std::string summary(std::string_view doc, std::size_t room) {
  std::string s(doc.substr(0, std::min(doc.find(". "), doc.find('\n'))));
  if (columns(s) <= room) return s;
  std::string cut;
  for (std::size_t i = 0; i < s.size() && columns(cut) + 1 < room; ++i) {
    cut += s[i];
    while (i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80) cut += s[++i];
  }
  return cut + "…";
}

// A ruleset of several groups, shown short: a line per mechanic, by group, and the names of
// what the whole ruleset declares; `alea describe NAME GROUP` or --full gives the details.
std::string ruleset_contents(const Ruleset& r) {
  std::string out = ruleset_head(r);
  std::size_t name_width = 0;
  for (const auto& m : r.mechanics) name_width = std::max(name_width, columns(m.name));
  out += fmt::format("\nMechanics by group ({}):\n", r.mechanics.size());
  for (const auto& g : groups_of(r)) {
    out += fmt::format("  {}\n", g.empty() ? "other" : g);
    for (const auto& m : r.mechanics) {
      if (m.group != g) continue;
      const std::size_t used = 4 + name_width + 2;
      out += fmt::format("    {}{}  {}\n", m.name, std::string(name_width - columns(m.name), ' '),
                         summary(m.doc, width > used ? width - used : 10));
    }
  }
  const auto names = [](const auto& list) {
    std::vector<std::string> v;
    for (const auto& x : list) v.push_back(x.name);
    return fmt::format("{}", fmt::join(v, ", "));
  };
  std::string declared;
  if (!r.types.empty()) declared += "Types of records:\n" + wrap(names(r.types), 2);
  if (!r.parameters.empty()) declared += "Parameters of the whole ruleset:\n" + wrap(names(r.parameters), 2);
  if (!r.state.empty()) declared += "State kept between rolls:\n" + wrap(names(r.state), 2);
  if (!r.choices.empty()) declared += "Choices after a roll:\n" + wrap(names(r.choices), 2);
  if (!declared.empty()) out += "\n" + declared;
  out += "\n" + wrap(fmt::format("alea describe {} GROUP shows one group's mechanics in full (a group's first "
                                 "word is enough); alea describe {}.MECHANIC one mechanic; --full everything.",
                                 r.name, r.name),
                     0);
  return out;
}

// "my-game.check dice=… [red=0] …": every parameter a call may set.
std::string usage(const Ruleset& r, const MechanicInfo& m) {
  std::string s = r.name + "." + m.name;
  const auto parameters = read_by(m, r.parameters);
  for (const auto* list : {&m.params, &parameters}) {
    for (const auto& p : *list) {
      if (std::find(m.sides.begin(), m.sides.end(), p.name) != m.sides.end()) {
        for (const auto& f : m.side_fields) s += fmt::format(" {}.{}=…", p.name, f.name);
        continue;
      }
      if (r.record_type(p.type)) {  // set field by field; a field left out takes its default
        s += p.default_value ? fmt::format(" [{}.FIELD=…]", p.name) : fmt::format(" {}.FIELD=…", p.name);
        continue;
      }
      s += p.default_value ? fmt::format(" [{}={}]", p.name, to_display(*p.default_value))
                           : " " + p.name + "=…";
    }
  }
  if (!r.state.empty()) s += " [--state FILE]";
  for (const auto& c : read_by(m, r.choices)) {
    if (!c.flag.empty()) s += fmt::format(" [--{}]", c.flag);
  }
  return s;
}

// `alea describe NAME.MECHANIC`; with `full`, the fields of the record types it takes too.
std::string single_mechanic_text(const Ruleset& r, const MechanicInfo& m, bool full) {
  std::string out = fmt::format("{}.{} — {}\n", r.name, m.name, m.doc);
  if (!m.group.empty()) out += fmt::format("group: {}\n", m.group);
  out += fmt::format("ruleset: {} ({})\n\n", r.title, r.file);
  mechanic_text(out, r, m, 0, true, full);
  out += fmt::format("\nusage: alea roll {}\n", usage(r, m));
  const std::string call = example_call(r, m);
  if (!call.empty()) {
    out += fmt::format("call it as: alea roll {}\nin the language: {}\n", call,
                       language_form(r, m, call));
  }
  return out;
}

// `alea describe NAME.TYPE`: a record type's fields in full, and the mechanics that take it.
std::string type_text(const Ruleset& r, const TypeInfo& t) {
  std::string out = fmt::format("{}.{} — a record type{}\n", r.name, t.name, t.doc.empty() ? "" : ": " + t.doc);
  out += fmt::format("ruleset: {} ({})\n\n", r.title, r.file);
  types_text(out, 0, {&t});
  std::vector<std::string> takers;
  for (const auto& m : r.mechanics) {
    const auto taken = types_taken(r, m);
    if (std::find(taken.begin(), taken.end(), &t) != taken.end()) takers.push_back(r.name + "." + m.name);
  }
  if (!takers.empty()) out += "\n" + wrap(fmt::format("taken by: {}", fmt::join(takers, ", ")), 0);
  return out;
}

// The groups `word` names: the one so named, else each whose first part (before " ("), first
// word, or part in brackets is `word`, ignoring ASCII case: "battle" names "battle (битва)",
// "lives" "lives, wounds and healing (жизни, ранения, лечение)".
std::vector<std::string> named_groups(const Ruleset& r, std::string_view word) {
  const std::vector<std::string> groups = groups_of(r);
  if (std::find(groups.begin(), groups.end(), word) != groups.end()) return {std::string(word)};
  const auto same = [](std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
             return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
  };
  std::vector<std::string> out;
  for (const auto& g : groups) {
    const std::string_view v(g);
    const auto open = v.find(" (");
    const std::string_view first = v.substr(0, open);
    const std::string_view bracketed =
        open != std::string_view::npos && v.ends_with(')') ? v.substr(open + 2, v.size() - open - 3) : std::string_view{};
    const std::string_view first_word = first.substr(0, std::min(first.find(' '), first.find(',')));
    if (!g.empty() && (same(first, word) || same(first_word, word) || (!bracketed.empty() && same(bracketed, word)))) {
      out.push_back(g);
    }
  }
  return out;
}

// `alea describe NAME GROUP`: the mechanics of the groups `word` names, in full.
Described group_description(const Ruleset& r, std::string_view word) {
  Described d;
  const std::vector<std::string> groups = named_groups(r, word);
  if (groups.empty()) {
    std::vector<std::string> all = groups_of(r);
    std::erase(all, std::string());
    const std::string near = closest_name(word, all);
    d.error_code = DiagCode::UnknownFunction;
    d.error = all.empty() ? fmt::format("the ruleset {} has no groups: alea describe {} shows every mechanic", r.name, r.name)
                          : fmt::format("the ruleset {} has no group '{}'{}; its groups: {}", r.name, word,
                                        near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near),
                                        fmt::join(all, "; "));
    return d;
  }
  d.text = fmt::format("{} — {}\n", r.name, r.title);
  for (const auto& g : groups) group_text(d.text, r, g, true);
  d.text += fmt::format("\nalea describe {}.MECHANIC shows one mechanic and how to call it;\n"
                        "alea describe {} lists the groups.\n", r.name, r.name);
  return d;
}

}  // namespace

Described describe(std::string_view what, const RulesetPath& path, bool json_out,
                   const Engine* loaded, const DescribeView& given) {
  Described d;
  // "NAME GROUP" or "NAME --full" as one text, as the REPL's :describe passes its words: a
  // ruleset's name has no space in it.
  DescribeView view = given;
  if (const auto space = what.find(' '); space != std::string_view::npos && !is_ruleset_file(what) &&
                                         view.group.empty() && !view.full) {
    const auto from = what.find_first_not_of(' ', space);
    const std::string_view rest = from == std::string_view::npos ? std::string_view{} : what.substr(from);
    if (rest == "--full") view.full = true;
    else view.group = std::string(rest);
    what = what.substr(0, space);
  }
  Engine scratch(engine_options({}, path));
  std::string name(what), mech;
  const Ruleset* r = nullptr;
  if (is_ruleset_file(what)) {
    // A file is described whole: there is no FILE.MECHANIC.
    // What is there but is no regular file (a directory, a FIFO) is refused as such by the loader.
    std::error_code ec;
    if (!std::filesystem::exists(std::string(what), ec)) {
      d.error = fmt::format("cannot read the ruleset file '{}' (is it there?)", what);
      return d;
    }
    d.diagnostics = load_ruleset(scratch, std::string(what));
    if (!d.diagnostics.empty()) return d;
    r = scratch.rulesets().front();
  } else {
    if (const auto dot = what.find('.'); dot != std::string_view::npos) {
      name = what.substr(0, dot);
      mech = what.substr(dot + 1);
    }
    if (loaded) r = loaded->find_ruleset(name);
    if (!r) {
      const auto file = path.find(name);
      if (!file) {
        d.error = no_such_ruleset(name, path, loaded);
        return d;
      }
      d.diagnostics = load_ruleset(scratch, *file, path.origin_of(*file));
      if (!d.diagnostics.empty()) return d;
      r = scratch.find_ruleset(name);
    }
  }
  if (mech.empty()) {
    if (!view.group.empty()) return group_description(*r, view.group);
    const auto groups = groups_of(*r);
    const bool short_form = !view.full && groups.size() > 1;
    d.text = json_out ? describe_ruleset_document(*r) + "\n" : short_form ? ruleset_contents(*r) : ruleset_text(*r);
    return d;
  }
  if (!view.group.empty()) {
    d.error_code = DiagCode::BadUsage;
    d.error = fmt::format("{} is one mechanic: it has no group '{}' to show", what, view.group);
    return d;
  }
  const MechanicInfo* m = r->mechanic(mech);
  const TypeInfo* type = nullptr;
  for (const auto& t : r->types) {
    if (t.name == mech) type = &t;
  }
  if (!m && type) {
    // A record type, which a mechanic's short form names: its fields, in full already.
    if (json_out || view.full) d.error_code = DiagCode::BadUsage;
    if (json_out) {
      d.error = fmt::format("{} is a record type: alea describe {} --json has its fields, under \"types\"", what,
                            r->name);
    } else if (view.full) {
      d.error = fmt::format("{} is a record type, shown in full already: leave out --full", what);
    } else {
      d.text = type_text(*r, *type);
    }
    return d;
  }
  if (!m) {
    std::vector<std::string> names, types;
    for (const auto& x : r->mechanics) names.push_back(x.name);
    for (const auto& t : r->types) types.push_back(t.name);
    std::vector<std::string> all = names;
    all.insert(all.end(), types.begin(), types.end());
    const std::string near = closest_name(mech, all);
    d.error_code = DiagCode::UnknownFunction;
    d.error = fmt::format("the ruleset {} has no mechanic '{}'{}; its mechanics: {}{}", r->name, mech,
                          near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near), fmt::join(names, ", "),
                          types.empty() ? "" : fmt::format("; its record types: {}", fmt::join(types, ", ")));
    return d;
  }
  d.text = json_out ? describe_mechanic_document(*r, *m) + "\n" : single_mechanic_text(*r, *m, view.full);
  return d;
}

int describe_command(std::string_view what, const RulesetPath& path, bool json_out, const DescribeView& view) {
  const Described d = describe(what, path, json_out, nullptr, view);
  if (d.ok()) {
    fmt::print("{}", d.text);
    return exit_ok;
  }
  // With --json, the first problem as alea.error/1 (a broken ruleset's others are on stderr).
  ErrorReport report;
  if (!d.diagnostics.empty()) {
    report = error_report(d.diagnostics.front());
  } else {
    report = {Diagnostic(d.error_code, Span{}, d.error), fmt::format("alea: {}\n", d.error)};
  }
  if (json_out) fmt::print("{}\n", error_document("describe", report));
  std::fflush(stdout);
  std::fputs(d.diagnostics.empty() ? report.rendered.c_str() : render_text(d.diagnostics).c_str(), stderr);
  return d.error_code == DiagCode::BadUsage ? exit_usage : exit_bad_input;
}

}  // namespace alea::cli
