// interpreter/values/value.cpp — equality, totals and display of values.
#include "interpreter/values/value.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "dsl/ast.hpp"

namespace alea {

std::optional<std::int64_t> pool_total(const PoolData& pool) {
  if (pool.successes) return static_cast<std::int64_t>(pool.dice.size());
  std::int64_t sum = 0;
  for (const auto& d : pool.dice) {
    if (__builtin_add_overflow(sum, d.face, &sum)) return std::nullopt;
  }
  return sum;
}

const Value* Value::field(std::string_view name) const {
  const RecordData* r = as_record();
  if (!r) return nullptr;
  for (std::size_t i = 0; i < r->names.size(); ++i) {
    if (r->names[i] == name) return &r->values[i];
  }
  return nullptr;
}

std::optional<std::int64_t> Value::number() const {
  if (const auto* i = as_int()) return *i;
  if (const auto* p = as_pool()) return pool_total(*p);
  return std::nullopt;
}

bool operator==(const Value& a, const Value& b) {
  // Pools compare by their totals, with each other and with ints.
  if ((a.as_pool() || b.as_pool()) && a.number() && b.number()) return *a.number() == *b.number();
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ValueKind::Int: return *a.as_int() == *b.as_int();
    case ValueKind::Bool: return *a.as_bool() == *b.as_bool();
    case ValueKind::Str: return *a.as_str() == *b.as_str();
    case ValueKind::Pool: return false;  // only when a total overflowed
    case ValueKind::None: return true;
    case ValueKind::List: return *a.as_list() == *b.as_list();
    case ValueKind::Record: {
      const auto& x = *a.as_record();
      const auto& y = *b.as_record();
      // The same fields with equal values, in any order.
      if (x.names.size() != y.names.size()) return false;
      for (std::size_t i = 0; i < x.names.size(); ++i) {
        const Value* other = b.field(x.names[i]);
        if (!other || !(x.values[i] == *other)) return false;
      }
      return true;
    }
  }
  throw std::logic_error("unreachable: ValueKind");
}

std::string_view kind_name(ValueKind k) {
  switch (k) {
    case ValueKind::Int: return "int";
    case ValueKind::Bool: return "bool";
    case ValueKind::Str: return "string";
    case ValueKind::Pool: return "pool";
    case ValueKind::List: return "list";
    case ValueKind::Record: return "record";
    case ValueKind::None: return "none";
  }
  throw std::logic_error("unreachable: ValueKind");
}

std::string describe(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Int: return fmt::format("the number {}", *v.as_int());
    case ValueKind::Bool: return fmt::format("the bool {}", *v.as_bool() ? "true" : "false");
    case ValueKind::Str: return fmt::format("the string \"{}\"", *v.as_str());
    case ValueKind::Pool: {
      const auto n = v.as_pool()->dice.size();
      return fmt::format("a pool of {} {}", n, n == 1 ? "die" : "dice");
    }
    case ValueKind::List: {
      const auto n = v.as_list()->size();
      return fmt::format("a list of {} item{}", n, n == 1 ? "" : "s");
    }
    case ValueKind::Record: return "a record";
    case ValueKind::None: return "none";
  }
  throw std::logic_error("unreachable: ValueKind");
}

namespace {
// Inside a list or record a string keeps its quotes: [1, "hit"], not [1, hit].
std::string to_display_nested(const Value& v) {
  if (const auto* str = v.as_str()) {
    std::string q = "\"";
    for (char c : *str) {
      if (c == '"' || c == '\\') q += '\\';
      q += c;
    }
    return q + "\"";
  }
  return to_display(v);
}
}  // namespace

std::string to_display(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Int: return fmt::format("{}", *v.as_int());
    case ValueKind::Bool: return *v.as_bool() ? "true" : "false";
    case ValueKind::Str: return *v.as_str();
    case ValueKind::Pool: {
      const auto total = pool_total(*v.as_pool());
      return total ? fmt::format("{}", *total) : "overflow";
    }
    case ValueKind::List: {
      std::string s = "[";
      for (const auto& i : *v.as_list()) s += (s.size() > 1 ? ", " : "") + to_display_nested(i);
      return s + "]";
    }
    case ValueKind::Record: {
      const auto& r = *v.as_record();
      std::string s = "{";
      for (std::size_t i = 0; i < r.names.size(); ++i) {
        s += (i ? ", " : "") + r.names[i] + ": " + to_display_nested(r.values[i]);
      }
      return s + "}";
    }
    case ValueKind::None: return "none";
  }
  throw std::logic_error("unreachable: ValueKind");
}

bool type_admits(const ast::TypeSpec& t, const Value& v) {
  if (v.is_none()) return t.optional || t.kind == ast::TypeSpec::Any;
  switch (t.kind) {
    case ast::TypeSpec::Any: return true;
    case ast::TypeSpec::Int: return v.as_int() != nullptr;
    case ast::TypeSpec::Bool: return v.as_bool() != nullptr;
    case ast::TypeSpec::Str:
    case ast::TypeSpec::Label: return v.as_str() != nullptr;
    case ast::TypeSpec::List: return v.as_list() != nullptr;
    case ast::TypeSpec::Record: return v.as_record() != nullptr;
    case ast::TypeSpec::Pool: return v.as_pool() != nullptr;
  }
  throw std::logic_error("unreachable: TypeSpec");
}

Value make_list(std::vector<Value> items) {
  auto l = std::make_shared<ListData>();
  for (const auto& i : items) l->depth = std::max(l->depth, i.depth() + 1);
  static_cast<std::vector<Value>&>(*l) = std::move(items);
  return Value(ListPtr(std::move(l)));
}

Value make_record(std::vector<std::string> names, std::vector<Value> values) {
  auto r = std::make_shared<RecordData>();
  for (const auto& v : values) r->depth = std::max(r->depth, v.depth() + 1);
  r->names = std::move(names);
  r->values = std::move(values);
  return Value(RecordPtr(std::move(r)));
}

}  // namespace alea
