// cli/record_args.cpp — arguments from files of records, by reference or by name, and
// bare words inside a record literal of the command line.
#include "cli/record_args.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/state_file.hpp"
#include "dsl/parser.hpp"
#include "dsl/printer.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/io/read_file.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/ruleset_files.hpp"

namespace alea::cli {

namespace {

using alea::detail::is_identifier;

// The type of what `s` sets: a parameter, or a field of one (`attacker.weapon`); null when unknown.
const ast::TypeSpec* setting_type(const Ruleset& r, const MechanicInfo& m, const Setting& s) {
  const ParamInfo* p = find_param(r, m, s.parts[0]);
  if (!p) return nullptr;
  const ast::TypeSpec* t = &p->type;
  for (std::size_t i = 1; i < s.parts.size(); ++i) {
    if (!t->record) return nullptr;
    const auto& fields = t->record->fields;
    const auto f = std::find_if(fields.begin(), fields.end(), [&](const ast::FieldSpec& x) { return x.name == s.parts[i]; });
    if (f == fields.end()) return nullptr;
    t = &f->type;
  }
  return t;
}

bool is_keyword_value(std::string_view w) { return w == "none" || w == "true" || w == "false"; }

// The places in `e`, a literal typed for `t`, where a bare word stands for a label or a
// string: `red` in `{colour: red}` when `colour` is a label.
void bare_words(const ast::Expr& e, const ast::TypeSpec& t, std::vector<Span>& out) {
  if (const auto* n = std::get_if<ast::Name>(&e.kind)) {
    if ((t.kind == ast::TypeSpec::Label || t.kind == ast::TypeSpec::Str) && !is_keyword_value(n->name)) {
      out.push_back(e.span);
    }
  } else if (const auto* rec = std::get_if<ast::RecordLit>(&e.kind); rec && t.record) {
    for (std::size_t i = 0; i < rec->names.size(); ++i) {
      const auto& fields = t.record->fields;
      const auto f = std::find_if(fields.begin(), fields.end(), [&](const ast::FieldSpec& x) { return x.name == rec->names[i]; });
      if (f != fields.end()) bare_words(*rec->values[i], f->type, out);
    }
  } else if (const auto* list = std::get_if<ast::ListLit>(&e.kind); list && t.items) {
    for (const auto& item : list->items) bare_words(*item, *t.items, out);
  }
}

// `value`, a record or list literal for `t`, with each bare word that stands for a label
// or a string quoted; as it is when it does not parse (the call then reports it).
std::string quote_bare_words(const std::string& value, const ast::TypeSpec& t) {
  const auto src = SourceFile::make("<argument>", value);
  const ParseResult parsed = parse(*src);
  if (!parsed.ok() || !parsed.program->main || !parsed.program->statements.empty()) return value;
  std::vector<Span> words;
  bare_words(*parsed.program->main, t, words);
  std::string out = value;
  std::sort(words.begin(), words.end(), [](const Span& a, const Span& b) { return a.begin > b.begin; });
  for (const Span& w : words) {
    out.replace(w.begin, w.end - w.begin, fmt::format("\"{}\"", value.substr(w.begin, w.end - w.begin)));
  }
  return out;
}

}  // namespace

const RecordFile* RecordFiles::get(const std::string& name, Diagnostics& problems, bool missing_ok) {
  auto it = read_.find(name);
  if (it == read_.end()) {
    const FileText read = read_file_capped(name, static_cast<std::size_t>(std::max<std::int64_t>(0, limits_.max_file_bytes)));
    missing_[name] = read.missing;
    RecordFile f;
    if (!read.text) {
      f.diagnostics.emplace_back(DiagCode::FileUnreadable, Span{},
                                 fmt::format("cannot read the file of records '{}': it {}{}", name, read.error,
                                             read.too_large ? " (max_file_bytes)" : ""));
    } else {
      f = read_record_file(*read.text, name, limits_);
    }
    it = read_.emplace(name, std::move(f)).first;
  }
  if (!it->second.ok() && missing_ok && missing_[name]) return nullptr;
  if (!it->second.ok()) {
    problems.insert(problems.end(), it->second.diagnostics.begin(), it->second.diagnostics.end());
    return nullptr;
  }
  return &it->second;
}

std::optional<RecordRef> record_ref(const std::string& value) {
  if (!value.starts_with('@')) return std::nullopt;
  const auto hash = value.rfind('#');
  if (hash == std::string::npos) return RecordRef{value.substr(1), std::nullopt, 0};
  return RecordRef{value.substr(1, hash - 1), value.substr(hash + 1), hash + 1};
}

std::vector<std::string> RecordFiles::unused_with() const {
  std::vector<std::string> out;
  for (const auto& f : sources_.with) {
    if (std::find(used_.begin(), used_.end(), f) == used_.end()) out.push_back(f);
  }
  return out;
}

Diagnostics resolve_record_values(const Ruleset& r, const MechanicInfo& m, std::vector<Setting>& settings,
                                  const SourceFile& typed, RecordFiles& files) {
  Diagnostics problems;
  // Every --with file is read, whether or not an argument comes from it; the state file's
  // characters only when a bare word asks for an entry.
  std::vector<std::pair<std::string, RecordEntry>> with;
  for (const auto& name : files.sources().with) {
    if (const RecordFile* f = files.get(name, problems)) with.emplace_back(name, f->whole());
  }
  if (!problems.empty()) return problems;
  bool characters_read = files.sources().state_file.empty();
  const auto read_characters = [&] {
    if (characters_read) return;
    characters_read = true;
    const std::string& file = files.sources().state_file;
    const RecordFile* f = files.get(file, problems, true);
    const RecordEntry c = f ? f->entry(characters_key) : RecordEntry{};
    if (!c) return;
    if (!c.value->as_record()) {
      problems.emplace_back(DiagCode::StateInvalid, c.literal->span,
                            fmt::format("the state's \"{}\" must be an object of named characters, as in "
                                        "{{\"{}\": {{\"ivan\": {{\"pool\": 3}}}}}}",
                                        characters_key, characters_key));
      return;
    }
    with.emplace_back(file, c);
  };
  for (Setting& s : settings) {
    const ast::TypeSpec* t = setting_type(r, m, s);
    static const ast::TypeSpec any;
    const auto value_at = s.at + static_cast<std::uint32_t>(s.key.size() + 1);
    const Span value_span = typed.span(value_at, value_at + static_cast<std::uint32_t>(s.value.size()));
    const std::string what = fmt::format("the argument '{}'", s.key);
    // The entry `e` of `file` as the value: checked against the type, then written as a literal.
    const auto use = [&](const RecordEntry& e) {
      if (auto problem = entry_problem(t ? *t : any, e, what)) {
        problem->note(value_span, fmt::format("{} comes from there, for {}.{}", s.key, r.name, m.name));
        problems.push_back(std::move(*problem));
        return;
      }
      s.value = print(*e.literal);
    };
    if (const auto ref = record_ref(s.value)) {
      const std::string& file = ref->file;
      if (file.empty()) {
        problems.emplace_back(DiagCode::BadUsage, value_span,
                              fmt::format("'@' names a file of records: write {}=@FILE#ENTRY, or {}=@FILE for a "
                                          "file that is one record", s.key, s.key));
        continue;
      }
      const std::size_t before = problems.size();
      const RecordFile* f = files.get(file, problems);
      files.used(file);
      if (!f) {
        // A file that cannot be read is shown at the word that names it.
        for (std::size_t i = before; i < problems.size(); ++i) {
          if (!problems[i].span.empty()) continue;
          Diagnostic at(problems[i].code, value_span, problems[i].message);
          at.notes = std::move(problems[i].notes);
          problems[i] = std::move(at);
        }
        continue;
      }
      if (!ref->entry) {
        use(f->whole());
        continue;
      }
      const std::string& entry = *ref->entry;
      if (const RecordEntry e = f->entry(entry)) {
        use(e);
        continue;
      }
      const auto from = value_at + static_cast<std::uint32_t>(ref->entry_at);
      Diagnostic& d = problems.emplace_back(
          DiagCode::UnknownArgument, typed.span(from, from + static_cast<std::uint32_t>(entry.size())),
          entry.empty() ? fmt::format("give the entry of {} after '#'", file)
                        : fmt::format("{} has no entry '{}'", file, entry));
      const auto names = f->names();
      if (const std::string near = closest_name(entry, names); !near.empty() && !entry.empty()) {
        d.note({}, fmt::format("did you mean '{}'?", near));
      }
      d.note({}, fmt::format("its entries: {}", names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
      continue;
    }
    if (!t) continue;
    const bool structured = t->kind == ast::TypeSpec::Record || t->kind == ast::TypeSpec::List;
    if (!structured) continue;
    if (!is_identifier(s.value) || is_keyword_value(s.value)) {
      s.value = quote_bare_words(s.value, *t);
      continue;
    }
    // A bare word given to a record: an entry of a --with file, or a character of the state.
    const std::size_t before = problems.size();
    read_characters();
    if (problems.size() > before) continue;
    if (with.empty()) continue;
    std::vector<std::pair<std::string, RecordEntry>> found;
    std::vector<std::string> all;
    for (const auto& [name, entries] : with) {
      if (const RecordEntry e = entries.field(s.value)) found.emplace_back(name, e);
      for (const auto& n : entries.names()) all.push_back(n);
    }
    if (found.size() == 1) {
      files.used(found.front().first);
      use(found.front().second);
      continue;
    }
    if (found.size() > 1) {
      std::vector<std::string> in;
      for (const auto& [name, e] : found) in.push_back(name);
      problems.emplace_back(DiagCode::UnknownArgument, value_span,
                            fmt::format("'{}' is an entry of {}: name one with {}=@FILE#{}", s.value,
                                        fmt::join(in, " and of "), s.key, s.value));
      continue;
    }
    if (t->kind != ast::TypeSpec::Record) continue;
    Diagnostic& d = problems.emplace_back(
        DiagCode::UnknownArgument, value_span,
        fmt::format("no {} has an entry '{}' for {}",
                    files.sources().with.empty() ? "character of the state" : "--with file", s.value, s.key));
    if (const std::string near = closest_name(s.value, all); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
    d.note({}, fmt::format("the entries: {}", all.empty() ? "none" : fmt::format("{}", fmt::join(all, ", "))));
  }
  return problems;
}

}  // namespace alea::cli
