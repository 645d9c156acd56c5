// cli/repl_terminal.hpp — the REPL's line editor on a terminal: libedit with
// completion, history and Ctrl-C that abandons the line being typed.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace alea::cli {

// The words that may follow `before` when `word` is being typed, each with what
// to type after it once it is the only match ('(' after a function, ' ' after a
// word, '\0' for nothing).
using Completer = std::function<std::map<std::string, char>(std::string_view before, std::string_view word)>;

struct ReadResult {
  enum class Kind { Line, Interrupted, End } kind;
  std::string line;
};

// Ctrl-C from now on abandons the line being read (and is otherwise ignored).
// False when the handler could not be installed; lines are still read then.
bool catch_interrupts();

// One per process (libedit keeps its state in globals).
class Terminal {
 public:
  Terminal(Completer completer, const std::vector<std::string>& history);
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;
  ~Terminal();

  // A line typed at `prompt`, a Ctrl-C, or the end of input (Ctrl-D).
  ReadResult read(const char* prompt);

  // Adds an entry to the in-memory history (not twice in a row).
  void remember(const std::string& entry);

 private:
  Completer completer_;
  std::string last_;
};

}  // namespace alea::cli
