// interpreter/values/conform.hpp — what a declared type admits, written once.
//
// A ruleset declares types for parameters, sides, record fields, results,
// state and defaults (dsl/ast.hpp TypeSpec): a kind, bounds, a die's faces,
// choices, list lengths and items, and record types whose fields may be bound
// by a sibling field (`lives: {max: max_lives}`). conform() checks a value
// against one and gives it back in the type's shape: a record with the type's
// fields in order, missing ones given their defaults.
//
// Every place that checks a value against a type goes through this one walk:
// the evaluator (a located error), the exact composer (it gives the branch up),
// the loader (a default that breaks its own type) and the state file reader.
// What differs is a `Hooks` object:
//
//   [[noreturn]] void fail(Diagnostic d);       the value does not conform
//   void charge(Span at);                       one step of work: an item or a field
//   std::optional<Value> field_default(const ast::FieldSpec& f);
//                                               a missing field's default; nullopt
//                                               leaves it out (the loader's check)
//   std::int64_t total(const Value& pool, Span at, const std::string& name);
//                                               a pool where a number is wanted
//
// A problem deep inside a value is reported where it was written when the
// value is a literal (`[{type: "atack"}]` on the command line points at
// "atack"), and named by its path: the argument 'army[0].type'.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/values/value.hpp"

namespace alea::detail {

// What a checked value is called in messages: "the argument 'army'". Given as
// a kind and a name, it is put into words only when a message is written, so
// that a value that conforms costs no formatting. It holds views of its texts:
// it is an argument, made for the call it is given to.
class What {
 public:
  What(std::string_view text) : kind_(text) {}  // NOLINT(google-explicit-constructor)
  What(const char* text) : kind_(text) {}       // NOLINT(google-explicit-constructor)
  What(const std::string& text) : kind_(text) {}  // NOLINT(google-explicit-constructor)
  // `kind 'name'`: the path of a part goes inside the quotes ("the argument 'army[2].colour'").
  What(std::string_view kind, std::string_view name) : kind_(kind), name_(name), quoted_(true) {}

  // The whole value's name, or its part at `path` ("[2].colour").
  [[nodiscard]] std::string text(const std::string& path = {}) const {
    if (quoted_) return fmt::format("{} '{}{}'", kind_, name_, path);
    if (path.empty()) return std::string(kind_);
    if (!kind_.empty() && kind_.back() == '\'') return fmt::format("{}{}'", kind_.substr(0, kind_.size() - 1), path);
    if (kind_.empty()) return path.front() == '.' ? path.substr(1) : path;
    return fmt::format("{} (at {})", kind_, path);
  }

 private:
  std::string_view kind_, name_;
  bool quoted_ = false;
};

// Where a value being checked sits: the literal it was written as, if it was
// (else null), its span, and its place inside the checked value: an item or a
// field of its parent's value, whose path ("[2].colour") is written only for a
// message.
struct TypePlace {
  const ast::Expr* src = nullptr;
  Span span;
  const TypePlace* parent = nullptr;  // null: the whole value
  std::size_t index = 0;              // with a parent and no field name: the item's index
  const std::string* field_name = nullptr;

  [[nodiscard]] std::string path() const {
    if (!parent) return {};
    return field_name ? fmt::format("{}.{}", parent->path(), *field_name) : fmt::format("{}[{}]", parent->path(), index);
  }
  // (The part's place refers to this one: it lives while this one does.)
  TypePlace item(std::size_t i) const {
    const ast::Expr* s = nullptr;
    if (src) {
      if (const auto* l = std::get_if<ast::ListLit>(&src->kind); l && i < l->items.size()) s = l->items[i].get();
    }
    return {s, s ? s->span : span, this, i, nullptr};
  }
  TypePlace field(const std::string& name) const {
    const ast::Expr* s = nullptr;
    if (src) {
      if (const auto* r = std::get_if<ast::RecordLit>(&src->kind)) {
        const auto it = std::find(r->names.begin(), r->names.end(), name);
        if (it != r->names.end()) s = r->values[static_cast<std::size_t>(it - r->names.begin())].get();
      }
    }
    return {s, s ? s->span : span, this, 0, &name};
  }
  // Where the field `name` is named, when the literal says (else the whole value's span).
  Span name_span(const std::string& name) const {
    if (const auto* r = src ? std::get_if<ast::RecordLit>(&src->kind) : nullptr) {
      const auto it = std::find(r->names.begin(), r->names.end(), name);
      const auto i = static_cast<std::size_t>(it - r->names.begin());
      if (it != r->names.end() && i < r->name_spans.size()) return r->name_spans[i];
    }
    return span;
  }
};

template <class Hooks>
class Conformer {
 public:
  // `what` names the whole value in messages: "the argument 'red'".
  Conformer(Hooks& hooks, What what) : hooks_(hooks), what_(what) {}

  Value conform(const ast::TypeSpec& t, const Value& v, const TypePlace& at) {
    // Its name, for a message.
    auto name = [&] { return what_.text(at.path()); };
    // A pool stands for its total wherever a number is wanted.
    if (t.kind == ast::TypeSpec::Int && v.as_pool()) {
      conform(t, Value(hooks_.total(v, at.span, name())), at);
      return v;
    }
    if (!type_admits(t, v)) {
      hooks_.fail(Diagnostic(DiagCode::TypeMismatch, at.span,
                             fmt::format("{} must be {} {}, got {}", name(), t.kind == ast::TypeSpec::Int ? "an" : "a",
                                         ast::type_name(t), describe(v))));
    }
    if (const auto* i = v.as_int()) {
      if (!t.face.empty() && ((t.min && *i < *t.min) || (t.max && *i > *t.max))) {
        hooks_.fail(Diagnostic(DiagCode::ArgumentOutOfRange, at.span,
                               fmt::format("{} must be a face of a {}, {} to {}; got {}", name(), t.face, *t.min, *t.max, *i)));
      }
      if (t.min && *i < *t.min) {
        hooks_.fail(Diagnostic(DiagCode::ArgumentOutOfRange, at.span,
                               fmt::format("{} must be at least {}, got {}", name(), *t.min, *i)));
      }
      if (t.max && *i > *t.max) {
        hooks_.fail(Diagnostic(DiagCode::ArgumentOutOfRange, at.span,
                               fmt::format("{} must be at most {}, got {}", name(), *t.max, *i)));
      }
    }
    if (const auto* l = v.as_list()) {
      const auto n = static_cast<std::int64_t>(l->size());
      if (t.min_length && n < *t.min_length) {
        hooks_.fail(Diagnostic(DiagCode::ArgumentOutOfRange, at.span,
                               fmt::format("{} must have at least {} item{}, got {}", name(), *t.min_length,
                                           *t.min_length == 1 ? "" : "s", n)));
      }
      if (t.max_length && n > *t.max_length) {
        hooks_.fail(Diagnostic(DiagCode::ArgumentOutOfRange, at.span,
                               fmt::format("{} may have at most {} item{}, got {}", name(), *t.max_length,
                                           *t.max_length == 1 ? "" : "s", n)));
      }
    }
    if (const auto* str = v.as_str(); str && !t.choices.empty() &&
        std::find(t.choices.begin(), t.choices.end(), *str) == t.choices.end()) {
      Diagnostic d(DiagCode::ArgumentOutOfRange, at.span,
                   fmt::format("{} must be one of {}, got \"{}\"", name(), fmt::join(t.choices, ", "), *str));
      // Only inside a typed value: the plain message is the one users know.
      if (at.parent) {
        if (auto near = closest_name(*str, t.choices); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
      }
      hooks_.fail(std::move(d));
    }
    if (t.items) {
      if (const auto* l = v.as_list()) return items(*t.items, *l, at);
    }
    if (t.record) {
      if (const auto* r = v.as_record()) return fields(*t.record, *r, at);
    }
    return v;
  }

 private:
  Hooks& hooks_;
  What what_;

  Value items(const ast::TypeSpec& t, const std::vector<Value>& l, const TypePlace& at) {
    std::vector<Value> out;
    out.reserve(l.size());
    for (std::size_t i = 0; i < l.size(); ++i) {
      hooks_.charge(at.span);
      out.push_back(conform(t, l[i], at.item(i)));
    }
    return make_list(std::move(out));
  }

  // The record with the type's fields, in the type's order, missing ones
  // given their defaults; a field the type does not have is an error. Then
  // the bounds one field takes from another.
  Value fields(const ast::RecordType& rt, const RecordData& r, const TypePlace& at) {
    auto name = [&] { return what_.text(at.path()); };
    for (const auto& n : r.names) {
      const bool known = std::any_of(rt.fields.begin(), rt.fields.end(), [&](const ast::FieldSpec& f) { return f.name == n; });
      if (known) continue;
      std::vector<std::string> names;
      for (const auto& f : rt.fields) names.push_back(f.name);
      Diagnostic d(DiagCode::UnknownField, at.name_span(n),
                   fmt::format("{} is a {}, which has no field '{}'", name(), rt.name, n));
      if (auto near = closest_name(n, names); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
      d.note({}, fmt::format("the fields of a {}: {}", rt.name, fmt::join(names, ", ")));
      hooks_.fail(std::move(d));
    }
    std::vector<std::string> names;
    std::vector<Value> values;
    names.reserve(rt.fields.size());
    values.reserve(rt.fields.size());
    for (const auto& f : rt.fields) {
      hooks_.charge(at.span);
      const auto it = std::find(r.names.begin(), r.names.end(), f.name);
      if (it != r.names.end()) {
        values.push_back(conform(f.type, r.values[static_cast<std::size_t>(it - r.names.begin())], at.field(f.name)));
      } else if (f.default_value) {
        // A default is completed in turn: `gear: {type: kit, default: {}}` gives a whole kit.
        auto def = hooks_.field_default(f);
        if (!def) continue;
        values.push_back(conform(f.type, *def, at.field(f.name)));
      } else {
        Diagnostic d(DiagCode::MissingArgument, at.span,
                     fmt::format("{} is a {}, which needs the field '{}'", name(), rt.name, f.name));
        if (!f.doc.empty()) d.note({}, fmt::format("{}: {}", f.name, f.doc));
        hooks_.fail(std::move(d));
      }
      names.push_back(f.name);
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      const ast::FieldSpec& f = *std::find_if(rt.fields.begin(), rt.fields.end(),
                                              [&](const ast::FieldSpec& x) { return x.name == names[i]; });
      sibling_bound(f.type.min_field, true, names, values, i, at);
      sibling_bound(f.type.max_field, false, names, values, i, at);
    }
    return make_record(std::move(names), std::move(values));
  }

  // `lives: {max: max_lives}`: field i against its sibling, when both are numbers
  // (an optional field left at none has no bound and gives none).
  void sibling_bound(const std::string& sibling, bool lower, const std::vector<std::string>& names,
                     const std::vector<Value>& values, std::size_t i, const TypePlace& at) {
    if (sibling.empty()) return;
    const auto it = std::find(names.begin(), names.end(), sibling);
    if (it == names.end()) return;
    const auto* x = values[i].as_int();
    const auto* bound = values[static_cast<std::size_t>(it - names.begin())].as_int();
    if (!x || !bound || (lower ? *x >= *bound : *x <= *bound)) return;
    const TypePlace place = at.field(names[i]);
    hooks_.fail(Diagnostic(DiagCode::ArgumentOutOfRange, place.span,
                           fmt::format("{} must be at {} its {}, {}; got {}", what_.text(place.path()),
                                       lower ? "least" : "most", sibling, *bound, *x)));
  }
};

// Checks `v` against `t` with `hooks`; `what` names it in messages.
template <class Hooks>
Value conform_to(Hooks& hooks, const ast::TypeSpec& t, const Value& v, const TypePlace& at, What what) {
  Conformer<Hooks> c(hooks, what);
  return c.conform(t, v, at);
}

// The first problem of `v` against `t`, as a sentence naming it by `what`, or
// nullopt: for values read from files (a ruleset's defaults, a state file),
// where a record's missing fields are left to their defaults.
[[nodiscard]] std::optional<std::string> type_problem(const ast::TypeSpec& t, const Value& v, What what);

// The first problem of `v`, written as the literal `src`, against `t`, located in the literal
// (a file of records: the field that does not fit); a missing field with a default is left out.
[[nodiscard]] std::optional<Diagnostic> literal_problem(const ast::TypeSpec& t, const Value& v, const ast::Expr& src,
                                                        What what);

}  // namespace alea::detail
