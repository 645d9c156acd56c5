// tests/interpreter/ruleset_state_test.cpp — a ruleset's `state`, `choices`,
// `tiers` and `changes`: their mistakes, each at its place in the YAML file;
// counters that clamp or fail at their bounds; the JSON form of a State and
// the problems a state has against its ruleset.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace ruleset_state_test {

constexpr std::string_view header = "schema: 1\nname: x\ntitle: X\nsource: a test\n";

// "LINE:COL Code message" for each diagnostic, in order.
std::vector<std::string> problems(const std::string& yaml) {
  Engine engine;
  std::vector<std::string> out;
  for (const auto& d : engine.load_ruleset_text(std::string(header) + yaml, "rulesets/x.yaml")) {
    const LineColumn lc = d.span.file->line_column(d.span.begin);
    out.push_back(fmt::format("{}:{} {} {}", lc.line, lc.column, code_name(d.code), d.message));
  }
  return out;
}

// Loads `yaml` (the whole ruleset) into `engine`, which must take it without a problem.
void load(Engine& engine, const std::string& yaml) {
  const Diagnostics loaded = engine.load_ruleset_text(yaml, "rulesets/x.yaml");
  ASSERT_TRUE(loaded.empty()) << loaded.front().message;
}

// A counter `n` from 0 to 3 and mechanics that change it.
const std::string counter_ruleset =
    "state:\n"
    "  n: {type: int, min: 0, max: 3, default: 0, doc: a counter}\n"                  // line 6
    "  m: {type: int, min: 0, max: 3, default: 0, at_limit: error, doc: a strict one}\n"
    "choices:\n"
    "  bold: {type: bool, flag: be-bold, doc: a decision}\n"
    "tiers:\n"
    "  grade:\n"
    "    doc: how it went\n"
    "    levels:\n"
    "      low: {doc: below 4}\n"
    "      mid: {from: 4, doc: 4 and 5}\n"
    "      high: {from: 6, doc: 6 and more}\n"
    "mechanics:\n"
    "  add:\n"
    "    doc: adds k to both\n"
    "    params: {k: {type: int, doc: how much}}\n"
    "    body: k\n"
    "    returns: {type: int, doc: k}\n"
    "    changes:\n"
    "      n: {add: k}\n"
    "      m: {add: k}\n"
    "  bump:\n"
    "    doc: n up by one when bold, else to the default\n"
    "    body: if bold == none then \"undecided\" else if bold then \"bold\" else \"meek\"\n"
    "    returns: {type: string, doc: the decision}\n"
    "    changes:\n"
    "      n: {add: 1, when: result == \"bold\"}\n"
    "      m: {reset: true, when: result != \"bold\"}\n";

Engine counter_engine() {
  Engine e;
  const Diagnostics d = e.load_ruleset_text(std::string(header) + counter_ruleset, "rulesets/x.yaml");
  if (!d.empty()) throw std::runtime_error(render_text(d));
  return e;
}

Outcome run(const Engine& e, std::string_view source, const State& st, const Choices& ch = {}) {
  ScriptedDice dice({});
  const Compiled c = e.compile(source);
  if (!c.ok()) throw std::runtime_error(render_text(c.diagnostics));
  return e.run(c.program, {}, dice, {&st, &ch});
}

std::int64_t counter(const State& st, std::string_view name) {
  const Value* v = st.find("x", name);
  return v ? *v->as_int() : 0;
}

TEST(RulesetState, ClampsOrFailsAtTheBounds) {
  const Engine e = counter_engine();
  State st;
  Outcome o = run(e, "x.add(2)", st);
  ASSERT_TRUE(o.ok());
  st = *o.state;
  EXPECT_EQ(counter(st, "n"), 2);
  EXPECT_EQ(counter(st, "m"), 2);
  // n stops at 3; m is declared `at_limit: error`, so the whole run fails and nothing changes.
  o = run(e, "x.add(2)", st);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::StateOutOfRange);
  EXPECT_EQ(o.error->message, "'m' would become 4, above its greatest value 3");
  EXPECT_FALSE(o.state.has_value());
  EXPECT_EQ(counter(st, "n"), 2);
  o = run(e, "x.add(-5)", st);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->message, "'m' would become -3, below its least value 0");
  // A change that stops at a bound says so in the trace.
  State only_n;
  only_n.set("x", "n", 3);
  o = run(e, "x.bump()", only_n, [] {
    Choices c;
    c.set("x", "bold", true);
    return c;
  }());
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(counter(*o.state, "n"), 3);
  ASSERT_FALSE(o.trace.events.empty());
  EXPECT_EQ(o.trace.events.back().text, "n: 3 → 3 (at most 3)");
}

TEST(RulesetState, ChangesHappenWhenTheirConditionHolds) {
  const Engine e = counter_engine();
  State st;
  st.set("x", "n", 1);
  st.set("x", "m", 2);
  Choices bold;
  bold.set("x", "bold", true);
  Choices meek;
  meek.set("x", "bold", false);
  Outcome o = run(e, "x.bump()", st, bold);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(to_display(*o.value), "bold");
  EXPECT_EQ(counter(*o.state, "n"), 2);
  EXPECT_EQ(counter(*o.state, "m"), 2);
  o = run(e, "x.bump()", st, meek);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(counter(*o.state, "n"), 1);
  EXPECT_EQ(counter(*o.state, "m"), 0);
  // Undecided, the choice is none; a named argument decides it for one call.
  o = run(e, "x.bump() == \"undecided\" and x.bump(bold: true) == \"bold\"", st);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(to_display(*o.value), "true");
  // Calls in one run see each other's changes.
  o = run(e, "x.add(1) + x.add(1)", State{});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(counter(*o.state, "n"), 2);
}

TEST(RulesetState, TierScalesGiveTheLevelAndItsRank) {
  const Engine e = counter_engine();
  const Outcome o = run(e, "[x.grade(3), x.grade(4), x.grade(5), x.grade(99), x.grade_rank(-7), x.grade_rank(6)]", {});
  ASSERT_TRUE(o.ok()) << render_text(*o.error);
  EXPECT_EQ(to_display(*o.value), "[\"low\", \"mid\", \"mid\", \"high\", 0, 2]");
  const Ruleset* r = e.find_ruleset("x");
  ASSERT_EQ(r->tiers.size(), 1u);
  EXPECT_EQ(r->tiers[0].levels[1].name, "mid");
  EXPECT_EQ(r->tiers[0].levels[1].from, 4);
  ASSERT_EQ(r->choices.size(), 1u);
  EXPECT_EQ(r->choices[0].flag, "be-bold");
}

TEST(RulesetState, ReportsMistakesWhereTheyAre) {
  const std::string yaml =
      "state:\n"
      "  n: {type: int, min: 0, max: 3, default: 5, doc: out of range}\n"   // line 6
      "  p: {type: any, default: 0, doc: a state says what it keeps}\n"
      "  q: {type: int, default: 0, at_limit: wrap, doc: no such policy}\n"
      "choices:\n"
      "  c: {type: int, flag: be-c, doc: a flag needs a bool}\n"             // line 10
      "  d: {type: bool, default: true, doc: a choice has no default}\n"
      "tiers:\n"
      "  t:\n"
      "    doc: out of order\n"
      "    levels:\n"
      "      a: {doc: a}\n"
      "      b: {from: 5, doc: b}\n"
      "      c: {from: 5, doc: c}\n"                                         // line 18
      "mechanics:\n"
      "  go:\n"
      "    doc: changes\n"
      "    body: \"1\"\n"
      "    returns: {type: int, doc: one}\n"
      "    changes:\n"
      "      nn: reset\n"                                                    // line 25
      "      q: {add: 1, set: 2}\n"
      "      n: {add: result +}\n";                                          // line 27
  EXPECT_EQ(problems(yaml),
            (std::vector<std::string>{
                "6:43 RulesetInvalidValue the default of 'n' must be at most 3, got 5",
                "7:13 RulesetInvalidValue a state holds an int, bool, string, label, list or record, not any",
                "8:40 RulesetInvalidValue 'at_limit' is 'clamp' (a change stops at the bound) or 'error', not 'wrap'",
                "10:24 RulesetInvalidValue a flag decides a choice true, so the choice must be a bool",
                "11:28 RulesetInvalidValue a choice has no default: when the player does not decide, it is none and "
                "the mechanic decides by its policy",
                "18:17 RulesetInvalidValue the levels go lowest first: 5 is not above the previous level's 'from', 5",
                "25:7 RulesetInvalidValue 'nn' is not a counter of this ruleset's 'state'",
                "26:10 RulesetInvalidValue the change of 'q' needs exactly one of add, subtract, set or reset, not "
                "add and set",
                "27:24 ExpectedExpression expected an expression after the operator, found end of input",
            }));
}

TEST(RulesetState, ReportsChangesTheMechanicCannotMake) {
  const std::string yaml =
      "state:\n"
      "  mood: {type: label, choices: [calm, angry], default: calm, doc: a label}\n"
      "mechanics:\n"
      "  go:\n"
      "    doc: changes\n"
      "    params: {result: {type: int, doc: clashes with the changes' name}}\n"
      "    body: result\n"
      "    returns: {type: int, doc: it}\n"
      "    changes:\n"
      "      mood: reset\n"                  // line 14
      "  up:\n"
      "    doc: adds to a label\n"
      "    body: \"1\"\n"
      "    returns: {type: int, doc: one}\n"
      "    changes:\n"
      "      mood: {add: 1}\n"               // line 20
      "  wrong:\n"
      "    doc: a name that is not there\n"
      "    body: \"1\"\n"
      "    returns: {type: int, doc: one}\n"
      "    changes:\n"
      "      mood: {set: reslt.x}\n";        // line 26
  EXPECT_EQ(problems(yaml),
            (std::vector<std::string>{
                "14:7 RulesetInvalidValue a mechanic with 'changes' cannot have a parameter named 'result': its "
                "changes see its result by that name",
                "20:19 RulesetInvalidValue 'add' applies to an int counter; 'mood' is label",
                "26:19 UnknownName unknown name 'reslt'",
            }));
}

TEST(RulesetState, ALabelCounterIsSetAndChecked) {
  Engine e;
  const Diagnostics d = e.load_ruleset_text(std::string(header) +
                                                "state:\n"
                                                "  mood: {type: label, choices: [calm, angry], default: calm, doc: a label}\n"
                                                "mechanics:\n"
                                                "  feel:\n"
                                                "    doc: sets the mood\n"
                                                "    params: {m: {type: string, doc: the mood}}\n"
                                                "    body: m\n"
                                                "    returns: {type: string, doc: it}\n"
                                                "    changes:\n"
                                                "      mood: {set: m}\n",
                                            "rulesets/x.yaml");
  ASSERT_TRUE(d.empty()) << render_text(d);
  Outcome o = run(e, "x.feel(\"angry\")", {});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(to_display(*o.state->find("x", "mood")), "angry");
  o = run(e, "x.feel(\"sad\")", {});
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->message, "the new value of 'mood' must be one of calm, angry, got \"sad\"");
}

// ---- the JSON form -----------------------------------------------------------------------

TEST(StateJson, RoundTripsAndReportsMistakesAtTheirPlace) {
  StateParse p = parse_state_json("{\"a-b\": {\"n\": 3, \"ok\": true, \"l\": [1, \"x\", null], \"r\": {\"k\": -2}}}",
                                  "s.json");
  ASSERT_TRUE(p.state) << render_text(p.diagnostics);
  EXPECT_EQ(to_display(*p.state->find("a-b", "l")), "[1, \"x\", none]");
  EXPECT_EQ(state_to_json(*p.state),
            "{\n  \"a-b\": {\n    \"l\": [\n      1,\n      \"x\",\n      null\n    ],\n    \"n\": 3,\n"
            "    \"ok\": true,\n    \"r\": {\n      \"k\": -2\n    }\n  }\n}");
  const StateParse again = parse_state_json(state_to_json(*p.state), "s.json");
  ASSERT_TRUE(again.state);
  EXPECT_TRUE(*again.state == *p.state);

  const auto first = [](std::string_view text) {
    const StateParse bad = parse_state_json(text, "s.json");
    if (bad.state) return std::string("parsed");
    const Diagnostic& d = bad.diagnostics.front();
    const LineColumn lc = d.span.file->line_column(d.span.begin);
    return fmt::format("{}:{} {} {}", lc.line, lc.column, code_name(d.code), d.message);
  };
  EXPECT_EQ(first("{\"a\": {\"n\": 3,}\n}"),
            "1:15 StateInvalid this is not valid JSON: syntax error while parsing object key - unexpected '}'; "
            "expected string literal");
  EXPECT_EQ(first(""),
            "1:1 StateInvalid this is not valid JSON: unexpected end of input; expected '[', '{', or a literal");
  EXPECT_EQ(first("[1]"), "1:1 StateInvalid the state must be a JSON object, one entry per ruleset");
  // Each problem is at its entry's or its counter's key.
  EXPECT_EQ(first("{\"a\": 3}"), "1:2 StateInvalid the entry \"a\" must be an object of counters, got 3");
  EXPECT_EQ(first("{\"a\": {\"n\": 2.5}}"), "1:8 StateInvalid a.n: 2.5 is not a whole number");
  EXPECT_EQ(first("{\"a\": {\"n\": 18446744073709551615}}"),
            "1:8 StateInvalid a.n: 18446744073709551615 does not fit in 64 bits");
  EXPECT_EQ(first("{\"a\": {\"n\": " + std::string(100, '[') + std::string(100, ']') + "}}"),
            "1:8 StateInvalid a.n: values nest more than 64 levels deep");
  EXPECT_EQ(first("{\n  \"a\": {\"m\": 1,\n    \"n\": 1.5\n  }\n}"), "3:5 StateInvalid a.n: 1.5 is not a whole number");
  EXPECT_EQ(first("{\"a\\\"b\": 3}"), "1:2 StateInvalid the entry \"a\"b\" must be an object of counters, got 3");
}

// A number JSON can write but a double cannot hold was an uncaught exception; no exception
// leaves parse_state_json, whatever the text.
TEST(StateJson, NumbersOutOfRangeAreErrorsAtTheirPlace) {
  const auto first = [](std::string_view text) {
    StateParse bad;
    EXPECT_NO_THROW(bad = parse_state_json(text, "s.json"));
    if (bad.state) return std::string("parsed");
    const Diagnostic& d = bad.diagnostics.front();
    const LineColumn lc = d.span.file->line_column(d.span.begin);
    return fmt::format("{}:{} {} {}", lc.line, lc.column, code_name(d.code), d.message);
  };
  EXPECT_EQ(first("{\"x\": 1e400}"),
            "1:7 StateInvalid the number 1e400 is out of range; a state holds whole numbers of 64 bits");
  EXPECT_EQ(first("{\"x\": {\"n\": -1e400}}"),
            "1:13 StateInvalid the number -1e400 is out of range; a state holds whole numbers of 64 bits");
  EXPECT_EQ(first("{\n  \"x\": {\n    \"n\": [1, 2e999]\n  }\n}"),
            "3:14 StateInvalid the number 2e999 is out of range; a state holds whole numbers of 64 bits");
  EXPECT_EQ(first("{\"x\": {\"n\": 1e300}}"), "1:8 StateInvalid x.n: 1e+300 is not a whole number");
  EXPECT_EQ(first("{\"x\": \"\xff\"}"),
            "1:8 StateInvalid this is not valid JSON: invalid string: ill-formed UTF-8 byte; last read: '\"\xff'");
}

// A string of the language need not be UTF-8; the state still saves.
TEST(StateJson, SavesAStringThatIsNotUtf8) {
  State st;
  st.set("x", "s", Value(std::string("a\xff")));
  std::string text;
  EXPECT_NO_THROW(text = state_to_json(st));
  EXPECT_TRUE(parse_state_json(text, "s.json").state);
}

TEST(StateJson, ProblemsAgainstTheRuleset) {
  const Engine e = counter_engine();
  State st;
  st.set("x", "n", 9);
  st.set("x", "m", true);
  st.set("x", "nn", 1);
  st.set("other", "z", 1);  // another ruleset's entry is left alone
  EXPECT_EQ(e.check_state(st), (std::vector<std::string>{
                                   "x.m must be an int, got the bool true",
                                   "x.n must be at most 3, got 9",
                                   "the ruleset x has no state 'nn' (did you mean 'n'?)",
                               }));
  const auto values = state_of(*e.find_ruleset("x"), State{});
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0].first, "n");
  EXPECT_EQ(to_display(values[0].second), "0");
}

// A ruleset-wide name is part of a mechanic's calls only where the mechanic can read it: in its
// body, a helper function at any depth, or a change (its amount, its condition, or adding to or
// subtracting from the counter).
TEST(SettableNames, AreTheOnesEachMechanicReads) {
  Engine engine;
  const std::string yaml = std::string(header) +
                           "parameters:\n"
                           "  p: {type: int, default: 1, doc: read through a helper}\n"
                           "  q: {type: int, default: 2, doc: read by the body}\n"
                           "  unused: {type: int, default: 3, doc: read by none}\n"
                           "state:\n"
                           "  n: {type: int, min: 0, max: 9, default: 0, doc: added to}\n"
                           "  m: {type: int, min: 0, max: 9, default: 0, doc: only reset}\n"
                           "choices:\n"
                           "  bold: {type: bool, doc: read by a change's condition}\n"
                           "functions: |\n"
                           "  fn inner() = p\n"
                           "  fn outer() = inner() + 1\n"
                           "mechanics:\n"
                           "  deep:\n"
                           "    doc: p through two functions\n"
                           "    body: outer()\n"
                           "    returns: {type: int, doc: p + 1}\n"
                           "  direct:\n"
                           "    doc: q in the body\n"
                           "    params: {k: {type: int, default: 0, doc: k}}\n"
                           "    body: k + q\n"
                           "    returns: {type: int, doc: k}\n"
                           "  changes:\n"
                           "    doc: changes n and m\n"
                           "    body: 1\n"
                           "    returns: {type: int, doc: one}\n"
                           "    changes:\n"
                           "      n: {add: 1, when: bold == true}\n"
                           "      m: {reset: true}\n";
  ASSERT_NO_FATAL_FAILURE(load(engine, yaml));
  const RulesetSummary r = ruleset_summary(*engine.find_ruleset("x"));
  ASSERT_EQ(r.mechanics.size(), 3u);
  EXPECT_EQ(r.mechanics[0].settable, std::vector<std::string>{"p"});
  EXPECT_EQ(r.mechanics[1].settable, std::vector<std::string>{"q"});
  EXPECT_EQ(r.mechanics[2].settable, (std::vector<std::string>{"n", "bold"}));
  ScriptedDice dice({});
  EXPECT_EQ(to_display(*engine.roll("x.deep(p: 5)", dice).value), "6");
  const Outcome o = engine.roll("x.deep(unused: 5)", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::UnknownArgument);
  EXPECT_FALSE(engine.roll("x.changes(m: 1)", dice).ok());
  const Compiled c = engine.compile("x.changes() + x.deep()");
  EXPECT_EQ(choices_read(c), (std::vector<RulesetName>{{"x", "bold"}}));
  EXPECT_TRUE(choices_read(engine.compile("x.deep()")).empty());
}

// A mechanic's `requires:` refuses a call before its body, at the argument it names; both engines
// (a roll, and the exact odds) give the same error there.
TEST(Requires, RefuseACallAtTheArgumentTheyName) {
  const std::string yaml = std::string(header) +
                           "mechanics:\n"
                           "  pick:\n"                                             // line 6
                           "    doc: one of the faces\n"
                           "    params:\n"
                           "      faces: {type: list, doc: the faces}\n"
                           "      index: {type: int, doc: which one}\n"
                           "    requires:\n"
                           "      - {check: len(faces) > 0, message: there are no faces to pick from}\n"
                           "      - {check: index < len(faces), message: the index is past the last face, argument: index}\n"
                           "    body: faces[index] + d6\n"
                           "    returns: {type: int, doc: the face and a d6}\n";
  Engine engine;
  ASSERT_NO_FATAL_FAILURE(load(engine, yaml));
  ScriptedDice dice({4});
  EXPECT_EQ(to_display(*engine.roll("x.pick([1, 2], 1)", dice).value), "6");
  const auto where = [](const Diagnostic& d) {
    const LineColumn lc = d.span.file->line_column(d.span.begin);
    return fmt::format("{}:{}:{} {} {}", d.span.file->name(), lc.line, lc.column, code_name(d.code), d.message);
  };
  ScriptedDice none({});
  Outcome o = engine.roll("x.pick([1, 2], 5)", none);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(where(*o.error), "rulesets/x.yaml:13:17 Refused the index is past the last face");
  EXPECT_EQ(o.error->notes.front().span.begin, 15u);  // the call's argument `5`
  o = engine.roll("x.pick([], 0)", none);
  EXPECT_EQ(where(*o.error), "rulesets/x.yaml:12:17 Refused there are no faces to pick from");
  EXPECT_EQ(o.error->notes.front().span.begin, 0u);  // no argument named: the whole call
  // The exact engine refuses the same call at the same place.
  const Compiled c = engine.compile("x.pick([1, 2], 5)");
  const Stats s = compute_stats(engine, c.program, {}, {});
  ASSERT_TRUE(s.first_error);
  EXPECT_EQ(where(*s.first_error), "rulesets/x.yaml:13:17 Refused the index is past the last face");
  EXPECT_EQ(s.first_error->notes.front().span.begin, 15u);
}

// A refusal inside a helper function stands at the user's argument it came from, when the helper
// was given a parameter of the mechanic (or a part of one); a computed value blames the whole call.
TEST(Requires, FollowTheBlameThroughHelpers) {
  const std::string yaml = std::string(header) +
                           "parameters:\n"
                           "  start: {type: int, default: 0, doc: the face a call starts from}\n"
                           "functions: |\n"
                           "  fn nth(list, i) = if require(i < len(list), \"past the end\", \"i\") then list[i] else 0\n"
                           "  fn at_of(o) = nth(o.faces, o.at)\n"
                           "mechanics:\n"
                           "  pick:\n"
                           "    doc: one of the faces\n"
                           "    params:\n"
                           "      faces: {type: list, doc: the faces}\n"
                           "      index: {type: int, doc: which one}\n"
                           "    body: nth(faces, index) + nth(faces, index + 1)\n"
                           "    returns: {type: int, doc: two faces}\n"
                           "  first:\n"
                           "    doc: the face an option names\n"
                           "    params:\n"
                           "      opts: {type: record, doc: the options}\n"
                           "    body: at_of(opts)\n"
                           "    returns: {type: int, doc: a face}\n"
                           "  from_start:\n"
                           "    doc: the face the ruleset's start names\n"
                           "    params:\n"
                           "      faces: {type: list, doc: the faces}\n"
                           "    body: nth(faces, start)\n"
                           "    returns: {type: int, doc: a face}\n";
  Engine engine;
  ASSERT_NO_FATAL_FAILURE(load(engine, yaml));
  ScriptedDice none({});
  // The last note is the user's call: at its argument, or whole.
  const auto blamed = [&](std::string_view call) {
    const Outcome o = engine.roll(call, none);
    if (o.ok()) return std::string("ok");
    const Span s = o.error->notes.back().span;
    return std::string(call.substr(s.begin, s.end - s.begin));
  };
  EXPECT_EQ(blamed("x.pick([1, 2, 3], 1)"), "ok");
  EXPECT_EQ(blamed("x.pick([1, 2], 7)"), "7");                   // nth's i is pick's index
  EXPECT_EQ(blamed("x.first({faces: [1], at: 3})"), "{faces: [1], at: 3}");  // o.at is a part of opts
  EXPECT_EQ(blamed("x.pick([1, 2], 1)"), "x.pick([1, 2], 1)");   // index + 1 is computed
  EXPECT_EQ(blamed("x.from_start([4], start: 3)"), "3");          // a ruleset parameter set by name
}

TEST(Requires, MistakesAreReportedAtTheirPlace) {
  EXPECT_EQ(problems("mechanics:\n"
                     "  m:\n"
                     "    doc: d\n"
                     "    params: {n: {type: int, doc: n}}\n"
                     "    requires:\n"
                     "      - {check: n > 0, message: positive, argument: m}\n"
                     "      - {check: n >, message: broken}\n"
                     "      - {message: no check}\n"
                     "    body: n\n"
                     "    returns: {type: int, doc: n}\n"),
            (std::vector<std::string>{
                "10:53 RulesetInvalidValue 'm' is not a parameter of the mechanic 'm'",
                "11:20 ExpectedExpression expected an expression after the comparison, found end of input",
                "12:9 RulesetMissingKey a requirement needs the key 'check'"}));
  EXPECT_EQ(problems("mechanics:\n  m:\n    doc: d\n    requires: n > 0\n    body: 1\n    returns: {type: int, doc: n}\n"),
            (std::vector<std::string>{"8:15 RulesetFieldType 'requires' lists checks of the arguments: - {check: "
                                      "index < len(roll), message: …, argument: index}"}));
}

// `face: d6` makes an int a face of that die, or every item of a list one; lists take lengths.
TEST(DieFaces, AreCheckedWithTheirPlaceAndLengths) {
  const std::string yaml = std::string(header) +
                           "mechanics:\n"
                           "  m:\n"
                           "    doc: d\n"
                           "    params:\n"
                           "      v: {type: int, face: dF, doc: v}\n"
                           "      l: {type: list, face: d12, min_length: 1, max_length: 3, doc: l}\n"
                           "    body: v + sum(l)\n"
                           "    returns: {type: int, doc: n}\n";
  Engine engine;
  ASSERT_NO_FATAL_FAILURE(load(engine, yaml));
  ScriptedDice none({});
  EXPECT_EQ(to_display(*engine.roll("x.m(-1, [12, 1])", none).value), "12");
  const auto error = [&](std::string_view call) {
    const Outcome o = engine.roll(call, none);
    return o.ok() ? std::string("ok") : fmt::format("{} {}", o.error->span.begin, o.error->message);
  };
  EXPECT_EQ(error("x.m(2, [1])"), "4 the argument 'v' must be a face of a dF, -1 to 1; got 2");
  EXPECT_EQ(error("x.m(0, [1, 13])"), "11 the argument 'l[1]' must be a face of a d12, 1 to 12; got 13");
  EXPECT_EQ(error("x.m(0, [])"), "7 the argument 'l' must have at least 1 item, got 0");
  EXPECT_EQ(error("x.m(0, [1, 2, 3, 4])"), "7 the argument 'l' may have at most 3 items, got 4");
  EXPECT_EQ(problems("mechanics:\n  m:\n    doc: d\n    params:\n"
                     "      a: {type: string, face: d6, doc: a}\n"
                     "      b: {type: int, face: 6, doc: b}\n"
                     "      c: {type: int, face: d6, min: 2, doc: c}\n"
                     "      e: {type: int, max_length: 2, doc: e}\n"
                     "      f: {type: list, min_length: 3, max_length: 2, doc: f}\n"
                     "    body: 1\n    returns: {type: int, doc: n}\n"),
            (std::vector<std::string>{
                "9:31 RulesetInvalidValue 'face' applies to the types int and list (of int)",
                "10:28 RulesetInvalidValue 'face' names a die, as in d6, d12 or dF; got '6'",
                "11:28 RulesetInvalidValue 'face' gives the bounds: leave out 'min' and 'max'",
                "12:34 RulesetInvalidValue 'max_length' applies to the type list",
                "13:50 RulesetInvalidValue 'max_length' (2) is below 'min_length' (3)"}));
}

}  // namespace ruleset_state_test
}  // namespace alea
