// interpreter/sample/lowered.hpp — a compiled program lowered for the sampler: it
// runs without a trace and without allocating per run.
//
// A LoweredProgram agrees with the evaluator roll for roll: run on a
// RandomDice, it draws the same faces in the same pools in the same order and
// ends with the same value, or with an error of the same code at the same
// place, leaving the generator in the same state. It covers dice of every
// form; explode, compound, penetrate (with limits), reroll, keep/drop, count,
// under, sort, unique and clamp; arithmetic, comparisons, booleans, `if`,
// `let`, tiers, indexing a pool, program-level lets, the builtins whose table
// row gives a Lowering (builtin_table.hpp: sum, len, min, max, abs, the
// divisions, clamp and note), names bound by the host or a ruleset to
// numbers, booleans, strings or none, and calls of functions that are not
// recursive (inlined). Anything else (lists, records,
// roll_each, cancel, vs, loops, a mechanic's state changes, …) is not lowered;
// the sampler then uses the evaluator. A run is given no state and no choices
// (as evaluate() with no RunInput): a counter is its default, a choice none.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "interpreter/values/bindings.hpp"
#include "interpreter/values/dice.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/program.hpp"
#include "interpreter/values/value.hpp"
#include "interpreter/values/value_counts.hpp"

namespace alea {

namespace lowered {
struct Run;
struct FaceList;
}  // namespace lowered

// What one run of a lowered program gave.
struct LoweredResult {
  enum class Status : std::uint8_t { Value, NoValue, Error, Unsupported };
  Status status = Status::NoValue;
  std::int64_t value = 0;  // an int, a bool (0/1) or a string (its index); see LoweredProgram
  DiagCode code{};  // Status::Error: the code and place the evaluator reports
  Span span;
};

class LoweredProgram {
 public:
  // The scratch space of one thread's runs: reused by every run, so that a run
  // allocates nothing once it has grown to fit.
  class Scratch {
   public:
    explicit Scratch(const LoweredProgram& program);
    ~Scratch();
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

   private:
    friend class LoweredProgram;
    std::unique_ptr<lowered::Run> run_;
  };

  // The lowered form of `program` with `bindings`, or null with `why` set to the
  // first thing it uses that this form does not cover.
  [[nodiscard]] static std::unique_ptr<const LoweredProgram> lower(const CompiledProgram& program,
                                                                   const Bindings& bindings, const Limits& limits,
                                                                   std::string& why);
  ~LoweredProgram();

  // One run, drawing from `dice`. Status::Unsupported means that this run met
  // something the lowered form cannot follow; replay it with the evaluator from
  // the generator's state before the run.
  LoweredResult run(Scratch& scratch, RandomDice& dice) const;

  // Where many runs send those that gave no value to count: an error, or a run
  // the lowered form could not follow.
  class Others {
   public:
    virtual ~Others() = default;
    // `dice` is as the run left it, `before` as it was when the run began; a
    // replay leaves `dice` as the replay leaves it.
    virtual void other(const LoweredResult& r, RandomDice& dice, const RandomDice& before) = 0;
  };
  // `count` runs in a row, as many calls of run() would make them: values
  // (by key, see value()) into `counts`, the other runs to `others`. Adds 1024
  // to `done` every 1024 runs.
  void run_many(Scratch& scratch, RandomDice& dice, std::uint64_t count, ValueCounts& counts, Others& others,
                std::atomic<std::uint64_t>& done) const;

  // The kind of every value a run gives: Int (a pool's total too), Bool, Str or None.
  [[nodiscard]] ValueKind kind() const { return kind_; }
  // The value of a result as the evaluator gives it (a pool as its total).
  [[nodiscard]] Value value(const LoweredResult& r) const;
  [[nodiscard]] Value value_of_key(std::int64_t key) const;
  // The key of a value the evaluator gave this program, or none if it is not
  // of the program's kind.
  [[nodiscard]] std::optional<std::int64_t> key_of(const Value& v) const;
  // The string with index i (results of kind Str).
  [[nodiscard]] const std::string& string(std::int64_t i) const { return strings_[static_cast<std::size_t>(i)]; }
  // The index of `s` among the program's strings, or -1.
  [[nodiscard]] std::int64_t string_index(const std::string& s) const;

 private:
  friend class Lowerer;
  LoweredProgram();
  struct Step;  // a program-level let, or the main expression
  // Runs every step; the program's value (a pool's total). Throws lowered::Fail or Bail.
  std::int64_t steps(lowered::Run& r) const;
  std::vector<Step> steps_;
  std::vector<std::string> strings_;
  std::vector<std::unique_ptr<const lowered::FaceList>> lists_;  // index 0 is the first
  Limits limits_;
  ValueKind kind_ = ValueKind::Int;
  std::size_t scalar_slots_ = 0, pool_slots_ = 0;
};

}  // namespace alea
