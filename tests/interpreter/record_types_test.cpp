// tests/interpreter/record_types_test.cpp — parameters of a record type a
// ruleset declares under `types:` (`type: hero`, `type: list` with `items:
// hero`): the fields a caller leaves out take their defaults, in the declared
// order, a record-typed field's default completed in turn; a misspelt or
// missing field, or one of the wrong type, is an error naming the field; the
// loader checks each field like a parameter, and points a `fields` written on
// a parameter at `types`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "interpreter/api.hpp"
#include "tests/support/roll.hpp"
#include "tests/support/shipped.hpp"

namespace alea {
namespace record_types_test {

constexpr std::string_view hero_yaml = R"(schema: 1
name: x
title: X
source: a test
types:
  kit:
    doc: what a hero carries
    fields:
      sword: {type: bool, default: false, doc: a sword}
  hero:
    doc: a hero
    fields:
      str: {type: int, min: 0, default: 0, doc: strength}
      lives: {type: "int?", default: null, doc: lives; none for full}
      mount: {type: label, choices: [none, horse], default: none, doc: his animal}
      name: {type: string, doc: his name}
      gear: {type: kit, default: {}, doc: what he carries}
mechanics:
  damage:
    doc: a hero's blow
    params:
      hero: {type: hero, doc: the hero}
      foe: {type: hero, default: {name: nobody}, doc: the other}
    body: "{hero: hero, foe: foe, dmg: hero.str + (if hero.gear.sword then 2 else 0)}"
    result:
      hero: {type: hero, doc: the hero as completed}
      foe: {type: hero, doc: the foe as completed}
      dmg: {type: int, doc: the damage}
  team:
    doc: a list of heroes
    params:
      heroes: {type: list, items: hero, doc: the heroes}
    body: heroes
    returns: {type: list, items: hero, doc: the heroes as completed}
)";

const Engine& engine() {
  static const Engine e = testing::engine_with_text(hero_yaml);
  return e;
}

std::string run(std::string_view call) {
  ScriptedDice dice({});
  return testing::show(engine().roll(call, dice));
}

TEST(RecordTypeParams, LeftOutFieldsTakeTheirDefaultsInDeclaredOrder) {
  EXPECT_EQ(run("x.damage({name: \"Ala\", str: 3}).hero"),
            "{str: 3, lives: none, mount: \"none\", name: \"Ala\", gear: {sword: false}}");
  EXPECT_EQ(run("x.damage({name: \"Ala\", gear: {sword: true}, str: 3}).dmg"), "5");
  // A record parameter's own default is completed too.
  EXPECT_EQ(run("x.damage({name: \"Ala\"}).foe"),
            "{str: 0, lives: none, mount: \"none\", name: \"nobody\", gear: {sword: false}}");
}

TEST(RecordTypeParams, AMisspeltFieldIsAnErrorWithASuggestion) {
  ScriptedDice dice({});
  const Outcome o = engine().roll("x.damage({name: \"Ala\", strr: 3})", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::UnknownField);
  EXPECT_EQ(o.error->message, "the argument 'hero' is a hero, which has no field 'strr'");
  ASSERT_GE(o.error->notes.size(), 2u);
  EXPECT_EQ(o.error->notes[0].message, "did you mean 'str'?");
  EXPECT_EQ(o.error->notes[1].message, "the fields of a hero: str, lives, mount, name, gear");
  // Under the caret: the record as written.
  EXPECT_EQ(o.error->span.begin, 9u);
}

TEST(RecordTypeParams, AFieldWithoutADefaultMustBeGiven) {
  EXPECT_EQ(run("x.damage({str: 3})"),
            "error: MissingArgument: the argument 'hero' is a hero, which needs the field 'name'");
}

TEST(RecordTypeParams, EachFieldIsCheckedLikeAParameter) {
  EXPECT_EQ(run("x.damage({name: \"Ala\", str: -1})"),
            "error: ArgumentOutOfRange: the argument 'hero.str' must be at least 0, got -1");
  EXPECT_EQ(run("x.damage({name: \"Ala\", mount: \"camel\"})"),
            "error: ArgumentOutOfRange: the argument 'hero.mount' must be one of none, horse, got \"camel\"");
  EXPECT_EQ(run("x.damage({name: \"Ala\", gear: {sword: 1}})"),
            "error: TypeMismatch: the argument 'hero.gear.sword' must be a bool, got the number 1");
  EXPECT_EQ(run("x.damage(3)"), "error: TypeMismatch: the argument 'hero' must be a hero, got the number 3");
}

TEST(RecordTypeParams, AListOfRecordsHasEachItemCompleted) {
  EXPECT_EQ(run("x.team([{name: \"A\"}, {str: 2, name: \"B\"}])"),
            "[{str: 0, lives: none, mount: \"none\", name: \"A\", gear: {sword: false}}, "
            "{str: 2, lives: none, mount: \"none\", name: \"B\", gear: {sword: false}}]");
  EXPECT_EQ(run("x.team([])"), "[]");
  EXPECT_EQ(run("x.team([{name: \"A\"}, 3])"),
            "error: TypeMismatch: the argument 'heroes[1]' must be a hero, got the number 3");
  EXPECT_EQ(run("x.team([{name: \"A\", mount: \"dragon\"}])"),
            "error: ArgumentOutOfRange: the argument 'heroes[0].mount' must be one of none, horse, got \"dragon\"");
}

// "LINE:COL Code message" of each problem the loader reports, with the
// ruleset's `types` section (from line 5) and one mechanic's parameters.
std::vector<std::string> problems(std::string_view types, std::string_view mechanic_params) {
  const std::string yaml = fmt::format(
      "schema: 1\nname: x\ntitle: X\nsource: a test\n{}mechanics:\n  m:\n    doc: d\n    params:\n{}"
      "    body: 1\n    returns: {{type: int, doc: one}}\n",
      types, mechanic_params);
  return testing::load_problems(yaml);
}

TEST(RecordTypeParams, TheLoaderChecksEachFieldLikeAParameter) {
  const auto type = [](std::string_view field) {
    return fmt::format("types:\n  t:\n    doc: t\n    fields:\n      {}\n", field);
  };
  const std::string param = "      r: {type: t, doc: r}\n";
  EXPECT_EQ(problems(type("a: {type: intt, doc: a}"), param),
            (std::vector<std::string>{"9:17 RulesetInvalidValue unknown type 'intt' / did you mean 'int'?"}));
  EXPECT_EQ(problems(type("a: {type: int, dco: a}"), param),
            (std::vector<std::string>{"9:7 RulesetMissingKey the field 'a' needs the key 'doc'",
                                      "9:22 RulesetUnknownKey unknown key 'dco' in the field 'a' / did you mean 'doc'?"}));
  EXPECT_EQ(problems(type("a: {type: int, min: 0, default: -2, doc: a}"), param),
            (std::vector<std::string>{"9:39 RulesetInvalidValue the default of 'a' must be at least 0, got -2"}));
}

// A record's fields are declared once, as a type: a parameter does not describe them in place.
TEST(RecordTypeParams, FieldsOnAParameterPointAtTypes) {
  EXPECT_EQ(problems("", "      r: {type: record, doc: r, fields: {a: {type: int, doc: a}}}\n"),
            (std::vector<std::string>{
                "9:33 RulesetUnknownKey unknown key 'fields' in the parameter 'r' / a record's fields are declared "
                "once under 'types' (types: {fighter: {doc: …, fields: {…}}}), then named: type: fighter, or type: list "
                "with items: fighter"}));
}

}  // namespace record_types_test
}  // namespace alea
