// interpreter/values/value.hpp — the values of the language.
//
// A Value is a small immutable variant. Aggregates are shared_ptr<const T>, so
// copying one is cheap and values never form cycles.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "interpreter/limits.hpp"

namespace alea {

namespace ast {
struct TypeSpec;  // dsl/ast.hpp: values do not need the syntax tree, only type_admits names it
}  // namespace ast

// One die in a pool: its current face and its record in the Trace.
struct PoolDie {
  std::int64_t face = 0;
  std::uint32_t id = 0;
};

// The rolls (Trace::groups) a pool's dice came from. Almost every pool comes
// from one roll, which is kept inline so that rolling allocates nothing for it.
class RollOrigins {
 public:
  void add(std::uint32_t group) {
    if (contains(group)) return;
    if (first_ == none_) first_ = group;
    else more_.push_back(group);
  }
  void add(const RollOrigins& other) {
    if (other.first_ != none_) add(other.first_);
    for (auto g : other.more_) add(g);
  }
  [[nodiscard]] bool contains(std::uint32_t group) const {
    return group == first_ || std::find(more_.begin(), more_.end(), group) != more_.end();
  }

 private:
  static constexpr std::uint32_t none_ = 0xFFFFFFFFu;
  std::uint32_t first_ = none_;
  std::vector<std::uint32_t> more_;  // only when pools of several rolls were joined
};

// An ordered multiset of dice. A pool used as a number is the sum of its faces;
// a success pool (made by `under`) counts its dice instead.
struct PoolData {
  std::vector<PoolDie> dice;
  bool successes = false;
  // The rolls its dice came from, so that rolled() can give every die of them,
  // the removed ones too.
  RollOrigins groups;
  // Whether every die shows one face: then every order of the dice is the same.
  [[nodiscard]] bool alike() const {
    for (const PoolDie& d : dice) {
      if (d.face != dice.front().face) return false;
    }
    return true;
  }
};

// A hash of a list's or record's contents, kept by the first reader that
// computes one (0: none yet), as the exact engine's merging does. A copy starts
// empty.
struct HashCache {
  mutable std::atomic<std::size_t> value{0};
  HashCache() = default;
  HashCache(const HashCache&) noexcept {}
  HashCache& operator=(const HashCache&) noexcept {
    value.store(0, std::memory_order_relaxed);
    return *this;
  }
};

class Value;
struct RecordData {
  std::vector<std::string> names;  // in the order written
  std::vector<Value> values;
  std::uint32_t depth = 1;  // 1 + the depth of its deepest value
  std::uint64_t size = 1;   // Value::size(); cached so that building costs O(fields)
  HashCache hash;
};
// The items of a list, with how deeply values nest inside it.
struct ListData : std::vector<Value> {
  std::uint32_t depth = 1;  // 1 + the depth of its deepest item
  std::uint64_t size = 1;   // Value::size(); cached so that building costs O(items)
  HashCache hash;
};

using StrPtr = std::shared_ptr<const std::string>;
using PoolPtr = std::shared_ptr<const PoolData>;
using ListPtr = std::shared_ptr<const ListData>;
using RecordPtr = std::shared_ptr<const RecordData>;

enum class ValueKind { Int, Bool, Str, Pool, List, Record, None };

// The value `none`: nothing, no limit.
struct NoneValue {
  friend bool operator==(NoneValue, NoneValue) { return true; }
};

class Value {
 public:
  using Variant = std::variant<std::int64_t, bool, StrPtr, PoolPtr, ListPtr, RecordPtr, NoneValue>;

  Value() : v_(std::int64_t{0}) {}
  Value(std::int64_t i) : v_(i) {}  // NOLINT(google-explicit-constructor)
  Value(int i) : v_(std::int64_t{i}) {}  // NOLINT(google-explicit-constructor)
  Value(bool b) : v_(b) {}  // NOLINT(google-explicit-constructor)
  explicit Value(std::string s) : v_(std::make_shared<const std::string>(std::move(s))) {}
  explicit Value(PoolPtr p) : v_(std::move(p)) {}
  explicit Value(ListPtr l) : v_(std::move(l)) {}
  explicit Value(RecordPtr r) : v_(std::move(r)) {}
  Value(NoneValue n) : v_(n) {}  // NOLINT(google-explicit-constructor)
  [[nodiscard]] bool is_none() const { return std::holds_alternative<NoneValue>(v_); }

  [[nodiscard]] ValueKind kind() const { return static_cast<ValueKind>(v_.index()); }
  [[nodiscard]] const Variant& variant() const { return v_; }

  [[nodiscard]] const std::int64_t* as_int() const { return std::get_if<std::int64_t>(&v_); }
  [[nodiscard]] const bool* as_bool() const { return std::get_if<bool>(&v_); }
  [[nodiscard]] const std::string* as_str() const {
    auto p = std::get_if<StrPtr>(&v_);
    return p ? p->get() : nullptr;
  }
  [[nodiscard]] const PoolData* as_pool() const {
    auto p = std::get_if<PoolPtr>(&v_);
    return p ? p->get() : nullptr;
  }
  [[nodiscard]] const std::vector<Value>* as_list() const {
    auto p = std::get_if<ListPtr>(&v_);
    return p ? p->get() : nullptr;
  }
  [[nodiscard]] const RecordData* as_record() const {
    auto p = std::get_if<RecordPtr>(&v_);
    return p ? p->get() : nullptr;
  }
  // How deeply lists and records nest in this value: 0 for anything else.
  [[nodiscard]] std::uint32_t depth() const {
    if (const auto* l = std::get_if<ListPtr>(&v_)) return (*l)->depth;
    if (const auto* r = std::get_if<RecordPtr>(&v_)) return (*r)->depth;
    return 0;
  }
  // How many leaves the value prints as: 1 for a number, bool, string or none,
  // a pool's dice, the sum of a list's items or a record's values (an empty
  // one counts 1). A part shared by several places counts at each, so this is
  // what printing, comparing or serialising the value costs. Saturates.
  [[nodiscard]] std::uint64_t size() const {
    if (const auto* l = std::get_if<ListPtr>(&v_)) return (*l)->size;
    if (const auto* r = std::get_if<RecordPtr>(&v_)) return (*r)->size;
    if (const auto* p = std::get_if<PoolPtr>(&v_)) return std::max<std::uint64_t>(1, (*p)->dice.size());
    return 1;
  }
  // The field `name` of a record, or null.
  [[nodiscard]] const Value* field(std::string_view name) const;

  // The number a value stands for where a number is wanted: ints as they are,
  // pools by their total (or their size, for success pools). Null otherwise.
  [[nodiscard]] std::optional<std::int64_t> number() const;

  friend bool operator==(const Value& a, const Value& b);

 private:
  Variant v_;
};

// The total of a pool: the sum of its faces, or the number of dice for a success pool.
// Returns nullopt if the sum overflows.
[[nodiscard]] std::optional<std::int64_t> pool_total(const PoolData& pool);

// Whether v is a pool or a list or record that holds one, however deep.
[[nodiscard]] bool holds_pool(const Value& v);

// "int", "bool", "string", "pool", "list", "record", "none".
[[nodiscard]] std::string_view kind_name(ValueKind k);
// "a pool of 3 dice", "the int 5": for error messages.
[[nodiscard]] std::string describe(const Value& v);
// The value as a person reads it: 14, true, hit, [1, 2], {result: 14, success: true}.
// Past `max_bytes` the text is cut and ends with a marker saying how many
// values were left out (max_render_size); the time taken is in proportion to
// the text made, however large or shared the value.
[[nodiscard]] std::string to_display(const Value& v, std::int64_t max_bytes = Limits{}.max_render_size);
// Drops a UTF-8 sequence that cutting `s` short left incomplete at its end.
void trim_partial_utf8(std::string& s);
// Whether to_display(v, max_bytes) would be cut; the same cost as making it.
// `bytes` gets the length of the whole text when it is not.
[[nodiscard]] bool display_exceeds(const Value& v, std::int64_t max_bytes, std::size_t* bytes = nullptr);

// Whether `v` is of the kind `t` names (bounds and choices are not checked).
[[nodiscard]] bool type_admits(const ast::TypeSpec& t, const Value& v);

Value make_list(std::vector<Value> items);
Value make_record(std::vector<std::string> names, std::vector<Value> values);

}  // namespace alea
