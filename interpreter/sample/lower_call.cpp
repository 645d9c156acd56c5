// interpreter/sample/lower_call.cpp — lowering calls of builtins and functions (see lowerer.hpp).
#include <algorithm>

#include "interpreter/eval/builtin_table.hpp"
#include "interpreter/sample/lowerer.hpp"

namespace alea {

using namespace lowered;

// A call of a function, inlined: its parameters are slots of their own for
// this call, and its body is lowered in place (evaluator.cpp call_user).
Lowerer::Typed Lowerer::user_call(const ast::Call& k, const ast::Expr&) {
  const ast::FnDef* fn = k.fn;
  if (!fn || !fn->body) unsupported(fmt::format("the function '{}'", k.name));
  if (fn->side_count > 0) unsupported(fmt::format("the opposed mechanic '{}'", k.name));
  if (fn->result && !fn->result->fields.empty()) unsupported(fmt::format("the record that '{}' gives", k.name));
  // Its changes to a ruleset's state run after the body, may draw dice or
  // fail, and are seen by later reads of the counters: left to the evaluator.
  if (!fn->changes.empty()) unsupported(fmt::format("the state that '{}' changes", k.name));
  if (std::find(calls_.begin(), calls_.end(), fn) != calls_.end()) {
    unsupported(fmt::format("the recursive function '{}'", k.name));
  }
  // Calls nested deeper than the limit fail in the evaluator: left to it.
  if (static_cast<std::int64_t>(calls_.size()) >= out_.limits_.max_call_depth) unsupported("calls nested past max_call_depth");
  CallEntry entry;
  std::vector<bool> given(fn->params.size(), false);
  for (std::size_t i = 0; i < k.args.size(); ++i) {
    const std::int32_t p = i < k.arg_param.size() ? k.arg_param[i] : static_cast<std::int32_t>(i);
    if (p < 0 || static_cast<std::size_t>(p) >= fn->params.size()) unsupported("a call that sets a ruleset parameter");
    given[static_cast<std::size_t>(p)] = true;
  }
  // The arguments, in the caller's frame.
  std::vector<Typed> args;
  for (const auto& a : k.args) args.push_back(any(*a));
  std::vector<std::optional<Slot>> saved = std::move(frame_);
  frame_.assign(static_cast<std::size_t>(std::max(fn->frame_size, 0)), std::nullopt);
  calls_.push_back(fn);
  for (std::size_t i = 0; i < k.args.size(); ++i) {
    const auto p = static_cast<std::size_t>(i < k.arg_param.size() ? k.arg_param[i] : static_cast<std::int32_t>(i));
    Binding b;
    if (auto check = bind_param(*fn, p, std::move(args[i]), k.args[i]->span, b)) entry.checks.push_back(std::move(*check));
    entry.args.push_back(std::move(b));
  }
  // The defaults of the parameters left out, in the function's frame.
  for (std::size_t p = 0; p < fn->params.size(); ++p) {
    if (given[p]) continue;
    if (p >= fn->defaults.size() || !fn->defaults[p]) unsupported(fmt::format("a call of '{}' without a required argument", k.name));
    CallEntry::Default d;
    d.check = bind_param(*fn, p, any(*fn->defaults[p]), fn->defaults[p]->span, d.value);
    entry.defaults.push_back(std::move(d));
  }
  Typed body = any(*fn->body);
  calls_.pop_back();
  frame_ = std::move(saved);
  std::optional<ArgCheck> result;
  if (fn->result && fn->result->returns) {
    // The value it gives, checked against `returns` (Evaluator::check_result).
    Binding b;
    const Slot s = bind(std::move(body), b);
    result = type_check(*fn->result->returns, s, fn->result->span, fn->name);
    body = slot_value(s);
    entry.result = std::move(b);
  }
  if (body.type == Type::Pool) {
    auto n = std::make_unique<CallPoolNode>();
    n->fresh = body.pool->fresh;
    n->check = body.pool->check;
    n->entry = std::move(entry);
    n->body = std::move(body.pool);
    n->result = std::move(result);
    return pool_of(std::move(n), body.bound);
  }
  auto n = std::make_unique<CallNode>();
  n->entry = std::move(entry);
  n->body = std::move(body.scalar);
  n->result = std::move(result);
  return scalar(body.type, std::move(n));
}

std::optional<ArgCheck> Lowerer::bind_param(const ast::FnDef& fn, std::size_t param, Typed value, Span span,
                                             Binding& binding) {
  const Slot s = bind(std::move(value), binding);
  if (param >= frame_.size()) unsupported("a parameter outside its function's frame");
  frame_[param] = s;
  if (param >= fn.types.size() || !fn.types[param]) return std::nullopt;
  return type_check(*fn.types[param], s, span, fn.name);
}

Lowerer::Slot Lowerer::bind(Typed value, Binding& binding) {
  Slot s{value.type, 0, value.bound};
  if (value.type == Type::Pool) {
    s.index = out_.pool_slots_++;
    binding.pool = std::move(value.pool);
  } else {
    s.index = out_.scalar_slots_++;
    binding.scalar = std::move(value.scalar);
  }
  binding.slot = s.index;
  return s;
}

// Evaluator::check_type, decided here where it can be: a value of the wrong
// kind is an error the evaluator reports, so such a program is left to it.
std::optional<ArgCheck> Lowerer::type_check(const ast::TypeSpec& t, const Slot& s, Span span, std::string_view fn) {
  const auto wrong = [&] { unsupported(fmt::format("a value in '{}' that may not be of its declared type", fn)); };
  if (s.type == Type::None) {
    if (!t.optional && t.kind != ast::TypeSpec::Any) wrong();
    return std::nullopt;
  }
  ArgCheck c;
  c.slot = s.index;
  c.pool = s.type == Type::Pool;
  c.span = span;
  switch (t.kind) {
    case ast::TypeSpec::Any: return std::nullopt;
    case ast::TypeSpec::Int:
      if (!is_number(s.type)) wrong();
      if (!t.min && !t.max) return std::nullopt;
      c.min = t.min;
      c.max = t.max;
      return c;
    case ast::TypeSpec::Bool:
      if (s.type != Type::Bool) wrong();
      return std::nullopt;
    case ast::TypeSpec::Pool:
      if (s.type != Type::Pool) wrong();
      return std::nullopt;
    case ast::TypeSpec::Str:
    case ast::TypeSpec::Label:
      if (s.type != Type::Str) wrong();
      if (t.choices.empty()) return std::nullopt;
      for (const auto& choice : t.choices) c.choices.push_back(intern(choice));
      return c;
    case ast::TypeSpec::List:
    case ast::TypeSpec::Record: wrong();
  }
  return std::nullopt;
}

Lowerer::Typed Lowerer::node(const ast::Call& k, const ast::Expr& e) {
  if (k.target == ast::CallTarget::User) return user_call(k, e);
  if (k.target != ast::CallTarget::Builtin) unsupported(fmt::format("the function '{}'", k.name));
  const auto n = k.args.size();
  const detail::Lowering how = detail::builtin_caps(k.builtin).lowered_as;
  if (how == detail::Lowering::Note) {
    // note(label, x): x, once the label is worked out; the line it adds to the
    // breakdown is not kept by a lowered run (a tier scale's function uses it).
    Typed label = any(*k.args[0]);
    Typed value = any(*k.args[1]);
    return sequence(std::move(label), std::move(value));
  }
  auto b = std::make_unique<BuiltinNode>();
  b->span = e.span;
  if (n >= 2) b->divisor_span = k.args[1]->span;
  const auto one_pool = [&](Builtin args, Builtin faces) {
    // One pool: its faces. One number: itself. Several: each a number.
    b->fn = args;
    if (n == 1) {
      Typed t = any(*k.args[0]);
      if (t.type == Type::Pool) {
        b->fn = faces;
        b->check = !safe(t.bound);
        b->pool = std::move(t.pool);
        return;
      }
      b->args.push_back(as_number(std::move(t)));
      return;
    }
    for (const auto& a : k.args) b->args.push_back(number(*a));
  };
  const auto numbers = [&](Builtin fn) {
    b->fn = fn;
    for (const auto& a : k.args) b->args.push_back(number(*a));
  };
  switch (how) {
    case detail::Lowering::None: unsupported(fmt::format("the builtin '{}'", k.name));
    case detail::Lowering::Note: break;  // above
    case detail::Lowering::Sum: one_pool(Builtin::SumArgs, Builtin::SumFaces); break;
    case detail::Lowering::Min: one_pool(Builtin::MinArgs, Builtin::MinFaces); break;
    case detail::Lowering::Max: one_pool(Builtin::MaxArgs, Builtin::MaxFaces); break;
    case detail::Lowering::Len: {
      Typed t = pool(*k.args[0]);
      b->fn = Builtin::Len;
      b->pool = std::move(t.pool);
      break;
    }
    case detail::Lowering::Abs: numbers(Builtin::Abs); break;
    case detail::Lowering::Clamp: numbers(Builtin::Clamp); break;
    case detail::Lowering::FloorDiv: numbers(Builtin::FloorDiv); break;
    case detail::Lowering::CeilDiv: numbers(Builtin::CeilDiv); break;
    case detail::Lowering::TruncDiv: numbers(Builtin::TruncDiv); break;
    case detail::Lowering::RoundDiv: numbers(Builtin::RoundDiv); break;
  }
  return scalar(Type::Int, std::move(b));
}

}  // namespace alea
