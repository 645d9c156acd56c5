// interpreter/exact/exact_compose.cpp — the composed exact engine: expressions,
// names, arithmetic, conditions and collections. Calls are in
// exact_compose_calls.cpp, dice and pool operations in exact_compose_pool.cpp.
#include "dsl/ast_walk.hpp"
#include "interpreter/exact/exact_compose.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "interpreter/values/conform.hpp"

namespace alea::compose {

namespace {

Value binop(ast::BinOp op, const Value& l, const Value& r) {
  using ast::BinOp;
  if (op == BinOp::Eq) return l == r;
  if (op == BinOp::Ne) return !(l == r);
  const std::int64_t x = to_int(l);
  const std::int64_t y = to_int(r);
  // Division rounds toward negative infinity and % takes the sign of the divisor (kernels.hpp).
  const auto arith = [](const kernel::Checked& c, const char* why) {
    if (c.failed) not_composable(why);
    return Value(c.value);
  };
  switch (op) {
    case BinOp::Add:
      return arith(kernel::add(x, y), "arithmetic overflows");
    case BinOp::Sub:
      return arith(kernel::sub(x, y), "arithmetic overflows");
    case BinOp::Mul:
      return arith(kernel::mul(x, y), "arithmetic overflows");
    case BinOp::Div:
      return arith(kernel::floor_div(x, y), "a division fails");
    case BinOp::Mod:
      return arith(kernel::floor_mod(x, y), "a division fails");
    case BinOp::Lt:
      return x < y;
    case BinOp::Le:
      return x <= y;
    case BinOp::Gt:
      return x > y;
    case BinOp::Ge:
      return x >= y;
    default:
      not_composable("an unknown operator");
  }
}

// A pool as its total, refused when the total overflows.
Value pool_as_total(const Value& v) {
  if (const auto* p = v.as_pool()) {
    if (auto t = pool_total(*p)) return Value(*t);
    not_composable("a pool's total overflows");
  }
  return v;
}

}  // namespace

std::int64_t to_int(const Value& v) {
  if (const auto* i = v.as_int()) return *i;
  if (const auto* p = v.as_pool()) {
    if (auto t = pool_total(*p)) return *t;
  }
  not_composable("a value that is not a number where a number is needed");
}

bool to_bool(const Value& v) {
  if (const auto* b = v.as_bool()) return *b;
  not_composable("a value that is not true or false where one is needed");
}

namespace {

// The shared type walk (conform.hpp), for a run that gives the branch up
// where the evaluator would fail.
struct ComposeHooks {
  Composer& composer;
  [[noreturn]] void fail(const Diagnostic&) { not_composable("a value of the wrong type"); }
  void charge(Span) {}
  std::optional<Value> field_default(const ast::FieldSpec& f) { return composer.field_default(f); }
  std::int64_t total(const Value& pool, Span, const std::string&) { return to_int(pool); }
};

}  // namespace

Value Composer::conform(const ast::TypeSpec& t, const Value& v) {
  ComposeHooks hooks{*this};
  return detail::conform_to(hooks, t, v, detail::TypePlace{}, "");
}

Value Composer::field_default(const ast::FieldSpec& f) {
  const Dist def = eval(*f.default_value, Demand::Full);
  if (!def.is_point()) not_composable("a field's default whose value is random");
  return def.entries[0].first;
}

template <>
Dist Composer::node(const ast::IntLit& k, const ast::Expr&, Demand) {
  return Dist::point(k.value);
}
template <>
Dist Composer::node(const ast::BoolLit& k, const ast::Expr&, Demand) {
  return Dist::point(k.value);
}
template <>
Dist Composer::node(const ast::StrLit& k, const ast::Expr&, Demand) {
  return Dist::point(Value(k.value));
}
template <>
Dist Composer::node(const ast::NoneLit&, const ast::Expr&, Demand) {
  return Dist::point(NoneValue{});
}

Dist Composer::constant(const ast::Constant& c) {
  for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
    if (it->first == &c) return Dist::point(it->second);
  }
  if (c.source == ast::Constant::Source::State) {
    // A run of the statistics starts from no state and decides no choice:
    // a counter holds its default until a call sets it.
    for (auto it = state_.rbegin(); it != state_.rend(); ++it) {
      if (it->first == &c) return Dist::point(it->second);
    }
    if (std::find(changed_.begin(), changed_.end(), &c) != changed_.end()) {
      not_composable("a counter read after a call changed it");
    }
  }
  for (const auto& [k, v] : constants_) {
    if (k == &c) return Dist::point(v);
  }
  // The evaluator computes a constant once per run: only a fixed one can be shared.
  Dist d = eval(*c.value, Demand::Full);
  if (!d.is_point()) not_composable("a constant whose value is random");
  if (c.type && (c.type->record || c.type->items)) d = Dist::point(conform(*c.type, d.entries[0].first));
  constants_.emplace_back(&c, d.entries[0].first);
  return d;
}

Dist Composer::lookup(const ast::Name& n) {
  for (auto it = globals_.rbegin(); it != globals_.rend(); ++it) {
    if (it->first == n.name) return Dist::point(it->second);
  }
  if (const Value* v = bindings_.find(n.name)) return Dist::point(*v);
  not_composable("an unknown name");
}

template <>
Dist Composer::node(const ast::Name& k, const ast::Expr&, Demand) {
  if (k.slot >= 0) {
    for (const Spread& s : spread_) {
      if (s.at == base_ + static_cast<std::size_t>(k.slot) && same(slot(k.slot), s.marker)) return *s.dist;
    }
    return Dist::point(slot(k.slot));
  }
  if (k.constant) return constant(*k.constant);
  return lookup(k);
}

template <>
Dist Composer::node(const ast::Unary& k, const ast::Expr&, Demand) {
  const Dist v = eval(k.operand, Demand::Counted);
  return map(budget_, v, [&](const Value& x) -> Value {
    if (k.op == ast::UnOp::Not) return !to_bool(x);
    const kernel::Checked r = kernel::neg(to_int(x));
    if (r.failed) not_composable("arithmetic overflows");
    return r.value;
  });
}

Dist Composer::binary(const ast::Binary& b) {
  const Dist lhs = eval(b.lhs, Demand::Counted);
  if (b.op == ast::BinOp::And || b.op == ast::BinOp::Or) {
    std::optional<Dist> rhs;
    return bind(budget_, lhs, [&](const Value& l) {
      const bool x = to_bool(l);
      if (b.op == ast::BinOp::And ? !x : x) return Dist::point(x);
      if (!rhs) rhs = eval(b.rhs, Demand::Counted);
      return map(budget_, *rhs, [](const Value& r) -> Value { return to_bool(r); });
    });
  }
  const Dist rhs = eval(b.rhs, Demand::Counted);
  return product(budget_, lhs, rhs,
                 [&](const Value& l, const Value& r) { return binop(b.op, l, r); });
}

template <>
Dist Composer::node(const ast::Binary& k, const ast::Expr&, Demand) {
  return binary(k);
}

template <>
Dist Composer::node(const ast::If& k, const ast::Expr&, Demand d) {
  const Dist c = eval(k.cond, Demand::Counted);
  std::optional<Dist> yes, no;
  return bind(budget_, c, [&](const Value& v) {
    if (to_bool(v)) {
      if (!yes) yes = eval(k.then_, d);
      return *yes;
    }
    if (!no) no = eval(k.else_, d);
    return *no;
  });
}

std::size_t Composer::MemoHash::operator()(const MemoKey& k) const {
  std::size_t h = std::hash<const void*>()(k.expr) ^ (k.frame * 0x9E3779B97F4A7C15ull) ^
                  static_cast<std::size_t>(k.demand);
  for (const auto& v : k.slots) h = h * 31 + hash_value(v);
  return h;
}

bool Composer::MemoEq::operator()(const MemoKey& a, const MemoKey& b) const {
  if (a.frame != b.frame || a.expr != b.expr || a.demand != b.demand ||
      a.slots.size() != b.slots.size())
    return false;
  for (std::size_t i = 0; i < a.slots.size(); ++i) {
    if (!same(a.slots[i], b.slots[i])) return false;
  }
  return true;
}

Dist Composer::memo_eval(const ast::Expr& e, Demand d) {
  MemoUse& use = memo_use_[&e];
  if (!use.pays()) return eval(e, d);
  ++use.lookups;
  MemoKey key{frame_, &e, d, {}};
  for (const std::int32_t s : demands_.free_slots(e)) key.slots.push_back(slot(s));
  if (auto it = memo_.find(key); it != memo_.end()) {
    ++use.hits;
    return it->second;
  }
  Dist r = eval(e, d);
  memo_.emplace(std::move(key), r);
  return r;
}

template <>
Dist Composer::node(const ast::Let& k, const ast::Expr&, Demand d) {
  return let_spine(k, d);
}

Dist Composer::joint(const std::vector<const ast::Expr*>& exprs,
                     const std::vector<Demand>& demands) {
  std::vector<Dist> parts;
  parts.reserve(exprs.size());
  bool certain = true;
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    parts.push_back(eval(*exprs[i], demands[i]));
    certain = certain && parts.back().is_point();
  }
  if (certain) {
    // Every part has one value: one list, no combining.
    std::vector<Value> items;
    items.reserve(parts.size());
    Dist out;
    for (const Dist& d : parts) {
      items.push_back(d.entries[0].first);
      out.steps += d.steps;
      out.dice += d.dice;
    }
    out.entries.emplace_back(make_list(std::move(items)), Weight(1));
    return out;
  }
  Dist acc = Dist::point(make_list({}));
  for (const Dist& d : parts) {
    acc = product(budget_, acc, d, [](const Value& list, const Value& x) {
      std::vector<Value> items = *list.as_list();
      items.push_back(x);
      return make_list(std::move(items));
    });
  }
  return acc;
}

namespace {
void check_size(std::size_t n, const Limits& limits) {
  if (static_cast<std::int64_t>(n) > limits.max_collection_size)
    not_composable("a collection too large");
}
}  // namespace

template <>
Dist Composer::node(const ast::ListLit& k, const ast::Expr&, Demand d) {
  check_size(k.items.size(), limits_);
  std::vector<const ast::Expr*> items;
  for (const auto& i : k.items) items.push_back(i.get());
  return joint(items, std::vector<Demand>(items.size(), d));
}

template <>
Dist Composer::node(const ast::RecordLit& k, const ast::Expr&, Demand d) {
  check_size(k.values.size(), limits_);
  std::vector<const ast::Expr*> values;
  for (const auto& v : k.values) values.push_back(v.get());
  const Dist j = joint(values, std::vector<Demand>(values.size(), d));
  return map(budget_, j, [&](const Value& list) { return make_record(k.names, *list.as_list()); });
}

template <>
Dist Composer::node(const ast::Index& k, const ast::Expr&, Demand d) {
  const Dist j = joint({k.object.get(), k.index.get()}, {d, Demand::Counted});
  return map(budget_, j, [](const Value& pair) -> Value {
    const Value& obj = (*pair.as_list())[0];
    const Value& idx = (*pair.as_list())[1];
    if (obj.as_record()) {
      const std::string* name = idx.as_str();
      if (name) {
        if (const Value* f = obj.field(*name)) return *f;
      }
      not_composable("a missing field");
    }
    const std::int64_t i = to_int(idx);
    if (const PoolData* p = obj.as_pool()) {
      const auto& dice = read_in_order(*p);
      if (i < 0 || static_cast<std::size_t>(i) >= dice.size()) not_composable("an index out of range");
      return Value(dice[static_cast<std::size_t>(i)].face);
    }
    const auto* l = obj.as_list();
    if (!l) not_composable("indexing something else than a list or record");
    if (i < 0 || static_cast<std::size_t>(i) >= l->size()) not_composable("an index out of range");
    return (*l)[static_cast<std::size_t>(i)];
  });
}

template <>
Dist Composer::node(const ast::Field& k, const ast::Expr&, Demand d) {
  const Dist obj = eval(k.object, d);
  return map(budget_, obj, [&](const Value& o) -> Value {
    if (const Value* f = o.field(k.name)) return *f;
    not_composable("a missing field");
  });
}

Dist Composer::tiers_from(const ast::Tiers& k, std::size_t i, std::int64_t x, TierDists& cache,
                          Demand d) {
  if (i == k.tiers.size()) not_composable("no tier matches");
  const ast::Tier& t = k.tiers[i];
  // Bounds and results do not depend on the subject: each is computed once.
  auto once = [&](std::optional<Dist>& slot, const ast::ExprPtr& x_, Demand dm) -> const Dist& {
    if (!slot) slot = eval(x_, dm);
    return *slot;
  };
  auto result = [&] { return once(cache.results[i], t.result, d); };
  auto next = [&] { return tiers_from(k, i + 1, x, cache, d); };
  switch (t.test.kind) {
    case ast::TierTest::Else:
      return result();
    case ast::TierTest::Range:
      return bind(budget_, once(cache.lows[i], t.test.low, Demand::Counted), [&](const Value& lo) {
        if (x < to_int(lo)) return next();
        return bind(budget_, once(cache.highs[i], t.test.high, Demand::Counted),
                    [&](const Value& hi) { return x <= to_int(hi) ? result() : next(); });
      });
    case ast::TierTest::Cmp:
      return bind(budget_, once(cache.lows[i], t.test.low, Demand::Counted), [&](const Value& y) {
        return kernel::compare(t.test.op, x, to_int(y)) ? result() : next();
      });
  }
  not_composable("an unknown tier");
}

template <>
Dist Composer::node(const ast::Tiers& k, const ast::Expr&, Demand d) {
  const Dist subject = eval(k.subject, Demand::Counted);
  TierDists cache;
  cache.lows.resize(k.tiers.size());
  cache.highs.resize(k.tiers.size());
  cache.results.resize(k.tiers.size());
  return bind(budget_, subject,
              [&](const Value& v) { return tiers_from(k, 0, to_int(v), cache, d); });
}

template <>
Dist Composer::node(const ast::Opposed& k, const ast::Expr&, Demand d) {
  return opposed(k, d);
}

std::int64_t Composer::repeat_count(const Value& count) {
  const std::int64_t n = to_int(count);
  if (n < 0 || n > limits_.max_loop_iterations) not_composable("a repeat count out of range");
  check_size(static_cast<std::size_t>(n), limits_);
  return n;
}

template <>
Dist Composer::node(const ast::Repeat& k, const ast::Expr&, Demand d) {
  const Dist count = eval(k.count, Demand::Counted);
  std::optional<Dist> body;
  return bind(budget_, count, [&](const Value& c) {
    const std::int64_t n = repeat_count(c);
    if (!body) body = eval(k.body, d);
    // A certain body: its one value n times, without appending n times.
    if (body->is_point()) {
      Dist r = Dist::point(make_list(std::vector<Value>(static_cast<std::size_t>(n), body->entries[0].first)));
      r.steps = body->steps * n;  // as n products would count them: each run still rolls its dice
      r.dice = body->dice * n;
      return r;
    }
    Dist acc = Dist::point(make_list({}));
    for (std::int64_t i = 0; i < n; ++i) {
      acc = product(budget_, acc, *body, [](const Value& list, const Value& x) {
        std::vector<Value> items = *list.as_list();
        items.push_back(x);
        return make_list(std::move(items));
      });
    }
    return acc;
  });
}

template <>
Dist Composer::node(const ast::For& k, const ast::Expr&, Demand d) {
  const Dist src = eval(k.list, Demand::Full);
  return bind(budget_, src, [&](const Value& s) {
    std::vector<Value> faces;
    if (const PoolData* p = s.as_pool()) {
      for (const PoolDie& die : read_in_order(*p)) faces.emplace_back(die.face);
    }
    const auto* l = s.as_pool() ? &faces : s.as_list();
    if (!l) not_composable("'for' over something else than a list");
    if (static_cast<std::int64_t>(l->size()) > limits_.max_loop_iterations)
      not_composable("a loop too long");
    check_size(l->size(), limits_);
    Dist acc = Dist::point(make_list({}));
    for (const Value& item : *l) {
      const Dist body = with_slot(k.slot, item, [&] { return eval(k.body, d); });
      acc = product(budget_, acc, body, [](const Value& list, const Value& x) {
        std::vector<Value> items = *list.as_list();
        items.push_back(x);
        return make_list(std::move(items));
      });
    }
    return acc;
  });
}

template <>
Dist Composer::node(const ast::Loop& k, const ast::Expr& e, Demand) {
  return loop(k, e);  // exact_compose_loop.cpp
}

template <>
Dist Composer::node(const ast::Call& k, const ast::Expr& e, Demand d) {
  if (k.target == ast::CallTarget::User) return call_user(k, e, d);
  if (k.target == ast::CallTarget::Builtin) return call_builtin(k, e, d);
  not_composable("an unresolved call");
}

template <>
Dist Composer::node(const ast::Dice&, const ast::Expr& e, Demand d) {
  return pool_chain(e, d);
}

template <>
Dist Composer::node(const ast::PoolOp&, const ast::Expr& e, Demand d) {
  return pool_chain(e, d);
}

Dist Composer::eval(const ast::Expr& e, Demand d) {
  const Nested nested(depth_);
  // (A literal or a name is as quick here; dice and what holds them never run there.)
  const bool maybe_plain = std::visit(
      [](const auto& k) {
        using T = std::decay_t<decltype(k)>;
        return !ast::is_one_of<T, ast::IntLit, ast::BoolLit, ast::StrLit, ast::NoneLit, ast::Name, ast::Dice,
                               ast::PoolOp, ast::Loop, ast::Opposed>;
      },
      e.kind);
  if (maybe_plain) {
    const Route how = route(e);
    // (A call whose memo pays is walked: its memo keeps it by its arguments' values, which
    // the same call meets again and again in a loop's rounds; its body still runs plain.)
    if (how == Route::Plain && !memoised_call(e)) {
      if (auto r = run_plain(e)) return checked(std::move(*r), d);
    } else if (how == Route::Paths) {
      if (auto r = run_enumerated(e)) return checked(std::move(*r), d);
    }
  }
  return checked(std::visit([&](const auto& k) { return node(k, e, d); }, e.kind), d);
}

Dist Composer::checked(Dist r, Demand d) {
  r.steps += 1;
  if (r.steps > limits_.max_steps) not_composable("a run would take more than max_steps steps");
  if (r.dice > limits_.max_dice) not_composable("a run could roll more than max_dice dice");
  bool pools = false;
  for (const auto& [v, w] : r.entries) {
    if (v.depth() > limits_.max_value_depth) not_composable("values nest too deep");
    if (v.size() > static_cast<std::uint64_t>(limits_.max_value_size)) not_composable("values too large");
    pools = pools || v.as_pool();
  }
  if (d == Demand::Counted && pools) {
    Dist c = map(budget_, r, pool_as_total);
    return c;
  }
  return r;
}

Dist Composer::statements_from(const ast::Program& program, std::size_t i, const Value* last) {
  for (; i < program.statements.size(); ++i) {
    const auto* let = std::get_if<ast::GlobalLet>(&program.statements[i]);
    if (!let) continue;
    const Dist v = eval(*let->value, Demand::Full);
    return bind(budget_, v, [&](const Value& x) {
      globals_.emplace_back(let->name, x);
      const std::uint64_t saved = frame_, saved_globals = globals_frame_;
      // What was computed before does not know this name, nor what a call
      // computed for another of its values (call_memo).
      frame_ = globals_frame_ = ++frames_;
      Dist r = statements_from(program, i + 1, &x);
      frame_ = saved;
      globals_frame_ = saved_globals;
      globals_.pop_back();
      return r;
    });
  }
  if (program.main) return eval(*program.main, Demand::Counted);
  if (!last) not_composable("a program without a value");
  return Dist::point(*last);
}

Dist Composer::run_program(const ast::Program& program) {
  stack_.assign(static_cast<std::size_t>(program.frame_size), Value());
  base_ = 0;
  return statements_from(program, 0, nullptr);
}

}  // namespace alea::compose
