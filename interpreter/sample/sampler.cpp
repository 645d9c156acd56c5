// interpreter/sample/sampler.cpp — the sampling loop of one thread.
#include "interpreter/sample/sampler.hpp"

#include <algorithm>

#include "interpreter/eval/evaluator.hpp"

namespace alea {

std::uint64_t run_cost(const Outcome& o) {
  // A die costs more than a step: it is drawn, then recorded in the trace.
  constexpr std::uint64_t die_cost = 10;
  return static_cast<std::uint64_t>(std::max<std::int64_t>(1, o.steps)) + die_cost * o.trace.dice.size();
}

namespace {

bool raised(const std::atomic<bool>* flag) { return flag && flag->load(std::memory_order_relaxed); }

}  // namespace

SampleEnd sample(const LoweredProgram* fast, const std::shared_ptr<const CompiledProgram>& program,
                 const Bindings& bindings, const Limits& limits, RandomDice& dice, std::uint64_t runs,
                 const SampleBudget& budget, SampleSink& sink, std::atomic<std::uint64_t>& done) {
  SampleEnd end;
  RunInput input;
  input.cancel = budget.cancel;
  if (!fast) {
    for (std::uint64_t k = 0; k < runs; ++k) {
      if (raised(budget.cancel)) {
        end.cancelled = true;
        break;
      }
      if (end.work >= budget.work) {
        end.out_of_work = true;
        break;
      }
      if (sink.full()) {
        end.out_of_memory = true;
        break;
      }
      const Outcome o = evaluate(program, bindings, dice, limits, input);
      // A run the flag cut off is not one of the program's outcomes.
      if (o.error && o.error->code == DiagCode::Interrupted && raised(budget.cancel)) {
        end.cancelled = true;
        break;
      }
      end.work += run_cost(o);
      ++end.runs;
      if (o.error) sink.fail(o.error->code, &*o.error);
      else if (o.value) sink.add(*o.value, 1);
      if ((k & 1023) == 1023) done.fetch_add(1024, std::memory_order_relaxed);
    }
    return end;
  }
  ValueCounts counts;
  // Runs that end in an error are counted by their code; the evaluator runs
  // one again on the same dice when its full diagnostic is wanted, and any run
  // the lowered form could not follow. A replay is charged what it costs.
  struct Others final : LoweredProgram::Others {
    const LoweredProgram& fast;
    const std::shared_ptr<const CompiledProgram>& program;
    const Bindings& bindings;
    const Limits& limits;
    const RunInput& input;
    SampleSink& sink;
    ValueCounts& counts;
    std::uint64_t work = 0;
    std::uint64_t cut = 0;  // replays the cancel flag cut off: not runs of the program
    Others(const LoweredProgram& f, const std::shared_ptr<const CompiledProgram>& p, const Bindings& b,
           const Limits& l, const RunInput& in, SampleSink& s, ValueCounts& c)
        : fast(f), program(p), bindings(b), limits(l), input(in), sink(s), counts(c) {}
    void other(const LoweredResult& r, RandomDice& dice, const RandomDice& before) override {
      if (r.status == LoweredResult::Status::Error && !sink.wants(r.code)) {
        sink.fail(r.code, nullptr);
        return;
      }
      dice = before;
      const Outcome o = evaluate(program, bindings, dice, limits, input);
      work += run_cost(o);
      if (o.error && o.error->code == DiagCode::Interrupted && raised(input.cancel)) {
        ++cut;
      } else if (o.error) {
        sink.fail(o.error->code, &*o.error);
      } else if (o.value) {
        if (const auto key = fast.key_of(*o.value)) counts.add(*key);
        else sink.add(*o.value, 1);
      }
    }
  } others(*fast, program, bindings, limits, input, sink, counts);
  LoweredProgram::Scratch scratch(*fast);
  const std::uint64_t cost = std::max<std::uint64_t>(1, budget.lowered_cost);
  // In chunks of 1024 runs, between which the flag and the budget are checked.
  while (end.runs < runs) {
    if (raised(budget.cancel)) {
      end.cancelled = true;
      break;
    }
    if (sink.full()) {
      end.out_of_memory = true;
      break;
    }
    const std::uint64_t spent = end.runs * cost + others.work;
    const std::uint64_t affordable = spent >= budget.work ? 0 : (budget.work - spent + cost - 1) / cost;
    const std::uint64_t chunk = std::min({std::uint64_t{1024}, runs - end.runs, affordable});
    if (chunk == 0) {
      end.out_of_work = true;
      break;
    }
    const std::uint64_t cut_before = others.cut;
    fast->run_many(scratch, dice, chunk, counts, others, done);
    end.runs += chunk - (others.cut - cut_before);
    if (others.cut > cut_before) {
      end.cancelled = true;
      break;
    }
  }
  end.work = end.runs * cost + others.work;
  counts.each([&](std::int64_t key, std::uint64_t n) { sink.add(fast->value_of_key(key), n); });
  return end;
}

}  // namespace alea
