// interpreter/stats_probe.hpp — how many runs an exact enumeration would take, estimated
// before it starts from a few random runs.
//
// The enumeration runs a program once per path through its rolls, each roll one choice among
// the multisets of its dice. A random run that takes each roll's multisets alike follows one
// path, and the product of the multisets it passed is an unbiased estimate of the number of
// paths (Knuth's estimator of a tree's size). Where every path passes the same rolls (a fixed
// pool, a game whose every turn rolls the same dice) it is exact. Where a few paths are much
// longer than most (a six that explodes into more rolls), most estimates are low and a few
// far too high: the median misses those few paths, the mean sees them if a probe does.
// Either is an estimate, not a bound (one estimate passes k times the true count with
// probability below 1/k).
#pragma once

#include <memory>
#include <optional>

#include "interpreter/eval/evaluator.hpp"

namespace alea {

struct RunEstimate {
  double runs = 0;  // the median of the estimates of the runs the enumeration takes
  double mean = 0;  // and their mean
  int probes = 0;   // random runs made
};

// The estimate, from random runs of a fixed seed (`ordered`: of an enumeration that runs
// each roll's every order, its every sequence of faces); none when they took more than `budget`
// seconds (they are stopped between two runs), or when the cancel flag was raised.
[[nodiscard]] std::optional<RunEstimate> estimate_runs(std::shared_ptr<const CompiledProgram> program,
                                                       const Bindings& bindings, const Limits& limits,
                                                       const RunInput& input, bool ordered, double budget);

}  // namespace alea
