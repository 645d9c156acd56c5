// interpreter/stats_probe.cpp — see stats_probe.hpp.
#include "interpreter/stats_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_set>
#include <vector>

#include "interpreter/exact/exact_multiset.hpp"

namespace alea {
namespace {

// Each roll one of its multisets, every one as likely (not the faces' own odds), and the
// log of the product of their counts: the enumeration runs once per multiset of a roll.
// Ordered: each die one of its values, and the log of the product of the values' counts.
class ProbeDice final : public DiceSource {
 public:
  ProbeDice(std::uint64_t seed, bool ordered) : dice_(seed), ordered_(ordered) {}
  double log_paths = 0;

  void roll(const DieKind& kind, std::span<std::int64_t> faces) override {
    // The distinct values a die shows, ascending; a listed die's counted once per kind.
    std::uint64_t k = 0;
    if (kind.is_plain()) {
      k = static_cast<std::uint64_t>(kind.face_count());
    } else {
      if (!(kind == kind_)) {
        kind_ = kind;
        values_.clear();
        for (const auto& [v, w] : compose::faces_of(kind)) values_.push_back(v);
      }
      k = values_.size();
    }
    const std::uint64_t n = faces.size();
    if (n == 0) return;
    if (ordered_) {
      for (auto& f : faces) {
        const std::uint64_t index = dice_.below(k);
        f = kind.is_plain() ? kind.face(static_cast<std::int64_t>(index)) : values_[index];
      }
      log_paths += static_cast<double>(n) * std::log(static_cast<double>(k));
      return;
    }
    // A multiset of n of k values is n distinct places among n + k - 1 (stars and bars):
    // the i-th place, ascending, less i is the i-th value's index. The places by Floyd's
    // sampling, as many steps as dice.
    const std::uint64_t places = n + k - 1;
    taken_.clear();
    for (std::uint64_t j = places - n; j < places; ++j) {
      const std::uint64_t t = dice_.below(j + 1);
      if (!taken_.insert(t).second) taken_.insert(j);
    }
    sorted_.assign(taken_.begin(), taken_.end());
    std::sort(sorted_.begin(), sorted_.end());
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t index = sorted_[i] - i;
      faces[i] = kind.is_plain() ? kind.face(static_cast<std::int64_t>(index)) : values_[index];
    }
    log_paths += std::lgamma(static_cast<double>(places) + 1) - std::lgamma(static_cast<double>(n) + 1) -
                 std::lgamma(static_cast<double>(k));
  }

 private:
  RandomDice dice_;
  bool ordered_;
  std::unordered_set<std::uint64_t> taken_;
  std::vector<std::uint64_t> sorted_;
  DieKind kind_;  // the last die of listed faces rolled, and the values it shows
  std::vector<std::int64_t> values_;
};

constexpr int probes = 16;

}  // namespace

std::optional<RunEstimate> estimate_runs(std::shared_ptr<const CompiledProgram> program, const Bindings& bindings,
                                         const Limits& limits, const RunInput& input, bool ordered, double budget) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  std::vector<double> logs;
  for (int i = 0; i < probes; ++i) {
    ProbeDice dice(0x5EEDu + static_cast<std::uint64_t>(i), ordered);
    (void)evaluate(program, bindings, dice, limits, input);  // an error ends a path as a value does
    if (input.cancel && input.cancel->load(std::memory_order_relaxed)) return std::nullopt;
    logs.push_back(dice.log_paths);
    if (std::chrono::duration<double>(Clock::now() - start).count() > budget) return std::nullopt;
  }
  std::sort(logs.begin(), logs.end());
  RunEstimate e;
  e.probes = probes;
  e.runs = std::exp((logs[probes / 2 - 1] + logs[probes / 2]) / 2);  // the median
  for (const double l : logs) e.mean += std::exp(l) / probes;
  return e;
}

}  // namespace alea
