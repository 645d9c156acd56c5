// interpreter/eval/evaluator.cpp — the tree-walking evaluator: one overload per node kind.
#include "interpreter/eval/evaluator.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "dsl/call_site.hpp"
#include "dsl/printer.hpp"
#include "dsl/resolver.hpp"
#include "interpreter/eval/eval_context.hpp"
#include "interpreter/values/conform.hpp"
#include "interpreter/ops/eval_support.hpp"
#include "interpreter/ops/ops.hpp"

namespace alea {
namespace detail {

// Runtime nesting (expression depth plus calls) that keeps the C++ stack safe.
constexpr std::int64_t max_eval_depth = 2'000;


void fail(DiagCode code, Span span, std::string message) {
  throw EvalError{Diagnostic(code, span, std::move(message))};
}

void fail_checked(const kernel::Checked& r, Span at, Span divisor) {
  if (r.code == DiagCode::DivisionByZero) fail(r.code, divisor, "division by zero");
  fail(r.code, at, "integer overflow: the result does not fit in 64 bits");
}

std::int64_t Evaluator::to_int(const Value& v, Span span, std::string_view what) {
  if (const auto* i = v.as_int()) return *i;
  if (const auto* p = v.as_pool()) {
    if (auto t = pool_total(*p)) return *t;
    fail(DiagCode::IntegerOverflow, span, "integer overflow: the pool's total does not fit in 64 bits");
  }
  fail(DiagCode::TypeMismatch, span, fmt::format("{} must be a number, got {}", what, describe(v)));
}

bool Evaluator::to_bool(const Value& v, Span span, std::string_view what) {
  if (const auto* b = v.as_bool()) return *b;
  fail(DiagCode::TypeMismatch, span,
       fmt::format("{} must be true or false, got {} (compare it, as in 'x > 0')", what, describe(v)));
}

std::int64_t Evaluator::eval_int(const ast::Expr& e, std::string_view what) {
  return to_int(eval(e), e.span, what);
}

void Evaluator::check_size(std::size_t n, Span span) {
  if (static_cast<std::int64_t>(n) > limits_.max_collection_size) {
    fail(DiagCode::SizeLimitExceeded, span,
         fmt::format("this would make a collection of {} items; the limit is {} (max_collection_size)", n,
                     limits_.max_collection_size));
  }
}

Value Evaluator::make_pool(PoolData pool, Span span) {
  if (!pool_total(pool)) {
    fail(DiagCode::IntegerOverflow, span, "integer overflow: the pool's total does not fit in 64 bits");
  }
  return Value(PoolPtr(std::make_shared<const PoolData>(std::move(pool))));
}

std::vector<std::int64_t> Evaluator::draw(const DieKind& kind, std::int64_t count, Span span) {
  if (count < 0) fail(DiagCode::NegativeCount, span, fmt::format("cannot roll {} dice", count));
  if (count > limits_.max_dice - dice_rolled_) {
    fail(DiagCode::DiceLimitExceeded, span,
         dice_rolled_ == 0
             ? fmt::format("this roll needs {} dice; at most {} may be rolled at once (max_dice)", count,
                           limits_.max_dice)
             : fmt::format("this roll needs {} more dice after {}; at most {} may be rolled in one evaluation "
                           "(max_dice)",
                           count, dice_rolled_, limits_.max_dice));
  }
  dice_rolled_ += count;
  std::vector<std::int64_t> faces(static_cast<std::size_t>(count));
  try {
    dice_.roll(kind, faces);
  } catch (const DiceSourceError& e) {
    fail(e.kind == DiceSourceError::Kind::Exhausted ? DiagCode::ScriptedDiceExhausted
                                                    : DiagCode::ScriptedFaceInvalid,
         span, e.what());
  }
  return faces;
}

std::uint32_t Evaluator::add_die(std::uint32_t kind, std::int64_t face, DieOrigin origin,
                                 std::int32_t parent, std::uint32_t group) {
  DieRecord r;
  r.kind = kind;
  r.rolled = face;
  r.face = face;
  r.origin = origin;
  r.parent = parent;
  r.group = group;
  trace_.dice.push_back(r);
  return static_cast<std::uint32_t>(trace_.dice.size() - 1);
}

template <>
Value Evaluator::node(const ast::IntLit& k, const ast::Expr&) {
  return k.value;
}
template <>
Value Evaluator::node(const ast::BoolLit& k, const ast::Expr&) {
  return k.value;
}
template <>
Value Evaluator::node(const ast::StrLit& k, const ast::Expr&) {
  return Value(k.value);
}
template <>
Value Evaluator::node(const ast::NoneLit&, const ast::Expr&) {
  return NoneValue{};
}

Value Evaluator::lookup(const ast::Name& n, Span span) {
  for (auto it = globals_.rbegin(); it != globals_.rend(); ++it) {
    if (it->first == n.name) return it->second;
  }
  if (const Value* v = bindings_.find(n.name)) return *v;
  std::vector<std::string> names = bindings_.names();
  for (const auto& g : globals_) names.push_back(g.first);
  if (!n.near_local.empty()) names.push_back(n.near_local);
  Diagnostic d(DiagCode::UnknownName, span, fmt::format("unknown name '{}'", n.name));
  if (auto near = closest_name(n.name, names); !near.empty()) {
    d.note({}, fmt::format("did you mean '{}'?", near));
  }
  throw EvalError{std::move(d)};
}

template <>
Value Evaluator::node(const ast::Name& k, const ast::Expr& e) {
  if (k.slot >= 0) return stack_[base_ + static_cast<std::size_t>(k.slot)];
  if (k.constant) return constant(*k.constant);
  return lookup(k, e.span);
}

template <>
Value Evaluator::node(const ast::Dice& k, const ast::Expr& e) {
  const std::int64_t count = k.count ? eval_int(*k.count, "the number of dice") : 1;
  if (count < 0) {
    fail(DiagCode::NegativeCount, k.count->span, fmt::format("cannot roll {} dice", count));
  }
  DieKind kind = DieKind::sides(100);
  switch (k.shape) {
    case ast::DieShape::Sides: {
      const std::int64_t sides = eval_int(*k.sides, "the number of sides");
      if (sides < 1 || sides > limits_.max_sides) {
        fail(DiagCode::InvalidDie, k.sides->span,
             sides < 1 ? fmt::format("a die needs at least 1 side, got {}", sides)
                       : fmt::format("a die may have at most {} sides, got {} (max_sides)",
                                     limits_.max_sides, sides));
      }
      kind = DieKind::sides(sides);
      break;
    }
    case ast::DieShape::Percent: break;
    case ast::DieShape::Fudge: kind = DieKind::fudge(); break;
    case ast::DieShape::Faces: kind = DieKind::faces(k.faces); break;
  }
  const std::vector<std::int64_t> faces = draw(kind, count, e.span);
  const std::uint32_t kind_id = trace_.kind_index(kind);
  const auto group = static_cast<std::uint32_t>(trace_.groups.size());
  trace_.groups.push_back({e.span, e.span});
  PoolData pool;
  pool.groups.add(group);
  pool.dice.reserve(faces.size());
  // Geometric growth: reserving the exact new size on every roll copied the
  // whole trace each time, quadratic over many small rolls.
  if (trace_.dice.capacity() < trace_.dice.size() + faces.size()) {
    trace_.dice.reserve(std::max(trace_.dice.size() + faces.size(), 2 * trace_.dice.capacity()));
  }
  for (const std::int64_t f : faces) {
    pool.dice.push_back({f, add_die(kind_id, f, DieOrigin::Rolled, no_die, group)});
  }
  return make_pool(std::move(pool), e.span);
}

template <>
Value Evaluator::node(const ast::PoolOp& k, const ast::Expr& e) {
  const Value v = eval(*k.pool);
  const PoolData* pool = v.as_pool();
  if (!pool) {
    fail(DiagCode::TypeMismatch, k.pool->span,
         fmt::format("'{}' applies to a pool of dice, got {}", pool_op_info(k.id).name, describe(v)));
  }
  // The dice of these groups now show through this longer chain of operations.
  std::uint32_t last = UINT32_MAX;
  for (const auto& d : pool->dice) {
    const std::uint32_t g = trace_.dice[d.id].group;
    Span& chain = trace_.groups[g].chain;
    // Only an operation written right after the roll extends it (`3d6!`, not `let p = 3d6 in p!`).
    if (g != last && chain.file == e.span.file && e.span.begin <= chain.begin && e.span.end >= chain.end) {
      chain = e.span;
    }
    last = g;
  }
  return apply_pool_op(k, *pool);
}

// Each operation's meaning is in interpreter/ops/<family>.cpp.
Value Evaluator::apply_pool_op(const ast::PoolOp& op, const PoolData& pool) {
  ops::PoolEval ev(*this, op);
  switch (op.id) {
#define ALEA_POOL_OP(Id, family, ...) \
  case PoolOpId::Id: return ops::family::eval(ev, op, pool);
#include "dsl/pool_ops.def"
#undef ALEA_POOL_OP
  }
  throw std::logic_error("unreachable: PoolOpId");
}

template <>
Value Evaluator::node(const ast::Unary& k, const ast::Expr& e) {
  const Value v = eval(*k.operand);
  if (k.op == ast::UnOp::Not) return !to_bool(v, k.operand->span, "the operand of 'not'");
  const std::int64_t x = to_int(v, k.operand->span, "the operand of '-'");
  return checked_value(kernel::neg(x), e.span, e.span);
}

Value Evaluator::binary(const ast::Binary& b, const ast::Expr& e) {
  using ast::BinOp;
  // The words for an error are made only when there is one: this runs on every operator.
  auto side_bool = [&](const Value& v, const ast::Expr& at, std::string_view which) {
    if (const bool* x = v.as_bool()) return *x;
    return to_bool(v, at.span, fmt::format("the {} side of '{}'", which, ast::spelling(b.op)));
  };
  auto side_int = [&](const Value& v, const ast::Expr& at, std::string_view which) {
    if (const std::int64_t* x = v.as_int()) return *x;
    return to_int(v, at.span, fmt::format("the {} side of '{}'", which, ast::spelling(b.op)));
  };
  if (b.op == BinOp::And || b.op == BinOp::Or) {
    const bool lhs = side_bool(eval(*b.lhs), *b.lhs, "left");
    if (b.op == BinOp::And ? !lhs : lhs) return lhs;
    return side_bool(eval(*b.rhs), *b.rhs, "right");
  }
  const Value l = eval(*b.lhs);
  const Value r = eval(*b.rhs);
  if (b.op == BinOp::Eq) return equal(l, r, e.span);
  if (b.op == BinOp::Ne) return !equal(l, r, e.span);
  const std::int64_t x = side_int(l, *b.lhs, "left");
  const std::int64_t y = side_int(r, *b.rhs, "right");
  switch (b.op) {
    case BinOp::Add: return checked_value(kernel::add(x, y), e.span, e.span);
    case BinOp::Sub: return checked_value(kernel::sub(x, y), e.span, e.span);
    case BinOp::Mul: return checked_value(kernel::mul(x, y), e.span, e.span);
    // Rounded toward negative infinity, and % takes the sign of the divisor.
    case BinOp::Div: return checked_value(kernel::floor_div(x, y), b.rhs->span, b.rhs->span);
    case BinOp::Mod: return checked_value(kernel::floor_mod(x, y), b.rhs->span, b.rhs->span);
    case BinOp::Lt: return x < y;
    case BinOp::Le: return x <= y;
    case BinOp::Gt: return x > y;
    case BinOp::Ge: return x >= y;
    case BinOp::Eq:
    case BinOp::Ne:
    case BinOp::And:
    case BinOp::Or: break;
  }
  throw std::logic_error("unreachable: BinOp");
}

template <>
Value Evaluator::node(const ast::Binary& k, const ast::Expr& e) {
  return binary(k, e);
}

template <>
Value Evaluator::node(const ast::If& k, const ast::Expr&) {
  return to_bool(eval(*k.cond), k.cond->span, "the condition of 'if'") ? eval(*k.then_) : eval(*k.else_);
}

template <>
Value Evaluator::node(const ast::Let& k, const ast::Expr&) {
  Value v = eval(*k.value);
  stack_[base_ + static_cast<std::size_t>(k.slot)] = std::move(v);
  return eval(*k.body);
}

Value Evaluator::constant(const ast::Constant& c) {
  for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
    if (it->first == &c) return it->second;
  }
  if (outer_overrides_) {
    for (auto it = outer_overrides_->rbegin(); it != outer_overrides_->rend(); ++it) {
      if (it->first == &c) return it->second;
    }
  }
  if (c.source != ast::Constant::Source::Fixed) {
    if (auto v = host_value(c)) return std::move(*v);
  }
  for (const auto& [k, v] : constants_) {
    if (k == &c) return v;
  }
  if (outer_constants_) {
    for (const auto& [k, v] : *outer_constants_) {
      if (k == &c) return v;
    }
  }
  Value v = eval(*c.value);
  // A parameter of a declared record type gets the defaults of its missing fields.
  if (c.type && (c.type->record || c.type->items)) {
    v = conform(*c.type, v, c.value.get(), c.value->span, What("the default of", c.name));
  }
  constants_.emplace_back(&c, v);
  return v;
}

Value Evaluator::call_user(const ast::Call& c, const ast::Expr& e) {
  const Span span = e.span;
  const ast::FnDef& fn = *c.fn;
  // Arguments in the order written, so dice are drawn left to right.
  std::vector<Value> args;
  args.reserve(c.args.size());
  for (const auto& a : c.args) args.push_back(eval(*a));
  if (call_depth_ >= limits_.max_call_depth) {
    fail(DiagCode::CallDepthExceeded, span,
         fmt::format("calls nested more than {} deep (max_call_depth)", limits_.max_call_depth));
  }
  const std::size_t saved_base = base_;
  const std::size_t new_base = stack_.size();
  const std::size_t saved_overrides = overrides_.size();
  stack_.resize(new_base + static_cast<std::size_t>(fn.frame_size));
  std::vector<bool> given(fn.params.size(), false);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::int32_t p = i < c.arg_param.size() ? c.arg_param[i] : static_cast<std::int32_t>(i);
    if (p >= 0) {
      const auto k = static_cast<std::size_t>(p);
      if (k < fn.types.size() && fn.types[k]) {
        args[i] = conform(*fn.types[k], args[i], c.args[i].get(), c.args[i]->span,
                          What("the argument", fn.params[k]));
      }
      stack_[new_base + k] = std::move(args[i]);
      given[k] = true;
    } else if (const ast::Constant* k = c.sets[i]) {
      if (k->type) {
        args[i] = conform(*k->type, args[i], c.args[i].get(), c.args[i]->span,
                          What("the parameter", k->name));
      }
      // A counter given by name is set, as if the state held it: the call's
      // changes start from it, and it stays after the call.
      if (k->source == ast::Constant::Source::State) write_state(*k, std::move(args[i]), c.args[i]->span, false);
      else overrides_.emplace_back(k, std::move(args[i]));
    }
  }
  // An opposed mechanic: the sides were checked as records of the side fields (conform
  // above), and the body starts on the first side.
  if (fn.side_count > 0) {
    const Value& first = stack_[new_base];
    for (std::size_t f = 0; f < fn.side_fields.size(); ++f) {
      stack_[new_base + static_cast<std::size_t>(fn.side_field_slots[f])] = *first.field(fn.side_fields[f]);
    }
  }
  ++call_depth_;
  struct Restore {
    Evaluator& ev;
    std::size_t base, size, overrides;
    ~Restore() {
      ev.base_ = base;
      ev.stack_.resize(size);
      ev.overrides_.resize(overrides);
      --ev.call_depth_;
    }
  } restore{*this, saved_base, new_base, saved_overrides};
  base_ = new_base;
  try {
    for (std::size_t k = 0; k < fn.params.size(); ++k) {
      if (given[k]) continue;
      Value v = eval(*fn.defaults.at(k));
      if (k < fn.types.size() && fn.types[k]) {
        v = conform(*fn.types[k], v, fn.defaults[k].get(), fn.defaults[k]->span,
                    What("the default of", fn.params[k]));
      }
      stack_[new_base + k] = std::move(v);
    }
    Value result = eval(*fn.body);
    if (fn.result) check_result(fn, result);
    if (!fn.changes.empty()) apply_changes(fn, new_base, result, span);
    return result;
  } catch (EvalError& err) {
    err.diagnostic.note_call(ast::call_site(c, err.diagnostic, span), c.name);
    throw;
  }
}

// A mechanic's value must be the record its ruleset declares.
void Evaluator::check_result(const ast::FnDef& fn, const Value& v) {
  const ast::ResultSpec& r = *fn.result;
  if (r.fields.empty()) {
    if (r.returns) check_type(*r.returns, v, r.span, What("the value of", fn.name));
    return;
  }
  const RecordData* rec = v.as_record();
  if (!rec) {
    fail(DiagCode::ResultMismatch, fn.body->span,
         fmt::format("'{}' must give a record with the fields of its 'result', got {}", fn.name, describe(v)));
  }
  for (std::size_t i = 0; i < r.fields.size(); ++i) {
    const Value* f = v.field(r.fields[i]);
    if (!f) {
      Diagnostic d(DiagCode::ResultMismatch, fn.body->span,
                   fmt::format("'{}' gave a record without the field '{}'", fn.name, r.fields[i]));
      d.note(r.spans[i], "the field is declared here");
      throw EvalError{std::move(d)};
    }
    check_type(r.types[i], *f, r.spans[i], What("the result field", r.fields[i]));
  }
  for (const auto& name : rec->names) {
    if (std::find(r.fields.begin(), r.fields.end(), name) == r.fields.end()) {
      Diagnostic d(DiagCode::ResultMismatch, fn.body->span,
                   fmt::format("'{}' gave the field '{}', which its 'result' does not declare", fn.name, name));
      d.note(r.span, "the result is declared here");
      throw EvalError{std::move(d)};
    }
  }
}

template <>
Value Evaluator::node(const ast::Call& k, const ast::Expr& e) {
  if (k.target == ast::CallTarget::User) return call_user(k, e);
  if (k.target != ast::CallTarget::Builtin) throw std::logic_error("unreachable: unresolved call");
  std::vector<Value> args;
  args.reserve(k.args.size());
  for (const auto& a : k.args) args.push_back(eval(*a));
  BuiltinCall call{*this, args, k.args, e.span};
  return builtin_function(k.builtin)(call);
}

template <>
Value Evaluator::node(const ast::ListLit& k, const ast::Expr& e) {
  check_size(k.items.size(), e.span);
  std::vector<Value> items;
  items.reserve(k.items.size());
  for (const auto& i : k.items) items.push_back(eval(*i));
  return make_list(std::move(items));
}

template <>
Value Evaluator::node(const ast::RecordLit& k, const ast::Expr& e) {
  check_size(k.values.size(), e.span);
  std::vector<Value> values;
  values.reserve(k.values.size());
  for (const auto& v : k.values) values.push_back(eval(*v));
  return make_record(k.names, std::move(values));
}

template <>
Value Evaluator::node(const ast::Index& k, const ast::Expr&) {
  const Value obj = eval(*k.object);
  const Value idx = eval(*k.index);
  if (obj.as_record()) {
    const std::string* name = idx.as_str();
    if (!name) fail(DiagCode::TypeMismatch, k.index->span, fmt::format("a record is indexed by a field name, got {}", describe(idx)));
    if (const Value* f = obj.field(*name)) return *f;
    fail(DiagCode::UnknownField, k.index->span, fmt::format("the record has no field '{}'", *name));
  }
  const std::int64_t i = to_int(idx, k.index->span, "an index");
  std::size_t size = 0;
  if (const auto* l = obj.as_list()) size = l->size();
  else if (const auto* p = obj.as_pool()) size = p->dice.size();
  else fail(DiagCode::TypeMismatch, k.object->span, fmt::format("only lists, pools and records can be indexed, not {}", describe(obj)));
  if (i < 0 || static_cast<std::size_t>(i) >= size) {
    fail(DiagCode::IndexOutOfRange, k.index->span,
         fmt::format("index {} is out of range for {} (indexes start at 0)", i, describe(obj)));
  }
  if (const auto* l = obj.as_list()) return (*l)[static_cast<std::size_t>(i)];
  reading_order(*obj.as_pool());
  return obj.as_pool()->dice[static_cast<std::size_t>(i)].face;
}

template <>
Value Evaluator::node(const ast::Field& k, const ast::Expr& e) {
  const Value obj = eval(*k.object);
  const RecordData* r = obj.as_record();
  if (!r) {
    fail(DiagCode::TypeMismatch, k.object->span,
         fmt::format("'.{}' needs a record, got {}", k.name, describe(obj)));
  }
  if (const Value* f = obj.field(k.name)) return *f;
  Diagnostic d(DiagCode::UnknownField, e.span, fmt::format("the record has no field '{}'", k.name));
  if (auto near = closest_name(k.name, r->names); !near.empty()) d.note({}, fmt::format("did you mean '{}'?", near));
  else d.note({}, fmt::format("its fields are: {}", fmt::join(r->names, ", ")));
  throw EvalError{std::move(d)};
}

template <>
Value Evaluator::node(const ast::Tiers& k, const ast::Expr& e) {
  const std::int64_t x = eval_int(*k.subject, "the value sorted into tiers");
  for (const auto& t : k.tiers) {
    bool hit = false;
    switch (t.test.kind) {
      case ast::TierTest::Else: hit = true; break;
      case ast::TierTest::Range:
        hit = x >= eval_int(*t.test.low, "a tier bound") && x <= eval_int(*t.test.high, "a tier bound");
        break;
      case ast::TierTest::Cmp: hit = kernel::compare(t.test.op, x, eval_int(*t.test.low, "a tier bound")); break;
    }
    if (hit) {
      Value result = eval(*t.result);
      std::string shown = display(result, e.span);
      trace_.events.push_back({e.span, fmt::format("{} → {}", x, shown), shown});
      return result;
    }
  }
  fail(DiagCode::NoTierMatches, e.span,
       fmt::format("no tier matches the value {} (add 'else: …' to catch the rest)", x));
}

// `E vs opposed`: E again, the other side's fields in place of this side's.
template <>
Value Evaluator::node(const ast::Opposed& k, const ast::Expr&) {
  const Value other = stack_[base_ + static_cast<std::size_t>(k.other_side_slot)];
  std::vector<Value> saved;
  for (std::size_t f = 0; f < k.field_slots.size(); ++f) {
    Value& slot = stack_[base_ + static_cast<std::size_t>(k.field_slots[f])];
    saved.push_back(slot);
    slot = *other.field(k.field_names[f]);  // checked when the mechanic was called
  }
  struct Restore {
    Evaluator& ev;
    const ast::Opposed& o;
    std::vector<Value>& saved;
    ~Restore() {
      for (std::size_t f = 0; f < o.field_slots.size(); ++f) {
        ev.stack_[ev.base_ + static_cast<std::size_t>(o.field_slots[f])] = std::move(saved[f]);
      }
    }
  } restore{*this, k, saved};
  return eval(*k.side);
}

template <>
Value Evaluator::node(const ast::Repeat& k, const ast::Expr& e) {
  const std::int64_t n = eval_int(*k.count, "the repeat count");
  if (n < 0) fail(DiagCode::InvalidArgument, k.count->span, fmt::format("cannot repeat {} times", n));
  if (n > limits_.max_loop_iterations) {
    fail(DiagCode::LoopLimitExceeded, k.count->span,
         fmt::format("cannot repeat {} times; the limit is {} (max_loop_iterations)", n,
                     limits_.max_loop_iterations));
  }
  check_size(static_cast<std::size_t>(n), e.span);
  std::vector<Value> out;
  out.reserve(static_cast<std::size_t>(n));
  std::uint64_t size = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    out.push_back(eval(*k.body));
    grow(size, out.back(), e.span);
  }
  return make_list(std::move(out));
}

template <>
Value Evaluator::node(const ast::For& k, const ast::Expr& e) {
  const Value src = eval(*k.list);
  std::vector<Value> items;
  if (const auto* l = src.as_list()) items = *l;
  else if (const auto* p = src.as_pool()) {
    reading_order(*p);
    for (const auto& d : p->dice) items.emplace_back(d.face);
  }
  else fail(DiagCode::TypeMismatch, k.list->span, fmt::format("'for' needs a list or a pool, got {}", describe(src)));
  if (static_cast<std::int64_t>(items.size()) > limits_.max_loop_iterations) {
    fail(DiagCode::LoopLimitExceeded, k.list->span,
         fmt::format("cannot loop {} times; the limit is {} (max_loop_iterations)", items.size(),
                     limits_.max_loop_iterations));
  }
  check_size(items.size(), e.span);
  std::vector<Value> out;
  out.reserve(items.size());
  std::uint64_t size = 0;
  for (auto& item : items) {
    stack_[base_ + static_cast<std::size_t>(k.slot)] = std::move(item);
    out.push_back(eval(*k.body));
    grow(size, out.back(), e.span);
  }
  return make_list(std::move(out));
}

template <>
Value Evaluator::node(const ast::Loop& k, const ast::Expr& e) {
  const auto slot = base_ + static_cast<std::size_t>(k.slot);
  stack_[slot] = eval(*k.init);
  for (std::int64_t i = 0;; ++i) {
    const bool c = to_bool(eval(*k.cond), k.cond->span, k.until ? "the 'until' condition" : "the 'while' condition");
    if (k.until == c) return stack_[slot];
    if (i >= limits_.max_loop_iterations) {
      fail(DiagCode::LoopLimitExceeded, e.span,
           fmt::format("the loop ran {} times without ending (max_loop_iterations)", limits_.max_loop_iterations));
    }
    Value next = eval(*k.next);
    stack_[base_ + static_cast<std::size_t>(k.slot)] = std::move(next);
  }
}

void Evaluator::too_many_steps(Span span) {
  fail(DiagCode::StepLimitExceeded, span, fmt::format("evaluation took more than {} steps (max_steps)", limits_.max_steps));
}

void Evaluator::too_deep(Span span) {
  fail(DiagCode::CallDepthExceeded, span, fmt::format("evaluation nested more than {} levels deep", max_eval_depth));
}

Value Evaluator::eval(const ast::Expr& e) {
  if (++steps_ > limits_.max_steps) [[unlikely]] too_many_steps(e.span);
  if ((steps_ & 1023) == 0) [[unlikely]] poll_cancel(e.span);
  if (++depth_ > max_eval_depth) [[unlikely]] too_deep(e.span);
  struct Leave {
    std::int64_t& d;
    ~Leave() { --d; }
  } leave{depth_};
  Value v = std::visit([&](const auto& k) { return node(k, e); }, e.kind);
  check_value(v, e.span);
  return v;
}

void Evaluator::run_program(const ast::Program& program, std::optional<Value>& value,
                            std::vector<std::pair<std::string, Value>>& globals) {
  stack_.assign(static_cast<std::size_t>(program.frame_size), Value());
  base_ = 0;
  for (const auto& s : program.statements) {
    if (const auto* let = std::get_if<ast::GlobalLet>(&s)) {
      Value v = eval(*let->value);
      globals_.emplace_back(let->name, v);
      value = std::move(v);
    }
  }
  if (program.main) value = eval(*program.main);
  globals = globals_;
}

}  // namespace detail

Outcome evaluate(std::shared_ptr<const CompiledProgram> program, const Bindings& bindings,
                 DiceSource& dice, const Limits& limits, const RunInput& input) {
  Outcome out;
  out.program = program;
  detail::Evaluator ev(bindings, dice, limits, out.trace, input);
  try {
    ev.run_program(*program->ast, out.value, out.globals);
    out.state = ev.state();
  } catch (detail::EvalError& e) {
    out.value.reset();
    out.error = std::move(e.diagnostic);
  }
  out.steps = ev.steps();
  return out;
}

}  // namespace alea
