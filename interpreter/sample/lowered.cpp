// interpreter/sample/lowered.cpp — running a lowered program (see lowered.hpp).
#include <algorithm>

#include "interpreter/sample/lowerer.hpp"

namespace alea {

using namespace lowered;

LoweredProgram::LoweredProgram() = default;
LoweredProgram::~LoweredProgram() = default;

LoweredProgram::Scratch::Scratch(const LoweredProgram& program) : run_(std::make_unique<Run>()) {
  run_->limits = &program.limits_;
  run_->scalars.resize(program.scalar_slots_);
  run_->pools.resize(program.pool_slots_);
  for (const auto& l : program.lists_) run_->lists.push_back(l.get());
  run_->arena.resize(1024);
}
LoweredProgram::Scratch::~Scratch() = default;

std::int64_t LoweredProgram::steps(Run& r) const {
  // The program-level lets, kept for the names that read them; then the last
  // step, whose value is the program's.
  for (std::size_t i = 0; i + 1 < steps_.size(); ++i) {
    const Step& s = steps_[i];
    if (s.pool) r.pools[s.slot] = s.pool->eval(r);
    else r.scalars[s.slot] = s.scalar->eval(r);
  }
  const Step& last = steps_.back();
  if (!last.pool) return last.scalar->eval(r);
  const PoolRef p = last.pool->eval(r);
  if (p.successes) return p.size;
  std::uint64_t sum = 0;  // checked when the pool was made
  for (std::uint32_t i = 0; i < p.size; ++i) sum += static_cast<std::uint64_t>(r.arena[p.begin + i]);
  return static_cast<std::int64_t>(sum);
}

LoweredResult LoweredProgram::run(Scratch& scratch, RandomDice& dice) const {
  Run& r = *scratch.run_;
  r.reset();
  r.dice = &dice;
  LoweredResult out;
  if (steps_.empty()) return out;
  try {
    out.value = steps(r);
  } catch (const Fail& f) {
    out.status = LoweredResult::Status::Error;
    out.code = f.code;
    out.span = f.span;
    return out;
  } catch (const Bail&) {
    out.status = LoweredResult::Status::Unsupported;
    return out;
  }
  out.status = LoweredResult::Status::Value;
  return out;
}

void LoweredProgram::run_many(Scratch& scratch, RandomDice& dice, std::uint64_t count, ValueCounts& counts,
                              Others& others, std::atomic<std::uint64_t>& done) const {
  Run& r = *scratch.run_;
  r.dice = &dice;
  // The common program, one expression giving a scalar, without the loop over steps.
  const Scalar* only = steps_.size() == 1 ? steps_.front().scalar.get() : nullptr;
  for (std::uint64_t k = 0; k < count; ++k) {
    const RandomDice before = dice;
    r.reset();
    try {
      if (only) counts.add(only->eval(r));
      else if (!steps_.empty()) counts.add(steps(r));
    } catch (const Fail& f) {
      LoweredResult out;
      out.status = LoweredResult::Status::Error;
      out.code = f.code;
      out.span = f.span;
      others.other(out, dice, before);
    } catch (const Bail&) {
      LoweredResult out;
      out.status = LoweredResult::Status::Unsupported;
      others.other(out, dice, before);
    }
    if ((k & 1023) == 1023) done.fetch_add(1024, std::memory_order_relaxed);
  }
}

Value LoweredProgram::value(const LoweredResult& r) const { return value_of_key(r.value); }

Value LoweredProgram::value_of_key(std::int64_t key) const {
  switch (kind_) {
    case ValueKind::Bool: return key != 0;
    case ValueKind::Str: return Value(string(key));
    case ValueKind::None: return NoneValue{};
    default: return key;
  }
}

std::optional<std::int64_t> LoweredProgram::key_of(const Value& v) const {
  switch (kind_) {
    case ValueKind::Int:
      if (auto n = v.number()) return *n;
      break;
    case ValueKind::Bool:
      if (const auto* b = v.as_bool()) return *b ? 1 : 0;
      break;
    case ValueKind::Str:
      if (const auto* s = v.as_str(); s && string_index(*s) >= 0) return string_index(*s);
      break;
    case ValueKind::None:
      if (v.is_none()) return 0;
      break;
    default: break;
  }
  return std::nullopt;
}

std::int64_t LoweredProgram::string_index(const std::string& s) const {
  const auto it = std::find(strings_.begin(), strings_.end(), s);
  return it == strings_.end() ? -1 : it - strings_.begin();
}

}  // namespace alea
