// fuzz/fuzz_state.cpp — libFuzzer harness: a state file's JSON. parse_state_json never throws
// and gives a state xor diagnostics, each inside the input and renderable; a state that parses
// prints (state_to_json) to text that parses back to the same state and prints the same, and
// can be checked against a ruleset with counters of every type.
#include <cstdint>
#include <string>
#include <string_view>

#include "interpreter/api.hpp"

namespace {

const alea::Engine& engine() {
  static const alea::Engine e = [] {
    alea::Engine out;
    const alea::Diagnostics d = out.load_ruleset_text(
        "schema: 1\nname: x\ntitle: X\nsource: fuzz\n"
        "state:\n"
        "  n: {type: int, min: 0, max: 3, default: 0, doc: a counter}\n"
        "  b: {type: bool, default: false, doc: a flag}\n"
        "  s: {type: string, default: \"\", doc: a note}\n"
        "  l: {type: list, default: [], doc: a list}\n"
        "mechanics:\n  m: {doc: d, body: \"1\", returns: {type: int, doc: one}}\n",
        "x.yaml");
    if (!d.empty()) __builtin_trap();
    return out;
  }();
  return e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 8192) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const alea::StateParse parsed = alea::parse_state_json(text, "fuzz.json");
  if (parsed.state.has_value() == !parsed.diagnostics.empty()) __builtin_trap();  // one or the other
  if (!parsed.state) {
    for (const auto& d : parsed.diagnostics) {
      if (d.code != alea::DiagCode::StateInvalid || d.span.end > size) __builtin_trap();
    }
    if (alea::render_text(parsed.diagnostics).rfind("fuzz.json:", 0) != 0) __builtin_trap();
    return 0;
  }
  const std::string printed = alea::state_to_json(*parsed.state);
  const alea::StateParse again = alea::parse_state_json(printed, "again.json");
  if (!again.state || !(*again.state == *parsed.state)) __builtin_trap();
  if (alea::state_to_json(*again.state) != printed) __builtin_trap();
  (void)engine().check_state(*parsed.state);
  return 0;
}
