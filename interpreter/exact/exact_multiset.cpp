// interpreter/exact/exact_multiset.cpp — pools as multisets of dice, and a step on
// one: by its family's hooks (interpreter/ops/), the same decisions the
// evaluator makes on the dice in the order rolled.
#include "interpreter/exact/exact_multiset.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <unordered_map>

#include <fmt/format.h>

#include "interpreter/exact/exact.hpp"

namespace alea::compose {

std::uint32_t PoolKinds::id_of(const DieKind& k) {
  for (std::size_t i = 0; i < kinds_.size(); ++i) {
    if (kinds_[i] == k) return tag | static_cast<std::uint32_t>(i);
  }
  kinds_.push_back(k);
  return tag | static_cast<std::uint32_t>(kinds_.size() - 1);
}

Value make_sorted_pool(std::vector<PoolDie> dice, bool successes) {
  std::sort(dice.begin(), dice.end(), by_face_then_id);
  auto p = std::make_shared<PoolData>();
  p->dice = std::move(dice);
  p->successes = successes;
  if (!pool_total(*p)) not_composable("a pool's total would overflow");
  return Value(PoolPtr(std::move(p)));
}

namespace {

__extension__ using wide = __int128;

// `count` dice of die id `id` with the total `left`, evened out: faces q and
// q + 1, ascending, appended to `out`; false where they would not fit in 64
// bits. Below a summary's prefix: the dice they stand for lie between their
// smallest and largest, so do q and q + 1, and none passes the prefix's
// smallest die, so the prefix stays the largest.
bool push_evened(std::vector<PoolDie>& out, wide left, std::size_t count, std::uint32_t id) {
  if (count == 0) return true;
  const auto n = static_cast<wide>(count);
  wide q = left / n;
  if (q * n > left) --q;  // rounded down
  if (q < INT64_MIN || q + 1 > INT64_MAX) return false;
  const auto lower = static_cast<std::size_t>(n - (left - q * n));  // how many show q, the others q + 1
  for (std::size_t i = 0; i < count; ++i) out.push_back({static_cast<std::int64_t>(i < lower ? q : q + 1), id});
  return true;
}

// The dice of a summary from its parts (ascending: `n - top.size()` dice of
// total `total - sum(top)` evened out, then `top`, given largest first), into
// `out`; false where they would not fit in 64 bits.
bool dice_of(wide total, std::size_t n, std::uint32_t id, std::span<const std::int64_t> top,
             std::vector<PoolDie>& out) {
  out.clear();
  out.reserve(n);
  for (const std::int64_t f : top) total -= f;
  if (!push_evened(out, total, n - top.size(), id)) return false;
  for (std::size_t t = top.size(); t-- > 0;) out.push_back({top[t], id});
  return true;
}

// The dice of the summary of `d` (ascending), into `out`; false where they
// would not fit in 64 bits.
bool summary_dice(std::span<const PoolDie> d, std::int64_t reach, std::vector<PoolDie>& out) {
  std::uint32_t id = UINT32_MAX;
  wide total = 0;
  for (const PoolDie& x : d) {
    total += x.face;
    id = std::min(id, x.id);
  }
  // The prefix, from the largest die down, to the first that reaches.
  thread_local std::vector<std::int64_t> top;
  top.clear();
  wide run = 0;
  for (auto it = d.rbegin(); it != d.rend() && run < reach; ++it) {
    top.push_back(it->face);
    run += it->face;
  }
  return dice_of(total, d.size(), id, top, out);
}

bool same_dice(std::span<const PoolDie> a, std::span<const PoolDie> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const PoolDie& x, const PoolDie& y) { return x.face == y.face && x.id == y.id; });
}

Value pool_of(const std::vector<PoolDie>& dice, const Value& otherwise) {
  auto p = std::make_shared<PoolData>();
  p->dice = dice;
  if (!pool_total(*p)) return otherwise;
  return Value(PoolPtr(std::move(p)));
}

}  // namespace

Value summary_pool(const Value& v, std::int64_t reach) {
  const PoolData* pool = v.as_pool();
  if (!pool || pool->successes || pool->dice.empty()) return v;
  thread_local std::vector<PoolDie> out;
  if (!summary_dice(pool->dice, reach, out)) return v;
  // Already one (a summary joined with nothing that changes it): kept as it is.
  if (same_dice(out, pool->dice)) return v;
  return pool_of(out, v);
}

Value summary_of_failing(const Value& v, const DieTest& t, const PoolKinds& kinds, std::int64_t reach) {
  const PoolData* pool = v.as_pool();
  if (!pool || pool->successes) return v;
  const auto fails = [&](const PoolDie& d) {
    const DieKind* kind = kinds.kind_of(d);
    return (t.fixed || kind) && !passes(t, kind, d.face);
  };
  thread_local std::vector<PoolDie> failing, passing, out;
  failing.clear();
  passing.clear();
  for (const PoolDie& d : pool->dice) {
    if (fails(d)) failing.push_back(d);
    else if (t.fixed || kinds.kind_of(d)) passing.push_back(d);
    else return v;
  }
  if (failing.empty() || !summary_dice(failing, reach, out)) return v;
  if (same_dice(out, failing)) return v;  // already their summary
  if (!std::all_of(out.begin(), out.end(), fails)) return v;
  out.insert(out.end(), passing.begin(), passing.end());
  std::sort(out.begin(), out.end(), by_face_then_id);
  return pool_of(out, v);
}

std::vector<Weight> binomial_weights(std::int64_t n, std::uint64_t m) {
  std::vector<Weight> w{Weight(1)};
  for (std::int64_t k = 1; k <= n; ++k) {
    w.push_back((w.back() * Weight(static_cast<std::uint64_t>(n - k + 1)) * Weight(m))
                    .divexact(Weight(static_cast<std::uint64_t>(k))));
  }
  return w;
}

std::vector<std::pair<std::int64_t, std::uint64_t>> faces_of(const DieKind& k) {
  if (k.is_plain()) {  // 1 to N, each once: no map of a million sides
    std::vector<std::pair<std::int64_t, std::uint64_t>> faces;
    faces.reserve(static_cast<std::size_t>(k.max_face()));
    for (std::int64_t f = 1; f <= k.max_face(); ++f) faces.emplace_back(f, 1);
    return faces;
  }
  std::map<std::int64_t, std::uint64_t> m;
  for (std::int64_t i = 0; i < k.face_count(); ++i) ++m[k.face(i)];
  return {m.begin(), m.end()};
}

namespace {


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
  const std::vector<Weight> ways = binomial_weights(left, faces[i].second);
  const std::size_t mark = dice.size();
  for (std::int64_t c = 0; c <= left; ++c) {
    if (c > 0) dice.push_back({faces[i].first, id});
    roll_rec(budget, acc, faces, i + 1, left - c, id, dice, w * ways[static_cast<std::size_t>(c)]);
  }
  dice.resize(mark);
}

}  // namespace

const DieKind& StepOnPool::need_kind(const PoolDie& d) const {
  const DieKind* k = kinds.kind_of(d);
  if (!k) not_composable("an operation on a pool given by the host that needs its kind of die");
  return *k;
}

bool StepOnPool::one_kind() const {
  return std::all_of(pool.dice.begin(), pool.dice.end(),
                     [&](const PoolDie& d) { return d.id == pool.dice.front().id; });
}

bool passes(const DieTest& t, const DieKind* kind, std::int64_t face) {
  if (t.fixed) return kernel::compare(t.op, face, t.value);
  if (!kind) not_composable("an operation on a pool given by the host that needs its kind of die");
  return t(*kind, face);
}

bool StepOnPool::passes(const DieTest& t, const PoolDie& d) const { return compose::passes(t, kinds.kind_of(d), d.face); }

Dist StepOnPool::fresh(const DieKind& kind) {
  const std::uint32_t id = kinds.id_of(kind);
  Dist d;
  d.total = Weight(static_cast<std::uint64_t>(kind.face_count()));
  for (const auto& [f, w] : faces_of(kind)) d.entries.emplace_back(make_sorted_pool({{f, id}}, false), Weight(w));
  return d;
}

Value StepOnPool::join(const Value& a, const Value& b) { return join_as(a, b, false); }

void StepOnPool::cut_rare(Dist& d, std::uint64_t rare) {
  if (rare == 0) return;
  const Weight times(rare);
  auto kept = d.entries.begin();
  for (auto& e : d.entries) {
    if (e.second * times < d.total) {
      d.fail.cut += e.second;
    } else {
      if (&*kept != &e) *kept = std::move(e);
      ++kept;
    }
  }
  if (kept == d.entries.end()) return;
  d.entries.erase(kept, d.entries.end());
  budget.cut_rare_chains = true;
}

Value StepOnPool::join_summary(const Value& a, const Value& b, bool successes, std::optional<std::int64_t> reach) {
  if (!reach || successes) return summarised(join_as(a, b, successes), reach);
  // Merged into a buffer and summarised from there: one pool made, not two.
  const auto& x = a.as_pool()->dice;
  const auto& y = b.as_pool()->dice;
  thread_local std::vector<PoolDie> merged, out;
  merged.resize(x.size() + y.size());
  std::merge(x.begin(), x.end(), y.begin(), y.end(), merged.begin(), by_face_then_id);
  if (merged.empty() || !summary_dice(merged, *reach, out)) return join_as(a, b, successes);
  const Value none;
  Value r = pool_of(out, none);
  if (!r.as_pool()) not_composable("a pool's total would overflow");
  return r;
}

namespace {

// A summary by its parts: its total, its number of dice, the least die id, and
// its largest faces, largest first, up to the first whose running sum reaches.
struct SummaryParts {
  std::int64_t total = 0;
  std::uint64_t n = 0;
  std::uint32_t id = UINT32_MAX;
  std::vector<std::int64_t> top;
};

void parts_of(const PoolData& p, std::int64_t reach, SummaryParts& out) {
  out.total = 0;
  out.n = p.dice.size();
  out.id = UINT32_MAX;
  out.top.clear();
  for (const PoolDie& x : p.dice) {
    if (__builtin_add_overflow(out.total, x.face, &out.total)) not_composable("a pool's total would overflow");
    out.id = std::min(out.id, x.id);
  }
  wide run = 0;
  for (auto it = p.dice.rbegin(); it != p.dice.rend() && run < reach; ++it) {
    out.top.push_back(it->face);
    run += it->face;
  }
}

struct KeyHash {
  std::size_t operator()(const std::vector<std::int64_t>& k) const {
    std::size_t h = k.size();
    for (const std::int64_t x : k) h = (h ^ static_cast<std::size_t>(x)) * 0x100000001B3ull;
    return h;
  }
};

}  // namespace

Dist StepOnPool::join_summaries(const Dist& parts, const Value& base, std::int64_t reach) {
  SummaryParts b, e;
  parts_of(*base.as_pool(), reach, b);
  // A key: the total, the size, the id, then the joined prefix.
  std::unordered_map<std::vector<std::int64_t>, std::size_t, KeyHash> index;
  index.reserve(parts.entries.size());
  std::vector<std::pair<const std::vector<std::int64_t>*, Weight>> found;  // in the order first met
  std::vector<std::int64_t> key;
  for (const auto& [v, w] : parts.entries) {
    budget.charge(1);
    parts_of(*v.as_pool(), reach, e);
    std::int64_t total;
    if (__builtin_add_overflow(b.total, e.total, &total)) not_composable("a pool's total would overflow");
    key.assign({total, static_cast<std::int64_t>(b.n + e.n), static_cast<std::int64_t>(std::min(b.id, e.id))});
    // The largest dice of the two, merged, up to the first that reaches: those
    // of the whole (a die of one that the whole takes is among its own prefix).
    wide run = 0;
    std::size_t i = 0, j = 0;
    while (run < reach && (i < b.top.size() || j < e.top.size())) {
      const bool from_b = j == e.top.size() || (i < b.top.size() && b.top[i] >= e.top[j]);
      const std::int64_t f = from_b ? b.top[i++] : e.top[j++];
      key.push_back(f);
      run += f;
    }
    const auto [it, fresh] = index.try_emplace(key, found.size());
    if (fresh) found.emplace_back(&it->first, w);
    else found[it->second].second += w;
  }
  Dist out;
  out.total = parts.total;
  out.fail = parts.fail;
  out.steps = parts.steps;
  out.dice = parts.dice;
  out.entries.reserve(found.size());
  for (auto& [at, w] : found) {
    const std::vector<std::int64_t>& k = *at;
    std::vector<PoolDie> dice;
    if (!dice_of(k[0], static_cast<std::size_t>(k[1]), static_cast<std::uint32_t>(k[2]),
                 std::span<const std::int64_t>(k).subspan(3), dice)) {
      not_composable("a pool's total would overflow");
    }
    auto p = std::make_shared<PoolData>();
    p->dice = std::move(dice);
    if (!pool_total(*p)) not_composable("a pool's total would overflow");
    Value made(PoolPtr(std::move(p)));
    const std::uint64_t bytes = value_bytes(made) + sizeof(Weight);
    budget.charge_memory(bytes);
    out.held += bytes;
    out.entries.emplace_back(std::move(made), std::move(w));
  }
  return out;
}

Value StepOnPool::join_as(const Value& a, const Value& b, bool successes) {
  // Both are sorted (make_sorted_pool): merged, they are too.
  const auto& x = a.as_pool()->dice;
  const auto& y = b.as_pool()->dice;
  auto p = std::make_shared<PoolData>();
  p->dice.resize(x.size() + y.size());
  std::merge(x.begin(), x.end(), y.begin(), y.end(), p->dice.begin(), by_face_then_id);
  p->successes = successes;
  // Sorted: the first and last faces bound every one, and so the total.
  const auto& d = p->dice;
  const auto magnitude = [](std::int64_t f) { return f < 0 ? 0 - static_cast<std::uint64_t>(f) : static_cast<std::uint64_t>(f); };
  const bool small = d.empty() || std::max(magnitude(d.front().face), magnitude(d.back().face)) <=
                                      (std::uint64_t{1} << 62) / d.size();
  if (!small && !pool_total(*p)) not_composable("a pool's total would overflow");
  return Value(PoolPtr(std::move(p)));
}

Dist roll_pools(Budget& budget, PoolKinds& kinds, const DieKind& kind, std::int64_t n) {
  const auto faces = faces_of(kind);
  // The listing recurses once per distinct face.
  if (faces.size() > 1000) not_composable("a die with too many faces to list its rolls");
  // Every multiset becomes an outcome holding n dice: refuse a listing that
  // cannot fit before making any of it.
  const std::uint64_t count = multisets(static_cast<std::uint64_t>(n), faces.size());
  const std::uint64_t each = sizeof(Value) + sizeof(Weight) + static_cast<std::uint64_t>(n) * sizeof(PoolDie);
  budget.expect(count, count > UINT64_MAX / each ? UINT64_MAX : count * each);
  Accumulator acc(budget);
  std::vector<PoolDie> dice;
  dice.reserve(static_cast<std::size_t>(n));
  const std::uint32_t id = kinds.id_of(kind);
  roll_rec(budget, acc, faces, 0, n, id, dice, Weight(1));
  Dist d;
  acc.take_into(d);
  d.roll = Dist::Roll{id, n};
  d.total =
      Weight(static_cast<std::uint64_t>(kind.face_count())).pow(static_cast<std::uint64_t>(n));
  return d;
}

Dist apply_step(Budget& budget, PoolKinds& kinds, const PoolStep& step, const Value& pool, StepMemo* memo) {
  const PoolData* p = pool.as_pool();
  if (!p) not_composable("a pool operation on something else than a pool");
  StepOnPool cx(budget, kinds, step, *p, memo);
  if (step.on_pools) return step.on_pools(cx);
  if (step.score) {
    std::int64_t n = 0;
    for (const auto& d : p->dice) n += step.score(step, d.face);
    return Dist::point(Value(n));
  }
  if (step.face) {
    std::vector<PoolDie> dice;
    for (const auto& d : p->dice) {
      if (const auto f = step.face(step, kinds.kind_of(d), d.face)) dice.push_back({*f, d.id});
    }
    return Dist::point(make_sorted_pool(std::move(dice), p->successes || step.successes));
  }
  not_composable(fmt::format("'{}' is not composed", pool_op_info(step.id).name));
}

std::uint64_t multisets(std::uint64_t n, std::uint64_t k) {
  if (k == 0) return n == 0 ? 1 : 0;
  const double log_c = std::lgamma(static_cast<double>(n + k)) - std::lgamma(static_cast<double>(n + 1)) -
                       std::lgamma(static_cast<double>(k));
  if (log_c > 43) return UINT64_MAX;  // e^43 > 2^62
  return static_cast<std::uint64_t>(std::llround(std::exp(log_c)));
}

}  // namespace alea::compose
