// interpreter/eval/eval_state.cpp — rulesets' state and choices during one run:
// reading a counter or a choice, and the changes a mechanic makes when it
// returns. Every write goes to the run's own copy of the state, which the
// host receives only when the run succeeds.
#include <fmt/format.h>

#include "interpreter/eval/eval_context.hpp"
#include "interpreter/values/conform.hpp"

namespace alea::detail {

std::optional<Value> Evaluator::host_value(const ast::Constant& c) {
  if (c.source == ast::Constant::Source::Choice) {
    const Value* v = choices_ ? choices_->find(c.owner, c.name) : nullptr;
    if (!v) return std::nullopt;
    if (c.type) check_type(*c.type, *v, c.span, What("the choice", c.name));
    return *v;
  }
  const Value* v = state_.find(c.owner, c.name);
  if (!v) return std::nullopt;
  // The host's state may hold anything; the CLI checks a state file before a run.
  if (c.type) check_type(*c.type, *v, c.span, fmt::format("the state '{}' ({}.{})", c.name, c.owner, c.name));
  return *v;
}

void Evaluator::write_state(const ast::Constant& c, Value v, Span span, bool clamp) {
  // Read before writing: the old value, or the default the counter starts from.
  const Value old = constant(c);
  std::string bound;
  if (const auto* i = v.as_int(); i && c.type) {
    const auto& t = *c.type;
    std::int64_t x = *i;
    if (t.min && x < *t.min) {
      if (!clamp) {
        fail(DiagCode::StateOutOfRange, span,
             fmt::format("'{}' would become {}, below its least value {}", c.name, x, *t.min));
      }
      x = *t.min;
      bound = fmt::format(" (at least {})", *t.min);
    } else if (t.max && x > *t.max) {
      if (!clamp) {
        fail(DiagCode::StateOutOfRange, span,
             fmt::format("'{}' would become {}, above its greatest value {}", c.name, x, *t.max));
      }
      x = *t.max;
      bound = fmt::format(" (at most {})", *t.max);
    }
    v = Value(x);
  }
  if (c.type) check_type(*c.type, v, span, What("the new value of", c.name));
  const std::string shown = display(v, span);
  trace_.events.push_back({span, fmt::format("{}: {} → {}{}", c.name, display(old, span), shown, bound), shown, true});
  state_.set(c.owner, c.name, std::move(v));
}

Value Evaluator::call_hidden(const ast::FnDef& h, std::size_t frame, std::size_t params, const Value& result) {
  if (call_depth_ >= limits_.max_call_depth) {
    fail(DiagCode::CallDepthExceeded, h.span,
         fmt::format("calls nested more than {} deep (max_call_depth)", limits_.max_call_depth));
  }
  const std::size_t saved_base = base_;
  const std::size_t new_base = stack_.size();
  stack_.resize(new_base + static_cast<std::size_t>(h.frame_size));
  for (std::size_t k = 0; k < params; ++k) stack_[new_base + k] = stack_[frame + k];
  stack_[new_base + params] = result;
  ++call_depth_;
  struct Restore {
    Evaluator& ev;
    std::size_t base, size;
    ~Restore() {
      ev.base_ = base;
      ev.stack_.resize(size);
      --ev.call_depth_;
    }
  } restore{*this, saved_base, new_base};
  base_ = new_base;
  return eval(*h.body);
}

void Evaluator::apply_changes(const ast::FnDef& fn, std::size_t frame, const Value& result, Span span) {
  // Every amount and condition is computed from the state as the body left
  // it; then the changes are made in the order the ruleset lists them.
  struct Pending {
    const ast::StateChange* change;
    Value amount;
  };
  std::vector<Pending> pending;
  const std::size_t params = fn.params.size();
  for (const auto& ch : fn.changes) {
    if (ch.when) {
      const Value w = call_hidden(*ch.when, frame, params, result);
      if (!to_bool(w, ch.when->body->span, fmt::format("the 'when' of the change of '{}'", ch.counter->name))) continue;
    }
    Value amount;
    if (ch.value) amount = call_hidden(*ch.value, frame, params, result);
    pending.push_back({&ch, std::move(amount)});
  }
  for (auto& p : pending) {
    const ast::StateChange& ch = *p.change;
    const ast::Constant& c = *ch.counter;
    const Span at = ch.value ? ch.value->body->span : ch.span;
    switch (ch.op) {
      case ast::StateChange::Reset: {
        // The default, as declared (a call's argument for the counter does not change it).
        Value d = eval(*c.value);
        write_state(c, std::move(d), span, c.clamp);
        break;
      }
      case ast::StateChange::Set: write_state(c, std::move(p.amount), span, c.clamp); break;
      case ast::StateChange::Add:
      case ast::StateChange::Subtract: {
        const std::int64_t old = to_int(constant(c), c.span, fmt::format("the state '{}'", c.name));
        const std::int64_t by = to_int(p.amount, at, fmt::format("the amount '{}' changes by", c.name));
        const kernel::Checked x = ch.op == ast::StateChange::Add ? kernel::add(old, by) : kernel::sub(old, by);
        write_state(c, Value(checked_value(x, at, at)), span, c.clamp);
        break;
      }
    }
  }
}

}  // namespace alea::detail
