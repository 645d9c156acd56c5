// interpreter/values/value.cpp — equality, totals and display of values.
#include "interpreter/values/value.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "dsl/ast.hpp"

namespace alea {

void trim_partial_utf8(std::string& s) {
  std::size_t start = s.size();
  while (start > 0 && start + 4 > s.size() && (static_cast<unsigned char>(s[start - 1]) & 0xC0) == 0x80) --start;
  if (start == 0) return;
  const auto lead = static_cast<unsigned char>(s[start - 1]);
  const std::size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  if (s.size() - (start - 1) < need) s.resize(start - 1);
}

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
    // A shared part equals itself without a look inside: values share much.
    case ValueKind::Str: return a.as_str() == b.as_str() || *a.as_str() == *b.as_str();
    case ValueKind::Pool: return false;  // only when a total overflowed
    case ValueKind::None: return true;
    case ValueKind::List: return a.as_list() == b.as_list() || *a.as_list() == *b.as_list();
    case ValueKind::Record: {
      if (a.as_record() == b.as_record()) return true;
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

bool holds_pool(const Value& v) {
  if (v.as_pool()) return true;
  if (const auto* l = v.as_list()) return std::any_of(l->begin(), l->end(), holds_pool);
  if (const RecordData* r = v.as_record()) return std::any_of(r->values.begin(), r->values.end(), holds_pool);
  return false;
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
    case ValueKind::Str: {
      // An error message shows the start of a long string.
      const std::string& str = *v.as_str();
      if (str.size() <= 60) return fmt::format("the string \"{}\"", str);
      std::string start = str.substr(0, 50);
      trim_partial_utf8(start);
      return fmt::format("the string \"{}…\" ({} bytes)", start, str.size());
    }
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

// The text of a value, built up to a number of bytes and no further: a value
// that shares its parts can print as more text than memory holds.
class DisplayWriter {
 public:
  explicit DisplayWriter(std::size_t max) : max_(max) {}

  // Writes `v`; false once the text is full.
  bool value(const Value& v, bool nested) {
    switch (v.kind()) {
      case ValueKind::Str:
        // Inside a list or record a string keeps its quotes: [1, "hit"], not [1, hit].
        return nested ? leaf(quoted(*v.as_str()), 1) : leaf(*v.as_str(), 1);
      case ValueKind::List: {
        const auto& l = *v.as_list();
        if (!put("[")) return false;
        for (std::size_t i = 0; i < l.size(); ++i) {
          if ((i && !put(", ")) || !value(l[i], true)) return false;
        }
        if (l.empty()) shown_ += 1;  // an empty list counts as one value
        return put("]");
      }
      case ValueKind::Record: {
        const auto& r = *v.as_record();
        if (!put("{")) return false;
        for (std::size_t i = 0; i < r.names.size(); ++i) {
          if ((i && !put(", ")) || !put(r.names[i]) || !put(": ") || !value(r.values[i], true)) return false;
        }
        if (r.names.empty()) shown_ += 1;
        return put("}");
      }
      default: return leaf(scalar_text(v), v.size());
    }
  }

  std::string out;
  [[nodiscard]] bool cut() const { return cut_; }
  [[nodiscard]] std::uint64_t shown() const { return shown_; }

 private:
  std::size_t max_;
  bool cut_ = false;
  std::uint64_t shown_ = 0;  // leaves written whole

  bool put(std::string_view s) {
    if (s.size() > max_ - out.size()) {
      out.append(s.substr(0, max_ - out.size()));
      cut_ = true;
      return false;
    }
    out.append(s);
    return true;
  }
  bool leaf(std::string_view s, std::uint64_t leaves) {
    if (!put(s)) return false;
    shown_ += leaves;
    return true;
  }
  static std::string quoted(const std::string& str) {
    std::string q = "\"";
    for (char c : str) {
      if (c == '"' || c == '\\') q += '\\';
      q += c;
    }
    return q + "\"";
  }
  static std::string scalar_text(const Value& v) {
    switch (v.kind()) {
      case ValueKind::Int: return fmt::format("{}", *v.as_int());
      case ValueKind::Bool: return *v.as_bool() ? "true" : "false";
      case ValueKind::Pool: {
        const auto total = pool_total(*v.as_pool());
        return total ? fmt::format("{}", *total) : "overflow";
      }
      case ValueKind::None: return "none";
      default: throw std::logic_error("unreachable: not a scalar");
    }
  }
};

// Room kept for the marker that ends a cut text.
constexpr std::size_t marker_room = 128;


}  // namespace

bool display_exceeds(const Value& v, std::int64_t max_bytes, std::size_t* bytes) {
  DisplayWriter w(byte_limit(max_bytes));
  w.value(v, false);
  if (bytes && !w.cut()) *bytes = w.out.size();
  return w.cut();
}

std::string to_display(const Value& v, std::int64_t max_bytes) {
  const std::size_t max = byte_limit(max_bytes);
  {
    DisplayWriter whole(max);
    whole.value(v, false);
    if (!whole.cut()) return std::move(whole.out);
  }
  // Too long: again, leaving room for the marker.
  DisplayWriter w(max > marker_room ? max - marker_room : 0);
  w.value(v, false);
  trim_partial_utf8(w.out);
  const std::uint64_t total = v.size();
  const std::uint64_t left = total > w.shown() ? total - w.shown() : 1;
  w.out += fmt::format(" … [{} more value{} left out: the text passed {} bytes (max_render_size)]", left,
                       left == 1 ? "" : "s", max_bytes);
  return std::move(w.out);
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

namespace {
std::uint64_t add_size(std::uint64_t a, std::uint64_t b) {
  std::uint64_t s = 0;
  return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}
}  // namespace

Value make_list(std::vector<Value> items) {
  auto l = std::make_shared<ListData>();
  std::uint64_t size = 0;
  for (const auto& i : items) {
    l->depth = std::max(l->depth, i.depth() + 1);
    size = add_size(size, i.size());
  }
  l->size = std::max<std::uint64_t>(size, 1);
  static_cast<std::vector<Value>&>(*l) = std::move(items);
  return Value(ListPtr(std::move(l)));
}

Value make_record(std::vector<std::string> names, std::vector<Value> values) {
  auto r = std::make_shared<RecordData>();
  std::uint64_t size = 0;
  for (const auto& v : values) {
    r->depth = std::max(r->depth, v.depth() + 1);
    size = add_size(size, v.size());
  }
  r->size = std::max<std::uint64_t>(size, 1);
  r->names = std::move(names);
  r->values = std::move(values);
  return Value(RecordPtr(std::move(r)));
}

}  // namespace alea
