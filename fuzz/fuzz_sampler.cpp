// fuzz/fuzz_sampler.cpp — libFuzzer differential harness: the input is source. When it compiles
// and lowers (interpreter/sample/lowered.hpp), the lowered program and the evaluator run from the same
// seeds and must agree roll for roll; and the sampler gives the same statistics either way.
#include <cstdint>
#include <string>
#include <string_view>

#include "interpreter/api.hpp"
#include "interpreter/eval/evaluator.hpp"
#include "interpreter/sample/lowered.hpp"
#include "interpreter/stats.hpp"

namespace {
const alea::Engine& engine() {
  static const alea::Engine e(alea::EngineOptions{{.max_dice = 200,
                                                   .max_explosion_depth = 8,
                                                   .max_rerolls = 8,
                                                   .max_loop_iterations = 100,
                                                   .max_call_depth = 16,
                                                   .max_steps = 20000,
                                                   .max_collection_size = 100},
                                                  {.max_input_bytes = 4096}});
  return e;
}
bool same_place(const alea::Span& a, const alea::Span& b) {
  return a.file == b.file && a.begin == b.begin && a.end == b.end;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const alea::Compiled c = engine().compile(source, "fuzz");
  if (!c.ok()) return 0;
  const alea::Limits& limits = engine().options().limits;
  std::string why;
  const auto fast = alea::LoweredProgram::lower(*c.program, {}, limits, why);
  if (!fast) return 0;
  alea::LoweredProgram::Scratch scratch(*fast);
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    alea::RandomDice walker(seed), lowered(seed);
    const alea::Outcome o = alea::evaluate(c.program, {}, walker, limits);
    const alea::LoweredResult r = fast->run(scratch, lowered);
    using S = alea::LoweredResult::Status;
    if (r.status == S::Unsupported) continue;  // the sampler replays such a run with the evaluator
    if (o.error) {
      if (r.status != S::Error || r.code != o.error->code || !same_place(r.span, o.error->span)) __builtin_trap();
    } else if (!o.value) {
      if (r.status != S::NoValue) __builtin_trap();
    } else {
      const alea::Value want = o.value->as_pool() ? alea::Value(*o.value->number()) : *o.value;
      if (r.status != S::Value || !(fast->value(r) == want)) __builtin_trap();
    }
    if (!(walker == lowered)) __builtin_trap();  // the same dice were drawn
  }
  // The whole sampler, lowered and not: the same counts (one thread, a fixed seed).
  alea::StatsOptions options;
  options.sampled_only = true;
  options.samples = 16;
  options.threads = 1;
  const alea::Stats a = alea::compute_stats(engine(), c.program, {}, options);
  options.lowered = false;
  const alea::Stats b = alea::compute_stats(engine(), c.program, {}, options);
  if (a.value.entries.size() != b.value.entries.size() || a.errors.value != b.errors.value ||
      a.cut_off.value != b.cut_off.value || a.first_error.has_value() != b.first_error.has_value()) {
    __builtin_trap();
  }
  for (std::size_t i = 0; i < a.value.entries.size(); ++i) {
    if (!(a.value.entries[i].value == b.value.entries[i].value) ||
        a.value.entries[i].probability.value != b.value.entries[i].probability.value) {
      __builtin_trap();
    }
  }
  if (a.first_error && alea::render_text(*a.first_error) != alea::render_text(*b.first_error)) __builtin_trap();
  return 0;
}
