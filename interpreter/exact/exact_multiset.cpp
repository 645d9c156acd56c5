// interpreter/exact/exact_multiset.cpp — pool operations on multisets of dice, the
// same decisions as interpreter/ops/ makes on the dice in the order rolled.
#include "interpreter/exact/exact_multiset.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "interpreter/eval/best_fit.hpp"
#include "interpreter/ops/clamp.hpp"
#include "interpreter/ops/count.hpp"
#include "interpreter/ops/keep.hpp"
#include "interpreter/ops/under.hpp"

namespace alea::compose {

std::uint32_t PoolKinds::id_of(const DieKind& k) {
  for (std::size_t i = 0; i < kinds_.size(); ++i) {
    if (kinds_[i] == k) return tag | static_cast<std::uint32_t>(i);
  }
  kinds_.push_back(k);
  return tag | static_cast<std::uint32_t>(kinds_.size() - 1);
}

Value make_sorted_pool(std::vector<PoolDie> dice, bool successes) {
  std::sort(dice.begin(), dice.end(), [](const PoolDie& a, const PoolDie& b) {
    return a.face != b.face ? a.face < b.face : a.id < b.id;
  });
  auto p = std::make_shared<PoolData>();
  p->dice = std::move(dice);
  p->successes = successes;
  if (!pool_total(*p)) not_composable("a pool's total would overflow");
  return Value(PoolPtr(std::move(p)));
}

namespace {

// Distinct faces of a kind with how many sides show each.
std::vector<std::pair<std::int64_t, std::uint64_t>> faces_of(const DieKind& k) {
  std::map<std::int64_t, std::uint64_t> m;
  for (std::int64_t i = 0; i < k.face_count(); ++i) ++m[k.face(i)];
  return {m.begin(), m.end()};
}

void roll_rec(Budget& budget, Accumulator& acc,
              const std::vector<std::pair<std::int64_t, std::uint64_t>>& faces, std::size_t i,
              std::int64_t left, std::uint32_t id, std::vector<PoolDie>& dice, const Weight& w) {
  if (i + 1 == faces.size()) {
    const Weight x = w * Weight(faces[i].second).pow(static_cast<std::uint64_t>(left));
    const std::size_t mark = dice.size();
    for (std::int64_t c = 0; c < left; ++c) dice.push_back({faces[i].first, id});
    acc.add(make_sorted_pool(dice, false), x);
    dice.resize(mark);
    return;
  }
  Weight binom = 1;  // C(left, c)
  Weight pw = 1;     // m^c
  const std::size_t mark = dice.size();
  for (std::int64_t c = 0; c <= left; ++c) {
    if (c > 0) {
      binom = (binom * Weight(static_cast<std::uint64_t>(left - c + 1)))
                  .divexact(Weight(static_cast<std::uint64_t>(c)));
      pw *= Weight(faces[i].second);
      dice.push_back({faces[i].first, id});
    }
    roll_rec(budget, acc, faces, i + 1, left - c, id, dice, w * binom * pw);
  }
  dice.resize(mark);
}

const DieKind& need_kind(const PoolKinds& kinds, const PoolDie& d) {
  const DieKind* k = kinds.kind_of(d);
  if (!k) not_composable("an operation on a pool given by the host that needs its kind of die");
  return *k;
}

bool one_kind(const PoolData& p) {
  return std::all_of(p.dice.begin(), p.dice.end(),
                     [&](const PoolDie& d) { return d.id == p.dice.front().id; });
}

class StepOnPool {
 public:
  StepOnPool(Budget& budget, PoolKinds& kinds, const PoolStep& s, const PoolData& p)
      : budget_(budget), kinds_(kinds), s_(s), p_(p) {}

  Dist run() {
    if (s_.on_pools) return s_.on_pools(budget_, kinds_, s_, p_);
    switch (s_.kind) {
      case PoolStep::Sort:
        return Dist::point(make_sorted_pool(p_.dice, p_.successes));
      case PoolStep::Clamp: {
        std::vector<PoolDie> dice = p_.dice;
        for (auto& d : dice) d.face = ops::clamp::face(d.face, s_.low, s_.high);
        return Dist::point(make_sorted_pool(std::move(dice), p_.successes));
      }
      case PoolStep::KeepMatch:
        return filter([&](const PoolDie& d) { return ops::keep::stays(test(s_.test, d), s_.drop); }, p_.successes);
      case PoolStep::Under:
        return filter([&](const PoolDie& d) { return ops::under::succeeds(d.face, s_.target, s_.fail && test(*s_.fail, d)); },
                      true);
      case PoolStep::Count: {
        std::int64_t n = 0;
        for (const auto& d : p_.dice) {
          const bool success = test(s_.test, d);
          n += ops::count::score(success, success && s_.twice && test(*s_.twice, d), s_.fail && test(*s_.fail, d));
        }
        return Dist::point(Value(n));
      }
      case PoolStep::KeepEnd:
        return keep();
      case PoolStep::Explode:
        return explode();
      case PoolStep::Reroll:
        return reroll();
      case PoolStep::Cancel:
        return cancel();
      case PoolStep::Unique:
        not_composable("'unique' is not composed");
    }
    not_composable("an unknown pool operation");
  }

 private:
  Budget& budget_;
  PoolKinds& kinds_;
  const PoolStep& s_;
  const PoolData& p_;

  bool test(const DieTest& t, const PoolDie& d) const {
    if (t.fixed) return kernel::compare(t.op, d.face, t.value);
    return t(need_kind(kinds_, d), d.face);
  }

  template <class F>
  Dist filter(F keep, bool successes) {
    std::vector<PoolDie> dice;
    for (const auto& d : p_.dice) {
      if (keep(d)) dice.push_back(d);
    }
    return Dist::point(make_sorted_pool(std::move(dice), successes));
  }

  Dist keep() {
    if (!one_kind(p_)) not_composable("keeping from a pool of several kinds of dice");
    const auto n = static_cast<std::int64_t>(p_.dice.size());
    const std::int64_t k = std::min(s_.count, n);
    // Dice are ascending: the highest k are the last k.
    std::vector<PoolDie> selected, rest;
    for (std::int64_t i = 0; i < n; ++i) {
      const bool sel = s_.highest ? i >= n - k : i < k;
      (sel ? selected : rest).push_back(p_.dice[static_cast<std::size_t>(i)]);
    }
    return Dist::point(make_sorted_pool(s_.drop ? rest : selected, p_.successes));
  }

  // A die of `kind` drawn anew, as a one-die pool.
  Dist fresh(const DieKind& kind) {
    const std::uint32_t id = kinds_.id_of(kind);
    Dist d;
    d.total = Weight(static_cast<std::uint64_t>(kind.face_count()));
    for (const auto& [f, w] : faces_of(kind))
      d.entries.emplace_back(make_sorted_pool({{f, id}}, false), Weight(w));
    return d;
  }

  static Value join(const Value& a, const Value& b) {
    std::vector<PoolDie> dice = a.as_pool()->dice;
    dice.insert(dice.end(), b.as_pool()->dice.begin(), b.as_pool()->dice.end());
    return make_sorted_pool(std::move(dice), false);
  }

  // The pool with dice[i] replaced by what `chain(i)` gives for each die that matches.
  template <class Chain>
  Dist per_die(const DieTest& t, Chain chain) {
    std::vector<PoolDie> still;
    Dist result = Dist::point(make_sorted_pool({}, false));
    for (const auto& d : p_.dice) {
      if (!test(t, d)) {
        still.push_back(d);
        continue;
      }
      result = product(budget_, result, chain(d), join);
    }
    const Value base = make_sorted_pool(std::move(still), false);
    const bool successes = p_.successes;
    return map(budget_, result, [&](const Value& v) {
      std::vector<PoolDie> dice = v.as_pool()->dice;
      dice.insert(dice.end(), base.as_pool()->dice.begin(), base.as_pool()->dice.end());
      return make_sorted_pool(std::move(dice), successes);
    });
  }

  Dist explode() {
    const bool compound = s_.mode == ops::ExplodeMode::Compound;
    const std::int64_t shift = s_.mode == ops::ExplodeMode::Penetrate ? -1 : 0;
    if (!s_.explicit_limit) {
      for (const auto& d : p_.dice) {
        if (s_.test.always(need_kind(kinds_, d))) not_composable("an explosion that never stops");
      }
    }
    std::map<std::pair<std::uint32_t, std::int64_t>, Dist> extras;  // (kind, round)
    // The extra dice a chain adds from round r on (each a one-die pool, joined).
    auto chain_extras = [&](auto&& self, const DieKind& kind, std::int64_t r) -> Dist {
      const auto key = std::make_pair(kinds_.id_of(kind), r);
      if (auto it = extras.find(key); it != extras.end()) return it->second;
      Dist d;
      if (r == s_.cap) {
        if (s_.explicit_limit) {
          d = Dist::point(make_sorted_pool({}, false));
        } else {
          d.fail.cut = 1;
        }
      } else {
        const Dist die = fresh(kind);
        d = bind(budget_, die, [&](const Value& v) {
          const PoolDie& x = v.as_pool()->dice.front();
          std::int64_t face;
          if (__builtin_add_overflow(x.face, shift, &face))
            not_composable("a penetrating die would overflow");
          const Value shown = make_sorted_pool({{face, x.id}}, false);
          if (!s_.test(kind, x.face)) return Dist::point(shown);
          return map(budget_, self(self, kind, r + 1),
                     [&](const Value& rest) { return join(shown, rest); });
        });
      }
      extras.emplace(key, d);
      return d;
    };
    // A compounding die's final face from round r on, having reached `sum`.
    auto compounded = [&](auto&& self, const DieKind& kind, std::uint32_t id, std::int64_t r,
                          std::int64_t sum) -> Dist {
      if (r == s_.cap) {
        if (s_.explicit_limit) return Dist::point(make_sorted_pool({{sum, id}}, false));
        Dist d;
        d.fail.cut = 1;
        return d;
      }
      return bind(budget_, fresh(kind), [&](const Value& v) {
        const std::int64_t f = v.as_pool()->dice.front().face;
        std::int64_t next;
        if (__builtin_add_overflow(sum, f, &next))
          not_composable("a compounding die would overflow");
        if (!s_.test(kind, f)) return Dist::point(make_sorted_pool({{next, id}}, false));
        return self(self, kind, id, r + 1, next);
      });
    };
    return per_die(s_.test, [&](const PoolDie& d) {
      const DieKind& kind = need_kind(kinds_, d);
      if (compound) return compounded(compounded, kind, d.id, 0, d.face);
      return map(budget_, chain_extras(chain_extras, kind, 0),
                 [&](const Value& rest) { return join(make_sorted_pool({d}, false), rest); });
    });
  }

  Dist reroll() {
    if (!s_.once) {
      for (const auto& d : p_.dice) {
        if (s_.test.always(need_kind(kinds_, d))) not_composable("a reroll that never stops");
      }
    }
    std::map<std::pair<std::uint32_t, std::int64_t>, Dist> chains;
    auto again = [&](auto&& self, const DieKind& kind, std::int64_t r) -> Dist {
      const auto key = std::make_pair(kinds_.id_of(kind), r);
      if (auto it = chains.find(key); it != chains.end()) return it->second;
      Dist d;
      if (r == s_.cap) {
        d.fail.err = 1;
        d.fail.error = reroll_limit_error(s_.span, s_.cap);
      } else {
        d = bind(budget_, fresh(kind), [&](const Value& v) {
          const std::int64_t f = v.as_pool()->dice.front().face;
          if (s_.test(kind, f)) return self(self, kind, r + 1);
          return Dist::point(v);
        });
      }
      chains.emplace(key, d);
      return d;
    };
    return per_die(s_.test, [&](const PoolDie& d) {
      const DieKind& kind = need_kind(kinds_, d);
      return s_.once ? fresh(kind) : again(again, kind, 0);
    });
  }

  Dist cancel();
};

Dist StepOnPool::cancel() {
  const PoolData* by = s_.by.as_pool();
  if (s_.cancel_op == ast::CmpOp::Ne || !by) not_composable("a cancel that fails");
  if (!one_kind(p_)) not_composable("cancelling in a pool of several kinds of dice");
  std::vector<PoolDie> cancellers = by->dice;
  std::stable_sort(cancellers.begin(), cancellers.end(),
                   [](const PoolDie& a, const PoolDie& b) { return a.face > b.face; });
  const auto& dice = p_.dice;
  std::vector<bool> gone(dice.size(), false);
  std::vector<PoolDie> leftover;
  const ast::CmpOp op = s_.cancel_op;
  const bool take_highest = op == ast::CmpOp::Le || op == ast::CmpOp::Lt || op == ast::CmpOp::Eq;
  for (const PoolDie& r : cancellers) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < dice.size(); ++i) {
      if (gone[i] || !kernel::compare(op, dice[i].face, r.face)) continue;
      if (!best ||
          (take_highest ? dice[i].face > dice[*best].face : dice[i].face < dice[*best].face))
        best = i;
    }
    if (!best) {
      leftover.push_back(r);
      continue;
    }
    gone[*best] = true;
  }
  if (s_.combine) {
    if (op != ast::CmpOp::Le && op != ast::CmpOp::Lt) not_composable("a cancel that fails");
    while (!leftover.empty()) {
      std::int64_t total = 0;
      for (const auto& r : leftover) total += r.face;
      std::optional<std::size_t> target;
      for (std::size_t i = 0; i < dice.size(); ++i) {
        const std::int64_t f = dice[i].face;
        if (gone[i] || (s_.fail && test(*s_.fail, dice[i]))) continue;
        if (!kernel::compare(op, f, total)) continue;  // `<=` or `<`
        if (!target || f > dice[*target].face) target = i;
      }
      if (!target) break;
      const std::int64_t need = dice[*target].face + (op == ast::CmpOp::Lt ? 1 : 0);
      // The evaluator counts these visits as steps; far fewer than its limit are allowed here.
      std::int64_t visited = 0;
      const std::vector<std::size_t> used = best_fit(leftover, need, [&] {
        if (++visited > 65536) not_composable("a long search for cancelling dice");
      });
      gone[*target] = true;
      for (auto it = used.rbegin(); it != used.rend(); ++it) {
        leftover.erase(leftover.begin() + static_cast<std::ptrdiff_t>(*it));
      }
    }
  }
  std::vector<PoolDie> kept;
  for (std::size_t i = 0; i < dice.size(); ++i) {
    if (!gone[i]) kept.push_back(dice[i]);
  }
  return Dist::point(make_sorted_pool(std::move(kept), p_.successes));
}

}  // namespace

Dist roll_pools(Budget& budget, PoolKinds& kinds, const DieKind& kind, std::int64_t n) {
  const auto faces = faces_of(kind);
  // The listing recurses once per distinct face.
  if (faces.size() > 1000) not_composable("a die with too many faces to list its rolls");
  Accumulator acc(budget.branches, budget.max);
  std::vector<PoolDie> dice;
  dice.reserve(static_cast<std::size_t>(n));
  roll_rec(budget, acc, faces, 0, n, kinds.id_of(kind), dice, Weight(1));
  Dist d;
  d.entries = acc.take();
  d.total =
      Weight(static_cast<std::uint64_t>(kind.face_count())).pow(static_cast<std::uint64_t>(n));
  return d;
}

Dist apply_step(Budget& budget, PoolKinds& kinds, const PoolStep& step, const Value& pool) {
  const PoolData* p = pool.as_pool();
  if (!p) not_composable("a pool operation on something else than a pool");
  return StepOnPool(budget, kinds, step, *p).run();
}

}  // namespace alea::compose
