// tests/rulesets/strategiya_econ_test.cpp — the world and the economy of
// specs/strategiya.md through rulesets/strategiya.yaml: the vectors of sections
// 3.1-3.3 on set-up, deposits and work, adventures, cities and shops, magic and
// building (scripted dice where dice are rolled), and all 120 binary-code
// lookups of section 3.6 as a table. strategiya_rules_test.cpp has the
// character and combat vectors; strategiya_coverage_test.cpp checks that the
// two together name every vector V1-V299.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "interpreter/api.hpp"
#include "tests/rulesets/strategiya_cases.hpp"
#include "tests/support/shipped.hpp"

namespace alea {
namespace {

// The one place that names the ruleset: its file name. Calls below write `$`
// for the ruleset's name in the language (the name with '-' as '_') and a dot.
constexpr std::string_view kRuleset = "strategiya";

std::string ident() {
  std::string s(kRuleset);
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

// `$price("sword")` → `strategiya.price("sword")`.
std::string expand(std::string_view call) {
  std::string out;
  for (const char c : call) {
    if (c == '$') {
      out += ident() + ".";
    } else {
      out += c;
    }
  }
  return out;
}

const Engine& engine() {
  static const Engine e = testing::engine_with_ruleset(std::string(kRuleset));
  return e;
}

// A vector: a call in the language, the faces it rolls (all of them must be
// used), and the fields expected in its result as the language displays them
// ("" names the whole value).
struct Vector {
  std::string id;
  std::string call;
  std::vector<std::int64_t> faces;
  std::vector<std::pair<std::string, std::string>> expect;
};

std::string shown(const Value& v, const std::string& field) {
  if (field.empty()) return v.as_str() ? *v.as_str() : to_display(v);
  const Value* f = v.field(field);
  if (!f) throw std::runtime_error(fmt::format("no field '{}' in {}", field, to_display(v)));
  // A string shows with its quotes inside a record, and without them alone.
  return f->as_str() ? *f->as_str() : to_display(*f);
}

class StrategiyaEconVector : public ::testing::TestWithParam<Vector> {};

TEST_P(StrategiyaEconVector, GivesTheSpecifiedResult) {
  const Vector& v = GetParam();
  const std::string call = expand(v.call);
  ScriptedDice dice(v.faces);
  const Outcome o = engine().roll(call, dice);
  ASSERT_TRUE(o.ok()) << call << ": " << render_text(*o.error);
  for (const auto& [field, want] : v.expect) {
    EXPECT_EQ(shown(*o.value, field), want)
        << call << " → " << to_display(*o.value) << " (field '" << field << "')";
  }
  // Exactly the scripted dice are rolled: no roll where the rules need none.
  EXPECT_EQ(dice.used(), v.faces.size()) << call << " → " << to_display(*o.value);
}

// The four heroes of the text's adventure example (L1040-1045); the rocket
// launcher and the money are property, which an adventure enemy does not copy.
const std::string kTeam =
    R"([{name: "Tator", str: 3, spd: 4, int: 0, money: 55}, {name: "Ala", str: 0, spd: 1, int: 5},)"
    R"( {name: "Clarence", str: 6, spd: 0, int: 0, items: ["rocket launcher"]}, {name: "Stir", str: 2, spd: 2, int: 2}])";

// Five heroes for V118's chosen opponent, and two other opponents.
const std::string kFive =
    R"([{name: "e1", str: 1}, {name: "e2", str: 2}, {name: "e3", str: 3}, {name: "e4", str: 4, int: 1}, {name: "e5"}])";
const std::string kThreeTeams = "[[{name: \"d1\"}], " + kFive + ", [{name: \"f1\"}, {name: \"f2\"}]]";

// clang-format off
const std::vector<Vector> vectors = {
  // ---- 3.1 worked examples from the text ---------------------------------------------------
  // V1: a new hero is 0/0/0 with 10 lives and 5 personal potential; a player has 3 common.
  {"V1", "$setup(2)", {}, {{"hero", "{str: 0, spd: 0, int: 0, lives: 10, personal_potential: 5}"},
                          {"common_potential", "[3, 3]"}}},
  {"V1_four", "$setup(4)", {}, {{"common_potential", "[3, 3, 3, 3]"}}},
  // V2: 4 heroes each, opposite corners, the second player takes 2 turns in a row (first round, A50).
  {"V2", "$setup(2)", {}, {{"layout", "classic"}, {"ru", "классический расклад"}, {"heroes", "[4, 4]"},
      {"first_round_turns", "[1, 2]"}, {"positions", "[\"any corner, chosen by the first mover (the lot's winner decides who that is)\", \"the opposite corner\"]"}}},
  // V3: heroes 2, 2, 4 (the third's split 2 + 2 over two corners); he skips his first turn;
  // he alone may switch sides, with a secret exchange every 10 turns.
  {"V3", "$setup(3)", {}, {{"layout", "treacherous"}, {"heroes", "[2, 2, 4]"}, {"corners", "[1, 1, 2]"},
      {"first_round_turns", "[1, 1, 0]"}, {"info_exchange_every", "10"}, {"may_switch_sides", "[false, false, true]"}}},
  // V4: option a, a remaining corner and +1 common potential; option b, the worst position and +2.
  {"V4", "$setup(4)", {}, {{"layout", "battle"}, {"options",
      "[{option: \"a\", position: \"one of the two remaining corners\", common_potential: 1}, "
      "{option: \"b\", position: \"the most disadvantageous position\", common_potential: 2}]"}}},
  {"V4_heroes", "$setup(4)", {}, {{"heroes", "[4, 4, 4, 4]"}}},                                   // A49
  {"V4_heroes_variant", "$setup(4, heroes_per_player_4p: 3)", {}, {{"heroes", "[3, 3, 3, 3]"}}},
  // V14: STR 10 mines mountain iron ore (30 days at 15 $): 10 days a turn, 3 turns.
  {"V14", "$mine(\"mountain\", 1, [10])", {}, {{"resource", "iron ore"}, {"per_turn", "10"},
      {"turns_needed", "3"}, {"cargo_days", "30"}, {"value", "450"}, {"outcome", "exhausted"}}},
  {"V14_work", "$work_turns(30, [10])", {}, {{"per_turn", "10"}, {"turns", "3"}}},
  {"V14_found", "$explore_deposit(\"mountain\", 10)", {}, {{"final", "1"}, {"resource", "iron ore"},
      {"days", "30"}, {"rate", "15"}}},
  // V15: a 2-cell bridge (10 days) by builders of STR 3 and 2: W = 5, 2 turns.
  {"V15", "$build(\"bridge\", 2, [3, 2])", {}, {{"days", "10"}, {"per_turn", "5"}, {"turns", "2"}}},
  // V16: forest object 3: sheet 1 sends 3 to 9, sheet 2 sends 9 to 2: animal hides, 35 days at 20 $.
  {"V16", "$explore_deposit(\"forest\", 3)", {}, {{"via", "9"}, {"final", "2"}, {"found", "true"},
      {"resource", "animal hides"}, {"ru", "Шкуры животных"}, {"days", "35"}, {"rate", "20"}, {"value", "700"}}},
  // V17: mountain object 3: 3 → 9 → 9, none; the experience is paid at once (R22, A32),
  // and it is exp_award's (R21): INT 0 + the mountain's 2 = 2.
  {"V17", "$explore_deposit(\"mountain\", 3, int: 0)", {}, {{"via", "9"}, {"final", "9"}, {"found", "false"},
      {"resource", "none"}, {"ru", "Нет"}, {"value", "0"}, {"experience", "now"}, {"exp_now", "2"}}},
  {"V17_amount", "[$explore_deposit(\"mountain\", 3, int: 5).exp_now, $exp_award(\"mountain\", 5)]", {},
      {{"", "[7, 7]"}}},
  {"V17_not_asked", "$explore_deposit(\"mountain\", 3)", {}, {{"exp_now", "none"}}},
  {"V16_paid_later", "$explore_deposit(\"forest\", 3, int: 4)", {}, {{"experience", "on_finish"}, {"exp_now", "0"}}},
  // V22: INT 0 learns the Curse (needs 3, base 1 turn) in 3 × 3 + 1 = 10 turns.
  {"V22", "$learn_turns(\"curse\", 0)", {}, {{"needs_int", "3"}, {"extra_turns", "9"}, {"base_turns", "1"},
      {"turns", "10"}}},
  // V23: one opponent (no roll), 4 heroes: 6 is re-rolled, 3 is Clarence.
  {"V23", "$adventure_battle([" + kTeam + "], \"forest\", first: \"hero_first\")", {6, 3},
      {{"opponent", "1"}, {"hero", "3"}, {"name", "Clarence"}}},
  {"V23_pick", "$adventure_pick(4)", {6, 3}, {{"", "3"}}},
  // V24: Clarence in a forest adventure: STR 6 + 0 = 6, the launcher ignored.
  {"V24", "$adventure_battle([" + kTeam + "], \"forest\", first: \"hero_first\")", {6, 3},
      {{"enemy", "{str: 6, spd: 0, int: 0, lives: 20}"}}},
  {"V24_enemy", "$adventure_enemy(6, 0, 0, \"forest\")", {}, {{"str", "6"}, {"spd", "0"}, {"int", "0"}}},

  // ---- 3.2 rule-level vectors ----------------------------------------------------------------
  // V47, V48: a sword (360 $) at total 15 or 25 costs 288 $, at 26 180 $ (R60).
  {"V47", "$price(\"sword\", total: 15)", {}, {{"discount_pct", "20"}, {"price", "288"}}},
  {"V47_25", "$price(\"sword\", total: 25)", {}, {{"price", "288"}}},
  {"V47_14", "$price(\"sword\", total: 14)", {}, {{"discount_pct", "0"}, {"price", "360"}}},
  {"V48", "$price(\"sword\", total: 26)", {}, {{"discount_pct", "50"}, {"price", "180"}}},
  // V55: bridge 3 cells, dam 2 cells, castle, ship.
  {"V55", "[$build(\"bridge\", 3).days, $build(\"dam\", 2).days, $build(\"castle\").days, $build(\"ship\").days]",
      {}, {{"", "[15, 18, 10, 8]"}}},
  // V56: a ship built by INT 3 and 2.
  {"V56", "$ship_speed([3, 2])", {}, {{"downstream", "6"}, {"still", "5"}, {"upstream", "4"}}},
  // V57: a castle built by INT 3 and 2.
  {"V57", "$castle([3, 2])", {}, {{"heal_per_turn", "5"}, {"builder_experience", "1"}, {"str_bonus", "1"},
      {"int_bonus", "1"}}},
  // V58-V61: spell ranges and effects.
  {"V58", "$spell(\"shackles\", 4)", {}, {{"range", "11"}}},
  {"V59", "$spell(\"curse\", 4)", {}, {{"range", "12"}}},
  {"V60", "$spell(\"healing\", t: 5)", {}, {{"range", "10"}, {"lives_per_turn", "2"}, {"lasts", "4"},
      {"lives_total", "8"}}},
  {"V61", "$spell(\"flame_whirls\", 6, 3)", {}, {{"radius", "6"}, {"range", "3"}, {"lasts", "4"},
      {"caster_skips", "1"}}},
  // V62: 15 turns of magic study give +1 INT.
  {"V62", "$study_int_gain(15)", {}, {{"", "1"}}},
  // V63, V64: black-market fees on a sword and a shield.
  {"V63", "$price(\"sword\", hidden: true)", {}, {{"price", "360"}, {"fee", "90"}, {"cost", "450"}}},
  {"V64", "$price(\"shield\", hidden: true)", {}, {{"fee", "58"}}},
  // V65: a contract on a sword, on a Hunter.
  {"V65", "$price(\"sword\", contract: true)", {}, {{"list_price", "720"}, {"price", "720"}}},
  {"V65_hunter", "$price(\"hunter\", contract: true)", {}, {{"price", "1900"}}},
  // V66: a contract on STR 4: -4 on each of 4 turns, 16 in all, unless saved.
  {"V66", "$contract_loss(4)", {}, {{"per_turn", "[4, 4, 4, 4]"}, {"total", "16"}}},
  {"V66_saved", "$contract_loss(4, saved_after: 1)", {}, {{"per_turn", "[4, 0, 0, 0]"}, {"total", "4"}}},
  // V67: resale of a sword, shield, bow and staff.
  {"V67", "[$resale(\"sword\").price, $resale(\"shield\").price, $resale(\"bow\").price, $resale(\"staff\").price]",
      {}, {{"", "[180, 115, 325, 450]"}}},
  // V68: a trading shop after 10 turns.
  {"V68", "$trading_shop(10)", {}, {{"income", "10"}, {"net", "-60"}}},
  // V69: STR 4 with tools mines 15 days: W = 7, 3 turns.
  {"V69", "$work_turns(15, [4], tools: 1)", {}, {{"per_turn", "7"}, {"turns", "3"}}},
  {"V69_mine", "$mine(\"forest\", 3, [4], tools: 1)", {}, {{"per_turn", "7"}, {"turns_needed", "3"}}},
  // V71: checking a deposit or an adventure costs the next turn.
  {"V71", "$explore_deposit(\"swamp\", 1)", {}, {{"skip_turns", "1"}}},
  {"V71_adventure", "$explore_adventure(\"swamp\", 1)", {}, {{"skip_turns", "1"}}},
  {"V71_none", "$explore_deposit(\"mountain\", 3)", {}, {{"skip_turns", "1"}}},

  // ---- 3.3 derived vectors -------------------------------------------------------------------
  // V100-V102: work times.
  {"V100", "$work_turns(45, [2, 2, 2])", {}, {{"per_turn", "6"}, {"turns", "8"}}},
  {"V100_moss", "$mine(\"swamp\", 3, [2, 2, 2])", {}, {{"resource", "healing moss"}, {"turns_needed", "8"}}},
  {"V101", "$work_turns(7, [0])", {}, {{"per_turn", "0"}, {"turns", "none"}, {"progress", "false"}}},
  {"V101_mine", "$mine(\"mountain\", 3, [0])", {}, {{"resource", "gold"}, {"turns_needed", "none"},
      {"cargo_days", "0"}, {"outcome", "no_progress"}}},
  {"V102", "$work_turns(7, [0], tools: 1)", {}, {{"per_turn", "3"}, {"turns", "3"}}},
  // V103-V106: building times.
  {"V103", "$build(\"castle\", strengths: [2, 3])", {}, {{"turns", "2"}}},
  {"V104", "[$build(\"castle\", strengths: [2]).materials[0].turns, $build(\"castle\", strengths: [2]).materials[1].turns]",
      {}, {{"", "[3, 2]"}}},
  {"V104_work", "[$work_turns(5, [2]).turns, $work_turns(4, [2]).turns]", {}, {{"", "[3, 2]"}}},
  {"V104_what", "$build(\"castle\").materials", {}, {{"",
      "[{what: \"stone\", ru: \"камни\", terrain: \"mountain\", days: 5, turns: none}, "
      "{what: \"timber\", ru: \"древесина\", terrain: \"forest\", days: 4, turns: none}]"}}},
  {"V105", "$build(\"dam\", 2, [5])", {}, {{"days", "18"}, {"turns", "4"}}},
  {"V106", "$build(\"ship\", strengths: [3])", {}, {{"turns", "3"}}},
  // V107: fully mined iron ore, copper, platinum.
  {"V107", "[$deposit(\"mountain\", 1).value, $deposit(\"death_zone\", 2).value, $deposit(\"mountain\", 4).value]",
      {}, {{"", "[450, 1400, 1000]"}}},
  {"V107_mined", "$mine(\"death_zone\", 2, [5])", {}, {{"value", "1400"}, {"finished", "true"}, {"experience", "true"}}},
  // V108: endless fishing, STR 4, 3 turns: 12 cargo days, 12 $, no experience (A29).
  {"V108", "$mine(\"water\", 8, [4], turns: 3)", {}, {{"resource", "endless fishing"}, {"cargo_days", "12"},
      {"value", "12"}, {"finished", "false"}, {"experience", "false"}, {"outcome", "endless"}}},
  // V109: ships built by INT sum 0 and 1.
  {"V109", "$ship_speed([0])", {}, {{"downstream", "1"}, {"still", "0"}, {"upstream", "0"}}},
  {"V109_1", "$ship_speed([1])", {}, {{"downstream", "2"}, {"still", "1"}, {"upstream", "0"}}},
  // V110: 4/15 lives in a castle of INT 3 + 2: 9 after one turn.
  {"V110", "$castle([3, 2], 4, 15)", {}, {{"lives_after", "9"}}},
  {"V110_cap", "$castle([3, 2], 13, 15)", {}, {{"lives_after", "15"}}},
  // V115: Clarence 6/0/0 in each terrain.
  {"V115", "for t in [\"mountain\", \"swamp\", \"forest\", \"plain\", \"water\", \"death_zone\"] "
           "{ let e = $adventure_enemy(6, 0, 0, t) in [e.str, e.lives] }",
      {}, {{"", "[[8, 20], [7, 20], [6, 20], [5, 15], [7, 20], [9, 25]]"}}},
  // V116: Ala 0/1/5 on a plain: STR -1 clamped to 0.
  {"V116", "$adventure_enemy(0, 1, 5, \"plain\")", {}, {{"str", "0"}, {"spd", "1"}, {"int", "5"}, {"lives", "10"}}},
  // V117: Tator 3/4/0 with 55 $ in the mountains: 5/4/0, 15 lives, no money.
  {"V117", "$adventure_enemy(3, 4, 0, \"mountain\")", {}, {{"str", "5"}, {"spd", "4"}, {"int", "0"}, {"lives", "15"}}},
  {"V117_no_money", "$adventure_battle([[{name: \"Tator\", str: 3, spd: 4, int: 0, money: 55}]], \"mountain\", first: \"enemy_first\")",
      {}, {{"enemy", "{str: 5, spd: 4, int: 0, lives: 15}"}}},
  // V118: 3 opponents, the chosen one has 5 heroes; dice 5, 2, 6, 4.
  {"V118", "[$adventure_pick(3), $adventure_pick(5)]", {5, 2, 6, 4}, {{"", "[2, 4]"}}},
  {"V118_battle", "$adventure_battle(" + kThreeTeams + ", \"plain\")", {5, 2, 6, 4, 1},
      {{"opponent", "2"}, {"hero", "4"}, {"name", "e4"}, {"enemy", "{str: 3, spd: 0, int: 1, lives: 15}"},
       {"first", "enemy_first"}}},
  // V119: the first-attacker die 2 / 5.
  {"V119", "$adventure_first()", {2}, {{"roll", "2"}, {"first", "enemy_first"}}},
  {"V119_5", "$adventure_first()", {5}, {{"first", "hero_first"}}},
  // V132: total 26 buys Tracker, two-handed sword, dragon, common potential.
  {"V132", "for g in [\"tracker\", \"two_handed_sword\", \"dragon\", \"common_potential\"] { $price(g, total: 26).price }",
      {}, {{"", "[23, 138, 1650, 250]"}}},
  // V133: total 15 buys common potential, Tracker, two-handed sword.
  {"V133", "for g in [\"common_potential\", \"tracker\", \"two_handed_sword\"] { $price(g, total: 15).price }",
      {}, {{"", "[400, 36, 220]"}}},
  // V134: resale of a two-handed sword, tools, a medal; a scroll cannot be resold.
  {"V134", "for g in [\"two_handed_sword\", \"tools\", \"medal\"] { $resale(g).price }", {}, {{"", "[137, 95, 15]"}}},
  {"V134_scroll", "$resale(\"healing\")", {}, {{"resellable", "false"}, {"price", "none"}}},
  // V135: black-market fees at list price.
  {"V135", "for g in [\"two_handed_sword\", \"bow\", \"healing\", \"resurrection\", \"shackles\"] { $price(g, hidden: true).fee }",
      {}, {{"", "[69, 163, 85, 763, 23]"}}},
  // V136: the fee on the price paid after the discount.
  {"V136", "$price(\"sword\", total: 15, hidden: true)", {}, {{"price", "288"}, {"fee", "72"}, {"cost", "360"}}},
  {"V136_26", "$price(\"two_handed_sword\", total: 26, hidden: true)", {}, {{"price", "138"}, {"fee", "35"}}},
  // V137: a contract on a sword by a buyer with total 15.
  {"V137", "$price(\"sword\", total: 15, contract: true)", {}, {{"list_price", "720"}, {"price", "576"}}},
  // V138: a contract on a skill of value 0.
  {"V138", "$contract_loss(0)", {}, {{"per_turn", "[0, 0, 0, 0]"}, {"total", "0"}}},
  // V139, V140: takeovers (A36).
  {"V139", "$takeover(\"tracker\", 45, 2)", {}, {{"bids", "[90, 180]"}, {"price", "180"}}},
  {"V140", "$takeover(\"mercenary\")", {}, {{"bids", "[680]"}, {"price", "680"}}},
  // V141-V146: learning turns (R72).
  {"V141", "[$learn_turns(\"curse\", 3).turns, $learn_turns(\"shackles\", 2).turns, $learn_turns(\"ward\", 0).turns]",
      {}, {{"", "[1, 4, 15]"}}},
  {"V142", "$learn_turns(\"ward\", 0)", {}, {{"turns", "15"}, {"int_gain", "1"}, {"int_after", "1"}}},
  {"V143", "[$learn_turns(\"resurrection\", 7).turns, $learn_turns(\"resurrection\", 9).turns]", {}, {{"", "[8, 2]"}}},
  {"V144", "[$learn_turns(\"dragon\", 7).turns, $learn_turns(\"dragon\", 10).turns]", {}, {{"", "[9, 0]"}}},
  {"V145", "$learn_turns(\"teleportation\", 10)", {}, {{"turns", "6"}}},
  {"V145_cast", "$spell(\"teleportation\", 12)", {}, {{"caster_skips", "2"}}},
  {"V146", "[$learn_turns(\"flame_whirls\", 4, 3).turns, $learn_turns(\"healing\", 0, 2).turns]", {}, {{"", "[6, 11]"}}},
  // V147: 10, 29, 30 turns of study.
  {"V147", "[$study_int_gain(10), $study_int_gain(29), $study_int_gain(30)]", {}, {{"", "[0, 1, 2]"}}},
  {"V147_cumulative", "$learn_turns(\"ward\", 0, studied: 14)", {}, {{"int_gain", "1"}, {"int_after", "1"}}},
  // V148-V151: who a spell cannot touch.
  {"V148", "[$spell_affects(\"shackles\", caster_str: 3, target_str: 4).affected, "
           "$spell_affects(\"shackles\", caster_str: 3, target_str: 3).affected]", {}, {{"", "[false, true]"}}},
  {"V149", "[$spell_affects(\"curse\", caster_int: 5, target_int: 6).affected, "
           "$spell_affects(\"curse\", caster_int: 5, target_int: 5).affected]", {}, {{"", "[false, true]"}}},
  {"V150", "[$spell_affects(\"slave_seal\", target_int: 15).affected, "
           "$spell_affects(\"slave_seal\", target_int: 14).affected]", {}, {{"", "[false, true]"}}},
  {"V151", "[$spell_affects(\"flame_whirls\", target_spd: 5).affected, "
           "$spell_affects(\"flame_whirls\", target_spd: 4).affected]", {}, {{"", "[false, true]"}}},
  // V152: Healing learned in T = 1, 6, 7 turns.
  {"V152", "for t in [1, 6, 7] { let s = $spell(\"healing\", t: t) in [s.range, s.lives_per_turn, s.lasts] }",
      {}, {{"", "[[2, 1, 4], [12, 2, 4], [14, 3, 4]]"}}},
  // V153: Shackles and Curse at INT 3.
  {"V153", "[$spell(\"shackles\", 3).range, $spell(\"curse\", 3).range]", {}, {{"", "[9, 9]"}}},
  // V174: picking among k = 4 is uniform: a d6 above 4 is rolled again, and the
  // pick is the first die at or under 4 (every case in StrategiyaEconPick below).
  {"V174", "$adventure_pick(4)", {5, 6, 2}, {{"", "2"}}},

  // ---- variants and the parameters of the ruleset ------------------------------------------
  {"A45_total", "$spell(\"healing\", t: 5, heal_mode: \"total\")", {}, {{"lives_per_turn", "none"}, {"lives_total", "2"}}},
  {"A38_many", "$adventure_pick(8)", {7}, {{"", "7"}}},
  {"A41_nothing", "$explore_adventure(\"forest\", 1, int: 2)", {}, {{"final", "6"}, {"written", "false"},
      {"outcome", "nothing_happens"}, {"experience", "now"}, {"exp_now", "2"}}},
  {"R54_example", "$explore_adventure(\"forest\", 10)", {}, {{"final", "4"}, {"written", "true"}, {"kind", "morality"},
      {"outcome", "play_it"}, {"experience", "on_success"}}},
  {"R57_legendary", "$explore_adventure(\"forest\", 10, total: 26, int: 9)", {}, {{"outcome", "legendary_success"},
      {"skip_turns", "0"}, {"experience", "now"}, {"exp_now", "9"}}},
  {"R54_paid_on_success", "$explore_adventure(\"forest\", 10, int: 9)", {}, {{"experience", "on_success"}, {"exp_now", "0"}}},
  {"R57_not_in_death_zone", "$explore_adventure(\"death_zone\", 3, total: 30)", {}, {{"final", "2"},
      {"kind", "find"}, {"outcome", "play_it"}, {"skip_turns", "1"}}},
  {"R52_half_worked", "$mine(\"forest\", 2, [5], days_done: 20)", {}, {{"days_left", "15"}, {"turns_needed", "3"},
      {"cargo_days", "15"}, {"value", "300"}, {"finished", "true"}}},
  {"R52_partial", "$mine(\"forest\", 2, [5], turns: 2)", {}, {{"cargo_days", "10"}, {"value", "200"},
      {"finished", "false"}, {"experience", "false"}, {"outcome", "in_progress"}}},
  {"R52_nothing", "$mine(\"forest\", 9, [5])", {}, {{"outcome", "nothing"}, {"value", "0"}, {"experience", "false"}}},
  {"R61_hunter", "$hire(\"hunter\")", {}, {{"potential", "8"}, {"price", "950"}, {"lives", "10"},
      {"death_zone_walker", "true"}, {"skip_turns", "1"}}},
  {"R61_mercenary", "$hire(\"mercenary\")", {}, {{"potential", "4"}, {"str", "0"}, {"death_zone_walker", "false"}}},
  {"R58_buy", "$price(\"horse\")", {}, {{"price", "220"}, {"skip_turns", "1"}}},
  {"R58_sell", "[$resale(\"horse\").skip_turns, $resale(\"curse\").skip_turns]", {}, {{"", "[1, 0]"}}},
  {"R62_goods", "$goods(\"tracker\")", {}, {{"category", "services"}, {"price", "45"}, {"ru", "Следопыт"},
      {"resellable", "false"}, {"hideable", "false"}, {"takeover", "true"}}},
  {"A35_goods", "for g in [\"staff\", \"medal\", \"common_potential\", \"trading_shop\", \"griffin\", \"ward\"] "
                "{ $goods(g).hideable }", {}, {{"", "[true, true, false, false, true, true]"}}},
  {"R48_own_sheets", "$binary_code(\"resources\", \"forest\", 3, sheet1: {resources: {forest: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}})",
      {}, {{"via", "3"}, {"final", "8"}}},
  {"R48_both_own", "$binary_code(\"adventures\", \"water\", 2, sheet1: {adventures: {water: [2, 1, 3, 4, 5, 6, 7, 8, 9, 10]}}, "
                   "sheet2: {adventures: {water: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]}})", {}, {{"via", "1"}, {"final", "10"}}},
  {"R48_column", "$code_column(\"resources\", \"forest\")", {}, {{"via", "[6, 5, 9, 10, 1, 8, 7, 2, 3, 4]"},
      {"final", "[5, 6, 2, 1, 10, 3, 4, 9, 8, 7]"}}},
  {"R47_valid", "[$sheet_check(1).valid, $sheet_check(2).valid]", {}, {{"", "[true, true]"}}},
  {"R47_invalid", "$sheet_check(2, sheet2: {resources: {forest: [1, 2, 3, 4, 5, 6, 7, 8, 9, 9]}})", {},
      {{"valid", "false"}, {"example", "false"}}},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(StrategiyaEcon, StrategiyaEconVector, ::testing::ValuesIn(vectors),
                         [](const auto& param_info) { return param_info.param.id; });

// ---- 3.6: every binary-code lookup with the example sheets -----------------------------------

struct Lookup {
  std::string id;
  std::string table;    // resources or adventures
  std::string terrain;
  int n;                // the object's number on the map
  int via;              // what sheet 1 gives
  int final_index;      // what sheet 2 gives: the entry of the list
  std::string resource; // for resources, the R50 entry it names
};

// clang-format off
const std::vector<Lookup> lookups = {
#include "strategiya_econ_lookups.inc"
};
// clang-format on

class StrategiyaEconLookup : public ::testing::TestWithParam<Lookup> {};

TEST_P(StrategiyaEconLookup, GoesThroughBothSheets) {
  const Lookup& l = GetParam();
  ScriptedDice dice({});
  const std::string call = expand(fmt::format("$binary_code(\"{}\", \"{}\", {})", l.table, l.terrain, l.n));
  const Outcome o = engine().roll(call, dice);
  ASSERT_TRUE(o.ok()) << call << ": " << render_text(*o.error);
  EXPECT_EQ(shown(*o.value, "via"), std::to_string(l.via)) << call;
  EXPECT_EQ(shown(*o.value, "final"), std::to_string(l.final_index)) << call;
  if (l.table != "resources") return;
  const std::string explore = expand(fmt::format("$explore_deposit(\"{}\", {})", l.terrain, l.n));
  const Outcome e = engine().roll(explore, dice);
  ASSERT_TRUE(e.ok()) << explore << ": " << render_text(*e.error);
  EXPECT_EQ(shown(*e.value, "final"), std::to_string(l.final_index)) << explore;
  EXPECT_EQ(shown(*e.value, "resource"), l.resource) << explore;
  EXPECT_EQ(shown(*e.value, "found"), l.resource == "none" ? "false" : "true") << explore;
}

INSTANTIATE_TEST_SUITE_P(StrategiyaEcon, StrategiyaEconLookup, ::testing::ValuesIn(lookups),
                         [](const auto& param_info) { return param_info.param.id; });

// The same 120 cells a column at a time: code_column composes the two sheets.
TEST(StrategiyaEconLookups, ColumnsComposeTheSheets) {
  for (const char* table : {"resources", "adventures"}) {
    for (const char* terrain : {"mountain", "swamp", "forest", "plain", "water", "death_zone"}) {
      std::vector<int> via, fin;
      for (const auto& l : lookups) {
        if (l.table == table && l.terrain == terrain) {
          via.push_back(l.via);
          fin.push_back(l.final_index);
        }
      }
      ASSERT_EQ(via.size(), 10u) << table << " " << terrain;
      ScriptedDice dice({});
      const std::string call = expand(fmt::format("$code_column(\"{}\", \"{}\")", table, terrain));
      const Outcome o = engine().roll(call, dice);
      ASSERT_TRUE(o.ok()) << call << ": " << render_text(*o.error);
      EXPECT_EQ(shown(*o.value, "via"), fmt::format("[{}]", fmt::join(via, ", "))) << call;
      EXPECT_EQ(shown(*o.value, "final"), fmt::format("[{}]", fmt::join(fin, ", "))) << call;
    }
  }
}

// 3.6's summary: with these sheets, the deposits that yield something.
TEST(StrategiyaEconLookups, DepositsThatYieldSomething) {
  const std::vector<std::pair<std::string, std::vector<int>>> yielding = {
      {"mountain", {2, 5, 6, 10}},          {"swamp", {1, 2, 6, 7, 9}},
      {"forest", {1, 2, 3, 4, 6, 7}},       {"plain", {1, 3, 4, 5, 6, 7, 10}},
      {"water", {1, 2, 3, 4, 5, 8, 9, 10}}, {"death_zone", {2, 3, 5, 6, 8, 9}}};
  for (const auto& [terrain, ns] : yielding) {
    ScriptedDice dice({});
    const std::string call = expand(fmt::format(
        "flatten(for n in range(1, 10) {{ if $explore_deposit(\"{}\", n).found then [n] else [] }})", terrain));
    const Outcome o = engine().roll(call, dice);
    ASSERT_TRUE(o.ok()) << call << ": " << render_text(*o.error);
    EXPECT_EQ(to_display(*o.value), fmt::format("[{}]", fmt::join(ns, ", "))) << terrain;
  }
}

// The 120 lookups of section 3.6, one per cell of the two example sheets.
TEST(StrategiyaEconLookups, AreAllThere) { EXPECT_EQ(lookups.size(), 120u); }

// ---- V174: the adventure pick is uniform ------------------------------------------------------
//
// For k from 2 to 6, every first die at or under k is the pick with no further
// roll; a die above k is rolled again and the next die decides in the same way.
// So each of 1..k has probability (1/6) Σ ((6-k)/6)^i = 1/k.
TEST(StrategiyaEconPick, EveryCandidateIsEquallyLikely) {
  for (int k = 2; k <= 6; ++k) {
    const std::string call = expand(fmt::format("$adventure_pick({})", k));
    for (std::int64_t first = 1; first <= 6; ++first) {
      if (first <= k) {
        ScriptedDice dice({first});
        const Outcome o = engine().roll(call, dice);
        ASSERT_TRUE(o.ok()) << render_text(*o.error);
        EXPECT_EQ(to_display(*o.value), std::to_string(first)) << call;
        EXPECT_EQ(dice.used(), 1u) << call;
        continue;
      }
      for (std::int64_t second = 1; second <= k; ++second) {
        ScriptedDice dice({first, second});
        const Outcome o = engine().roll(call, dice);
        ASSERT_TRUE(o.ok()) << render_text(*o.error);
        EXPECT_EQ(to_display(*o.value), std::to_string(second)) << call << " after " << first;
        EXPECT_EQ(dice.used(), 2u) << call;
      }
    }
  }
  ScriptedDice none({});
  const Outcome one = engine().roll(expand("$adventure_pick(1)"), none);
  ASSERT_TRUE(one.ok()) << render_text(*one.error);
  EXPECT_EQ(to_display(*one.value), "1");  // one candidate: no roll
}

// ---- mistakes are reported, not guessed around ------------------------------------------------

std::string error_of(const std::string& call) {
  ScriptedDice dice({});
  const Outcome o = engine().roll(expand(call), dice);
  if (o.ok()) return "no error: " + to_display(*o.value);
  return std::string(code_name(o.error->code)) + ": " + o.error->message;
}

TEST(StrategiyaEconErrors, ASheetColumnMustBeAPermutation) {
  EXPECT_EQ(error_of("$binary_code(\"resources\", \"forest\", 3, sheet1: {resources: {forest: [1, 2, 3, 4, 5, 6, 7, 8, 9, 9]}})"),
            "AssertionFailed: assertion failed: {binary_code: \"a column of a secret sheet must be a permutation "
            "of 1..10 (R47)\", sheet: 1, table: \"resources\", terrain: \"forest\", problem: \"missing [10], extra [9]\"}");
  EXPECT_EQ(error_of("$binary_code(\"adventures\", \"forest\", 3, sheet2: {resources: {}})"),
            "AssertionFailed: assertion failed: {binary_code: \"a column of a secret sheet must be a permutation "
            "of 1..10 (R47)\", sheet: 2, table: \"adventures\", terrain: \"forest\", problem: \"the sheet has no "
            "such column\"}");
  EXPECT_EQ(error_of("$binary_code(\"resources\", \"forest\", 11)"),
            "AssertionFailed: assertion failed: {binary_code: \"no object has this number on both sheets\", n: 11, "
            "sheet1: 10, sheet2: 10}");
}

TEST(StrategiyaEconErrors, ShopsRefuseWhatTheRulesForbid) {
  EXPECT_EQ(error_of("$price(\"curse\", contract: true)"),
            "AssertionFailed: assertion failed: {price: \"a contract names an item or a hire (R65)\", goods: \"curse\"}");
  EXPECT_TRUE(error_of("$price(\"mercenary\", hidden: true)")
                  .starts_with("AssertionFailed: assertion failed: {price: \"the black market sells items"));
  EXPECT_TRUE(error_of("$price(\"black_market\")")
                  .starts_with("AssertionFailed: assertion failed: {price: \"this is priced by rule"));
  EXPECT_TRUE(error_of("$takeover(\"black_market\", 45)")
                  .starts_with("AssertionFailed: assertion failed: {takeover: \"only hires and services"));
  EXPECT_TRUE(error_of("$takeover(\"sword\")").starts_with("AssertionFailed: assertion failed: {takeover:"));
  EXPECT_TRUE(error_of("$price(\"excalibur\")").starts_with("ArgumentOutOfRange: "));
}

TEST(StrategiyaEconErrors, WorkNeedsSensibleNumbers) {
  EXPECT_EQ(error_of("$work_turns(10, [3], tools: 2)"),
            "AssertionFailed: assertion failed: {work: \"tools counts the workers who have tools, 0 to their "
            "number\", tools: 2, workers: 1}");
  EXPECT_EQ(error_of("$build(\"ship\", 2)"),
            "AssertionFailed: assertion failed: {build: \"only a bridge or a dam is built by the cell\", object: "
            "\"ship\", cells: 2}");
  EXPECT_EQ(error_of("$mine(\"forest\", 2, [3], days_done: 40)"),
            "AssertionFailed: assertion failed: {mine: \"more days done than the deposit has\", days: 35, "
            "days_done: 40}");
  EXPECT_EQ(error_of("$castle([3], 4)"),
            "AssertionFailed: assertion failed: {castle: \"give max_lives with lives: healing stops at the bar\", "
            "lives: 4}");
}

}  // namespace

// The cases of this file, for the coverage check of strategiya_coverage_test.cpp.
std::vector<std::string> testing::strategiya_econ_cases() {
  std::vector<std::string> ids;
  for (const auto& v : vectors) ids.push_back(v.id);
  for (const auto& l : lookups) ids.push_back(l.id);
  return ids;
}

}  // namespace alea
