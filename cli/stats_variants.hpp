// cli/stats_variants.hpp — what one `alea stats` command line asks for: one or more variants
// (expressions or mechanic calls) to compare, the settings they share, and the settings swept
// over a range or a list; and the cells (a variant at one combination of the swept values) it
// computes. stats_command.cpp runs them; stats_compare.hpp reports them.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/stats_render.hpp"
#include "interpreter/api.hpp"

namespace alea::cli {

class RulesetPath;

// One thing to compare: an expression, or a mechanic with the settings written right after it.
struct StatsVariant {
  std::string label;                  // --label, or the words as typed
  std::string target;                 // the expression, or RULESET.MECHANIC
  bool mechanic = false;
  std::vector<std::string> settings;  // its own name=value words (a mechanic's only)
  // A mechanic of a ruleset file, `PATH#MECHANIC`: the engine that file was loaded into (one per
  // file, shared by its variants), where the cell compiles and runs; and what loading it
  // reported, which its cells report. Null for a ruleset on the path.
  std::shared_ptr<Engine> engine;
  Diagnostics load_problems;
};

// A setting whose value is a range (`dice=1..8`) or a list (`difficulty=8,10,12`).
struct SweepAxis {
  std::string name;                 // the setting's name, as typed: "dice", "hero.pool"
  std::vector<std::string> values;  // each value's text
};

struct StatsPlan {
  std::vector<StatsVariant> variants;
  // The settings after the last variant: given to every mechanic (a variant's own setting of the
  // same name wins).
  std::vector<std::string> shared;
  std::vector<SweepAxis> axes;  // in the order first written
  [[nodiscard]] std::size_t combinations() const;
  [[nodiscard]] bool comparing() const { return variants.size() > 1; }
  [[nodiscard]] bool sweeping() const { return !axes.empty(); }
};

// The values of a sweep: a range `LOW..HIGH` of whole numbers or a list split at its top-level
// commas (`8,10,12`; `[1, 2]` is one value); nothing for a single value. A range backwards or
// an empty item throws UsageError naming `word`.
[[nodiscard]] std::optional<std::vector<std::string>> sweep_values(std::string_view value, std::string_view word);

struct StatsSession;  // stats_command.hpp

// Reads the words of `alea stats`. Words that together compile as one expression are that
// expression (`3d6 + 2`), unless `variants`; otherwise each RULESET.MECHANIC or PATH#MECHANIC
// word starts a variant, with the name=value words after it, and every other word is an
// expression of its own. Each ruleset file a PATH#MECHANIC names is loaded into an engine of
// its own, so that two rulesets of one name can be compared. `labels` name the variants in
// order. Loads the rulesets the words mention into the session's engine. A word that is
// neither (or a label too many) throws UsageError; what does not compile is left for the cell
// to report.
[[nodiscard]] StatsPlan plan_stats(const StatsSession& session, const std::vector<std::string>& words,
                                   const std::vector<std::string>& labels, bool variants = false);

// The settings of combination `index` (0 ≤ index < combinations()): one value per axis, the
// first axis changing slowest.
[[nodiscard]] std::vector<std::string> combination(const StatsPlan& plan, std::size_t index);

// A variant's name=value words at one combination: its own, then the shared ones it does not
// set itself, each swept value replaced by the combination's.
[[nodiscard]] std::vector<std::string> cell_settings(const StatsPlan& plan, const StatsVariant& v,
                                                     const std::vector<std::string>& values);

// One variant at one combination, computed.
struct StatsCell {
  std::size_t variant = 0;
  std::vector<std::string> values;  // one per axis
  std::string shown;                // the call as compiled: "my_game.check(dice: 3)"
  std::optional<Stats> stats;       // none: `diagnostics` says why
  StatsContext context;
  Diagnostics diagnostics;
};

}  // namespace alea::cli
