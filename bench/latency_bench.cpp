// bench/latency_bench.cpp — the latency of one roll of `4d6kh3` through the API,
// on one thread, with an Engine built once (its stdlib already loaded):
//
// latency/roll       Engine::roll(source, seed): parse, resolve, run, trace.
// latency/compile    Engine::compile(source) alone.
// latency/run        Engine::run(program, bindings, dice): compiled once, run
//                    again and again with one RandomDice.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "interpreter/api.hpp"

namespace {

constexpr const char* kSource = "4d6kh3";

const alea::Engine& engine() {
  static const alea::Engine e;
  return e;
}

void roll(benchmark::State& state) {
  std::uint64_t seed = 0;
  for (auto _ : state) {
    alea::Outcome o = engine().roll(kSource, seed++);
    benchmark::DoNotOptimize(o);
  }
}

void compile(benchmark::State& state) {
  for (auto _ : state) {
    alea::Compiled c = engine().compile(kSource);
    benchmark::DoNotOptimize(c);
  }
}

void run(benchmark::State& state) {
  const alea::Compiled c = engine().compile(kSource);
  if (!c.ok()) {
    state.SkipWithError("does not compile");
    return;
  }
  const alea::Bindings bindings;
  alea::RandomDice dice(42);
  for (auto _ : state) {
    alea::Outcome o = engine().run(c.program, bindings, dice);
    benchmark::DoNotOptimize(o);
  }
}

BENCHMARK(roll)->Name("latency/roll 4d6kh3")->Unit(benchmark::kNanosecond);
BENCHMARK(compile)->Name("latency/compile 4d6kh3")->Unit(benchmark::kNanosecond);
BENCHMARK(run)->Name("latency/run 4d6kh3")->Unit(benchmark::kNanosecond);

}  // namespace
