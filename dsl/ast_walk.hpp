// dsl/ast_walk.hpp — the one definition of which expressions an expression holds.
//
// Every pass that visits an expression's children (the builder's depth, the
// resolver, the exact engine's demand and parameter order, the order scan) gets
// them here, so a new kind of expression or pool operation is taught to all of
// them at once. Each chain below ends in a static_assert: a kind left out here
// does not compile.
#pragma once

#include <type_traits>
#include <variant>

#include "dsl/ast.hpp"

namespace alea::ast {

// For the last branch of an `if constexpr` chain over a variant's alternatives:
// `else static_assert(dependent_false<T>, "…")` fails to compile only when an
// alternative reaches it.
template <class...>
inline constexpr bool dependent_false = false;

// Whether T is one of Ts: one branch of such a chain for kinds treated alike.
template <class T, class... Ts>
inline constexpr bool is_one_of = (std::is_same_v<T, Ts> || ...);

// How a pool operation uses one of its own expressions: as a number (a
// condition's value, a limit, a count, a target, a bound), or as a pool whose
// dice it looks at (the cancelling pool of `cancel`).
enum class Operand { Number, Pool };

// Calls f(expr, use) for each of a pool operation's parameters (not the pool
// it applies to), in the order the evaluator computes them: the order of its
// row in dsl/pool_ops.def. One that was not written is still passed, as a null
// `expr`, so that each operation always has the same number of them. `Op` is
// PoolOp or const PoolOp; `expr` is then an Expr* or a const Expr*.
template <class Op, class F>
void for_each_operand(Op& op, F&& f) {
  static_assert(std::is_same_v<std::remove_const_t<Op>, PoolOp>);
  using E = std::conditional_t<std::is_const_v<Op>, const Expr, Expr>;
  const PoolOpInfo& info = pool_op_info(op.id);
  for (std::size_t i = 0; i < op.params.size(); ++i) {
    f(static_cast<E*>(op.params[i].value.get()),
      info.param(i).kind == PoolOpPart::Pool ? Operand::Pool : Operand::Number);
  }
}

namespace detail {

template <class E, class F>
void each_child(E& e, F& f) {
  auto one = [&](auto& c) {
    if (c) f(static_cast<E&>(*c));
  };
  auto all = [&](auto& cs) {
    for (auto& c : cs) one(c);
  };
  std::visit(
      [&](auto& k) {
        using T = std::remove_cvref_t<decltype(k)>;
        if constexpr (is_one_of<T, IntLit, BoolLit, StrLit, NoneLit, Name, Opposed>) {
          // leaves (a ruleset constant's value is shared, not a child; an
          // Opposed node's side is the child of the `let $first` around it)
        } else if constexpr (std::is_same_v<T, Dice>) {
          one(k.count);
          one(k.sides);
        } else if constexpr (std::is_same_v<T, PoolOp>) {
          one(k.pool);
          for_each_operand(k, [&](E* c, Operand) {
            if (c) f(*c);
          });
        } else if constexpr (std::is_same_v<T, Unary>) {
          one(k.operand);
        } else if constexpr (std::is_same_v<T, Binary>) {
          one(k.lhs);
          one(k.rhs);
        } else if constexpr (std::is_same_v<T, If>) {
          one(k.cond);
          one(k.then_);
          one(k.else_);
        } else if constexpr (std::is_same_v<T, Let>) {
          one(k.value);
          one(k.body);
        } else if constexpr (std::is_same_v<T, Call>) {
          all(k.args);
        } else if constexpr (std::is_same_v<T, ListLit>) {
          all(k.items);
        } else if constexpr (std::is_same_v<T, RecordLit>) {
          all(k.values);
        } else if constexpr (std::is_same_v<T, Index>) {
          one(k.object);
          one(k.index);
        } else if constexpr (std::is_same_v<T, Field>) {
          one(k.object);
        } else if constexpr (std::is_same_v<T, Tiers>) {
          one(k.subject);
          for (auto& t : k.tiers) {
            one(t.test.low);
            one(t.test.high);
            one(t.result);
          }
        } else if constexpr (std::is_same_v<T, Repeat>) {
          one(k.count);
          one(k.body);
        } else if constexpr (std::is_same_v<T, For>) {
          one(k.list);
          one(k.body);
        } else if constexpr (std::is_same_v<T, Loop>) {
          one(k.init);
          one(k.cond);
          one(k.next);
        } else {
          static_assert(dependent_false<T>, "for_each_child: an expression kind without its children");
        }
      },
      e.kind);
}

}  // namespace detail

// Calls f(child) for each expression `e` holds directly, in the order they are
// written (a pool operation: its pool, then its operands as above); absent
// optional ones are skipped. A function's body is not the child of a call.
template <class F>
void for_each_child(const Expr& e, F&& f) {
  detail::each_child(e, f);
}

// The same, for a pass that writes into the tree (the resolver): f(Expr&).
template <class F>
void for_each_child(Expr& e, F&& f) {
  detail::each_child(e, f);
}

}  // namespace alea::ast
