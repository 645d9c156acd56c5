// interpreter/exact/exact_dist.cpp — combining distributions: map, product, bind.
#include "interpreter/exact/exact_dist.hpp"

#include <algorithm>

namespace alea::compose {

void not_composable(std::string why) { throw NotComposable{std::move(why)}; }

const std::vector<PoolDie>& read_in_order(const PoolData& pool) {
  if (!pool.alike()) order_not_kept();
  return pool.dice;
}

void order_not_kept() {
  not_composable("the order of a pool's dice is read (an index, a 'for'), which composing does not keep");
}

void Budget::poll_clock() {
  const auto now = Clock::now();
  next_poll = work + poll_every;
  if (now > deadline) throw OverBudget{"time_limit"};
  if (progress && now >= next_report) {
    next_report = now + report_every;
    (*progress)(std::chrono::duration<double>(now - start).count());
  }
}

bool Budget::past_deadline_after(std::uint64_t n) const {
  // No machine does a unit of work in less than a nanosecond; once enough
  // work is done to time it, the rate measured so far.
  constexpr std::uint64_t timed_from = 1 << 16;
  const auto now = Clock::now();
  const double spent = std::chrono::duration<double>(now - start).count();
  const double per_unit = work >= timed_from && spent > 0 ? std::max(1e-9, spent / static_cast<double>(work)) : 1e-9;
  return static_cast<double>(n) * per_unit > std::chrono::duration<double>(deadline - now).count();
}

namespace {

bool same_diagnostic(const Diagnostic& a, const Diagnostic& b) {
  return a.code == b.code && a.span.file == b.span.file && a.span.begin == b.span.begin &&
         a.span.end == b.span.end && a.message == b.message;
}

// Keeps the one error of a distribution; two different errors would need the
// enumeration's order to tell which is met first.
void merge_error(std::shared_ptr<const Diagnostic>& into,
                 const std::shared_ptr<const Diagnostic>& other) {
  if (!other) return;
  if (!into) {
    into = other;
  } else if (into != other && !same_diagnostic(*into, *other)) {
    not_composable("runs may end in different errors");
  }
}

std::size_t mix(std::size_t h, std::size_t x) {
  return h ^ (x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
}

}  // namespace

void Failures::then(const Failures& later, const Weight& later_total, const Weight& ok) {
  scale(later_total);
  if (!later.cut.is_zero()) cut += ok * later.cut;
  if (!later.loop.is_zero()) loop += ok * later.loop;
  if (!later.err.is_zero() && !ok.is_zero()) {
    err += ok * later.err;
    merge_error(error, later.error);
  }
}

namespace {
// Whether two values' kept hashes show them different.
bool differ(const HashCache& x, const HashCache& y) {
  const std::size_t a = x.value.load(std::memory_order_relaxed), b = y.value.load(std::memory_order_relaxed);
  return a != 0 && b != 0 && a != b;
}
}  // namespace

bool same(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ValueKind::Int:
      return *a.as_int() == *b.as_int();
    case ValueKind::Bool:
      return *a.as_bool() == *b.as_bool();
    case ValueKind::Str:
      return a.as_str() == b.as_str() || *a.as_str() == *b.as_str();
    case ValueKind::None:
      return true;
    case ValueKind::Pool: {
      const PoolData& x = *a.as_pool();
      const PoolData& y = *b.as_pool();
      if (&x == &y) return true;
      if (x.successes != y.successes || x.dice.size() != y.dice.size()) return false;
      for (std::size_t i = 0; i < x.dice.size(); ++i) {
        if (x.dice[i].face != y.dice[i].face || x.dice[i].id != y.dice[i].id) return false;
      }
      return true;
    }
    case ValueKind::List: {
      const std::vector<Value>& x = *a.as_list();
      const std::vector<Value>& y = *b.as_list();
      if (&x == &y) return true;
      if (x.size() != y.size() ||
          differ(static_cast<const ListData&>(x).hash, static_cast<const ListData&>(y).hash))
        return false;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (!same(x[i], y[i])) return false;
      }
      return true;
    }
    case ValueKind::Record: {
      const RecordData& x = *a.as_record();
      const RecordData& y = *b.as_record();
      if (&x == &y) return true;
      if (differ(x.hash, y.hash) || x.names != y.names) return false;
      for (std::size_t i = 0; i < x.values.size(); ++i) {
        if (!same(x.values[i], y.values[i])) return false;
      }
      return true;
    }
  }
  return false;
}

std::size_t hash_value(const Value& v) {
  std::size_t h = static_cast<std::size_t>(v.kind());
  switch (v.kind()) {
    case ValueKind::Int:
      return std::hash<std::int64_t>()(*v.as_int());
    case ValueKind::Bool:
      return mix(h, *v.as_bool() ? 1 : 0);
    case ValueKind::Str:
      return mix(h, std::hash<std::string>()(*v.as_str()));
    case ValueKind::None:
      return h;
    case ValueKind::Pool:
      // One multiply per die (pools are hashed by the million); slot_of
      // spreads the result.
      h = mix(h, v.as_pool()->successes ? 1 : 0);
      for (const auto& d : v.as_pool()->dice)
        h = (h ^ (static_cast<std::size_t>(d.face) << 32 ^ d.id)) * 0x100000001B3ull;
      return h;
    case ValueKind::List: {
      // Kept with the list: a state of a loop holds lists and records that
      // many states share.
      const auto& l = static_cast<const ListData&>(*v.as_list());
      if (const std::size_t kept = l.hash.value.load(std::memory_order_relaxed)) return kept;
      for (const auto& i : l) h = mix(h, hash_value(i));
      h += h == 0;
      l.hash.value.store(h, std::memory_order_relaxed);
      return h;
    }
    case ValueKind::Record: {
      const RecordData& r = *v.as_record();
      if (const std::size_t kept = r.hash.value.load(std::memory_order_relaxed)) return kept;
      for (std::size_t i = 0; i < r.names.size(); ++i) {
        h = mix(mix(h, std::hash<std::string>()(r.names[i])), hash_value(r.values[i]));
      }
      h += h == 0;
      r.hash.value.store(h, std::memory_order_relaxed);
      return h;
    }
  }
  return h;
}

void Accumulator::place(std::size_t i) {
  const std::size_t mask = table_.size() - 1;
  std::size_t b = slot_of(hashes_[i]);
  while (table_[b] != 0) b = (b + 1) & mask;
  table_[b] = static_cast<std::uint32_t>(i + 1);
}

namespace {

// Whether another value holds v's contents too (a name's pool in a spine's list
// of names, an outcome of the distribution it came from): then they were
// counted where that value was made, and a list or record holding it adds its
// handle only.
bool held_elsewhere(const Value& v) {
  return std::visit(
      [](const auto& x) {
        if constexpr (requires { x.use_count(); }) return x.use_count() > 1;
        return false;
      },
      v.variant());
}

std::uint64_t item_bytes(const Value& v) { return held_elsewhere(v) ? sizeof(Value) : value_bytes(v); }

}  // namespace

std::uint64_t value_bytes(const Value& v) {
  std::uint64_t n = sizeof(Value);
  switch (v.kind()) {
    case ValueKind::Str: return n + v.as_str()->size();
    case ValueKind::Pool: return n + v.as_pool()->dice.size() * sizeof(PoolDie);
    case ValueKind::List:
      for (const auto& i : *v.as_list()) n += item_bytes(i);
      return n;
    case ValueKind::Record:
      for (std::size_t i = 0; i < v.as_record()->names.size(); ++i)
        n += v.as_record()->names[i].size() + item_bytes(v.as_record()->values[i]);
      return n;
    default: return n;
  }
}

void Accumulator::scale(const Weight& k) {
  for (auto& e : entries_) e.second *= k;
}

void Accumulator::add(Value v, const Weight& w, bool shared) {
  budget_.charge(1);
  if (w.is_zero()) return;
  constexpr std::size_t linear = 12;
  if (table_.empty()) {
    for (auto& [x, xw] : entries_) {
      if (same(x, v)) {
        xw += w;
        return;
      }
    }
    const std::uint64_t bytes = (shared ? item_bytes(v) : value_bytes(v)) + sizeof(Weight);
    budget_.charge_memory(bytes);
    charged_ += bytes;
    entries_.emplace_back(std::move(v), w);
    if (entries_.size() > linear) {
      table_.assign(64, 0);
      for (const auto& e : entries_) hashes_.push_back(hash_value(e.first));
      for (std::size_t i = 0; i < entries_.size(); ++i) place(i);
    }
    return;
  }
  const std::size_t h = hash_value(v);
  const std::size_t mask = table_.size() - 1;
  std::size_t b = slot_of(h);
  for (; table_[b] != 0; b = (b + 1) & mask) {
    const std::size_t i = table_[b] - 1;
    if (hashes_[i] == h && same(entries_[i].first, v)) {
      entries_[i].second += w;
      return;
    }
  }
  const std::uint64_t bytes = (shared ? item_bytes(v) : value_bytes(v)) + sizeof(Weight) + sizeof(std::size_t) +
                              2 * sizeof(std::uint32_t);
  budget_.charge_memory(bytes);
  charged_ += bytes;
  if (entries_.size() >= UINT32_MAX - 1) not_composable("too many outcomes to merge");
  entries_.emplace_back(std::move(v), w);
  hashes_.push_back(h);
  table_[b] = static_cast<std::uint32_t>(entries_.size());
  // At most half full: probes stay short.
  if (2 * entries_.size() > table_.size()) {
    table_.assign(table_.size() * 4, 0);
    for (std::size_t i = 0; i < entries_.size(); ++i) place(i);
  }
}

Dist map(Budget& b, const Dist& d, const ValueFn& f) {
  if (d.is_point()) {  // the common case of a certain value: no merging to do
    b.charge(1);
    Dist out = Dist::point(f(d.entries[0].first));
    out.steps = d.steps;
    out.dice = d.dice;
    return out;
  }
  Accumulator acc(b);
  for (const auto& [v, w] : d.entries) acc.add(f(v), w, true);
  Dist out;
  acc.take_into(out);
  out.total = d.total;
  out.fail = d.fail;
  out.steps = d.steps;
  out.dice = d.dice;
  return out;
}

Dist product(Budget& b, const Dist& a, const Dist& d, const PairFn& f) {
  if (a.is_point() && d.is_point()) {
    b.charge(1);
    Dist out = Dist::point(f(a.entries[0].first, d.entries[0].first));
    out.steps = a.steps + d.steps;
    out.dice = a.dice + d.dice;
    return out;
  }
  // Every pair is a branch: a product past the budget fails before it starts.
  const std::uint64_t pairs = static_cast<std::uint64_t>(a.entries.size()) * d.entries.size();  // < 2^64: both fit in memory
  b.expect(pairs, 0);
  Accumulator acc(b);
  for (const auto& [x, wx] : a.entries) {
    for (const auto& [y, wy] : d.entries) acc.add(f(x, y), wx * wy, true);
  }
  Dist out;
  acc.take_into(out);
  out.total = a.total * d.total;
  out.fail = a.fail;
  out.fail.then(d.fail, d.total, a.ok());
  out.steps = a.steps + d.steps;
  out.dice = a.dice + d.dice;
  return out;
}

namespace {

// The mixture of inner distributions, each with a weight, after the outcomes
// of total `outer_total` of which `outer_fail` failed: each is added as it
// comes, so that only the merged mixture is held. Totals are brought to their
// lcm, the entries so far scaled up when a new total needs it.
class Mixture {
 public:
  Mixture(Budget& b, const Weight& outer_total, const Failures& outer_fail)
      : budget_(b), acc_(b), outer_total_(outer_total), outer_fail_(outer_fail) {}

  // `given`: d is a temporary, which goes once added.
  void add(const Weight& weight, const Dist& d, bool given = false) {
    if (first_) {
      common_ = d.total;
      first_ = false;
    } else if (d.total != common_) {
      const Weight l = lcm(common_, d.total);
      if (l != common_) {
        const Weight up = l.divexact(common_);
        acc_.scale(up);
        inner_.scale(up);
        common_ = l;
      }
    }
    const Weight k = weight * (d.total == common_ ? Weight(1) : common_.divexact(d.total));
    for (const auto& [v, w] : d.entries) acc_.add(v, k * w);
    if (d.held > 0 && given) {
      // d goes once added: what only it holds (merged into an outcome already
      // here) goes with it.
      std::uint64_t alone = 0;
      for (const auto& [v, w] : d.entries) {
        if (!held_elsewhere(v)) alone += value_bytes(v) + sizeof(Weight);
      }
      budget_.release(std::min(alone, d.held));
    }
    if (!d.fail.cut.is_zero()) inner_.cut += k * d.fail.cut;
    if (!d.fail.loop.is_zero()) inner_.loop += k * d.fail.loop;
    if (!d.fail.err.is_zero()) {
      inner_.err += k * d.fail.err;
      merge_error(inner_.error, d.fail.error);
    }
    steps_ = std::max(steps_, d.steps);
    dice_ = std::max(dice_, d.dice);
  }

  Dist finish(std::int64_t steps, std::int64_t dice) {
    Dist out;
    out.total = outer_total_ * common_;
    out.fail = outer_fail_;
    out.fail.scale(common_);
    out.fail.cut += inner_.cut;
    out.fail.loop += inner_.loop;
    if (!inner_.err.is_zero()) {
      out.fail.err += inner_.err;
      merge_error(out.fail.error, inner_.error);
    }
    acc_.take_into(out);
    out.steps = steps + steps_;
    out.dice = dice + dice_;
    return out;
  }

 private:
  Budget& budget_;
  Accumulator acc_;
  Weight outer_total_;
  Failures outer_fail_;
  Failures inner_;
  Weight common_ = 1;
  bool first_ = true;
  std::int64_t steps_ = 0, dice_ = 0;
};

}  // namespace

Dist bind(Budget& b, const Dist& outer, const BindFn& f) {
  if (outer.is_point()) {
    // A certain value: the inner distribution is the answer, as it is.
    Dist out = f(outer.entries[0].first);
    out.steps += outer.steps;
    out.dice += outer.dice;
    return out;
  }
  Mixture mix(b, outer.total, outer.fail);
  for (const auto& [v, w] : outer.entries) mix.add(w, f(v), true);
  return mix.finish(outer.steps, outer.dice);
}

Dist bind_many(Budget& b, const std::vector<Dist>& parts, const BindManyFn& f) {
  std::vector<Value> values(parts.size());
  std::int64_t steps = 0, dice = 0;
  bool certain = true;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    steps += parts[i].steps;
    dice += parts[i].dice;
    if (parts[i].is_point())
      values[i] = parts[i].entries[0].first;
    else
      certain = false;
  }
  if (certain) {
    Dist out = f(values);
    out.steps += steps;
    out.dice += dice;
    return out;
  }
  // Every combination of the parts' values, the parts evaluated in order.
  Weight total = 1;
  Failures fail;
  for (const Dist& p : parts) {
    const Weight ok = total - fail.cut - fail.err - fail.loop;
    fail.then(p.fail, p.total, ok);
    total *= p.total;
  }
  Mixture mix(b, total, fail);
  auto each = [&](auto&& self, std::size_t i, const Weight& w) -> void {
    if (i == parts.size()) {
      mix.add(w, f(values), true);
      return;
    }
    b.charge(parts[i].entries.size());
    for (const auto& [v, x] : parts[i].entries) {
      values[i] = v;
      self(self, i + 1, w * x);
    }
  };
  each(each, 0, Weight(1));
  return mix.finish(steps, dice);
}

}  // namespace alea::compose
