// interpreter/stats_probe.hpp — how many runs an exact enumeration would take, estimated
// before it starts from a few random runs.
//
// The enumeration runs a program once per path through its rolls, each roll one choice among
// the multisets of its dice. A random run follows one path with its probability P, and 1/P is
// an unbiased estimate of the number of paths (Knuth's estimator of a tree's size, with the
// choices weighted by their probabilities). One estimate can be far off either way, and it
// passes k times the true count N with probability below 1/k (Markov). The median of several
// is an estimate, not a bound: a game of 15,876 paths gave 11,664 to 46,656, median 11,664.
#pragma once

#include <memory>
#include <optional>

#include "interpreter/eval/evaluator.hpp"

namespace alea {

struct RunEstimate {
  double runs = 0;  // the median of the estimates of the runs the enumeration takes
  int probes = 0;   // random runs made
};

// The estimate, from random runs of a fixed seed; none when they took more than `budget`
// seconds (they are stopped between two runs), or when the cancel flag was raised.
[[nodiscard]] std::optional<RunEstimate> estimate_runs(std::shared_ptr<const CompiledProgram> program,
                                                       const Bindings& bindings, const Limits& limits,
                                                       const RunInput& input, double budget);

}  // namespace alea
