// bench/sampler_bench.cpp — sampler throughput, in rolls per second, next to a
// bare loop that only draws the same dice from the same generator, timed in
// the same iterations so that both see the same load on a shared machine.
//
// sampler/CASE/threads:T  each iteration times, one after the other:
//   - compute_stats(sampled_only, samples = kSamples, threads = T): the whole
//     sampler as `alea stats` runs it — lowering, T threads started, the runs,
//     tallying and merging; no trace is kept;
//   - the bare loop: T threads, each with its own RandomDice (PCG32 + Lemire),
//     drawing per roll exactly the dice CASE rolls — the same kind, as one
//     pool through RandomDice::roll, as the evaluator draws them — and doing
//     nothing else with the faces.
// The benchmark's time is the sampler's (manual time). Counters:
//   rolls_per_s       the sampler's rolls per second (wall-clock)
//   bare_rolls_per_s  the bare loop's
//   ratio             rolls_per_s / bare_rolls_per_s: the figure the targets are about
//   cpu_ratio         the same from the CPU time the process spent on each (all
//                     threads): less disturbed by other programs on a shared machine
//   cpu_rolls_per_s, bare_cpu_rolls_per_s
//                     rolls per CPU-second (all threads) of the sampler and the bare
//                     loop: on one thread, the rolls per second of a core of its own
//   dice_per_roll     dice the bare loop drew per roll
//   lowered           1 when the sampler ran the lowered program, 0 for the evaluator
//
// For `3d6!` (explode on 6, no limit) the bare loop draws the pool of 3, then
// one more pool holding one d6 per 6 just rolled, until a round shows no 6 —
// the dice the evaluator itself draws: 3 / (1 - 1/6) = 3.6 dice per roll on
// average. `4d6r1` draws the same way, one d6 per 1; `4d6u` draws the dice
// that repeat a face before them again, as one pool, until none do.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"

namespace {

constexpr std::uint64_t kSamples = 1u << 20;  // rolls per iteration

struct Case {
  const char* name;      // as shown
  const char* source;    // the expression sampled
  std::int64_t sides;    // its dice
  std::size_t count;     // dice per roll, before explosions
  std::int64_t explode;  // > 0: a face that draws one more die next round (no limit): explode, reroll
  bool unique = false;   // the dice that repeat a face before them are drawn again until none do
};

// `3d6!` and `4d6kh3` give their totals as the dice are drawn; `3d6! count
// >=5`, `5d6kh2 count >=4` keep their pools, as do the rerolls.
constexpr std::array kCases{
    Case{"3d6", "3d6", 6, 3, 0},          Case{"4d6kh3", "4d6kh3", 6, 4, 0},
    Case{"10d10>=8", "10d10>=8", 10, 10, 0}, Case{"3d6!", "3d6!", 6, 3, 6},
    Case{"8d12", "8d12", 12, 8, 0},       Case{"20d6", "20d6", 6, 20, 0},
    Case{"3d6! count >=5", "3d6! count >=5", 6, 3, 6},
    Case{"5d6kh2 count >=4", "5d6kh2 count >=4", 6, 5, 0},
    Case{"4d6r1", "4d6r1", 6, 4, 1},      Case{"4d6u", "4d6u", 6, 4, 0, true},
};

const alea::Engine& engine() {
  static const alea::Engine e;
  return e;
}

// Draws `rolls` rolls of c; returns the number of dice drawn.
std::uint64_t bare_rolls(const Case& c, std::uint64_t seed, std::uint64_t rolls) {
  alea::RandomDice dice(seed);
  const alea::DieKind kind = alea::DieKind::sides(c.sides);
  std::vector<std::int64_t> faces(c.count), again(c.count);
  std::vector<std::size_t> repeats;
  std::uint64_t drawn = 0;
  for (std::uint64_t r = 0; r < rolls; ++r) {
    std::size_t n = c.count;
    std::span<std::int64_t> pool(faces.data(), n);
    for (;;) {
      dice.roll(kind, pool);
      benchmark::DoNotOptimize(faces.data());
      benchmark::ClobberMemory();
      drawn += n;
      if (c.explode <= 0) break;
      n = static_cast<std::size_t>(std::count(pool.begin(), pool.end(), c.explode));
      if (n == 0) break;
      pool = std::span<std::int64_t>(faces.data(), n);  // n <= the pool just rolled
    }
    while (c.unique) {
      repeats.clear();
      for (std::size_t i = 0; i < c.count; ++i) {
        if (std::find(faces.begin(), faces.begin() + static_cast<std::ptrdiff_t>(i), faces[i]) !=
            faces.begin() + static_cast<std::ptrdiff_t>(i)) {
          repeats.push_back(i);
        }
      }
      if (repeats.empty()) break;
      dice.roll(kind, std::span<std::int64_t>(again.data(), repeats.size()));
      for (std::size_t i = 0; i < repeats.size(); ++i) faces[repeats[i]] = again[i];
      benchmark::DoNotOptimize(faces.data());
      benchmark::ClobberMemory();
      drawn += repeats.size();
    }
  }
  return drawn;
}

// The bare loop on `threads` threads, kSamples rolls in all; returns the dice drawn.
std::uint64_t bare(const Case& c, unsigned threads, std::uint64_t seed) {
  std::vector<std::uint64_t> counts(threads);
  std::vector<std::thread> pool;
  for (unsigned i = 0; i < threads; ++i) {
    const std::uint64_t share = kSamples / threads + (i < kSamples % threads ? 1 : 0);
    pool.emplace_back([&, i, share] { counts[i] = bare_rolls(c, seed * 1000 + i, share); });
  }
  for (auto& t : pool) t.join();
  std::uint64_t drawn = 0;
  for (auto n : counts) drawn += n;
  return drawn;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU time of the whole process (every thread): what the runs cost, however
// many other programs share the machine.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void sampler(benchmark::State& state, const Case& c, unsigned threads) {
  const alea::Compiled compiled = engine().compile(c.source);
  if (!compiled.ok()) {
    state.SkipWithError("does not compile");
    return;
  }
  const alea::Bindings bindings;
  alea::StatsOptions options;
  options.sampled_only = true;
  options.samples = kSamples;
  options.threads = threads;
  alea::Stats last;
  double sampler_time = 0, bare_time = 0, sampler_cpu = 0, bare_cpu = 0;
  std::uint64_t drawn = 0, seed = 1;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpu_seconds();
    last = alea::compute_stats(engine(), compiled.program, bindings, options);
    benchmark::DoNotOptimize(last.value.mean);
    const double s = seconds_since(t0);
    sampler_cpu += cpu_seconds() - c0;
    t0 = std::chrono::steady_clock::now();
    c0 = cpu_seconds();
    drawn += bare(c, threads, seed++);
    bare_time += seconds_since(t0);
    bare_cpu += cpu_seconds() - c0;
    sampler_time += s;
    state.SetIterationTime(s);
  }
  if (last.first_error) state.SkipWithError(("error while sampling: " + last.first_error->message).c_str());
  const double rolls = static_cast<double>(state.iterations()) * static_cast<double>(kSamples);
  state.SetItemsProcessed(static_cast<std::int64_t>(rolls));
  state.counters["rolls_per_s"] = rolls / sampler_time;
  state.counters["bare_rolls_per_s"] = rolls / bare_time;
  state.counters["ratio"] = bare_time / sampler_time;
  state.counters["cpu_ratio"] = bare_cpu / sampler_cpu;
  // Per CPU-second of all the threads: what the wall-clock figures would be
  // on cores of one's own (divide by the threads for one core's share).
  state.counters["cpu_rolls_per_s"] = rolls / sampler_cpu;
  state.counters["bare_cpu_rolls_per_s"] = rolls / bare_cpu;
  state.counters["dice_per_roll"] = static_cast<double>(drawn) / rolls;
  state.counters["threads_used"] = last.threads;
  state.counters["lowered"] = last.sampler == alea::SamplerPath::Lowered ? 1 : 0;
}

// Registered at start-up: "all threads" is known only then.
const bool registered = [] {
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> counts{1};
  if (all > 1) counts.push_back(all);
  for (const Case& c : kCases) {
    for (unsigned t : counts) {
      const std::string name = std::string("sampler/") + c.name + "/threads:" + std::to_string(t);
      benchmark::RegisterBenchmark(name.c_str(), sampler, c, t)->UseManualTime()->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}();

}  // namespace
