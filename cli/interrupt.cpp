// cli/interrupt.cpp — see interrupt.hpp.
#include "cli/interrupt.hpp"

#include <csignal>

namespace alea::cli {

namespace {

std::atomic<bool> requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void on_first_interrupt(int) { requested.store(true, std::memory_order_relaxed); }

}  // namespace

std::atomic<bool>& cancel_flag() { return requested; }

void stop_on_interrupt(bool interrupt_reads) {
  struct sigaction action {};
  action.sa_handler = on_first_interrupt;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND puts the default back as the handler runs: the second Ctrl-C kills.
  action.sa_flags = (interrupt_reads ? 0 : SA_RESTART) | SA_RESETHAND;
  sigaction(SIGINT, &action, nullptr);
}

}  // namespace alea::cli
