// interpreter/exact/exact_compose_counters.cpp — the counters of a loop's state: fields
// that the next state only carries forward, moved by an amount that does not depend on them
// (`rolls: s.rolls + 1`, `turns: if fresh then s.turns + 1 else s.turns`).
//
// A loop composed as a chain (exact_compose_loop.cpp) computes each state's next states
// once. A battle's states differ in the dice rolled and the turns taken so far, so no state
// comes twice, and every round costs as much as the first. When the next state depends on
// a counter only through that field of itself, two states that differ only in their
// counters have the same next states, moved by the difference: the chain computes them
// once, from the state with its counters at 0, and moves each by the state's own counters.
// The condition still sees every state as it is (a cap on the rolls ends the loop there).
//
// Whether a field is such a counter is decided here, before the chain runs, by following
// where its value can go in the expression of the next state, and in the functions it
// calls: an abstract evaluation with four kinds of value (Taint). A counter's value may only
// be moved by `+` or `-` of an amount that is not one, be carried to the same field of a
// record that becomes the next state, or go nowhere (a branch never taken, a parameter
// never read). A branch whose condition has a value known now (`if keep_log then …`, the
// loop's own enclosing parameters hold one value while it is composed) is followed alone.
// Anything else (a comparison, a builtin, an index, a counter in another field) and the
// field is not one: the chain then runs as it did, state by state.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ast_walk.hpp"
#include "interpreter/exact/exact_compose.hpp"

namespace alea::compose {

namespace {

struct Taint {
  enum Kind : std::uint8_t { Clean, Counter, State, Bad } kind = Clean;
  std::string field;           // Counter: the counter it is moved from
  std::vector<std::string> in;  // State: the counters the record carries, each in its own field, sorted
  std::optional<Value> known;   // Clean: the value, when it is known while the loop is composed
  static Taint bad() { return {Bad, {}, {}, {}}; }
};

// A value known now: a plain value of the frame, not a marker of a name spread or observed.
std::optional<Value> known_value(const Value& v) {
  if (const auto* s = v.as_str(); s && !s->empty() && (*s)[0] == '\x01') return std::nullopt;
  return v;
}

class CounterScan {
 public:
  CounterScan(const ast::Loop& loop, const std::vector<std::string>& counters,
              std::function<std::optional<Value>(std::int32_t)> outer)
      : loop_(loop), counters_(counters), outer_(std::move(outer)) {}

  // Whether every state the next expression gives carries each counter in its own field.
  bool holds() {
    frames_.push_back({});
    const Taint t = expr(*loop_.next);
    frames_.pop_back();
    // (Each of `in` is a counter, once: all of them when there are as many.)
    return t.kind == Taint::State && t.in.size() == counters_.size();
  }

 private:
  const ast::Loop& loop_;
  const std::vector<std::string>& counters_;
  std::function<std::optional<Value>(std::int32_t)> outer_;  // a slot of the loop's frame bound before it
  // The slots bound inside what is scanned, by frame: the loop's frame first, then one per call followed.
  std::vector<std::map<std::int32_t, Taint>> frames_;
  std::vector<const ast::FnDef*> calls_;  // the functions followed, to refuse recursion

  bool is_counter(const std::string& name) const {
    return std::find(counters_.begin(), counters_.end(), name) != counters_.end();
  }

  Taint name(const ast::Name& n) {
    if (n.slot < 0) return {};  // a ruleset's constant or a program-level name: never a counter
    if (frames_.size() == 1 && n.slot == loop_.slot) return Taint::bad();  // the whole state
    const auto& frame = frames_.back();
    if (auto it = frame.find(n.slot); it != frame.end()) return it->second;
    if (frames_.size() > 1) return Taint::bad();  // (a callee's slots are all bound in it)
    Taint t;
    t.known = outer_(n.slot);
    return t;
  }

  static bool clean(const Taint& t) { return t.kind == Taint::Clean; }
  static bool small(const Taint& t) {
    const std::int64_t* v = t.kind == Taint::Clean && t.known ? t.known->as_int() : nullptr;
    return v && *v >= -(std::int64_t{1} << 31) && *v <= (std::int64_t{1} << 31);
  }

  // Both branches of an `if` whose condition is not known: one kind of value from either.
  static Taint join(Taint a, const Taint& b) {
    if (a.kind != b.kind) return Taint::bad();
    if (a.field != b.field || a.in != b.in) return Taint::bad();
    if (a.kind == Taint::Clean && !(a.known && b.known && same(*a.known, *b.known))) a.known.reset();
    return a;
  }

  // Every child of e clean: e is clean, its value not known here.
  Taint children_clean(const ast::Expr& e) {
    bool ok = true;
    ast::for_each_child(e, [&](const ast::Expr& c) { ok = ok && clean(expr(c)); });
    return ok ? Taint{} : Taint::bad();
  }

  Taint bind(std::int32_t slot, Taint t, const ast::Expr& body) {
    std::optional<Taint> saved;
    if (auto it = frames_.back().find(slot); it != frames_.back().end()) saved = it->second;
    frames_.back()[slot] = std::move(t);
    Taint r = expr(body);
    if (saved) frames_.back()[slot] = std::move(*saved);
    else frames_.back().erase(slot);
    return r;
  }

  Taint call(const ast::Call& c) {
    std::vector<Taint> args;
    bool all_clean = true;
    for (const auto& a : c.args) {
      args.push_back(expr(*a));
      all_clean = all_clean && clean(args.back());
      if (args.back().kind == Taint::Bad) return Taint::bad();
    }
    if (all_clean) return {};
    if (c.target == ast::CallTarget::Builtin) {
      // with(record, "field", value): a state with one field set.
      if (c.name != "with" || args.size() != 3 || args[0].kind != Taint::State) return Taint::bad();
      const auto* field = std::get_if<ast::StrLit>(&c.args[1]->kind);
      if (!field) return Taint::bad();
      Taint r = args[0];
      if (is_counter(field->value)) {
        if (args[2].kind != Taint::Counter || args[2].field != field->value) return Taint::bad();
        return r;
      }
      return clean(args[2]) ? r : Taint::bad();
    }
    const ast::FnDef* fn = c.fn;
    // A function that checks its result or its arguments' types, changes a ruleset's state
    // or takes sides could tell a counter's value by them: not followed.
    if (c.target != ast::CallTarget::User || !fn || !fn->body || fn->result || !fn->changes.empty() ||
        fn->side_count > 0 || calls_.size() >= 8 ||
        std::find(calls_.begin(), calls_.end(), fn) != calls_.end() ||
        std::any_of(fn->types.begin(), fn->types.end(), [](const auto& t) { return t.has_value(); })) {
      return Taint::bad();
    }
    std::map<std::int32_t, Taint> params;
    for (std::size_t i = 0; i < c.args.size(); ++i) {
      if (i >= c.arg_param.size() || c.arg_param[i] < 0) return Taint::bad();
      params[c.arg_param[i]] = args[i];
    }
    for (std::size_t p = 0; p < fn->params.size(); ++p) {
      if (!params.contains(static_cast<std::int32_t>(p))) params[static_cast<std::int32_t>(p)] = Taint{};
    }
    calls_.push_back(fn);
    frames_.push_back(std::move(params));
    Taint r = expr(*fn->body);
    frames_.pop_back();
    calls_.pop_back();
    return r;
  }

  Taint expr(const ast::Expr& e) {
    return std::visit(
        [&](const auto& k) -> Taint {
          using T = std::decay_t<decltype(k)>;
          if constexpr (std::is_same_v<T, ast::IntLit>) {
            return {Taint::Clean, {}, {}, Value(k.value)};
          } else if constexpr (std::is_same_v<T, ast::BoolLit>) {
            return {Taint::Clean, {}, {}, Value(k.value)};
          } else if constexpr (std::is_same_v<T, ast::Name>) {
            return name(k);
          } else if constexpr (std::is_same_v<T, ast::Field>) {
            if (const auto* n = std::get_if<ast::Name>(&k.object->kind);
                n && frames_.size() == 1 && n->slot == loop_.slot && n->slot >= 0) {
              if (is_counter(k.name)) return {Taint::Counter, k.name, {}, {}};
              return {};
            }
            const Taint o = expr(*k.object);
            if (o.kind == Taint::State) {
              if (std::find(o.in.begin(), o.in.end(), k.name) != o.in.end()) return {Taint::Counter, k.name, {}, {}};
              return {};
            }
            return clean(o) ? Taint{} : Taint::bad();
          } else if constexpr (std::is_same_v<T, ast::Unary>) {
            const Taint o = expr(*k.operand);
            if (!clean(o)) return Taint::bad();
            Taint r;
            if (k.op == ast::UnOp::Not && o.known && o.known->as_bool()) r.known = Value(!*o.known->as_bool());
            return r;
          } else if constexpr (std::is_same_v<T, ast::Binary>) {
            const Taint a = expr(*k.lhs);
            const Taint b = expr(*k.rhs);
            if (clean(a) && clean(b)) return {};
            // A counter moved by a small amount known now (a literal, a parameter): with
            // the counters themselves kept small (loop_counter_bound), no sum of such
            // moves overflows, from 0 or from the state's counters.
            if (k.op == ast::BinOp::Add && a.kind == Taint::Counter && small(b)) return a;
            if (k.op == ast::BinOp::Add && small(a) && b.kind == Taint::Counter) return b;
            if (k.op == ast::BinOp::Sub && a.kind == Taint::Counter && small(b)) return a;
            return Taint::bad();
          } else if constexpr (std::is_same_v<T, ast::If>) {
            const Taint c = expr(*k.cond);
            if (!clean(c)) return Taint::bad();
            if (c.known && c.known->as_bool()) return expr(*c.known->as_bool() ? *k.then_ : *k.else_);
            return join(expr(*k.then_), expr(*k.else_));
          } else if constexpr (std::is_same_v<T, ast::Let>) {
            Taint v = expr(*k.value);
            if (v.kind == Taint::Bad) return v;
            return bind(k.slot, std::move(v), *k.body);
          } else if constexpr (std::is_same_v<T, ast::RecordLit>) {
            Taint r;
            for (std::size_t i = 0; i < k.values.size(); ++i) {
              const Taint v = expr(*k.values[i]);
              if (clean(v)) continue;
              if (v.kind != Taint::Counter || v.field != k.names[i]) return Taint::bad();
              r.kind = Taint::State;
              r.in.push_back(v.field);
            }
            std::sort(r.in.begin(), r.in.end());
            return r;
          } else if constexpr (std::is_same_v<T, ast::Call>) {
            return call(k);
          } else if constexpr (std::is_same_v<T, ast::Loop>) {
            // An inner loop: its state clean from start to end.
            if (!clean(expr(*k.init))) return Taint::bad();
            const Taint cond = bind(k.slot, Taint{}, *k.cond);
            const Taint next = bind(k.slot, Taint{}, *k.next);
            return clean(cond) && clean(next) ? Taint{} : Taint::bad();
          } else if constexpr (std::is_same_v<T, ast::For>) {
            if (!clean(expr(*k.list))) return Taint::bad();
            return clean(bind(k.slot, Taint{}, *k.body)) ? Taint{} : Taint::bad();
          } else if constexpr (std::is_same_v<T, ast::Opposed>) {
            // The other side of a `vs`: its expression again, with slots of its own.
            return Taint::bad();
          } else {
            return children_clean(e);
          }
        },
        e.kind);
  }
};

}  // namespace

std::vector<std::string> Composer::loop_counters(const ast::Loop& k, const ast::Expr& e, const Value& state) {
  const RecordData* r = state.as_record();
  if (!r) return {};
  std::vector<std::string> candidates;
  for (std::size_t i = 0; i < r->names.size(); ++i) {
    if (r->values[i].as_int()) candidates.push_back(r->names[i]);
  }
  // A slot of the loop's frame has a value known now where the loop reads it as bound
  // before it: one it reads and never binds itself.
  std::vector<std::int32_t> bound;
  const auto binders = [&](auto&& self, const ast::Expr& x) -> void {
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (ast::is_one_of<T, ast::Let, ast::For, ast::Loop>) bound.push_back(n.slot);
          if constexpr (std::is_same_v<T, ast::Opposed>) {
            bound.insert(bound.end(), n.field_slots.begin(), n.field_slots.end());
            bound.push_back(n.other_side_slot);
          }
        },
        x.kind);
    ast::for_each_child(x, [&](const ast::Expr& c) { self(self, c); });
  };
  binders(binders, e);
  const std::vector<std::int32_t>& free = demands_.free_slots(e);
  const auto outer = [&](std::int32_t s) -> std::optional<Value> {
    if (!std::binary_search(free.begin(), free.end(), s) || std::find(bound.begin(), bound.end(), s) != bound.end())
      return std::nullopt;
    return known_value(slot(s));
  };
  // The largest set of counters that holds together: a field that fails alone is dropped.
  std::vector<std::string> counters;
  for (const std::string& f : candidates) {
    const std::vector<std::string> one{f};
    if (CounterScan(k, one, outer).holds()) counters.push_back(f);
  }
  if (counters.size() > 1 && !CounterScan(k, counters, outer).holds()) return {};
  return counters;
}

}  // namespace alea::compose
