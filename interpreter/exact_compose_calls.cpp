// interpreter/exact_compose_calls.cpp — calls of user functions and builtins,
// and opposed rolls, in the composed exact engine.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "interpreter/eval_context.hpp"
#include "interpreter/exact_compose.hpp"

namespace alea::detail {
BuiltinFn builtin_function(std::int32_t id);  // builtins.cpp
}

namespace alea::compose {
namespace {

// Builtins that neither draw dice nor see the order of a roll's dice.
constexpr std::array<std::string_view, 23> composable_builtins = {
    "sum",       "len",   "min",   "max",      "abs",  "floor_div", "ceil_div", "trunc_div",
    "round_div", "clamp", "range", "contains", "sort", "reverse",   "append",   "concat",
    "assert",    "has",   "with",  "str",      "kind", "note",      "cover"};

// A dice source for builtins, which never roll.
class NoDice final : public DiceSource {
 public:
  void roll(const DieKind&, std::span<std::int64_t>) override {
    not_composable("a builtin that rolls dice");
  }
};

// As Evaluator::check_result: a mechanic's value must be the record it declares.
void check_result(const ast::FnDef& fn, const Value& v) {
  const ast::ResultSpec& r = *fn.result;
  if (r.fields.empty()) {
    if (r.returns && !type_ok(*r.returns, v)) not_composable("a result of the wrong type");
    return;
  }
  const RecordData* rec = v.as_record();
  if (!rec) not_composable("a result of the wrong type");
  for (std::size_t i = 0; i < r.fields.size(); ++i) {
    const Value* f = v.field(r.fields[i]);
    if (!f || !type_ok(r.types[i], *f)) not_composable("a result of the wrong type");
  }
  for (const auto& name : rec->names) {
    if (std::find(r.fields.begin(), r.fields.end(), name) == r.fields.end()) {
      not_composable("a result of the wrong type");
    }
  }
}

// As Evaluator::call_user: an error from inside a call notes the call.
std::shared_ptr<const Diagnostic> with_call_note(const Diagnostic& d, const std::string& name,
                                                 Span span) {
  auto out = std::make_shared<Diagnostic>(d);
  auto& notes = out->notes;
  const std::string text = fmt::format("in a call to '{}'", name);
  if (!notes.empty() && notes.back().span.begin == span.begin &&
      notes.back().span.file == span.file && notes.back().message.rfind(text, 0) == 0) {
    const auto open = notes.back().message.find('(');
    const long times =
        open == std::string::npos ? 1 : std::stol(notes.back().message.substr(open + 1));
    notes.back().message = fmt::format("{} ({} calls deep)", text, times + 1);
  } else if (notes.size() < 16) {
    out->note(span, text);
  }
  return out;
}

}  // namespace

Dist Composer::call_user(const ast::Call& c, const ast::Expr& e, Demand d) {
  std::vector<Dist> args;
  args.reserve(c.args.size());
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    const std::int32_t p = i < c.arg_param.size() ? c.arg_param[i] : static_cast<std::int32_t>(i);
    args.push_back(eval(
        *c.args[i], p >= 0 ? demands_.param(*c.fn, static_cast<std::size_t>(p), d) : Demand::Full));
  }
  return bind_many(budget_, args,
                   [&](const std::vector<Value>& values) { return call_frame(c, e, d, values); });
}

Dist Composer::call_frame(const ast::Call& c, const ast::Expr& e, Demand d,
                          const std::vector<Value>& args) {
  const ast::FnDef& fn = *c.fn;
  if (call_depth_ >= limits_.max_call_depth) not_composable("calls nest too deep");
  const std::size_t saved_base = base_;
  const std::size_t new_base = stack_.size();
  const std::size_t saved_overrides = overrides_.size();
  stack_.resize(new_base + static_cast<std::size_t>(fn.frame_size));
  std::vector<bool> given(fn.params.size(), false);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::int32_t p = i < c.arg_param.size() ? c.arg_param[i] : static_cast<std::int32_t>(i);
    if (p >= 0) {
      const auto k = static_cast<std::size_t>(p);
      if (k < fn.types.size() && fn.types[k] && !type_ok(*fn.types[k], args[i]))
        not_composable("an argument of the wrong type");
      stack_[new_base + k] = args[i];
      given[k] = true;
    } else if (const ast::Constant* k = c.sets[i]) {
      if (k->type && !type_ok(*k->type, args[i])) not_composable("a parameter of the wrong type");
      overrides_.emplace_back(k, args[i]);
    }
  }
  for (std::int32_t side = 0; side < fn.side_count; ++side) {
    const Value rec = stack_[new_base + static_cast<std::size_t>(side)];
    for (std::size_t f = 0; f < fn.side_fields.size(); ++f) {
      const Value* v = rec.field(fn.side_fields[f]);
      if (!v || !type_ok(fn.side_field_types[f], *v)) not_composable("a side without its fields");
      if (side == 0) stack_[new_base + static_cast<std::size_t>(fn.side_field_slots[f])] = *v;
    }
  }
  ++call_depth_;
  base_ = new_base;
  const std::uint64_t saved_frame = frame_;
  frame_ = ++frames_;
  // Defaults run in the new frame, in order, and may be random.
  auto from = [&](auto&& self, std::size_t k) -> Dist {
    while (k < fn.params.size() && given[k]) ++k;
    if (k == fn.params.size()) {
      Dist body = eval(*fn.body, Demands::body(fn, d));
      if (fn.result) {
        for (const auto& [v, w] : body.entries) check_result(fn, v);
      }
      return body;
    }
    const Dist def = eval(*fn.defaults.at(k), demands_.param(fn, k, d));
    return bind(budget_, def, [&](const Value& v) {
      if (k < fn.types.size() && fn.types[k] && !type_ok(*fn.types[k], v))
        not_composable("a default of the wrong type");
      return with_slot(static_cast<std::int32_t>(k), v, [&] { return self(self, k + 1); });
    });
  };
  Dist r = from(from, 0);
  if (r.fail.error) r.fail.error = with_call_note(*r.fail.error, c.name, e.span);
  base_ = saved_base;
  frame_ = saved_frame;
  stack_.resize(new_base);
  overrides_.resize(saved_overrides);
  --call_depth_;
  return r;
}

Dist Composer::call_builtin(const ast::Call& c, const ast::Expr& e, Demand d) {
  if (std::find(composable_builtins.begin(), composable_builtins.end(), c.name) ==
      composable_builtins.end()) {
    not_composable(
        fmt::format("'{}' sees the order of the dice or is not known to the composer", c.name));
  }
  std::vector<Dist> args;
  args.reserve(c.args.size());
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    args.push_back(eval(*c.args[i], Demands::builtin_arg(c.name, i, c.args.size(), d)));
  }
  const detail::BuiltinFn fn = detail::builtin_function(c.builtin);
  return bind_many(budget_, args, [&](const std::vector<Value>& values) {
    std::vector<Value> a = values;
    NoDice dice;
    Trace trace;
    detail::Evaluator ev(bindings_, dice, limits_, trace);
    detail::BuiltinCall call{ev, a, c.args, e.span};
    Value v;
    try {
      v = fn(call);
    } catch (const detail::EvalError&) {
      not_composable(fmt::format("'{}' fails on some roll", c.name));
    }
    if (const auto* p = v.as_pool()) return Dist::point(make_sorted_pool(p->dice, p->successes));
    return Dist::point(std::move(v));
  });
}

Dist Composer::versus(const ast::Versus& k, Demand d) {
  const Demand first = demands_.slot(k.first_slot, *k.rule, d);
  const Demand second = demands_.slot(k.second_slot, *k.rule, d);
  Dist a, b;
  if (k.second) {
    a = eval(k.first, first);
    b = eval(k.second, second);
  } else {
    // `vs opposed`: the same expression again, with the other side's fields.
    const Demand both = std::min(first, second);
    a = eval(k.first, both);
    const Value other = slot(k.other_side_slot);
    std::vector<Value> saved;
    for (std::size_t f = 0; f < k.field_slots.size(); ++f) {
      const Value* v = other.field(k.field_names[f]);
      if (!v) not_composable("a side without its fields");
      saved.push_back(slot(k.field_slots[f]));
      slot(k.field_slots[f]) = *v;
    }
    b = eval(k.first, both);
    for (std::size_t f = 0; f < k.field_slots.size(); ++f) slot(k.field_slots[f]) = saved[f];
  }
  return bind_many(budget_, {a, b}, [&](const std::vector<Value>& p) {
    return with_slot(k.first_slot, p[0], [&] {
      return with_slot(k.second_slot, p[1], [&] { return eval(k.rule, d); });
    });
  });
}

}  // namespace alea::compose
