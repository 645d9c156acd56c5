// interpreter/rulesets/ruleset_loader_values.cpp — the parts of a ruleset that are
// plain YAML values and types: numbers, constants' values as values and as
// literal expressions, a parameter's or field's type with its bounds and
// choices, and the record types declared under `types:`.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include <fmt/format.h>

#include "dsl/resolver.hpp"
#include "interpreter/rulesets/ruleset_loader_parts.hpp"
#include "interpreter/values/conform.hpp"

namespace alea::detail {

namespace {

std::optional<std::int64_t> parse_int(std::string_view s) {
  std::int64_t v = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e || b == e) return std::nullopt;
  return v;
}

std::string describe_node(const YAML::Node& n) {
  if (n.IsMap()) return "a mapping";
  if (n.IsSequence()) return "a list";
  if (n.IsNull()) return "null";
  return n.Scalar();
}

}  // namespace

std::optional<std::int64_t> read_integer(RulesetReader& r, const YAML::Node& n, std::string_view what) {
  if (n.IsScalar() && n.Tag() == "?") {
    if (auto v = parse_int(n.Scalar())) return v;
  }
  r.error(DiagCode::RulesetFieldType, r.span_of(n), fmt::format("{} must be a whole number, got '{}'", what, describe_node(n)));
  return std::nullopt;
}

Value to_value(const YAML::Node& n) {
  if (n.IsNull()) return NoneValue{};
  if (n.IsScalar()) {
    if (n.Tag() == "?") {
      if (auto v = parse_int(n.Scalar())) return *v;
      if (n.Scalar() == "true") return true;
      if (n.Scalar() == "false") return false;
    }
    return Value(n.Scalar());
  }
  if (n.IsSequence()) {
    std::vector<Value> items;
    for (const auto& i : n) items.push_back(to_value(i));
    return make_list(std::move(items));
  }
  std::vector<std::string> names;
  std::vector<Value> values;
  for (auto it = n.begin(); it != n.end(); ++it) {
    names.push_back(it->first.Scalar());
    values.push_back(to_value(it->second));
  }
  return make_record(std::move(names), std::move(values));
}

ast::ExprPtr to_expr(const YAML::Node& n, const SpanOf& span_of) {
  auto e = std::make_unique<ast::Expr>();
  e->span = span_of(n);
  if (n.IsNull()) {
    e->kind = ast::NoneLit{};
  } else if (n.IsScalar()) {
    const Value v = to_value(n);
    if (const auto* i = v.as_int()) e->kind = ast::IntLit{*i};
    else if (const auto* b = v.as_bool()) e->kind = ast::BoolLit{*b};
    else e->kind = ast::StrLit{n.Scalar()};
  } else if (n.IsSequence()) {
    ast::ListLit l;
    for (const auto& i : n) {
      l.items.push_back(to_expr(i, span_of));
      e->depth = std::max(e->depth, l.items.back()->depth + 1);
    }
    e->kind = std::move(l);
  } else {
    ast::RecordLit rec;
    for (auto it = n.begin(); it != n.end(); ++it) {
      rec.names.push_back(it->first.Scalar());
      rec.name_spans.push_back(span_of(it->first));
      rec.values.push_back(to_expr(it->second, span_of));
      e->depth = std::max(e->depth, rec.values.back()->depth + 1);
    }
    e->kind = std::move(rec);
  }
  return e;
}

ast::ExprPtr to_expr(RulesetReader& r, const YAML::Node& n) {
  return to_expr(n, [&r](const YAML::Node& x) { return r.span_of(x); });
}

// `int`, `int?`, `label`, …
std::optional<ast::TypeSpec> read_type(RulesetReader& r, const YAML::Node& n) {
  auto s = r.text(n, "'type'");
  if (!s) return std::nullopt;
  ast::TypeSpec t;
  std::string base = *s;
  if (!base.empty() && base.back() == '?') {
    t.optional = true;
    base.pop_back();
  }
  static const std::vector<std::pair<std::string, ast::TypeSpec::Kind>> kinds = {
      {"int", ast::TypeSpec::Int},       {"bool", ast::TypeSpec::Bool},
      {"string", ast::TypeSpec::Str},    {"label", ast::TypeSpec::Label},
      {"list", ast::TypeSpec::List},     {"record", ast::TypeSpec::Record},
      {"pool", ast::TypeSpec::Pool},     {"any", ast::TypeSpec::Any}};
  for (const auto& [word, kind] : kinds) {
    if (word == base) {
      t.kind = kind;
      return t;
    }
  }
  if (auto it = r.record_types().find(base); it != r.record_types().end()) {
    t.kind = ast::TypeSpec::Record;
    t.record = it->second;
    return t;
  }
  std::vector<std::string> words;
  for (const auto& [word, kind] : kinds) words.push_back(word);
  for (const auto& [word, type] : r.record_types()) words.push_back(word);
  auto& d = r.error(DiagCode::RulesetInvalidValue, r.span_of(n), fmt::format("unknown type '{}'", *s));
  if (auto near = closest_name(base, words); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
  else d.note({}, "the types are int, bool, string, label, list, record, pool, any and those declared under 'types' (before this one); add '?' to admit null");
  return std::nullopt;
}

// `items: die` on a list: the type every item must have.
namespace {

// `face: d6` (or `dF`): the kind's faces as a range, into `t`; false after an error.
bool read_face(RulesetReader& r, const YAML::Node& n, ast::TypeSpec& t) {
  const auto text = r.text(n, "'face'");
  if (!text) return false;
  std::int64_t lo = 0, hi = 0;
  std::int64_t sides = 0;
  const auto& s = *text;
  const auto [end, ec] = s.size() > 1 && s[0] == 'd' ? std::from_chars(s.data() + 1, s.data() + s.size(), sides)
                                                       : std::from_chars_result{s.data(), std::errc::invalid_argument};
  if (s == "dF") {
    lo = -1, hi = 1;
  } else if (ec == std::errc() && end == s.data() + s.size() && sides >= 1) {
    lo = 1, hi = sides;
  } else {
    r.error(DiagCode::RulesetInvalidValue, r.span_of(n),
            fmt::format("'face' names a die, as in d6, d12 or dF; got '{}'", s));
    return false;
  }
  if (t.min || t.max) {
    r.error(DiagCode::RulesetInvalidValue, r.span_of(n), "'face' gives the bounds: leave out 'min' and 'max'");
    return false;
  }
  t.face = s;
  t.min = lo;
  t.max = hi;
  return true;
}

}  // namespace

void read_items(RulesetReader& r, const YAML::Node& spec, ast::TypeSpec& t) {
  const YAML::Node i = spec["items"];
  const YAML::Node face = spec["face"];
  if (i && t.kind != ast::TypeSpec::List) {
    r.error(DiagCode::RulesetInvalidValue, r.span_of(i), "'items' applies to the type list");
    return;
  }
  if (i && i.IsMap()) {
    // `items: {type: label, choices: [easy, hard]}`: the items' type with its own bounds.
    if (r.keys(i, r.span_of(i), "'items'",
               {{"type", true}, {"min", false}, {"max", false}, {"choices", false}, {"items", false}, {"face", false},
                {"min_length", false}, {"max_length", false}})) {
      if (auto it = i["type"] ? read_type(r, i["type"]) : std::nullopt) {
        read_constraints(r, i, *it, "choices");
        read_items(r, i, *it);
        t.items = std::make_shared<const ast::TypeSpec>(std::move(*it));
      }
    }
  } else if (i) {
    if (auto it = read_type(r, i)) t.items = std::make_shared<const ast::TypeSpec>(std::move(*it));
  }
  if (face) {
    if (t.kind == ast::TypeSpec::Int) {
      read_face(r, face, t);
    } else if (t.kind == ast::TypeSpec::List && (!t.items || t.items->kind == ast::TypeSpec::Int)) {
      ast::TypeSpec item = t.items ? *t.items : ast::TypeSpec{};
      item.kind = ast::TypeSpec::Int;
      if (read_face(r, face, item)) {
        t.face = item.face;
        t.items = std::make_shared<const ast::TypeSpec>(std::move(item));
      }
    } else {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(face), "'face' applies to the types int and list (of int)");
    }
  }
  for (const char* key : {"min_length", "max_length"}) {
    const YAML::Node n = spec[key];
    if (!n) continue;
    if (t.kind != ast::TypeSpec::List) {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(n), fmt::format("'{}' applies to the type list", key));
      continue;
    }
    const auto v = read_integer(r, n, fmt::format("'{}'", key));
    if (!v) continue;
    if (*v < 0) {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(n), fmt::format("'{}' is a number of items, 0 or more", key));
      continue;
    }
    (std::string_view(key) == "min_length" ? t.min_length : t.max_length) = *v;
  }
  if (t.min_length && t.max_length && *t.min_length > *t.max_length) {
    r.error(DiagCode::RulesetInvalidValue, r.span_of(spec["max_length"]),
            fmt::format("'max_length' ({}) is below 'min_length' ({})", *t.max_length, *t.min_length));
  }
}

// Bounds and choices of a parameter or field.
void read_constraints(RulesetReader& r, const YAML::Node& spec, ast::TypeSpec& t, std::string_view choices_key,
                      bool sibling_bounds) {
  // A bound is a number, or the name of a sibling field (checked by check_sibling_bounds).
  const auto bound = [&](const char* key, std::optional<std::int64_t>& number, std::string& field) {
    const YAML::Node n = spec[key];
    if (!n) return;
    if (n.IsScalar() && n.Tag() == "?" && !n.Scalar().empty() &&
        (std::isalpha(static_cast<unsigned char>(n.Scalar()[0])) || n.Scalar()[0] == '_')) {
      field = n.Scalar();
    } else if (auto v = read_integer(r, n, fmt::format("'{}'", key))) {
      number = v;
    }
  };
  bound("min", t.min, t.min_field);
  bound("max", t.max, t.max_field);
  if ((!t.min_field.empty() || !t.max_field.empty()) && !sibling_bounds) {
    r.error(DiagCode::RulesetFieldType, r.span_of(spec[t.min_field.empty() ? "max" : "min"]),
            fmt::format("'{}' must be a whole number here; a bound by another field's name is for the fields of a "
                        "record type or of a side",
                        t.min_field.empty() ? "max" : "min"));
    t.min_field.clear();
    t.max_field.clear();
  }
  if ((t.min || t.max || !t.min_field.empty() || !t.max_field.empty()) && t.kind != ast::TypeSpec::Int) {
    r.error(DiagCode::RulesetInvalidValue, r.span_of(spec["min"] ? spec["min"] : spec["max"]),
            "'min' and 'max' apply to the type int");
  }
  if (t.min && t.max && *t.min > *t.max) {
    r.error(DiagCode::RulesetInvalidValue, r.span_of(spec["max"]), fmt::format("'max' ({}) is below 'min' ({})", *t.max, *t.min));
  }
  if (const YAML::Node c = spec[std::string(choices_key)]) {
    if (c.IsMap() && c.size() > 0) {  // each name with what it means
      for (auto it = c.begin(); it != c.end(); ++it) {
        auto name = r.text(it->first, fmt::format("a name of '{}'", choices_key));
        // `walk:` with nothing after it: a name that needs no sentence.
        auto doc = it->second.IsNull() ? std::optional<std::string>("")
                                       : r.text(it->second, fmt::format("what '{}' means", it->first.Scalar()));
        if (!name || !doc) continue;
        t.choices.push_back(*name);
        t.choice_docs.push_back(*doc);
      }
    } else if (!c.IsSequence() || c.size() == 0) {
      r.error(DiagCode::RulesetFieldType, r.span_of(c),
              fmt::format("'{}' must be a list of names, or a mapping from each name to what it means", choices_key));
    } else {
      for (const auto& i : c) {
        if (auto s = r.text(i, fmt::format("an item of '{}'", choices_key))) t.choices.push_back(*s);
      }
    }
    if (t.kind != ast::TypeSpec::Label && t.kind != ast::TypeSpec::Str) {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(c), fmt::format("'{}' apply to the types label and string", choices_key));
    }
  } else if (t.kind == ast::TypeSpec::Label) {
    r.error(DiagCode::RulesetMissingKey, r.span_of(spec),
            fmt::format("a label lists the names it can take under '{}'", choices_key));
  }
}

void check_sibling_bounds(RulesetReader& r, const YAML::Node& fields, const ast::RecordType& rt) {
  for (const auto& f : rt.fields) {
    for (const auto& bound : {std::pair{"min", f.type.min_field}, std::pair{"max", f.type.max_field}}) {
      const char* key = bound.first;
      const std::string& sibling = bound.second;
      if (sibling.empty()) continue;
      const YAML::Node at = fields[f.name][key];
      const auto it = std::find_if(rt.fields.begin(), rt.fields.end(),
                                   [&](const ast::FieldSpec& x) { return x.name == sibling; });
      if (it == rt.fields.end()) {
        std::vector<std::string> names;
        for (const auto& x : rt.fields) names.push_back(x.name);
        auto& d = r.error(DiagCode::RulesetInvalidValue, r.span_of(at),
                          fmt::format("'{}' is a number, or another field of the record; it has no field '{}'", key, sibling));
        if (auto near = closest_name(sibling, names); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
      } else if (it->type.kind != ast::TypeSpec::Int || it->name == f.name) {
        r.error(DiagCode::RulesetInvalidValue, r.span_of(at),
                fmt::format("'{}: {}' names a field, which must be another int field of the record", key, sibling));
      }
    }
  }
}

// `types: {die: {doc: …, fields: {colour: {type: label, choices: […], doc: …}, …}}}`:
// record types, which parameters, fields and results may name. A type may use
// the types declared before it.
void read_types(RulesetReader& r, const YAML::Node& n) {
  if (!n.IsMap()) {
    r.error(DiagCode::RulesetFieldType, r.span_of(n), "'types' must be a mapping from type names to their fields");
    return;
  }
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string tname = it->first.Scalar();
    if (!r.name(it->first, "type", false)) continue;
    static const std::set<std::string> words = {"int", "bool", "string", "label", "list", "record", "pool", "any"};
    if (words.count(tname) || r.record_types().count(tname)) {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(it->first),
              fmt::format("the type name '{}' is already {}", tname, words.count(tname) ? "a type of the format" : "declared"));
      continue;
    }
    const std::string context = fmt::format("the type '{}'", tname);
    if (!r.keys(it->second, r.span_of(it->first), context, {{"doc", true}, {"fields", true}})) continue;
    auto rt = std::make_shared<ast::RecordType>();
    rt->name = tname;
    rt->span = r.span_of(it->first);
    if (it->second["doc"]) rt->doc = r.text(it->second["doc"], "'doc'").value_or("");
    TypeInfo info{tname, rt->doc, {}};
    const YAML::Node fields = it->second["fields"];
    if (!fields) continue;
    if (!fields.IsMap() || fields.size() == 0) {
      r.error(DiagCode::RulesetFieldType, r.span_of(fields), "'fields' maps each field of the record to its description");
      continue;
    }
    for (auto f = fields.begin(); f != fields.end(); ++f) {
      if (!r.name(f->first, "field", false)) continue;
      auto p = r.param(f->first, f->second, "field", false, {});
      if (!p) continue;
      ast::FieldSpec fs;
      fs.name = p->name;
      fs.type = p->type;
      fs.default_value = f->second["default"] ? to_expr(r, f->second["default"]) : nullptr;
      fs.doc = p->doc;
      fs.span = r.span_of(f->first);
      rt->fields.push_back(std::move(fs));
      info.fields.push_back(std::move(*p));
    }
    check_sibling_bounds(r, fields, *rt);
    r.record_types()[tname] = rt;
    r.ruleset().types.push_back(std::move(info));
  }
}

void check_declared(RulesetReader& r, const YAML::Node& spec, const std::vector<std::pair<YAML::Node, std::string>>& values,
                    const std::vector<RulesetReader::Key>& extra) {
  if (!spec.IsMap()) {
    r.error(DiagCode::RulesetFieldType, r.span_of(spec), "a declared type is a mapping, as in {type: int, min: 0}");
    return;
  }
  std::vector<RulesetReader::Key> allowed = {{"type", true},  {"min", false},   {"max", false},
                                             {"choices", false}, {"items", false}, {"face", false},
                                             {"min_length", false}, {"max_length", false}};
  allowed.insert(allowed.end(), extra.begin(), extra.end());
  if (!r.keys(spec, r.span_of(spec), "a declared type", allowed)) return;
  auto t = spec["type"] ? read_type(r, spec["type"]) : std::nullopt;
  if (!t) return;
  read_constraints(r, spec, *t, "choices");
  read_items(r, spec, *t);
  for (const auto& [value, what] : values) {
    if (auto problem = type_problem(*t, to_value(value), what)) {
      r.error(DiagCode::RulesetInvalidValue, r.span_of(value), std::move(*problem));
    }
  }
}

}  // namespace alea::detail
