// interpreter/eval/eval_context.hpp — internal: the state of one evaluation, shared
// by evaluator.cpp (expressions), interpreter/ops/ (pool operations) and builtins.cpp.
#pragma once

#include <chrono>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"
#include "interpreter/values/bindings.hpp"
#include "interpreter/eval/builtin_table.hpp"
#include "interpreter/values/dice.hpp"
#include "interpreter/values/kernels.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/rulesets/state.hpp"
#include "interpreter/values/trace.hpp"
#include "interpreter/values/value.hpp"

namespace alea::detail {

class What;  // interpreter/values/conform.hpp

// Carries a user-facing error out of the evaluation; caught in evaluate().
struct EvalError {
  Diagnostic diagnostic;
};

[[noreturn]] void fail(DiagCode code, Span span, std::string message);
// The value of a checked kernel operation, or its error: an overflow reported
// at `at`, a zero divisor at `divisor`.
[[noreturn]] void fail_checked(const kernel::Checked& r, Span at, Span divisor);
inline std::int64_t checked_value(const kernel::Checked& r, Span at, Span divisor) {
  if (!r.failed) [[likely]] return r.value;
  fail_checked(r, at, divisor);
}

class Evaluator {
 public:
  Evaluator(const Bindings& bindings, DiceSource& dice, const Limits& limits, Trace& trace,
            const RunInput& input = {})
      : bindings_(bindings), dice_(dice), limits_(limits), trace_(trace), cancel_(input.cancel),
        choices_(input.choices) {
    if (input.state) state_ = *input.state;
  }

  void run_program(const ast::Program& program, std::optional<Value>& value,
                   std::vector<std::pair<std::string, Value>>& globals);
  Value eval(const ast::Expr& e);
  // `e` in a frame holding `slots`, as if called `call_depth` calls and
  // `depth` levels deep: for the exact engine, which runs here what it can
  // compute without dice (Composer::run_plain).
  Value eval_in_frame(const ast::Expr& e, std::span<const Value> slots, std::int64_t call_depth,
                      std::int64_t depth) {
    // Room for the frames of the calls e makes, so that they do not move the
    // stack (and copy every value on it) as they push.
    stack_.clear();
    stack_.reserve(slots.size() + frame_room);
    stack_.assign(slots.begin(), slots.end());
    base_ = 0;
    call_depth_ = call_depth;
    depth_ = depth;
    return eval(e);
  }

  static constexpr std::size_t frame_room = 256;

  // Helpers for pool operations and builtins.
  std::int64_t eval_int(const ast::Expr& e, std::string_view what);
  std::int64_t to_int(const Value& v, Span span, std::string_view what);
  bool to_bool(const Value& v, Span span, std::string_view what);
  // Draws `count` faces of `kind` at once, counting them against max_dice.
  std::vector<std::int64_t> draw(const DieKind& kind, std::int64_t count, Span span);
  std::uint32_t add_die(std::uint32_t kind, std::int64_t face, DieOrigin origin,
                        std::int32_t parent, std::uint32_t group);
  Value apply_pool_op(const ast::PoolOp& op, const PoolData& pool);
  const Limits& limits() const { return limits_; }
  Trace& trace() { return trace_; }
  void check_size(std::size_t n, Span span);
  // Fails unless `v` is of type `t`; `what` names it ("the argument 'red'").
  void check_type(const ast::TypeSpec& t, const Value& v, Span span, const What& what);
  // The same check, giving `v` with the defaults of a record type's missing
  // fields filled in. `src` is the expression `v` came from: a problem inside
  // a literal list or record is shown where it was written.
  Value conform(const ast::TypeSpec& t, const Value& v, const ast::Expr* src, Span span,
                const What& what);
  // Counts `n` steps of work done outside eval() (a search inside an operation).
  void charge(std::int64_t n, Span span) {
    const std::int64_t before = steps_;
    steps_ += n;
    if (steps_ > limits_.max_steps) {
      fail(DiagCode::StepLimitExceeded, span,
           fmt::format("evaluation took more than {} steps (max_steps)", limits_.max_steps));
    }
    if ((before >> 10) != (steps_ >> 10)) poll_cancel(span);
  }
  // Work in proportion to its input (eval_work.cpp): one step per
  // items_per_step items touched, one per bytes_per_step bytes. Copying an
  // item or a byte is far cheaper than evaluating a node; at one step each,
  // a stdlib loop that updates a 3,000-field record cost more steps than its
  // time warranted.
  static constexpr std::uint64_t items_per_step = 16;
  static constexpr std::uint64_t bytes_per_step = 16;
  void charge_items(std::uint64_t n, Span span) { charge_work(n / items_per_step + 1, span); }
  void charge_bytes(std::uint64_t n, Span span) { charge_work(n / bytes_per_step + 1, span); }
  void charge_work(std::uint64_t steps, Span span) {
    charge(steps > static_cast<std::uint64_t>(INT64_MAX / 2) ? INT64_MAX / 2 : static_cast<std::int64_t>(steps), span);
  }
  // Fails unless `v` is within max_value_depth and max_value_size. Every value
  // of every node passes here: a number, truth value, string or none (which nest
  // nothing and count 1) is let through inline.
  void check_value(const Value& v, Span span) {
    const ValueKind k = v.kind();
    if (k == ValueKind::Pool || k == ValueKind::List || k == ValueKind::Record) check_collection(v, span);
  }
  void check_collection(const Value& v, Span span);
  [[noreturn]] void value_too_large(Span span);
  // What eval fails with past max_steps, or nested past max_eval_depth: out of
  // its line, which every node runs.
  [[noreturn, gnu::cold, gnu::noinline]] void too_many_steps(Span span);
  [[noreturn, gnu::cold, gnu::noinline]] void too_deep(Span span);
  // Fails unless a string of `bytes` bytes is within max_string_length; charges for making it.
  void check_string(std::size_t bytes, Span span);
  // `v` as text for the breakdown or a message: cut (with a marker) at
  // max_string_length, its making charged.
  std::string display(const Value& v, Span span);
  // Adds `item`'s size to `size`, the size of a list being built, failing
  // past max_value_size before the list is whole.
  void grow(std::uint64_t& size, const Value& item, Span span) {
    size += item.size();  // each at most max_value_size: no overflow
    if (size > static_cast<std::uint64_t>(limits_.max_value_size)) value_too_large(span);
  }
  // a == b, its work charged: equal values are walked whole.
  bool equal(const Value& a, const Value& b, Span span);
  // Fails with `Interrupted` once the host has asked the run to stop.
  // Before eval_in_frame: the parameters set by the calls in progress,
  // innermost last, and the constants known so far, as the exact engine has them.
  // Both must outlive the evaluator.
  using ConstantValues = std::vector<std::pair<const ast::Constant*, Value>>;
  void know_constants(const ConstantValues& overrides, const ConstantValues& known) {
    outer_overrides_ = &overrides;
    outer_constants_ = &known;
  }
  void poll_cancel(Span span) {
    if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) [[unlikely]] {
      fail(DiagCode::Interrupted, span, "interrupted");
    }
    if (deadline_ != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() > deadline_)
        [[unlikely]] {
      throw DeadlinePassed{};
    }
  }
  // Past `at`, the run stops with DeadlinePassed, checked where the cancel flag
  // is: the exact engine runs parts of a program here, within its time limit.
  struct DeadlinePassed {};
  void stop_at(std::chrono::steady_clock::time_point at) { deadline_ = at; }
  // Pools given to the run are sorted by face, their roll order lost (as the exact
  // engine keeps them): reading the order of one whose faces differ (an index, a
  // `for`) stops the run with OrderUnknown instead of reading the sorted order.
  struct OrderUnknown {};
  void pools_sorted(bool on) { pools_sorted_ = on; }
  // Throws OrderUnknown where the order of `pool`'s faces is read and unknown.
  void reading_order(const PoolData& pool) const {
    if (pools_sorted_ && !pool.alike()) [[unlikely]] throw OrderUnknown{};
  }
  // Whether note() adds its line to the breakdown: not where nobody reads it
  // (the exact engine), as a lowered run does not.
  [[nodiscard]] bool notes() const { return notes_; }
  void keep_notes(bool on) { notes_ = on; }
  // Adds a line to the breakdown.
  void add_note(Span span, std::string text, std::string result) {
    trace_.events.push_back({span, std::move(text), std::move(result), true});
  }
  // A pool value; fails if its total would not fit in 64 bits, so that every
  // pool can be used as a number.
  Value make_pool(PoolData pool, Span span);
  // The state as the run has left it so far.
  [[nodiscard]] const State& state() const { return state_; }
  [[nodiscard]] std::int64_t steps() const { return steps_; }

 private:
  const Bindings& bindings_;
  DiceSource& dice_;
  const Limits& limits_;
  Trace& trace_;
  const std::atomic<bool>* cancel_ = nullptr;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  std::vector<Value> stack_;
  std::size_t base_ = 0;
  std::vector<std::pair<std::string, Value>> globals_;
  std::int64_t steps_ = 0;
  std::int64_t dice_rolled_ = 0;
  std::int64_t call_depth_ = 0;
  std::int64_t depth_ = 0;
  bool notes_ = true;
  bool pools_sorted_ = false;

  template <class T>
  Value node(const T& k, const ast::Expr& e);
  Value lookup(const ast::Name& n, Span span);
  Value constant(const ast::Constant& c);
  Value call_user(const ast::Call& c, const ast::Expr& e);
  void check_result(const ast::FnDef& fn, const Value& v);
  // Ruleset parameters set by the calls in progress, innermost last.
  std::vector<std::pair<const ast::Constant*, Value>> overrides_;
  // Constants evaluated so far in this run.
  std::vector<std::pair<const ast::Constant*, Value>> constants_;
  // What know_constants gave: looked at after overrides_ and constants_.
  const ConstantValues* outer_overrides_ = nullptr;
  const ConstantValues* outer_constants_ = nullptr;
  Value binary(const ast::Binary& b, const ast::Expr& e);

  // State and choices (eval_state.cpp).
  const Choices* choices_ = nullptr;
  State state_;  // the run's working copy: the host's is changed only by a run that succeeds
  // The value of a state counter or a choice, before its default.
  std::optional<Value> host_value(const ast::Constant& c);
  // Sets a counter, checked against its type and (clamped to, or failing at) its bounds.
  void write_state(const ast::Constant& c, Value v, Span span, bool clamp);
  // A mechanic's `changes`, once its body gave `result`; its parameters are at `frame`.
  void apply_changes(const ast::FnDef& fn, std::size_t frame, const Value& result, Span span);
  Value call_hidden(const ast::FnDef& h, std::size_t frame, std::size_t params, const Value& result);
};

// A call of a builtin: what its implementation (builtins.cpp) is given.
struct BuiltinCall {
  Evaluator& ev;
  std::vector<Value>& args;
  const std::vector<ast::ExprPtr>& arg_exprs;
  Span span;  // the call
  Span arg_span(std::size_t i) const { return i < arg_exprs.size() ? arg_exprs[i]->span : span; }
};

}  // namespace alea::detail
