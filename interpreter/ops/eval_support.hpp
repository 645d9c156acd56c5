// interpreter/ops/eval_support.hpp — internal: what a pool operation's `eval`
// (interpreter/ops/<family>.cpp) uses of the tracing evaluator: its parameters'
// values, the trace records of the dice, and a pool's dice as the round
// kernels see them (EvalDice; all dice that go on together in one round are
// one pool drawn from the DiceSource, grouped by kind).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "interpreter/eval/eval_context.hpp"
#include "interpreter/values/kernels.hpp"

namespace alea::ops {

using kernel::DieTest;

// A die that goes on: its place in the output pool and the die whose face
// decides whether its chain goes on.
struct Active {
  std::size_t pos;
  std::uint32_t last_id;
};

class PoolEval {
 public:
  PoolEval(detail::Evaluator& ev, const ast::PoolOp& op) : ev_(ev), op_(op), span_(op.op_span) {}

  detail::Evaluator& evaluator() { return ev_; }
  [[nodiscard]] Span span() const { return span_; }
  [[nodiscard]] std::string_view name() const { return pool_op_info(op_.id).name; }
  [[nodiscard]] const Limits& limits() const { return ev_.limits(); }

  // Parameter i as a number; `what` names it in a type error.
  std::int64_t number(std::size_t i, std::string_view what) { return ev_.eval_int(*op_.arg(i), what); }
  // Parameter i's value (it must have been written).
  Value value(std::size_t i) { return ev_.eval(*op_.arg(i)); }
  // The test of condition parameter i; without one, the die's highest (or lowest) face.
  DieTest test(std::size_t i, bool highest);
  // Condition parameter i, when written and its value is not none (`except none`).
  std::optional<DieTest> optional_test(std::size_t i);
  static std::string text(const DieTest& t);

  DieRecord& rec(std::uint32_t id) { return ev_.trace().dice[id]; }
  const DieKind& kind_of(std::uint32_t id) { return ev_.trace().kinds[rec(id).kind]; }
  const DieKind& kind(std::uint32_t kind) { return ev_.trace().kinds[kind]; }
  // The kinds of dice in a pool, each once.
  std::vector<std::uint32_t> kinds_in(const PoolData& pool);
  // Draws one die for each entry, grouped by kind so each kind is one pool.
  std::vector<std::int64_t> draw_for(const std::vector<Active>& active);
  // A new die in the trace, drawn by this operation.
  std::uint32_t add_die(std::uint32_t parent, std::int64_t face, DieOrigin origin);
  // Marks the die as removed by this operation.
  void remove(std::uint32_t id, DieFate fate) {
    rec(id).fate = fate;
    rec(id).fate_by = span_;
  }
  void charge(std::int64_t n) { ev_.charge(n, span_); }

  [[noreturn]] void fail(DiagCode code, std::string message) { detail::fail(code, span_, std::move(message)); }
  [[noreturn]] void fail_at(DiagCode code, std::size_t param, std::string message) {
    detail::fail(code, op_.arg(param)->span, std::move(message));
  }

  // The pool this operation gives.
  Value finish(PoolData p) { return ev_.make_pool(std::move(p), span_); }

 private:
  detail::Evaluator& ev_;
  const ast::PoolOp& op_;
  Span span_;
};

// A pool's dice as a round kernel sees them in the evaluator (ops.hpp, "Shared
// loops"): each die an Active, its face in the pool and in its trace record.
// A family's adaptor derives from it, with its test and its errors.
class EvalDice {
 public:
  EvalDice(PoolEval& ev, PoolData& pool) : ev_(ev), pool_(pool) {}

  std::vector<Active> active, next;
  [[nodiscard]] std::size_t size() const { return pool_.dice.size(); }
  [[nodiscard]] Active die(std::size_t i) const { return {i, pool_.dice[i].id}; }
  [[nodiscard]] std::int64_t face(const Active& a) const { return pool_.dice[a.pos].face; }
  void set_face(const Active& a, std::int64_t f) {
    pool_.dice[a.pos].face = f;
    ev_.rec(pool_.dice[a.pos].id).face = f;
  }
  const std::int64_t* draw() {
    drawn_ = ev_.draw_for(active);
    return drawn_.data();
  }
  // n dice looked at, counted against max_steps as a builtin's items are.
  void charge_items(std::size_t n) { ev_.evaluator().charge_items(n, ev_.span()); }
  // The old die is marked rerolled, and its new die takes its place.
  Active reroll(const Active& a, std::int64_t f) {
    ev_.remove(a.last_id, DieFate::Rerolled);
    const std::uint32_t id = ev_.add_die(a.last_id, f, DieOrigin::Rerolled);
    pool_.dice[a.pos] = {f, id};
    return {a.pos, id};
  }

 protected:
  PoolEval& ev_;
  PoolData& pool_;

 private:
  std::vector<std::int64_t> drawn_;
};

}  // namespace alea::ops
