// tests/interpreter/api_test.cpp — the public API as an embedding host uses it:
// compile once and run many times, bindings, sessions, threads, limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>
#include <thread>

#include <nlohmann/json.hpp>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace api_test {

TEST(Engine, CompilesOnceAndRunsWithDifferentBindingsAndDice) {
  Engine engine;
  Compiled c = engine.compile("attack d20 + bonus");
  ASSERT_TRUE(c.ok()) << render_text(c.diagnostics);
  ScriptedDice d1({7, 12}), d2({20});
  Outcome a = engine.run(c.program, Bindings{{"attack", Value(2)}, {"bonus", Value(3)}}, d1);
  Outcome b = engine.run(c.program, Bindings{{"attack", Value(1)}, {"bonus", Value(-1)}}, d2);
  EXPECT_EQ(to_display(*a.value), "22");
  EXPECT_EQ(to_display(*b.value), "19");
}

// Scripted faces left over are the host's to judge: the outcome lists them, in order.
TEST(Engine, TellsTheHostWhichScriptedDiceWereLeftOver) {
  Engine engine;
  ScriptedDice over({3, 4, 5, 6}), exact({1, 2}), short_of_one({1, 2});
  Outcome o = engine.roll("2d6", over);
  EXPECT_EQ(to_display(*o.value), "7");
  EXPECT_EQ(o.unused_dice, (std::vector<std::int64_t>{5, 6}));
  EXPECT_TRUE(engine.roll("2d6", exact).unused_dice.empty());
  EXPECT_TRUE(engine.roll("2d6", 7).unused_dice.empty());
  o = engine.roll("3d6", short_of_one);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->message, "ran out of scripted dice: this roll needs 3 d6, and only 2 were given; give at least 1 more");
}

TEST(Engine, ReportsEveryResolveErrorAtOnce) {
  Engine engine;
  Compiled c = engine.compile("frob(1) + len(1, 2) + mxa(3)");
  ASSERT_FALSE(c.ok());
  ASSERT_EQ(c.diagnostics.size(), 3u);
  EXPECT_EQ(c.diagnostics[0].code, DiagCode::UnknownFunction);
  EXPECT_EQ(c.diagnostics[1].code, DiagCode::WrongArgumentCount);
  EXPECT_EQ(render_text(c.diagnostics[2]),
            "<input>:1:23: error: unknown function 'mxa' [UnknownFunction]\n"
            " 1 | frob(1) + len(1, 2) + mxa(3)\n"
            "   |                       ^~~\n"
            "note: did you mean 'max'?\n");
}

TEST(Engine, SameSeedSameOutcome) {
  Engine engine;
  EXPECT_EQ(render_breakdown(engine.roll("10d10!kh3 + 4dF", 99)), render_breakdown(engine.roll("10d10!kh3 + 4dF", 99)));
  EXPECT_NE(render_breakdown(engine.roll("10d10", 1)), render_breakdown(engine.roll("10d10", 2)));
}

TEST(Engine, IsSafeToRunFromManyThreadsAtOnce) {
  Engine engine;
  Compiled c = engine.compile("fn f(n) = n d6 explode 6 keep highest 3\nrepeat 20 { f(5) + 4dF }");
  ASSERT_TRUE(c.ok());
  const std::string expected = [&] {
    RandomDice d(5);
    return to_display(*engine.run(c.program, {}, d).value);
  }();
  std::vector<std::thread> threads;
  std::vector<std::string> got(8);
  for (std::size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] {
      for (int k = 0; k < 200; ++k) {
        RandomDice d(5);
        got[i] = to_display(*engine.run(c.program, {}, d).value);
        if (got[i] != expected) return;
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& g : got) EXPECT_EQ(g, expected);
}

TEST(Engine, LimitsAreConfigurable) {
  EngineOptions options;
  options.limits.max_dice = 5;
  Engine engine(options);
  ScriptedDice dice({1, 2, 3, 4, 5, 6});
  Outcome o = engine.roll("3d6 + 3d6", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::DiceLimitExceeded);
  EXPECT_EQ(o.error->message,
            "this roll needs 3 more dice after 3; at most 5 may be rolled in one evaluation (max_dice)");
  // The dice rolled before the error are still in the trace.
  EXPECT_EQ(o.trace.dice.size(), 3u);
}

TEST(Engine, HostileInputEndsInADiagnosticQuickly) {
  Engine engine;
  for (std::string_view src : {"9999999d9999999", "9999999d6", "1d1 explode 1", "1d1!", "loop x = 0 while true { x }",
                               "fn f(x) = f(x) + f(x)\nf(1)", "repeat 10000 { repeat 10000 { 1 } }",
                               "fn f(n) = if n == 0 then [1] else concat(f(n - 1), f(n - 1))\nf(30)",
                               "range(1, 100000000)",
                               // values nested 50,000 deep once crashed the printer and the destructor
                               "fn w(v, k) = (loop x = {n: 0, v: v} until x.n >= k { {n: x.n + 1, v: [x.v]} }).v\n"
                               "(loop y = {n: 0, v: []} until y.n >= 20 { {n: y.n + 1, v: w(y.v, 2500)} }).v"}) {
    Outcome o = engine.roll(src, 1);
    ASSERT_FALSE(o.ok()) << src;
    EXPECT_FALSE(render_text(*o.error).empty());
  }
}

TEST(Engine, ARunStopsWhenTheHostCancelsIt) {
  std::atomic<bool> cancel{false};
  RandomDice dice(1);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cancel = true;
  });
  // Without the flag this loop would end only at max_loop_iterations; with it
  // raised past reach, only the flag can stop it.
  EngineOptions options;
  options.limits.max_loop_iterations = std::int64_t{1} << 60;
  options.limits.max_steps = std::int64_t{1} << 60;
  options.limits.max_dice = std::int64_t{1} << 60;
  Engine patient(options);
  Compiled p = patient.compile("loop x = 0 while true { x + 0 * d6 }");
  ASSERT_TRUE(p.ok());
  Outcome o = patient.run(p.program, {}, dice, RunInput{.cancel = &cancel});
  stopper.join();
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::Interrupted);
  EXPECT_FALSE(o.state.has_value());
}

TEST(Engine, LongOperatorChainsEndInADiagnosticNotADeepTree) {
  std::string chain = "1";
  for (int i = 0; i < 30'000; ++i) chain += "+1";
  Outcome o = Engine().roll(chain, 1);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::NestingTooDeep);
  std::string fine = "1";
  for (int i = 0; i < 700; ++i) fine += "+1";
  EXPECT_EQ(to_display(*Engine().roll(fine, 1).value), "701");
}

TEST(Engine, ValuesNestOnlySoDeep) {
  Outcome o = Engine().roll("loop x = [] until len(str(x)) > 1000 { [x] }", 1);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->message, "values nest more than 100 levels deep (max_value_depth)");
}

TEST(Engine, ParseLimitsAreConfigurable) {
  EngineOptions options;
  options.parse.max_input_bytes = 10;
  Outcome o = Engine(options).roll("1 + 2 + 3 + 4", 1);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::InputTooLong);
  options.parse = {};
  options.parse.max_nesting = 3;
  o = Engine(options).roll("((((1))))", 1);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::NestingTooDeep);
}

// A loaded ruleset is opaque in the API; its summary names what a host calls and shows.
TEST(Engine, SummarisesALoadedRuleset) {
  Engine engine;
  const Diagnostics loaded = engine.load_ruleset_file(std::string(ALEA_SOURCE_DIR) + "/rulesets/pbta-superiority.yaml",
                                                      "rulesets/pbta-superiority.yaml");
  ASSERT_TRUE(loaded.empty()) << render_text(loaded);
  ASSERT_EQ(engine.rulesets().size(), 1u);
  const Ruleset* r = engine.find_ruleset("pbta_superiority");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r, engine.rulesets().front());
  const RulesetSummary s = ruleset_summary(*r);
  EXPECT_EQ(s.name, "pbta-superiority");
  EXPECT_EQ(s.ident, "pbta_superiority");
  EXPECT_EQ(s.title, "PbtA with the superiority die");
  EXPECT_EQ(s.file, "rulesets/pbta-superiority.yaml");
  EXPECT_EQ(s.parameters, std::vector<std::string>{"policy"});
  EXPECT_EQ(s.state, std::vector<std::string>{"superiority"});
  EXPECT_EQ(s.choices, std::vector<std::string>{"use_superiority"});
  const auto move = std::find_if(s.mechanics.begin(), s.mechanics.end(),
                                 [](const RulesetSummary::Mechanic& m) { return m.name == "move"; });
  ASSERT_NE(move, s.mechanics.end());
  EXPECT_EQ(move->group, "moves");
  EXPECT_EQ(move->params, std::vector<std::string>{"stat"});
  EXPECT_EQ(move->result, (std::vector<std::string>{"dice", "final_dice", "replaced", "total", "tier", "success",
                                                    "gm_move", "superiority_used", "superiority_after"}));
  EXPECT_FALSE(move->doc.empty());
  // What the summary names is what a program calls.
  ScriptedDice dice({1, 3});
  const Outcome o = engine.roll(s.ident + "." + move->name + "(1)", dice);
  ASSERT_TRUE(o.ok()) << render_text(*o.error);
  EXPECT_EQ(to_display(*o.value->field(move->result[3])), "5");
}

TEST(Session, KeepsVariablesAndFunctionsBetweenInputs) {
  Engine engine;
  Session s(engine);
  ScriptedDice dice({3, 4, 5});
  ASSERT_TRUE(s.eval("let str = 2d6", dice).ok());
  ASSERT_TRUE(s.eval("fn bonus(x) = x / 2", dice).ok());
  Outcome o = s.eval("str + bonus(str)", dice);
  ASSERT_TRUE(o.ok()) << render_text(*o.error);
  EXPECT_EQ(to_display(*o.value), "10");
  ASSERT_EQ(s.functions().size(), 1u);
  EXPECT_EQ(s.functions()[0].name, "bonus");
  EXPECT_EQ(s.functions()[0].params, std::vector<std::string>{"x"});
}

TEST(Session, AnInputWithAnErrorChangesNothing) {
  Engine engine;
  Session s(engine);
  ScriptedDice dice({1, 2, 3});
  ASSERT_TRUE(s.eval("let x = 1", dice).ok());
  EXPECT_FALSE(s.eval("let x = 2\nlet y = x / 0", dice).ok());
  EXPECT_FALSE(s.eval("fn g() = 1\nnosuch()", dice).ok());
  EXPECT_EQ(to_display(*s.variables().find("x")), "1");
  EXPECT_EQ(s.variables().find("y"), nullptr);
  EXPECT_TRUE(s.functions().empty());
}

TEST(Json, CarriesTheValueAndEveryDie) {
  Engine engine;
  ScriptedDice dice({6, 4, 1, 3});
  Outcome o = engine.roll("3d6 explode 6", dice);
  const auto doc = nlohmann::json::parse(render_json(o, "3d6 explode 6"));
  EXPECT_EQ(doc["value"], 14);
  EXPECT_EQ(doc["ok"], true);
  ASSERT_EQ(doc["dice"].size(), 4u);
  EXPECT_EQ(doc["dice"][0]["marks"][0], "exploded");
  EXPECT_EQ(doc["dice"][3]["origin"], "exploded");
  EXPECT_EQ(doc["dice"][3]["parent"], 0);
  EXPECT_EQ(doc["dice"][3]["by"], "explode 6");
}

TEST(Json, CarriesTheErrorWithItsPosition) {
  Engine engine;
  Outcome o = engine.roll("3d6 + (2", 1);
  const auto doc = nlohmann::json::parse(render_json(o, "3d6 + (2"));
  EXPECT_EQ(doc["ok"], false);
  EXPECT_EQ(doc["error"]["code"], "UnclosedDelimiter");
  EXPECT_EQ(doc["error"]["location"]["file"], "<input>");
  EXPECT_EQ(doc["error"]["location"]["line"], 1);
  EXPECT_EQ(doc["error"]["location"]["column"], 9);
  ASSERT_EQ(doc["error"]["notes"].size(), 1u);
  EXPECT_EQ(doc["error"]["notes"][0]["message"], "to close this '('");
  EXPECT_EQ(doc["error"]["notes"][0]["location"]["column"], 7);
}

// A ruleset whose helper fails; loaded as library code or as the user's own.
constexpr std::string_view failing_ruleset = R"(schema: 1
name: lib-game
title: A ruleset with a mistake
source: a test
functions: |
  fn pick(r) = r.alpah
mechanics:
  check:
    doc: fails on every call
    params:
      x: {type: int, doc: anything}
    body: |
      pick({alpha: x})
    returns: {type: int, doc: never given}
)";

std::vector<std::string> note_texts(const Diagnostic& d) {
  std::vector<std::string> out;
  for (const Note& n : d.notes) {
    const std::string where = n.span.empty() ? std::string("-") : n.span.file->name();
    out.push_back(where + ": " + n.message);
  }
  return out;
}

TEST(ErrorLocation, AnErrorInLibraryCodeIsReportedWhereTheUserCalledIt) {
  Engine engine;
  const Diagnostics loaded =
      engine.load_ruleset_text(failing_ruleset, "rulesets/lib-game.yaml", "lib-game", SourceOrigin::Library);
  ASSERT_TRUE(loaded.empty()) << render_text(loaded);
  const std::string input = "fn go() = lib_game.check(x: 1); go()";
  Outcome o = engine.roll(input, 1);
  ASSERT_FALSE(o.ok());
  const Diagnostic& d = *o.error;
  EXPECT_EQ(d.code, DiagCode::UnknownField);
  ASSERT_FALSE(d.span.empty());
  EXPECT_EQ(d.span.file->name(), "<input>");
  EXPECT_EQ(d.span.file->line_column(d.span.begin).column, 11u);  // the call in go()
  EXPECT_EQ(d.message, "'lib_game.check' failed: the record has no field 'alpah'");
  // The library's calls outermost first, the original place last, its own
  // note after it, then the callers of the user's call.
  EXPECT_EQ(note_texts(d), (std::vector<std::string>{
                               "rulesets/lib-game.yaml: 'lib_game.check' calls 'pick' here",
                               "rulesets/lib-game.yaml: the error is here, in 'pick'",
                               "-: did you mean 'alpha'?",
                               "<input>: in a call to 'go'",
                           }));
  EXPECT_EQ(d.notes[0].kind, NoteKind::CallSite);
  EXPECT_EQ(d.notes[3].kind, NoteKind::CallSite);
  EXPECT_EQ(d.notes[3].callee, "go");
  EXPECT_EQ(d.notes[1].span.file->line_column(d.notes[1].span.begin).line, 6u);

  // The same through a session (the REPL's way) and in the JSON document.
  Session session(engine);
  RandomDice dice(1);
  Outcome again = session.eval(input, dice);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error->span.file->name(), "<input>");
  EXPECT_EQ(note_texts(*again.error), note_texts(d));
  const auto doc = nlohmann::json::parse(render_json(o, input));
  EXPECT_EQ(doc["error"]["location"]["file"], "<input>");
  EXPECT_EQ(doc["error"]["notes"][1]["location"]["file"], "rulesets/lib-game.yaml");
  EXPECT_EQ(doc["error"]["notes"][1]["location"]["line"], 6);
  EXPECT_TRUE(doc["error"]["notes"][2]["location"].is_null());
}

TEST(ErrorLocation, AnErrorInTheUsersOwnRulesetStaysThere) {
  Engine engine;
  const Diagnostics loaded = engine.load_ruleset_text(failing_ruleset, "my/lib-game.yaml", "lib-game");
  ASSERT_TRUE(loaded.empty()) << render_text(loaded);
  Outcome o = engine.roll("lib_game.check(x: 1)", 1);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->span.file->name(), "my/lib-game.yaml");
  EXPECT_EQ(o.error->message, "the record has no field 'alpah'");
  EXPECT_EQ(note_texts(*o.error), (std::vector<std::string>{
                                      "-: did you mean 'alpha'?",
                                      "my/lib-game.yaml: in a call to 'pick'",
                                      "<input>: in a call to 'lib_game.check'",
                                  }));
}

TEST(ErrorLocation, AStdlibErrorMovesToTheInputAndAnInputErrorStays) {
  Engine engine;
  Outcome o = engine.roll(R"(sum_field([{a: 1}], "b"))", 1);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->span.file->name(), "<input>");
  EXPECT_FALSE(o.error->span.file->is_library());
  EXPECT_EQ(note_texts(*o.error), (std::vector<std::string>{
                                      "stdlib/lists.alea: 'sum_field' calls 'column' here",
                                      "stdlib/lists.alea: the error is here, in 'column'",
                                  }));
  EXPECT_TRUE(o.error->notes[1].span.file->is_library());

  Outcome mine = engine.roll("fn f(x) = x / 0; f(1)", 1);
  ASSERT_FALSE(mine.ok());
  EXPECT_EQ(mine.error->message, "division by zero");
  EXPECT_EQ(note_texts(*mine.error), (std::vector<std::string>{"<input>: in a call to 'f'"}));
}

// Every way of computing odds reports a library error at the user's call:
// composed or enumerated exactly, sampled by the lowered program or the evaluator.
TEST(ErrorLocation, StatsReportsALibraryErrorAtTheUsersCall) {
  constexpr std::string_view lib = R"(schema: 1
name: lib-math
title: Divides by its argument
source: a test
functions: |
  fn share(x) = 12 / x
  fn sure() = d6 reroll <= 5
mechanics:
  split:
    doc: 12 shared by x
    params:
      x: {type: int, doc: how many}
    body: |
      share(x)
    returns: {type: int, doc: each one's share}
  stubborn:
    doc: a six, or too many rerolls
    body: |
      sure()
    returns: {type: int, doc: six}
)";
  Engine engine;
  const Diagnostics loaded = engine.load_ruleset_text(lib, "rulesets/lib-math.yaml", "lib-math", SourceOrigin::Library);
  ASSERT_TRUE(loaded.empty()) << render_text(loaded);
  const Compiled c = engine.compile("1 + lib_math.split(x: d3 - 1)");
  ASSERT_TRUE(c.ok()) << render_text(c.diagnostics);
  struct Way {
    const char* name;
    bool sampled, lowered;
    SamplerPath path;
  };
  for (const Way& way : {Way{"exact", false, true, SamplerPath::None},
                         Way{"lowered", true, true, SamplerPath::Lowered},
                         Way{"evaluator", true, false, SamplerPath::Evaluator}}) {
    SCOPED_TRACE(way.name);
    StatsOptions options;
    options.sampled_only = way.sampled;
    options.lowered = way.lowered;
    options.samples = 3000;
    options.threads = 1;
    const Stats s = compute_stats(engine, c.program, {}, options);
    EXPECT_EQ(s.sampler, way.path) << s.sampler_note;
    ASSERT_TRUE(s.first_error.has_value());
    const Diagnostic& d = *s.first_error;
    EXPECT_EQ(d.code, DiagCode::DivisionByZero);
    EXPECT_EQ(d.span.file->name(), "<input>");
    EXPECT_EQ(d.span.file->line_column(d.span.begin).column, 5u);
    EXPECT_EQ(d.message, "'lib_math.split' failed: division by zero");
    EXPECT_EQ(note_texts(d), (std::vector<std::string>{
                                 "rulesets/lib-math.yaml: 'lib_math.split' calls 'share' here",
                                 "rulesets/lib-math.yaml: the error is here, in 'share'",
                             }));
  }
  // The composer carries an error of its own (too many rerolls) through calls.
  const Compiled reroll = engine.compile("lib_math.stubborn()");
  ASSERT_TRUE(reroll.ok()) << render_text(reroll.diagnostics);
  const Stats s = compute_stats(engine, reroll.program, {}, {});
  EXPECT_EQ(s.exact_method, "composed") << s.not_composed;
  ASSERT_TRUE(s.first_error.has_value());
  EXPECT_EQ(s.first_error->code, DiagCode::RerollLimitExceeded);
  EXPECT_EQ(s.first_error->span.file->name(), "<input>");
  EXPECT_EQ(note_texts(*s.first_error), (std::vector<std::string>{
                                            "rulesets/lib-math.yaml: 'lib_math.stubborn' calls 'sure' here",
                                            "rulesets/lib-math.yaml: the error is here, in 'sure'",
                                        }));
}

}  // namespace api_test
}  // namespace alea

namespace alea {
namespace api_test {

// Engine::load_ruleset finds a ruleset by name: the directories given, then $ALEA_PATH, then
// the shipped ones (in a build tree, the source tree's). A shipped ruleset is library code.
TEST(Engine, LoadsARulesetByName) {
  const char* saved = std::getenv("ALEA_PATH");
  const std::string restore = saved ? saved : "";
  unsetenv("ALEA_PATH");
  Engine shipped;
  EXPECT_TRUE(shipped.load_ruleset("heroes_mythos").empty());  // the language's spelling finds heroes-mythos.yaml
  ASSERT_NE(shipped.find_ruleset("heroes-mythos"), nullptr);
  EXPECT_EQ(ruleset_summary(*shipped.find_ruleset("heroes-mythos")).file,
            std::string(ALEA_SOURCE_DIR) + "/rulesets/heroes-mythos.yaml");

  const auto dir = std::filesystem::temp_directory_path() / ("alea-load-by-name-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "heroes-mythos.yaml")
        << "schema: 1\nname: heroes-mythos\ntitle: Mine\nsource: a test\nmechanics:\n"
           "  check:\n    doc: five\n    body: \"5\"\n    returns: {type: int, doc: five}\n";
  }
  setenv("ALEA_PATH", dir.c_str(), 1);
  Engine mine;
  EXPECT_TRUE(mine.load_ruleset("heroes-mythos").empty());
  EXPECT_EQ(ruleset_summary(*mine.find_ruleset("heroes-mythos")).title, "Mine");
  unsetenv("ALEA_PATH");
  Engine given;
  EXPECT_TRUE(given.load_ruleset("heroes-mythos", {dir.string()}).empty());
  EXPECT_EQ(ruleset_summary(*given.find_ruleset("heroes-mythos")).title, "Mine");

  const Diagnostics missing = given.load_ruleset("no-such-game");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].code, DiagCode::RulesetNotFound);
  EXPECT_EQ(missing[0].message, "there is no ruleset 'no-such-game' in " + std::string(ALEA_SOURCE_DIR) + "/rulesets");
  const Diagnostics outside = given.load_ruleset("../etc/passwd");
  ASSERT_EQ(outside.size(), 1u);
  EXPECT_EQ(outside[0].message, "'../etc/passwd' is not a ruleset name: a-z, 0-9, '_' and '-' only");
  std::filesystem::remove_all(dir);
  if (saved) setenv("ALEA_PATH", restore.c_str(), 1);
}

}  // namespace api_test
}  // namespace alea
