// interpreter/lowered.hpp — a compiled program lowered for the sampler: it
// runs without a trace and without allocating per run.
//
// A LoweredProgram agrees with the evaluator roll for roll: run on a
// RandomDice, it draws the same faces in the same pools in the same order and
// ends with the same value, or with an error of the same code at the same
// place, leaving the generator in the same state. It covers dice of every
// form; explode, compound, penetrate (with limits), reroll, keep/drop, count,
// under, sort, unique and clamp; arithmetic, comparisons, booleans, `if`,
// `let`, tiers, indexing a pool, program-level lets, the numeric builtins
// (sum, len, min, max, abs, the divisions, clamp) and names bound by the host
// or a ruleset to numbers, booleans, strings or none. Anything else (lists,
// records, user functions, cancel, loops, …) is not lowered; the sampler then
// uses the evaluator.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dsl/diagnostic.hpp"
#include "interpreter/bindings.hpp"
#include "interpreter/dice.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/program.hpp"
#include "interpreter/value.hpp"

namespace alea {

namespace lowered {
struct Run;
struct Scalar;
struct Pool;
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

  // The kind of every value a run gives: Int (a pool's total too), Bool, Str or None.
  [[nodiscard]] ValueKind kind() const { return kind_; }
  // The value of a result as the evaluator gives it (a pool as its total).
  [[nodiscard]] Value value(const LoweredResult& r) const;
  // The string with index i (results of kind Str).
  [[nodiscard]] const std::string& string(std::int64_t i) const { return strings_[static_cast<std::size_t>(i)]; }
  // The index of `s` among the program's strings, or -1.
  [[nodiscard]] std::int64_t string_index(const std::string& s) const;

 private:
  friend class Lowerer;
  LoweredProgram();
  struct Step;  // a program-level let, or the main expression
  std::vector<Step> steps_;
  std::vector<std::string> strings_;
  Limits limits_;
  ValueKind kind_ = ValueKind::Int;
  bool has_value_ = false;
  std::size_t scalar_slots_ = 0, pool_slots_ = 0;
};

}  // namespace alea
