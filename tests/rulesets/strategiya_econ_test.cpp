// tests/rulesets/strategiya_econ_test.cpp — the world and the economy of
// specs/strategiya.md through rulesets/strategiya.yaml beyond the single vectors
// of sections 3.1-3.3 (set-up, deposits and work, adventures, cities and shops,
// magic and building), which are data, tests/rulesets/vectors/strategiya-econ.yaml,
// run by vectors_test.cpp: here are all 120 binary-code lookups of section 3.6, read
// from the table tests/rulesets/strategiya_lookups.yaml, the uniform adventure pick
// and the mistakes reported. strategiya_rules_test.cpp has the character and combat;
// strategiya_coverage_test.cpp checks that together they name every vector V1-V299.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "interpreter/api.hpp"
#include "tests/rulesets/strategiya_cases.hpp"
#include "tests/support/shipped.hpp"
#include "tests/support/vectors.hpp"

namespace alea {
namespace strategiya_econ_test {

// The one place that names the ruleset: its file name. Calls below write `$`
// for the ruleset's name in the language (the name with '-' as '_') and a dot.
constexpr std::string_view kRuleset = "strategiya";

std::string ident() {
  std::string s(kRuleset);
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

const Engine& engine() {
  static const Engine e = testing::engine_with_ruleset(std::string(kRuleset));
  return e;
}

// `$price("sword")` → `strategiya.price("sword")`.
std::string expand(std::string_view call) {
  std::string out;
  for (const char c : call) {
    if (c == '$') {
      out += ident() + ".";
    } else {
      out += c;
    }
  }
  return out;
}

using testing::shown;

// ---- 3.6: every binary-code lookup with the example sheets -----------------------------------

struct Lookup {
  std::string id;
  std::string table;    // resources or adventures
  std::string terrain;
  int n;                // the object's number on the map
  int via;              // what sheet 1 gives
  int final_index;      // what sheet 2 gives: the entry of the list
  std::string resource; // for resources, the R50 entry it names
};

std::string lookups_file() { return std::string(ALEA_SOURCE_DIR) + "/tests/rulesets/strategiya_lookups.yaml"; }

// The table; a file or a row that does not read throws, naming the row.
std::vector<Lookup> read_lookups() {
  const YAML::Node root = YAML::LoadFile(lookups_file());
  if (!root.IsMap() || !root["lookups"] || !root["lookups"].IsSequence()) {
    throw std::runtime_error(lookups_file() + ": no list of lookups");
  }
  std::vector<Lookup> out;
  for (const auto& row : root["lookups"]) {
    try {
      if (!row.IsMap() || row.size() != 7) throw std::runtime_error("a row has id, table, terrain, n, via, final, resource");
      out.push_back({row["id"].as<std::string>(), row["table"].as<std::string>(), row["terrain"].as<std::string>(),
                     row["n"].as<int>(), row["via"].as<int>(), row["final"].as<int>(),
                     row["resource"].as<std::string>()});
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("{}:{}: {}", lookups_file(), row.Mark().line + 1, e.what()));
    }
  }
  return out;
}

// The table, read once; a malformed file fails every test that reads it (and
// LookupsReadAndAreAllThere names the problem), without ending the test run.
const std::vector<Lookup>& lookups() {
  static const std::vector<Lookup> table = [] {
    try {
      return read_lookups();
    } catch (const std::exception&) {
      return std::vector<Lookup>{};
    }
  }();
  return table;
}

class StrategiyaEconLookup : public ::testing::TestWithParam<Lookup> {};

TEST_P(StrategiyaEconLookup, GoesThroughBothSheets) {
  const Lookup& l = GetParam();
  ScriptedDice dice({});
  const std::string call = expand(fmt::format("$binary_code(\"{}\", \"{}\", {})", l.table, l.terrain, l.n));
  const Outcome o = engine().roll(call, dice);
  ASSERT_TRUE(o.ok()) << call << ": " << render_text(*o.error);
  EXPECT_EQ(shown(*o.value, "via"), std::to_string(l.via)) << call;
  EXPECT_EQ(shown(*o.value, "final"), std::to_string(l.final_index)) << call;
  if (l.table != "resources") return;
  const std::string explore = expand(fmt::format("$explore_deposit(\"{}\", {})", l.terrain, l.n));
  const Outcome e = engine().roll(explore, dice);
  ASSERT_TRUE(e.ok()) << explore << ": " << render_text(*e.error);
  EXPECT_EQ(shown(*e.value, "final"), std::to_string(l.final_index)) << explore;
  EXPECT_EQ(shown(*e.value, "resource"), l.resource) << explore;
  EXPECT_EQ(shown(*e.value, "found"), l.resource == "none" ? "false" : "true") << explore;
}

INSTANTIATE_TEST_SUITE_P(StrategiyaEcon, StrategiyaEconLookup, ::testing::ValuesIn(lookups()),
                         [](const auto& param_info) { return param_info.param.id; });

// The same 120 cells a column at a time: code_column composes the two sheets.
TEST(StrategiyaEconLookups, ColumnsComposeTheSheets) {
  for (const char* table : {"resources", "adventures"}) {
    for (const char* terrain : {"mountain", "swamp", "forest", "plain", "water", "death_zone"}) {
      std::vector<int> via, fin;
      for (const auto& l : lookups()) {
        if (l.table == table && l.terrain == terrain) {
          via.push_back(l.via);
          fin.push_back(l.final_index);
        }
      }
      ASSERT_EQ(via.size(), 10u) << table << " " << terrain;
      ScriptedDice dice({});
      const std::string call = expand(fmt::format("$code_column(\"{}\", \"{}\")", table, terrain));
      const Outcome o = engine().roll(call, dice);
      ASSERT_TRUE(o.ok()) << call << ": " << render_text(*o.error);
      EXPECT_EQ(shown(*o.value, "via"), fmt::format("[{}]", fmt::join(via, ", "))) << call;
      EXPECT_EQ(shown(*o.value, "final"), fmt::format("[{}]", fmt::join(fin, ", "))) << call;
    }
  }
}

// 3.6's summary: with these sheets, the deposits that yield something.
TEST(StrategiyaEconLookups, DepositsThatYieldSomething) {
  const std::vector<std::pair<std::string, std::vector<int>>> yielding = {
      {"mountain", {2, 5, 6, 10}},          {"swamp", {1, 2, 6, 7, 9}},
      {"forest", {1, 2, 3, 4, 6, 7}},       {"plain", {1, 3, 4, 5, 6, 7, 10}},
      {"water", {1, 2, 3, 4, 5, 8, 9, 10}}, {"death_zone", {2, 3, 5, 6, 8, 9}}};
  for (const auto& [terrain, ns] : yielding) {
    ScriptedDice dice({});
    const std::string call = expand(fmt::format(
        "flatten(for n in range(1, 10) {{ if $explore_deposit(\"{}\", n).found then [n] else [] }})", terrain));
    const Outcome o = engine().roll(call, dice);
    ASSERT_TRUE(o.ok()) << call << ": " << render_text(*o.error);
    EXPECT_EQ(to_display(*o.value), fmt::format("[{}]", fmt::join(ns, ", "))) << terrain;
  }
}

// The 120 lookups of section 3.6, one per cell of the two example sheets.
TEST(StrategiyaEconLookups, AreAllThere) {
  EXPECT_NO_THROW(read_lookups());
  EXPECT_EQ(lookups().size(), 120u);
}

// ---- V174: the adventure pick is uniform ------------------------------------------------------
//
// For k from 2 to 6, every first die at or under k is the pick with no further
// roll; a die above k is rolled again and the next die decides in the same way.
// So each of 1..k has probability (1/6) Σ ((6-k)/6)^i = 1/k.
TEST(StrategiyaEconPick, EveryCandidateIsEquallyLikely) {
  for (int k = 2; k <= 6; ++k) {
    const std::string call = expand(fmt::format("$adventure_pick({})", k));
    for (std::int64_t first = 1; first <= 6; ++first) {
      if (first <= k) {
        ScriptedDice dice({first});
        const Outcome o = engine().roll(call, dice);
        ASSERT_TRUE(o.ok()) << render_text(*o.error);
        EXPECT_EQ(to_display(*o.value), std::to_string(first)) << call;
        EXPECT_EQ(dice.used(), 1u) << call;
        continue;
      }
      for (std::int64_t second = 1; second <= k; ++second) {
        ScriptedDice dice({first, second});
        const Outcome o = engine().roll(call, dice);
        ASSERT_TRUE(o.ok()) << render_text(*o.error);
        EXPECT_EQ(to_display(*o.value), std::to_string(second)) << call << " after " << first;
        EXPECT_EQ(dice.used(), 2u) << call;
      }
    }
  }
  ScriptedDice none({});
  const Outcome one = engine().roll(expand("$adventure_pick(1)"), none);
  ASSERT_TRUE(one.ok()) << render_text(*one.error);
  EXPECT_EQ(to_display(*one.value), "1");  // one candidate: no roll
}

// ---- mistakes are reported, not guessed around ------------------------------------------------

std::string error_of(const std::string& call) {
  ScriptedDice dice({});
  const Outcome o = engine().roll(expand(call), dice);
  if (o.ok()) return "no error: " + to_display(*o.value);
  return std::string(code_name(o.error->code)) + ": " + o.error->message;
}

TEST(StrategiyaEconErrors, ASheetColumnMustBeAPermutation) {
  EXPECT_EQ(error_of("$binary_code(\"resources\", \"forest\", 3, sheet1: {resources: {forest: [1, 2, 3, 4, 5, 6, 7, 8, 9, 9]}})"),
            "Refused: the resources.forest column of secret sheet 1 is not a permutation of 1..10 (R47): missing "
            "[10], extra [9]");
  EXPECT_EQ(error_of("$binary_code(\"adventures\", \"forest\", 3, sheet2: {resources: {}})"),
            "Refused: the adventures.forest column of secret sheet 2 is not a permutation of 1..10 (R47): the "
            "sheet has no such column");
  EXPECT_EQ(error_of("$binary_code(\"resources\", \"forest\", 11)"),
            "Refused: no object has the number 11 on both sheets, whose resources.forest columns have 10 and 10 "
            "entries");
}

TEST(StrategiyaEconErrors, ShopsRefuseWhatTheRulesForbid) {
  EXPECT_EQ(error_of("$price(\"curse\", contract: true)"),
            "Refused: curse cannot be named in a contract: a contract names an item or a hire (R65)");
  EXPECT_TRUE(error_of("$price(\"mercenary\", hidden: true)")
                  .starts_with("Refused: mercenary is not sold on the black market, which sells items"));
  EXPECT_TRUE(error_of("$price(\"black_market\")")
                  .starts_with("Refused: black_market is priced by rule"));
  EXPECT_TRUE(error_of("$takeover(\"black_market\", 45)")
                  .starts_with("Refused: black_market cannot be taken over: only hires and services"));
  EXPECT_TRUE(error_of("$takeover(\"sword\")").starts_with("Refused: sword cannot be taken over:"));
  EXPECT_TRUE(error_of("$price(\"excalibur\")").starts_with("ArgumentOutOfRange: "));
}

TEST(StrategiyaEconErrors, WorkNeedsSensibleNumbers) {
  EXPECT_EQ(error_of("$work_turns(10, [3], tools: 2)"),
            "Refused: tools is 2, but it counts the workers who have tools: from 0 to their number, 1");
  EXPECT_EQ(error_of("$build(\"ship\", 2)"),
            "Refused: cells is 2, but only a bridge or a dam is built by the cell, not a ship");
  EXPECT_EQ(error_of("$mine(\"forest\", 2, [3], days_done: 40)"),
            "Refused: days_done is 40, more than the 35 days this deposit has");
  EXPECT_EQ(error_of("$castle([3], 4)"),
            "Refused: lives is 4, but max_lives is not given: give max_lives with lives, as healing stops at the "
            "bar");
}

}  // namespace strategiya_econ_test

// The cases of this file and of its data files, for the coverage check of strategiya_coverage_test.cpp.
std::vector<std::string> testing::strategiya_econ_cases() {
  std::vector<std::string> ids = testing::vector_ids("strategiya-econ.yaml");
  for (const auto& l : strategiya_econ_test::read_lookups()) ids.push_back(l.id);
  return ids;
}

}  // namespace alea
