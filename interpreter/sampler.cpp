// interpreter/sampler.cpp — the sampling loop of one thread, and the flat
// histogram that counts a lowered program's values.
#include "interpreter/sampler.hpp"

#include <optional>
#include <unordered_map>
#include <vector>

#include "interpreter/evaluator.hpp"

namespace alea {
namespace {

__extension__ using wide = __int128;  // window arithmetic on int64 values, without overflow

// Counts of int64 keys (numbers, booleans, string indexes): a window of
// counters around the values met, widened as they come, and a map for values
// too far apart to share one window. Remembers the order values were first met.
class Histogram {
 public:
  void add(std::int64_t v) {
    const std::uint64_t i = static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(low_);
    if (i < counts_.size()) [[likely]] {
      if (counts_[i]++ == 0) order_.push_back(v);
      return;
    }
    add_outside(v);
  }

  template <class F>
  void each(F&& f) const {
    for (const std::int64_t v : order_) {
      const wide i = wide{v} - low_;
      if (i >= 0 && i < static_cast<wide>(counts_.size())) f(v, counts_[static_cast<std::size_t>(i)]);
      else f(v, far_.at(v));
    }
  }

 private:
  static constexpr wide max_window = 1 << 16;
  std::int64_t low_ = 0;
  std::vector<std::uint64_t> counts_;
  std::unordered_map<std::int64_t, std::uint64_t> far_;
  std::vector<std::int64_t> order_;

  void add_outside(std::int64_t v) {
    const wide lo = counts_.empty() ? wide{v} : std::min<wide>(low_, v);
    const wide hi = counts_.empty() ? wide{v} : std::max<wide>(wide{low_} + static_cast<wide>(counts_.size()) - 1, v);
    if (hi - lo + 1 <= max_window) {
      // Room to spare on both sides (as much as the values span: few widenings), within int64.
      const wide spare = std::min<wide>(std::max<wide>(64, hi - lo + 1), (max_window - (hi - lo + 1)) / 2);
      const wide new_low = std::max<wide>(lo - spare, INT64_MIN);
      const wide new_high = std::min<wide>(hi + spare, INT64_MAX);
      std::vector<std::uint64_t> counts(static_cast<std::size_t>(new_high - new_low + 1), 0);
      for (std::size_t i = 0; i < counts_.size(); ++i) counts[static_cast<std::size_t>(low_ - new_low) + i] = counts_[i];
      counts_ = std::move(counts);
      low_ = static_cast<std::int64_t>(new_low);
      // Values kept in the map that the window now covers move into it.
      for (auto it = far_.begin(); it != far_.end();) {
        const wide i = wide{it->first} - low_;
        if (i >= 0 && i < static_cast<wide>(counts_.size())) {
          counts_[static_cast<std::size_t>(i)] = it->second;
          it = far_.erase(it);
        } else {
          ++it;
        }
      }
      add(v);
      return;
    }
    if (far_[v]++ == 0) order_.push_back(v);
  }
};

// The key a value has in the histogram of a lowered program's values, or none
// if it is not of the program's kind (which the evaluator never gives).
std::optional<std::int64_t> key_of(const LoweredProgram& fast, const Value& v) {
  switch (fast.kind()) {
    case ValueKind::Int:
      if (auto n = v.number(); n && !v.as_bool()) return *n;
      break;
    case ValueKind::Bool:
      if (const auto* b = v.as_bool()) return *b ? 1 : 0;
      break;
    case ValueKind::Str:
      if (const auto* s = v.as_str(); s && fast.string_index(*s) >= 0) return fast.string_index(*s);
      break;
    case ValueKind::None:
      if (v.is_none()) return 0;
      break;
    default: break;
  }
  return std::nullopt;
}

void tick(std::uint64_t k, std::atomic<std::uint64_t>& done) {
  if ((k & 1023) == 1023) done.fetch_add(1024, std::memory_order_relaxed);
}

}  // namespace

void sample(const LoweredProgram* fast, const std::shared_ptr<const CompiledProgram>& program,
            const Bindings& bindings, const Limits& limits, RandomDice& dice, std::uint64_t runs,
            SampleSink& sink, std::atomic<std::uint64_t>& done) {
  if (!fast) {
    for (std::uint64_t k = 0; k < runs; ++k) {
      const Outcome o = evaluate(program, bindings, dice, limits);
      if (o.error) sink.fail(o.error->code, &*o.error);
      else if (o.value) sink.add(*o.value, 1);
      tick(k, done);
    }
    return;
  }
  LoweredProgram::Scratch scratch(*fast);
  Histogram counts;
  for (std::uint64_t k = 0; k < runs; ++k) {
    const RandomDice before = dice;
    const LoweredResult r = fast->run(scratch, dice);
    if (r.status == LoweredResult::Status::Value) [[likely]] {
      counts.add(r.value);
    } else if (r.status == LoweredResult::Status::Error && !sink.wants(r.code)) {
      sink.fail(r.code, nullptr);
    } else if (r.status != LoweredResult::Status::NoValue) {
      // The evaluator runs it again on the same dice, for its diagnostic or
      // because the lowered form could not follow it.
      dice = before;
      const Outcome o = evaluate(program, bindings, dice, limits);
      if (o.error) {
        sink.fail(o.error->code, &*o.error);
      } else if (o.value) {
        if (const auto key = key_of(*fast, *o.value)) counts.add(*key);
        else sink.add(*o.value, 1);
      }
    }
    tick(k, done);
  }
  counts.each([&](std::int64_t v, std::uint64_t n) {
    LoweredResult r;
    r.status = LoweredResult::Status::Value;
    r.value = v;
    sink.add(fast->value(r), n);
  });
}

}  // namespace alea
