// interpreter/exact/exact_compose_let.cpp — a spine of lets in the composed
// exact engine.
//
// The spine is a let, then each let that is the body of the one before, up to
// the first that binds a slot again (it starts a spine of its own). It runs as
// a distribution over the values of its names that the rest of it still
// reads: after each let, the others are summed out, so what follows is
// computed once per distinct value of what it reads, not once per sequence of
// values (in `let a = 5d6 in let b = 2d6 in let k = f(a, b) in g(k)`, g once
// per value of k).
//
// A let whose value reads none of the spine's names, and cannot fail, waits as
// a distribution of its own instead of being multiplied in at once. The first
// let whose value reads it runs over its values there, and keeps of them only
// what follows still reads: above, `a` and `b` wait, and `k` is computed for
// each pair of their values while only the distribution of k is held, never
// the joint one of a and b (252 × 21 pools). A waiting name that nothing reads
// is summed out, which changes no weight since it cannot fail.
//
// A waiting name that the value reads once (outside any loop) and nothing
// after it reads is spread instead: the value is computed once, the name
// giving its whole distribution, as any independent part of an expression
// does. A pool operation can then take a roll's every multiset at once
// (PoolStep::on_rolls): `w cancel r<=` counts both rolls face by face.
#include <algorithm>

#include <fmt/format.h>

#include "dsl/ast_walk.hpp"
#include "interpreter/exact/exact_compose.hpp"

namespace alea::compose {

bool Composer::read_once(const ast::Expr& e, std::int32_t slot) {
  const auto key = std::make_pair(&e, slot);
  if (auto it = read_once_.find(key); it != read_once_.end()) return it->second;
  int names = 0;
  bool ok = true;
  auto walk = [&](auto&& self, const ast::Expr& x) -> void {
    const auto& r = demands_.free_slots(x);
    if (!ok || !std::binary_search(r.begin(), r.end(), slot)) return;
    std::visit(
        [&](const auto& k) {
          using T = std::decay_t<decltype(k)>;
          if constexpr (std::is_same_v<T, ast::Name>) {
            ++names;
          } else if constexpr (ast::is_one_of<T, ast::Repeat, ast::For, ast::Loop, ast::Opposed>) {
            ok = false;  // may read it more than once in a run
          } else {
            if constexpr (std::is_same_v<T, ast::Let>) ok = ok && k.slot != slot;
            ast::for_each_child(x, [&](const ast::Expr& c) { self(self, c); });
          }
        },
        x.kind);
  };
  walk(walk, e);
  return read_once_[key] = ok && names <= 1;
}

Dist Composer::let_spine(const ast::Let& k, Demand d, Dist env, const std::vector<std::int32_t>& outer) {
  std::vector<const ast::Let*> spine{&k};
  const ast::Expr* rest = k.body.get();
  while (const auto* l = std::get_if<ast::Let>(&rest->kind)) {
    const bool again = std::any_of(spine.begin(), spine.end(), [&](const ast::Let* s) { return s->slot == l->slot; }) ||
                       std::find(outer.begin(), outer.end(), l->slot) != outer.end();
    // From a let the plain evaluator can run on, the rest runs there whole,
    // once per outcome of what it reads, rather than let by let here.
    if (again || plain(*rest)) break;
    spine.push_back(l);
    rest = l->body.get();
  }
  std::vector<std::int32_t> live = outer;  // the names env holds, in the order of its lists
  std::vector<Waiting> waiting;  // names bound to independent values, not yet in env
  // Moves the names for which pred holds out of `from`, in order.
  const auto take = [](std::vector<Waiting>& from, auto pred) {
    const auto stay = std::stable_partition(from.begin(), from.end(), [&](const Waiting& w) { return !pred(w); });
    std::vector<Waiting> out(std::make_move_iterator(stay), std::make_move_iterator(from.end()));
    from.erase(stay, from.end());
    return out;
  };
  std::vector<Value> saved;
  saved.reserve(spine.size());
  for (const ast::Let* l : spine) saved.push_back(slot(l->slot));
  const std::uint64_t saved_sharing = sharing_;
  auto enter = [&](const Value& names) { enter_names(live, names); };
  // Inside a spine of this frame that has several values, an expression may
  // meet the same values again (`let x = d6 in if x > 3 then (let y = d6 in
  // g(y)) else 0` computes g(y) once per y): remember what it gave.
  const bool inside = sharing_ == frame_;
  auto reads = [&](const std::vector<std::int32_t>& r, std::int32_t s) { return std::binary_search(r.begin(), r.end(), s); };
  auto reads_any = [&](const ast::Expr& x, const std::vector<std::int32_t>& names) {
    const auto& r = demands_.free_slots(x);
    return std::any_of(names.begin(), names.end(), [&](std::int32_t s) { return reads(r, s); });
  };
  auto reads_all = [&](const ast::Expr& x, const std::vector<std::int32_t>& names) {
    const auto& r = demands_.free_slots(x);
    return std::all_of(names.begin(), names.end(), [&](std::int32_t s) { return reads(r, s); });
  };
  auto finish = [&](Dist r) {
    r.steps += static_cast<std::int64_t>(spine.size()) - 1;  // the spine's inner lets, as eval counts each node
    // (A composition that throws is given up whole: nothing to restore then.)
    for (std::size_t i = 0; i < spine.size(); ++i) slot(spine[i]->slot) = std::move(saved[i]);
    sharing_ = saved_sharing;
    return r;
  };
  // Before the rest: the waiting names it reads once are spread, those it
  // reads more often join env, and the others are summed out.
  auto settle = [&](const ast::Expr& r) {
    std::vector<Waiting> spread;
    for (Waiting& w : waiting) {
      if (!reads(demands_.free_slots(r), w.slot)) {
        env.steps += w.dist.steps;
        env.dice += w.dist.dice;
      } else if (read_once(r, w.slot)) {
        spread.push_back(std::move(w));
      } else {
        sharing_ = frame_;
        env = product(budget_, env, w.dist, [](const Value& names, const Value& x) {
          std::vector<Value> items = *names.as_list();
          items.push_back(x);
          return make_list(std::move(items));
        });
        live.push_back(w.slot);
      }
    }
    waiting.clear();
    return spread;
  };
  // `f` with each spread name's slot holding a marker of its own, which node(Name) knows.
  auto spreading = [&](const std::vector<Waiting>& spread, auto f) -> Dist {
    const std::size_t mark = spread_.size();
    std::vector<Value> saved_slots;
    for (const Waiting& w : spread) {
      Value marker(fmt::format("\x01spread {}", ++spreads_));
      saved_slots.push_back(std::move(slot(w.slot)));
      slot(w.slot) = marker;
      spread_.push_back({base_ + static_cast<std::size_t>(w.slot), std::move(marker), &w.dist});
    }
    Dist v = f();
    spread_.resize(mark);
    for (std::size_t i = 0; i < spread.size(); ++i) slot(spread[i].slot) = std::move(saved_slots[i]);
    return v;
  };
  // Where each name of the next env comes from.
  struct Source {
    enum Kind : std::uint8_t { Live, New, Slot } kind;
    std::size_t live = 0;   // Live: its index in live
    std::int32_t slot = 0;  // Slot: a waiting name, read from its slot
  };
  for (const ast::Let* l : spine) {
    const bool last = l == spine.back();
    const Demand value_demand = demands_.slot(l->slot, *l->body, d);
    // The waiting names this value reads: it runs over their values. Of those,
    // the ones it reads once and nothing after it reads are spread: the value
    // is computed once with each as its whole distribution (which a pool
    // operation may count face by face, PoolStep::on_rolls).
    std::vector<Waiting> with =
        take(waiting, [&](const Waiting& w) { return reads(demands_.free_slots(*l->value), w.slot); });
    const std::vector<Waiting> spread = take(with, [&](const Waiting& w) {
      return !reads(demands_.free_slots(*l->body), w.slot) && read_once(*l->value, w.slot);
    });
    std::vector<std::int32_t> next;
    std::vector<Source> from;
    for (const std::int32_t s : demands_.free_slots(*l->body)) {
      if (s == l->slot) {
        next.push_back(s);
        from.push_back({Source::New});
      } else if (auto it = std::find(live.begin(), live.end(), s); it != live.end()) {
        next.push_back(s);
        from.push_back({Source::Live, static_cast<std::size_t>(it - live.begin())});
      } else if (std::any_of(with.begin(), with.end(), [&](const Waiting& w) { return w.slot == s; })) {
        next.push_back(s);
        from.push_back({Source::Slot, 0, s});
      }
    }
    if (inside || env.entries.size() > 1 || !with.empty() || !spread.empty()) sharing_ = frame_;
    const Value* fixed = nullptr;  // the value, when it reads none of the spine's names
    std::optional<Dist> once;
    // (Names with one value so far, a mechanic's parameters, do not tie it to them.)
    if (with.empty() && spread.empty() && !env.entries.empty() && (env.is_point() || !reads_any(*l->value, live))) {
      if (env.is_point()) enter(env.entries[0].first);
      const auto r = reach(*l, waiting, env.is_point() ? std::vector<std::int32_t>{} : live);
      if (r) once = summarised(*l, value_demand, *r);
      else once = inside ? memo_eval(*l->value, value_demand) : eval(*l->value, value_demand);
      if (once->is_point()) fixed = &once->entries[0].first;
    }
    const auto kept_live = static_cast<std::size_t>(
        std::count_if(from.begin(), from.end(), [](const Source& f) { return f.kind == Source::Live; }));
    auto extend = [&](const std::vector<Value>& values, const Value* x) {
      std::vector<Value> kept;
      kept.reserve(next.size());
      for (const Source& f : from) {
        if (f.kind == Source::Live) kept.push_back(values[f.live]);
        else if (f.kind == Source::New) kept.push_back(*x);
        else kept.push_back(slot(f.slot));
      }
      return make_list(std::move(kept));
    };
    if (once && !fixed && once->fail.none()) {
      // It waits; env drops the names that nothing reads any more.
      if (kept_live < live.size()) {
        std::erase_if(from, [](const Source& f) { return f.kind == Source::New; });
        std::erase(next, l->slot);
        env = map(budget_, env, [&](const Value& names) { return extend(*names.as_list(), nullptr); });
        live = std::move(next);
      }
      waiting.push_back({l->slot, std::move(*once)});
      continue;
    }
    // (With a spread name the value never meets the same slots twice.)
    const bool memo = (inside || !with.empty() || !reads_all(*l->value, live)) && spread.empty();
    auto rest_value = [&] { return inside ? memo_eval(*rest, d) : eval(*rest, d); };
    auto value = [&]() -> Dist {
      if (once) return *once;
      const auto r = reach(*l, waiting);
      if (r && spread.empty()) return summarised(*l, value_demand, *r);
      if (spread.empty()) return memo ? memo_eval(*l->value, value_demand) : eval(*l->value, value_demand);
      return spreading(spread, [&] { return r ? summarised(*l, value_demand, *r) : eval(*l->value, value_demand); });
    };
    if (!once && with.empty() && spread.empty()) merge_failing_names(*l, env, live, waiting);
    if (last && waiting.empty() && with.empty() && spread.empty() && kept_live == live.size()) {
      // The last let sums nothing out: the rest follows each of its values
      // straight away, without a list of names for each.
      Dist r = bind(budget_, env, [&](const Value& names) {
        enter(names);
        const Dist v = value();
        if (v.entries.size() > 1) sharing_ = frame_;
        return bind(budget_, v, [&](const Value& x) { return with_slot(l->slot, x, rest_value); });
      });
      return finish(std::move(r));
    }
    if (fixed) {
      // One value for every one of theirs: no weights change.
      env = map(budget_, env, [&](const Value& names) { return extend(*names.as_list(), fixed); });
      env.steps += once->steps;
      env.dice += once->dice;
    } else {
      env = bind(budget_, env, [&](const Value& names) {
        enter(names);
        const auto& values = *names.as_list();
        // Over the values of each waiting name it reads, then its own.
        auto over = [&](auto&& self, std::size_t i) -> Dist {
          if (i == with.size()) {
            const Dist v = value();
            Dist lists = map(budget_, v, [&](const Value& x) { return extend(values, &x); });
            // v goes now: what it held, the lists hold.
            lists.held += v.held;
            return lists;
          }
          return bind(budget_, with[i].dist, [&](const Value& x) {
            return with_slot(with[i].slot, x, [&] { return self(self, i + 1); });
          });
        };
        return over(over, 0);
      });
    }
    live = std::move(next);
  }
  const std::vector<Waiting> spread = settle(*rest);
  if (inside || env.entries.size() > 1 || !spread.empty()) sharing_ = frame_;
  if (spread.empty()) return finish(spine_rest(*rest, d, env, live, inside));
  return finish(bind(budget_, env, [&](const Value& names) {
    enter(names);
    return spreading(spread, [&] { return eval(*rest, d); });
  }));
}

std::optional<std::int64_t> Composer::reach(const ast::Let& l, const std::vector<Waiting>& waiting,
                                            const std::vector<std::int32_t>& unset) {
  const std::optional<SummaryUse>& use = summary_use(l);
  if (!use) return std::nullopt;
  std::int64_t r = 0;
  for (const std::int64_t v : use->literals) r = std::max(r, v);
  for (const std::int32_t s : use->slots) {
    // A name whose slot does not hold its value now: a waiting one, or one of several values.
    if (std::any_of(waiting.begin(), waiting.end(), [&](const Waiting& w) { return w.slot == s; }) ||
        std::find(unset.begin(), unset.end(), s) != unset.end()) {
      return std::nullopt;
    }
    const std::int64_t* v = slot(s).as_int();
    if (!v) return std::nullopt;
    r = std::max(r, *v);
  }
  return r;
}

// `let pool = kept explode 6 in …`, where nothing after reads `kept` and what follows reads `pool`
// only through its summaries: the values of `kept` alike in their sixes and in the summary of
// their other dice give the same summaries (summary_of_failing), so env merges them before the
// value runs once for each. (Twelve d6 whose sixes explode, read up to 10: 6,188 pools of kept
// dice, 1,712 once merged.)
void Composer::merge_failing_names(const ast::Let& l, Dist& env, const std::vector<std::int32_t>& live,
                                   const std::vector<Waiting>& waiting) {
  const auto* op = std::get_if<ast::PoolOp>(&l.value->kind);
  if (!op || env.entries.size() < 2) return;
  const auto* base = std::get_if<ast::Name>(&op->pool->kind);
  if (!base || base->slot < 0) return;
  const auto at = std::find(live.begin(), live.end(), base->slot);
  const auto& after = demands_.free_slots(*l.body);
  if (at == live.end() || std::binary_search(after.begin(), after.end(), base->slot)) return;
  // Its parameters read none of the names env holds or that wait: one step for every value.
  bool fixed = true;
  ast::for_each_operand(*op, [&](const ast::Expr* e, ast::Operand) {
    if (!e || !fixed) return;
    const auto& r = demands_.free_slots(*e);
    const auto in = [&](std::int32_t s) { return std::binary_search(r.begin(), r.end(), s); };
    fixed = std::none_of(live.begin(), live.end(), in) &&
            std::none_of(waiting.begin(), waiting.end(), [&](const Waiting& w) { return in(w.slot); });
  });
  if (!fixed) return;
  const std::optional<std::int64_t> r = reach(l, waiting, live);
  if (!r) return;
  std::vector<Dist> params;
  op_params(*op, params);
  const std::optional<PoolStep> s = only_passing_step(*op, params.data(), params.size());
  if (!s) return;
  merge_by_failing(env, *s, *r, static_cast<std::size_t>(at - live.begin()));
}

Dist Composer::summarised(const ast::Let& l, Demand d, std::int64_t reach) {
  // Not kept in memo_: its key does not hold the reach.
  struct Restore {
    Summarising& s;
    ~Restore() { s = {}; }
  } restore{summarising_};
  summarising_ = {&l, reach};
  return eval(*l.value, d);
}

// An `if` whose branches are spines (`if len(kept) == 0 then … else let pool
// = kept explode 6 in …`) would otherwise run each branch once per outcome of
// env. Split instead, each branch continues the spine from the outcomes that
// reach it, so a let in it sums out the names it no longer reads, merged
// across all of them.
Dist Composer::spine_rest(const ast::Expr& rest, Demand d, const Dist& env, const std::vector<std::int32_t>& live,
                          bool inside) {
  auto enter = [&](const Value& names) { enter_names(live, names); };
  auto each = [&](const ast::Expr& x, const Dist& outcomes) {
    return bind(budget_, outcomes, [&](const Value& names) {
      enter(names);
      return inside ? memo_eval(x, d) : eval(x, d);
    });
  };
  if (env.entries.size() < 2) return each(rest, env);
  const Nested nested(depth_);
  if (const auto* l = std::get_if<ast::Let>(&rest.kind)) {
    // (A let the plain evaluator runs, runs there whole, once per outcome.)
    if (std::find(live.begin(), live.end(), l->slot) != live.end() || plain(rest)) return each(rest, env);
    return checked(let_spine(*l, d, env, live), d);
  }
  const auto* i = std::get_if<ast::If>(&rest.kind);
  if (!i) return each(rest, env);
  // The condition for each outcome of env, and with it the outcome.
  const Dist tagged = bind(budget_, env, [&](const Value& names) {
    enter(names);
    const Dist c = inside ? memo_eval(*i->cond, Demand::Counted) : eval(*i->cond, Demand::Counted);
    return map(budget_, c, [&](const Value& v) { return make_list({Value(to_bool(v)), names}); });
  });
  // The outcomes that take each branch, as a distribution of their own (its
  // steps and dice are counted in `tagged`'s).
  Dist part[2];
  for (Dist& p : part) p.total = Weight(0);
  for (const auto& [v, w] : tagged.entries) {
    const auto& pair = *v.as_list();
    Dist& p = part[*pair[0].as_bool() ? 1 : 0];
    p.entries.emplace_back(pair[1], w);
    p.total += w;
  }
  Dist branch;
  branch.total = tagged.total;
  branch.fail = tagged.fail;
  branch.steps = tagged.steps;
  branch.dice = tagged.dice;
  for (const bool b : {true, false}) {
    if (!part[b].entries.empty()) branch.entries.emplace_back(Value(b), part[b].total);
  }
  return checked(bind(budget_, branch,
                      [&](const Value& b) {
                        const bool yes = *b.as_bool();
                        return spine_rest(yes ? *i->then_ : *i->else_, d, part[yes], live, inside);
                      }),
                 d);
}

}  // namespace alea::compose
