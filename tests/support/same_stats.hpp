// tests/support/same_stats.hpp — the one definition of "the composed exact
// distribution equals the enumerated one": every value's and every field's
// probability, the means and sd, the cut-off, error and unresolved shares, and
// the first error's code, message and number of notes, all exactly; and the
// composed numbers in ascending order, as the enumeration orders them.
//
// compose_only asks the composed engine alone whether it answers a program,
// and why not: compute_stats, when composing does not apply, goes on to
// enumerate (seconds, for some programs), and when that fails too under
// exact_only it reports only the enumeration's reason.
//
// Used by the conformance driver (tests/conformance/conformance_test.cpp) and
// by the fuzz harness fuzz/fuzz_exact.cpp, so it depends on neither GoogleTest
// nor libFuzzer: it returns the differences as text, one line each.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/stats.hpp"
#include "interpreter/api.hpp"
#include "interpreter/exact/exact.hpp"

namespace alea::testing {

// The composed engine alone, as compute_stats tries it first (stats.cpp): at
// the engine's limits with explosions cut at options.explosion_depth (unset:
// the first depth it tries), within options.max_branches. Never enumerates
// and never goes deeper.
inline compose::Composed compose_only(const Engine& engine, const CompiledProgram& program,
                                      const Bindings& bindings, const StatsOptions& options) {
  Limits cut = engine.options().limits;
  cut.max_explosion_depth = std::min<std::int64_t>(
      cut.max_explosion_depth, options.explosion_depth.value_or(StatsOptions::first_explosion_depth));
  return compose::compose_stats(program, bindings, cut, options);
}

// value (kind and display) → exact probability ("kind:display" → "a/b")
inline std::map<std::string, std::string> exact_table(const Distribution& d) {
  std::map<std::string, std::string> t;
  for (const auto& e : d.entries)
    t[fmt::format("{}:{}", static_cast<int>(e.value.kind()), to_display(e.value))] = e.probability.exact();
  return t;
}

// The differences between two tables, one line per value that differs.
inline void table_differences(std::string_view what, const std::map<std::string, std::string>& a,
                              const std::map<std::string, std::string>& b, std::vector<std::string>& out) {
  auto ai = a.begin();
  auto bi = b.begin();
  while (ai != a.end() || bi != b.end()) {
    if (bi == b.end() || (ai != a.end() && ai->first < bi->first)) {
      out.push_back(fmt::format("{} P({}): composed {}, enumerated none", what, ai->first, ai->second));
      ++ai;
    } else if (ai == a.end() || bi->first < ai->first) {
      out.push_back(fmt::format("{} P({}): composed none, enumerated {}", what, bi->first, bi->second));
      ++bi;
    } else {
      if (ai->second != bi->second)
        out.push_back(fmt::format("{} P({}): composed {}, enumerated {}", what, ai->first, ai->second, bi->second));
      ++ai;
      ++bi;
    }
  }
}

// How the composed `fast` differs from the enumerated `slow`; empty when they
// are the same. Both must be exact answers (StatsMethod::Exact): the caller
// checks that first.
inline std::vector<std::string> stats_differences(const Stats& fast, const Stats& slow) {
  std::vector<std::string> out;
  auto same = [&](std::string_view what, const auto& a, const auto& b) {
    if (!(a == b)) out.push_back(fmt::format("{}: composed {}, enumerated {}", what, a, b));
  };
  table_differences("value", exact_table(fast.value), exact_table(slow.value), out);
  same("mean", fast.value.exact_mean, slow.value.exact_mean);
  same("sd", fast.value.sd, slow.value.sd);
  same("fields", fast.fields.size(), slow.fields.size());
  for (std::size_t i = 0; i < fast.fields.size() && i < slow.fields.size(); ++i) {
    const std::string field = "." + fast.fields[i].name;
    same(fmt::format("field {} name", i), fast.fields[i].name, slow.fields[i].name);
    table_differences(field, exact_table(fast.fields[i]), exact_table(slow.fields[i]), out);
    same(field + " mean", fast.fields[i].exact_mean, slow.fields[i].exact_mean);
  }
  same("cut_off", fast.cut_off.exact(), slow.cut_off.exact());
  // The enumeration runs every loop to its end: it leaves no loop's tail out.
  same("still_looping", fast.still_looping.value, slow.still_looping.value);
  same("errors", fast.errors.exact(), slow.errors.exact());
  same("unresolved", fast.unresolved.exact(), slow.unresolved.exact());
  same("first_error", fast.first_error.has_value(), slow.first_error.has_value());
  if (fast.first_error && slow.first_error) {
    same("first_error code", code_name(fast.first_error->code), code_name(slow.first_error->code));
    same("first_error message", fast.first_error->message, slow.first_error->message);
    same("first_error notes", fast.first_error->notes.size(), slow.first_error->notes.size());
  }
  // Numbers ascending, as the enumeration orders them.
  for (std::size_t i = 1; i < fast.value.entries.size(); ++i) {
    const Value& a = fast.value.entries[i - 1].value;
    const Value& b = fast.value.entries[i].value;
    if (a.as_int() && b.as_int() && !(*a.as_int() < *b.as_int()))
      out.push_back(fmt::format("composed values out of order: {} before {}", *a.as_int(), *b.as_int()));
  }
  return out;
}

}  // namespace alea::testing
