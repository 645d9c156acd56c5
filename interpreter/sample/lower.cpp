// interpreter/sample/lower.cpp — lowering programs, names and expressions (see lowerer.hpp).
#include <algorithm>

#include "interpreter/sample/lowerer.hpp"

namespace alea {

using namespace lowered;

void Lowerer::program(const ast::Program& p) {
  frame_.assign(static_cast<std::size_t>(std::max(p.frame_size, 0)), std::nullopt);
  std::optional<Slot> last;
  for (const auto& st : p.statements) {
    const auto* let = std::get_if<ast::GlobalLet>(&st);
    if (!let) continue;  // a function: nothing to run
    last = store(any(*let->value));
    globals_.emplace_back(let->name, *last);
  }
  if (p.main) {
    Typed t = any(*p.main);
    if (t.type == Type::Pool) t = scalar(Type::Int, as_number(std::move(t)));  // counted as its total
    last = store(std::move(t));
  }
  if (last) {
    switch (last->type) {
      case Type::Bool: out_.kind_ = ValueKind::Bool; break;
      case Type::Str: out_.kind_ = ValueKind::Str; break;
      case Type::None: out_.kind_ = ValueKind::None; break;
      default: out_.kind_ = ValueKind::Int; break;
    }
  }
}

Lowerer::Typed Lowerer::any(const ast::Expr& e) {
  ++nodes_;
  struct Deeper {
    std::int64_t& d;
    explicit Deeper(std::int64_t& x) : d(++x) {}
    ~Deeper() { --d; }
  } deeper(depth_);
  // The evaluator's limits on steps and nesting are never reached by a run
  // that visits each node at most once: programs that could reach them are
  // left to the evaluator.
  if (nodes_ > out_.limits_.max_steps) unsupported("more nodes than max_steps");
  if (depth_ > 1000) unsupported("expressions nested more than 1000 deep");
  return std::visit([&](const auto& k) { return node(k, e); }, e.kind);
}

Lowerer::Typed Lowerer::node(const ast::Name& k, const ast::Expr&) {
  if (k.slot >= 0) {
    const auto i = static_cast<std::size_t>(k.slot);
    if (i >= frame_.size() || !frame_[i]) unsupported(fmt::format("the name '{}' (bound by a loop)", k.name));
    return slot_value(*frame_[i]);
  }
  if (k.constant) {
    // A ruleset's constant: a literal, computed once per run by the evaluator.
    // A state counter or a choice is its default too: a lowered run is given
    // no state and no choices (as the statistics engine runs), and the calls
    // that would set one (a named argument, a mechanic's changes) are not lowered.
    const ast::Expr& c = *k.constant->value;
    if (std::holds_alternative<ast::IntLit>(c.kind) || std::holds_alternative<ast::BoolLit>(c.kind) ||
        std::holds_alternative<ast::StrLit>(c.kind) || std::holds_alternative<ast::NoneLit>(c.kind)) {
      return any(c);
    }
    unsupported(fmt::format("the ruleset value '{}'", k.name));
  }
  for (auto it = globals_.rbegin(); it != globals_.rend(); ++it) {
    if (it->first == k.name) return slot_value(it->second);
  }
  if (const Value* v = bindings_.find(k.name)) return value_of(*v, fmt::format("the name '{}'", k.name));
  unsupported(fmt::format("the unknown name '{}'", k.name));
}

Lowerer::Typed Lowerer::node(const ast::Unary& k, const ast::Expr& e) {
  if (k.op == ast::UnOp::Not) {
    auto n = std::make_unique<NotNode>();
    n->operand = boolean(*k.operand);
    return scalar(Type::Bool, std::move(n));
  }
  auto n = std::make_unique<NegNode>();
  n->operand = number(*k.operand);
  n->span = e.span;
  return scalar(Type::Int, std::move(n));
}

Lowerer::Typed Lowerer::node(const ast::Binary& k, const ast::Expr& e) {
  using ast::BinOp;
  if (k.op == BinOp::And || k.op == BinOp::Or) {
    auto n = std::make_unique<LogicNode>();
    n->is_and = k.op == BinOp::And;
    n->lhs = boolean(*k.lhs);
    n->rhs = boolean(*k.rhs);
    return scalar(Type::Bool, std::move(n));
  }
  Typed l = any(*k.lhs);
  Typed r = any(*k.rhs);
  const bool equality = k.op == BinOp::Eq || k.op == BinOp::Ne;
  if (equality && !(is_number(l.type) && is_number(r.type)) && l.type != r.type) {
    // Values of different kinds are never equal (pools compare by their totals).
    auto n = std::make_unique<UnequalKindsNode>();
    n->ne = k.op == BinOp::Ne;
    n->lhs = l.type == Type::Pool ? as_number(std::move(l)) : std::move(l.scalar);
    n->rhs = r.type == Type::Pool ? as_number(std::move(r)) : std::move(r.scalar);
    return scalar(Type::Bool, std::move(n));
  }
  auto n = std::make_unique<BinaryNode>();
  if (equality && !is_number(l.type)) {
    n->lhs = std::move(l.scalar);  // booleans, strings (interned) or none, compared as scalars
    n->rhs = std::move(r.scalar);
  } else {
    n->lhs = as_number(std::move(l));
    n->rhs = as_number(std::move(r));
  }
  n->span = e.span;
  n->rhs_span = k.rhs->span;
  switch (k.op) {
    case BinOp::Add: n->op = Op::Add; break;
    case BinOp::Sub: n->op = Op::Sub; break;
    case BinOp::Mul: n->op = Op::Mul; break;
    case BinOp::Div: n->op = Op::Div; break;
    case BinOp::Mod: n->op = Op::Mod; break;
    case BinOp::Eq: n->op = Op::Eq; break;
    case BinOp::Ne: n->op = Op::Ne; break;
    case BinOp::Lt: n->op = Op::Lt; break;
    case BinOp::Le: n->op = Op::Le; break;
    case BinOp::Gt: n->op = Op::Gt; break;
    case BinOp::Ge: n->op = Op::Ge; break;
    case BinOp::And:
    case BinOp::Or: break;
  }
  const bool arithmetic = n->op == Op::Add || n->op == Op::Sub || n->op == Op::Mul || n->op == Op::Div || n->op == Op::Mod;
  return scalar(arithmetic ? Type::Int : Type::Bool, std::move(n));
}

Lowerer::Typed Lowerer::node(const ast::If& k, const ast::Expr&) {
  ScalarPtr c = boolean(*k.cond);
  Typed a = any(*k.then_);
  Typed b = any(*k.else_);
  unify(a, b);
  if (a.type == Type::Pool) {
    auto n = std::make_unique<IfPoolNode>();
    n->fresh = a.pool->fresh && b.pool->fresh;
    n->check = a.pool->check || b.pool->check;
    n->cond = std::move(c);
    n->then_ = std::move(a.pool);
    n->else_ = std::move(b.pool);
    return pool_of(std::move(n), std::max(a.bound, b.bound));
  }
  auto n = std::make_unique<IfNode>();
  n->cond = std::move(c);
  n->then_ = std::move(a.scalar);
  n->else_ = std::move(b.scalar);
  return scalar(a.type, std::move(n));
}

Lowerer::Typed Lowerer::node(const ast::Let& k, const ast::Expr&) {
  Typed v = any(*k.value);
  Binding b;
  const Slot s = bind(std::move(v), b);
  const auto i = static_cast<std::size_t>(k.slot);
  if (k.slot < 0 || i >= frame_.size()) unsupported("a 'let' outside the program's frame");
  const std::optional<Slot> saved = frame_[i];
  frame_[i] = s;
  Typed body = any(*k.body);
  frame_[i] = saved;
  return let_node(std::move(b), std::move(body));
}

Lowerer::Typed Lowerer::sequence(Typed first, Typed then) {
  Binding b;
  bind(std::move(first), b);
  return let_node(std::move(b), std::move(then));
}

Lowerer::Typed Lowerer::let_node(Binding b, Typed body) {
  if (body.type == Type::Pool) {
    auto n = std::make_unique<LetPoolNode>();
    n->fresh = body.pool->fresh;
    n->check = body.pool->check;
    n->binding = std::move(b);
    n->body = std::move(body.pool);
    return pool_of(std::move(n), body.bound);
  }
  auto n = std::make_unique<LetNode>();
  n->binding = std::move(b);
  n->body = std::move(body.scalar);
  return scalar(body.type, std::move(n));
}

Lowerer::Typed Lowerer::node(const ast::Index& k, const ast::Expr&) {
  Typed obj = any(*k.object);
  if (obj.type != Type::Pool) unsupported(fmt::format("indexing {}", type_name(obj.type)));
  auto n = std::make_unique<IndexNode>();
  n->pool = std::move(obj.pool);
  n->index = number(*k.index);
  n->index_span = k.index->span;
  return scalar(Type::Int, std::move(n));
}

Lowerer::Typed Lowerer::node(const ast::Tiers& k, const ast::Expr& e) {
  ScalarPtr subject = number(*k.subject);
  std::vector<TierNode> tiers;
  std::vector<Typed> results;
  for (const auto& t : k.tiers) {
    TierNode n;
    n.kind = t.test.kind;
    n.op = t.test.op;
    if (t.test.low) n.low = number(*t.test.low);
    if (t.test.high) n.high = number(*t.test.high);
    tiers.push_back(std::move(n));
    results.push_back(any(*t.result));
  }
  if (results.empty()) unsupported("tiers without a tier");
  for (auto& r : results) unify(results.front(), r);
  for (auto& r : results) unify(results.front(), r);  // a number met late turns the pools before it to numbers
  if (results.front().type == Type::Pool) {
    auto n = std::make_unique<TiersPoolNode>();
    std::uint64_t bound = 0;
    n->fresh = true;
    n->check = false;
    for (std::size_t i = 0; i < tiers.size(); ++i) {
      bound = std::max(bound, results[i].bound);
      n->fresh = n->fresh && results[i].pool->fresh;
      n->check = n->check || results[i].pool->check;
      tiers[i].pool = std::move(results[i].pool);
    }
    n->subject = std::move(subject);
    n->tiers = std::move(tiers);
    n->span = e.span;
    return pool_of(std::move(n), bound);
  }
  const Type type = results.front().type;
  auto n = std::make_unique<TiersNode>();
  for (std::size_t i = 0; i < tiers.size(); ++i) tiers[i].result = std::move(results[i].scalar);
  n->subject = std::move(subject);
  n->tiers = std::move(tiers);
  n->span = e.span;
  return scalar(type, std::move(n));
}

std::unique_ptr<const LoweredProgram> LoweredProgram::lower(const CompiledProgram& program, const Bindings& bindings,
                                                            const Limits& limits, std::string& why) {
  std::unique_ptr<LoweredProgram> out(new LoweredProgram());
  out->limits_ = limits;
  if (limits.max_dice > INT32_MAX || limits.max_sides > INT32_MAX) {
    why = "max_dice or max_sides above 2^31";
    return nullptr;
  }
  Lowerer l(bindings, *out);
  try {
    l.program(*program.ast);
  } catch (const Lowerer::Unsupported& u) {
    why = u.why;
    return nullptr;
  }
  return out;
}

}  // namespace alea
