// interpreter/sample/lowerer.hpp — internal: the Lowerer, which turns a compiled
// program into the nodes of lowered_*.hpp (lower.cpp: programs, names and
// expressions; lower_dice.cpp: dice and pool operations; lower_call.cpp:
// builtins and functions).
//
// Lowering settles every value's kind in advance (number, boolean, string,
// none or pool). A program whose kinds cannot be settled, or that would fail a
// type check, or that uses anything not covered, is not lowered: the sampler
// runs it with the evaluator, which reports such errors as it always does.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "interpreter/sample/lowered.hpp"
#include "interpreter/sample/lowered_scalar.hpp"

namespace alea {

// One program-level `let`, or the main expression: its value is kept in a slot.
struct LoweredProgram::Step {
  std::size_t slot = 0;
  lowered::ScalarPtr scalar;  // one of the two
  lowered::PoolPtr pool;
};

class Lowerer {
  friend class LowerOp;

 public:
  Lowerer(const Bindings& bindings, LoweredProgram& out) : bindings_(bindings), out_(out) {}

  struct Unsupported {
    std::string why;
  };

  void program(const ast::Program& p);

 private:
  enum class Type { Int, Bool, Str, None, Pool };
  // A lowered expression: a scalar node or, for a pool, a pool node with the
  // largest face magnitude its dice can show (saturating).
  struct Typed {
    Type type = Type::Int;
    lowered::ScalarPtr scalar;
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
  std::vector<const ast::FnDef*> calls_;               // the functions being inlined, outermost first

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

  Typed scalar(Type type, lowered::ScalarPtr node) {
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
  Typed constant(Type type, std::int64_t v) { return scalar(type, std::make_unique<lowered::ConstNode>(v)); }
  std::int64_t intern(const std::string& s) {
    const std::int64_t i = out_.string_index(s);
    if (i >= 0) return i;
    out_.strings_.push_back(s);
    return static_cast<std::int64_t>(out_.strings_.size() - 1);
  }

  // A number, or a pool used as one (its total).
  lowered::ScalarPtr number(const ast::Expr& e) { return as_number(any(e)); }
  lowered::ScalarPtr as_number(Typed t);
  lowered::ScalarPtr boolean(const ast::Expr& e) {
    Typed t = any(e);
    if (t.type != Type::Bool) unsupported(fmt::format("{} where a boolean is needed", type_name(t.type)));
    return std::move(t.scalar);
  }
  Typed pool(const ast::Expr& e) {
    Typed t = any(e);
    if (t.type != Type::Pool) unsupported(fmt::format("{} where a pool is needed", type_name(t.type)));
    return t;
  }
  std::unique_ptr<lowered::CondNode> cond(const std::optional<ast::Cond>& c) { return c ? cond(*c) : nullptr; }
  std::unique_ptr<lowered::CondNode> cond(const ast::Cond& c);

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

  Typed any(const ast::Expr& e);

  Typed node(const ast::IntLit& k, const ast::Expr&) { return constant(Type::Int, k.value); }
  Typed node(const ast::BoolLit& k, const ast::Expr&) { return constant(Type::Bool, k.value); }
  Typed node(const ast::StrLit& k, const ast::Expr&) { return constant(Type::Str, intern(k.value)); }
  Typed node(const ast::NoneLit&, const ast::Expr&) { return constant(Type::None, 0); }

  Typed slot_value(const Slot& s) {
    if (s.type == Type::Pool) return pool_of(std::make_unique<lowered::PoolSlotNode>(s.index), s.bound);
    return scalar(s.type, std::make_unique<lowered::SlotNode>(s.index));
  }
  Typed value_of(const Value& v, std::string_view what) {
    if (const auto* i = v.as_int()) return constant(Type::Int, *i);
    if (const auto* b = v.as_bool()) return constant(Type::Bool, *b);
    if (const auto* s = v.as_str()) return constant(Type::Str, intern(*s));
    if (v.is_none()) return constant(Type::None, 0);
    unsupported(fmt::format("{} that is {}", what, kind_name(v.kind())));
  }

  // One overload per kind of node: lower.cpp, lower_dice.cpp, lower_call.cpp.
  Typed node(const ast::Name& k, const ast::Expr& e);
  Typed node(const ast::Dice& k, const ast::Expr& e);
  Typed node(const ast::PoolOp& k, const ast::Expr& e);
  Typed node(const ast::Unary& k, const ast::Expr& e);
  Typed node(const ast::Binary& k, const ast::Expr& e);
  Typed node(const ast::If& k, const ast::Expr& e);
  Typed node(const ast::Let& k, const ast::Expr& e);
  // `body`, evaluated once `b` has set its slot.
  Typed let_node(lowered::Binding b, Typed body);
  // `first` evaluated for what it draws (and how it fails), then `then`.
  Typed sequence(Typed first, Typed then);
  Typed node(const ast::Call& k, const ast::Expr& e);
  Typed user_call(const ast::Call& k, const ast::Expr& e);
  // The binding of a function's parameter, with the check its type asks for.
  std::optional<lowered::ArgCheck> bind_param(const ast::FnDef& fn, std::size_t param, Typed value, Span span,
                                              lowered::Binding& binding);
  // A new slot for `value`, set by `binding`.
  Slot bind(Typed value, lowered::Binding& binding);
  std::optional<lowered::ArgCheck> type_check(const ast::TypeSpec& t, const Slot& s, Span span, std::string_view fn);
  Typed node(const ast::Index& k, const ast::Expr& e);
  Typed node(const ast::Tiers& k, const ast::Expr& e);
  Typed node(const ast::ListLit&, const ast::Expr&) { unsupported("lists"); }
  Typed node(const ast::RecordLit&, const ast::Expr&) { unsupported("records"); }
  Typed node(const ast::Field&, const ast::Expr&) { unsupported("records"); }
  Typed node(const ast::Opposed&, const ast::Expr&) { unsupported("'vs opposed'"); }
  Typed node(const ast::Repeat&, const ast::Expr&) { unsupported("'repeat'"); }
  Typed node(const ast::For&, const ast::Expr&) { unsupported("'for'"); }
  Typed node(const ast::Loop&, const ast::Expr&) { unsupported("'loop'"); }
};

// What a pool operation's lowering (ops::<family>::lower, interpreter/ops/) may
// ask of the Lowerer, and where it leaves its node.
class LowerOp {
 public:
  LowerOp(Lowerer& lowerer, const ast::PoolOp& op, Lowerer::Typed in)
      : lowerer_(lowerer), op_(op), in_(std::move(in)) {}

  // Parameter i as a number (a pool used as one: its total).
  lowered::ScalarPtr number(std::size_t i) { return lowerer_.number(*op_.arg(i)); }
  // Condition parameter i, or null when it was not written.
  std::unique_ptr<lowered::CondNode> cond(std::size_t i) {
    return op_.arg(i) ? lowerer_.cond(op_.param(i)) : nullptr;
  }
  // Parameter i when its value may be none, which means "not given"
  // (`limit none`, `except none`): `none` tells, and the node then only draws
  // what the expression draws.
  lowered::ScalarPtr number_or_none(std::size_t i, bool& none) {
    Lowerer::Typed v = lowerer_.any(*op_.arg(i));
    none = v.type == Lowerer::Type::None;
    return none ? std::move(v.scalar) : lowerer_.as_number(std::move(v));
  }
  [[noreturn]] void unsupported(std::string why) { Lowerer::unsupported(std::move(why)); }

  // The largest face magnitude of the pool it applies to.
  [[nodiscard]] std::uint64_t bound() const { return in_.bound; }
  static std::uint64_t magnitude(std::int64_t v) { return Lowerer::magnitude(v); }
  static std::uint64_t add_bounds(std::uint64_t a, std::uint64_t b) { return Lowerer::add_bounds(a, b); }

  // The result, a pool operation's node: it is given the pool it applies to
  // and the operation's text; its dice show at most `bound` in magnitude. A
  // node whose pool's total is its input's or its size (`same_total`) needs no
  // check of that total.
  void give_pool(std::unique_ptr<lowered::PoolOpNode> node, std::uint64_t bound, bool same_total = false) {
    node->pool = std::move(in_.pool);
    node->span = op_.op_span;
    node->check = same_total ? false : !lowerer_.safe(bound);
    result_ = lowerer_.pool_of(std::move(node), bound);
  }
  // The result, a number; `take_pool` gives it the pool it applies to.
  lowered::PoolPtr take_pool() { return std::move(in_.pool); }
  void give_number(lowered::ScalarPtr node) { result_ = lowerer_.scalar(Lowerer::Type::Int, std::move(node)); }

  Lowerer::Typed result() { return std::move(result_); }

 private:
  Lowerer& lowerer_;
  const ast::PoolOp& op_;
  Lowerer::Typed in_;
  Lowerer::Typed result_;
};

}  // namespace alea
