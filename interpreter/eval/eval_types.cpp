// interpreter/eval/eval_types.cpp — checking a value against the type a ruleset
// declares for a parameter, a field or a result: its kind, bounds and
// choices, the items of a list with `items:`, and the fields of a record type
// declared under `types:`, whose missing fields get their defaults.
//
// A problem deep inside a value is reported at the spot where it was written
// when the value is a literal (`[{type: "atack"}]` on the command line points
// at "atack"), and named by its path: the argument 'army[0].type'.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dsl/printer.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/eval/eval_context.hpp"

namespace alea::detail {
namespace {

// Where a value being checked sits: the source of the literal it was written
// as, if it was (else null), and its path inside the checked value.
struct Place {
  const ast::Expr* src = nullptr;
  Span span;
  std::string path;  // "[2].colour"

  Place item(std::size_t i) const {
    const ast::Expr* s = nullptr;
    if (src) {
      if (const auto* l = std::get_if<ast::ListLit>(&src->kind); l && i < l->items.size()) s = l->items[i].get();
    }
    return {s, s ? s->span : span, fmt::format("{}[{}]", path, i)};
  }
  Place field(const std::string& name) const {
    const ast::Expr* s = nullptr;
    if (src) {
      if (const auto* r = std::get_if<ast::RecordLit>(&src->kind)) {
        const auto it = std::find(r->names.begin(), r->names.end(), name);
        if (it != r->names.end()) s = r->values[static_cast<std::size_t>(it - r->names.begin())].get();
      }
    }
    return {s, s ? s->span : span, fmt::format("{}.{}", path, name)};
  }
};

// "the argument 'army'" with the path "[2].colour": "the argument 'army[2].colour'".
std::string named(std::string_view what, const std::string& path) {
  if (path.empty()) return std::string(what);
  if (!what.empty() && what.back() == '\'') {
    return fmt::format("{}{}'", what.substr(0, what.size() - 1), path);
  }
  return fmt::format("{} (at {})", what, path);
}

}  // namespace

class TypeChecker {
 public:
  TypeChecker(Evaluator& ev, std::string_view what) : ev_(ev), what_(what) {}

  Value conform(const ast::TypeSpec& t, const Value& v, const Place& at) {
    const std::string name = named(what_, at.path);
    // A pool stands for its total wherever a number is wanted.
    if (t.kind == ast::TypeSpec::Int && v.as_pool()) {
      conform(t, Value(ev_.to_int(v, at.span, name)), at);
      return v;
    }
    if (!type_admits(t, v)) {
      fail(DiagCode::TypeMismatch, at.span,
           fmt::format("{} must be {} {}, got {}", name, t.kind == ast::TypeSpec::Int ? "an" : "a",
                       ast::type_name(t), describe(v)));
    }
    if (const auto* i = v.as_int(); i && !t.face.empty() && ((t.min && *i < *t.min) || (t.max && *i > *t.max))) {
      fail(DiagCode::ArgumentOutOfRange, at.span,
           fmt::format("{} must be a face of a {}, {} to {}; got {}", name, t.face, *t.min, *t.max, *i));
    }
    if (const auto* l = v.as_list()) {
      if (t.min_length && static_cast<std::int64_t>(l->size()) < *t.min_length) {
        fail(DiagCode::ArgumentOutOfRange, at.span,
             fmt::format("{} must have at least {} item{}, got {}", name, *t.min_length, *t.min_length == 1 ? "" : "s",
                         l->size()));
      }
      if (t.max_length && static_cast<std::int64_t>(l->size()) > *t.max_length) {
        fail(DiagCode::ArgumentOutOfRange, at.span,
             fmt::format("{} may have at most {} item{}, got {}", name, *t.max_length, *t.max_length == 1 ? "" : "s",
                         l->size()));
      }
    }
    if (const auto* i = v.as_int()) {
      if (t.min && *i < *t.min) {
        fail(DiagCode::ArgumentOutOfRange, at.span, fmt::format("{} must be at least {}, got {}", name, *t.min, *i));
      }
      if (t.max && *i > *t.max) {
        fail(DiagCode::ArgumentOutOfRange, at.span, fmt::format("{} must be at most {}, got {}", name, *t.max, *i));
      }
    }
    if (const auto* str = v.as_str(); str && !t.choices.empty() &&
        std::find(t.choices.begin(), t.choices.end(), *str) == t.choices.end()) {
      Diagnostic d(DiagCode::ArgumentOutOfRange, at.span,
                   fmt::format("{} must be one of {}, got \"{}\"", name, fmt::join(t.choices, ", "), *str));
      // Only inside a typed value: the plain message is the one users know.
      if (!at.path.empty()) {
        if (auto near = closest_name(*str, t.choices); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
      }
      throw EvalError{std::move(d)};
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
  Evaluator& ev_;
  std::string_view what_;

  Value items(const ast::TypeSpec& t, const std::vector<Value>& l, const Place& at) {
    std::vector<Value> out;
    for (std::size_t i = 0; i < l.size(); ++i) {
      ev_.charge(1, at.span);
      out.push_back(conform(t, l[i], at.item(i)));
    }
    return make_list(std::move(out));
  }

  // The record with the type's fields, in the type's order, missing ones
  // given their defaults; a field the type does not have is an error.
  Value fields(const ast::RecordType& rt, const RecordData& r, const Place& at) {
    for (const auto& n : r.names) {
      const bool known = std::any_of(rt.fields.begin(), rt.fields.end(), [&](const ast::FieldSpec& f) { return f.name == n; });
      if (known) continue;
      std::vector<std::string> names;
      for (const auto& f : rt.fields) names.push_back(f.name);
      Diagnostic d(DiagCode::UnknownField, at.span,
                   fmt::format("{} is a {}, which has no field '{}'", named(what_, at.path), rt.name, n));
      if (auto near = closest_name(n, names); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
      d.note({}, fmt::format("the fields of a {}: {}", rt.name, fmt::join(names, ", ")));
      throw EvalError{std::move(d)};
    }
    std::vector<std::string> names;
    std::vector<Value> values;
    for (const auto& f : rt.fields) {
      ev_.charge(1, at.span);
      const auto it = std::find(r.names.begin(), r.names.end(), f.name);
      if (it != r.names.end()) {
        values.push_back(conform(f.type, r.values[static_cast<std::size_t>(it - r.names.begin())], at.field(f.name)));
      } else if (f.default_value) {
        // A default is completed in turn: `gear: {type: kit, default: {}}` gives a whole kit.
        values.push_back(conform(f.type, ev_.eval(*f.default_value), at.field(f.name)));
      } else {
        Diagnostic d(DiagCode::MissingArgument, at.span,
                     fmt::format("{} is a {}, which needs the field '{}'", named(what_, at.path), rt.name, f.name));
        if (!f.doc.empty()) d.note({}, fmt::format("{}: {}", f.name, f.doc));
        throw EvalError{std::move(d)};
      }
      names.push_back(f.name);
    }
    return make_record(std::move(names), std::move(values));
  }
};

Value Evaluator::conform(const ast::TypeSpec& t, const Value& v, const ast::Expr* src, Span span,
                         std::string_view what) {
  TypeChecker checker(*this, what);
  return checker.conform(t, v, Place{src, span, {}});
}

void Evaluator::check_type(const ast::TypeSpec& t, const Value& v, Span span, std::string_view what) {
  (void)conform(t, v, nullptr, span, what);
}

}  // namespace alea::detail
