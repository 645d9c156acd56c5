// bench/exact_bench.cpp — time of compute_stats with default options (exact:
// composed, or enumerated when composing does not apply, within the default
// time limit, 1.5 s; sampling beyond it, so a case near that border may be
// exact on one machine and sampled on another: read the "exact" counter).
//
// `exact/…` times compute_stats alone: the Stats a library user gets, with
// every probability's double, the mean, sd and exact mean. An exact
// probability's text in lowest terms (Probability::exact()) is written only
// when asked, so `exact_text/…` times compute_stats plus exact() on every
// probability it returns: what `alea stats --json` pays before printing.
//
// Each case records the counters "exact" (1 = exact, 0 = fell back to
// sampling, with the reason as the label), "composed" (1 = composed, 0 =
// enumerated, with why composing did not apply as the label) and "runs"
// (branches combined, outcomes enumerated or samples drawn), so a case that
// was sampled or enumerated is never read as a composed time.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"

namespace {

const alea::Engine& engine() {
  static const alea::Engine e;
  return e;
}

// The engine with the shipped rulesets, for their mechanics.
const alea::Engine& ruleset_engine() {
  static alea::Engine e;
  static const bool loaded = [] {
    for (const char* name : {"heroes-mythos", "dozen-die", "strategiya", "crystal-die"}) {
      if (!e.load_ruleset_file(std::string(ALEA_SOURCE_DIR) + "/rulesets/" + name + ".yaml").empty()) std::abort();
    }
    return true;
  }();
  (void)loaded;
  return e;
}

// Every exact fraction of `s`, written as text; their total length.
std::size_t write_every_fraction(const alea::Stats& s) {
  std::size_t n = s.unresolved.exact().size() + s.cut_off.exact().size() + s.errors.exact().size();
  for (const auto& e : s.value.entries) n += e.probability.exact().size();
  for (const auto& f : s.fields) {
    for (const auto& e : f.entries) n += e.probability.exact().size();
  }
  return n;
}

void exact_case(benchmark::State& state, const char* source, bool text,
                const alea::Engine& (*engine_of)() = engine) {
  const alea::Engine& engine = engine_of();
  const alea::Compiled c = engine.compile(source);
  if (!c.ok()) {
    state.SkipWithError(("does not compile: " + std::string(source)).c_str());
    return;
  }
  const alea::Bindings bindings;
  const alea::StatsOptions options;  // the defaults, as `alea stats` uses them
  alea::Stats last;
  for (auto _ : state) {
    last = alea::compute_stats(engine, c.program, bindings, options);
    benchmark::DoNotOptimize(last.value.mean);
    if (text) benchmark::DoNotOptimize(write_every_fraction(last));
  }
  const bool exact = last.method == alea::StatsMethod::Exact;
  const bool composed = exact && last.exact_method == "composed";
  state.counters["exact"] = exact ? 1 : 0;
  state.counters["composed"] = composed ? 1 : 0;
  state.counters["runs"] = static_cast<double>(last.runs);
  // Which answer was timed: with no depth given, explosion chains are followed
  // until less than 1e-12 of the runs are cut off (StatsOptions::explosion_depth).
  state.counters["cut_off"] = last.cut_off.value;
  state.counters["explosion_depth"] = static_cast<double>(last.explosion_depth);
  std::string label;
  if (!exact)
    label = "SAMPLED: " + last.reason;
  else if (!composed)
    label = "enumerated: " + last.not_composed;
  if (last.first_error)
    label += (label.empty() ? "" : "; ") + ("error: " + last.first_error->message);
  if (!label.empty()) state.SetLabel(label);
}

// Sampling falls back onto every core, so time is wall-clock time.
#define ALEA_EXACT(name, source)                          \
  BENCHMARK_CAPTURE(exact_case, name, source, false)      \
      ->Name("exact/" source)                             \
      ->UseRealTime()                                     \
      ->Unit(benchmark::kMicrosecond);                    \
  BENCHMARK_CAPTURE(exact_case, name##_text, source, true) \
      ->Name("exact_text/" source)                        \
      ->UseRealTime()                                     \
      ->Unit(benchmark::kMicrosecond)

ALEA_EXACT(3d6, "3d6");
ALEA_EXACT(4d6kh3, "4d6kh3");
ALEA_EXACT(10d10kh3, "10d10kh3");
ALEA_EXACT(20d6ge5, "20d6>=5");
ALEA_EXACT(3d6x2, "3d6 explode 6 limit 2");
ALEA_EXACT(3d6x5, "3d6 explode 6 limit 5");
ALEA_EXACT(12d12le7, "12d12<=7");
ALEA_EXACT(5d6, "5d6");
ALEA_EXACT(40d6, "40d6");
ALEA_EXACT(100d6, "100d6");
ALEA_EXACT(200d6, "200d6");
ALEA_EXACT(500d6, "500d6");
ALEA_EXACT(10d6kh5, "10d6kh5");
ALEA_EXACT(opposed, "3d12 under 7 vs 2d12 under 6");

// A spine of lets: `b` reads nothing of `a`, so it is computed once.
ALEA_EXACT(let_spine, "let a = 10d10kh3 in let b = 10d10kh3 in a > b");
ALEA_EXACT(inline_pair, "10d10kh3 > 10d10kh3");
ALEA_EXACT(sum_repeat, "sum(repeat 6 { 4d6kh3 })");
// Explode, then keep: each die with its explosions folded into the kept end.
ALEA_EXACT(explode_keep, "8d6 explode 6 limit 3 keep highest 3");
// A roll cancelled by a roll, counted face by face (cancel's on_rolls).
ALEA_EXACT(cancel_rolls, "let w = 8d6 in let r = 6d6 in let k = w cancel r<= combine except 6 in len(k)");

// Whole mechanics of the shipped rulesets.
#define ALEA_MECHANIC(name, source)                                        \
  BENCHMARK_CAPTURE(exact_case, name, source, false, ruleset_engine)       \
      ->Name("mechanic/" source)                                           \
      ->UseRealTime()                                                      \
      ->Unit(benchmark::kMillisecond)

// No explode_limit (the game's default): chains followed until less than 1e-12 is cut off.
ALEA_MECHANIC(hm_3_1, "heroes_mythos.check(3, red: 1)");
ALEA_MECHANIC(hm_6_0, "heroes_mythos.check(6)");
ALEA_MECHANIC(hm_5_2, "heroes_mythos.check(5, red: 2, explode_limit: 3)");
ALEA_MECHANIC(hm_6_6, "heroes_mythos.check(6, red: 6, explode_limit: 3)");
ALEA_MECHANIC(hm_7_2, "heroes_mythos.check(7, red: 2, explode_limit: 3)");
// Eight white dice: the most the 0.1 s target names.
ALEA_MECHANIC(hm_8_0, "heroes_mythos.check(8, explode_limit: 3)");
ALEA_MECHANIC(hm_8_6, "heroes_mythos.check(8, red: 6, explode_limit: 3)");
ALEA_MECHANIC(hm_8_4_d25, "heroes_mythos.check(8, red: 4, difficulty: 25, explode_limit: 3)");
ALEA_MECHANIC(hm_8_0_unlimited, "heroes_mythos.check(8)");
// Up to twelve white dice: the 1 s target.
ALEA_MECHANIC(hm_10_0, "heroes_mythos.check(10, explode_limit: 3)");
ALEA_MECHANIC(hm_12_6, "heroes_mythos.check(12, red: 6, explode_limit: 3)");
ALEA_MECHANIC(dd_melee, "dozen_die.melee({pool: 2, ST: 7}, {pool: 1, ST: 6})");
// A loop over a battle's states, calling the same functions on the same values.
ALEA_MECHANIC(duel, "strategiya.combat_duel({str: 3}, {str: 3})");
// One hero against two, the example `describe` shows without its log: the rolls and turns
// only count, and the rounds share their transitions.
ALEA_MECHANIC(battle, "strategiya.combat_battle([{str: 4}], [{str: 2}, {str: 2}])");

// Mechanics that stay sampled: 1,000 games from seed 1 on one thread, on the evaluator
// (records, lists and loops are not lowered), so that the time is the time of 1,000 games.
void sampled_case(benchmark::State& state, const char* source) {
  const alea::Engine& engine = ruleset_engine();
  const alea::Compiled c = engine.compile(source);
  if (!c.ok()) {
    state.SkipWithError(("does not compile: " + std::string(source)).c_str());
    return;
  }
  alea::StatsOptions options;
  options.sampled_only = true;
  options.samples = 1000;
  options.seed = 1;
  options.threads = 1;
  alea::Stats last;
  for (auto _ : state) {
    last = alea::compute_stats(engine, c.program, {}, options);
    benchmark::DoNotOptimize(last.runs);
  }
  state.counters["runs"] = static_cast<double>(last.runs);
  if (last.method != alea::StatsMethod::Sampled || last.runs != options.samples) state.SetLabel("NOT 1000 SAMPLES");
}

#define ALEA_SAMPLED(name, shown, source)           \
  BENCHMARK_CAPTURE(sampled_case, name, source)    \
      ->Name("sampled_mechanic/" shown)            \
      ->UseRealTime()                              \
      ->Unit(benchmark::kMillisecond)

ALEA_SAMPLED(battle_sampled, "strategiya.combat_battle([{str: 4}], [{str: 2}, {str: 2}])",
             "strategiya.combat_battle([{str: 4}], [{str: 2}, {str: 2}])");
// Two full armies of nine dice each (an attack, a defence and a life die of each colour):
// 6^18 games, sampled.
ALEA_SAMPLED(skirmish_sampled, "crystal_die.skirmish(two armies of 9)",
             "crystal_die.skirmish([{type: \"attack\", colour: \"red\"}, {type: \"attack\", colour: \"blue\"}, "
             "{type: \"attack\", colour: \"green\"}, {type: \"defence\", colour: \"red\"}, {type: \"defence\", "
             "colour: \"blue\"}, {type: \"defence\", colour: \"green\"}, {type: \"life\", colour: \"red\"}, {type: "
             "\"life\", colour: \"blue\"}, {type: \"life\", colour: \"green\"}], [{type: \"attack\", colour: "
             "\"red\"}, {type: \"attack\", colour: \"blue\"}, {type: \"attack\", colour: \"green\"}, {type: "
             "\"defence\", colour: \"red\"}, {type: \"defence\", colour: \"blue\"}, {type: \"defence\", colour: "
             "\"green\"}, {type: \"life\", colour: \"red\"}, {type: \"life\", colour: \"blue\"}, {type: \"life\", "
             "colour: \"green\"}])");

}  // namespace
