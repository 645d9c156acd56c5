// interpreter/eval/builtins.cpp — functions every program can call. Integer
// arithmetic is checked; every rounding helper says its direction in its name.
#include "interpreter/eval/builtins.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "interpreter/eval/builtin_table.hpp"
#include "interpreter/eval/eval_context.hpp"

namespace alea {
namespace detail {

Value b_roll_each(BuiltinCall& c);  // builtins_dice.cpp

namespace {

std::int64_t int_arg(BuiltinCall& c, std::size_t i, std::string_view fn) {
  if (const std::int64_t* x = c.args[i].as_int()) return *x;  // the words below only for an error
  return c.ev.to_int(c.args[i], c.arg_span(i), fmt::format("argument {} of '{}'", i + 1, fn));
}

// The numbers in a list or pool, or the arguments themselves.
std::vector<std::int64_t> numbers(BuiltinCall& c, std::string_view fn) {
  std::vector<std::int64_t> out;
  if (c.args.size() == 1) {
    if (const auto* l = c.args[0].as_list()) {
      c.ev.charge_items(l->size(), c.span);
      for (const auto& v : *l) {
        const std::int64_t* x = v.as_int();
        out.push_back(x ? *x : c.ev.to_int(v, c.arg_span(0), fmt::format("an item given to '{}'", fn)));
      }
      return out;
    }
    if (const auto* p = c.args[0].as_pool()) {
      c.ev.charge_items(p->dice.size(), c.span);
      for (const auto& d : p->dice) out.push_back(d.face);
      return out;
    }
  }
  for (std::size_t i = 0; i < c.args.size(); ++i) out.push_back(int_arg(c, i, fn));
  return out;
}

// Argument i, a list; charges the items, for builtins that go through it.
const std::vector<Value>& list_arg(BuiltinCall& c, std::size_t i, std::string_view fn) {
  if (const auto* l = c.args[i].as_list()) {
    c.ev.charge_items(l->size(), c.arg_span(i));
    return *l;
  }
  fail(DiagCode::TypeMismatch, c.arg_span(i),
       fmt::format("argument {} of '{}' must be a list, got {}", i + 1, fn, describe(c.args[i])));
}

// A division of the two arguments: a zero divisor is reported at the divisor, an overflow at the call.
Value division(BuiltinCall& c, std::string_view fn, kernel::Checked (*divide)(std::int64_t, std::int64_t)) {
  const std::int64_t a = int_arg(c, 0, fn);
  const std::int64_t b = int_arg(c, 1, fn);
  return checked_value(divide(a, b), c.span, c.arg_span(1));
}

Value b_sum(BuiltinCall& c) {
  std::int64_t s = 0;
  for (auto v : numbers(c, "sum")) s = checked_value(kernel::add(s, v), c.span, c.span);
  return s;
}

Value b_len(BuiltinCall& c) {
  const Value& v = c.args[0];
  if (const auto* l = v.as_list()) return static_cast<std::int64_t>(l->size());
  if (const auto* p = v.as_pool()) return static_cast<std::int64_t>(p->dice.size());
  if (const auto* r = v.as_record()) return static_cast<std::int64_t>(r->names.size());
  if (const auto* s = v.as_str()) {
    c.ev.charge_bytes(s->size(), c.span);
    return static_cast<std::int64_t>(count_code_points(*s));
  }
  fail(DiagCode::TypeMismatch, c.arg_span(0), fmt::format("'len' needs a list, pool, record or string, got {}", describe(v)));
}

Value extreme(BuiltinCall& c, bool want_max) {
  const auto ns = numbers(c, want_max ? "max" : "min");
  if (ns.empty()) fail(DiagCode::InvalidArgument, c.span, fmt::format("'{}' of nothing", want_max ? "max" : "min"));
  return want_max ? *std::max_element(ns.begin(), ns.end()) : *std::min_element(ns.begin(), ns.end());
}
Value b_min(BuiltinCall& c) { return extreme(c, false); }
Value b_max(BuiltinCall& c) { return extreme(c, true); }

Value b_abs(BuiltinCall& c) {
  return checked_value(kernel::abs(int_arg(c, 0, "abs")), c.span, c.span);
}

Value b_floor_div(BuiltinCall& c) { return division(c, "floor_div", kernel::floor_div); }
Value b_ceil_div(BuiltinCall& c) { return division(c, "ceil_div", kernel::ceil_div); }
Value b_trunc_div(BuiltinCall& c) { return division(c, "trunc_div", kernel::trunc_div); }
Value b_round_div(BuiltinCall& c) { return division(c, "round_div", kernel::round_div); }

Value b_clamp(BuiltinCall& c) {
  const std::int64_t x = int_arg(c, 0, "clamp"), lo = int_arg(c, 1, "clamp"), hi = int_arg(c, 2, "clamp");
  if (lo > hi) fail(DiagCode::InvalidArgument, c.span, fmt::format("clamp's minimum {} is above its maximum {}", lo, hi));
  return std::clamp(x, lo, hi);
}

Value b_faces(BuiltinCall& c) {
  const auto* p = c.args[0].as_pool();
  if (!p) fail(DiagCode::TypeMismatch, c.arg_span(0), fmt::format("'faces' needs a pool, got {}", describe(c.args[0])));
  c.ev.charge_items(p->dice.size(), c.span);
  std::vector<Value> out;
  for (const auto& d : p->dice) out.emplace_back(d.face);
  return make_list(std::move(out));
}

Value b_range(BuiltinCall& c) {
  const std::int64_t a = int_arg(c, 0, "range"), b = int_arg(c, 1, "range");
  std::vector<Value> out;
  if (b >= a) {  // unsigned width and a loop that stops before b: nothing overflows at int64's ends
    const std::uint64_t width = static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
    c.ev.check_size(width >= SIZE_MAX / 2 ? SIZE_MAX / 2 : static_cast<std::size_t>(width) + 1,
                    c.span);
    c.ev.charge_items(width + 1, c.span);
    for (std::int64_t i = a; i < b; ++i) out.emplace_back(i);
    out.emplace_back(b);
  }
  return make_list(std::move(out));
}

Value b_contains(BuiltinCall& c) {
  const Value& x = c.args[1];
  if (const auto* p = c.args[0].as_pool()) {
    c.ev.charge_items(p->dice.size(), c.span);
    for (const auto& d : p->dice) {
      if (Value(d.face) == x) return true;
    }
    return false;
  }
  const auto& l = list_arg(c, 0, "contains");
  return std::any_of(l.begin(), l.end(), [&](const Value& v) { return c.ev.equal(v, x, c.span); });
}

// A sort's comparisons: n log2 n.
void charge_sort(BuiltinCall& c, std::size_t n) {
  std::uint64_t log = 1;
  while ((std::uint64_t{1} << log) < n) ++log;
  c.ev.charge_items(n * log, c.span);
}

Value b_sort(BuiltinCall& c) {
  if (const auto* p = c.args[0].as_pool()) {  // a pool's faces
    charge_sort(c, p->dice.size());
    std::vector<std::int64_t> faces;
    for (const auto& d : p->dice) faces.push_back(d.face);
    std::sort(faces.begin(), faces.end());
    return make_list(std::vector<Value>(faces.begin(), faces.end()));
  }
  std::vector<Value> l = list_arg(c, 0, "sort");
  charge_sort(c, l.size());
  std::vector<std::int64_t> keys;
  for (const auto& v : l) keys.push_back(c.ev.to_int(v, c.arg_span(0), "an item given to 'sort'"));
  std::vector<std::size_t> idx(l.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::vector<Value> out;
  for (auto i : idx) out.push_back(l[i]);
  return make_list(std::move(out));
}

Value b_reverse(BuiltinCall& c) {
  std::vector<Value> l = list_arg(c, 0, "reverse");
  std::reverse(l.begin(), l.end());
  return make_list(std::move(l));
}

Value b_append(BuiltinCall& c) {
  std::vector<Value> l = list_arg(c, 0, "append");
  c.ev.check_size(l.size() + 1, c.span);
  l.push_back(c.args[1]);
  return make_list(std::move(l));
}

// Joins lists into a list, or pools into one pool.
Value b_concat(BuiltinCall& c) {
  if (c.args[0].as_pool()) {
    PoolData out;
    for (std::size_t i = 0; i < c.args.size(); ++i) {
      const auto* p = c.args[i].as_pool();
      if (!p) fail(DiagCode::TypeMismatch, c.arg_span(i), fmt::format("'concat' joins pools with pools, got {}", describe(c.args[i])));
      c.ev.charge_items(p->dice.size(), c.arg_span(i));
      out.dice.insert(out.dice.end(), p->dice.begin(), p->dice.end());
      out.groups.add(p->groups);
      c.ev.check_size(out.dice.size(), c.span);
    }
    return c.ev.make_pool(std::move(out), c.span);
  }
  std::vector<Value> out;
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    const auto& l = list_arg(c, i, "concat");
    c.ev.check_size(out.size() + l.size(), c.span);
    out.insert(out.end(), l.begin(), l.end());
  }
  return make_list(std::move(out));
}

// The lists of a list joined into one list, in order: one level only.
Value b_flatten(BuiltinCall& c) {
  const auto& xss = list_arg(c, 0, "flatten");
  std::vector<Value> out;
  for (std::size_t i = 0; i < xss.size(); ++i) {
    const auto* l = xss[i].as_list();
    if (!l) {
      fail(DiagCode::TypeMismatch, c.arg_span(0),
           fmt::format("'flatten' joins a list of lists, but item {} is {}", i, describe(xss[i])));
    }
    c.ev.charge_items(l->size(), c.arg_span(0));
    c.ev.check_size(out.size() + l->size(), c.span);
    out.insert(out.end(), l->begin(), l->end());
  }
  return make_list(std::move(out));
}

Value b_assert(BuiltinCall& c) {
  if (c.ev.to_bool(c.args[0], c.arg_span(0), "the condition of 'assert'")) return true;
  std::string msg = "assertion failed";
  if (c.args.size() > 1) msg += ": " + c.ev.display(c.args[1], c.arg_span(1));
  fail(DiagCode::AssertionFailed, c.arg_span(0), msg);
}

// A rule's refusal: a sentence, shown at the caller's argument for the parameter it names.
Value b_require(BuiltinCall& c) {
  if (c.ev.to_bool(c.args[0], c.arg_span(0), "the condition of 'require'")) return true;
  const auto* text = c.args[1].as_str();
  EvalError err{Diagnostic(DiagCode::Refused, c.arg_span(0), text ? *text : c.ev.display(c.args[1], c.arg_span(1)))};
  if (c.args.size() > 2) {
    const auto* name = c.args[2].as_str();
    if (!name) {
      fail(DiagCode::TypeMismatch, c.arg_span(2),
           fmt::format("the third argument of 'require' names a parameter, as a string; got {}", describe(c.args[2])));
    }
    err.diagnostic.argument = *name;
  }
  throw err;
}

const RecordData& record_arg(BuiltinCall& c, std::string_view fn) {
  if (const auto* r = c.args[0].as_record()) return *r;
  fail(DiagCode::TypeMismatch, c.arg_span(0), fmt::format("'{}' needs a record, got {}", fn, describe(c.args[0])));
}

const std::string& name_arg(BuiltinCall& c, std::size_t i, std::string_view fn) {
  if (const auto* s = c.args[i].as_str()) return *s;
  fail(DiagCode::TypeMismatch, c.arg_span(i), fmt::format("'{}' needs a field name (a string), got {}", fn, describe(c.args[i])));
}

Value b_has(BuiltinCall& c) {
  const auto& r = record_arg(c, "has");
  const auto& name = name_arg(c, 1, "has");
  c.ev.charge_items(r.names.size(), c.span);
  return std::find(r.names.begin(), r.names.end(), name) != r.names.end();
}

// A copy of the record with one field set (added if it was missing).
Value b_with(BuiltinCall& c) {
  RecordData r = record_arg(c, "with");
  const auto& name = name_arg(c, 1, "with");
  c.ev.charge_items(r.names.size(), c.span);
  auto it = std::find(r.names.begin(), r.names.end(), name);
  if (it == r.names.end()) {
    c.ev.check_size(r.names.size() + 1, c.span);
    r.names.push_back(name);
    r.values.push_back(c.args[2]);
  } else {
    r.values[static_cast<std::size_t>(it - r.names.begin())] = c.args[2];
  }
  return make_record(std::move(r.names), std::move(r.values));
}

// Each argument's text is made only up to the room left under
// max_string_length: a value that prints as gigabytes costs no more.
Value b_str(BuiltinCall& c) {
  const auto max = static_cast<std::size_t>(std::max<std::int64_t>(c.ev.limits().max_string_length, 0));
  std::string out;
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    const auto room = static_cast<std::int64_t>(max - out.size());
    if (display_exceeds(c.args[i], room)) c.ev.check_string(max + 1, c.arg_span(i));
    out += to_display(c.args[i], room);
  }
  c.ev.check_string(out.size(), c.span);
  return Value(std::move(out));
}

Value b_kind(BuiltinCall& c) { return Value(std::string(kind_name(c.args[0].kind()))); }

// Every die the rolls behind a pool produced, in the order rolled: the kept
// ones and those removed by keep, drop, under or cancel (a rerolled die counts
// as its last roll; compounding rolls are part of their die).
Value b_rolled(BuiltinCall& c) {
  const auto* p = c.args[0].as_pool();
  if (!p) fail(DiagCode::TypeMismatch, c.arg_span(0), fmt::format("'rolled' needs a pool, got {}", describe(c.args[0])));
  const Trace& t = c.ev.trace();
  c.ev.charge_items(t.dice.size(), c.span);
  std::vector<Value> out;
  for (const DieRecord& d : t.dice) {
    if (d.fate == DieFate::Rerolled || d.fate == DieFate::Added) continue;
    if (p->groups.contains(d.group)) out.emplace_back(d.face);
  }
  return make_list(std::move(out));
}

// Adds "label: value" to the breakdown and gives the value back.
Value b_note(BuiltinCall& c) {
  if (!c.ev.notes()) return c.args[1];
  const std::string label = c.args[0].as_str() ? *c.args[0].as_str() : c.ev.display(c.args[0], c.arg_span(0));
  const std::string value = c.ev.display(c.args[1], c.arg_span(1));
  c.ev.add_note(c.span, fmt::format("{}: {}", label, value), value);
  return c.args[1];
}

__extension__ using wide = __int128;  // sums of int64 items, without overflow

// The numbers of a list, or the faces of a pool (argument 1), largest first;
// charged as a sort.
std::vector<std::int64_t> descending(BuiltinCall& c, std::string_view fn) {
  if (!c.args[0].as_list() && !c.args[0].as_pool()) {
    fail(DiagCode::TypeMismatch, c.arg_span(0),
         fmt::format("argument 1 of '{}' must be a list or a pool, got {}", fn, describe(c.args[0])));
  }
  std::vector<Value> one{c.args[0]};
  BuiltinCall items{c.ev, one, c.arg_exprs, c.span};
  std::vector<std::int64_t> xs = numbers(items, fn);
  charge_sort(c, xs.size());
  std::sort(xs.begin(), xs.end(), std::greater<>());
  return xs;
}

// How few of the items `xs` (largest first) reach `target` together: the k
// largest make the largest sum of any k items, so it is a prefix's length.
// 0 for a target of 0 or less; nullopt when all of them fall short.
std::optional<std::size_t> fewest(const std::vector<std::int64_t>& xs, std::int64_t target) {
  std::size_t k = 0;
  wide total = 0;
  while (total < target && k < xs.size()) total += xs[k++];
  if (total < target) return std::nullopt;
  return k;
}

Value b_fewest_reaching(BuiltinCall& c) {
  const std::vector<std::int64_t> xs = descending(c, "fewest_reaching");
  const auto k = fewest(xs, int_arg(c, 1, "fewest_reaching"));
  if (!k) return NoneValue{};
  return static_cast<std::int64_t>(*k);
}

// The fewest items whose sum reaches `target`; among those, the smallest sum,
// then the largest items first. {used, leftover}, both largest first, or none
// when all the items together fall short.
Value b_cover(BuiltinCall& c) {
  const std::vector<std::int64_t> xs = descending(c, "cover");
  const std::int64_t target = int_arg(c, 1, "cover");
  const auto fewest_items = fewest(xs, target);
  if (!fewest_items) return NoneValue{};
  const std::size_t k = *fewest_items;
  // Equal items form groups; take counts of the larger items first, so the
  // first subset found with a given sum is the lexicographically largest.
  struct Group {
    std::int64_t value;
    std::size_t count;
  };
  std::vector<Group> groups;
  for (auto x : xs) {
    if (!groups.empty() && groups.back().value == x) ++groups.back().count;
    else groups.push_back({x, 1});
  }
  std::vector<std::size_t> first(groups.size() + 1, 0);  // index in xs where group g starts
  for (std::size_t g = 0; g < groups.size(); ++g) first[g + 1] = first[g] + groups[g].count;
  std::vector<wide> sums(xs.size() + 1, 0);  // sums[i] = xs[0] + … + xs[i-1]
  for (std::size_t i = 0; i < xs.size(); ++i) sums[i + 1] = sums[i] + xs[i];
  std::vector<std::size_t> take(groups.size(), 0), best_take;
  wide best = 0;
  bool found = false;
  std::int64_t visited = 0;
  auto search = [&](auto&& self, std::size_t g, wide sum, std::size_t n) -> void {
    if (++visited % 1024 == 0) c.ev.charge(1024, c.span);
    const std::size_t r = k - n;
    if (r == 0) {
      if (sum >= target && (!found || sum < best)) {
        found = true;
        best = sum;
        best_take = take;
      }
      return;
    }
    const std::size_t from = first[g];
    if (g == groups.size() || xs.size() - from < r) return;
    const wide most = sum + sums[from + r] - sums[from];                    // the r largest left
    const wide least = sum + sums[xs.size()] - sums[xs.size() - r];        // the r smallest left
    if (most < target || (found && least >= best)) return;
    for (std::size_t t = std::min(groups[g].count, r) + 1; t-- > 0;) {
      take[g] = t;
      self(self, g + 1, sum + static_cast<wide>(groups[g].value) * static_cast<wide>(t), n + t);
    }
    take[g] = 0;
  };
  search(search, 0, 0, 0);
  std::vector<Value> used, leftover;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::size_t i = 0; i < groups[g].count; ++i) {
      (i < best_take[g] ? used : leftover).emplace_back(groups[g].value);
    }
  }
  return make_record({"used", "leftover"}, {make_list(std::move(used)), make_list(std::move(leftover))});
}

// A builtin's capabilities: what it sees of its first argument and of the
// rest, how the sampler lowers it, and whether it sees dice order or draws dice.
enum Flag { Plain, SeesOrder, Draws };
struct Caps : BuiltinCaps {
  Caps(ArgUse first_arg = ArgUse::Whole, ArgUse other_args = ArgUse::Whole, Lowering lowering = Lowering::None,
       Flag flag = Plain, OnSummary summary = OnSummary::No) {
    on_summary = summary;
    first = first_arg;
    rest = other_args;
    lowered_as = lowering;
    sees_order = flag == SeesOrder;
    draws = flag == Draws;
  }
};

struct Entry {
  BuiltinSignature sig;
  BuiltinFn fn;
  Caps caps;
  std::string usage, summary;
};

const std::vector<Entry>& table() {
  static const std::vector<Entry> t = {
      {{"sum", 1, -1}, b_sum, {ArgUse::TotalIfMany, ArgUse::Total, Lowering::Sum, Plain, OnSummary::Same}, "sum(xs)", "the sum of a list, of a pool's faces, or of the arguments"},
      {{"len", 1, 1}, b_len, {ArgUse::Whole, ArgUse::Whole, Lowering::Len, Plain, OnSummary::Same}, "len(x)", "the number of items in a list, dice in a pool, fields in a record, or characters in a string"},
      {{"min", 1, -1}, b_min, {ArgUse::TotalIfMany, ArgUse::Total, Lowering::Min}, "min(a, b, …)", "the smallest of the arguments, or of a list or pool"},
      {{"max", 1, -1}, b_max, {ArgUse::TotalIfMany, ArgUse::Total, Lowering::Max}, "max(a, b, …)", "the largest of the arguments, or of a list or pool"},
      {{"abs", 1, 1}, b_abs, {ArgUse::Total, ArgUse::Total, Lowering::Abs}, "abs(x)", "the absolute value"},
      {{"floor_div", 2, 2}, b_floor_div, {ArgUse::Total, ArgUse::Total, Lowering::FloorDiv}, "floor_div(a, b)", "a / b rounded down (the same as '/')"},
      {{"ceil_div", 2, 2}, b_ceil_div, {ArgUse::Total, ArgUse::Total, Lowering::CeilDiv}, "ceil_div(a, b)", "a / b rounded up"},
      {{"trunc_div", 2, 2}, b_trunc_div, {ArgUse::Total, ArgUse::Total, Lowering::TruncDiv}, "trunc_div(a, b)", "a / b rounded toward zero"},
      {{"round_div", 2, 2}, b_round_div, {ArgUse::Total, ArgUse::Total, Lowering::RoundDiv}, "round_div(a, b)", "a / b rounded to the nearest integer, halves away from zero"},
      {{"clamp", 3, 3}, b_clamp, {ArgUse::Total, ArgUse::Total, Lowering::Clamp}, "clamp(x, lo, hi)", "x limited to the range lo..hi"},
      {{"faces", 1, 1}, b_faces, {ArgUse::Whole, ArgUse::Whole, Lowering::None, SeesOrder}, "faces(pool)", "the faces of a pool's dice, as a list"},
      {{"range", 2, 2}, b_range, {ArgUse::Total, ArgUse::Total}, "range(a, b)", "the list a, a+1, …, b"},
      {{"contains", 2, 2}, b_contains, {ArgUse::Whole, ArgUse::Total}, "contains(xs, x)", "whether a list (or a pool's faces) holds x"},
      {{"sort", 1, 1}, b_sort, {}, "sort(xs)", "a list of numbers (or a pool's faces) in ascending order"},
      {{"reverse", 1, 1}, b_reverse, {}, "reverse(xs)", "a list in reverse order"},
      {{"append", 2, 2}, b_append, {}, "append(xs, x)", "a list with x added at the end"},
      {{"concat", 1, -1}, b_concat, {}, "concat(a, b, …)", "lists joined into one list, or pools into one pool"},
      {{"flatten", 1, 1}, b_flatten, {}, "flatten(xss)", "the lists of a list joined into one list, in order (one level)"},
      {{"assert", 1, 2}, b_assert, {ArgUse::Total, ArgUse::Total}, "assert(cond, message)", "fails with the message unless cond is true"},
      {{"require", 2, 3}, b_require, {ArgUse::Total, ArgUse::Total}, "require(cond, message, \"param\")", "true, or the rule refuses: the error is the message, shown at the caller's argument for the parameter named (Refused)"},
      {{"has", 2, 2}, b_has, {}, "has(record, \"name\")", "whether a record has a field"},
      {{"with", 3, 3}, b_with, {}, "with(record, \"name\", value)", "a copy of the record with one field set"},
      {{"str", 1, -1}, b_str, {ArgUse::Total, ArgUse::Total}, "str(x, …)", "the values as text, joined: str(\"hp \", 3) == \"hp 3\""},
      {{"kind", 1, 1}, b_kind, {}, "kind(x)", "what x is: \"int\", \"bool\", \"string\", \"pool\", \"list\", \"record\" or \"none\""},
      {{"rolled", 1, 1}, b_rolled, {ArgUse::Whole, ArgUse::Whole, Lowering::None, SeesOrder}, "rolled(pool)", "every die of the rolls behind a pool, the removed ones too, as a list of faces"},
      {{"note", 2, 2}, b_note, {ArgUse::Total, ArgUse::Passed, Lowering::Note}, "note(label, x)", "x, after adding the line 'label: x' to the breakdown"},
      {{"roll_each", 1, 2}, b_roll_each, {ArgUse::Whole, ArgUse::Whole, Lowering::None, Draws}, "roll_each(dice, die)", "rolls a list of described dice (records with a 'die' and tags such as a colour), each die with its tags in the trace; gives the records with each one's 'face'"},
      {{"fewest_reaching", 2, 2}, b_fewest_reaching, {ArgUse::Whole, ArgUse::Total, Lowering::None, Plain, OnSummary::Reach}, "fewest_reaching(xs, target)", "how few of the largest items of a list (or dice of a pool) reach target together: 0 for a target of 0 or less, none if all fall short"},
      {{"cover", 2, 2}, b_cover, {ArgUse::Whole, ArgUse::Whole, Lowering::None, Plain, OnSummary::Shape}, "cover(xs, target)", "{used, leftover}: the fewest items reaching target (smallest sum, then largest items), and the rest; none if all fall short"},
  };
  return t;
}

}  // namespace

BuiltinFn builtin_function(std::int32_t id) { return table().at(static_cast<std::size_t>(id)).fn; }
const BuiltinCaps& builtin_caps(std::int32_t id) { return table().at(static_cast<std::size_t>(id)).caps; }

}  // namespace detail

const std::vector<BuiltinSignature>& builtin_signatures() {
  static const std::vector<BuiltinSignature> sigs = [] {
    std::vector<BuiltinSignature> v;
    for (const auto& e : detail::table()) v.push_back(e.sig);
    return v;
  }();
  return sigs;
}

const std::vector<BuiltinDoc>& builtin_docs() {
  static const std::vector<BuiltinDoc> docs = [] {
    std::vector<BuiltinDoc> v;
    for (const auto& e : detail::table()) v.push_back({e.sig.name, e.usage, e.summary});
    return v;
  }();
  return docs;
}

}  // namespace alea
