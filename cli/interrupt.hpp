// cli/interrupt.hpp — Ctrl-C as a request to stop: one process-wide flag that
// every evaluation and every odds computation polls (RunInput::cancel,
// StatsOptions::cancel), so that a run ends cleanly with `Interrupted`.
#pragma once

#include <atomic>

#include "cli/exit_codes.hpp"  // exit_interrupted

namespace alea::cli {

// The flag; set from a signal handler, read by running evaluations.
[[nodiscard]] std::atomic<bool>& cancel_flag();

// For one command (`roll`, `run`, `stats`, `check`): the first Ctrl-C sets the
// flag and the command stops at its next poll; a second one kills at once.
// With `interrupt_reads`, a read blocked at that moment fails (EINTR) rather
// than going on waiting: a script read from a pipe stops there.
void stop_on_interrupt(bool interrupt_reads = false);

}  // namespace alea::cli
