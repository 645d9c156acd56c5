// interpreter/stats_tally.hpp — internal to stats.cpp: the outcomes of exact
// enumeration and of sampling as they are counted, and the distributions
// made of them. A value is kept by how it prints (its kind and display),
// with every pool in it as its total; what the tallies hold is counted
// against max_odds_memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmpxx.h>

#include "interpreter/exact/exact_dist.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/stats.hpp"

namespace alea::tally {

// The order a distribution lists its values in: numbers ascending, then
// false and true, then none, then every other value in the order it was met.
// (A strict weak order, so that the listing depends on the values alone.)
bool value_less(const Value& a, const Value& b);

// A value as it is counted: a pool as its total.
Value counted(const Value& v);
// A value as it is kept in a tally: every pool in it as its total, as it is
// shown. A list of pools keeps no dice; a value without pools is kept as it
// is, shared.
Value kept(const Value& v);

// Counts of values with a weight of type W (mpq_class, or an integer count).
template <class W>
struct Tally {
  std::vector<std::pair<Value, W>> entries;
  std::unordered_map<std::int64_t, std::size_t> numbers;  // a number → its entry (the common case)
  std::map<std::string, std::size_t> others;              // kind and display → entry
  std::uint64_t bytes = 0;  // about what the entries and their index hold

  // False, with nothing counted, when `raw` prints as more than max_shown
  // bytes: cut short, its key could not tell it from another value.
  [[nodiscard]] bool add(const Value& raw, const W& w, std::int64_t max_shown) {
    const Value v = counted(raw);
    if (const auto* i = v.as_int()) {
      auto [it, fresh] = numbers.emplace(*i, entries.size());
      if (fresh) {
        entries.emplace_back(v, w);
        bytes += entry_bytes;
      } else {
        entries[it->second].second += w;
      }
      return true;
    }
    std::string shown = to_display(v, max_shown);
    // A text cut short is at least half the limit long: only then is it checked.
    if (shown.size() >= static_cast<std::size_t>(max_shown / 2) && display_exceeds(v, max_shown)) return false;
    std::string key = fmt::format("{}:{}", static_cast<int>(v.kind()), shown);
    const std::size_t key_size = key.size();
    auto [it, fresh] = others.emplace(std::move(key), entries.size());
    if (!fresh) {
      entries[it->second].second += w;
      return true;
    }
    entries.emplace_back(kept(v), w);
    // Measured: a kept list or record, with its key, its allocations and its
    // copy in the merged tally, holds about twice its payload.
    bytes += entry_bytes + 2 * (key_size + compose::value_bytes(entries.back().first));
    return true;
  }

 private:
  static constexpr std::uint64_t entry_bytes = 96;  // an entry, its index node and their allocations
};

template <class W>
struct Tallies {
  Tally<W> value;
  std::vector<std::string> field_names;
  std::vector<Tally<W>> fields;
  W cut_off{};  // explosion chains followed past the depth
  W errors{};   // runs that ended in any other error
  std::uint64_t runs = 0;
  std::optional<Diagnostic> first_error;
  std::int64_t max_shown = Limits{}.max_render_size;  // how long an outcome may print (max_render_size)

  [[nodiscard]] std::uint64_t bytes() const {
    std::uint64_t n = value.bytes;
    for (const auto& f : fields) n += f.bytes;
    return n;
  }
  void add(const Value& raw, const W& w) {
    // Kept once: the fields' tallies then share the parts of the whole's.
    const Value v = raw.as_record() ? kept(raw) : raw;
    if (!value.add(v, w, max_shown)) {
      // Not counted among the values, and not lost: an error like any other.
      fail(Diagnostic(DiagCode::SizeLimitExceeded, Span{},
                      fmt::format("an outcome prints as more than {} bytes: cut short, it could not be told apart "
                                  "from others (max_render_size)",
                                  max_shown)),
           w);
      return;
    }
    if (const auto* r = v.as_record()) {
      for (std::size_t i = 0; i < r->names.size(); ++i) {
        auto it = std::find(field_names.begin(), field_names.end(), r->names[i]);
        if (it == field_names.end()) {
          field_names.push_back(r->names[i]);
          fields.emplace_back();
          it = field_names.end() - 1;
        }
        // A field prints as part of the whole, which fitted.
        (void)fields[static_cast<std::size_t>(it - field_names.begin())].add(r->values[i], w, max_shown);
      }
    }
  }
  void fail(const Diagnostic& d, const W& w) {
    if (d.code == DiagCode::ExplosionLimitExceeded) {
      cut_off += w;
    } else {
      errors += w;
      if (!first_error) first_error = d;
    }
  }
};

// Wilson's 95% interval for a proportion of k in n.
std::pair<double, double> wilson(double k, double n);
// An exact probability, with its fraction.
Probability exact_probability(const mpq_class& q);

// The distributions of a finished tally: exact (weights are probabilities)
// or sampled (counts of `runs`, with Wilson's 95% intervals).
Distribution finish_exact(std::string name, Tally<mpq_class> t);
Distribution finish_sampled(std::string name, Tally<std::uint64_t> t, double runs);

}  // namespace alea::tally
