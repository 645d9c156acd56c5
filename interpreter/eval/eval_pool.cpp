// interpreter/eval/eval_pool.cpp — the operations written after a roll: explode,
// reroll, keep/drop, count, under, cancel, sort, unique, clamp.
//
// Each takes a pool and returns a new one (or, for count, a number), marking
// in the trace what happened to every die and which operation did it. Extra
// dice (explosions, rerolls) are drawn a round at a time: all dice that explode
// together in one round are one pool drawn from the DiceSource.
#include <algorithm>

#include <fmt/format.h>

#include "dsl/ast_walk.hpp"
#include "interpreter/eval/best_fit.hpp"
#include "interpreter/eval/eval_context.hpp"

namespace alea::detail {

std::string_view pool_op_name(const ast::PoolOpKind& op) {
  return std::visit(
      [](const auto& k) -> std::string_view {
        using T = std::decay_t<decltype(k)>;
        if constexpr (std::is_same_v<T, ast::Explode>) {
          return k.mode == ast::ExplodeMode::Compound    ? "compound"
                 : k.mode == ast::ExplodeMode::Penetrate ? "penetrate"
                                                         : "explode";
        } else if constexpr (std::is_same_v<T, ast::Reroll>) {
          return "reroll";
        } else if constexpr (std::is_same_v<T, ast::Keep>) {
          return k.drop ? "drop" : "keep";
        } else if constexpr (std::is_same_v<T, ast::Count>) {
          return "count";
        } else if constexpr (std::is_same_v<T, ast::Under>) {
          return "under";
        } else if constexpr (std::is_same_v<T, ast::Cancel>) {
          return "cancel";
        } else if constexpr (std::is_same_v<T, ast::Sort>) {
          return "sort";
        } else if constexpr (std::is_same_v<T, ast::Unique>) {
          return "unique";
        } else if constexpr (std::is_same_v<T, ast::Clamp>) {
          return "clamp";
        } else {
          static_assert(ast::dependent_false<T>, "pool_op_name: a pool operation left out");
        }
      },
      op);
}

namespace {

using kernel::DieTest;

std::string text(const DieTest& t) {
  return t.fixed ? fmt::format("{}{}", ast::spelling(t.op), t.value)
                 : std::string(t.highest ? "its highest face" : "its lowest face");
}

struct Active {
  std::size_t pos;        // position in the output pool
  std::uint32_t last_id;  // the die whose face decides whether the chain goes on
};

class PoolOps {
 public:
  PoolOps(Evaluator& ev, const ast::PoolOp& op) : ev_(ev), op_(op), span_(op.op_span) {}

  DieTest test(const std::optional<ast::Cond>& opt, bool highest, const ast::Cond* given = nullptr) {
    DieTest t;
    t.highest = highest;
    const ast::Cond* c = given ? given : opt ? &*opt : nullptr;
    if (c) {
      t.fixed = true;
      t.op = c->op;
      t.value = ev_.eval_int(*c->value, "a condition's value");
    }
    return t;
  }

  const DieKind& kind_of(std::uint32_t id) { return ev_.trace().kinds[ev_.trace().dice[id].kind]; }

  // The kinds of dice in a pool, each once.
  std::vector<std::uint32_t> kinds_in(const PoolData& pool) {
    std::vector<std::uint32_t> kinds;
    for (const auto& d : pool.dice) {
      const std::uint32_t k = rec(d.id).kind;
      if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
    }
    return kinds;
  }
  DieRecord& rec(std::uint32_t id) { return ev_.trace().dice[id]; }

  // Draws one die for each entry, grouped by kind so each kind is one pool.
  std::vector<std::int64_t> draw_for(const std::vector<Active>& active) {
    std::vector<std::int64_t> out(active.size());
    std::vector<bool> done(active.size(), false);
    for (std::size_t i = 0; i < active.size(); ++i) {
      if (done[i]) continue;
      const std::uint32_t kind = rec(active[i].last_id).kind;
      std::vector<std::size_t> same;
      for (std::size_t j = i; j < active.size(); ++j) {
        if (!done[j] && rec(active[j].last_id).kind == kind) same.push_back(j);
      }
      const auto faces = ev_.draw(ev_.trace().kinds[kind], static_cast<std::int64_t>(same.size()), span_);
      for (std::size_t j = 0; j < same.size(); ++j) {
        out[same[j]] = faces[j];
        done[same[j]] = true;
      }
    }
    return out;
  }

  // Rerolls the dice at `which` (one pool per kind): each old die is marked
  // rerolled and its new die takes its place. Returns the new dice.
  std::vector<Active> reroll_all(PoolData& out, const std::vector<Active>& which) {
    const auto faces = draw_for(which);
    std::vector<Active> fresh;
    for (std::size_t i = 0; i < which.size(); ++i) {
      const Active a = which[i];
      rec(a.last_id).fate = DieFate::Rerolled;
      rec(a.last_id).fate_by = span_;
      const std::uint32_t id = ev_.add_die(rec(a.last_id).kind, faces[i], DieOrigin::Rerolled,
                                           static_cast<std::int32_t>(a.last_id), rec(a.last_id).group);
      rec(id).fate_by = span_;
      out.dice[a.pos] = {faces[i], id};
      fresh.push_back({a.pos, id});
    }
    return fresh;
  }

  Value explode(const ast::Explode& x, PoolData out) {
    const DieTest t = test(x.cond, true);
    // `limit none` is the same as no limit clause.
    const Value limit_value = x.limit ? ev_.eval(*x.limit) : Value(NoneValue{});
    const bool explicit_limit = !limit_value.is_none();
    const std::int64_t cap = explicit_limit ? ev_.to_int(limit_value, x.limit->span, "the explosion limit")
                                            : ev_.limits().max_explosion_depth;
    if (cap < 0) fail(DiagCode::InvalidArgument, x.limit->span, fmt::format("an explosion limit cannot be negative, got {}", cap));
    std::vector<Active> active;
    for (std::size_t i = 0; i < out.dice.size(); ++i) {
      const auto& d = out.dice[i];
      if (t(kind_of(d.id), d.face)) active.push_back({i, d.id});  // the face it shows now
    }
    const DieOrigin origin = x.mode == ast::ExplodeMode::Compound    ? DieOrigin::Compounded
                             : x.mode == ast::ExplodeMode::Penetrate ? DieOrigin::Penetrated
                                                                     : DieOrigin::Exploded;
    if (!explicit_limit) {
      // Decided by the kinds of dice, not by the faces they happen to show.
      for (const std::uint32_t kind : kinds_in(out)) {
        if (t.always(ev_.trace().kinds[kind])) {
          fail(DiagCode::NeverStops, span_,
               fmt::format("every face of a {} explodes on {}, so this would never stop; write a limit, "
                           "as in '{} limit 3'",
                           ev_.trace().kinds[kind].name(), text(t), pool_op_name(op_.op)));
        }
      }
    }
    for (std::int64_t round = 0; !active.empty(); ++round) {
      if (round == cap) {
        if (explicit_limit) break;
        fail(DiagCode::ExplosionLimitExceeded, span_,
             fmt::format("a die exploded {} times in a row (max_explosion_depth); write 'limit N' to cap "
                         "explosions on purpose",
                         cap));
      }
      const auto faces = draw_for(active);
      std::vector<Active> next;
      for (std::size_t i = 0; i < active.size(); ++i) {
        const Active a = active[i];
        const std::int64_t f = faces[i];
        rec(a.last_id).marks |= MarkExploded;
        const std::uint32_t id = ev_.add_die(rec(a.last_id).kind, f, origin, static_cast<std::int32_t>(a.last_id),
                                             rec(a.last_id).group);
        rec(id).fate_by = span_;
        if (x.mode == ast::ExplodeMode::Compound) {
          rec(id).fate = DieFate::Added;
          PoolDie& parent = out.dice[a.pos];
          if (__builtin_add_overflow(parent.face, f, &parent.face)) {
            fail(DiagCode::IntegerOverflow, span_, "integer overflow while compounding");
          }
          rec(parent.id).face = parent.face;
          if (t(kind_of(id), f)) next.push_back({a.pos, id});
        } else {
          std::int64_t face = f;
          if (x.mode == ast::ExplodeMode::Penetrate && __builtin_sub_overflow(f, 1, &face)) {
            fail(DiagCode::IntegerOverflow, span_, "integer overflow while penetrating");
          }
          rec(id).face = face;
          out.dice.push_back({face, id});
          if (t(kind_of(id), f)) next.push_back({out.dice.size() - 1, id});
        }
      }
      active = std::move(next);
    }
    return finish(std::move(out));
  }

  Value reroll(const ast::Reroll& r, PoolData out) {
    const DieTest t = test(r.cond, false);
    std::vector<Active> active;
    for (std::size_t i = 0; i < out.dice.size(); ++i) {
      if (t(kind_of(out.dice[i].id), out.dice[i].face)) active.push_back({i, out.dice[i].id});
    }
    const std::int64_t cap = r.once ? 1 : ev_.limits().max_rerolls;
    if (!r.once) {
      for (const std::uint32_t kind : kinds_in(out)) {
        if (t.always(ev_.trace().kinds[kind])) {
          fail(DiagCode::NeverStops, span_,
               fmt::format("every face of a {} is rerolled on {}, so this would never stop; use 'reroll … once'",
                           ev_.trace().kinds[kind].name(), text(t)));
        }
      }
    }
    for (std::int64_t round = 0; !active.empty(); ++round) {
      if (round == cap) {
        if (r.once) break;
        fail(DiagCode::RerollLimitExceeded, span_,
             fmt::format("a die was rerolled {} times in a row (max_rerolls)", cap));
      }
      std::vector<Active> next;
      for (const Active& a : reroll_all(out, active)) {
        if (t(kind_of(a.last_id), out.dice[a.pos].face)) next.push_back(a);
      }
      active = std::move(next);
    }
    return finish(std::move(out));
  }

  Value keep(const ast::Keep& k, const PoolData& out) {
    std::vector<bool> selected(out.dice.size(), false);
    if (k.which == ast::KeepWhich::Matching) {
      const DieTest t = test(k.cond, true);
      for (std::size_t i = 0; i < out.dice.size(); ++i) selected[i] = t(kind_of(out.dice[i].id), out.dice[i].face);
    } else {
      const std::int64_t n = k.count ? ev_.eval_int(*k.count, "the number of dice to keep or drop") : 1;
      if (n < 0) fail(DiagCode::InvalidArgument, k.count->span, fmt::format("cannot keep or drop {} dice", n));
      std::vector<std::size_t> order(out.dice.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      const bool highest = k.which == ast::KeepWhich::Highest;
      // Equal faces keep their order (as a stable sort would), without its buffer.
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const std::int64_t fa = out.dice[a].face, fb = out.dice[b].face;
        if (fa != fb) return highest ? fa > fb : fa < fb;
        return a < b;
      });
      for (std::size_t i = 0; i < order.size() && static_cast<std::int64_t>(i) < n; ++i) selected[order[i]] = true;
    }
    PoolData result;
    result.successes = out.successes;
    result.groups = out.groups;
    result.dice.reserve(out.dice.size());
    for (std::size_t i = 0; i < out.dice.size(); ++i) {
      if (selected[i] != k.drop) {
        result.dice.push_back(out.dice[i]);
      } else {
        rec(out.dice[i].id).fate = DieFate::Dropped;
        rec(out.dice[i].id).fate_by = span_;
      }
    }
    return finish(std::move(result));
  }

  Value count(const ast::Count& c, const PoolData& pool) {
    const DieTest success = test(std::optional<ast::Cond>(), true, &c.success);
    const std::optional<DieTest> failure = c.fail ? std::optional<DieTest>(test(c.fail, true)) : std::nullopt;
    const std::optional<DieTest> twice = c.twice ? std::optional<DieTest>(test(c.twice, true)) : std::nullopt;
    std::int64_t n = 0;
    for (const auto& d : pool.dice) {
      rec(d.id).marks &= static_cast<std::uint16_t>(~(MarkSuccess | MarkFailure | MarkDouble));  // this count decides
      const DieKind& k = kind_of(d.id);
      if (success(k, d.face)) {
        ++n;
        rec(d.id).marks |= MarkSuccess;
        if (twice && (*twice)(k, d.face)) {
          ++n;
          rec(d.id).marks |= MarkDouble;
        }
      }
      if (failure && (*failure)(k, d.face)) {
        --n;
        rec(d.id).marks |= MarkFailure;
      }
    }
    return n;
  }

  // A condition whose value may be none, meaning no condition (`except none`).
  std::optional<DieTest> optional_test(const std::optional<ast::Cond>& c) {
    if (!c) return std::nullopt;
    const Value v = ev_.eval(*c->value);
    if (v.is_none()) return std::nullopt;
    DieTest t;
    t.fixed = true;
    t.op = c->op;
    t.value = ev_.to_int(v, c->value->span, "a condition's value");
    return t;
  }

  Value under(const ast::Under& u, const PoolData& pool) {
    const std::int64_t target = ev_.eval_int(*u.target, "the target of 'under'");
    const std::optional<DieTest> except = optional_test(u.except);
    PoolData result;
    result.successes = true;
    result.groups = pool.groups;
    for (const auto& d : pool.dice) {
      if (d.face <= target && !(except && (*except)(kind_of(d.id), d.face))) {
        rec(d.id).marks |= MarkSuccess;
        result.dice.push_back(d);
      } else {
        rec(d.id).fate = DieFate::Failed;
        rec(d.id).fate_by = span_;
      }
    }
    return finish(std::move(result));
  }

  Value cancel(const ast::Cancel& c, const PoolData& pool) {
    if (c.op == ast::CmpOp::Ne) {
      fail(DiagCode::InvalidArgument, span_, "cancel needs one of <=, <, =, >=, > (a die cancels the closest die so related)");
    }
    const Value by_value = ev_.eval(*c.by);
    const PoolData* by = by_value.as_pool();
    if (!by) fail(DiagCode::TypeMismatch, c.by->span, fmt::format("'cancel' needs a pool of dice to cancel with, got {}", describe(by_value)));
    std::vector<PoolDie> cancellers = by->dice;
    std::stable_sort(cancellers.begin(), cancellers.end(), [](const PoolDie& a, const PoolDie& b) { return a.face > b.face; });
    std::vector<bool> gone(pool.dice.size(), false);
    std::vector<PoolDie> leftover;  // cancellers that found nothing alone, highest first
    const bool take_highest = c.op == ast::CmpOp::Le || c.op == ast::CmpOp::Lt || c.op == ast::CmpOp::Eq;
    for (const PoolDie& r : cancellers) {
      std::optional<std::size_t> best;
      for (std::size_t i = 0; i < pool.dice.size(); ++i) {
        if (gone[i] || !kernel::compare(c.op, pool.dice[i].face, r.face)) continue;
        if (!best || (take_highest ? pool.dice[i].face > pool.dice[*best].face : pool.dice[i].face < pool.dice[*best].face)) {
          best = i;
        }
      }
      if (!best) {
        leftover.push_back(r);
        continue;
      }
      gone[*best] = true;
      DieRecord& victim = rec(pool.dice[*best].id);
      victim.fate = DieFate::Cancelled;
      victim.fate_by = span_;
      victim.partner = static_cast<std::int32_t>(r.id);
      rec(r.id).marks |= MarkCancelling;
      rec(r.id).partner = static_cast<std::int32_t>(pool.dice[*best].id);
    }
    if (c.combine) combine(c, pool, gone, leftover);
    PoolData result;
    result.successes = pool.successes;
    result.groups = pool.groups;
    for (std::size_t i = 0; i < pool.dice.size(); ++i) {
      if (!gone[i]) result.dice.push_back(pool.dice[i]);
    }
    return finish(std::move(result));
  }

  // The second pass of `cancel … combine`: leftover cancellers join forces.
  // While some remaining die (not matching `except`) is within reach of their
  // sum, the highest such die is the target; the cancellers spent are those
  // with the smallest sum that reaches it (then the fewest, then the largest).
  void combine(const ast::Cancel& c, const PoolData& pool, std::vector<bool>& gone,
               std::vector<PoolDie> leftover) {
    if (c.op != ast::CmpOp::Le && c.op != ast::CmpOp::Lt) {
      fail(DiagCode::InvalidArgument, span_, "'combine' works with <= or < (cancellers add up to reach a die)");
    }
    const std::optional<DieTest> except = optional_test(c.except);
    while (!leftover.empty()) {
      std::int64_t total = 0;
      for (const auto& r : leftover) total += r.face;  // faces are at most 10^6, dice at most 10^4
      std::optional<std::size_t> target;
      for (std::size_t i = 0; i < pool.dice.size(); ++i) {
        const std::int64_t f = pool.dice[i].face;
        if (gone[i] || (except && (*except)(kind_of(pool.dice[i].id), f))) continue;
        if (!kernel::compare(c.op, f, total)) continue;  // `<=` or `<`
        if (!target || f > pool.dice[*target].face) target = i;
      }
      if (!target) return;
      const std::int64_t need = pool.dice[*target].face + (c.op == ast::CmpOp::Lt ? 1 : 0);
      // Every node the search visits counts as a step.
      std::int64_t visited = 0;
      const std::vector<std::size_t> used = best_fit(leftover, need, [&] {
        if (++visited % 1024 == 0) ev_.charge(1024, span_);
      });
      gone[*target] = true;
      const std::uint32_t victim_id = pool.dice[*target].id;
      DieRecord& victim = rec(victim_id);
      victim.fate = DieFate::Cancelled;
      victim.fate_by = span_;
      victim.partner = static_cast<std::int32_t>(leftover[used.front()].id);
      for (std::size_t u : used) {
        rec(leftover[u].id).marks |= MarkCancelling;
        rec(leftover[u].id).partner = static_cast<std::int32_t>(victim_id);
      }
      for (auto it = used.rbegin(); it != used.rend(); ++it) {
        leftover.erase(leftover.begin() + static_cast<std::ptrdiff_t>(*it));
      }
    }
  }

  Value sort(const ast::Sort& s, PoolData out) {
    std::stable_sort(out.dice.begin(), out.dice.end(), [&](const PoolDie& a, const PoolDie& b) {
      return s.descending ? a.face > b.face : a.face < b.face;
    });
    return finish(std::move(out));
  }

  Value unique(PoolData out) {
    for (std::int64_t round = 0;; ++round) {
      std::vector<Active> dupes;
      for (std::size_t i = 0; i < out.dice.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
          if (out.dice[j].face == out.dice[i].face) {
            dupes.push_back({i, out.dice[i].id});
            break;
          }
        }
      }
      if (dupes.empty()) break;
      // Impossible when one kind has more dice than different faces; other
      // impossible mixes end at the reroll limit below.
      for (const std::uint32_t kind : kinds_in(out)) {
        const DieKind& k = ev_.trace().kinds[kind];
        const auto n = static_cast<std::int64_t>(std::count_if(
            out.dice.begin(), out.dice.end(), [&](const PoolDie& d) { return rec(d.id).kind == kind; }));
        if (n > k.distinct_faces()) {
          fail(DiagCode::NeverStops, span_,
               fmt::format("{} dice cannot all differ: a {} has only {} different faces", n, k.name(),
                           k.distinct_faces()));
        }
      }
      if (round == ev_.limits().max_rerolls) {
        fail(DiagCode::RerollLimitExceeded, span_,
             fmt::format("duplicates were rerolled {} times in a row (max_rerolls)", round));
      }
      reroll_all(out, dupes);
    }
    return finish(std::move(out));
  }

  Value clamp(const ast::Clamp& c, PoolData out) {
    const std::optional<std::int64_t> low = c.low ? std::optional(ev_.eval_int(*c.low, "the clamp minimum")) : std::nullopt;
    const std::optional<std::int64_t> high = c.high ? std::optional(ev_.eval_int(*c.high, "the clamp maximum")) : std::nullopt;
    if (low && high && *low > *high) {
      fail(DiagCode::InvalidArgument, span_, fmt::format("clamp's minimum {} is above its maximum {}", *low, *high));
    }
    for (auto& d : out.dice) {
      std::int64_t f = d.face;
      if (low && f < *low) f = *low;
      if (high && f > *high) f = *high;
      if (f != d.face) {
        d.face = f;
        rec(d.id).face = f;
        rec(d.id).marks |= MarkClamped;
        rec(d.id).fate_by = span_;
      }
    }
    return finish(std::move(out));
  }

 private:
  Evaluator& ev_;
  const ast::PoolOp& op_;
  Span span_;

  Value finish(PoolData p) { return ev_.make_pool(std::move(p), span_); }
};

}  // namespace

Value Evaluator::apply_pool_op(const ast::PoolOp& op, const PoolData& pool) {
  PoolOps ops(*this, op);
  return std::visit(
      [&](const auto& k) -> Value {
        using T = std::decay_t<decltype(k)>;
        if constexpr (std::is_same_v<T, ast::Explode>) return ops.explode(k, pool);
        else if constexpr (std::is_same_v<T, ast::Reroll>) return ops.reroll(k, pool);
        else if constexpr (std::is_same_v<T, ast::Keep>) return ops.keep(k, pool);
        else if constexpr (std::is_same_v<T, ast::Count>) return ops.count(k, pool);
        else if constexpr (std::is_same_v<T, ast::Under>) return ops.under(k, pool);
        else if constexpr (std::is_same_v<T, ast::Cancel>) return ops.cancel(k, pool);
        else if constexpr (std::is_same_v<T, ast::Sort>) return ops.sort(k, pool);
        else if constexpr (std::is_same_v<T, ast::Unique>) return ops.unique(pool);
        else if constexpr (std::is_same_v<T, ast::Clamp>) return ops.clamp(k, pool);
        else static_assert(ast::dependent_false<T>, "Evaluator::apply_pool_op: a pool operation left out");
      },
      op.op);
}

}  // namespace alea::detail
