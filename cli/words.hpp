// cli/words.hpp — a line of the REPL split into words, as a shell splits a command line, for
// the commands that take the command line's arguments (`my-game.check dice=3`, `:stats 3d6
// --exact`, `:compare 'd20 + 2' 2d10`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace alea::cli {

// The words of a line, split at spaces and tabs outside brackets ((), [], {}) and quotes:
// `hero={str: 4, lives: 8} others=["B", "C"]` is two words. Single quotes group as a shell's
// do and are removed (`'d20 + 2'` is the word d20 + 2); the language has none. Double quotes
// are the language's strings and stay.
[[nodiscard]] std::vector<std::string> split_words(std::string_view text);

}  // namespace alea::cli
