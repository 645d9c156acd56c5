// tests/interpreter/ruleset_loader_test.cpp — a ruleset file's mistakes are all
// reported, each at its line and column of the YAML file, expressions included;
// a good ruleset's mechanics, constants, tables and parameters work.
#include <gtest/gtest.h>

#include <filesystem>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "interpreter/rulesets/ruleset.hpp"
#include "interpreter/rulesets/yaml_bounds.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace ruleset_loader_test {

// "LINE:COL Code" for each diagnostic, in order.
std::vector<std::string> problems(std::string_view yaml, std::optional<std::string> expected_name = std::nullopt) {
  Engine engine;
  std::vector<std::string> out;
  for (const auto& d : engine.load_ruleset_text(yaml, "rulesets/x.yaml", std::move(expected_name))) {
    if (!d.span.file) {
      out.push_back(fmt::format("nowhere {}", code_name(d.code)));
      continue;
    }
    const LineColumn lc = d.span.file->line_column(d.span.begin);
    out.push_back(fmt::format("{}:{} {}", lc.line, lc.column, code_name(d.code)));
  }
  return out;
}

constexpr std::string_view header = "schema: 1\nname: x\ntitle: X\nsource: a test\n";

TEST(RulesetLoader, ReportsATypoAWrongTypeAndASyntaxErrorTogether) {
  const std::string yaml = std::string(header) +
                           "# Ελληνικά: ζάρια\n"
                           "mechanics:\n"
                           "  roll:\n"
                           "    doc: Ζαριά\n"          // line 8
                           "    parms: {n: {type: int, doc: dice}}\n"
                           "    body: |\n"
                           "      let x = 3d6 +\n"     // line 11
                           "        in x\n"            // line 12
                           "    returns: {type: int, doc: the total}\n"
                           "  other:\n"
                           "    doc: 5\n"
                           "    body: '\"ζ\" + (2'\n"    // line 16
                           "    returns: {type: intt, doc: x}\n";
  EXPECT_EQ(problems(yaml), (std::vector<std::string>{
                                "9:5 RulesetUnknownKey",     // parms
                                "12:9 ExpectedExpression",   // 'in' after '+', inside the block
                                "16:20 UnclosedDelimiter",   // end of the quoted expression, in code points
                                "17:21 RulesetInvalidValue", // intt
                            }));
}

TEST(RulesetLoader, MapsOneLineExpressionsColumnForColumn) {
  const std::string yaml = std::string(header) +
                           "mechanics:\n"
                           "  roll:\n"
                           "    doc: «Ζάρια»\n"
                           "    body: 2d6 + bonsu\n"  // line 8
                           "    returns: {type: int, doc: x}\n";
  EXPECT_EQ(problems(yaml), (std::vector<std::string>{"8:17 UnknownName"}));
  Engine engine;
  const Diagnostics d = engine.load_ruleset_text(yaml, "rulesets/x.yaml");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(render_text(d[0]),
            "rulesets/x.yaml:8:17: error: unknown name 'bonsu' [UnknownName]\n"
            " 8 |     body: 2d6 + bonsu\n"
            "   |                 ^~~~~\n");
}

TEST(RulesetLoader, PutsAnErrorAtTheEndOfABlockOnItsLastLine) {
  const std::string yaml = std::string(header) +
                           "mechanics:\n  roll:\n    doc: x\n    body: |\n      let x = 1 in\n      x + (2\n"  // line 10
                           "    returns: {type: int, doc: x}\n";
  EXPECT_EQ(problems(yaml), (std::vector<std::string>{"10:13 UnclosedDelimiter"}));
}

TEST(RulesetLoader, RefusesFoldedBlocksForCode) {
  const std::string yaml = std::string(header) +
                           "mechanics:\n  roll:\n    doc: x\n    body: >\n      1 + 2\n    returns: {type: int, doc: x}\n";
  EXPECT_EQ(problems(yaml), (std::vector<std::string>{"8:11 RulesetInvalidValue"}));
}

TEST(RulesetLoader, ReportsYamlSyntaxAtItsPlace) {
  // A '[' left open is shown where it opens, not on the line where the parser gave up.
  EXPECT_EQ(problems("schema: 1\nname: [x\n"), (std::vector<std::string>{"2:7 RulesetSyntax"}));
  // An expression with ': ' in it is not a plain YAML scalar; the note says what to write.
  Engine engine;
  const Diagnostics d = engine.load_ruleset_text("mechanics:\n  m:\n    body: f(a: 1)\n", "rulesets/x.yaml");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(render_text(d[0]),
            "rulesets/x.yaml:3:11: error: this is not valid YAML: a key cannot start here: it is indented deeper "
            "than the keys of its mapping, or follows a key on the same line [RulesetSyntax]\n"
            " 3 |     body: f(a: 1)\n"
            "   |           ^\n"
            "note: write an expression that holds ': ' or ' #', or starts with a quote, '{' or '[', as a '|' block\n");
}

TEST(RulesetLoader, ReportsYamlIndentationWhereTheMistakeStarts) {
  // A flow mapping left open under `mechanics:`: yaml-cpp notices on the next line (8:9).
  const std::string open_brace =
      "schema: 1\nname: x\ntitle: x\nsource: x\nmechanics:\n  check:\n    params:\n"
      "      dice: {type: int, doc: x\n    body: d6\n    returns: {type: int, doc: x}\n";
  EXPECT_EQ(problems(open_brace), (std::vector<std::string>{"8:13 RulesetSyntax"}));
  Engine engine;
  const Diagnostics d = engine.load_ruleset_text(open_brace, "x.yaml");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "this is not valid YAML: this '{' is never closed with '}'");
  ASSERT_GE(d[0].notes.size(), 1u);
  EXPECT_EQ(d[0].notes[0].message, "the YAML reader noticed it here");
  EXPECT_EQ(d[0].notes[0].span.file->line_column(d[0].notes[0].span.begin).line, 9u);
  // A key indented deeper than its siblings: at the key, not at its ':' (6:11).
  EXPECT_EQ(problems("schema: 1\nname: x\nmechanics:\n  check:\n    doc: a check\n      body: d6\n"),
            (std::vector<std::string>{"6:7 RulesetSyntax"}));
}

TEST(RulesetLoader, NamesEveryMissingKey) {
  EXPECT_EQ(problems("schema: 1\n"), (std::vector<std::string>{"1:1 RulesetMissingKey", "1:1 RulesetMissingKey",
                                                               "1:1 RulesetMissingKey", "1:1 RulesetMissingKey"}));
}

TEST(RulesetLoader, RefusesRepeatedKeysAndNames) {
  const std::string yaml = std::string(header) +
                           "constants: {roll: 1}\n"
                           "mechanics:\n"
                           "  roll:\n"  // line 7: the name is taken by the constant
                           "    doc: x\n"
                           "    body: 1\n"
                           "    returns: {type: int, doc: x}\n";
  EXPECT_EQ(problems(yaml), (std::vector<std::string>{"7:3 RulesetInvalidValue"}));
}

// YAML forbids a key twice in one mapping, but yaml-cpp keeps both entries: a reader that looks
// one up sees the first, so the second would be ignored. Each is refused, wherever it is, and
// nothing is read on. The field bound by a sibling (`max: tip`) only on its second entry
// crashed the loader, which looked the bound up on the first.
TEST(RulesetLoader, RefusesAKeyWrittenTwiceInAnyMapping) {
  const std::string yaml = std::string(header) +
                           "types:\n"
                           "  die:\n"
                           "    doc: a die\n"
                           "    fields:\n"
                           "      top: {type: int, doc: the top}\n"
                           "      face: {type: int, min: 0, doc: its value}\n"
                           "      face: {type: int, max: tip, doc: its value}\n"  // line 11
                           "tables:\n"
                           "  t: {doc: a table, rows: {1: a, \"1\": b}}\n"  // line 13
                           "mechanics:\n"
                           "  m:\n"
                           "    doc: x\n"
                           "    params: {c: {type: label, choices: {a: one, a: two}, doc: x}}\n"  // line 17
                           "    doc: y\n"  // line 18
                           "    body: 1\n"
                           "    returns: {type: int, doc: x}\n";
  EXPECT_EQ(problems(yaml), (std::vector<std::string>{"11:7 RulesetInvalidValue", "13:34 RulesetInvalidValue",
                                                      "17:49 RulesetInvalidValue", "18:5 RulesetInvalidValue"}));
  Engine engine;
  const auto diags = engine.load_ruleset_text(yaml, "rulesets/x.yaml");
  ASSERT_FALSE(diags.empty());
  EXPECT_EQ(diags[0].message, "the key 'face' appears twice in this mapping");
  ASSERT_EQ(diags[0].notes.size(), 1u);
  EXPECT_EQ(diags[0].notes[0].span.file->line_column(diags[0].notes[0].span.begin).line, 10u);
}

TEST(RulesetLoader, ChecksTheNameAgainstTheFile) {
  EXPECT_EQ(problems(std::string(header) + "mechanics: {m: {doc: x, body: '1', returns: {type: int, doc: x}}}\n", "y"),
            (std::vector<std::string>{"2:7 RulesetInvalidValue"}));
}

TEST(RulesetLoader, WantsTheOutcomesOfALabel) {
  const std::string yaml = std::string(header) +
                           "mechanics:\n  m:\n    doc: x\n    body: '\"a\"'\n    result:\n      r: {type: label, doc: x}\n";
  EXPECT_EQ(problems(yaml), (std::vector<std::string>{"10:10 RulesetMissingKey"}));
}

constexpr std::string_view good = R"(schema: 1
name: good-one
title: A good ruleset
source: a test
parameters:
  bonus: {type: int, default: 1, min: 0, max: 5, doc: added to every roll}
constants:
  base: 10
  named: {value: 3, doc: a documented constant}
tables:
  terrain:
    doc: difficulty by terrain
    rows: {plains: 1, forest: 3, "open water": 5}
functions: |
  fn twice(x) = 2 * x
mechanics:
  roll:
    doc: 2d6 plus the bonus against a terrain
    params:
      where: {type: label, choices: [plains, forest], default: plains, doc: the terrain}
    body: |
      let total = 2d6 + bonus + terrain[where] in
      {total: total, beats_base: total >= base, doubled: twice(total)}
    result:
      total: {type: int, doc: the total}
      beats_base: {type: bool, doc: whether it reaches base}
      doubled: {type: int, doc: twice the total}
  chained:
    doc: a mechanic calling another, which sees the same bonus
    body: |
      roll(where: "forest").total + named
    returns: {type: int, doc: x}
  broken:
    doc: gives a record without a declared field
    body: '{total: 1}'
    result:
      total: {type: int, doc: x}
      missing: {type: int, doc: y}
)";

TEST(RulesetLoader, RunsMechanicsWithTheirConstantsTablesAndParameters) {
  Engine engine;
  const Diagnostics d = engine.load_ruleset_text(good, "rulesets/good-one.yaml", "good-one");
  ASSERT_TRUE(d.empty()) << render_text(d);
  const Ruleset* r = engine.find_ruleset("good_one");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->name, "good-one");
  EXPECT_EQ(r->mechanics.size(), 3u);
  EXPECT_EQ(r->tables.at(0).name, "terrain");
  auto run = [&](std::string_view src, std::vector<std::int64_t> faces) {
    ScriptedDice dice(std::move(faces));
    const Outcome o = engine.roll(src, dice);
    return o.ok() ? to_display(*o.value) : std::string(code_name(o.error->code)) + ": " + o.error->message;
  };
  EXPECT_EQ(run("good_one.roll()", {3, 4}), "{total: 9, beats_base: false, doubled: 18}");
  EXPECT_EQ(run("good_one.roll(where: \"forest\", bonus: 0)", {3, 4}), "{total: 10, beats_base: true, doubled: 20}");
  EXPECT_EQ(run("good_one.chained(bonus: 5)", {6, 6}), "23");  // 12 + 5 + 3, then + 3
  EXPECT_EQ(run("good_one.roll(where: \"swamp\")", {3, 4}),
            "ArgumentOutOfRange: the argument 'where' must be one of plains, forest, got \"swamp\"");
  EXPECT_EQ(run("good_one.roll(bonus: 6)", {3, 4}), "ArgumentOutOfRange: the parameter 'bonus' must be at most 5, got 6");
  EXPECT_EQ(run("good_one.broken()", {}), "ResultMismatch: 'broken' gave a record without the field 'missing'");
}

TEST(RulesetLoader, LoadsNothingFromABrokenRuleset) {
  Engine engine;
  std::string broken(good);
  broken.replace(broken.find("twice(total)}"), 13, "twice(total)");
  EXPECT_FALSE(engine.load_ruleset_text(broken, "rulesets/good-one.yaml").empty());
  EXPECT_EQ(engine.find_ruleset("good-one"), nullptr);
  EXPECT_FALSE(engine.compile("good_one.roll()").ok());
}

// The annotated example of rulesets/README.md loads and does what the text says.
TEST(RulesetLoader, RunsTheReadmeExample) {
  std::ifstream in(ALEA_SOURCE_DIR "/rulesets/README.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string readme = text.str();
  const auto section = readme.find("## 4. An annotated example");
  ASSERT_NE(section, std::string::npos);
  const auto begin = readme.find("```yaml\n", section) + 8;
  const auto end = readme.find("```", begin);
  Engine engine;
  const Diagnostics d = engine.load_ruleset_text(readme.substr(begin, end - begin), "example-2d6.yaml", "example-2d6");
  ASSERT_TRUE(d.empty()) << render_text(d);
  ScriptedDice dice({6, 5});
  const Outcome o = engine.roll("example_2d6.check(1, difficulty: \"hard\")", dice);
  ASSERT_TRUE(o.ok()) << render_text(*o.error);
  EXPECT_EQ(to_display(*o.value), "{total: 12, success: true, outcome: \"hit\"}");
}

constexpr std::string_view opposed = R"(schema: 1
name: duel
title: An opposed roll
source: a test
functions: |
  fn tally(mine, theirs, tie) = {mine: faces(mine), theirs: faces(theirs), tie: tie}
mechanics:
  clash:
    doc: each side rolls its pool under its skill; the rule sees both
    sides:
      names: [attacker, defender]
      fields:
        pool: {type: int, min: 0, doc: dice}
        skill: {type: int, doc: the target}
    params:
      tie: {type: label, choices: [attacker, defender], default: attacker, doc: who wins ties}
    body: pool d12 under skill except 12 vs opposed by tally(tie)
    returns: {type: record, doc: both sides' successes}
)";

TEST(RulesetLoader, RunsAnOpposedMechanicForEachSide) {
  Engine engine;
  const Diagnostics d = engine.load_ruleset_text(opposed, "rulesets/duel.yaml", "duel");
  ASSERT_TRUE(d.empty()) << render_text(d);
  auto run = [&](std::string_view src, std::vector<std::int64_t> faces) {
    ScriptedDice dice(std::move(faces));
    const Outcome o = engine.roll(src, dice);
    return o.ok() ? to_display(*o.value) : std::string(code_name(o.error->code)) + ": " + o.error->message;
  };
  // The attacker's dice first, then the defender's; each side under its own skill.
  EXPECT_EQ(run("duel.clash({pool: 2, skill: 7}, {pool: 1, skill: 5})", {5, 8, 3}),
            "{mine: [5], theirs: [3], tie: \"attacker\"}");
  EXPECT_EQ(run("duel.clash(defender: {pool: 3, skill: 12}, attacker: {pool: 0, skill: 1})", {12, 11, 2}),
            "{mine: [], theirs: [11, 2], tie: \"attacker\"}");
  EXPECT_EQ(run("duel.clash({pool: 2, skill: 7}, {pool: 1})", {}), "MissingArgument: the argument 'defender' is a side, which needs the field 'skill'");
  EXPECT_EQ(run("duel.clash({pool: -1, skill: 7}, {pool: 1, skill: 3})", {}),
            "ArgumentOutOfRange: the argument 'attacker.pool' must be at least 0, got -1");
  const Ruleset* r = engine.find_ruleset("duel");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->mechanics.at(0).sides, (std::vector<std::string>{"attacker", "defender"}));
  EXPECT_EQ(r->mechanics.at(0).params.size(), 3u);
}

// The exact engine composes `E vs opposed` (E again with the other side's
// fields) to what the enumeration of every run gives.
TEST(RulesetLoader, ComposesAnOpposedMechanicExactly) {
  constexpr std::string_view yaml = R"(schema: 1
name: duel
title: An opposed roll
source: a test
functions: |
  fn diff(mine, theirs) = mine - theirs
mechanics:
  clash:
    doc: each side rolls its pool plus its skill; the rule takes the difference
    sides:
      names: [attacker, defender]
      fields:
        pool: {type: int, min: 0, doc: dice}
        skill: {type: int, doc: the bonus}
    body: pool d6 + skill vs opposed by diff
    returns: {type: int, doc: how far the attacker is ahead}
)";
  Engine engine;
  const Diagnostics d = engine.load_ruleset_text(yaml, "rulesets/duel.yaml", "duel");
  ASSERT_TRUE(d.empty()) << render_text(d);
  const Compiled c = engine.compile("duel.clash({pool: 2, skill: 1}, {pool: 1, skill: 3})");
  ASSERT_TRUE(c.ok()) << render_text(c.diagnostics);
  StatsOptions o;
  o.exact_only = true;
  const Stats composed = compute_stats(engine, c.program, {}, o);
  o.compose = false;
  const Stats enumerated = compute_stats(engine, c.program, {}, o);
  EXPECT_EQ(composed.exact_method, "composed") << composed.not_composed;
  EXPECT_EQ(composed.value.exact_mean, "3/2");  // (7 + 1) - (3.5 + 3)
  ASSERT_EQ(composed.value.entries.size(), enumerated.value.entries.size());
  ASSERT_EQ(composed.value.entries.size(), 16u);  // -7 … 8
  for (std::size_t i = 0; i < composed.value.entries.size(); ++i) {
    EXPECT_EQ(composed.value.entries[i].value, enumerated.value.entries[i].value) << i;
    EXPECT_EQ(composed.value.entries[i].probability.exact(), enumerated.value.entries[i].probability.exact()) << i;
  }
}

TEST(RulesetLoader, ReadsAMechanicsOddsAndRefusesOtherWords) {
  const std::string yaml = std::string(header) +
                           "mechanics:\n"
                           "  fight:\n"
                           "    doc: a loop with no bound\n"
                           "    odds: sampled\n"
                           "    body: loop x = 0 until x >= 4 { x + d6 }\n"
                           "    returns: {type: int, doc: x}\n"
                           "  plain:\n"
                           "    doc: a roll\n"
                           "    odds: auto\n"
                           "    body: d6\n"
                           "    returns: {type: int, doc: x}\n";
  Engine engine;
  ASSERT_TRUE(engine.load_ruleset_text(yaml, "rulesets/x.yaml").empty());
  const Ruleset* r = engine.find_ruleset("x");
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->mechanics.at(0).sampled_odds);
  EXPECT_FALSE(r->mechanics.at(1).sampled_odds);
  EXPECT_EQ(problems(std::string(header) + "mechanics:\n  m:\n    doc: d\n    odds: always\n    body: d6\n"
                     "    returns: {type: int, doc: x}\n"),
            (std::vector<std::string>{"8:11 RulesetInvalidValue"}));
}

// A 'functions' block that does not parse is reported once, not again at every call of its functions.
TEST(RulesetLoader, AFunctionsBlockThatDoesNotParseIsReportedOnce) {
  EXPECT_EQ(problems(std::string(header) + "functions: |\n  fn f(x) = (x +\n  fn g(y) = y\n"
                     "mechanics:\n  m:\n    doc: d\n    body: f(1) + g(2)\n    returns: {type: int, doc: x}\n"),
            (std::vector<std::string>{"7:3 ExpectedExpression"}));
}

TEST(RulesetLoader, LoadsEveryShippedRuleset) {
  for (const char* name : {"heroes-mythos", "dozen-die", "strategiya", "crystal-die", "pbta-superiority"}) {
    Engine engine;
    const Diagnostics d = engine.load_ruleset_file(fmt::format("{}/rulesets/{}.yaml", ALEA_SOURCE_DIR, name));
    EXPECT_TRUE(d.empty()) << render_text(d);
  }
}


// ---- bombs: every bound is checked before a tree is walked, or even built ----------------

// The first diagnostic as "LINE:COL Code message".
std::string first_problem(const std::string& yaml, EngineOptions options = {}) {
  Engine engine(options);
  const Diagnostics d = engine.load_ruleset_text(yaml, "rulesets/x.yaml");
  if (d.empty()) return "loaded";
  const LineColumn lc = d.front().span.file->line_column(d.front().span.begin);
  return fmt::format("{}:{} {} {}", lc.line, lc.column, code_name(d.front().code), d.front().message);
}

const std::string mechanic = "mechanics:\n  m: {doc: d, body: \"1\", returns: {type: int, doc: one}}\n";

TEST(RulesetBombs, ATableOverTheCollectionLimitIsRefusedAtItsRows) {
  std::string rows;
  for (int i = 0; i < 10'001; ++i) rows += "1,";
  const std::string yaml = std::string(header) + "tables:\n  t:\n    doc: d\n    rows: [" + rows + "1]\n" + mechanic;
  EXPECT_EQ(first_problem(yaml),
            "8:11 RulesetInvalidValue this list has 10002 items; a list or record holds at most 10000 "
            "(max_collection_size)");
  // The engine's own limit applies.
  EngineOptions small;
  small.limits.max_collection_size = 3;
  EXPECT_EQ(first_problem(std::string(header) + "constants:\n  c: {a: 1, b: [1, 2, 3, 4]}\n" + mechanic, small),
            "6:16 RulesetInvalidValue this list has 4 items; a list or record holds at most 3 (max_collection_size)");
  EXPECT_EQ(first_problem(std::string(header) + "constants:\n  c: [1, 2, 3]\n" + mechanic, small), "loaded");
}

TEST(RulesetBombs, TooManyValuesAsWrittenAreCountedBeforeATreeIsBuilt) {
  std::string many;
  for (int i = 0; i < 210'000; ++i) many += "1,";
  const std::string yaml = std::string(header) + "constants:\n  c: [" + many + "1]\n" + mechanic;
  // At the 200,001st value: the event count stops yaml-cpp before it builds the tree.
  EXPECT_EQ(first_problem(yaml), "6:399981 RulesetInvalidValue the file holds too many values here");
}

// A text under the bound is read without counting events first (load_bounded_yaml): the bound
// must hold where a node costs the fewest bytes. fuzz_ruleset checks it on every input too.
TEST(RulesetBombs, TheBoundOnNodesAsWrittenHoldsForTheDensestDocuments) {
  for (const std::string text : {"{,,,,,}", "[,,,,,]", "[a: b, : c, d:]", "? \n? \n? \n", "- - - -\n- -\n",
                                 "a:\n b:\n  c:\n", ":\n:\n", "[: : :]", "{? , ? : }", "- :\n- :\n", "[[[[]]]]",
                                 "&a [*a, *a, *a]",
                                 // broken: keys the scanner holds unverified when the text ends
                                 "[ \"", "[[[[ \"", "{[{[ \"", "a [ \""}) {
    // Whether the events pass `max_nodes` (a broken text is counted up to its error).
    const auto passes = [&](std::size_t max_nodes) {
      try {
        return yaml_event_overflow(text, {max_nodes, 1000}).has_value();
      } catch (const YAML::ParserException&) {
        return false;
      }
    };
    EXPECT_FALSE(passes(written_nodes_bound(text))) << text;
    EXPECT_TRUE(passes(0)) << text;  // the check can fail
  }
}

TEST(RulesetBombs, DeepNestingAsWrittenIsRefusedAtItsPlace) {
  const std::string yaml =
      std::string(header) + "constants:\n  c: " + std::string(500, '[') + std::string(500, ']') + "\n" + mechanic;
  EXPECT_EQ(first_problem(yaml), "6:132 RulesetInvalidValue lists and mappings nest too deep here");
  // Deeper than yaml-cpp's own guard (500 levels in its parser): its error, never a stack
  // overflow, and then the place as written. A text that may hold more nodes than allowed
  // (100,000 '[') is counted first; one that may not (60,000) is read first, then counted.
  for (const std::size_t depth : {100'000, 60'000}) {
    const std::string deeper =
        std::string(header) + "constants:\n  c: " + std::string(depth, '[') + std::string(depth, ']') + "\n";
    EXPECT_EQ(first_problem(deeper).substr(0, 37), "6:132 RulesetInvalidValue lists and m") << depth;
  }
}

TEST(RulesetBombs, AliasBombsAreRefusedAtTheirLine) {
  EXPECT_EQ(first_problem(std::string(header) + "constants:\n  a: &a [1, *a]\n" + mechanic).substr(0, 80),
            "6:6 RulesetInvalidValue lists and mappings nest too deep here: an alias may refe");
  std::string laughs = std::string(header) + "constants:\n  a: &a [1,2,3,4,5,6,7,8,9,10]\n";
  for (const char* p : {"ab", "bc", "cd", "de", "ef", "fg"}) {
    laughs += fmt::format("  {1}: &{1} [*{0},*{0},*{0},*{0},*{0},*{0},*{0},*{0},*{0},*{0}]\n", p[0], p[1]);
  }
  EXPECT_EQ(first_problem(laughs + mechanic).substr(0, 70),
            "6:22 RulesetInvalidValue the file's aliases expand to too many values ");
}

TEST(RulesetBombs, ARulesetFileIsReadOnlyWhenItIsARegularFileUnderTheCap) {
  Engine engine;
  const auto message = [&](const std::filesystem::path& file) {
    const Diagnostics d = engine.load_ruleset_file(file, "given.yaml");
    return d.empty() ? std::string("loaded") : fmt::format("{} {}", code_name(d.front().code), d.front().message);
  };
  EXPECT_EQ(message("/dev/zero"), "RulesetNotFound cannot read the ruleset file 'given.yaml': it is a device, not a file");
  EXPECT_EQ(message("/"), "RulesetNotFound cannot read the ruleset file 'given.yaml': it is a directory");
  EngineOptions small;
  small.limits.max_file_bytes = 10;
  Engine capped(small);
  const Diagnostics d = capped.load_ruleset_file(std::string(ALEA_SOURCE_DIR) + "/rulesets/pbta-superiority.yaml");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d.front().message.ends_with("bytes; at most 10 may be read (max_file_bytes)")) << d.front().message;
}

}  // namespace ruleset_loader_test
}  // namespace alea
