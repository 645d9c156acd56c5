// interpreter/exact/exact.hpp — internal: the composed exact engine, which
// compute_stats tries before enumerating runs (stats.cpp).
//
// It computes the distribution of every expression once and combines them
// (exact_compose.hpp), which takes microseconds where running the program once
// per outcome takes seconds. It covers most programs; for the others it says
// why (an error some roll would meet, an operation that reads the order of a
// roll's dice, a loop that depends on dice…) and the caller enumerates.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/values/bindings.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/program.hpp"
#include "interpreter/stats.hpp"

namespace alea {
// Whether `program` may read the order of a roll's dice: an index, a `for`, or
// an operation that sees it (stats.cpp). The enumeration then checks each
// value against the order; the composer keeps the order of roll_each's dice.
bool may_read_order(const ast::Program& program);
}  // namespace alea

namespace alea::compose {

struct Composed {
  std::optional<Stats> stats;  // set when composing applied
  std::string why_not;         // otherwise, why
  std::string limit;           // the limit that stopped it, when one did (max_odds_work…)
  bool interrupted = false;    // the cancel flag stopped it
  bool cut_rare_chains = false;  // some combination of chains was cut as rare (rare_chains)
  std::vector<std::string> loop_counters;  // the fields loops moved as counters, sorted (exact_compose_counters.cpp)
  std::uint64_t summaries = 0;  // let values whose pools were held as summaries (exact_compose_summary.cpp)
  std::uint64_t work = 0;       // the units of work it did (max_odds_work), whether or not it applied
};

// Why composing stopped at `limit` (max_branches, max_odds_work, max_odds_memory, time_limit), naming it.
std::string over_budget_reason(const std::string& limit, const StatsOptions& options, const Limits& limits);

// The multisets of n dice over k faces, C(n + k - 1, k - 1), or UINT64_MAX past
// 2^62: how many outcomes a roll of n such dice has, order aside.
std::uint64_t multisets(std::uint64_t n, std::uint64_t k);

// `limits` as the enumeration uses them (explosions cut at the depth asked for);
// the attempt started at `start` and gives up at `deadline` (no deadline: max()).
// With `rare_chains`, a pool's combinations of explosion chains rarer than 1 in
// that many are cut off too (Budget::rare_chains).
Composed compose_stats(const CompiledProgram& program, const Bindings& bindings, const Limits& limits,
                       const StatsOptions& options,
                       std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now(),
                       std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max(),
                       std::uint64_t rare_chains = 0);

}  // namespace alea::compose
