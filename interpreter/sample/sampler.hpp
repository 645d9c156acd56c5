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
#include "interpreter/outcome.hpp"
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
  // Whether what it keeps has reached its memory share: sampling then stops.
  [[nodiscard]] virtual bool full() const { return false; }
};

// What one thread may spend. An evaluator run costs its steps plus ten per die;
// a lowered run costs `lowered_cost` (what one evaluator run of the program
// was measured to cost, scaled down), plus the evaluator work of any run
// replayed. A run starts only while work is left, so where a thread stops
// depends on its seed alone.
struct SampleBudget {
  std::uint64_t work = UINT64_MAX;
  std::uint64_t lowered_cost = 1;
  const std::atomic<bool>* cancel = nullptr;  // checked before every run
};

struct SampleEnd {
  std::uint64_t runs = 0;  // runs counted in the sink
  std::uint64_t work = 0;
  bool out_of_work = false;  // stopped by SampleBudget::work
  bool cancelled = false;    // stopped by the cancel flag
  bool out_of_memory = false;  // stopped because the sink was full
};

// Runs `program` up to `runs` times, drawing from `dice`, lowered when `fast`
// is not null. Adds 1024 to `done` every 1024 runs.
SampleEnd sample(const LoweredProgram* fast, const std::shared_ptr<const CompiledProgram>& program,
                 const Bindings& bindings, const Limits& limits, RandomDice& dice, std::uint64_t runs,
                 const SampleBudget& budget, SampleSink& sink, std::atomic<std::uint64_t>& done);

// The work one evaluator run costs, as SampleBudget counts it.
std::uint64_t run_cost(const Outcome& o);

}  // namespace alea
