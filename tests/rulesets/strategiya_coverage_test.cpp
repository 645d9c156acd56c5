// tests/rulesets/strategiya_coverage_test.cpp — every test vector of
// specs/strategiya.md, V1 to V299, is checked by a case: a vector of the data files
// tests/rulesets/vectors/strategiya-rules.yaml (character and combat) and
// strategiya-econ.yaml (world and economy), a lookup of strategiya_lookups.yaml, or a
// case of strategiya_rules_test.cpp or strategiya_econ_test.cpp; and every case names
// a vector, a rule or a resolution.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "tests/rulesets/strategiya_cases.hpp"

namespace alea {
namespace strategiya_coverage_test {

constexpr int kVectors = 299;  // V1-V299 (spec section 3)

std::vector<std::string> all_cases() {
  std::vector<std::string> cases = testing::strategiya_rules_cases();
  for (auto& c : testing::strategiya_econ_cases()) cases.push_back(std::move(c));
  return cases;
}

// "V13" and "V13_award" cover V13; "V130" does not.
bool covers(const std::string& case_id, const std::string& vector_id) {
  return case_id == vector_id || case_id.starts_with(vector_id + "_");
}

// The letter and number a case is named after: "V13_award" → V13, "R42_ok" → R42.
std::string named_after(const std::string& case_id) { return case_id.substr(0, case_id.find('_')); }

TEST(StrategiyaCoverage, EveryVectorHasATest) {
  const auto cases = all_cases();
  std::vector<std::string> missing;
  for (int i = 1; i <= kVectors; ++i) {
    const std::string id = fmt::format("V{}", i);
    if (std::none_of(cases.begin(), cases.end(), [&](const std::string& c) { return covers(c, id); })) {
      missing.push_back(id);
    }
  }
  EXPECT_TRUE(missing.empty()) << missing.size() << " vectors without a test: " << fmt::format("{}", fmt::join(missing, ", "));
}

TEST(StrategiyaCoverage, EveryCaseNamesAVectorARuleOrAResolution) {
  for (const auto& c : all_cases()) {
    const std::string head = named_after(c);
    const bool numbered = head.size() >= 2 && std::all_of(head.begin() + 1, head.end(), [](char ch) {
                            return std::isdigit(static_cast<unsigned char>(ch)) != 0;
                          });
    ASSERT_TRUE(numbered && (head[0] == 'V' || head[0] == 'R' || head[0] == 'A')) << c;
    const int n = std::stoi(head.substr(1));
    const int last = head[0] == 'V' ? kVectors : head[0] == 'R' ? 92 : 58;  // R1-R92, A1-A58
    EXPECT_TRUE(n >= 1 && n <= last) << c << " names no " << head[0] << " of the spec";
  }
}

}  // namespace strategiya_coverage_test
}  // namespace alea
