// interpreter/stats_probe.cpp — see stats_probe.hpp.
#include "interpreter/stats_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "interpreter/exact/exact_multiset.hpp"

namespace alea {
namespace {

// Random faces, and the log of 1/P of the multisets they show: P is the multinomial
// n! / prod(c_v!) * prod((w_v / F)^c_v), with w_v of the die's F faces showing value v.
class ProbeDice final : public DiceSource {
 public:
  explicit ProbeDice(std::uint64_t seed) : dice_(seed) {}
  double log_paths = 0;

  void roll(const DieKind& kind, std::span<std::int64_t> faces) override {
    dice_.roll(kind, faces);
    sorted_.assign(faces.begin(), faces.end());
    std::sort(sorted_.begin(), sorted_.end());
    // A listed die's faces counted once per kind: comparing kinds costs what rolling one did.
    if (!kind.is_plain() && !(kind == kind_)) {
      kind_ = kind;
      weights_ = compose::faces_of(kind);
    }
    const auto f = static_cast<double>(kind.face_count());
    double log_p = std::lgamma(static_cast<double>(sorted_.size()) + 1);
    for (std::size_t i = 0; i < sorted_.size();) {
      std::size_t j = i;
      while (j < sorted_.size() && sorted_[j] == sorted_[i]) ++j;
      const auto c = static_cast<double>(j - i);
      double w = 1;
      if (!kind.is_plain()) {
        w = static_cast<double>(std::lower_bound(weights_.begin(), weights_.end(), std::pair{sorted_[i], std::uint64_t{0}})
                                    ->second);
      }
      log_p += c * std::log(w / f) - std::lgamma(c + 1);
      i = j;
    }
    log_paths -= log_p;
  }

 private:
  RandomDice dice_;
  std::vector<std::int64_t> sorted_;
  DieKind kind_;  // the last die of listed faces rolled, and how many of its faces show each value
  std::vector<std::pair<std::int64_t, std::uint64_t>> weights_;
};

constexpr int probes = 16;

}  // namespace

std::optional<RunEstimate> estimate_runs(std::shared_ptr<const CompiledProgram> program, const Bindings& bindings,
                                         const Limits& limits, const RunInput& input, double budget) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  std::vector<double> logs;
  for (int i = 0; i < probes; ++i) {
    ProbeDice dice(0x5EEDu + static_cast<std::uint64_t>(i));
    (void)evaluate(program, bindings, dice, limits, input);  // an error ends a path as a value does
    if (input.cancel && input.cancel->load(std::memory_order_relaxed)) return std::nullopt;
    logs.push_back(dice.log_paths);
    if (std::chrono::duration<double>(Clock::now() - start).count() > budget) return std::nullopt;
  }
  std::sort(logs.begin(), logs.end());
  RunEstimate e;
  e.probes = probes;
  e.runs = std::exp((logs[probes / 2 - 1] + logs[probes / 2]) / 2);  // the median
  return e;
}

}  // namespace alea
