// interpreter/lower.cpp — a compiled program into the nodes of lowered_*.hpp,
// and the runs of the result.
//
// Lowering settles every value's kind in advance (number, boolean, string,
// none or pool). A program whose kinds cannot be settled, or that would fail a
// type check, or that uses anything not covered, is not lowered: the sampler
// runs it with the evaluator, which reports such errors as it always does.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "interpreter/lowered.hpp"
#include "interpreter/lowered_scalar.hpp"

namespace alea {

using namespace lowered;

// One program-level `let`, or the main expression: its value is kept in a slot.
struct LoweredProgram::Step {
  std::size_t slot = 0;
  ScalarPtr scalar;  // one of the two
  lowered::PoolPtr pool;
};

LoweredProgram::LoweredProgram() = default;
LoweredProgram::~LoweredProgram() = default;

LoweredProgram::Scratch::Scratch(const LoweredProgram& program) : run_(std::make_unique<Run>()) {
  run_->limits = &program.limits_;
  run_->scalars.resize(program.scalar_slots_);
  run_->pools.resize(program.pool_slots_);
  for (const auto& l : program.lists_) run_->lists.push_back(l.get());
  run_->arena.resize(1024);
}
LoweredProgram::Scratch::~Scratch() = default;

std::int64_t LoweredProgram::steps(Run& r) const {
  // The program-level lets, kept for the names that read them; then the last
  // step, whose value is the program's.
  for (std::size_t i = 0; i + 1 < steps_.size(); ++i) {
    const Step& s = steps_[i];
    if (s.pool) r.pools[s.slot] = s.pool->eval(r);
    else r.scalars[s.slot] = s.scalar->eval(r);
  }
  const Step& last = steps_.back();
  if (!last.pool) return last.scalar->eval(r);
  const PoolRef p = last.pool->eval(r);
  if (p.successes) return p.size;
  std::uint64_t sum = 0;  // checked when the pool was made
  for (std::uint32_t i = 0; i < p.size; ++i) sum += static_cast<std::uint64_t>(r.arena[p.begin + i]);
  return static_cast<std::int64_t>(sum);
}

LoweredResult LoweredProgram::run(Scratch& scratch, RandomDice& dice) const {
  Run& r = *scratch.run_;
  r.reset();
  r.dice = &dice;
  LoweredResult out;
  if (steps_.empty()) return out;
  try {
    out.value = steps(r);
  } catch (const Fail& f) {
    out.status = LoweredResult::Status::Error;
    out.code = f.code;
    out.span = f.span;
    return out;
  } catch (const Bail&) {
    out.status = LoweredResult::Status::Unsupported;
    return out;
  }
  out.status = LoweredResult::Status::Value;
  return out;
}

void LoweredProgram::run_many(Scratch& scratch, RandomDice& dice, std::uint64_t count, ValueCounts& counts,
                              Others& others, std::atomic<std::uint64_t>& done) const {
  Run& r = *scratch.run_;
  r.dice = &dice;
  // The common program, one expression giving a scalar, without the loop over steps.
  const Scalar* only = steps_.size() == 1 ? steps_.front().scalar.get() : nullptr;
  for (std::uint64_t k = 0; k < count; ++k) {
    const RandomDice before = dice;
    r.reset();
    try {
      if (only) counts.add(only->eval(r));
      else if (!steps_.empty()) counts.add(steps(r));
    } catch (const Fail& f) {
      LoweredResult out;
      out.status = LoweredResult::Status::Error;
      out.code = f.code;
      out.span = f.span;
      others.other(out, dice, before);
    } catch (const Bail&) {
      LoweredResult out;
      out.status = LoweredResult::Status::Unsupported;
      others.other(out, dice, before);
    }
    if ((k & 1023) == 1023) done.fetch_add(1024, std::memory_order_relaxed);
  }
}

Value LoweredProgram::value(const LoweredResult& r) const { return value_of_key(r.value); }

Value LoweredProgram::value_of_key(std::int64_t key) const {
  switch (kind_) {
    case ValueKind::Bool: return key != 0;
    case ValueKind::Str: return Value(string(key));
    case ValueKind::None: return NoneValue{};
    default: return key;
  }
}

std::optional<std::int64_t> LoweredProgram::key_of(const Value& v) const {
  switch (kind_) {
    case ValueKind::Int:
      if (auto n = v.number()) return *n;
      break;
    case ValueKind::Bool:
      if (const auto* b = v.as_bool()) return *b ? 1 : 0;
      break;
    case ValueKind::Str:
      if (const auto* s = v.as_str(); s && string_index(*s) >= 0) return string_index(*s);
      break;
    case ValueKind::None:
      if (v.is_none()) return 0;
      break;
    default: break;
  }
  return std::nullopt;
}

std::int64_t LoweredProgram::string_index(const std::string& s) const {
  const auto it = std::find(strings_.begin(), strings_.end(), s);
  return it == strings_.end() ? -1 : it - strings_.begin();
}

class Lowerer {
 public:
  Lowerer(const Bindings& bindings, LoweredProgram& out) : bindings_(bindings), out_(out) {}

  struct Unsupported {
    std::string why;
  };

  void program(const ast::Program& p) {
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

 private:
  enum class Type { Int, Bool, Str, None, Pool };
  // A lowered expression: a scalar node or, for a pool, a pool node with the
  // largest face magnitude its dice can show (saturating).
  struct Typed {
    Type type = Type::Int;
    ScalarPtr scalar;
    lowered::PoolPtr pool;
    std::uint64_t bound = 0;
  };
  struct Slot {
    Type type = Type::Int;
    std::size_t index = 0;  // into Run::scalars or Run::pools
    std::uint64_t bound = 0;
  };

  const Bindings& bindings_;
  LoweredProgram& out_;
  std::vector<std::optional<Slot>> frame_;            // the main frame's slots, as lowered so far
  std::vector<std::pair<std::string, Slot>> globals_;  // program-level lets so far
  std::int64_t nodes_ = 0;                             // evaluations a run can make, at most
  std::int64_t depth_ = 0;

  [[noreturn]] static void unsupported(std::string why) { throw Unsupported{std::move(why)}; }
  static bool is_number(Type t) { return t == Type::Int || t == Type::Pool; }
  static std::string_view type_name(Type t) {
    switch (t) {
      case Type::Int: return "a number";
      case Type::Bool: return "a boolean";
      case Type::Str: return "a string";
      case Type::None: return "none";
      case Type::Pool: return "a pool";
    }
    return "";
  }

  // Whether totals of dice of at most `bound` in magnitude always fit: a run
  // draws at most max_dice dice, and a pool's total is at most the sum of the
  // magnitudes of the dice behind it.
  bool safe(std::uint64_t bound) const {
    const auto dice = static_cast<std::uint64_t>(std::max<std::int64_t>(1, out_.limits_.max_dice));
    return bound <= static_cast<std::uint64_t>(INT64_MAX) / dice;
  }
  static std::uint64_t magnitude(std::int64_t v) {
    return v < 0 ? -static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  }
  static std::uint64_t add_bounds(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

  Slot store(Typed t) {
    Slot s{t.type, 0, t.bound};
    auto step = LoweredProgram::Step{};
    if (t.type == Type::Pool) {
      s.index = out_.pool_slots_++;
      step.pool = std::move(t.pool);
    } else {
      s.index = out_.scalar_slots_++;
      step.scalar = std::move(t.scalar);
    }
    step.slot = s.index;
    out_.steps_.push_back(std::move(step));
    return s;
  }

  Typed scalar(Type type, ScalarPtr node) {
    Typed t;
    t.type = type;
    t.scalar = std::move(node);
    return t;
  }
  Typed pool_of(lowered::PoolPtr node, std::uint64_t bound) {
    Typed t;
    t.type = Type::Pool;
    t.bound = bound;
    t.pool = std::move(node);
    return t;
  }
  Typed constant(Type type, std::int64_t v) { return scalar(type, std::make_unique<ConstNode>(v)); }
  std::int64_t intern(const std::string& s) {
    const std::int64_t i = out_.string_index(s);
    if (i >= 0) return i;
    out_.strings_.push_back(s);
    return static_cast<std::int64_t>(out_.strings_.size() - 1);
  }

  // A number, or a pool used as one (its total).
  ScalarPtr number(const ast::Expr& e) { return as_number(any(e)); }
  ScalarPtr as_number(Typed t) {
    if (t.type == Type::Int) return std::move(t.scalar);
    if (t.type != Type::Pool) unsupported(fmt::format("{} where a number is needed", type_name(t.type)));
    if (dynamic_cast<const DiceNode*>(t.pool.get())) {
      // A roll used only as a number: its faces need not be kept.
      auto total = std::make_unique<DiceTotalNode>();
      total->dice.reset(static_cast<const DiceNode*>(t.pool.release()));
      return total;
    }
    if (const auto* x = dynamic_cast<const ExplodeNode*>(t.pool.get()); x && !x->check) {
      auto total = std::make_unique<ExplodeTotalNode>();
      total->explode.reset(static_cast<const ExplodeNode*>(t.pool.release()));
      const auto* d = dynamic_cast<const DiceNode*>(total->explode->pool.get());
      if (d && !d->check) total->dice = d;
      return total;
    }
    if (const auto* k = dynamic_cast<const KeepNode*>(t.pool.get());
        k && k->which != ast::KeepWhich::Matching && !k->check) {
      auto total = std::make_unique<KeepTotalNode>();
      total->keep.reset(static_cast<const KeepNode*>(t.pool.release()));
      const auto* d = dynamic_cast<const DiceNode*>(total->keep->pool.get());
      if (d && !d->check) total->dice = d;
      return total;
    }
    auto total = std::make_unique<TotalNode>();
    total->pool = std::move(t.pool);
    return total;
  }
  ScalarPtr boolean(const ast::Expr& e) {
    Typed t = any(e);
    if (t.type != Type::Bool) unsupported(fmt::format("{} where a boolean is needed", type_name(t.type)));
    return std::move(t.scalar);
  }
  Typed pool(const ast::Expr& e) {
    Typed t = any(e);
    if (t.type != Type::Pool) unsupported(fmt::format("{} where a pool is needed", type_name(t.type)));
    return t;
  }
  std::unique_ptr<CondNode> cond(const std::optional<ast::Cond>& c) { return c ? cond(*c) : nullptr; }
  std::unique_ptr<CondNode> cond(const ast::Cond& c) {
    auto n = std::make_unique<CondNode>();
    n->op = c.op;
    n->value = number(*c.value);
    if (const auto* k = dynamic_cast<const ConstNode*>(n->value.get())) {
      n->fixed = k->value;
      n->value.reset();
    }
    return n;
  }

  // Two branches of one kind; a number and a pool meet as numbers.
  void unify(Typed& a, Typed& b) {
    if (a.type == b.type) return;
    if (is_number(a.type) && is_number(b.type)) {
      a = scalar(Type::Int, as_number(std::move(a)));
      b = scalar(Type::Int, as_number(std::move(b)));
      return;
    }
    unsupported("a value whose kind depends on the dice");
  }

  Typed any(const ast::Expr& e) {
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

  Typed node(const ast::IntLit& k, const ast::Expr&) { return constant(Type::Int, k.value); }
  Typed node(const ast::BoolLit& k, const ast::Expr&) { return constant(Type::Bool, k.value); }
  Typed node(const ast::StrLit& k, const ast::Expr&) { return constant(Type::Str, intern(k.value)); }
  Typed node(const ast::NoneLit&, const ast::Expr&) { return constant(Type::None, 0); }

  Typed slot_value(const Slot& s) {
    if (s.type == Type::Pool) return pool_of(std::make_unique<PoolSlotNode>(s.index), s.bound);
    return scalar(s.type, std::make_unique<SlotNode>(s.index));
  }
  Typed value_of(const Value& v, std::string_view what) {
    if (const auto* i = v.as_int()) return constant(Type::Int, *i);
    if (const auto* b = v.as_bool()) return constant(Type::Bool, *b);
    if (const auto* s = v.as_str()) return constant(Type::Str, intern(*s));
    if (v.is_none()) return constant(Type::None, 0);
    unsupported(fmt::format("{} that is {}", what, kind_name(v.kind())));
  }

  Typed node(const ast::Name& k, const ast::Expr&) {
    if (k.slot >= 0) {
      const auto i = static_cast<std::size_t>(k.slot);
      if (i >= frame_.size() || !frame_[i]) unsupported(fmt::format("the name '{}' (bound by a loop or 'vs')", k.name));
      return slot_value(*frame_[i]);
    }
    if (k.constant) {
      // A ruleset's constant: a literal, computed once per run by the evaluator.
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

  Typed node(const ast::Dice& k, const ast::Expr& e);
  Typed node(const ast::PoolOp& k, const ast::Expr& e);

  Typed node(const ast::Unary& k, const ast::Expr& e) {
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

  Typed node(const ast::Binary& k, const ast::Expr& e) {
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

  Typed node(const ast::If& k, const ast::Expr&) {
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

  Typed node(const ast::Let& k, const ast::Expr&) {
    Typed v = any(*k.value);
    Binding b;
    Slot s{v.type, 0, v.bound};
    if (v.type == Type::Pool) {
      s.index = out_.pool_slots_++;
      b.pool = std::move(v.pool);
    } else {
      s.index = out_.scalar_slots_++;
      b.scalar = std::move(v.scalar);
    }
    b.slot = s.index;
    const auto i = static_cast<std::size_t>(k.slot);
    if (k.slot < 0 || i >= frame_.size()) unsupported("a 'let' outside the program's frame");
    const std::optional<Slot> saved = frame_[i];
    frame_[i] = s;
    Typed body = any(*k.body);
    frame_[i] = saved;
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

  Typed node(const ast::Call& k, const ast::Expr& e);

  Typed node(const ast::Index& k, const ast::Expr&) {
    Typed obj = any(*k.object);
    if (obj.type != Type::Pool) unsupported(fmt::format("indexing {}", type_name(obj.type)));
    auto n = std::make_unique<IndexNode>();
    n->pool = std::move(obj.pool);
    n->index = number(*k.index);
    n->index_span = k.index->span;
    return scalar(Type::Int, std::move(n));
  }

  Typed node(const ast::Tiers& k, const ast::Expr& e) {
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

  Typed node(const ast::ListLit&, const ast::Expr&) { unsupported("lists"); }
  Typed node(const ast::RecordLit&, const ast::Expr&) { unsupported("records"); }
  Typed node(const ast::Field&, const ast::Expr&) { unsupported("records"); }
  Typed node(const ast::Versus&, const ast::Expr&) { unsupported("'vs'"); }
  Typed node(const ast::Repeat&, const ast::Expr&) { unsupported("'repeat'"); }
  Typed node(const ast::For&, const ast::Expr&) { unsupported("'for'"); }
  Typed node(const ast::Loop&, const ast::Expr&) { unsupported("'loop'"); }
};

Lowerer::Typed Lowerer::node(const ast::Dice& k, const ast::Expr& e) {
  DiceSpec spec;
  spec.span = e.span;
  if (k.count) {
    spec.count = number(*k.count);
    spec.count_span = k.count->span;
  }
  std::uint64_t bound = 0;
  switch (k.shape) {
    case ast::DieShape::Sides:
      spec.sides = number(*k.sides);
      spec.sides_span = k.sides->span;
      if (const auto* c = dynamic_cast<const ConstNode*>(spec.sides.get());
          c && c->value >= 1 && c->value <= out_.limits_.max_sides) {
        spec.kind = static_cast<std::int32_t>(c->value);  // checked once here, as the evaluator would on every run
        spec.sides.reset();
      }
      bound = static_cast<std::uint64_t>(std::max<std::int64_t>(1, out_.limits_.max_sides));
      if (!spec.sides) bound = static_cast<std::uint64_t>(spec.kind);
      break;
    case ast::DieShape::Percent:
      spec.kind = 100;
      bound = 100;
      break;
    case ast::DieShape::Fudge:
    case ast::DieShape::Faces: {
      out_.lists_.push_back(std::make_unique<const FaceList>(
          k.shape == ast::DieShape::Fudge ? std::vector<std::int64_t>{-1, 0, 1} : k.faces));
      const FaceList& list = *out_.lists_.back();
      spec.kind = -static_cast<std::int32_t>(out_.lists_.size() - 1);
      bound = std::max(magnitude(list.min), magnitude(list.max));
      break;
    }
  }
  if (const auto* c = dynamic_cast<const ConstNode*>(spec.count.get())) {
    spec.count_value = c->value;  // a negative count still fails at run time, after the draws before it
    spec.count.reset();
  }
  auto n = std::make_unique<DiceNode>();
  n->spec = std::move(spec);
  n->check = !safe(bound);
  return pool_of(std::move(n), bound);
}

Lowerer::Typed Lowerer::node(const ast::PoolOp& k, const ast::Expr&) {
  Typed in = pool(*k.pool);
  std::uint64_t bound = in.bound;
  std::unique_ptr<PoolOpNode> op;
  std::visit(
      [&](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, ast::Explode>) {
          auto n = std::make_unique<ExplodeNode>();
          n->mode = o.mode;
          n->cond = cond(o.cond);
          if (o.limit) {
            Typed limit = any(*o.limit);
            n->limit_none = limit.type == Type::None;  // `limit none`: no limit
            n->limit = n->limit_none ? std::move(limit.scalar) : as_number(std::move(limit));
            n->limit_span = o.limit->span;
          }
          if (o.mode == ast::ExplodeMode::Penetrate) bound = add_bounds(bound, 1);
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Reroll>) {
          auto n = std::make_unique<RerollNode>();
          n->cond = cond(o.cond);
          n->once = o.once;
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Keep>) {
          auto n = std::make_unique<KeepNode>();
          n->drop = o.drop;
          n->which = o.which;
          if (o.which == ast::KeepWhich::Matching) {
            n->cond = cond(o.cond);
            if (!n->cond) unsupported("'keep' without its condition");
          } else if (o.count) {
            n->count = number(*o.count);
            n->count_span = o.count->span;
            if (const auto* fixed = dynamic_cast<const ConstNode*>(n->count.get())) {
              n->count_value = fixed->value;  // a negative count still fails at run time
              n->count.reset();
            }
          }
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Under>) {
          auto n = std::make_unique<UnderNode>();
          n->target = number(*o.target);
          if (o.except) {
            n->except = std::make_unique<CondNode>();
            n->except->op = o.except->op;
            Typed v = any(*o.except->value);
            n->except_none = v.type == Type::None;  // `except none`: no exception
            n->except->value = n->except_none ? std::move(v.scalar) : as_number(std::move(v));
          }
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Sort>) {
          auto n = std::make_unique<SortNode>();
          n->descending = o.descending;
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Unique>) {
          op = std::make_unique<UniqueNode>();
        } else if constexpr (std::is_same_v<T, ast::Clamp>) {
          auto n = std::make_unique<ClampNode>();
          std::uint64_t extra = 0;
          for (const auto* side : {&o.low, &o.high}) {
            if (!*side) continue;
            ScalarPtr v = number(**side);
            const auto* c = dynamic_cast<const ConstNode*>(v.get());
            extra = std::max(extra, c ? magnitude(c->value) : UINT64_MAX);
            (side == &o.low ? n->low : n->high) = std::move(v);
          }
          // A clamped die shows its own face or a bound.
          bound = add_bounds(bound, extra);
          op = std::move(n);
        } else if constexpr (std::is_same_v<T, ast::Count>) {
          // Handled below: it gives a number.
        } else {
          unsupported("'cancel'");
        }
      },
      k.op);
  if (const auto* c = std::get_if<ast::Count>(&k.op)) {
    auto n = std::make_unique<CountNode>();
    n->pool = std::move(in.pool);
    n->success = std::move(*cond(c->success));
    n->fail = cond(c->fail);
    n->twice = cond(c->twice);
    const auto* d = dynamic_cast<const DiceNode*>(n->pool.get());
    if (d && !d->check && !n->success.value && !(n->fail && n->fail->value) && !(n->twice && n->twice->value)) {
      n->dice = d;
    }
    return scalar(Type::Int, std::move(n));
  }
  op->pool = std::move(in.pool);
  op->span = k.op_span;
  // Sorting keeps the faces and `under` makes a success pool: their totals need no check.
  const bool keeps_total = std::holds_alternative<ast::Sort>(k.op) || std::holds_alternative<ast::Under>(k.op);
  op->check = keeps_total ? false : !safe(bound);
  return pool_of(std::move(op), bound);
}

Lowerer::Typed Lowerer::node(const ast::Call& k, const ast::Expr& e) {
  if (k.target != ast::CallTarget::Builtin) unsupported(fmt::format("the function '{}'", k.name));
  const std::string& f = k.name;
  const auto n = k.args.size();
  auto b = std::make_unique<BuiltinNode>();
  b->span = e.span;
  if (n >= 2) b->divisor_span = k.args[1]->span;
  const auto one_pool = [&](Builtin fn) {
    // One pool: its faces. One number: itself. Several: each a number.
    if (n == 1) {
      Typed t = any(*k.args[0]);
      if (t.type == Type::Pool) {
        b->fn = fn;
        b->check = !safe(t.bound);
        b->pool = std::move(t.pool);
        return;
      }
      b->args.push_back(as_number(std::move(t)));
      return;
    }
    for (const auto& a : k.args) b->args.push_back(number(*a));
  };
  if (f == "sum") {
    b->fn = Builtin::SumArgs;
    one_pool(Builtin::SumFaces);
  } else if (f == "min" || f == "max") {
    b->fn = f == "min" ? Builtin::MinArgs : Builtin::MaxArgs;
    one_pool(f == "min" ? Builtin::MinFaces : Builtin::MaxFaces);
  } else if (f == "len" && n == 1) {
    Typed t = pool(*k.args[0]);
    b->fn = Builtin::Len;
    b->pool = std::move(t.pool);
  } else if ((f == "abs" && n == 1) || (f == "clamp" && n == 3) ||
             (n == 2 && (f == "floor_div" || f == "ceil_div" || f == "trunc_div" || f == "round_div"))) {
    b->fn = f == "abs"         ? Builtin::Abs
            : f == "clamp"     ? Builtin::Clamp
            : f == "floor_div" ? Builtin::FloorDiv
            : f == "ceil_div"  ? Builtin::CeilDiv
            : f == "trunc_div" ? Builtin::TruncDiv
                               : Builtin::RoundDiv;
    for (const auto& a : k.args) b->args.push_back(number(*a));
  } else {
    unsupported(fmt::format("the builtin '{}'", f));
  }
  return scalar(Type::Int, std::move(b));
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
