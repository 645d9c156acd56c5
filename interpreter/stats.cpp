// interpreter/stats.cpp — exact enumeration and sampling of a program's value.
//
// Exact: a depth-first walk over the choices the program makes. Every call to
// the dice source is one choice among the multisets of that many faces, taken
// in a fixed order; the program is run once per path from the root to a leaf,
// re-executed from the start (it holds no state between runs), and the leaf's
// probability is the product of the multinomial weights on its path, kept as
// an exact rational (GMP). Sampling: the same runs with random dice, on
// threads, counted; lowered (sampler.hpp) when the program allows it.
#include "interpreter/stats.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cmath>
#include <map>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

#include <fmt/format.h>
#include <gmpxx.h>

#include "dsl/ast_walk.hpp"
#include "interpreter/api.hpp"
#include "interpreter/eval/builtin_table.hpp"
#include "interpreter/eval/evaluator.hpp"
#include "interpreter/exact/exact.hpp"
#include "interpreter/exact/exact_dist.hpp"
#include "interpreter/exact/exact_multiset.hpp"
#include "interpreter/sample/lowered.hpp"
#include "interpreter/sample/sampler.hpp"
#include "interpreter/stats_probe.hpp"
#include "interpreter/stats_tally.hpp"

namespace alea {
namespace {

using tally::counted;
using tally::exact_probability;
using tally::finish_exact;
using tally::finish_sampled;
using tally::Tallies;
using tally::wilson;

// The exact enumeration's work budget: max_branches runs of this many steps.
constexpr std::uint64_t exact_steps_per_branch = 100;

// One choice: `n` dice of one kind, shown as a multiset (counts per distinct face).
struct Choice {
  DieKind kind;
  std::size_t n = 0;
  std::vector<std::int64_t> values;     // the distinct faces, ascending
  std::vector<std::uint64_t> weight_of;  // how many faces of the die show each value
  std::vector<std::size_t> counts;       // the current multiset
  mpq_class weight;                      // its probability
  std::uint64_t outcomes = 0;            // how many multisets it has
};

mpz_class factorial(std::size_t n) {
  mpz_class f;
  mpz_fac_ui(f.get_mpz_t(), n);
  return f;
}

void set_weight(Choice& c) {
  // n! / prod(c_v!) * prod(m_v^c_v) / F^n
  mpz_class num = factorial(c.n);
  mpz_class den = 1;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    total += c.weight_of[i];
    num /= factorial(c.counts[i]);
    mpz_class p;
    mpz_ui_pow_ui(p.get_mpz_t(), c.weight_of[i], c.counts[i]);
    num *= p;
  }
  mpz_ui_pow_ui(den.get_mpz_t(), total, c.n);
  c.weight = mpq_class(num, den);
  c.weight.canonicalize();
}

// The next multiset after c.counts in a fixed order; false after the last.
bool next_multiset(std::vector<std::size_t>& counts) {
  // Move one die from the leftmost non-empty value to the next value, gathering
  // the rest of that value's dice back to the front: every composition once.
  const std::size_t k = counts.size();
  std::size_t i = 0;
  while (i < k && counts[i] == 0) ++i;
  if (i + 1 >= k) return false;
  const std::size_t moved = counts[i] - 1;
  counts[i] = 0;
  ++counts[i + 1];
  counts[0] = moved;
  return true;
}

// The faces of a multiset, ascending.
void fill(const Choice& c, std::span<std::int64_t> faces) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    for (std::size_t j = 0; j < c.counts[i]; ++j) faces[at++] = c.values[i];
  }
}

// The values a die shows: a plain die's counted without listing them.
std::uint64_t distinct_faces(const DieKind& kind) {
  return kind.is_plain() ? static_cast<std::uint64_t>(kind.max_face()) : compose::faces_of(kind).size();
}

// Thrown when exact enumeration would pass a budget; `reason` names the limit.
struct Budget {
  std::string reason;
};
struct Cancelled {};     // thrown when the cancel flag is raised

// The dice of one path through the choices; new choices start at their first multiset.
// Where the program may read the order of a roll's dice (OrderScan), each die is a
// choice of its own: the enumeration then runs every sequence of faces, not every multiset.
class PathDice final : public DiceSource {
 public:
  explicit PathDice(bool ordered) : ordered_(ordered) {}
  // Runs a new choice may still take: each of its multisets is one run at
  // least, so a choice with more stops the enumeration before it starts.
  std::uint64_t runs_left = UINT64_MAX;
  std::string runs_limit;  // what runs_left comes from: "more than 100000 runs (max_branches)"
  std::vector<Choice> path;
  std::size_t next = 0;

  void roll(const DieKind& kind, std::span<std::int64_t> faces) override {
    if (!ordered_ || faces.size() < 2) return choose(kind, faces);
    if (next + faces.size() > path.size()) {
      const std::uint64_t distinct = distinct_faces(kind);
      std::uint64_t count = 1;
      for (std::size_t i = 0; i < faces.size() && count != UINT64_MAX; ++i) {
        count = count > UINT64_MAX / distinct ? UINT64_MAX : count * distinct;
      }
      refuse_past(count, faces.size(), " in order");
    }
    for (auto& f : faces) choose(kind, std::span<std::int64_t>(&f, 1));
  }

 private:
  bool ordered_;

  void refuse_past(std::uint64_t count, std::size_t n, std::string_view how) const {
    if (count > runs_left) {
      throw Budget{fmt::format("an exact answer needs {}: one roll of {} dice has {} outcomes{}", runs_limit, n,
                               count == UINT64_MAX ? std::string("more than 2^62") : fmt::format("{}", count), how)};
    }
  }

  void choose(const DieKind& kind, std::span<std::int64_t> faces) {
    if (next == path.size()) {
      Choice c;
      c.kind = kind;
      c.n = faces.size();
      // Counted before they are listed: a roll with too many multisets is refused first.
      const std::uint64_t count = compose::multisets(c.n, distinct_faces(kind));
      refuse_past(count, c.n, "");
      c.outcomes = count;
      for (const auto& [v, w] : compose::faces_of(kind)) {
        c.values.push_back(v);
        c.weight_of.push_back(w);
      }
      c.counts.assign(c.values.size(), 0);
      c.counts[0] = c.n;
      set_weight(c);
      path.push_back(std::move(c));
    }
    fill(path[next++], faces);
  }
};

// Whether a program can see the order of the dice within a roll: only through
// faces(), rolled(), indexing or a `for` loop (over a pool's faces) can it, or
// through a compounding explosion (which adds each die of a round to its own
// die); every other pool operation and builtin is blind to it. Walks the program and every
// function it can call. When true, the enumeration runs each roll's every order.
class OrderScan {
 public:
  bool program(const ast::Program& p) {
    for (const auto& st : p.statements) {
      if (const auto* let = std::get_if<ast::GlobalLet>(&st)) expr(*let->value);
    }
    if (p.main) expr(*p.main);
    return found_;
  }

 private:
  bool found_ = false;
  std::vector<const ast::FnDef*> seen_;

  void opt(const ast::ExprPtr& e) {
    if (e) expr(*e);
  }
  void fn(const ast::FnDef* f) {
    if (!f || std::find(seen_.begin(), seen_.end(), f) != seen_.end()) return;
    seen_.push_back(f);
    for (const auto& d : f->defaults) opt(d);
    opt(f->body);
  }
  void expr(const ast::Expr& e) {
    if (found_) return;
    std::visit(
        [&](const auto& k) {
          using T = std::decay_t<decltype(k)>;
          if constexpr (std::is_same_v<T, ast::Name>) {
            if (k.constant) opt(k.constant->value);
          } else if constexpr (std::is_same_v<T, ast::PoolOp>) {
            if (pool_op_info(k.id).sees_order) found_ = true;  // see dsl/pool_ops.def
          } else if constexpr (std::is_same_v<T, ast::Call>) {
            if (k.target == ast::CallTarget::Builtin && detail::builtin_caps(k.builtin).sees_order) found_ = true;
            if (k.target == ast::CallTarget::User) fn(k.fn);
          } else if constexpr (std::is_same_v<T, ast::Index>) {
            found_ = true;  // `pool[0]` reads a die by its position
          } else if constexpr (std::is_same_v<T, ast::For>) {
            found_ = true;
          } else if constexpr (ast::is_one_of<T, ast::IntLit, ast::BoolLit, ast::StrLit, ast::NoneLit, ast::Dice,
                                              ast::Unary, ast::Binary, ast::If, ast::Let, ast::ListLit,
                                              ast::RecordLit, ast::Field, ast::Tiers, ast::Opposed, ast::Repeat,
                                              ast::Loop>) {
            // blind to the order by themselves
          } else {
            static_assert(ast::dependent_false<T>, "OrderScan::expr: an expression kind left out");
          }
        },
        e.kind);
    ast::for_each_child(e, [&](const ast::Expr& c) { expr(c); });
  }
};

// The bytes a weight's numerator and denominator hold.
std::uint64_t weight_bytes(const mpq_class& q) {
  return (mpz_size(q.get_num_mpz_t()) + mpz_size(q.get_den_mpz_t())) * sizeof(mp_limb_t);
}

// The enumeration's own work on a choice's weight: a GMP operation per value.
constexpr std::uint64_t weight_cost = 8;
// What starting one run of the evaluator costs, beyond its steps.
constexpr std::uint64_t run_overhead = 50;

using Clock = std::chrono::steady_clock;

// Runs between two readings of the clock: a run takes a microsecond at least.
constexpr std::uint64_t runs_per_poll = 16;

std::string out_of_time(const StatsOptions& options) {
  return fmt::format("an exact answer takes more than {} (time_limit)", seconds_text(time_limit_of(options).value_or(0)));
}

// The attempt started at `start` gives up at `deadline` (max(): never).
Stats exact(std::shared_ptr<const CompiledProgram> program, const Bindings& bindings, const Limits& base,
            const StatsOptions& options, Clock::time_point start, Clock::time_point deadline) {
  Limits limits = base;
  limits.max_explosion_depth = std::min<std::int64_t>(
      limits.max_explosion_depth, options.explosion_depth.value_or(StatsOptions::first_explosion_depth));
  Tallies<mpq_class> t;
  t.max_shown = limits.max_render_size;
  const bool ordered = OrderScan().program(*program->ast);
  PathDice dice(ordered);
  RunInput input;
  input.cancel = options.cancel;
  std::vector<mpq_class> prefix{1};  // prefix[i]: the product of the first i weights
  // Expression nodes evaluated, checked after every run: a program whose runs
  // are long (a whole game per run) stops long before max_branches runs.
  const std::uint64_t max_steps = options.max_branches > UINT64_MAX / exact_steps_per_branch
                                      ? UINT64_MAX
                                      : options.max_branches * exact_steps_per_branch;
  const bool timed = deadline != Clock::time_point::max() || options.exact_progress;
  // A few random runs first, in a tenth of the time left at most, estimate how many the
  // enumeration takes (stats_probe.hpp): an estimate, not a bound, so half the median of the
  // estimates, or a quarter of their mean where a few long paths raise it that much. With the
  // time a run takes, what cannot end before the deadline is not begun.
  double estimated = 0;
  int probes = 0;
  if (deadline != Clock::time_point::max()) {
    const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
    if (const auto e = estimate_runs(program, bindings, limits, input, ordered, left / 10)) {
      estimated = std::max(e->runs / 2, e->mean / 4);
      probes = e->probes;
    }
  }
  const auto about = [](double runs) { return runs < 1e9 ? fmt::format("{:.0f}", runs) : fmt::format("{:.1e}", runs); };
  // Named first: it does not depend on the machine.
  if (options.max_branches != no_branch_cap && estimated > static_cast<double>(options.max_branches)) {
    throw Budget{fmt::format("an exact answer needs more than {} runs (max_branches): about {}, by {} random runs",
                             options.max_branches, about(estimated), probes)};
  }
  const Clock::time_point enumeration_start = Clock::now();
  Clock::time_point next_report = enumeration_start;  // the time spent, reported ten times a second
  // Whatever max_branches allows: steps and weights' work against
  // max_odds_work, the outcomes kept against max_odds_memory.
  const auto max_work = static_cast<std::uint64_t>(std::max<std::int64_t>(0, limits.max_odds_work));
  const auto max_memory = static_cast<std::uint64_t>(std::max<std::int64_t>(0, limits.max_odds_memory));
  std::uint64_t steps = 0, work = 0, memory = 0;
  auto cancelled = [&] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };
  auto out_of_work = [&] {
    return Budget{fmt::format("an exact answer needs more than {} units of work (max_odds_work)", limits.max_odds_work)};
  };
  auto charge_weight = [&](const Choice& c) {
    work += weight_cost * (c.values.size() + 1);
    if (work > max_work) throw out_of_work();
  };
  for (;;) {
    if (cancelled()) throw Cancelled{};
    if (timed && t.runs % runs_per_poll == 0) {
      const auto now = Clock::now();
      if (now > deadline) throw Budget{out_of_time(options)};
      if (options.exact_progress && now >= next_report) {
        next_report = now + std::chrono::milliseconds(100);
        options.exact_progress(std::chrono::duration<double>(now - start).count());
      }
    }
    dice.next = 0;
    // A choice that cannot fit in the runs left is refused before its first run.
    const std::uint64_t by_branches = options.max_branches - std::min(options.max_branches, t.runs);
    const std::uint64_t by_work = (max_work - std::min(max_work, work)) / weight_cost;
    dice.runs_left = std::min(by_branches, by_work);
    dice.runs_limit = by_branches <= by_work
                          ? fmt::format("more than {} runs (max_branches)", options.max_branches)
                          : fmt::format("more than {} units of work (max_odds_work)", limits.max_odds_work);
    const std::size_t known = dice.path.size();
    const std::uint64_t work_before = work;
    const Outcome o = evaluate(program, bindings, dice, limits, input);
    if (o.error && o.error->code == DiagCode::Interrupted && cancelled()) throw Cancelled{};
    for (std::size_t i = known; i < dice.next && i < dice.path.size(); ++i) charge_weight(dice.path[i]);
    dice.path.resize(dice.next);  // a run may stop early (an error) before using the whole path
    while (prefix.size() <= dice.path.size()) {
      prefix.push_back(prefix.back() * dice.path[prefix.size() - 1].weight);
      memory += weight_bytes(prefix.back());
    }
    const mpq_class w = prefix[dice.path.size()];
    // A weight of many limbs (a long chain of choices) costs in proportion to
    // its size squared where the outcomes are summed and divided.
    const std::uint64_t limbs = weight_bytes(w) / sizeof(mp_limb_t);
    work += limbs * limbs;
    if (++t.runs > options.max_branches) {
      throw Budget{fmt::format("an exact answer needs more than {} runs (max_branches)", options.max_branches)};
    }
    steps += static_cast<std::uint64_t>(o.steps);
    work += run_overhead + run_cost(o);
    if (o.ok()) {
      if (o.value) {
        // A new outcome is kept to the end, with its weight.
        const std::uint64_t before = t.bytes();
        t.add(*o.value, w);
        if (t.bytes() > before) memory += t.bytes() - before + weight_bytes(w);
      }
    } else {
      t.fail(*o.error, w);
    }
    // The new choices' other multisets are each one run at least, of about
    // this run's work: refuse now what cannot fit, rather than after it.
    std::uint64_t more = 0;
    for (std::size_t i = known; i < dice.path.size(); ++i) more += dice.path[i].outcomes - 1;
    if (more > 0) {
      const long double need = static_cast<long double>(more) * static_cast<long double>(work - work_before);
      if (need > static_cast<long double>(max_work - std::min(max_work, work))) {
        throw Budget{fmt::format("an exact answer needs more than {} units of work (max_odds_work): {} more runs "
                                 "of {} units each",
                                 limits.max_odds_work, more, work - work_before)};
      }
    }
    if (memory > max_memory) {
      throw Budget{fmt::format("an exact answer needs more than {} bytes of outcomes (max_odds_memory)",
                               limits.max_odds_memory)};
    }
    if (steps > max_steps) {
      throw Budget{fmt::format("an exact answer needs more work than {} runs of {} steps (max_branches)",
                               options.max_branches, exact_steps_per_branch)};
    }
    if (work > max_work) throw out_of_work();
    const double ahead = std::max(static_cast<double>(more), estimated - static_cast<double>(t.runs));
    if (ahead > 0 && deadline != Clock::time_point::max()) {
      // Within the limits above, but not the time: at the time a run has taken so
      // far, what cannot end before the deadline is not begun. Checked last, so
      // that a limit that does not depend on the machine's speed is the one named.
      const auto now = Clock::now();
      const double per_run = std::chrono::duration<double>(now - enumeration_start).count() /
                             static_cast<double>(t.runs);
      const double left = std::chrono::duration<double>(deadline - now).count();
      if (ahead * per_run > left) {
        throw Budget{static_cast<double>(more) >= ahead
                         ? fmt::format("{}: {} more runs at {:.3g} ms each", out_of_time(options), more, per_run * 1e3)
                         : fmt::format("{}: about {} more runs at {:.3g} ms each, by {} random runs",
                                       out_of_time(options), about(ahead), per_run * 1e3, probes)};
      }
    }
    // The next path: advance the deepest choice that has a next multiset.
    while (!dice.path.empty() && !next_multiset(dice.path.back().counts)) dice.path.pop_back();
    if (dice.path.empty()) break;
    set_weight(dice.path.back());
    charge_weight(dice.path.back());
    prefix.resize(dice.path.size());
  }
  Stats s;
  s.method = StatsMethod::Exact;
  s.runs = t.runs;
  s.value = finish_exact("", t.value);
  for (std::size_t i = 0; i < t.fields.size(); ++i) s.fields.push_back(finish_exact(t.field_names[i], t.fields[i]));
  s.cut_off = exact_probability(t.cut_off);
  s.errors = exact_probability(t.errors);
  s.unresolved = exact_probability(t.cut_off + t.errors);
  s.first_error = t.first_error;
  return s;
}

// A seed for thread i of a sampling run: well mixed (SplitMix64) so that
// neighbouring threads do not draw related streams.
std::uint64_t thread_seed(std::uint64_t seed, unsigned i) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A lowered run is charged this fraction of what the evaluator's run of the
// same program costs: it runs about that much faster.
constexpr std::uint64_t lowered_speedup = 4;

Stats sampled(std::shared_ptr<const CompiledProgram> program, const Bindings& bindings, const Limits& limits,
              const StatsOptions& options, std::string reason) {
  unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, max_stats_threads);
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(1, options.samples)));
  std::vector<Tallies<std::uint64_t>> parts(threads);
  for (auto& p : parts) p.max_shown = limits.max_render_size;
  std::vector<SampleEnd> ends(threads);
  std::atomic<std::uint64_t> done{0};
  // The fast path when the program lowers; it agrees with the evaluator run for run.
  std::string not_lowered = "the lowered sampler was turned off";
  const std::unique_ptr<const LoweredProgram> fast =
      options.lowered ? LoweredProgram::lower(*program, bindings, limits, not_lowered) : nullptr;
  // max_sample_work in equal shares, so that where each thread stops depends
  // only on its seed. A lowered run's cost is that of one evaluator run, on
  // dice of their own, scaled down.
  const auto total_work = static_cast<std::uint64_t>(std::max<std::int64_t>(0, limits.max_sample_work));
  const std::uint64_t memory_share = static_cast<std::uint64_t>(std::max<std::int64_t>(0, limits.max_odds_memory)) / threads;
  std::uint64_t lowered_cost = 1;
  if (fast) {
    RandomDice probe(thread_seed(options.seed, UINT32_MAX));
    lowered_cost = std::max<std::uint64_t>(1, run_cost(evaluate(program, bindings, probe, limits)) / lowered_speedup);
  }
  struct Sink final : SampleSink {
    Tallies<std::uint64_t>& t;
    Sink(Tallies<std::uint64_t>& tallies, std::uint64_t bytes) : t(tallies), max_bytes(bytes) {}
    std::uint64_t max_bytes;
    void add(const Value& v, std::uint64_t times) override { t.add(v, times); }
    bool full() const override { return t.bytes() > max_bytes; }
    void fail(DiagCode code, const Diagnostic* full) override {
      if (full) t.fail(*full, 1);
      else (code == DiagCode::ExplosionLimitExceeded ? t.cut_off : t.errors) += 1;
    }
    bool wants(DiagCode code) const override { return code != DiagCode::ExplosionLimitExceeded && !t.first_error; }
  };
  std::mutex mutex;
  std::condition_variable finished_cv;
  unsigned finished = 0;
  auto share_of = [&](unsigned i) {
    SampleBudget b;
    b.work = total_work / threads + (i < total_work % threads ? 1 : 0);
    b.lowered_cost = lowered_cost;
    b.cancel = options.cancel;
    return b;
  };
  // A share whose thread ran out of memory (the system's, not max_odds_memory:
  // an address-space cap met by many threads at once) is run again in the
  // calling thread once the others have ended: the same runs, only slower.
  std::vector<unsigned char> again(threads, 0);
  auto run_share = [&](unsigned i) {
    const std::uint64_t runs = options.samples / threads + (i < options.samples % threads ? 1 : 0);
    RandomDice dice(thread_seed(options.seed, i));
    // The outcomes kept, against max_odds_memory in equal shares (Tally's
    // count allows for the merged tally's copy).
    Sink sink(parts[i], memory_share);
    ends[i] = sample(fast.get(), program, bindings, limits, dice, runs, share_of(i), sink, done);
    parts[i].runs = ends[i].runs;
  };
  auto work = [&](unsigned i) {
    try {
      run_share(i);
    } catch (const std::bad_alloc&) {
      again[i] = 1;
    }
    {
      const std::lock_guard<std::mutex> lock(mutex);
      ++finished;
    }
    finished_cv.notify_all();
  };
  std::vector<std::thread> pool;
  // A share whose thread could not be started (out of memory or threads)
  // runs here, after the others have started: the same runs, only slower.
  std::vector<unsigned> here;
  for (unsigned i = 0; i < threads; ++i) {
    try {
      pool.emplace_back(work, i);
    } catch (const std::system_error&) {
      here.push_back(i);
    }
  }
  for (unsigned i : here) work(i);
  {
    // Report from the calling thread while the others work; wake as soon as they end.
    std::unique_lock<std::mutex> lock(mutex);
    while (finished < threads) {
      if (options.progress) {
        const auto at = done.load(std::memory_order_relaxed);
        lock.unlock();
        options.progress(std::min(1.0, static_cast<double>(at) / static_cast<double>(options.samples)));
        lock.lock();
      }
      finished_cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return finished >= threads; });
    }
  }
  for (auto& th : pool) th.join();
  pool.clear();
  for (unsigned i = 0; i < threads; ++i) {
    if (!again[i]) continue;
    parts[i] = Tallies<std::uint64_t>{};
    parts[i].max_shown = limits.max_render_size;
    ends[i] = SampleEnd{};
    run_share(i);  // out of memory here too: the caller's error
  }
  if (options.progress) options.progress(1.0);
  // Merge in thread order, so the result depends only on the seed and the thread count.
  Tallies<std::uint64_t> all;
  all.max_shown = limits.max_render_size;
  bool out_of_work = false, out_of_memory = false, cancelled = false;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto& p = parts[i];
    out_of_work = out_of_work || ends[i].out_of_work;
    out_of_memory = out_of_memory || ends[i].out_of_memory;
    cancelled = cancelled || ends[i].cancelled;
    all.runs += p.runs;
    all.cut_off += p.cut_off;
    all.errors += p.errors;
    if (!all.first_error && p.first_error) all.first_error = p.first_error;
    for (const auto& [v, w] : p.value.entries) (void)all.value.add(v, w, all.max_shown);
    for (std::size_t f = 0; f < p.fields.size(); ++f) {
      auto it = std::find(all.field_names.begin(), all.field_names.end(), p.field_names[f]);
      if (it == all.field_names.end()) {
        all.field_names.push_back(p.field_names[f]);
        all.fields.emplace_back();
        it = all.field_names.end() - 1;
      }
      for (const auto& [v, w] : p.fields[f].entries) {
        (void)all.fields[static_cast<std::size_t>(it - all.field_names.begin())].add(v, w, all.max_shown);
      }
    }
  }
  Stats s;
  s.method = StatsMethod::Sampled;
  s.reason = std::move(reason);
  s.runs = all.runs;
  s.samples_asked = options.samples;
  s.threads = threads;
  s.interrupted = cancelled;
  if (out_of_memory && !cancelled) s.cut_short = "max_odds_memory";
  else if (out_of_work && !cancelled) s.cut_short = "max_sample_work";
  s.sampler = fast ? SamplerPath::Lowered : SamplerPath::Evaluator;
  if (!fast) s.sampler_note = std::move(not_lowered);
  if ((cancelled || out_of_work || out_of_memory) && all.runs < min_partial_samples) {
    // Too few runs to say anything.
    const Span where = program->ast->main ? program->ast->main->span : Span{};
    if (cancelled) {
      s.first_error = Diagnostic(DiagCode::Interrupted, where,
                                 fmt::format("interrupted after {} of {} samples, too few to estimate from", all.runs,
                                             options.samples));
    } else if (out_of_memory) {
      s.first_error = Diagnostic(DiagCode::SizeLimitExceeded, where,
                                 fmt::format("the different outcomes of {} samples hold more than {} bytes; fewer "
                                             "than {} samples say nothing (max_odds_memory)",
                                             all.runs, limits.max_odds_memory, min_partial_samples));
    } else {
      s.first_error = Diagnostic(DiagCode::StepLimitExceeded, where,
                                 fmt::format("sampling needs more than {} units of work for {} samples; it stopped "
                                             "after {}, fewer than {} (max_sample_work)",
                                             limits.max_sample_work, options.samples, all.runs, min_partial_samples));
    }
    return s;
  }
  s.value = finish_sampled("", all.value, static_cast<double>(all.runs));
  for (std::size_t i = 0; i < all.fields.size(); ++i) {
    s.fields.push_back(finish_sampled(all.field_names[i], all.fields[i], static_cast<double>(all.runs)));
  }
  const double n = static_cast<double>(all.runs);
  auto share = [&](std::uint64_t k) {
    Probability p;
    p.value = n > 0 ? static_cast<double>(k) / n : 0;
    std::tie(p.low, p.high) = wilson(static_cast<double>(k), n);
    return p;
  };
  s.cut_off = share(all.cut_off);
  s.errors = share(all.errors);
  s.unresolved = share(all.cut_off + all.errors);
  s.first_error = all.first_error;
  return s;
}

// No answer: the cancel flag stopped the exact work.
Stats interrupted(const CompiledProgram& program) {
  Stats s;
  s.interrupted = true;
  s.first_error = Diagnostic(DiagCode::Interrupted, program.ast->main ? program.ast->main->span : Span{},
                             "interrupted before an exact answer was found");
  return s;
}

// A composed answer `s`, found with `work` units of work, that leaves more than
// max_cut_off of the runs past its explosion chains, computed again with
// deeper chains (StatsOptions::explosion_depth). Each chain past depth d goes
// on with the probability p of an exploding face, so the share cut off falls
// as p^d: the next depth is where the last two answers say it falls below
// max_cut_off (three times as deep after the first). The combinations of
// chains rarer than 1 in `rare` are cut off as well, and reported with them.
// Each attempt may do deepen_work_factor times the work of the one before
// (at least deepen_min_work): counted in work, not time, the answer is the
// same on any machine, however loaded. An attempt that passes that, the
// time limit or the memory budget leaves the answer it had.
Stats deepened(Stats s, std::uint64_t work, const Limits& limits, const CompiledProgram& program,
               const Bindings& bindings, const StatsOptions& options, Clock::time_point start,
               Clock::time_point deadline) {
  const std::int64_t deepest = limits.max_explosion_depth;
  const auto max_work = static_cast<std::uint64_t>(std::max<std::int64_t>(0, limits.max_odds_work));
  std::optional<std::pair<std::int64_t, double>> before;  // the answer before s: depth, share cut off
  std::uint64_t rare = StatsOptions::first_rare_chains;
  for (int attempt = 0; attempt < 4; ++attempt) {
    const std::int64_t depth = s.explosion_depth;
    const double cut = s.cut_off.value;
    if (cut <= StatsOptions::max_cut_off || depth >= deepest) break;
    std::int64_t next = depth * 3;
    if (before && before->second > cut) {
      const double fall = std::log(cut / before->second) / static_cast<double>(depth - before->first);
      next = depth + static_cast<std::int64_t>(std::ceil(std::log(StatsOptions::max_cut_off / cut) / fall)) + 1;
    }
    Limits deeper = limits;
    deeper.max_explosion_depth = std::clamp<std::int64_t>(next, depth + 1, deepest);
    const std::uint64_t allowed =
        std::max(StatsOptions::deepen_min_work,
                 work > UINT64_MAX / StatsOptions::deepen_work_factor ? UINT64_MAX : work * StatsOptions::deepen_work_factor);
    deeper.max_odds_work = static_cast<std::int64_t>(std::min(allowed, max_work));
    alea::compose::Composed c = alea::compose::compose_stats(program, bindings, deeper, options, start, deadline, rare);
    if (c.interrupted) return interrupted(program);
    if (!c.stats) break;
    work = c.work;
    before = {depth, cut};
    s = std::move(*c.stats);
    s.explosion_depth = deeper.max_explosion_depth;
    s.rare_chains = c.cut_rare_chains ? rare : 0;
    rare = rare > UINT64_MAX / 100 ? rare : rare * 100;
  }
  return s;
}

// The exact attempt, started at `start`: the answer (exact, interrupted, or
// with --exact the error saying why there is none), or nullopt and `reason`,
// why it is to be sampled instead.
std::optional<Stats> exact_attempt(const Limits& limits, const std::shared_ptr<const CompiledProgram>& program,
                                   const Bindings& bindings, const StatsOptions& options, Clock::time_point start,
                                   std::string& reason) {
  // One deadline for composing and enumerating together.
  const std::optional<double> limit = time_limit_of(options);
  const Clock::time_point deadline =
      limit ? start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(*limit))
            : Clock::time_point::max();
  // First by composing distributions (exact.hpp), then by enumerating runs.
  std::string not_composed;
  bool out_of_time = false;  // composing used the time up: none is left to enumerate
  if (options.compose) {
    Limits cut = limits;
    cut.max_explosion_depth = std::min<std::int64_t>(
        cut.max_explosion_depth, options.explosion_depth.value_or(StatsOptions::first_explosion_depth));
    alea::compose::Composed c = alea::compose::compose_stats(*program, bindings, cut, options, start, deadline);
    if (c.stats) {
      c.stats->explosion_depth = cut.max_explosion_depth;
      if (!options.explosion_depth)
        return deepened(std::move(*c.stats), c.work, limits, *program, bindings, options, start, deadline);
      return std::move(*c.stats);
    }
    if (c.interrupted) return interrupted(*program);
    not_composed = std::move(c.why_not);
    out_of_time = c.limit == "time_limit";
    if (out_of_time) reason = not_composed;
  }
  if (!options.enumerate && !options.exact_only && !out_of_time) {
    // Enumerating is known to be futile (a ruleset's `odds: sampled`).
    if (!not_composed.empty()) reason = fmt::format("composing does not apply: {}", not_composed);
    return std::nullopt;
  }
  if (!out_of_time) {
    try {
      Stats s = exact(program, bindings, limits, options, start, deadline);
      s.exact_method = "enumerated";
      s.explosion_depth = std::min<std::int64_t>(limits.max_explosion_depth,
                                                 options.explosion_depth.value_or(StatsOptions::first_explosion_depth));
      s.not_composed = std::move(not_composed);
      return s;
    } catch (const Budget& b) {
      reason = b.reason;
    } catch (const Cancelled&) {
      return interrupted(*program);
    }
    // Both ways were tried: say why each gave up.
    if (!not_composed.empty()) {
      reason = fmt::format("{}{}; enumerating: {}", not_composed.starts_with("composing ") ? "" : "composing does not apply: ",
                           not_composed, reason);
    }
  }
  if (!options.exact_only) return std::nullopt;
  Stats s;
  s.first_error = Diagnostic(DiagCode::InvalidArgument, program->ast->main ? program->ast->main->span : Span{},
                             fmt::format("no exact answer: {}", reason));
  return s;
}

// `attempt` is set to how long the exact attempt took, when one was made.
Stats stats_of(const Engine& engine, std::shared_ptr<const CompiledProgram> program, const Bindings& bindings,
               const StatsOptions& options, std::optional<double>& attempt) {
  const Limits& limits = engine.options().limits;
  std::string reason = "sampling was asked for";
  if (!options.sampled_only) {
    const Clock::time_point start = Clock::now();
    std::optional<Stats> answer = exact_attempt(limits, program, bindings, options, start, reason);
    attempt = std::chrono::duration<double>(Clock::now() - start).count();
    if (answer) return std::move(*answer);
  }
  return sampled(std::move(program), bindings, limits, options, std::move(reason));
}

}  // namespace

bool may_read_order(const ast::Program& program) { return OrderScan().program(program); }

bool valid_time_limit(double seconds) { return std::isfinite(seconds) && seconds > 0 && seconds <= max_time_limit; }

std::string time_limit_rule() { return fmt::format("more than 0 and at most {:.0f} seconds (a year)", max_time_limit); }

double default_time_limit() {
#ifdef ALEA_SLOW_BUILD
  return 15;
#else
  return 1.5;
#endif
}

std::optional<double> time_limit_of(const StatsOptions& options) {
  if (options.time_limit) return *options.time_limit;
  if (options.exact_only) return std::nullopt;
  return default_time_limit();
}

std::string seconds_text(double seconds) { return fmt::format("{:g} s", seconds); }

Stats compute_stats(const Engine& engine, std::shared_ptr<const CompiledProgram> program, const Bindings& bindings,
                    const StatsOptions& options) {
  if (options.time_limit && !valid_time_limit(*options.time_limit)) {
    Stats s;
    s.first_error = Diagnostic(DiagCode::InvalidArgument, program->ast->main ? program->ast->main->span : Span{},
                               fmt::format("the time limit must be {}, not {}", time_limit_rule(),
                                           *options.time_limit));
    return s;
  }
  const Clock::time_point start = Clock::now();
  std::optional<double> attempt;
  Stats s = stats_of(engine, std::move(program), bindings, options, attempt);
  if (s.first_error) locate_in_user_code(*s.first_error);  // as Engine::run reports it
  s.time_limit = options.sampled_only ? std::nullopt : time_limit_of(options);
  s.exact_seconds = attempt;
  s.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return s;
}

}  // namespace alea
