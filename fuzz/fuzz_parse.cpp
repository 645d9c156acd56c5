// fuzz/fuzz_parse.cpp — libFuzzer harness: parse; a parsed program prints to a fixed point.
#include <cstdint>
#include <string>

#include "dsl/parser.hpp"
#include "dsl/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const auto file =
      alea::SourceFile::make("fuzz", std::string(reinterpret_cast<const char*>(data), size));
  const alea::ParseResult first = alea::parse(*file);
  if (!first.ok()) {
    if (first.diagnostics.size() != 1) __builtin_trap();
    return 0;
  }
  const std::string printed = alea::print(*first.program);
  const auto again = alea::SourceFile::make("fuzz", printed);
  const alea::ParseResult second = alea::parse(*again, {.max_input_bytes = printed.size()});
  // Printing parenthesises every operation: the print of a flat `1+1+…` can pass max_nesting.
  if (!second.ok() && second.diagnostics.front().code == alea::DiagCode::NestingTooDeep) return 0;
  if (!second.ok() || alea::print(*second.program) != printed) __builtin_trap();
  return 0;
}
