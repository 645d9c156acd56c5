// bench/sampler_bench.cpp — sampler throughput, in rolls per second, against a
// bare loop that only draws the same dice from the same generator.
//
// sampler/CASE/threads:T  compute_stats(sampled_only, samples = kSamples, threads = T):
//                         the whole sampler — evaluation and tallying, no trace
//                         kept, T threads started per call as `alea stats` does.
// bare/CASE/threads:T     T threads, each with its own RandomDice (PCG32 +
//                         Lemire), drawing per roll exactly the dice CASE rolls:
//                         the same kind, as one pool through RandomDice::roll,
//                         as the evaluator draws them; nothing else is done with
//                         the faces.
//
// For `3d6!` (explode on 6, no limit) the bare loop draws the pool of 3, then
// one more pool holding one d6 per 6 just rolled, until a round shows no 6 —
// the dice the evaluator itself draws: 3 / (1 - 1/6) = 3.6 dice per roll on
// average (the counter dice_per_roll reports what was drawn).
//
// items_per_second is rolls per second (wall-clock). scripts/bench prints each
// sampler figure as a fraction of the bare loop with the same case and threads.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
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
  std::int64_t explode;  // > 0: a face that adds one die (no limit)
};

constexpr std::array kCases{
    Case{"3d6", "3d6", 6, 3, 0},          Case{"4d6kh3", "4d6kh3", 6, 4, 0},
    Case{"10d10>=8", "10d10>=8", 10, 10, 0}, Case{"3d6!", "3d6!", 6, 3, 6},
    Case{"8d12", "8d12", 12, 8, 0},       Case{"20d6", "20d6", 6, 20, 0},
};

const alea::Engine& engine() {
  static const alea::Engine e;
  return e;
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
  for (auto _ : state) {
    last = alea::compute_stats(engine(), compiled.program, bindings, options);
    benchmark::DoNotOptimize(last.value.mean);
  }
  if (last.first_error) state.SkipWithError(("error while sampling: " + last.first_error->message).c_str());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kSamples));
  state.counters["threads_used"] = last.threads;
}

// Draws `rolls` rolls of c; returns the number of dice drawn.
std::uint64_t bare_rolls(const Case& c, std::uint64_t seed, std::uint64_t rolls) {
  alea::RandomDice dice(seed);
  const alea::DieKind kind = alea::DieKind::sides(c.sides);
  std::vector<std::int64_t> faces(c.count);
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
  }
  return drawn;
}

void bare(benchmark::State& state, const Case& c, unsigned threads) {
  std::uint64_t drawn = 0, rolls = 0;
  std::uint64_t seed = 1;
  for (auto _ : state) {
    std::vector<std::uint64_t> counts(threads);
    std::vector<std::thread> pool;
    for (unsigned i = 0; i < threads; ++i) {
      const std::uint64_t share = kSamples / threads + (i < kSamples % threads ? 1 : 0);
      pool.emplace_back([&, i, share] { counts[i] = bare_rolls(c, seed * 1000 + i, share); });
    }
    for (auto& t : pool) t.join();
    for (auto n : counts) drawn += n;
    rolls += kSamples;
    ++seed;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kSamples));
  state.counters["dice_per_roll"] = rolls ? static_cast<double>(drawn) / static_cast<double>(rolls) : 0;
}

// Registered at start-up: "all threads" is known only then.
const bool registered = [] {
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> counts{1};
  if (all > 1) counts.push_back(all);
  for (const Case& c : kCases) {
    for (unsigned t : counts) {
      const std::string suffix = std::string(c.name) + "/threads:" + std::to_string(t);
      benchmark::RegisterBenchmark(("sampler/" + suffix).c_str(), sampler, c, t)
          ->UseRealTime()->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("bare/" + suffix).c_str(), bare, c, t)
          ->UseRealTime()->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}();

}  // namespace
