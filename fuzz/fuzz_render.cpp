// fuzz/fuzz_render.cpp — libFuzzer harness: the input is a program, run with roomy value
// limits and rendered every way under a small max_render_size.
//
// Values may be large and share their parts (`[x, x]` doubled); the oracle traps on:
//   - a crash, a sanitizer report, an exception escaping, or a hang past -timeout (rendering
//     must cost in proportion to max_render_size, whatever the value);
//   - to_display, render_breakdown or render_value_json longer than max_render_size;
//   - render_json longer than it, unless it is the refusal (which repeats the expression);
//   - JSON that does not parse.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "interpreter/api.hpp"

namespace {
constexpr std::int64_t max_render = 3000;
const alea::Engine& engine() {
  static const alea::Engine e(alea::EngineOptions{{.max_dice = 500,
                                                   .max_loop_iterations = 200,
                                                   .max_call_depth = 16,
                                                   .max_steps = 50000,
                                                   .max_collection_size = 200,
                                                   .max_value_size = 1'000'000,
                                                   .max_string_length = 20000,
                                                   .max_render_size = max_render},
                                                  {.max_input_bytes = 4096}});
  return e;
}
void valid_json(const std::string& s) {
  if (!nlohmann::json::accept(s)) __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const alea::Compiled c = engine().compile(source, "fuzz");
  if (!c.ok()) return 0;
  alea::ExtremeDice max_dice(alea::ExtremeDice::End::Max);
  const alea::Outcome o = engine().run(c.program, {}, max_dice);
  const auto limit = static_cast<std::size_t>(max_render);
  if (alea::render_breakdown(o, max_render).size() > limit) __builtin_trap();
  const std::string doc = alea::render_json(o, source, std::nullopt, max_render);
  valid_json(doc);
  // The expression as the refusal quotes it (invalid UTF-8 replaced, as the renderer does).
  const std::size_t refusal =
      nlohmann::json(std::string(source)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size() + 400;
  if (doc.size() > limit && (doc.find("max_render_size") == doc.npos || doc.size() > refusal)) __builtin_trap();
  if (o.value) {
    if (alea::to_display(*o.value, max_render).size() > limit) __builtin_trap();
    const std::string v = alea::render_value_json(*o.value, max_render);
    valid_json(v);
    if (v.size() > limit) __builtin_trap();
  }
  return 0;
}
