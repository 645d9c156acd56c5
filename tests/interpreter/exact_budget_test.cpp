// tests/interpreter/exact_budget_test.cpp — the exact enumeration gives up
// early on a program whose runs are long (a whole game per run), by the work
// done as it goes, and falls back to sampling; programs of short runs are
// still limited by their number of runs, and long runs that fit stay exact.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace exact_budget_test {

const Engine& engine() {
  static const Engine e = [] {
    Engine x;
    const auto d = x.load_ruleset_file(fmt::format("{}/rulesets/crystal-die.yaml", ALEA_SOURCE_DIR));
    if (!d.empty()) throw std::runtime_error(render_text(d));
    return x;
  }();
  return e;
}

Stats stats_of(const std::string& source, StatsOptions o) {
  const Compiled c = engine().compile(source);
  if (!c.ok()) throw std::runtime_error(render_text(c.diagnostics));
  return compute_stats(engine(), c.program, {}, o);
}

// A full army of 9 dice: three of each type.
std::string army(const char* colour) {
  std::string out;
  for (const char* type : {"attack", "defence", "life"}) {
    for (int i = 0; i < 3; ++i) {
      out += fmt::format("{}{{type: \"{}\", colour: \"{}\"}}", out.empty() ? "" : ", ", type, colour);
    }
  }
  return "[" + out + "]";
}

// 18 dice rolled one by one: 6^18 runs, each a whole game.
const std::string skirmish =
    fmt::format("crystal_die.skirmish({}, {})", army("red"), army("blue"));

// The budget is the work of max_branches runs (100 expression steps each); a small budget
// gives up quickly. The time limit is out of reach, so that the budget decides on any machine.
constexpr std::size_t budget = 5000;
constexpr double no_time_limit = max_time_limit;

TEST(ExactBudget, AGameOfTwoFullArmiesFallsBackToSampling) {
  StatsOptions o;
  o.max_branches = budget;
  o.time_limit = no_time_limit;
  o.samples = 200;
  o.threads = 1;
  const Stats s = stats_of(skirmish, o);
  EXPECT_EQ(s.method, StatsMethod::Sampled);
  EXPECT_EQ(s.runs, 200u);
  // Named before the first run, by the runs that 16 random games estimate.
  EXPECT_NE(s.reason.find(fmt::format("needs more than {} runs (max_branches): about ", budget)), std::string::npos)
      << s.reason;
  EXPECT_TRUE(s.reason.ends_with(", by 16 random runs")) << s.reason;
  ASSERT_EQ(s.fields.empty(), false);
  EXPECT_EQ(s.fields[0].name, "winner");
}

// A few paths much longer than most (the rolls a six explodes into): the random runs that
// estimate the enumeration mostly miss them, but their mean does not, and what cannot fit is
// refused before the first run. 6d6 explode 6 limit 2 takes 54,264 runs.
TEST(ExactBudget, AnEnumerationWhoseFewPathsAreLongIsRefusedBeforeItStarts) {
  StatsOptions o;
  o.compose = false;
  o.max_branches = 10'000;
  o.time_limit = no_time_limit;
  o.samples = 100;
  o.threads = 1;
  const Stats s = stats_of("6d6 explode 6 limit 2", o);
  EXPECT_EQ(s.method, StatsMethod::Sampled);
  EXPECT_NE(s.reason.find("needs more than 10000 runs (max_branches): about "), std::string::npos) << s.reason;
  EXPECT_TRUE(s.reason.ends_with(", by 16 random runs")) << s.reason;
}

TEST(ExactBudget, ExactOnlySaysWhyThereIsNoExactAnswer) {
  StatsOptions o;
  o.max_branches = budget;
  o.exact_only = true;
  const Stats s = stats_of(skirmish, o);
  ASSERT_TRUE(s.first_error.has_value());
  // Both ways were tried: the message says why each gave up.
  EXPECT_NE(s.first_error->message.find("no exact answer: composing needs more than 5000 branches (max_branches)"),
            std::string::npos)
      << s.first_error->message;
  EXPECT_NE(s.first_error->message.find("; enumerating: an exact answer needs more work"), std::string::npos)
      << s.first_error->message;
  EXPECT_TRUE(s.value.entries.empty());
}

// Short runs: the number of runs is what runs out.
TEST(ExactBudget, ManyShortRunsAreLimitedByTheirNumber) {
  StatsOptions o;
  o.compose = false;
  o.max_branches = 50;
  o.samples = 100;
  o.threads = 1;
  const Stats s = stats_of("d20 + d20 + d20", o);
  EXPECT_EQ(s.method, StatsMethod::Sampled);
  EXPECT_NE(s.reason.find("more than 50 runs (max_branches)"), std::string::npos) << s.reason;
}

// Long runs that fit in the budget are enumerated: one die each, 36 games.
TEST(ExactBudget, AShortGameIsStillExact) {
  StatsOptions o;
  o.time_limit = no_time_limit;
  o.compose = false;
  const Stats s = stats_of(
      "crystal_die.skirmish([{type: \"attack\", colour: \"red\"}], [{type: \"life\", colour: \"blue\"}])",
      o);
  EXPECT_EQ(s.method, StatsMethod::Exact) << s.reason;
  EXPECT_EQ(s.exact_method, "enumerated");
  EXPECT_EQ(s.runs, 36u);
}

}  // namespace exact_budget_test
}  // namespace alea
