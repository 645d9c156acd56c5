// interpreter/exact_demand.cpp — where a pool's total is all that is seen.
//
// The rules here must match how exact_compose.cpp passes demands down: each
// node kind gives its children the demands written below.
#include "interpreter/exact_demand.hpp"

#include <algorithm>
#include <array>

namespace alea::compose {
namespace {

constexpr Demand C = Demand::Counted;
constexpr Demand F = Demand::Full;

bool returns_pool(const ast::FnDef& fn) {
  if (!fn.result) return false;
  if (fn.result->returns && fn.result->returns->kind == ast::TypeSpec::Pool) return true;
  return std::any_of(fn.result->types.begin(), fn.result->types.end(),
                     [](const ast::TypeSpec& t) { return t.kind == ast::TypeSpec::Pool; });
}

}  // namespace

// A mechanic's changes see its parameters and its result as they are.
Demand Demands::body(const ast::FnDef& fn, Demand d) {
  return d == C && !returns_pool(fn) && fn.changes.empty() ? C : F;
}

Demand Demands::builtin_arg(std::string_view name, std::size_t i, std::size_t n, Demand d) {
  static constexpr std::array<std::string_view, 8> numeric = {
      "abs", "floor_div", "ceil_div", "trunc_div", "round_div", "clamp", "range", "str"};
  if (std::find(numeric.begin(), numeric.end(), name) != numeric.end()) return C;
  if ((name == "min" || name == "max" || name == "sum") && n != 1) return C;
  if (name == "note") return i == 0 ? C : d;
  if (name == "assert") return C;
  if (name == "contains" && i == 1) return C;
  return F;
}

Demand Demands::slot(std::int32_t slot, const ast::Expr& body, Demand d) {
  const auto key = std::make_tuple(static_cast<const void*>(&body), slot, d);
  if (auto it = slots_.find(key); it != slots_.end()) return it->second;
  slots_[key] = F;  // while in progress (a recursion): Full
  const Demand r = counted_only(slot, body, d) ? C : F;
  slots_[key] = r;
  return r;
}

Demand Demands::param(const ast::FnDef& fn, std::size_t param, Demand d) {
  const auto key = std::make_tuple(&fn, param, d);
  if (auto it = params_.find(key); it != params_.end()) return it->second;
  params_[key] = F;
  Demand r = F;
  const ast::TypeSpec* t = param < fn.types.size() && fn.types[param] ? &*fn.types[param] : nullptr;
  // A pool type, or a list or record type whose items may be pools.
  const bool typed_pool = t && (t->kind == ast::TypeSpec::Pool || t->items || t->record);
  if (!typed_pool && fn.changes.empty() && static_cast<std::int32_t>(param) >= fn.side_count) {
    const auto s = static_cast<std::int32_t>(param);
    bool ok = counted_only(s, fn.body, body(fn, d));
    // Defaults run in the callee's frame and may read earlier parameters.
    for (std::size_t k = 0; ok && k < fn.defaults.size(); ++k) {
      if (fn.defaults[k]) ok = counted_only(s, *fn.defaults[k], Demands::param(fn, k, d));
    }
    r = ok ? C : F;
  }
  params_[key] = r;
  return r;
}

bool Demands::counted_only(std::int32_t slot, const ast::Expr& e, Demand d) {
  return std::visit(
      [&](const auto& k) -> bool {
        using T = std::decay_t<decltype(k)>;
        if constexpr (std::is_same_v<T, ast::Name>) {
          return k.slot != slot || d == C;
        } else if constexpr (std::is_same_v<T, ast::Dice>) {
          return counted_only(slot, k.count, C) && counted_only(slot, k.sides, C);
        } else if constexpr (std::is_same_v<T, ast::PoolOp>) {
          bool ok = counted_only(slot, k.pool, F);
          std::visit(
              [&](const auto& o) {
                using O = std::decay_t<decltype(o)>;
                auto cond = [&](const std::optional<ast::Cond>& c) {
                  ok = ok && (!c || counted_only(slot, c->value, C));
                };
                if constexpr (std::is_same_v<O, ast::Explode>)
                  cond(o.cond), ok = ok && counted_only(slot, o.limit, C);
                else if constexpr (std::is_same_v<O, ast::Reroll>)
                  cond(o.cond);
                else if constexpr (std::is_same_v<O, ast::Keep>)
                  cond(o.cond), ok = ok && counted_only(slot, o.count, C);
                else if constexpr (std::is_same_v<O, ast::Count>) {
                  ok = ok && counted_only(slot, o.success.value, C);
                  cond(o.fail), cond(o.twice);
                } else if constexpr (std::is_same_v<O, ast::Under>)
                  cond(o.except), ok = ok && counted_only(slot, o.target, C);
                else if constexpr (std::is_same_v<O, ast::Cancel>)
                  cond(o.except), ok = ok && counted_only(slot, o.by, F);
                else if constexpr (std::is_same_v<O, ast::Clamp>)
                  ok = ok && counted_only(slot, o.low, C) && counted_only(slot, o.high, C);
              },
              k.op);
          return ok;
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          return counted_only(slot, k.operand, C);
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          return counted_only(slot, k.lhs, C) && counted_only(slot, k.rhs, C);
        } else if constexpr (std::is_same_v<T, ast::If>) {
          return counted_only(slot, k.cond, C) && counted_only(slot, k.then_, d) &&
                 counted_only(slot, k.else_, d);
        } else if constexpr (std::is_same_v<T, ast::Let>) {
          if (!counted_only(slot, k.value, this->slot(k.slot, *k.body, d))) return false;
          return k.slot == slot || counted_only(slot, k.body, d);
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          for (std::size_t i = 0; i < k.args.size(); ++i) {
            Demand a = F;
            if (k.target == ast::CallTarget::Builtin) {
              a = builtin_arg(k.name, i, k.args.size(), d);
            } else if (k.target == ast::CallTarget::User && k.fn) {
              const std::int32_t p =
                  i < k.arg_param.size() ? k.arg_param[i] : static_cast<std::int32_t>(i);
              if (p >= 0) a = param(*k.fn, static_cast<std::size_t>(p), d);
            }
            if (!counted_only(slot, k.args[i], a)) return false;
          }
          return true;
        } else if constexpr (std::is_same_v<T, ast::ListLit>) {
          return std::all_of(k.items.begin(), k.items.end(),
                             [&](const auto& i) { return counted_only(slot, i, d); });
        } else if constexpr (std::is_same_v<T, ast::RecordLit>) {
          return std::all_of(k.values.begin(), k.values.end(),
                             [&](const auto& v) { return counted_only(slot, v, d); });
        } else if constexpr (std::is_same_v<T, ast::Index>) {
          return counted_only(slot, k.object, d) && counted_only(slot, k.index, C);
        } else if constexpr (std::is_same_v<T, ast::Field>) {
          return counted_only(slot, k.object, d);
        } else if constexpr (std::is_same_v<T, ast::Tiers>) {
          if (!counted_only(slot, k.subject, C)) return false;
          for (const auto& t : k.tiers) {
            if (!counted_only(slot, t.test.low, C) || !counted_only(slot, t.test.high, C) ||
                !counted_only(slot, t.result, d)) {
              return false;
            }
          }
          return true;
        } else if constexpr (std::is_same_v<T, ast::Versus>) {
          const Demand first = k.rule ? this->slot(k.first_slot, *k.rule, d) : F;
          const Demand second = k.rule ? this->slot(k.second_slot, *k.rule, d) : F;
          if (!counted_only(slot, k.first, k.second ? first : std::min(first, second)))
            return false;
          if (!counted_only(slot, k.second, second)) return false;
          return k.first_slot == slot || k.second_slot == slot || counted_only(slot, k.rule, d);
        } else if constexpr (std::is_same_v<T, ast::Repeat>) {
          return counted_only(slot, k.count, C) && counted_only(slot, k.body, d);
        } else if constexpr (std::is_same_v<T, ast::For>) {
          if (!counted_only(slot, k.list, F)) return false;
          return k.slot == slot || counted_only(slot, k.body, d);
        } else if constexpr (std::is_same_v<T, ast::Loop>) {
          if (!counted_only(slot, k.init, F)) return false;
          return k.slot == slot || (counted_only(slot, k.cond, C) && counted_only(slot, k.next, F));
        } else {
          return true;  // literals
        }
      },
      e.kind);
}

namespace {

// Calls f on every child expression of e.
template <class F>
void children(const ast::Expr& e, F f) {
  auto one = [&](const ast::ExprPtr& c) {
    if (c) f(*c);
  };
  auto cond = [&](const std::optional<ast::Cond>& c) {
    if (c) one(c->value);
  };
  std::visit(
      [&](const auto& k) {
        using T = std::decay_t<decltype(k)>;
        if constexpr (std::is_same_v<T, ast::Dice>) {
          one(k.count), one(k.sides);
        } else if constexpr (std::is_same_v<T, ast::PoolOp>) {
          one(k.pool);
          std::visit(
              [&](const auto& o) {
                using O = std::decay_t<decltype(o)>;
                if constexpr (std::is_same_v<O, ast::Explode>)
                  cond(o.cond), one(o.limit);
                else if constexpr (std::is_same_v<O, ast::Reroll>)
                  cond(o.cond);
                else if constexpr (std::is_same_v<O, ast::Keep>)
                  one(o.count), cond(o.cond);
                else if constexpr (std::is_same_v<O, ast::Count>)
                  one(o.success.value), cond(o.fail), cond(o.twice);
                else if constexpr (std::is_same_v<O, ast::Under>)
                  one(o.target), cond(o.except);
                else if constexpr (std::is_same_v<O, ast::Cancel>)
                  one(o.by), cond(o.except);
                else if constexpr (std::is_same_v<O, ast::Clamp>)
                  one(o.low), one(o.high);
              },
              k.op);
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          one(k.operand);
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          one(k.lhs), one(k.rhs);
        } else if constexpr (std::is_same_v<T, ast::If>) {
          one(k.cond), one(k.then_), one(k.else_);
        } else if constexpr (std::is_same_v<T, ast::Let>) {
          one(k.value), one(k.body);
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          for (const auto& a : k.args) one(a);
        } else if constexpr (std::is_same_v<T, ast::ListLit>) {
          for (const auto& i : k.items) one(i);
        } else if constexpr (std::is_same_v<T, ast::RecordLit>) {
          for (const auto& v : k.values) one(v);
        } else if constexpr (std::is_same_v<T, ast::Index>) {
          one(k.object), one(k.index);
        } else if constexpr (std::is_same_v<T, ast::Field>) {
          one(k.object);
        } else if constexpr (std::is_same_v<T, ast::Tiers>) {
          one(k.subject);
          for (const auto& t : k.tiers) one(t.test.low), one(t.test.high), one(t.result);
        } else if constexpr (std::is_same_v<T, ast::Versus>) {
          one(k.first), one(k.second), one(k.rule);
        } else if constexpr (std::is_same_v<T, ast::Repeat>) {
          one(k.count), one(k.body);
        } else if constexpr (std::is_same_v<T, ast::For>) {
          one(k.list), one(k.body);
        } else if constexpr (std::is_same_v<T, ast::Loop>) {
          one(k.init), one(k.cond), one(k.next);
        }
      },
      e.kind);
}

void add_all(std::vector<std::int32_t>& into, const std::vector<std::int32_t>& from,
             std::initializer_list<std::int32_t> bound = {}) {
  for (auto s : from) {
    if (std::find(bound.begin(), bound.end(), s) == bound.end()) into.push_back(s);
  }
}

}  // namespace

const std::vector<std::int32_t>& Demands::free_slots(const ast::Expr& e) {
  if (auto it = free_.find(&e); it != free_.end()) return it->second;
  std::vector<std::int32_t> out;
  auto of = [&](const ast::ExprPtr& c) -> std::vector<std::int32_t> {
    return c ? free_slots(*c) : std::vector<std::int32_t>{};
  };
  if (const auto* n = std::get_if<ast::Name>(&e.kind)) {
    if (n->slot >= 0) out.push_back(n->slot);
  } else if (const auto* let = std::get_if<ast::Let>(&e.kind)) {
    add_all(out, of(let->value));
    add_all(out, of(let->body), {let->slot});
  } else if (const auto* f = std::get_if<ast::For>(&e.kind)) {
    add_all(out, of(f->list));
    add_all(out, of(f->body), {f->slot});
  } else if (const auto* l = std::get_if<ast::Loop>(&e.kind)) {
    add_all(out, of(l->init));
    add_all(out, of(l->cond), {l->slot});
    add_all(out, of(l->next), {l->slot});
  } else if (const auto* v = std::get_if<ast::Versus>(&e.kind)) {
    add_all(out, of(v->first));
    add_all(out, of(v->second));
    add_all(out, of(v->rule), {v->first_slot, v->second_slot});
    if (!v->second) {
      out.push_back(v->other_side_slot);
      add_all(out, v->field_slots);
    }
  } else {
    children(e, [&](const ast::Expr& c) { add_all(out, free_slots(c)); });
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return free_[&e] = std::move(out);
}

}  // namespace alea::compose
