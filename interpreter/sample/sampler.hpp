// interpreter/sample/sampler.hpp — one thread's share of a sampling run.
//
// The runs go through the lowered program when there is one (lowered.hpp):
// no trace, no allocation per run, values counted in a flat histogram. Runs
// that end in an error are counted by their code, and one of them is replayed
// by the evaluator from the same generator state when its full diagnostic is
// wanted; a run the lowered form cannot follow is replayed the same way.
// Without a lowered program every run goes through the evaluator. Either way
// the runs, their values and the generator's state afterwards are those of
// the evaluator alone.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "dsl/diagnostic.hpp"
#include "interpreter/values/bindings.hpp"
#include "interpreter/values/dice.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/sample/lowered.hpp"
#include "interpreter/program.hpp"
#include "interpreter/values/value.hpp"

namespace alea {

// Where one thread's runs are counted.
class SampleSink {
 public:
  virtual ~SampleSink() = default;
  // `times` runs gave `v`. Values come in the order first met.
  virtual void add(const Value& v, std::uint64_t times) = 0;
  // A run ended in an error with `code`; `full` is its diagnostic, given when
  // wants() asked for it (and whenever the evaluator ran it).
  virtual void fail(DiagCode code, const Diagnostic* full) = 0;
  [[nodiscard]] virtual bool wants(DiagCode code) const = 0;
};

// Runs `program` `runs` times, drawing from `dice`, lowered when `fast` is not
// null. Adds 1024 to `done` every 1024 runs.
void sample(const LoweredProgram* fast, const std::shared_ptr<const CompiledProgram>& program,
            const Bindings& bindings, const Limits& limits, RandomDice& dice, std::uint64_t runs,
            SampleSink& sink, std::atomic<std::uint64_t>& done);

}  // namespace alea
