// interpreter/values/value_counts.hpp — how often each value came up in one thread's
// runs of a lowered program: int64 keys (numbers, booleans as 0/1, strings by
// index), in a window of counters around the values met, widened as they come,
// and a map for values too far apart to share one window. Remembers the order
// in which values were first met.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace alea {

class ValueCounts {
 public:
  void add(std::int64_t v) {
    const std::uint64_t i = static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(low_);
    if (i < counts_.size()) [[likely]] {
      if (counts_[i]++ == 0) [[unlikely]] order_.push_back(v);
      return;
    }
    add_outside(v);
  }

  // Calls f(value, count) for every value met, in the order first met.
  template <class F>
  void each(F&& f) const {
    for (const std::int64_t v : order_) {
      const wide i = wide{v} - low_;
      if (i >= 0 && i < static_cast<wide>(counts_.size())) f(v, counts_[static_cast<std::size_t>(i)]);
      else f(v, far_.at(v));
    }
  }

 private:
  __extension__ using wide = __int128;  // window arithmetic on int64 values, without overflow
  static constexpr wide max_window = 1 << 16;
  std::int64_t low_ = 0;
  std::vector<std::uint64_t> counts_;
  std::unordered_map<std::int64_t, std::uint64_t> far_;
  std::vector<std::int64_t> order_;

  [[gnu::noinline]] void add_outside(std::int64_t v) {
    const wide lo = counts_.empty() ? wide{v} : std::min<wide>(low_, v);
    const wide hi = counts_.empty() ? wide{v} : std::max<wide>(wide{low_} + static_cast<wide>(counts_.size()) - 1, v);
    if (hi - lo + 1 > max_window) {
      if (far_[v]++ == 0) order_.push_back(v);
      return;
    }
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
  }
};

}  // namespace alea
