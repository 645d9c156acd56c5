// tests/interpreter/record_fields_test.cpp — record parameters of a declared
// shape (`fields:` under a `type: record` parameter of a ruleset): the fields a
// caller leaves out take their defaults, in the declared order; a misspelt or
// missing field, or one of the wrong type, is an error naming the field; the
// loader refuses `fields` on other types and checks each field like a parameter.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "tests/support/roll.hpp"

namespace alea {
namespace {

constexpr std::string_view hero_yaml = R"(schema: 1
name: x
title: X
source: a test
mechanics:
  damage:
    doc: a hero's blow
    params:
      hero:
        type: record
        doc: the hero
        fields: &hero
          str: {type: int, min: 0, default: 0, doc: strength}
          lives: {type: "int?", default: null, doc: lives; none for full}
          mount: {type: label, choices: [none, horse], default: none, doc: his animal}
          name: {type: string, doc: his name}
          gear:
            type: record
            default: {}
            doc: what he carries
            fields:
              sword: {type: bool, default: false, doc: a sword}
      foe: {type: record, default: {name: nobody}, doc: the other, fields: *hero}
    body: "{hero: hero, foe: foe, dmg: hero.str + (if hero.gear.sword then 2 else 0)}"
    result:
      hero: {type: record, doc: the hero as completed}
      foe: {type: record, doc: the foe as completed}
      dmg: {type: int, doc: the damage}
  team:
    doc: a list of heroes
    params:
      heroes: {type: list, doc: the heroes, fields: *hero}
    body: heroes
    returns: {type: list, doc: the heroes as completed}
)";

const Engine& engine() {
  static const Engine e = [] {
    Engine en;
    const Diagnostics d = en.load_ruleset_text(hero_yaml, "rulesets/x.yaml", "x");
    if (!d.empty()) throw std::runtime_error(render_text(d));
    return en;
  }();
  return e;
}

std::string run(std::string_view call) {
  ScriptedDice dice({});
  return testing::show(engine().roll(call, dice));
}

TEST(RecordFields, LeftOutFieldsTakeTheirDefaultsInDeclaredOrder) {
  EXPECT_EQ(run("x.damage({name: \"Ala\", str: 3}).hero"),
            "{str: 3, lives: none, mount: \"none\", name: \"Ala\", gear: {sword: false}}");
  EXPECT_EQ(run("x.damage({name: \"Ala\", gear: {sword: true}, str: 3}).dmg"), "5");
  // A record parameter's own default is completed too.
  EXPECT_EQ(run("x.damage({name: \"Ala\"}).foe"),
            "{str: 0, lives: none, mount: \"none\", name: \"nobody\", gear: {sword: false}}");
}

TEST(RecordFields, AMisspeltFieldIsAnErrorWithASuggestion) {
  ScriptedDice dice({});
  const Outcome o = engine().roll("x.damage({name: \"Ala\", strr: 3})", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::UnknownField);
  EXPECT_EQ(o.error->message, "the argument 'hero' has no field 'strr'");
  ASSERT_GE(o.error->notes.size(), 2u);
  EXPECT_EQ(o.error->notes[0].message, "did you mean 'str'?");
  EXPECT_EQ(o.error->notes[1].message, "its fields: str, lives, mount, name, gear");
}

TEST(RecordFields, AFieldWithoutADefaultMustBeGiven) {
  EXPECT_EQ(run("x.damage({str: 3})"),
            "error: MissingArgument: the argument 'hero' needs the field 'name'");
}

TEST(RecordFields, EachFieldIsCheckedLikeAParameter) {
  EXPECT_EQ(run("x.damage({name: \"Ala\", str: -1})"),
            "error: ArgumentOutOfRange: the field 'str' of the argument 'hero' must be at least 0, got -1");
  EXPECT_EQ(run("x.damage({name: \"Ala\", mount: \"camel\"})"),
            "error: ArgumentOutOfRange: the field 'mount' of the argument 'hero' must be one of none, "
            "horse, got \"camel\"");
  EXPECT_EQ(run("x.damage({name: \"Ala\", gear: {sword: 1}})"),
            "error: TypeMismatch: the field 'sword' of the field 'gear' of the argument 'hero' must be "
            "a bool, got the number 1");
  EXPECT_EQ(run("x.damage(3)"), "error: TypeMismatch: the argument 'hero' must be a record, got the number 3");
}

TEST(RecordFields, AListOfRecordsHasEachItemCompleted) {
  EXPECT_EQ(run("x.team([{name: \"A\"}, {str: 2, name: \"B\"}])"),
            "[{str: 0, lives: none, mount: \"none\", name: \"A\", gear: {sword: false}}, "
            "{str: 2, lives: none, mount: \"none\", name: \"B\", gear: {sword: false}}]");
  EXPECT_EQ(run("x.team([])"), "[]");
  EXPECT_EQ(run("x.team([{name: \"A\"}, 3])"),
            "error: TypeMismatch: item 1 of the argument 'heroes' must be a record, got the number 3");
  EXPECT_EQ(run("x.team([{name: \"A\", mount: \"dragon\"}])"),
            "error: ArgumentOutOfRange: the field 'mount' of item 0 of the argument 'heroes' must be one of "
            "none, horse, got \"dragon\"");
}

// "LINE:COL Code message" of each problem the loader reports.
std::vector<std::string> problems(std::string_view mechanic_params) {
  const std::string yaml = fmt::format(
      "schema: 1\nname: x\ntitle: X\nsource: a test\nmechanics:\n  m:\n    doc: d\n    params:\n{}"
      "    body: 1\n    returns: {{type: int, doc: one}}\n",
      mechanic_params);
  Engine en;
  std::vector<std::string> out;
  for (const auto& d : en.load_ruleset_text(yaml, "rulesets/x.yaml", "x")) {
    const LineColumn lc = d.span.file->line_column(d.span.begin);
    out.push_back(fmt::format("{}:{} {} {}", lc.line, lc.column, code_name(d.code), d.message));
  }
  return out;
}

TEST(RecordFields, TheLoaderChecksTheDeclaration) {
  EXPECT_EQ(problems("      n: {type: int, doc: n, fields: {a: {type: int, doc: a}}}\n"),
            (std::vector<std::string>{"9:38 RulesetInvalidValue 'fields' apply to the types record and list (a list of records)"}));
  EXPECT_EQ(problems("      r: {type: record, doc: r, fields: [a, b]}\n"),
            (std::vector<std::string>{
                "9:41 RulesetFieldType 'fields' maps each field of the record to its description"}));
  EXPECT_EQ(problems("      r: {type: record, doc: r, fields: {a: {type: intt, doc: a}}}\n"),
            (std::vector<std::string>{"9:52 RulesetInvalidValue unknown type 'intt'"}));
  EXPECT_EQ(problems("      r: {type: record, doc: r, fields: {a: {type: int, dco: a}}}\n"),
            (std::vector<std::string>{"9:42 RulesetMissingKey the field 'a' needs the key 'doc'",
                                      "9:57 RulesetUnknownKey unknown key 'dco' in the field 'a'"}));
  EXPECT_EQ(problems("      r: {type: record, doc: r, fields: {a: {type: int, min: 0, default: -2, doc: a}}}\n"),
            (std::vector<std::string>{"9:74 RulesetInvalidValue the default of 'a' is out of its range"}));
}

}  // namespace
}  // namespace alea
