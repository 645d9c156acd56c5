// cli/ruleset_commands.cpp — `alea rulesets`, `alea check`, and a mechanic called
// from the command line (`alea roll my-game.check dice=3 red=1`).
#include "cli/ruleset_commands.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "cli/examples.hpp"
#include "cli/exit_codes.hpp"
#include "cli/file_mechanic.hpp"
#include "cli/record_args.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/io/read_file.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"

namespace alea::cli {

namespace fs = std::filesystem;

std::vector<std::string> mechanic_names(const Ruleset& r) {
  std::vector<std::string> out;
  for (const auto& m : r.mechanics) out.push_back(m.name);
  return out;
}

namespace {

using alea::detail::is_identifier;

}  // namespace

const ParamInfo* find_ruleset_param(const Ruleset& r, std::string_view name) {
  for (const auto& p : r.parameters) {
    if (p.name == name) return &p;
  }
  if (const auto* s = r.state_counter(name)) return s;
  if (const auto* c = r.choice(name)) return c;
  return nullptr;
}

const ParamInfo* find_param(const Ruleset& r, const MechanicInfo& m, std::string_view name) {
  for (const auto& p : m.params) {
    if (p.name == name) return &p;
  }
  if (std::find(m.settable.begin(), m.settable.end(), name) == m.settable.end()) return nullptr;
  return find_ruleset_param(r, name);
}

std::string argument_text(const ParamInfo* p, const std::string& value) {
  // `stat=+1`: the sign a sheet writes; the language has no unary plus.
  if (value.size() > 1 && value[0] == '+' && std::isdigit(static_cast<unsigned char>(value[1]))) {
    return argument_text(p, value.substr(1));
  }
  const bool textual =
      p && (p->type.kind == ast::TypeSpec::Label || p->type.kind == ast::TypeSpec::Str);
  // `none` is the value none only where the parameter admits it and has no
  // choice of that name (`no_hit_push=none` is the label "none").
  const bool none_value =
      value == "none" &&
      !(textual && (!p->type.optional || std::find(p->type.choices.begin(), p->type.choices.end(),
                                                   "none") != p->type.choices.end()));
  if (textual && is_identifier(value) && !none_value && value != "true" && value != "false") {
    return fmt::format("\"{}\"", value);
  }
  return value;
}

std::string closest_ruleset(std::string_view name, const RulesetPath& path, const Engine* loaded) {
  std::vector<std::string> names;
  for (const auto& e : path.all()) names.push_back(e.name);
  if (loaded) {
    for (const Ruleset* r : loaded->rulesets()) names.push_back(r->name);
  }
  // my_game is as near to my-game as the name itself.
  std::string near = closest_name(name, names);
  if (near.empty()) {
    std::string dashed(name);
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    near = closest_name(dashed, names);
  }
  return near;
}

std::string no_such_ruleset(std::string_view name, const RulesetPath& path, const Engine* loaded) {
  const std::string near = closest_ruleset(name, path, loaded);
  return fmt::format("there is no ruleset '{}'{}; 'alea rulesets' lists them", name,
                     near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near));
}

// ---- alea rulesets --------------------------------------------------------------

std::string rulesets_text(const RulesetPath& path, const Engine* loaded) {
  std::string out;
  std::vector<std::string> listed;
  for (const auto& e : path.all()) {
    const std::string shown = display_path(e.file);
    Engine engine(engine_options({}, path));
    const Ruleset* r = nullptr;
    if (load_ruleset(engine, e.file, path.origin_of(e.file)).empty()) r = engine.find_ruleset(e.name);
    const bool is_loaded = loaded && loaded->find_ruleset(e.name);
    listed.push_back(ruleset_ident(e.name));
    if (!r) {
      out += fmt::format("{} (has errors; run: alea check {})\n", e.name, shown);
      continue;
    }
    out += fmt::format("{} — {}{}\n  mechanics: {}\n  file: {}\n", r->name, r->title,
                       is_loaded ? " (loaded)" : "", fmt::join(mechanic_names(*r), ", "), shown);
  }
  if (loaded) {
    for (const Ruleset* r : loaded->rulesets()) {
      if (std::find(listed.begin(), listed.end(), r->ident) != listed.end()) continue;
      out += fmt::format("{} — {} (loaded)\n  mechanics: {}\n  file: {}\n", r->name, r->title,
                         fmt::join(mechanic_names(*r), ", "), r->file);
    }
  }
  if (out.empty()) {
    std::vector<std::string> dirs;
    for (const auto& d : path.dirs()) dirs.push_back(display_path(d));
    out = fmt::format(
        "no rulesets found; looked in: {}\n(add a directory with --rulesets DIR or ALEA_PATH)\n",
        dirs.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(dirs, ", ")));
  }
  return out;
}

int rulesets_command(const RulesetPath& path, bool json) {
  if (!json) {
    fmt::print("{}", rulesets_text(path));
    return exit_ok;
  }
  // One engine per ruleset: each is listed as it loads on its own.
  const auto found = path.all();
  std::vector<Engine> engines;
  engines.reserve(found.size());
  for (std::size_t i = 0; i < found.size(); ++i) engines.emplace_back(engine_options({}, path));
  std::vector<ListedRuleset> list;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const auto& e = found[i];
    const bool ok = load_ruleset(engines[i], e.file, path.origin_of(e.file)).empty();
    list.push_back({e.name, display_path(e.file), ok ? engines[i].find_ruleset(e.name) : nullptr});
  }
  fmt::print("{}\n", rulesets_document(list));
  return exit_ok;
}

// ---- alea check -----------------------------------------------------------------

namespace {

// The text of `name` ("-": standard input), or why it cannot be read.
FileText read_file(const std::string& name, const Limits& limits) {
  const auto max_bytes = static_cast<std::size_t>(limits.max_file_bytes);
  return name == "-" ? read_fd_capped(0, max_bytes) : read_file_capped(name, max_bytes);
}

bool is_yaml(std::string_view file) { return file.ends_with(".yaml") || file.ends_with(".yml"); }

}  // namespace

Diagnostics load_mentioned(Engine& engine, const RulesetPath& path, std::string_view source) {
  for (const auto& name : detail::mentioned_rulesets(source)) {
    if (engine.find_ruleset(name)) continue;
    if (const auto file = path.find(name)) {
      Diagnostics d = load_ruleset(engine, *file, path.origin_of(*file));
      if (!d.empty()) return d;
    }
  }
  return {};
}

int check_command(const std::vector<std::string>& files, const RulesetPath& path, const Limits& limits, bool json) {
  // The ruleset files are loaded first, so that a program checked with them
  // may call their mechanics whatever the order of the arguments.
  Engine engine(engine_options(limits, path));
  std::vector<std::optional<Diagnostics>> results(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!is_yaml(files[i])) continue;
    std::error_code ec;
    if (fs::is_regular_file(files[i], ec)) results[i] = load_ruleset(engine, files[i]);
  }
  // With --json, stdout has only the document, at the end; stderr has the report as without.
  std::vector<CheckedFile> checked;
  int failed = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string& f = files[i];
    CheckedFile& out = checked.emplace_back(CheckedFile{f, {}});
    Diagnostics problems;
    if (results[i]) {
      problems = std::move(*results[i]);
      // A ruleset that loads has its examples run, each with its scripted dice.
      if (const Ruleset* r = problems.empty() ? loaded_from(engine, f) : nullptr) {
        for (auto& run : run_examples(engine, path, *r)) {
          for (auto& d : run.problems) problems.push_back(std::move(d));
        }
      }
    } else {
      const FileText read = read_file(f, limits);
      if (!read.text) {
        const std::string message =
            fmt::format("cannot read the file: it {}{}", read.error, read.too_large ? " (max_file_bytes)" : "");
        const std::string shown = fmt::format("{}: error: {}\n", f == "-" ? "<stdin>" : f, message);
        out.errors.push_back({Diagnostic(DiagCode::FileUnreadable, Span{}, message), shown});
        std::fflush(stdout);
        std::fputs(shown.c_str(), stderr);
        ++failed;
        continue;
      }
      if (!is_yaml(f)) {
        problems = load_mentioned(engine, path, *read.text);
        if (problems.empty()) problems = engine.compile(*read.text, f == "-" ? "<stdin>" : f).diagnostics;
      }
    }
    for (const auto& d : problems) out.errors.push_back(error_report(d));
    if (problems.empty()) {
      if (!json) fmt::print("{}: ok\n", f);
    } else {
      ++failed;
      std::fflush(stdout);
      fmt::print(stderr, "{}{}: {} {}\n", render_text(problems), f, problems.size(),
                 problems.size() == 1 ? "error" : "errors");
    }
  }
  if (json) fmt::print("{}\n", check_document(checked));
  std::fflush(stdout);
  return failed == 0 ? exit_ok : exit_bad_input;
}

// ---- a mechanic from the command line ---------------------------------------------

namespace {

// `name` or a dotted `name.field.field`: each part a name of the language.
bool is_key(std::string_view s) {
  while (true) {
    const auto dot = s.find('.');
    if (!is_identifier(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

}  // namespace

bool is_setting(std::string_view word) {
  const auto eq = word.find('=');
  // `a==b` is a comparison, not a setting.
  return eq != std::string_view::npos && is_key(word.substr(0, eq)) && eq + 1 < word.size() &&
         word[eq + 1] != '=';
}

bool calls_mechanic(const RulesetPath& path, const std::vector<std::string>& words, std::size_t i) {
  if (file_mechanic_word(words[i])) return true;
  if (!is_mechanic_word(words[i])) return false;
  const std::string ruleset = words[i].substr(0, words[i].find('.'));
  return path.find(ruleset) || ruleset.find('-') != std::string::npos ||
         (i + 1 < words.size() && is_setting(words[i + 1]));
}

Setting parse_setting(std::string_view word, std::uint32_t at) {
  const auto eq = word.find('=');
  Setting s{std::string(word.substr(0, eq)), std::string(word.substr(eq + 1)), {}, at};
  for (std::size_t from = 0;;) {
    const auto dot = s.key.find('.', from);
    s.parts.push_back(s.key.substr(from, dot == std::string::npos ? dot : dot - from));
    if (dot == std::string::npos) break;
    from = dot + 1;
  }
  return s;
}

namespace {

// Record text for the settings that share their first `depth` names, field by
// field in the order first given: `a.b=1 a.c.d=2` gives `{b: 1, c: {d: 2}}` for `a`.
// `fields` are what a side of an opposed mechanic or a declared record type
// has, for a label's bare word; a field of a declared record type has its own.
std::string record_text(const Ruleset& r, const std::vector<const Setting*>& group, std::size_t depth,
                        const std::vector<ParamInfo>& fields) {
  std::vector<std::string> names;
  for (const Setting* s : group) {
    if (std::find(names.begin(), names.end(), s->parts[depth]) == names.end())
      names.push_back(s->parts[depth]);
  }
  std::vector<std::string> out;
  for (const auto& n : names) {
    std::vector<const Setting*> sub;
    for (const Setting* s : group) {
      if (s->parts[depth] == n) sub.push_back(s);
    }
    // A leaf is set by one word alone: `a.b=` with `a.b.c=` is refused by mechanic_call.
    const bool leaf = sub.size() == 1 && sub[0]->parts.size() == depth + 1;
    const auto declared =
        std::find_if(fields.begin(), fields.end(), [&](const ParamInfo& f) { return f.name == n; });
    const ParamInfo* field = declared == fields.end() ? nullptr : &*declared;
    const TypeInfo* inner = field ? r.record_type(field->type) : nullptr;
    out.push_back(fmt::format("{}: {}", n,
                              leaf ? argument_text(field, sub[0]->value)
                                   : record_text(r, sub, depth + 1,
                                                 inner ? inner->fields : std::vector<ParamInfo>{})));
  }
  return fmt::format("{{{}}}", fmt::join(out, ", "));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> setting_arguments(
    const Ruleset& r, const MechanicInfo& m, const std::vector<Setting>& settings) {
  std::vector<std::pair<std::string, std::string>> args;
  for (const auto& s : settings) {
    const std::string& key = s.parts[0];
    if (std::any_of(args.begin(), args.end(), [&](const auto& a) { return a.first == key; }))
      continue;
    if (s.parts.size() == 1) {
      args.emplace_back(key, argument_text(find_param(r, m, key), s.value));
      continue;
    }
    // `attacker.pool=2 attacker.ST=7` is the record argument `attacker: {pool: 2, ST: 7}`.
    std::vector<const Setting*> group;
    for (const auto& t : settings) {
      if (t.parts[0] == key) group.push_back(&t);
    }
    // The fields of a side, or of a record type the ruleset declares, so that a bare
    // word given to a label field is that label: `die.colour=red`.
    std::vector<ParamInfo> fields;
    if (std::find(m.sides.begin(), m.sides.end(), key) != m.sides.end()) {
      fields = m.side_fields;
    } else if (const ParamInfo* p = find_param(r, m, key)) {
      if (const TypeInfo* t = r.record_type(p->type)) fields = t->fields;
    }
    args.emplace_back(key, record_text(r, group, 1, fields));
  }
  return args;
}

MechanicCall mechanic_call(Engine& engine, const RulesetPath& path, std::string_view target,
                           const std::vector<std::string>& words, std::string_view command,
                           const RecordSources& sources) {
  // The command line as typed, so that a mistake is shown under its word.
  std::string line(target);
  std::vector<Setting> settings;
  for (const auto& w : words) {
    if (!is_setting(w)) {
      throw UsageError(fmt::format(
          "{}: '{}' is not a parameter setting; after {} write name=value words, as in dice=3",
          command, w, target));
    }
    Setting s = parse_setting(w, static_cast<std::uint32_t>(line.size() + 1));
    for (const auto& earlier : settings) {
      if (earlier.key == s.key) throw UsageError(fmt::format("{}: '{}' is set twice", command, s.key));
      // `a=…` and `a.b=…` (or `a.b=…` and `a.b.c=…`): one value, given two ways.
      const Setting& whole = earlier.parts.size() < s.parts.size() ? earlier : s;
      const Setting& part = earlier.parts.size() < s.parts.size() ? s : earlier;
      if (std::equal(whole.parts.begin(), whole.parts.end(), part.parts.begin())) {
        throw UsageError(
            fmt::format("{}: '{}' is set both as a whole ({}=…) and field by field ({}=…); write "
                        "one or the other",
                        command, whole.key, whole.key, part.key));
      }
    }
    line += " " + w;
    settings.push_back(std::move(s));
  }
  const auto typed = SourceFile::make("<command line>", line);
  const auto dot = static_cast<std::uint32_t>(target.find('.'));
  const auto end = static_cast<std::uint32_t>(target.size());
  MechanicCall call;
  const auto fail = [&](DiagCode code, Span at, std::string message) -> Diagnostic& {
    call.diagnostics.emplace_back(code, at, std::move(message));
    return call.diagnostics.back();
  };

  const std::string name(target.substr(0, dot));
  const std::string mech(target.substr(dot + 1));
  const Ruleset* r = engine.find_ruleset(name);
  if (!r) {
    const auto file = path.find(name);
    if (!file) {
      Diagnostic& d = fail(DiagCode::RulesetNotFound, typed->span(0, dot),
                           fmt::format("there is no ruleset '{}'", name));
      if (const std::string near = closest_ruleset(name, path); !near.empty()) {
        d.note({}, fmt::format("did you mean '{}'?", near));
      }
      d.note({},
             "'alea rulesets' lists the rulesets; --rulesets DIR and ALEA_PATH add directories");
      return call;
    }
    call.diagnostics = load_ruleset(engine, *file, path.origin_of(*file));
    if (!call.diagnostics.empty()) return call;
    r = engine.find_ruleset(name);
  }
  const MechanicInfo* m = r->mechanic(mech);
  if (!m) {
    const auto names = mechanic_names(*r);
    Diagnostic& d = fail(DiagCode::UnknownFunction, typed->span(dot + 1, end),
                         fmt::format("the ruleset {} has no mechanic '{}'", r->name, mech));
    if (const std::string near = closest_name(mech, names); !near.empty()) {
      d.note({}, fmt::format("did you mean '{}'?", near));
    }
    d.note({}, fmt::format("its mechanics: {}", fmt::join(names, ", ")));
    return call;
  }

  bool known_names = true;
  std::vector<std::string> reported;  // each unknown first name once
  for (const auto& s : settings) {
    const std::string& key = s.parts[0];
    if (find_param(*r, *m, key)) continue;
    known_names = false;
    if (std::find(reported.begin(), reported.end(), key) != reported.end()) continue;
    reported.push_back(key);
    std::vector<std::string> known;
    for (const auto& q : m->params) known.push_back(q.name);
    known.insert(known.end(), m->settable.begin(), m->settable.end());
    const Span at = typed->span(s.at, s.at + static_cast<std::uint32_t>(key.size()));
    if (find_ruleset_param(*r, key)) {  // the ruleset's, but this mechanic never reads it
      fail(DiagCode::UnknownArgument, at,
           fmt::format("{}.{} never reads '{}': setting it would change nothing", r->name, m->name, key))
          .note({}, fmt::format("its parameters: {}", known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
      continue;
    }
    Diagnostic& d = fail(DiagCode::UnknownArgument, at, fmt::format("{}.{} has no parameter '{}'", r->name, m->name, key));
    if (const std::string near = closest_name(key, known); !near.empty()) {
      d.note({}, fmt::format("did you mean '{}'?", near));
    }
    d.note({}, fmt::format("its parameters: {}", known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
  }
  // A side of an opposed mechanic given field by field (`attacker.pool=2`): each
  // field it declares, and no other, at the first level.
  std::vector<std::string> field_names;
  for (const auto& f : m->side_fields) field_names.push_back(f.name);
  for (const auto& side : m->sides) {
    bool by_field = false;
    std::vector<std::string> seen;
    for (const auto& s : settings) {
      if (s.parts[0] != side || s.parts.size() < 2) continue;
      by_field = true;
      if (std::find(field_names.begin(), field_names.end(), s.parts[1]) != field_names.end()) {
        seen.push_back(s.parts[1]);
        continue;
      }
      const auto from = s.at + static_cast<std::uint32_t>(side.size() + 1);
      Diagnostic& d =
          fail(DiagCode::UnknownArgument,
               typed->span(from, from + static_cast<std::uint32_t>(s.parts[1].size())),
               fmt::format("a side of {}.{} has no field '{}'", r->name, m->name, s.parts[1]));
      if (const std::string near = closest_name(s.parts[1], field_names); !near.empty()) {
        d.note({}, fmt::format("did you mean '{}'?", near));
      }
      d.note({}, fmt::format("each side gives: {}", fmt::join(field_names, ", ")));
    }
    if (!by_field) continue;
    for (const auto& f : m->side_fields) {
      if (std::find(seen.begin(), seen.end(), f.name) != seen.end()) continue;
      fail(DiagCode::MissingArgument, typed->span(0, end),
           fmt::format("{}.{} needs the field '{}' of the side '{}': add {}.{}=…", r->name, m->name,
                       f.name, side, side, f.name))
          .note({}, fmt::format("{}: {}", f.name, f.doc));
    }
  }
  // A parameter of a declared record type given field by field (`fighter.str=3`):
  // each first-level field must be one the type has; those left out take their
  // defaults when the mechanic is called.
  for (const auto* list : {&m->params, &r->parameters}) {
    for (const auto& p : *list) {
      const TypeInfo* t = r->record_type(p.type);
      if (!t) continue;
      std::vector<std::string> declared;
      for (const auto& f : t->fields) declared.push_back(f.name);
      for (const auto& s : settings) {
        if (s.parts[0] != p.name || s.parts.size() < 2) continue;
        if (std::find(declared.begin(), declared.end(), s.parts[1]) != declared.end()) continue;
        const auto from = s.at + static_cast<std::uint32_t>(p.name.size() + 1);
        Diagnostic& d =
            fail(DiagCode::UnknownArgument,
                 typed->span(from, from + static_cast<std::uint32_t>(s.parts[1].size())),
                 fmt::format("the argument '{}' of {}.{} is a {}, which has no field '{}'", p.name, r->name,
                             m->name, t->name, s.parts[1]));
        if (const std::string near = closest_name(s.parts[1], declared); !near.empty()) {
          d.note({}, fmt::format("did you mean '{}'?", near));
        }
        d.note({}, fmt::format("the fields of a {}: {}", t->name, fmt::join(declared, ", ")));
      }
    }
  }
  // A required parameter left out is caught here, where the message can say
  // how to write it on the command line.
  for (const auto& p : m->params) {
    if (p.default_value) continue;
    const bool given = std::any_of(settings.begin(), settings.end(),
                                   [&](const Setting& s) { return s.parts[0] == p.name; });
    if (given) continue;
    if (std::find(m->sides.begin(), m->sides.end(), p.name) != m->sides.end()) {
      std::vector<std::string> wanted;
      for (const auto& f : m->side_fields) wanted.push_back(fmt::format("{}.{}=…", p.name, f.name));
      Diagnostic& d = fail(DiagCode::MissingArgument, typed->span(0, end),
                           fmt::format("{}.{} needs the side '{}': add {}", r->name, m->name,
                                       p.name, fmt::join(wanted, " ")));
      for (const auto& f : m->side_fields) d.note({}, fmt::format("{}: {}", f.name, f.doc));
      continue;
    }
    if (const TypeInfo* t = r->record_type(p.type)) {  // a declared record type, given field by field
      std::vector<std::string> names, required;
      for (const auto& f : t->fields) {
        names.push_back(f.name);
        if (!f.default_value) required.push_back(fmt::format("{}.{}=…", p.name, f.name));
      }
      const std::string how =
          required.empty()
              ? fmt::format("add {}.FIELD=… for its fields, or {}={{}} for all their defaults", p.name, p.name)
              : fmt::format("add {}, and {}.FIELD=… for any other field", fmt::join(required, " "), p.name);
      fail(DiagCode::MissingArgument, typed->span(0, end),
           fmt::format("{}.{} needs the {} '{}': {}", r->name, m->name, t->name, p.name, how))
          .note({}, fmt::format("{}: {}", p.name, p.doc))
          .note({}, fmt::format("the fields of a {}: {}", t->name, fmt::join(names, ", ")));
      continue;
    }
    fail(DiagCode::MissingArgument, typed->span(0, end),
         fmt::format("{}.{} needs a value for '{}': add {}=…", r->name, m->name, p.name, p.name))
        .note({}, fmt::format("{}: {}", p.name, p.doc));
  }
  if (known_names && call.diagnostics.empty()) {
    RecordFiles files(sources, engine.options().limits);
    call.diagnostics = resolve_record_values(*r, *m, settings, *typed, files);
    // A file given for nothing is said, not passed over in silence.
    for (const auto& f : call.diagnostics.empty() ? files.unused_with() : std::vector<std::string>{}) {
      std::fflush(stdout);
      fmt::print(stderr, "note: no argument came from --with {}\n", f);
    }
  }
  if (known_names && call.diagnostics.empty()) {
    std::vector<std::string> args;
    for (const auto& [key, text] : setting_arguments(*r, *m, settings))
      args.push_back(fmt::format("{}: {}", key, text));
    call.source = fmt::format("{}.{}({})", r->ident, m->name, fmt::join(args, ", "));
  }
  return call;
}

}  // namespace alea::cli
