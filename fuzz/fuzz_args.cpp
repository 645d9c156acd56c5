// fuzz/fuzz_args.cpp — libFuzzer harness: bytes split on NUL bytes are alea's
// argv (after the program's name), read by parse_args as the program reads
// them. Nothing runs; every exception but bad_alloc would escape as a crash.
// Invariants: parsing ends with a command, or with an exit code and a
// message; what it prints is bounded by the input's size.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/args.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  std::vector<std::string> words{"alea"};
  std::string word;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      words.push_back(std::move(word));
      word.clear();
    } else {
      word += static_cast<char>(data[i]);
    }
  }
  if (size > 0) words.push_back(std::move(word));
  const alea::cli::ParsedArgs parsed = alea::cli::parse_args(words);
  if (parsed.exit_code) {
    const int code = *parsed.exit_code;
    if (code != 0 && code != 2) __builtin_trap();
    // A usage error says what is wrong; help, version and `limits` print something.
    if (code == 2 && parsed.err.empty()) __builtin_trap();
    if (code == 0 && parsed.out.empty()) __builtin_trap();
  }
  // The help of every command is about 10 KiB; a message may quote the input.
  if (parsed.out.size() + parsed.err.size() > 64 * 1024 + 4 * size) __builtin_trap();
  return 0;
}
