// interpreter/exact/exact_demand.cpp — where a pool's total is all that is seen.
//
// The rules here must match how exact_compose.cpp passes demands down: each
// node kind gives its children the demands written below.
#include "interpreter/exact/exact_demand.hpp"

#include <algorithm>

#include "interpreter/eval/builtin_table.hpp"

#include "dsl/ast_walk.hpp"

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

Demand Demands::builtin_arg(std::int32_t builtin, std::size_t i, std::size_t n, Demand d) {
  switch (detail::builtin_caps(builtin).arg(i)) {
    case detail::ArgUse::Whole: return F;
    case detail::ArgUse::Total: return C;
    case detail::ArgUse::TotalIfMany: return n == 1 ? F : C;
    case detail::ArgUse::Passed: return d;
  }
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
  // Whether every child of e, needed `c`, uses `slot` only as a total.
  auto all = [&](Demand c) {
    bool ok = true;
    ast::for_each_child(e, [&](const ast::Expr& x) { ok = ok && counted_only(slot, x, c); });
    return ok;
  };
  return std::visit(
      [&](const auto& k) -> bool {
        using T = std::decay_t<decltype(k)>;
        if constexpr (std::is_same_v<T, ast::Name>) {
          return k.slot != slot || d == C;
        } else if constexpr (ast::is_one_of<T, ast::Dice, ast::Unary, ast::Binary>) {
          return all(C);
        } else if constexpr (ast::is_one_of<T, ast::ListLit, ast::RecordLit, ast::Field>) {
          return all(d);
        } else if constexpr (std::is_same_v<T, ast::PoolOp>) {
          // The operation sees the pool's dice, and an operand's only when it is a pool.
          bool ok = counted_only(slot, k.pool, F);
          ast::for_each_operand(k, [&](const ast::Expr* o, ast::Operand use) {
            ok = ok && (!o || counted_only(slot, *o, use == ast::Operand::Pool ? F : C));
          });
          return ok;
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
              a = builtin_arg(k.builtin, i, k.args.size(), d);
            } else if (k.target == ast::CallTarget::User && k.fn) {
              const std::int32_t p =
                  i < k.arg_param.size() ? k.arg_param[i] : static_cast<std::int32_t>(i);
              if (p >= 0) a = param(*k.fn, static_cast<std::size_t>(p), d);
            }
            if (!counted_only(slot, k.args[i], a)) return false;
          }
          return true;
        } else if constexpr (std::is_same_v<T, ast::Index>) {
          return counted_only(slot, k.object, d) && counted_only(slot, k.index, C);
        } else if constexpr (std::is_same_v<T, ast::Tiers>) {
          if (!counted_only(slot, k.subject, C)) return false;
          for (const auto& t : k.tiers) {
            if (!counted_only(slot, t.test.low, C) || !counted_only(slot, t.test.high, C) ||
                !counted_only(slot, t.result, d)) {
              return false;
            }
          }
          return true;
        } else if constexpr (std::is_same_v<T, ast::Opposed>) {
          return counted_only(slot, *k.side, d);  // its side again, needed as the node is
        } else if constexpr (std::is_same_v<T, ast::Repeat>) {
          return counted_only(slot, k.count, C) && counted_only(slot, k.body, d);
        } else if constexpr (std::is_same_v<T, ast::For>) {
          if (!counted_only(slot, k.list, F)) return false;
          return k.slot == slot || counted_only(slot, k.body, d);
        } else if constexpr (std::is_same_v<T, ast::Loop>) {
          if (!counted_only(slot, k.init, F)) return false;
          return k.slot == slot || (counted_only(slot, k.cond, C) && counted_only(slot, k.next, F));
        } else if constexpr (ast::is_one_of<T, ast::IntLit, ast::BoolLit, ast::StrLit, ast::NoneLit>) {
          return true;
        } else {
          static_assert(ast::dependent_false<T>, "Demands::counted_only: an expression kind left out");
        }
      },
      e.kind);
}

namespace {

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
  std::visit(
      [&](const auto& k) {
        using T = std::decay_t<decltype(k)>;
        if constexpr (std::is_same_v<T, ast::Name>) {
          if (k.slot >= 0) out.push_back(k.slot);
        } else if constexpr (std::is_same_v<T, ast::Let>) {
          add_all(out, of(k.value));
          add_all(out, of(k.body), {k.slot});
        } else if constexpr (std::is_same_v<T, ast::For>) {
          add_all(out, of(k.list));
          add_all(out, of(k.body), {k.slot});
        } else if constexpr (std::is_same_v<T, ast::Loop>) {
          add_all(out, of(k.init));
          add_all(out, of(k.cond), {k.slot});
          add_all(out, of(k.next), {k.slot});
        } else if constexpr (std::is_same_v<T, ast::Opposed>) {
          // Its side again, with the fields read from the other side's record.
          add_all(out, free_slots(*k.side));
          out.push_back(k.other_side_slot);
          add_all(out, k.field_slots);
        } else if constexpr (ast::is_one_of<T, ast::IntLit, ast::BoolLit, ast::StrLit, ast::NoneLit, ast::Dice,
                                            ast::PoolOp, ast::Unary, ast::Binary, ast::If, ast::Call, ast::ListLit,
                                            ast::RecordLit, ast::Index, ast::Field, ast::Tiers, ast::Repeat>) {
          // binds nothing
          ast::for_each_child(e, [&](const ast::Expr& c) { add_all(out, free_slots(c)); });
        } else {
          static_assert(ast::dependent_false<T>, "Demands::free_slots: an expression kind left out");
        }
      },
      e.kind);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return free_[&e] = std::move(out);
}

}  // namespace alea::compose
