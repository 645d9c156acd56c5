// bench/latency_bench.cpp — the latency of one roll of `4d6kh3` through the API, and of
// loading a shipped ruleset, on one thread (the stdlib is never needed here):
//
// latency/parse         parse() of the source alone (dsl/parser.hpp): text to AST.
// latency/roll          Engine::roll(source, seed): parse, resolve, run, trace;
//                       cold: the Engine keeps no compiled programs
//                       (EngineOptions::compile_cache = 0), so every call compiles.
// latency/roll cached   the same with the default Engine, whose compile cache
//                       hands back the program compiled by the first call, as
//                       a host rolling the same expression again gets it.
// latency/compile       Engine::compile(source) alone, cold.
// latency/run           Engine::run(program, bindings, dice): compiled once, run
//                       again and again with one RandomDice.
// latency/load          Engine::load_ruleset_file of a shipped ruleset into a
//                       fresh Engine (and its end), as each `alea` command that
//                       names a mechanic does once.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "dsl/parser.hpp"
#include "interpreter/api.hpp"

namespace {

constexpr const char* kSource = "4d6kh3";

const alea::Engine& cold_engine() {
  static const alea::Engine e([] {
    alea::EngineOptions o;
    o.compile_cache = 0;
    return o;
  }());
  return e;
}

const alea::Engine& caching_engine() {
  static const alea::Engine e;
  return e;
}

void parse(benchmark::State& state) {
  for (auto _ : state) {
    const auto file = alea::SourceFile::make("<input>", kSource);
    alea::ParseResult r = alea::parse(*file);
    benchmark::DoNotOptimize(r);
  }
}

void roll(benchmark::State& state, const alea::Engine& engine) {
  std::uint64_t seed = 0;
  for (auto _ : state) {
    alea::Outcome o = engine.roll(kSource, seed++);
    benchmark::DoNotOptimize(o);
  }
}

void compile(benchmark::State& state) {
  for (auto _ : state) {
    alea::Compiled c = cold_engine().compile(kSource);
    benchmark::DoNotOptimize(c);
  }
}

void run(benchmark::State& state) {
  const alea::Compiled c = cold_engine().compile(kSource);
  if (!c.ok()) {
    state.SkipWithError("does not compile");
    return;
  }
  const alea::Bindings bindings;
  alea::RandomDice dice(42);
  for (auto _ : state) {
    alea::Outcome o = cold_engine().run(c.program, bindings, dice);
    benchmark::DoNotOptimize(o);
  }
}

void load(benchmark::State& state, const char* name) {
  const std::string path = std::string(ALEA_SOURCE_DIR) + "/rulesets/" + name + ".yaml";
  for (auto _ : state) {
    alea::Engine e;
    if (!e.load_ruleset_file(path).empty()) {
      state.SkipWithError("does not load");
      return;
    }
    benchmark::DoNotOptimize(e);
  }
}

BENCHMARK(parse)->Name("latency/parse 4d6kh3")->Unit(benchmark::kNanosecond);
BENCHMARK_CAPTURE(roll, cold, cold_engine())->Name("latency/roll 4d6kh3")->Unit(benchmark::kNanosecond);
BENCHMARK_CAPTURE(roll, cached, caching_engine())->Name("latency/roll cached 4d6kh3")->Unit(benchmark::kNanosecond);
BENCHMARK(compile)->Name("latency/compile 4d6kh3")->Unit(benchmark::kNanosecond);
BENCHMARK(run)->Name("latency/run 4d6kh3")->Unit(benchmark::kNanosecond);
BENCHMARK_CAPTURE(load, strategiya, "strategiya")->Name("latency/load strategiya")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(load, heroes_mythos, "heroes-mythos")->Name("latency/load heroes-mythos")->Unit(benchmark::kMillisecond);

}  // namespace
