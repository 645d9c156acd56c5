// cli/repl_terminal.cpp — libedit for the REPL: completion through the
// Completer, keys read so that Ctrl-C is never missed, history in memory.
#include "cli/repl_terminal.hpp"
#include "cli/history.hpp"
#include "cli/interrupt.hpp"

#include <editline/readline.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace alea::cli {
namespace {

// libedit calls plain C functions, so completion reaches the Terminal's
// completer through these globals.
const Completer* active_completer = nullptr;
std::vector<std::string> completion_matches;
std::size_t completion_next = 0;

extern "C" char* next_completion(const char* /*text*/, int state) {
  if (state == 0) completion_next = 0;
  if (completion_next >= completion_matches.size()) return nullptr;
  return ::strdup(completion_matches[completion_next++].c_str());
}

extern "C" char** complete(const char* text, int start, int /*end*/) {
  rl_attempted_completion_over = 1;  // no file names
  completion_matches.clear();
  if (!active_completer) return nullptr;
  const std::string_view line(rl_line_buffer ? rl_line_buffer : "");
  const std::string_view before =
      line.substr(0, std::min(static_cast<std::size_t>(start), line.size()));
  const std::string_view prefix(text);
  char after = ' ';
  for (const auto& [w, a] : (*active_completer)(before, prefix)) {
    if (w.starts_with(prefix)) {
      completion_matches.push_back(w);
      after = a;
    }
  }
  // libedit reads this once the match is unique.
  rl_completion_append_character = completion_matches.size() == 1 ? after : ' ';
  return rl_completion_matches(text, next_completion);
}

// Ctrl-C abandons the line being typed (and an unfinished input) and gives a
// fresh prompt, as in Python's REPL. While an input is being evaluated, its
// odds computed or its result printed, it raises cancel_flag(), which stops
// that work and brings back the prompt with the session intact.
//
// The handler only sets a flag and writes to a pipe. libedit reads keys through
// read_key() below, which waits on the terminal and on that pipe together, so
// a Ctrl-C is seen however it falls between two reads (libedit's own read
// retries once after EINTR, and misses a signal that arrives between reads).
volatile std::sig_atomic_t interrupted = 0;
int interrupt_pipe[2] = {-1, -1};

extern "C" void on_interrupt(int) {
  const int saved = errno;
  interrupted = 1;
  cancel_flag().store(true, std::memory_order_relaxed);
  [[maybe_unused]] const auto n = ::write(interrupt_pipe[1], "!", 1);
  errno = saved;
}

}  // namespace

bool catch_interrupts() {
  if (::pipe2(interrupt_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return false;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  return sigaction(SIGINT, &action, nullptr) == 0;
}

namespace {

void forget_interrupts() {
  char buf[64];
  while (::read(interrupt_pipe[0], buf, sizeof buf) > 0) {
  }
  interrupted = 0;
  cancel_flag().store(false, std::memory_order_relaxed);
}

// One key for libedit, as a Unicode code point (UTF-8 is decoded here because
// libedit passes what this returns straight on as a wide character), or EOF
// at the end of input or on Ctrl-C.
extern "C" int read_key(FILE* /*stream*/) {
  unsigned char bytes[4];
  std::size_t have = 0, need = 1;
  while (have < need) {
    if (interrupted) return EOF;
    pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {interrupt_pipe[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return EOF;
    }
    if (fds[1].revents != 0) return EOF;
    const ssize_t n = ::read(STDIN_FILENO, bytes + have, 1);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return EOF;
    if (have == 0) {
      const unsigned char b = bytes[0];
      need = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    } else if ((bytes[have] & 0xC0) != 0x80) {
      return bytes[have];  // not UTF-8: drop what came before this byte
    }
    ++have;
  }
  if (need == 1) return bytes[0];
  int code = bytes[0] & (0x7F >> need);
  for (std::size_t i = 1; i < need; ++i) code = (code << 6) | (bytes[i] & 0x3F);
  return code;
}

// This libedit prints the prompt before it puts the terminal in raw mode (it
// does that at its first read), so keys typed as soon as the prompt appears
// were echoed twice and a Ctrl-D there was lost. Going raw before the prompt
// closes that window; libedit restores the mode when the line is done.
extern "C" int raw_before_prompt() {
  rl_prep_terminal(1);
  return 0;
}

}  // namespace

Terminal::Terminal(Completer completer, const std::vector<std::string>& history)
    : completer_(std::move(completer)) {
  active_completer = &completer_;
  rl_readline_name = "alea";
  // ':' stays inside a word so that ':se<TAB>' completes a command.
  static char breaks[] = " \t\n\"'()[]{},;+-*/%<>=!~";
  rl_completer_word_break_characters = breaks;
  rl_basic_word_break_characters = breaks;
  rl_attempted_completion_function = complete;
  rl_pre_input_hook = raw_before_prompt;
  if (interrupt_pipe[0] >= 0) rl_getc_function = read_key;  // read before rl_initialize()
  rl_initialize();
  using_history();
  stifle_history(static_cast<int>(history_cap));
  for (const auto& e : history) remember(e);
}

Terminal::~Terminal() { active_completer = nullptr; }

ReadResult Terminal::read(const char* prompt) {
  forget_interrupts();  // a Ctrl-C during the last evaluation, already acted on
  char* raw = readline(prompt);
  if (!raw) return {interrupted ? ReadResult::Kind::Interrupted : ReadResult::Kind::End, {}};
  std::string line(raw);
  std::free(raw);
  return {ReadResult::Kind::Line, std::move(line)};
}

void Terminal::remember(const std::string& entry) {
  if (last_ == entry) return;
  add_history(entry.c_str());
  last_ = entry;
}

}  // namespace alea::cli
