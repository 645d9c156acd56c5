// tests/rulesets/strategiya_cases.hpp — the case names of the two test files of
// rulesets/strategiya.yaml and of their data files (tests/rulesets/vectors/
// strategiya-*.yaml, tests/rulesets/strategiya_lookups.yaml; a data file that does
// not read throws, naming the problem), for the check that together they cover every test
// vector of specs/strategiya.md (strategiya_coverage_test.cpp). A case is named
// after the vector it checks ("V13", or "V13_award" for one of several), or
// after the rule or resolution it checks when the spec gives no vector ("R42_ok",
// "A45_total").
#pragma once

#include <string>
#include <vector>

namespace alea::testing {

std::vector<std::string> strategiya_rules_cases();  // strategiya_rules_test.cpp, strategiya-rules.yaml
std::vector<std::string> strategiya_econ_cases();   // strategiya_econ_test.cpp, strategiya-econ.yaml, the lookups

}  // namespace alea::testing
