// tests/interpreter/lowered_test.cpp — the lowered (trace-free) form of a
// program agrees with the evaluator roll for roll: for every expression of a
// corpus and many seeds, the same value or the same error at the same place,
// and the generator left in the same state (the same dice were drawn).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "interpreter/lowered.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace {

// Limits small enough that the corpus meets every limit now and then.
Limits tight() {
  Limits l;
  l.max_dice = 40;
  l.max_explosion_depth = 3;
  l.max_rerolls = 3;
  l.max_sides = 100;
  return l;
}

const Bindings& bindings() {
  static const Bindings b{{"bonus", Value(2)}, {"st", Value(5)}, {"label", Value(std::string("hit"))},
                          {"flag", Value(true)}, {"nothing", Value(NoneValue{})}};
  return b;
}

// Runs `source` on seeds 0..seeds-1 both ways; returns how many runs ended in
// an error (so a case can show it met the errors it is there for).
int agree(const Engine& engine, std::string_view source, int seeds) {
  const Limits& limits = engine.options().limits;
  const Compiled c = engine.compile(source);
  EXPECT_TRUE(c.ok()) << source << "\n" << render_text(c.diagnostics);
  if (!c.ok()) return 0;
  std::string why;
  const auto fast = LoweredProgram::lower(*c.program, bindings(), limits, why);
  EXPECT_TRUE(fast) << source << " is not lowered: " << why;
  if (!fast) return 0;
  LoweredProgram::Scratch scratch(*fast);
  int errors = 0;
  for (int seed = 0; seed < seeds; ++seed) {
    RandomDice walker_dice(static_cast<std::uint64_t>(seed)), fast_dice(static_cast<std::uint64_t>(seed));
    const Outcome o = evaluate(c.program, bindings(), walker_dice, limits);
    const LoweredResult r = fast->run(scratch, fast_dice);
    const std::string where = fmt::format("{} (seed {})", source, seed);
    EXPECT_TRUE(walker_dice == fast_dice) << where << ": the two drew different dice";
    if (o.error) {
      ++errors;
      if (r.status != LoweredResult::Status::Error) {
        ADD_FAILURE() << where << ": the evaluator failed (" << o.error->message << "), the lowered form did not";
        continue;
      }
      EXPECT_EQ(code_name(r.code), code_name(o.error->code)) << where;
      EXPECT_TRUE(r.span.file == o.error->span.file && r.span.begin == o.error->span.begin &&
                  r.span.end == o.error->span.end)
          << where << ": " << r.span.begin << ".." << r.span.end << " vs " << o.error->span.begin << ".."
          << o.error->span.end;
    } else if (!o.value) {
      EXPECT_EQ(r.status, LoweredResult::Status::NoValue) << where;
    } else {
      if (r.status != LoweredResult::Status::Value) {
        ADD_FAILURE() << where << ": the evaluator gave " << to_display(*o.value) << ", the lowered form did not";
        continue;
      }
      const Value want = o.value->as_pool() ? Value(*o.value->number()) : *o.value;
      EXPECT_EQ(to_display(fast->value(r)), to_display(want)) << where;
      EXPECT_TRUE(fast->value(r) == want) << where;
    }
  }
  return errors;
}

int agree(std::string_view source, const Limits& limits, int seeds) {
  return agree(Engine(EngineOptions{limits, {}}), source, seeds);
}

struct Case {
  const char* source;
  bool errs = false;  // with tight limits, some runs end in an error
};

// Dice of every form, every pool operation, arithmetic, comparisons, if/let,
// tiers, builtins, program-level lets and host names.
const std::vector<Case>& corpus() {
  static const std::vector<Case> c = {
      {"3d6"}, {"4d6kh3"}, {"10d10>=8"}, {"3d6!"}, {"8d12"}, {"20d6"}, {"d20"}, {"d%"}, {"4dF"},
      {"3d{1,1,2,3,5,8}"}, {"2d{-1..1,5}"}, {"0d6"}, {"0d6 + 0"}, {"0d1!"}, {"d1 explode limit 3"},
      {"4d6kl2"}, {"4d6dh"}, {"4d6d"}, {"4d6 drop highest 2"}, {"5d6 keep >=4"}, {"5d6 drop =1"},
      {"38d6kh20"}, {"38d6 keep lowest 17"}, {"35d3kh25"}, {"35d3 drop lowest 11"}, {"90d6kh50"}, {"70d3 drop highest 33"}, {"4d6 keep highest 0"},
      {"2d20kh1"}, {"2d20kl1"}, {"5d20kh1"}, {"5d{-3..3}kl1"}, {"5d20 drop highest 4"}, {"5d20 drop lowest 1"},
      {"5d20kl4"}, {"80d6kh79"}, {"80d6 drop lowest 79"}, {"(5d12 under 6) keep highest 4"}, {"(5d12 under 6) drop lowest 4"},
      {"4d6 keep highest 9"}, {"4d6 drop highest 9"}, {"4d6 keep highest (d6 - 3)", true},
      {"5d10>=8f1"}, {"5d10 count >=8 fail 1 double 10"}, {"5d10cf<=2"}, {"6d6=6"}, {"6d6 count <>3 fail >5"},
      {"4d12 under 5"}, {"3d12 under 14 except 12"}, {"3d12 under 14 except none"}, {"sum(4d12 under 5)"},
      {"4d12 under 5 + 1"}, {"4d12 under (d12) except >=(d6 + 6)"}, {"(4d12 under 6) keep highest"}, {"4d12 under 6 sort"},
      {"3d6!!"}, {"3d6!!kh1"}, {"3d6!kh1"}, {"3d6 compound >=5 limit 1"}, {"d6!p"}, {"d4!p"},
      {"d6 explode 6 limit 2"}, {"3d6 explode >=5"}, {"4d6!kh3"}, {"4d6kh3!"}, {"4d6!kh3 count >=5"},
      {"d6 explode >=1 limit 2"}, {"2d6 explode 6 limit none"}, {"d2!", true}, {"d2!!", true}, {"d2!p", true},
      {"d6 explode >=1", true}, {"d1!", true}, {"3d6 explode 6 limit (d3 - 2)", true}, {"10d6!", true},
      {"2dF explode 1", true}, {"(4d12 under 6) explode 5"}, {"(4d12 under 6) compound 5"}, {"3d{1,2,3}!"},
      {"3d6!p"}, {"70d6!", true}, {"3d6 explode (d6)"}, {"3d6 explode (3d6) limit (d3)"}, {"10d10>=(d10)"},
      {"10dF count 1 fail -1"}, {"10d{1,2,3} count 3 double 3"}, {"70d6 count 6 fail 1", true},
      {"let p = 3d6 in (p explode 6) + p"}, {"(4d6 sort) explode 6"}, {"(90d6 drop lowest 45) explode", true}, {"d{1,2,2} explode 2", true}, {"d{5} explode", true},
      {"2d6r"}, {"2d6r1"}, {"2d6 reroll <=2"}, {"2d6ro1"}, {"2d6 reroll 1 once"}, {"d6 reroll >=1", true},
      {"d2r", true}, {"d6r<=5", true}, {"d6 reroll <=5 once"}, {"4dF reroll -1"},
      {"4d6u"}, {"4d3 unique", true}, {"6d6u", true}, {"3d6 sort"}, {"4d6sd[0]"}, {"(4d6 sort)[3]"},
      {"let p = 4d6 in p[3]"}, {"(3d6)[d6 - 1]", true}, {"(d{1,1,1,2} + 0)d6 unique"},
      {"4d6 clamp min 2 max 5"}, {"4d6min2"}, {"4d6max3"}, {"4d6 clamp min 5 max 2", true},
      {"4d6 clamp min (d6) max (d6)", true}, {"3d6 clamp min 9223372036854775807", true},
      {"2d{9223372036854775807,1}", true}, {"2d{-9223372036854775807,-1,1}", true},
      {"d{9223372036854775807,1} explode 1 limit 1", true}, {"sum(2d{9223372036854775807,1} under 1)"},
      {"sum(3d{4611686018427387904,1} under 4611686018427387904)", true}, {"d{9223372036854775807,-1}!!", true},
      {"2d6 + 3"}, {"d6 - d6"}, {"2d6 * 3d6"}, {"d20 / d4"}, {"d20 % d6"}, {"-d6"}, {"-(3d6kh2)"},
      {"100 / (d6 - 3)", true}, {"d6 % (d3 - 2)", true}, {"9223372036854775807 + d6", true},
      {"d6 * 4611686018427387904", true}, {"-9223372036854775807 - d2", true}, {"(-9223372036854775807 - 1) / -d1", true},
      {"2d6 >= 7"}, {"d6 == d6"}, {"3d6 != 10"}, {"d6 < d6 and d6 > 2"}, {"d6 == 1 or d6 == 6"},
      {"not (d6 > 3)"}, {"d6 == true"}, {"3d6 != \"x\""}, {"none == none"}, {"d6 == none"}, {"3d6 == 2d6 + d6"},
      {"if d6 > 3 then 2d6 else d4"}, {"let x = d6 in x + x"}, {"let p = 3d6 in p keep highest + p keep lowest"},
      {"let p = 4d6 in len(p keep highest 2) + sum(p)"}, {"if d2 == 1 then 1 / 0 else d6 explode 6", true},
      {"if d6 >= 4 then \"hit\" else \"miss\""}, {"if d2 == 1 then 3d6 else 5"}, {"(if d2 == 1 then 3d6 else 2d6) keep highest"},
      {"let n = d4 in n d6"}, {"(1d4)d6"}, {"3d(2*3)"}, {"(d6 - 4)d6", true}, {"2d(d6 - 2)", true},
      {"2d(d6 * 30)", true}, {"let x = 3d6 in let y = x keep highest 2 in y + x"}, {"let p = 3d6 in p explode 6 + p"},
      {"let p = 5d6 in (p reroll <=2) + (p explode) + (p unique) + (p clamp min 3) + (p under 3) + (p keep highest 2)", true},
      {"2d6 tiers { <=6: miss, 7..9: partial, else: full }"}, {"d20 tiers { >=15: 2, >=10: 1 }", true},
      {"3d6 tiers { <=8: 3d6, 9..(d6 + 10): 2d6, else: 0 }"}, {"d6 tiers { 1: d6 == 1, else: false }"},
      {"(d6 tiers { <=3: 2d6, else: 4d6 }) keep highest"},
      {"note(\"roll\", 3d6)"}, {"(note(d6, 4d6)) keep highest 2"}, {"note(\"x\", 1 / (d2 - 1))", true},
      {"sum(3d6)"}, {"sum(2d6, 3)"}, {"sum(d6)"}, {"len(3d6kh2)"}, {"max(4d6)"}, {"min(4d6)"},
      {"max(d6, d6, d6)"}, {"min(d6, d6, d6, d6, d6)"}, {"abs(d6 - d6)"}, {"floor_div(d20, d4)"},
      {"ceil_div(d20, -d4)"}, {"trunc_div(-d20, d3)"}, {"round_div(d20, d4 - 2)", true},
      {"round_div(-d20, d4 + 1)"}, {"clamp(3d6, 6, 15)"}, {"clamp(d6, d6, d6)", true}, {"max(0d6)", true},
      {"sum(0d6)"}, {"min(4d6 under 3)", true}, {"abs(-9223372036854775807 - d2)", true},
      {"sum(9223372036854775807, d2 - 1)", true}, {"floor_div(-9223372036854775807 - d1, -d1)", true},
      {"let pool = 4; let st = 5; pool d12 under st"}, {"let a = 3d6; let b = a keep highest; a + b"}, {"let a = 2d6"},
      {"let a = 2d6; let a = a + d6; a"}, {"fn f(x) = x; let q = 3d6kh2"}, {"d20 + bonus"},
      {"st d12 under st"}, {"if flag then label else \"miss\""}, {"3d6 explode 6 limit nothing"}, {"3d6 explode 6 limit (if d6 > 3 then none else none)"},
      {"4d12 under 5 except (if d6 > 3 then none else none)"}, {"(if d6 > 3 then none else none) == none"},
      {"fn atk(bonus) = d20 + bonus; atk(5)"}, {"fn f(x, y = 2d6) = x + y; f(3) + f(1, 4) + f(y: d4, x: 1)"},
      {"fn best(p) = p keep highest; best(4d6) + best(2d20)"}, {"fn pick(p) = p; (pick(3d6)) keep highest 2"},
      {"fn hit(t) = d20 >= t; fn two(t) = hit(t) and hit(t); two(d20)"}, {"fn half(x) = x / (d3 - 2); half(3d6)", true},
      {"fn g(n) = n d6; fn h(n) = g(n) + g(n); h(d4 * 6)", true}, {"let k = 3; fn f(x) = x + k; f(d6)"},
      {"100d6", true}, {"40d6!", true}, {"12d12 count <=7"}, {"10d10kh3"}, {"5d6"}, {"10d6kh5"},
      {"(d6)d6 + (d6)d6 + 30d6", true}, {"3d6 explode 6 keep highest 2 count >= 4"},
      {"d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6", true},
  };
  return c;
}

TEST(Lowered, AgreesWithTheEvaluatorRollForRoll) {
  for (const Case& c : corpus()) agree(c.source, Limits{}, 200);
}

TEST(Lowered, AgreesWithTheEvaluatorAtEveryLimit) {
  int cases_with_errors = 0;
  for (const Case& c : corpus()) {
    const int errors = agree(c.source, tight(), 200);
    if (c.errs) {
      EXPECT_GT(errors, 0) << c.source << " was meant to meet an error";
      ++cases_with_errors;
    }
  }
  EXPECT_GT(cases_with_errors, 40);
}

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
    errors += agree(engine, source, 300);
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
    errors += agree(engine, source, 300);
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

}  // namespace
}  // namespace alea
