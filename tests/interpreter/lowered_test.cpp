// tests/interpreter/lowered_test.cpp — the lowered (trace-free) form of a
// program agrees with the evaluator roll for roll on ruleset mechanics, state,
// choices and tier scales, and the sampler says which path it took. The
// language cases are the conformance corpus (tests/conformance/), whose driver
// runs each through the lowered form the same way (tests/support/lowered_agree.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "interpreter/sample/lowered.hpp"
#include "interpreter/stats.hpp"
#include "tests/support/lowered_agree.hpp"

namespace alea {
namespace lowered_test {

Limits tight() { return testing::tight_limits(); }

// A ruleset's mechanics are functions with checked parameters and results.
constexpr std::string_view ruleset = R"(schema: 1
name: fast-test
title: Fast test
source: a test
parameters:
  bonus: {type: int, default: 1, doc: a bonus}
constants:
  target: 8
functions: |
  fn best(p) = p keep highest
mechanics:
  attack:
    doc: an attack
    params:
      dice: {type: int, min: 1, max: 6, doc: d6 to roll}
      edge: {type: label, choices: [low, high], default: high, doc: which}
    body: |
      (if edge == "high" then best(dice d6) else dice d6 keep lowest) + bonus >= target
    returns: {type: bool, doc: hit}
  damage:
    doc: damage
    params:
      n: {type: int, min: 0, doc: dice}
    body: n d6 - 2
    returns: {type: int, min: 0, doc: damage}
)";

TEST(Lowered, AgreesOnRulesetMechanics) {
  Engine engine(EngineOptions{tight(), {}});
  ASSERT_TRUE(engine.load_ruleset_text(ruleset, "fast-test.yaml").empty());
  int errors = 0;
  for (const char* source : {"fast_test.attack(3)", "fast_test.attack(2, edge: \"low\")", "fast_test.attack(d6 - 1)",
                             "fast_test.attack(d6 + 1)", "fast_test.attack(1, edge: if d2 == 1 then \"low\" else \"mid\")",
                             "fast_test.damage(2)", "fast_test.damage(d3 - 1)", "fast_test.damage(2d6)"}) {
    errors += testing::agree(engine, source, {}, 300);
  }
  EXPECT_GT(errors, 100);  // arguments and results out of range, at their places
  const Compiled c = engine.compile("fast_test.attack(3, bonus: 2)");
  ASSERT_TRUE(c.ok());
  std::string why;
  EXPECT_EQ(LoweredProgram::lower(*c.program, {}, tight(), why), nullptr);
  EXPECT_EQ(why, "a call that sets a ruleset parameter");
}

// State, choices, tier scales and record types. A lowered run, like the
// statistics engine, is given no state and no choices: a counter is its
// default and a choice is none. A tier scale's functions lower; what sets or
// changes a counter, a declared record type and roll_each are left to the
// evaluator, which samples them the same way.
constexpr std::string_view state_ruleset = R"(schema: 1
name: state-test
title: State test
source: a test
types:
  die:
    doc: a die
    fields:
      sides: {type: int, min: 2, doc: its sides}
      colour: {type: label, choices: [red, blue], default: red, doc: its colour}
state:
  luck: {type: int, min: 0, max: 3, default: 1, doc: luck points}
choices:
  push: {type: bool, flag: push, doc: pushes the roll}
tiers:
  grade:
    doc: how it went
    levels:
      miss: {doc: "6 or less"}
      partial: {from: 7, doc: "7 to 9"}
      full: {from: 10, doc: "10 or more"}
mechanics:
  move:
    doc: a move
    params:
      stat: {type: int, min: -3, max: 3, doc: the stat}
    body: |
      grade(2d6 + stat + (if push == true then luck else 0))
    returns: {type: label, choices: [miss, partial, full], doc: the grade}
  rank:
    doc: the grade's rank, plus luck
    params:
      stat: {type: int, doc: the stat}
    body: grade_rank(2d6 + stat) + luck
    returns: {type: int, max: 2, doc: the rank}
  spend:
    doc: spends a point of luck
    body: d6 + luck
    returns: {type: int, doc: the total}
    changes:
      luck: {subtract: 1}
  colour_of:
    doc: a described die's colour
    params:
      d: {type: die, doc: the die}
    body: d.colour
    returns: {type: label, choices: [red, blue], doc: its colour}
)";

Engine state_engine() {
  Engine engine(EngineOptions{tight(), {}});
  const Diagnostics d = engine.load_ruleset_text(state_ruleset, "state-test.yaml");
  EXPECT_TRUE(d.empty()) << render_text(d);
  return engine;
}

TEST(Lowered, AgreesOnTierScalesCountersAndChoices) {
  const Engine engine = state_engine();
  int errors = 0;
  for (const char* source : {"state_test.move(1)", "state_test.move(-3)", "state_test.move(d6 - 4)",
                             "state_test.rank(0)", "state_test.rank(d6)", "state_test.grade(3d6) == \"full\"",
                             "state_test.grade_rank(d20) * 2", "state_test.move(d6 - 5)"}) {
    errors += testing::agree(engine, source, {}, 300);
  }
  EXPECT_GT(errors, 100);  // stats and ranks out of range, at their places
}

// The sampler, lowered or not, gives the same statistics digit for digit.
void same_stats(const Engine& engine, std::string_view source, SamplerPath want, const std::string& note) {
  const Compiled c = engine.compile(source);
  ASSERT_TRUE(c.ok()) << source << "\n" << render_text(c.diagnostics);
  StatsOptions o;
  o.sampled_only = true;
  o.samples = 2'000;
  o.seed = 3;
  o.threads = 2;
  const Stats fast = compute_stats(engine, c.program, {}, o);
  o.lowered = false;
  const Stats slow = compute_stats(engine, c.program, {}, o);
  EXPECT_EQ(fast.sampler, want) << source << ": " << fast.sampler_note;
  EXPECT_EQ(fast.sampler_note, note) << source;
  EXPECT_EQ(slow.sampler, SamplerPath::Evaluator) << source;
  ASSERT_EQ(fast.value.entries.size(), slow.value.entries.size()) << source;
  EXPECT_FALSE(fast.value.entries.empty()) << source;
  for (std::size_t i = 0; i < fast.value.entries.size(); ++i) {
    EXPECT_TRUE(fast.value.entries[i].value == slow.value.entries[i].value) << source;
    EXPECT_EQ(fast.value.entries[i].probability.value, slow.value.entries[i].probability.value) << source;
  }
  EXPECT_EQ(fast.errors.value, slow.errors.value) << source;
  ASSERT_EQ(fast.first_error.has_value(), slow.first_error.has_value()) << source;
  if (fast.first_error) {
    EXPECT_EQ(render_text(*fast.first_error), render_text(*slow.first_error)) << source;
  }
}

TEST(Lowered, LeavesStateChangesRecordTypesAndRollEachToTheEvaluator) {
  const Engine engine = state_engine();
  same_stats(engine, "state_test.move(1)", SamplerPath::Lowered, "");
  same_stats(engine, "state_test.rank(d3 - 1)", SamplerPath::Lowered, "");
  // A counter given by name is set for the call; a mechanic's changes come
  // after its body, and later reads see them.
  same_stats(engine, "state_test.rank(-2, luck: 0)", SamplerPath::Evaluator, "a call that sets a ruleset parameter");
  same_stats(engine, "state_test.spend()", SamplerPath::Evaluator, "the state that 'state_test.spend' changes");
  same_stats(engine, "state_test.spend() + state_test.rank(0)", SamplerPath::Evaluator,
             "the state that 'state_test.spend' changes");
  // A record type fills in its defaults (colour: red) and checks the fields.
  same_stats(engine, "state_test.colour_of({sides: 6})", SamplerPath::Evaluator, "records");
  same_stats(engine, "state_test.colour_of({sides: d3})", SamplerPath::Evaluator, "records");
  same_stats(engine, "roll_each([{die: 6}, {die: 8}])", SamplerPath::Evaluator, "the builtin 'roll_each'");
  same_stats(engine, "len(roll_each([{die: 6, colour: \"red\"}]))", SamplerPath::Evaluator, "the builtin 'roll_each'");
}

TEST(Lowered, LeavesOutWhatItDoesNotCover) {
  const Engine engine;
  for (const auto& [source, why] : std::vector<std::pair<std::string, std::string>>{
           {"faces(2d6)", "the builtin 'faces'"},
           {"[d6, d6]", "lists"},
           {"{a: d6}", "records"},
           {"let red = 2d6 in 3d6 cancel red<=", "'cancel'"},
           {"fn f(n) = if n <= 0 then 0 else d6 + f(n - 1); f(3)", "the recursive function 'f'"},
           {"if d2 == 1 then 3d6 else true", "a value whose kind depends on the dice"},
           {"not d6", "a pool where a boolean is needed"},
           {"unknown + 1", "the unknown name 'unknown'"},
       }) {
    const Compiled c = engine.compile(source);
    ASSERT_TRUE(c.ok()) << source;
    std::string got;
    EXPECT_EQ(LoweredProgram::lower(*c.program, {}, Limits{}, got), nullptr) << source;
    EXPECT_EQ(got, why) << source;
  }
}

// The sampler gives the same statistics, digit for digit, whichever path ran
// the samples; and says which one did.
TEST(Lowered, SamplesExactlyAsTheEvaluatorDoes) {
  const Engine engine(EngineOptions{tight(), {}});
  for (const char* source : {"3d6", "4d6kh3", "3d6!", "if d2 == 1 then 1 / 0 else d6 explode 6", "d2!",
                             "2d6 tiers { <=6: miss, 7..9: partial, else: full }", "d6 > 3", "let a = 2d6",
                             "d{-9223372036854775807,1,2} * 2", "d100 * d100 * d100 * d100"}) {
    const Compiled c = engine.compile(source);
    ASSERT_TRUE(c.ok()) << source;
    StatsOptions o;
    o.sampled_only = true;
    o.samples = 3'000;
    o.seed = 5;
    o.threads = 3;
    const Stats fast = compute_stats(engine, c.program, {}, o);
    o.lowered = false;
    const Stats slow = compute_stats(engine, c.program, {}, o);
    EXPECT_EQ(fast.sampler, SamplerPath::Lowered) << source << ": " << fast.sampler_note;
    EXPECT_EQ(slow.sampler, SamplerPath::Evaluator) << source;
    ASSERT_EQ(fast.value.entries.size(), slow.value.entries.size()) << source;
    for (std::size_t i = 0; i < fast.value.entries.size(); ++i) {
      EXPECT_TRUE(fast.value.entries[i].value == slow.value.entries[i].value) << source;
      EXPECT_EQ(fast.value.entries[i].probability.value, slow.value.entries[i].probability.value) << source;
    }
    EXPECT_EQ(fast.value.mean, slow.value.mean) << source;
    EXPECT_EQ(fast.errors.value, slow.errors.value) << source;
    EXPECT_EQ(fast.cut_off.value, slow.cut_off.value) << source;
    ASSERT_EQ(fast.first_error.has_value(), slow.first_error.has_value()) << source;
    if (fast.first_error) {
      EXPECT_EQ(render_text(*fast.first_error), render_text(*slow.first_error)) << source;
    }
  }
}

TEST(Lowered, TheStatsSayWhichPathSampled) {
  const Engine engine;
  StatsOptions o;
  o.sampled_only = true;
  o.samples = 100;
  const Compiled fast = engine.compile("4d6kh3");
  const Compiled slow = engine.compile("faces(3d6)");
  ASSERT_TRUE(fast.ok() && slow.ok());
  const Stats a = compute_stats(engine, fast.program, {}, o);
  EXPECT_EQ(a.sampler, SamplerPath::Lowered);
  EXPECT_EQ(a.sampler_note, "");
  const Stats b = compute_stats(engine, slow.program, {}, o);
  EXPECT_EQ(b.sampler, SamplerPath::Evaluator);
  EXPECT_EQ(b.sampler_note, "the builtin 'faces'");
  const Stats exact = compute_stats(engine, fast.program, {}, {});
  EXPECT_EQ(exact.sampler, SamplerPath::None);
}

}  // namespace lowered_test
}  // namespace alea
