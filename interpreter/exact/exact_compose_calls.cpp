// interpreter/exact/exact_compose_calls.cpp — calls of user functions and builtins,
// opposed rolls, and what the plain evaluator runs, in the composed exact engine.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>

#include "dsl/ast_walk.hpp"
#include "dsl/call_site.hpp"
#include "interpreter/eval/eval_context.hpp"
#include "interpreter/exact/exact_compose.hpp"

namespace alea::compose {
namespace {

// A dice source for builtins, which never roll.
class NoDice final : public DiceSource {
 public:
  void roll(const DieKind&, std::span<std::int64_t>) override {
    not_composable("a builtin that rolls dice");
  }
};

// The faces of one path through the dice of an enumerated expression, in the
// order the run asks for them (run_enumerated): the first `fixed` are given,
// and a die past them shows its kind's first face. `kinds` is what each was.
class PathFaces final : public DiceSource {
 public:
  std::vector<std::int64_t> faces;
  std::vector<DieKind> kinds;
  std::size_t fixed = 0;
  void roll(const DieKind& kind, std::span<std::int64_t> out) override {
    for (auto& f : out) {
      const std::size_t at = kinds.size();
      if (at >= fixed) faces.push_back(kind.face(0));
      kinds.push_back(kind);
      f = faces[at];
    }
  }
};

// A dice source that shows `faces` on the dice of draw `target` (the draws
// counted in order; a draw is a run of alike dice, rolled at once) and its
// first face on every other die; it keeps each draw's kind and size.
class DrawFaces final : public DiceSource {
 public:
  std::size_t target = SIZE_MAX;
  std::vector<std::int64_t> faces;
  std::vector<std::pair<DieKind, std::size_t>> draws;
  void roll(const DieKind& kind, std::span<std::int64_t> out) override {
    if (draws.size() == target && faces.size() == out.size()) {
      std::copy(faces.begin(), faces.end(), out.begin());
    } else {
      if (draws.size() == target) not_composable("a draw of another size than the first run's");
      std::fill(out.begin(), out.end(), kind.face(0));
    }
    draws.emplace_back(kind, out.size());
  }
};

// The plain evaluator as the composer runs it (builtins, expressions without
// dice, and those with a few dice, path by path): no breakdown, and no dice
// unless `source` gives them. `run` gives f's value; an error gives composing
// up (`what()` names what failed on some roll), the host's cancel stops it.
struct PlainEvaluator {
  PlainEvaluator(const Bindings& bindings, const Limits& limits, const Budget& budget, DiceSource* source = nullptr)
      : ev(bindings, source ? *source : dice, limits, trace, RunInput{.cancel = budget.cancel}) {
    ev.keep_notes(false);
    ev.stop_at(budget.deadline_at());  // a long plain run keeps the time limit too
    ev.pools_sorted(true);              // as the composer keeps them
  }
  // e in the composer's frame; null when it fails on the evaluator (the host's
  // cancel still stops it).
  std::optional<Value> eval(const ast::Expr& e, std::span<const Value> frame, std::int64_t call_depth,
                            std::int64_t depth) {
    try {
      return ev.eval_in_frame(e, frame, call_depth, depth);
    } catch (const detail::EvalError& x) {
      if (x.diagnostic.code == DiagCode::Interrupted) throw Cancelled{};
      return std::nullopt;
    } catch (const detail::Evaluator::DeadlinePassed&) {
      throw OverBudget{"time_limit"};
    } catch (const detail::Evaluator::OrderUnknown&) {
      order_not_kept();
    }
  }
  template <class F, class What>
  Value run(F f, What what) {
    try {
      return f();
    } catch (const detail::EvalError& x) {
      if (x.diagnostic.code == DiagCode::Interrupted) throw Cancelled{};
      not_composable(fmt::format("{} fails on some roll", what()));
    } catch (const detail::Evaluator::DeadlinePassed&) {
      throw OverBudget{"time_limit"};
    } catch (const detail::Evaluator::OrderUnknown&) {
      order_not_kept();
    }
  }

  NoDice dice;
  Trace trace;
  detail::Evaluator ev;  // after dice and trace, which it holds
};

bool unsorted_pools(const Value& v) {
  if (const PoolData* p = v.as_pool()) return !std::is_sorted(p->dice.begin(), p->dice.end(), by_face_then_id);
  if (const auto* l = v.as_list()) return std::any_of(l->begin(), l->end(), unsorted_pools);
  if (const RecordData* r = v.as_record()) return std::any_of(r->values.begin(), r->values.end(), unsorted_pools);
  return false;
}

// `v` with each pool in it sorted, as the composer keeps pools (make_sorted_pool).
Value sorted_pools(const Value& v) {
  if (!unsorted_pools(v)) return v;
  if (const PoolData* p = v.as_pool()) return make_sorted_pool(p->dice, p->successes);
  std::vector<Value> items;
  if (const auto* l = v.as_list()) {
    for (const Value& x : *l) items.push_back(sorted_pools(x));
    return make_list(std::move(items));
  }
  const RecordData& r = *v.as_record();
  for (const Value& x : r.values) items.push_back(sorted_pools(x));
  return make_record(r.names, std::move(items));
}

// As Evaluator::check_result: a mechanic's value must be the record it declares.
void check_result(Composer& composer, const ast::FnDef& fn, const Value& v) {
  const ast::ResultSpec& r = *fn.result;
  if (r.fields.empty()) {
    if (r.returns) (void)composer.conform(*r.returns, v);
    return;
  }
  const RecordData* rec = v.as_record();
  if (!rec) not_composable("a result of the wrong type");
  for (std::size_t i = 0; i < r.fields.size(); ++i) {
    const Value* f = v.field(r.fields[i]);
    if (!f) not_composable("a result of the wrong type");
    (void)composer.conform(r.types[i], *f);
  }
  for (const auto& name : rec->names) {
    if (std::find(r.fields.begin(), r.fields.end(), name) == r.fields.end()) {
      not_composable("a result of the wrong type");
    }
  }
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
  Dist r = bind_many(budget_, args,
                     [&](const std::vector<Value>& values) { return call_memo(c, e, d, values); });
  // The counters the call set or changed now depend on which branch it took:
  // the rest of the run must not read them (it is enumerated if it does).
  for (const ast::Constant* k : touched_) {
    if (std::find(changed_.begin(), changed_.end(), k) == changed_.end()) changed_.push_back(k);
  }
  touched_.clear();
  return r;
}

// A call that call_memo keeps (it changes and sets no counter) while its memo
// pays: walked rather than run whole on the plain evaluator, so that the same
// call on the same values, in a loop's rounds, is computed once.
bool Composer::memoised_call(const ast::Expr& e) {
  const auto* c = std::get_if<ast::Call>(&e.kind);
  if (!c || c->target != ast::CallTarget::User || !c->fn->changes.empty()) return false;
  if (std::any_of(c->sets.begin(), c->sets.end(), [](const ast::Constant* k) { return k != nullptr; })) return false;
  const auto it = call_use_.find(&e);
  return it == call_use_.end() || it->second.pays();
}

// A call of a function that changes no counter, given the same values, gives
// the same distribution: it is computed once. Its body reads only its
// arguments, constants (fixed in one composition, unless a call around it
// overrides them), counters (as set around it, or refused once a call changed
// them) and program-level names (one value each while the statements after
// them run for it: the frame of that value is part of the key, so that a call
// after `let x = d6` is computed again for each x). The call's depth is part
// of the key, so that max_call_depth fails where the evaluator would.
Dist Composer::call_memo(const ast::Call& c, const ast::Expr& e, Demand d, const std::vector<Value>& args) {
  const bool sets = std::any_of(c.sets.begin(), c.sets.end(), [](const ast::Constant* k) { return k != nullptr; });
  MemoUse& use = call_use_[&e];
  if (sets || !c.fn->changes.empty() || !use.pays()) return call_frame(c, e, d, args);
  ++use.lookups;
  const auto count = [](std::size_t n) { return Value(static_cast<std::int64_t>(n)); };
  MemoKey key{0, &e, d,
              {Value(call_depth_), count(static_cast<std::size_t>(globals_frame_)), count(changed_.size())}};
  key.slots.insert(key.slots.end(), args.begin(), args.end());
  for (const auto* set : {&overrides_, &state_}) {
    for (const auto& [k, v] : *set) {
      key.slots.emplace_back(static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(k)));
      key.slots.push_back(v);
    }
  }
  if (auto it = calls_.find(key); it != calls_.end()) {
    ++use.hits;
    return it->second;
  }
  const std::size_t touched = touched_.size(), changed = changed_.size();
  Dist r = call_frame(c, e, d, args);
  // (A call inside that changed a counter makes the result depend on more.)
  if (touched_.size() == touched && changed_.size() == changed) {
    // What is kept counts against max_odds_memory, as the outcomes do.
    budget_.charge_memory(sizeof(MemoKey) + sizeof(Dist) + sizeof(Value) * key.slots.size() +
                          sizeof(r.entries[0]) * r.entries.size());
    calls_.emplace(std::move(key), r);
  }
  return r;
}

Dist Composer::call_frame(const ast::Call& c, const ast::Expr& e, Demand d,
                          const std::vector<Value>& args) {
  const ast::FnDef& fn = *c.fn;
  if (call_depth_ >= limits_.max_call_depth) not_composable("calls nest too deep");
  const std::size_t saved_base = base_;
  const std::size_t new_base = stack_.size();
  const std::size_t saved_overrides = overrides_.size();
  const std::size_t saved_state = state_.size();
  stack_.resize(new_base + static_cast<std::size_t>(fn.frame_size));
  std::vector<bool> given(fn.params.size(), false);
  std::vector<const ast::Constant*> set_counters;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::int32_t p = i < c.arg_param.size() ? c.arg_param[i] : static_cast<std::int32_t>(i);
    if (p >= 0) {
      const auto k = static_cast<std::size_t>(p);
      stack_[new_base + k] =
          k < fn.types.size() && fn.types[k] ? conform(*fn.types[k], args[i]) : args[i];
      given[k] = true;
    } else if (const ast::Constant* k = c.sets[i]) {
      Value v = k->type ? conform(*k->type, args[i]) : args[i];
      if (k->source == ast::Constant::Source::State) {
        // A counter given by name is set as the state would hold it (failing
        // out of its range); the value stays after the call.
        write_counter(*k, std::move(v), false);
        set_counters.push_back(k);
      } else {
        overrides_.emplace_back(k, std::move(v));
      }
    }
  }
  // The sides were checked as records of the side fields (conform above).
  if (fn.side_count > 0) {
    const Value& first = stack_[new_base];
    for (std::size_t f = 0; f < fn.side_fields.size(); ++f) {
      stack_[new_base + static_cast<std::size_t>(fn.side_field_slots[f])] = *first.field(fn.side_fields[f]);
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
        for (const auto& [v, w] : body.entries) check_result(*this, fn, v);
      }
      if (!fn.changes.empty()) {
        for (const auto& [v, w] : body.entries) apply_changes(fn, new_base, v, set_counters);
      }
      return body;
    }
    const Dist def = eval(*fn.defaults.at(k), demands_.param(fn, k, d));
    return bind(budget_, def, [&](const Value& v) {
      const Value checked = k < fn.types.size() && fn.types[k] ? conform(*fn.types[k], v) : v;
      return with_slot(static_cast<std::int32_t>(k), checked, [&] { return self(self, k + 1); });
    });
  };
  Dist r = from(from, 0);
  if (r.fail.error) {
    // As Evaluator::call_user: an error from inside a call notes the call.
    auto noted = std::make_shared<Diagnostic>(*r.fail.error);
    noted->note_call(ast::call_site(c, *noted, e.span), c.name);
    r.fail.error = std::move(noted);
  }
  base_ = saved_base;
  frame_ = saved_frame;
  stack_.resize(new_base);
  overrides_.resize(saved_overrides);
  state_.resize(saved_state);
  touched_.insert(touched_.end(), set_counters.begin(), set_counters.end());
  --call_depth_;
  return r;
}


// As Evaluator::write_state, for a run that goes on with the counter at `v`.
void Composer::write_counter(const ast::Constant& c, Value v, bool clamp) {
  (void)constant(c);  // the evaluator reads the old value (or default) first
  if (const auto* i = v.as_int(); i && c.type) {
    const auto& t = *c.type;
    std::int64_t x = *i;
    if ((t.min && x < *t.min) || (t.max && x > *t.max)) {
      if (!clamp) not_composable("a counter set out of its range");
      x = t.min && x < *t.min ? *t.min : *t.max;
    }
    v = Value(x);
  }
  if (c.type) (void)conform(*c.type, v);
  state_.emplace_back(&c, std::move(v));
}

Value Composer::call_hidden(const ast::FnDef& h, std::size_t frame, std::size_t params,
                            const Value& result) {
  if (call_depth_ >= limits_.max_call_depth) not_composable("calls nest too deep");
  const std::size_t saved_base = base_;
  const std::uint64_t saved_frame = frame_;
  const std::size_t new_base = stack_.size();
  stack_.resize(new_base + static_cast<std::size_t>(h.frame_size));
  for (std::size_t k = 0; k < params; ++k) stack_[new_base + k] = stack_[frame + k];
  stack_[new_base + params] = result;
  ++call_depth_;
  base_ = new_base;
  frame_ = ++frames_;
  const Dist r = eval(*h.body, Demand::Full);
  base_ = saved_base;
  frame_ = saved_frame;
  stack_.resize(new_base);
  --call_depth_;
  if (!r.is_point()) not_composable("a change of the state that depends on dice or fails");
  return r.entries[0].first;
}

// As Evaluator::apply_changes: the result is the same whatever the changes;
// only whether they fail matters here, and that the counters they write now
// depend on the branch.
void Composer::apply_changes(const ast::FnDef& fn, std::size_t frame, const Value& result,
                             std::vector<const ast::Constant*>& touched) {
  const std::size_t saved_state = state_.size();
  std::vector<std::pair<const ast::StateChange*, Value>> pending;
  const std::size_t params = fn.params.size();
  for (const auto& ch : fn.changes) {
    if (ch.when && !to_bool(call_hidden(*ch.when, frame, params, result))) continue;
    pending.emplace_back(&ch, ch.value ? call_hidden(*ch.value, frame, params, result) : Value());
  }
  for (auto& [ch, amount] : pending) {
    const ast::Constant& c = *ch->counter;
    switch (ch->op) {
      case ast::StateChange::Reset: {
        const Dist d = eval(*c.value, Demand::Full);
        if (!d.is_point()) not_composable("a counter whose default is random");
        write_counter(c, d.entries[0].first, c.clamp);
        break;
      }
      case ast::StateChange::Set:
        write_counter(c, std::move(amount), c.clamp);
        break;
      case ast::StateChange::Add:
      case ast::StateChange::Subtract: {
        const Dist old = constant(c);
        const std::int64_t a = to_int(old.entries[0].first), by = to_int(amount);
        const kernel::Checked x =
            ch->op == ast::StateChange::Add ? kernel::add(a, by) : kernel::sub(a, by);
        if (x.failed) not_composable("a counter would overflow");
        write_counter(c, Value(x.value), c.clamp);
        break;
      }
    }
    touched.push_back(&c);
  }
  state_.resize(saved_state);
}

Value Composer::apply_builtin(const ast::Call& c, const ast::Expr& e, std::vector<Value> args, DiceSource* dice) {
  PlainEvaluator plain(bindings_, limits_, budget_, dice);
  detail::BuiltinCall call{plain.ev, args, c.args, e.span};
  Value v = plain.run([&] { return detail::builtin_function(c.builtin)(call); },
                      [&] { return fmt::format("'{}'", c.name); });
  budget_.charge_work(static_cast<std::uint64_t>(plain.ev.steps()));
  return sorted_pools(v);
}

// Whether `e` itself needs no dice (with a scan, none but single ones), state,
// outer name or constant other than a plain fixed one; the user functions it
// calls are added to `callees`, for plain_fn to follow.
bool Composer::plain_here(const ast::Expr& e, std::vector<const ast::FnDef*>& callees, DiceScan* scan) {
  if (scan) {
    if (const auto* k = std::get_if<ast::Dice>(&e.kind)) {
      const auto* one = k->count ? std::get_if<ast::IntLit>(&k->count->kind) : nullptr;
      if (k->count && !(one && one->value == 1)) return false;
    } else if (std::holds_alternative<ast::Let>(e.kind) ||
               (std::holds_alternative<ast::Call>(e.kind) && std::get<ast::Call>(e.kind).fn)) {
      scan->heavy = true;
    }
  }
  bool ok = scan && std::holds_alternative<ast::Dice>(e.kind) ? true : std::visit(
      [&](const auto& k) {
        using T = std::decay_t<decltype(k)>;
        if constexpr (std::is_same_v<T, ast::Name>) {
          if (k.constant) return plain_constant(*k.constant);
          return k.slot >= 0;
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          if (std::any_of(k.sets.begin(), k.sets.end(), [](const ast::Constant* c) { return c != nullptr; }))
            return false;
          if (k.builtin >= 0) return detail::builtin_caps(k.builtin).composes() && !detail::builtin_caps(k.builtin).draws;
          if (!k.fn) return false;
          callees.push_back(k.fn);
          return true;
        } else {
          return !ast::is_one_of<T, ast::Dice, ast::PoolOp, ast::Loop, ast::Opposed>;
        }
      },
      e.kind);
  ast::for_each_child(e, [&](const ast::Expr& c) { ok = ok && plain_here(c, callees, scan); });
  return ok;
}

// A function is plain when every function it may reach, itself included, is
// plain in its own body and defaults; with `dice`, single dice are allowed
// too. Followed with a list, not recursion, and only so far: a program of a
// thousand chained functions is not analysed whole.
bool Composer::plain_fn(const ast::FnDef& fn, bool dice) {
  auto& known = plain_fns_[dice ? 1 : 0];
  DiceScan scan;
  DiceScan* const with = dice ? &scan : nullptr;
  if (auto it = known.find(&fn); it != known.end()) return it->second;
  constexpr std::size_t most = 256;
  std::vector<const ast::FnDef*> todo{&fn}, seen{&fn}, callees;
  bool ok = true;
  while (ok && !todo.empty()) {
    const ast::FnDef* g = todo.back();
    todo.pop_back();
    if (auto it = known.find(g); it != known.end()) {
      ok = it->second;  // (true: all it reaches is plain too)
      continue;
    }
    callees.clear();
    ok = g->changes.empty() && g->side_count == 0 && g->body && plain_here(*g->body, callees, with);
    for (const auto& def : g->defaults) ok = ok && (!def || plain_here(*def, callees, with));
    for (const ast::FnDef* c : callees) {
      if (std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
      if (seen.size() == most) ok = false;
      seen.push_back(c);
      todo.push_back(c);
    }
  }
  if (!ok) return known[&fn] = false;
  for (const ast::FnDef* g : seen) known[g] = true;
  return true;
}

// A fixed constant (a ruleset's parameter, constant or table) whose value
// needs no dice: the evaluator computes it as the composer does.
bool Composer::plain_constant(const ast::Constant& c) {
  if (auto it = plain_constants_.find(&c); it != plain_constants_.end()) return it->second;
  plain_constants_[&c] = false;  // while it is checked: a constant that reads itself is not plain
  bool ok = c.source == ast::Constant::Source::Fixed && c.value && plain(*c.value);
  return plain_constants_[&c] = ok;
}

Composer::Route Composer::route(const ast::Expr& e) {
  if (auto it = routes_.find(&e); it != routes_.end()) return it->second;
  std::vector<const ast::FnDef*> callees;
  bool ok = plain_here(e, callees);
  for (const ast::FnDef* c : callees) ok = ok && plain_fn(*c);
  if (ok) return routes_[&e] = Route::Plain;
  callees.clear();
  DiceScan scan;
  ok = plain_here(e, callees, &scan) && scan.heavy;
  for (const ast::FnDef* c : callees) ok = ok && plain_fn(*c, true);
  return routes_[&e] = ok ? Route::Paths : Route::Walk;
}

std::optional<std::span<const Value>> Composer::plain_frame() const {
  for (const Spread& s : spread_) {
    if (s.at >= base_) return std::nullopt;  // a name of this frame holds a whole distribution
  }
  return std::span<const Value>(stack_.data() + base_, stack_.size() - base_);
}

std::optional<Dist> Composer::run_plain(const ast::Expr& e) {
  const auto frame = plain_frame();
  if (!frame) return std::nullopt;
  PlainEvaluator plain(bindings_, limits_, budget_);
  plain.ev.know_constants(overrides_, constants_);
  const std::optional<Value> v = plain.eval(e, *frame, call_depth_, depth_);
  const std::int64_t steps = plain.ev.steps();
  budget_.charge_work(static_cast<std::uint64_t>(steps));
  if (!v) {
    // The composer walks it instead, and says why it cannot if it cannot.
    routes_[&e] = Route::Walk;
    return std::nullopt;
  }
  budget_.charge(1);
  Dist r = Dist::point(sorted_pools(*v));
  r.steps = steps - 1;  // checked() counts the node itself
  return r;
}

namespace {

// What one die shows, each face weighted by how many sides show it.
Dist die_faces(const DieKind& kind) {
  std::map<std::int64_t, std::uint64_t> sides;
  for (std::int64_t i = 0; i < kind.face_count(); ++i) ++sides[kind.face(i)];
  Dist d;
  d.total = Weight(static_cast<std::uint64_t>(kind.face_count()));
  for (const auto& [face, n] : sides) d.entries.emplace_back(Value(face), Weight(n));
  return d;
}

struct GiveUp {};  // the enumeration is not worth finishing: the composer walks it

}  // namespace

std::optional<Dist> Composer::run_enumerated(const ast::Expr& e) {
  const auto frame = plain_frame();
  if (!frame) return std::nullopt;
  struct Run {
    Value value;
    std::vector<std::int64_t> faces;
    std::vector<DieKind> kinds;
    std::int64_t steps = 0;
  };
  std::uint64_t runs = 0, steps = 0;
  std::int64_t most_steps = 0, most_dice = 0;
  // One run of the evaluator with the faces `given`, the dice past them at their first face.
  auto execute = [&](const std::vector<std::int64_t>& given) {
    if (++runs > max_enumerated_runs || steps > max_enumerated_steps) throw GiveUp{};
    PathFaces path;
    path.faces = given;
    path.fixed = given.size();
    PlainEvaluator plain(bindings_, limits_, budget_, &path);
    plain.ev.know_constants(overrides_, constants_);
    Run r;
    std::optional<Value> v = plain.eval(e, *frame, call_depth_, depth_);
    r.steps = plain.ev.steps();
    steps += static_cast<std::uint64_t>(r.steps);
    budget_.charge(1);
    budget_.charge_work(static_cast<std::uint64_t>(r.steps));
    // A path that fails: the composer walks e, and counts the error or gives up as it does.
    // A value with a pool: the composer keeps pools its own way.
    if (!v || holds_pool(*v)) throw GiveUp{};
    r.value = std::move(*v);
    r.faces = std::move(path.faces);
    r.kinds = std::move(path.kinds);
    return r;
  };
  // The distribution of e's value after the faces `given`, from a run that
  // agrees with them: each face of the next die it rolled, in turn.
  std::vector<std::int64_t> given;
  std::function<Dist(const Run&)> after = [&](const Run& run) -> Dist {
    if (run.faces.size() == given.size()) {
      most_steps = std::max(most_steps, run.steps);
      most_dice = std::max(most_dice, static_cast<std::int64_t>(given.size()));
      return Dist::point(run.value);
    }
    const DieKind& kind = run.kinds[given.size()];
    if (static_cast<std::uint64_t>(kind.face_count()) > max_enumerated_runs - std::min(runs, max_enumerated_runs)) {
      throw GiveUp{};
    }
    return bind(budget_, die_faces(kind), [&](const Value& face) {
      given.push_back(*face.as_int());
      Dist r = given.back() == run.faces[given.size() - 1] ? after(run) : after(execute(given));
      given.pop_back();
      return r;
    });
  };
  try {
    Dist r = after(execute(given));
    r.steps = most_steps - 1;  // checked() counts the node itself
    r.dice = most_dice;
    return r;
  } catch (const GiveUp&) {
    routes_[&e] = Route::Walk;
    return std::nullopt;
  }
}

// sum, min or max of `repeat n { body }`: the items are independent and the
// builtin folds them from the left, so it is applied to the partial result and
// each next item in turn, merging equal partial results, instead of listing
// every sequence of n values (`sum(repeat 6 { 4d6kh3 })`: 16^6 lists).
Dist Composer::fold_repeat(const ast::Call& c, const ast::Expr& e, const ast::Repeat& k) {
  const Dist count = eval(k.count, Demand::Counted);
  std::optional<Dist> body;
  Dist r = bind(budget_, count, [&](const Value& n_value) {
    const std::int64_t n = repeat_count(n_value);
    if (n == 0) return Dist::point(apply_builtin(c, e, {make_list({})}));
    if (!body) body = eval(k.body, Demand::Counted);
    Dist acc = map(budget_, *body, [&](const Value& x) { return apply_builtin(c, e, {make_list({x})}); });
    for (std::int64_t i = 1; i < n; ++i) {
      acc = product(budget_, acc, *body,
                    [&](const Value& a, const Value& x) { return apply_builtin(c, e, {make_list({a, x})}); });
    }
    return acc;
  });
  r.steps += 1;  // the repeat, as eval counts its node
  return r;
}

Dist Composer::call_builtin(const ast::Call& c, const ast::Expr& e, Demand d) {
  const detail::BuiltinCaps& caps = detail::builtin_caps(c.builtin);
  if (!caps.composes()) {
    not_composable(
        fmt::format("'{}' sees the order of the dice or is not known to the composer", c.name));
  }
  if (c.args.size() == 1 && (caps.lowered_as == detail::Lowering::Sum || caps.lowered_as == detail::Lowering::Min ||
                             caps.lowered_as == detail::Lowering::Max)) {
    if (const auto* k = std::get_if<ast::Repeat>(&c.args[0]->kind)) return fold_repeat(c, e, *k);
  }
  std::vector<Dist> args;
  args.reserve(c.args.size());
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    args.push_back(eval(*c.args[i], Demands::builtin_arg(c.builtin, i, c.args.size(), d)));
  }
  if (caps.draws) return bind_many(budget_, args, [&](const std::vector<Value>& values) { return drawn_items(c, e, values); });
  return bind_many(budget_, args, [&](const std::vector<Value>& values) {
    return Dist::point(apply_builtin(c, e, values));
  });
}

// Each die the builtin draws is one item of its list and nothing else
// (BuiltinCaps::draws): the list's distribution is the product of its draws',
// draw by draw, where the sequences of faces would be as many as their
// product. A draw of several alike dice is a multiset, its items in ascending
// order of face, as the enumeration gives them; where the program may read
// their order (keep_order_), every sequence of faces instead. A first run, every die on its
// first face, says what the builtin draws (and fails as every run would, where
// an argument is wrong); each draw's items for each multiset of its faces are
// the builtin's own, from a run with that draw showing them.
Dist Composer::drawn_items(const ast::Call& c, const ast::Expr& e, const std::vector<Value>& args) {
  DrawFaces first;
  const Value whole = apply_builtin(c, e, args, &first);
  const std::vector<Value>* items = whole.as_list();
  std::size_t n = 0;
  for (const auto& draw : first.draws) n += draw.second;
  if (items ? items->size() != n : n != 1) not_composable(fmt::format("'{}' gave other than an item per die", c.name));
  Dist acc = Dist::point(make_list({}));
  std::size_t at = 0;
  for (std::size_t g = 0; g < first.draws.size(); ++g) {
    const DieKind& kind = first.draws[g].first;
    const std::size_t m = first.draws[g].second;  // a name, not a binding: lambdas below read it
    std::map<std::int64_t, std::uint64_t> sides;  // each face, and the sides that show it
    for (std::int64_t i = 0; i < kind.face_count(); ++i) ++sides[kind.face(i)];
    const std::vector<std::pair<std::int64_t, std::uint64_t>> faces(sides.begin(), sides.end());
    Accumulator draw(budget_);
    DrawFaces source;
    source.target = g;
    // The draw showing source.faces: its items, weighted by the ways to roll them.
    const auto take = [&](const Weight& ways) {
      source.draws.clear();
      const Value v = apply_builtin(c, e, args, &source);
      if (!items) return draw.add(v, ways);
      const std::vector<Value>& got = *v.as_list();
      const auto from = got.begin() + static_cast<std::ptrdiff_t>(at);
      draw.add(make_list(std::vector<Value>(from, from + static_cast<std::ptrdiff_t>(m))), ways);
    };
    // Every multiset of m faces, ascending, and the ways to roll it: for each
    // face in turn, k of the dice left show it in C(left, k) ways, each of its
    // sides in k places.
    const std::function<void(std::size_t, std::size_t, const Weight&)> each =
        [&](std::size_t f, std::size_t left, const Weight& ways) {
          if (f + 1 == faces.size()) {
            source.faces.insert(source.faces.end(), left, faces[f].first);
            take(ways * Weight(faces[f].second).pow(left));
            source.faces.resize(m - left);
            return;
          }
          for (std::size_t k = 0; k <= left; ++k) {
            mpz_class choose;
            mpz_bin_uiui(choose.get_mpz_t(), left, k);
            each(f + 1, left - k, ways * Weight::from_mpz(choose) * Weight(faces[f].second).pow(k));
            source.faces.push_back(faces[f].first);
          }
          source.faces.resize(source.faces.size() - left - 1);
        };
    // Where the program may read their order, every sequence of faces, each
    // the product of its faces' sides.
    const std::function<void(std::size_t, const Weight&)> in_order = [&](std::size_t left, const Weight& ways) {
      if (left == 0) return take(ways);
      for (const auto& [face, showing] : faces) {
        source.faces.push_back(face);
        in_order(left - 1, ways * Weight(showing));
        source.faces.pop_back();
      }
    };
    if (keep_order_ && m > 1) {
      in_order(m, Weight(1));
    } else {
      each(0, m, Weight(1));
    }
    Dist d;
    draw.take_into(d);
    d.total = Weight(static_cast<std::uint64_t>(kind.face_count())).pow(m);
    d.dice = static_cast<std::int64_t>(m);
    if (!items) return d;
    acc = product(budget_, acc, d, [](const Value& list, const Value& more) {
      std::vector<Value> longer = *list.as_list();
      const std::vector<Value>& add = *more.as_list();
      longer.insert(longer.end(), add.begin(), add.end());
      return make_list(std::move(longer));
    });
    at += m;
  }
  return acc;
}

// `E vs opposed`: E again, with the other side's fields.
Dist Composer::opposed(const ast::Opposed& k, Demand d) {
  const Value other = slot(k.other_side_slot);
  std::vector<Value> saved;
  for (std::size_t f = 0; f < k.field_slots.size(); ++f) {
    const Value* v = other.field(k.field_names[f]);
    if (!v) not_composable("a side without its fields");
    saved.push_back(slot(k.field_slots[f]));
    slot(k.field_slots[f]) = *v;
  }
  Dist r = eval(*k.side, d);
  for (std::size_t f = 0; f < k.field_slots.size(); ++f) slot(k.field_slots[f]) = saved[f];
  return r;
}

}  // namespace alea::compose
