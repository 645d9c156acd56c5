// interpreter/sample/sampler.cpp — the sampling loop of one thread.
#include "interpreter/sample/sampler.hpp"

#include "interpreter/eval/evaluator.hpp"

namespace alea {

void sample(const LoweredProgram* fast, const std::shared_ptr<const CompiledProgram>& program,
            const Bindings& bindings, const Limits& limits, RandomDice& dice, std::uint64_t runs,
            SampleSink& sink, std::atomic<std::uint64_t>& done) {
  if (!fast) {
    for (std::uint64_t k = 0; k < runs; ++k) {
      const Outcome o = evaluate(program, bindings, dice, limits);
      if (o.error) sink.fail(o.error->code, &*o.error);
      else if (o.value) sink.add(*o.value, 1);
      if ((k & 1023) == 1023) done.fetch_add(1024, std::memory_order_relaxed);
    }
    return;
  }
  ValueCounts counts;
  // Runs that end in an error are counted by their code; the evaluator runs
  // one again on the same dice when its full diagnostic is wanted, and any run
  // the lowered form could not follow.
  struct Others final : LoweredProgram::Others {
    const LoweredProgram& fast;
    const std::shared_ptr<const CompiledProgram>& program;
    const Bindings& bindings;
    const Limits& limits;
    SampleSink& sink;
    ValueCounts& counts;
    Others(const LoweredProgram& f, const std::shared_ptr<const CompiledProgram>& p, const Bindings& b,
           const Limits& l, SampleSink& s, ValueCounts& c)
        : fast(f), program(p), bindings(b), limits(l), sink(s), counts(c) {}
    void other(const LoweredResult& r, RandomDice& dice, const RandomDice& before) override {
      if (r.status == LoweredResult::Status::Error && !sink.wants(r.code)) {
        sink.fail(r.code, nullptr);
        return;
      }
      dice = before;
      const Outcome o = evaluate(program, bindings, dice, limits);
      if (o.error) {
        sink.fail(o.error->code, &*o.error);
      } else if (o.value) {
        if (const auto key = fast.key_of(*o.value)) counts.add(*key);
        else sink.add(*o.value, 1);
      }
    }
  } others(*fast, program, bindings, limits, sink, counts);
  LoweredProgram::Scratch scratch(*fast);
  fast->run_many(scratch, dice, runs, counts, others, done);
  counts.each([&](std::int64_t key, std::uint64_t n) { sink.add(fast->value_of_key(key), n); });
}

}  // namespace alea
