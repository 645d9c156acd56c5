// fuzz/fuzz_eval.cpp — libFuzzer harness: first line = dice faces, the rest = source, run under
// tight Limits.
//
// The oracle accepts every documented outcome (a value, or an error with a place; a program of
// only `fn`s gives neither) and traps on:
//   - a crash, a sanitizer report, or an exception escaping (a renderer that throws included);
//   - a hang past libFuzzer's -timeout: every limit below is far under it;
//   - a result that differs when the same input runs twice (text and JSON compared);
//   - both a value and an error, or neither;
//   - more dice rolled than max_dice;
//   - a diagnostic whose primary place is not in the input: an error inside the stdlib is
//     reported at the input's call (dsl/diagnostic.hpp, locate_in_user_code).
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/api.hpp"
#include "interpreter/program.hpp"

namespace {
const alea::Engine& engine() {
  static const alea::Engine e(alea::EngineOptions{{.max_dice = 200,
                                                   .max_loop_iterations = 100,
                                                   .max_call_depth = 16,
                                                   .max_steps = 20000,
                                                   .max_collection_size = 100},
                                                  {.max_input_bytes = 4096}});
  return e;
}
void check(const alea::Diagnostic& d) {  // placed in the input, and it renders
  if (d.span.empty() || d.span.in_library() || d.span.file->name() != "fuzz") __builtin_trap();
  if (alea::render_text(d).rfind("fuzz:", 0) != 0) __builtin_trap();
}
std::string run(std::string_view source, alea::DiceSource&& dice) {
  const alea::Compiled c = engine().compile(source, "fuzz");
  for (const auto& d : c.diagnostics) check(d);
  alea::Outcome o;
  if (c.ok()) o = engine().run(c.program, {}, dice);
  if (!c.ok()) o.error = c.diagnostics.front();
  // A value xor an error; a program of only `fn`s has neither.
  const auto only_fn = [](const auto& s) { return std::holds_alternative<alea::ast::FnDef>(s); };
  const bool only_fns =
      c.ok() && !c.program->ast->main &&
      std::all_of(c.program->ast->statements.begin(), c.program->ast->statements.end(), only_fn);
  if (o.value.has_value() == o.error.has_value() && !(only_fns && !o.error)) __builtin_trap();
  if (o.trace.dice.size() > 200) __builtin_trap();
  if (o.error) check(*o.error);
  return alea::render_breakdown(o) + "\n" + alea::render_json(o, source);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  const std::size_t nl = in.find('\n');  // no newline: no faces, all source (npos + 1 == 0)
  const std::string_view head = nl == in.npos ? "" : in.substr(0, nl), source = in.substr(nl + 1);
  std::vector<std::int64_t> faces;
  for (std::size_t i = 0, comma = 0; i < head.size(); i = comma + 1) {
    comma = std::min(head.find(',', i), head.size());
    if (std::int64_t v = 0;
        std::from_chars(head.data() + i, head.data() + comma, v).ec == std::errc{})
      faces.push_back(v);
  }
  if (run(source, alea::ScriptedDice(faces)) != run(source, alea::ScriptedDice(faces)))
    __builtin_trap();
  (void)run(source, alea::ExtremeDice(alea::ExtremeDice::End::Max));
  return 0;
}
