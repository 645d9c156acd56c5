// tests/rulesets/vectors_test.cpp — the one driver of the rulesets' test vectors:
// every entry of every data file tests/rulesets/vectors/*.yaml is a test,
// Rulesets/RulesetVector.GivesTheSpecifiedResult/<file stem>_<id> (with '-' as
// '_': "dozen_die_T1"), which loads the shipped ruleset the file names, runs the
// call with the scripted dice and compares the fields.
//
// A data file:
//
//   ruleset: dozen-die            # rulesets/<ruleset>.yaml
//   vectors:
//     # T3: what the vector checks, as a comment (the spec's words).
//     - id: T3                    # letters, digits and '_'; unique in the file
//       call: 'dozen_die.melee({pool: 2, ST: 7}, {pool: 1, ST: 7})'
//       dice: [5, 1, 5]           # the faces rolled, in order; all must be used
//       expect:                   # field → the value as the language displays it
//         hits_on_defender: '1'   # a string without its quotes: winner: 'attacker'
//         '': '...'               # '' is the whole value; 'p1.reserve' a dotted path
//       exploded: [6, 6]          # optional: the faces the explosions rolled, in order
//       state: {superiority: '5'} # optional: the ruleset's state before, in the language
//       state_after: {superiority: '1'}  # optional: the state after, as displayed
//       trace: ['6 → miss']       # optional: texts that must be events of the trace
//
// Nothing is skipped quietly: a file that does not parse, an unknown key, a
// missing or mistyped value, a duplicate id or an empty `expect` is a failing
// test named after the file (and the entry), saying what is wrong and where.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "interpreter/api.hpp"
#include "interpreter/rulesets/state.hpp"
#include "tests/support/shipped.hpp"
#include "tests/support/vectors.hpp"

namespace alea::testing {
namespace vectors_test {

// The engine of each ruleset, loaded once; a ruleset that does not load fails its vectors.
const Engine& engine_for(const std::string& ruleset) {
  static std::map<std::string, std::unique_ptr<Engine>> engines;
  static std::map<std::string, std::string> failed;
  if (auto it = engines.find(ruleset); it != engines.end()) return *it->second;
  if (auto it = failed.find(ruleset); it != failed.end()) throw std::runtime_error(it->second);
  try {
    return *engines.emplace(ruleset, std::make_unique<Engine>(engine_with_ruleset(ruleset))).first->second;
  } catch (const std::exception& ex) {
    failed.emplace(ruleset, "the ruleset '" + ruleset + "' does not load: " + ex.what());
    throw std::runtime_error(failed[ruleset]);
  }
}


class RulesetVector : public ::testing::TestWithParam<Vector> {};

TEST_P(RulesetVector, GivesTheSpecifiedResult) {
  const Vector& v = GetParam();
  if (!v.error.empty()) FAIL() << "malformed test data: " << v.error;
  const std::string at = "tests/rulesets/vectors/" + v.file + ":" + std::to_string(v.line) + " (" + v.id + "): ";
  const Engine* engine = nullptr;
  try {
    engine = &engine_for(v.ruleset);
  } catch (const std::exception& ex) {
    FAIL() << at << ex.what();
  }
  ScriptedDice dice(v.dice);
  Outcome o;
  if (v.state.empty() && v.state_after.empty()) {
    o = engine->roll(v.call, dice);
  } else {
    State before;
    for (const auto& [name, source] : v.state) {
      ScriptedDice none({});
      const Outcome value = engine->roll(source, none);
      ASSERT_TRUE(value.ok()) << at << "the state's " << name << " = " << source << ": " << render_text(*value.error);
      before.set(v.ruleset, name, *value.value);
    }
    const Compiled c = engine->compile(v.call);
    ASSERT_TRUE(c.ok()) << at << v.call << ": " << render_text(c.diagnostics);
    o = engine->run(c.program, {}, dice, RunInput{&before, nullptr});
  }
  ASSERT_TRUE(o.ok()) << at << v.call << ": " << render_text(*o.error);
  for (const auto& [field, want] : v.expect) {
    try {
      EXPECT_EQ(shown(*o.value, field), want)
          << at << v.call << " → " << to_display(*o.value) << " (field '" << field << "')";
    } catch (const std::exception& ex) {
      ADD_FAILURE() << at << v.call << ": " << ex.what();
    }
  }
  // Exactly the scripted dice are rolled: no roll where the rules need none.
  EXPECT_EQ(dice.used(), v.dice.size()) << at << v.call << " → " << to_display(*o.value);
  if (v.exploded) {
    std::vector<std::int64_t> exploded;
    for (const auto& d : o.trace.dice) {
      if (d.origin == DieOrigin::Exploded) exploded.push_back(d.face);
    }
    EXPECT_EQ(exploded, *v.exploded) << at << v.call << ": the dice the explosions rolled";
  }
  for (const auto& text : v.trace) {
    const bool traced = std::any_of(o.trace.events.begin(), o.trace.events.end(),
                                    [&](const auto& event) { return event.text == text; });
    EXPECT_TRUE(traced) << at << v.call << ": no event '" << text << "' in the trace";
  }
  if (!v.state_after.empty()) {
    const Ruleset* ruleset = engine->find_ruleset(v.ruleset);
    ASSERT_NE(ruleset, nullptr) << at << "no ruleset " << v.ruleset;
    ASSERT_TRUE(o.state.has_value()) << at << v.call << ": the run gives no state";
    const auto counters = state_of(*ruleset, *o.state);
    for (const auto& [counter, want] : v.state_after) {
      const std::string& name = counter;  // clang 14 cannot capture a structured binding
      const auto it = std::find_if(counters.begin(), counters.end(), [&](const auto& c) { return c.first == name; });
      if (it == counters.end()) {
        ADD_FAILURE() << at << "the ruleset " << v.ruleset << " keeps no counter " << name;
        continue;
      }
      EXPECT_EQ(shown(it->second, ""), want) << at << v.call << ": the state's " << name << " after the call";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Rulesets, RulesetVector, ::testing::ValuesIn(load_vectors()),
                         [](const ::testing::TestParamInfo<Vector>& i) { return i.param.name; });

}  // namespace vectors_test
}  // namespace alea::testing
