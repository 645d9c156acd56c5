// tests/rulesets/dozen_die_test.cpp — every test vector of specs/dozen-die.md
// (sections 3.1 and 3.2) through the shipped ruleset with scripted dice; the
// melee's symmetry (swapping the sides changes who wins ties and nothing else)
// and A3 (never both sides hit) over every roll of 1–2 dice a side; and the
// exact distributions X1–X5 by enumerating every outcome.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <numeric>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/api.hpp"
#include "tests/support/shipped.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace {

const Engine& engine() {
  static const Engine e = testing::engine_with_ruleset("dozen-die");
  return e;
}

// A vector: a call in the language, the faces it rolls (all of them must be
// used), and the fields expected in its result as the language displays them
// ("" names the whole value, for a mechanic that returns a plain value).
struct Vector {
  std::string id;
  std::string call;
  std::vector<std::int64_t> faces;
  std::vector<std::pair<std::string, std::string>> expect;
};

std::string shown(const Value& v, const std::string& field) {
  if (field.empty()) return to_display(v);
  const Value* f = v.field(field);
  if (!f) throw std::runtime_error(fmt::format("no field '{}' in {}", field, to_display(v)));
  // A string shows with its quotes inside a record, and without them alone.
  return f->as_str() ? *f->as_str() : to_display(*f);
}

class DozenDieVector : public ::testing::TestWithParam<Vector> {};

TEST_P(DozenDieVector, GivesTheSpecifiedResult) {
  const Vector& v = GetParam();
  ScriptedDice dice(v.faces);
  const Outcome o = engine().roll(v.call, dice);
  ASSERT_TRUE(o.ok()) << v.call << ": " << render_text(*o.error);
  for (const auto& [field, want] : v.expect) {
    EXPECT_EQ(shown(*o.value, field), want)
        << v.call << " → " << to_display(*o.value) << " (field '" << field << "')";
  }
  // Exactly the scripted dice are rolled: no roll where the rules need none.
  EXPECT_EQ(dice.used(), v.faces.size()) << v.call << " → " << to_display(*o.value);
}

std::string melee(int an, int as, int dn, int ds, const std::string& extra = "") {
  return fmt::format("dozen_die.melee({{pool: {}, ST: {}}}, {{pool: {}, ST: {}}}{})", an, as, dn,
                     ds, extra);
}

// clang-format off
const std::vector<Vector> vectors = {
  // ---- 3.1 worked examples from the text ---------------------------------------------------
  // T1: ST 4 with a sword (+3), melee level 2 is "ST7 2d12".
  {"T1", "dozen_die.melee_skill(4, 3, 2)", {}, {{"skill", "7"}, {"dice", "2"}, {"notation", "ST7 2d12"}}},
  // T2: ST7 2d12 rolls 5, 8: the 8 fails and goes back to the reserve, the 5 succeeds
  // (against a defender with no dice, so the 5 also hits).
  {"T2", melee(2, 7, 0, 7), {5, 8}, {{"attacker_successes", "[5]"}, {"to_reserve_attacker", "[8]"},
                                     {"spent_attacker", "[5]"}}},
  {"T2_conflict", "dozen_die.conflict(2, 7, \"hard\")", {5, 8}, {{"successes", "1"}, {"dice", "[5, 8]"}}},
  // T3: 5,1 @7 vs 5 @7: the attacker's 5 wins the tie; its 1 is cancelled too (A1).
  {"T3", melee(2, 7, 1, 7), {5, 1, 5}, {{"hits_on_defender", "1"}, {"hits_on_attacker", "0"},
      {"winner", "attacker"}, {"pushed", "defender"}, {"to_reserve_attacker", "[1]"},
      {"to_reserve_defender", "[5]"}, {"spent_attacker", "[5]"}, {"spent_defender", "[]"}}},
  // T4: "you" 3 against the opponent's 4, 5, whatever the roles: 2 hits on you, you are pushed.
  {"T4_you_attack", melee(1, 7, 2, 7), {3, 4, 5}, {{"hits_on_attacker", "2"}, {"hits_on_defender", "0"},
      {"winner", "defender"}, {"pushed", "attacker"}, {"to_reserve_attacker", "[3]"}}},
  {"T4_you_defend", melee(2, 7, 1, 7), {4, 5, 3}, {{"hits_on_defender", "2"}, {"hits_on_attacker", "0"},
      {"winner", "attacker"}, {"pushed", "defender"}, {"to_reserve_defender", "[3]"}}},
  // T5: leather armour (+1) with DX 3 is armour class 4.
  {"T5", "dozen_die.armour_class(3, 1)", {}, {{"", "4"}}},
  // T6, T7: 2 hits against armour class 4.
  {"T6", "dozen_die.armour_save(2, 3, 1)", {2, 4}, {{"armour_class", "4"}, {"hp_lost", "0"}, {"saved", "2"}}},
  {"T7", "dozen_die.armour_save(2, 3, 1)", {5, 7}, {{"hp_lost", "2"}, {"saved", "0"}}},
  // T8: no armour, DX 4, 1 hit: a 4 saves, a 5 costs 1 HP.
  {"T8_4", "dozen_die.armour_save(1, 4)", {4}, {{"armour_class", "4"}, {"hp_lost", "0"}}},
  {"T8_5", "dozen_die.armour_save(1, 4)", {5}, {{"hp_lost", "1"}}},
  // T9-T12: the terrain targets for DX 3, and the edge of easy (9).
  {"T9", "dozen_die.target(3, \"easy\")", {}, {{"target", "9"}, {"auto", "false"}}},
  {"T9_roll9", "dozen_die.terrain_move(3, 3, \"easy\")", {9}, {{"target", "9"}, {"success", "true"}}},
  {"T9_roll10", "dozen_die.terrain_move(3, 3, \"easy\")", {10}, {{"success", "false"}}},
  {"T10", "dozen_die.target(3, \"normal\")", {}, {{"target", "6"}}},
  {"T11", "dozen_die.target(3, \"hard\")", {}, {{"target", "3"}}},
  {"T12", "dozen_die.target(3, \"very_hard\")", {}, {{"target", "2"}}},
  // T13: easy or normal, MV 3: 3 on a success, 3/2 = 1.5 → 2 on a failure.
  {"T13_easy_ok", "dozen_die.terrain_move(3, 3, \"easy\")", {1}, {{"success", "true"}, {"mv", "3"}}},
  {"T13_easy_fail", "dozen_die.terrain_move(3, 3, \"easy\")", {10}, {{"success", "false"}, {"mv", "2"}}},
  {"T13_normal_ok", "dozen_die.terrain_move(3, 3, \"normal\")", {6}, {{"success", "true"}, {"mv", "3"}}},
  {"T13_normal_fail", "dozen_die.terrain_move(3, 3, \"normal\")", {7}, {{"success", "false"}, {"mv", "2"}}},
  // T14-T16: hard, MV 3, DX 4.
  {"T14", "dozen_die.terrain_move(3, 4, \"hard\")", {4}, {{"success", "true"}, {"mv", "3"}}},
  {"T15", "dozen_die.terrain_move(3, 4, \"hard\")", {2}, {{"success", "true"}, {"mv", "2"}}},
  {"T16", "dozen_die.terrain_move(3, 4, \"hard\")", {5}, {{"success", "false"}, {"mv", "1"}, {"outcome", "failure"}}},
  // T17, T18: very hard, MV 3, DX 4 (target 3).
  {"T17", "dozen_die.terrain_move(3, 4, \"very_hard\")", {2}, {{"target", "3"}, {"success", "true"}, {"mv", "2"}}},
  {"T18", "dozen_die.terrain_move(3, 4, \"very_hard\")", {4}, {{"success", "false"}, {"mv", "0"}}},
  // T19: a thief, DX 5, CO 3, falls 4 squares: 2, 4, 5, 8 against 5 → 1 HP.
  {"T19", "dozen_die.fall_damage(4, 5, 3)", {2, 4, 5, 8}, {{"threshold", "5"}, {"hp_lost", "1"},
                                                        {"dice", "[2, 4, 5, 8]"}}},
  // T20: DX 4 on an inn wall (hard, target 4) rolls 9 > 8: a fall, from where the move began.
  {"T20", "dozen_die.climb(3, 4, \"hard\")", {9}, {{"success", "false"}, {"falls", "true"}, {"outcome", "fall"}}},
  {"T20_from_height", "dozen_die.climb(3, 4, \"hard\", height: 3, CO: 3)", {9, 2, 5, 8},
      {{"falls", "true"}, {"fall_dice", "[2, 5, 8]"}, {"hp_lost", "2"}, {"mv", "0"}}},
  // T21: 5, 6, 7 or 8 fail without a fall.
  {"T21_5", "dozen_die.climb(3, 4, \"hard\", height: 3)", {5}, {{"success", "false"}, {"falls", "false"}, {"mv", "1"}}},
  {"T21_6", "dozen_die.climb(3, 4, \"hard\", height: 3)", {6}, {{"success", "false"}, {"falls", "false"}}},
  {"T21_7", "dozen_die.climb(3, 4, \"hard\", height: 3)", {7}, {{"success", "false"}, {"falls", "false"}}},
  {"T21_8", "dozen_die.climb(3, 4, \"hard\", height: 3)", {8}, {{"success", "false"}, {"falls", "false"}}},
  // T22: DX 3 on a rocky slope (easy, target 9) rolls 12: fails, but 12 is not above 18.
  {"T22", "dozen_die.climb(3, 3, \"easy\", height: 3)", {12}, {{"target", "9"}, {"success", "false"},
                                                            {"falls", "false"}, {"outcome", "failure"}}},
  // T23: MV 3 jumps 2 squares with no roll.
  {"T23", "dozen_die.jump(3, 4, 2)", {}, {{"free_distance", "2"}, {"outcome", "free"}, {"success", "true"}}},
  // T24: 3 squares with MV 3, DX 4: d12 ≤ 7; 8 or more falls, with damage over a drop of 2 or more.
  {"T24_7", "dozen_die.jump(3, 4, 3)", {7}, {{"target", "7"}, {"success", "true"}, {"falls", "false"}}},
  {"T24_8", "dozen_die.jump(3, 4, 3)", {8}, {{"success", "false"}, {"falls", "true"}, {"fall_dice", "[]"}}},
  {"T24_8_drop1", "dozen_die.jump(3, 4, 3, depth: 1)", {8}, {{"falls", "true"}, {"hp_lost", "0"}, {"fall_dice", "[]"}}},
  {"T24_8_drop2", "dozen_die.jump(3, 4, 3, depth: 2, CO: 3)", {8, 5, 2},
      {{"falls", "true"}, {"fall_dice", "[5, 2]"}, {"hp_lost", "1"}, {"outcome", "fall"}}},
  // T25: the templar, turn undead level 3, CH 4: the activation die and 2 from the reserve.
  {"T25", "dozen_die.conflict(3, 4, \"hard\", available: 3)", {1, 4, 7},
      {{"target", "4"}, {"successes", "2"}, {"success", "true"}, {"dice", "[1, 4, 7]"}}},
  // T26: CO 3 + endurance 2 is 5 HP; at 2 HP the character is injured.
  {"T26_max", "dozen_die.max_hp(3, 2)", {}, {{"", "5"}}},
  {"T26", "dozen_die.condition(2, 5)", {}, {{"", "injured"}}},
  // T27: a dwarf, CO 4, no endurance: 4 HP; injured only at 1.
  {"T27_max", "dozen_die.max_hp(4)", {}, {{"", "4"}}},
  {"T27_2", "dozen_die.condition(2, 4)", {}, {{"", "ok"}}},
  {"T27_1", "dozen_die.condition(1, 4)", {}, {{"", "injured"}}},
  // T28: MV 3 moves up to 3 squares a move order (open ground: no roll).
  {"T28", "dozen_die.terrain_move(3, 1, \"very_easy\")", {}, {{"mv", "3"}, {"outcome", "no_roll"}, {"roll", "none"}}},

  // ---- 3.2 melee -----------------------------------------------------------------------------
  {"M1", melee(2, 7, 1, 6), {5, 8, 3}, {{"attacker_successes", "[5]"}, {"defender_successes", "[3]"},
      {"hits_on_defender", "1"}, {"hits_on_attacker", "0"}, {"to_reserve_defender", "[3]"},
      {"to_reserve_attacker", "[8]"}}},
  {"M2", melee(2, 5, 1, 5), {2, 2, 2}, {{"hits_on_defender", "2"}, {"hits_on_attacker", "0"},
      {"to_reserve_defender", "[2]"}, {"spent_attacker", "[2, 2]"}}},
  {"M3", melee(2, 7, 1, 6), {9, 10, 11}, {{"hits_on_defender", "0"}, {"hits_on_attacker", "0"},
      {"winner", "attacker"}, {"pushed", "defender"}, {"to_reserve_attacker", "[9, 10]"}}},
  {"M3_no_push", melee(2, 7, 1, 6, ", no_hit_push: \"none\""), {9, 10, 11},
      {{"winner", "nobody"}, {"pushed", "nobody"}}},
  {"M4", melee(3, 7, 2, 7), {7, 7, 1, 6, 7}, {{"hits_on_defender", "2"}, {"hits_on_attacker", "0"},
      {"to_reserve_attacker", "[1]"}, {"to_reserve_defender", "[6, 7]"}, {"spent_attacker", "[7, 7]"}}},
  {"M5", melee(1, 14, 1, 11), {12, 11}, {{"attacker_successes", "[]"}, {"hits_on_attacker", "1"},
      {"hits_on_defender", "0"}, {"winner", "defender"}, {"pushed", "attacker"}}},
  {"M5_12_counts", melee(1, 14, 1, 11, ", natural_12_fails: false"), {12, 11},
      {{"attacker_successes", "[12]"}, {"hits_on_defender", "1"}, {"hits_on_attacker", "0"}}},
  {"M6", melee(2, 6, 2, 6), {6, 3, 6, 2}, {{"hits_on_defender", "1"}, {"hits_on_attacker", "0"},
      {"to_reserve_attacker", "[3]"}, {"to_reserve_defender", "[6, 2]"}}},
  {"M7", melee(2, 7, 2, 8), {4, 2, 6, 9}, {{"defender_successes", "[6]"}, {"hits_on_attacker", "1"},
      {"hits_on_defender", "0"}, {"to_reserve_attacker", "[4, 2]"}, {"to_reserve_defender", "[9]"}}},
  {"M8", melee(2, 7, 1, 7), {4, 5, 3}, {{"hits_on_defender", "2"}, {"hits_on_attacker", "0"}}},
  {"M9", melee(1, 7, 2, 7), {3, 4, 5}, {{"hits_on_attacker", "2"}, {"hits_on_defender", "0"}}},
  // M10: level 3 with 1 die available rolls 1d12 (dice = min(level, available)).
  {"M10", "dozen_die.pool_size(3, 1)", {}, {{"", "1"}}},
  {"M10_roll", melee(1, 7, 1, 7), {4, 3}, {{"attacker_dice", "[4]"}, {"hits_on_defender", "1"}}},
  // M11: level 0 or an empty reserve: no dice, no successes.
  {"M11_level", "dozen_die.pool_size(0, 4)", {}, {{"", "0"}}},
  {"M11_reserve", "dozen_die.pool_size(3, 0)", {}, {{"", "0"}}},
  {"M11_roll", melee(0, 7, 0, 7), {}, {{"attacker_successes", "[]"}, {"defender_successes", "[]"},
      {"hits_on_defender", "0"}, {"hits_on_attacker", "0"}, {"winner", "attacker"}}},
  // The parameters: the defender winning ties (A2), hitting dice back to the reserve (A14).
  {"M2_defender_ties", melee(2, 5, 1, 5, ", tie_winner: \"defender\""), {2, 2, 2},
      {{"hits_on_defender", "0"}, {"hits_on_attacker", "1"}, {"winner", "defender"}}},
  {"T3_to_reserve", melee(2, 7, 1, 7, ", spent_dice_go_to: \"reserve\""), {5, 1, 5},
      {{"hits_on_defender", "1"}, {"to_reserve_attacker", "[5, 1]"}, {"spent_attacker", "[]"}}},

  // ---- 3.2 saves, falls, terrain, jumps and hit points ---------------------------------------
  {"S1", "dozen_die.armour_save(2, 3, 1)", {3, 9}, {{"hp_lost", "1"}, {"saved", "1"}}},
  {"S2", "dozen_die.fall_damage(1, 3, 4)", {}, {{"dice", "[]"}, {"hp_lost", "0"}}},
  {"S3", "dozen_die.fall_damage(2, 3, 4)", {4, 5}, {{"threshold", "4"}, {"hp_lost", "1"}}},
  // S4: DX 1 very hard is target 0: every roll fails and falls (all twelve: SpecS4 below).
  {"S4", "dozen_die.climb(3, 1, \"very_hard\")", {1}, {{"target", "0"}, {"success", "false"}, {"falls", "true"}}},
  {"G1", "dozen_die.terrain_move(5, 3, \"easy\")", {10}, {{"success", "false"}, {"mv", "3"}}},
  {"G2", "dozen_die.terrain_move(4, 3, \"easy\")", {10}, {{"success", "false"}, {"mv", "2"}}},
  {"G3", "dozen_die.terrain_move(1, 3, \"easy\")", {10}, {{"success", "false"}, {"mv", "1"}}},
  {"G4", "dozen_die.terrain_move(3, 6, \"easy\")", {12}, {{"target", "12"}, {"success", "false"}, {"mv", "2"}}},
  {"G4_12_counts", "dozen_die.terrain_move(3, 6, \"easy\", natural_12_fails: false)", {12},
      {{"success", "true"}, {"mv", "3"}}},
  {"G5", "dozen_die.terrain_move(3, 4, \"very_hard\")", {3}, {{"success", "true"}, {"mv", "3"}}},
  {"G6", "dozen_die.terrain_move(3, 4, \"hard\")", {1}, {{"success", "true"}, {"mv", "1"}}},
  // G7, G8 are about a path on the board: one square of open ground to the edge of hard
  // terrain, then the check. The ruleset cannot see the board; it takes the hardest grade of
  // the path (path_grade, A11) and the squares already moved (`moved`, R11), and gives the
  // effective MV and what is left of it, which is what the spec's numbers say.
  {"G7_grade", "dozen_die.path_grade([\"very_easy\", \"hard\"])", {}, {{"", "hard"}}},
  {"G7", "dozen_die.terrain_move(3, 4, \"hard\", moved: 1)", {2}, {{"success", "true"}, {"mv", "2"}, {"left", "1"}}},
  {"G8", "dozen_die.terrain_move(3, 4, \"hard\", moved: 1)", {5}, {{"success", "false"}, {"mv", "1"}, {"left", "0"}}},
  {"G9", "dozen_die.terrain_move(3, 4, \"impassable\")", {}, {{"mv", "0"}, {"outcome", "impassable"}}},
  {"G9_climb", "dozen_die.climb(3, 4, \"impassable\")", {}, {{"mv", "0"}, {"falls", "false"}, {"outcome", "impassable"}}},
  {"G9_grade", "dozen_die.path_grade([\"hard\", \"impassable\", \"easy\"])", {}, {{"", "impassable"}}},
  // J1: MV 4 jumps 2 squares with no roll, MV 5 three (half rounded up, A6).
  {"J1_4", "dozen_die.jump(4, 3, 2)", {}, {{"free_distance", "2"}, {"outcome", "free"}}},
  {"J1_4_longer", "dozen_die.jump(4, 3, 3)", {6}, {{"outcome", "success"}}},
  {"J1_5", "dozen_die.jump(5, 3, 3)", {}, {{"free_distance", "3"}, {"outcome", "free"}}},
  {"J2", "dozen_die.jump(3, 4, 4)", {}, {{"allowed", "false"}, {"outcome", "too_far"}, {"success", "false"}}},
  {"J3_7", "dozen_die.jump(3, 4, 3)", {7}, {{"success", "true"}, {"outcome", "success"}}},
  {"J3_8", "dozen_die.jump(3, 4, 3)", {8}, {{"success", "false"}, {"falls", "true"}, {"outcome", "fall"}}},
  {"H1", "dozen_die.condition(3, 5)", {}, {{"", "ok"}}},
  {"H2", "dozen_die.condition(2, 4)", {}, {{"", "ok"}}},
  {"H3", "dozen_die.condition(0, 4)", {}, {{"", "casualty"}}},
  {"H3_below", "dozen_die.condition(-2, 5)", {}, {{"", "casualty"}}},
  // K1: ability 4 against each grade.
  {"K1_very_easy", "dozen_die.target(4, \"very_easy\")", {}, {{"auto", "true"}, {"target", "none"}}},
  {"K1_easy", "dozen_die.target(4, \"easy\")", {}, {{"auto", "false"}, {"target", "10"}}},
  {"K1_normal", "dozen_die.target(4, \"normal\")", {}, {{"target", "7"}}},
  {"K1_hard", "dozen_die.target(4, \"hard\")", {}, {{"target", "4"}}},
  {"K1_very_hard", "dozen_die.target(4, \"very_hard\")", {}, {{"target", "3"}}},
  {"K1_mods", "[dozen_die.difficulty_mod(\"very_easy\"), dozen_die.difficulty_mod(\"easy\"), "
              "dozen_die.difficulty_mod(\"normal\"), dozen_die.difficulty_mod(\"hard\"), "
              "dozen_die.difficulty_mod(\"very_hard\")]", {}, {{"", "[none, 6, 3, 0, -1]"}}},
  // A very easy conflict rolls nothing, succeeds, and counts its dice as successes (A19).
  {"K1_conflict", "dozen_die.conflict(2, 4, \"very_easy\")", {}, {{"auto", "true"}, {"success", "true"},
                                                               {"successes", "2"}, {"dice", "[]"}}},
  {"K2_7", "dozen_die.march_eligible(7)", {}, {{"", "true"}}},
  {"K2_6", "dozen_die.march_eligible(6)", {}, {{"", "false"}}},
  {"K2_alone", "dozen_die.march_eligible(none)", {}, {{"", "true"}}},
  {"K3_overloaded", "dozen_die.march_eligible(10, overloaded: true)", {}, {{"", "false"}}},
  {"K3_carrying", "dozen_die.march_eligible(10, carrying: true)", {}, {{"", "false"}}},
  {"K3_yellow", "dozen_die.march_eligible(10, special_action: true)", {}, {{"", "false"}}},
  {"K4", "dozen_die.reaction_allowed(\"twice\", used_this_round: 2)", {}, {{"allowed", "false"},
                                                                         {"reason", "round_limit"}}},
  {"K4_second", "dozen_die.reaction_allowed(\"twice\", used_this_round: 1)", {}, {{"allowed", "true"}}},
  {"K4_once", "dozen_die.reaction_allowed(\"once\", used_this_round: 1)", {}, {{"allowed", "false"}}},
  {"K5", "dozen_die.reaction_allowed(\"always\", used_this_round: 5, used_this_order: 1)", {},
      {{"allowed", "false"}, {"reason", "order_limit"}}},
  {"K5_first", "dozen_die.reaction_allowed(\"always\", used_this_round: 5)", {}, {{"allowed", "true"}}},
  {"R33_charge", "dozen_die.reaction_allowed(\"twice\", order: \"charge\")", {}, {{"reason", "not_against_charge"}}},
  {"R35_charge", "dozen_die.reaction_allowed(\"charge\", order: \"charge\")", {}, {{"allowed", "true"}}},
  {"R35_started", "dozen_die.reaction_allowed(\"charge\", order: \"charge\", melee_started: true)", {},
      {{"reason", "melee_started"}}},
  {"R31_own", "dozen_die.reaction_allowed(\"always\", own_activation: true)", {}, {{"reason", "own_activation"}}},
  {"R39_green", "dozen_die.activation_die(\"green\", \"injured\")", {}, {{"may_activate", "false"}}},
  {"R39_tough", "dozen_die.activation_die(\"green\", \"injured\", toughness: true)", {}, {{"may_activate", "true"}}},
  {"R5_yellow", "dozen_die.activation_die(\"yellow\", special_action: true)", {},
      {{"may_activate", "true"}, {"may_march", "false"}}},
  // A20: an opposed conflict; the active side wins ties.
  {"A20", "dozen_die.opposed_conflict({pool: 2, target: 5}, {pool: 1, target: 5})", {5, 1, 5},
      {{"successes", "1"}, {"opponent_successes", "0"}, {"success", "true"}, {"winner", "active"}}},
  {"A20_resisted", "dozen_die.opposed_conflict({pool: 1, target: 7}, {pool: 2, target: 7})", {3, 4, 5},
      {{"successes", "0"}, {"opponent_successes", "2"}, {"success", "false"}, {"winner", "opponent"}}},
  {"A20_nobody", "dozen_die.opposed_conflict({pool: 1, target: 3}, {pool: 1, target: 3})", {9, 12},
      {{"successes", "0"}, {"success", "false"}, {"winner", "nobody"}}},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(DozenDie, DozenDieVector, ::testing::ValuesIn(vectors),
                         [](const auto& param_info) { return param_info.param.id; });

// Every vector family of the spec is in the table.
TEST(DozenDieVectors, CoverEveryVectorOfTheSpec) {
  std::vector<std::string> want;
  for (int i = 1; i <= 28; ++i) want.push_back(fmt::format("T{}", i));
  for (int i = 1; i <= 11; ++i) want.push_back(fmt::format("M{}", i));
  for (int i = 1; i <= 4; ++i) want.push_back(fmt::format("S{}", i));
  for (int i = 1; i <= 9; ++i) want.push_back(fmt::format("G{}", i));
  for (int i = 1; i <= 3; ++i) want.push_back(fmt::format("J{}", i));
  for (int i = 1; i <= 3; ++i) want.push_back(fmt::format("H{}", i));
  for (int i = 1; i <= 5; ++i) want.push_back(fmt::format("K{}", i));
  for (const auto& id : want) {
    const bool found = std::any_of(vectors.begin(), vectors.end(), [&](const Vector& v) {
      return v.id == id || v.id.starts_with(id + "_");
    });
    EXPECT_TRUE(found) << id;
  }
}

// S4: a target of 0 (DX 1, very hard) fails and falls on every roll (A9).
TEST(DozenDieClimb, TargetZeroFallsOnEveryRoll) {
  for (std::int64_t roll = 1; roll <= 12; ++roll) {
    ScriptedDice dice({roll});
    const Outcome o = engine().roll("dozen_die.climb(3, 1, \"very_hard\")", dice);
    ASSERT_TRUE(o.ok()) << render_text(*o.error);
    EXPECT_EQ(to_display(*o.value->field("falls")), "true") << roll;
    EXPECT_EQ(to_display(*o.value->field("success")), "false") << roll;
  }
}

// A9 over the whole range: a climb falls exactly when the roll is above twice the target.
TEST(DozenDieClimb, FallsExactlyAboveTwiceTheTarget) {
  const char* grades[] = {"easy", "normal", "hard", "very_hard"};
  const int mods[] = {6, 3, 0, -1};
  for (int g = 0; g < 4; ++g) {
    for (int dx = 0; dx <= 7; ++dx) {
      for (std::int64_t roll = 1; roll <= 12; ++roll) {
        ScriptedDice dice({roll});
        const Outcome o =
            engine().roll(fmt::format("dozen_die.climb(3, {}, \"{}\")", dx, grades[g]), dice);
        ASSERT_TRUE(o.ok()) << render_text(*o.error);
        const int target = dx + mods[g];
        const bool success = roll <= target && roll != 12;
        EXPECT_EQ(to_display(*o.value->field("falls")), roll > 2 * target ? "true" : "false")
            << grades[g] << " DX " << dx << " roll " << roll;
        EXPECT_EQ(to_display(*o.value->field("success")), success ? "true" : "false")
            << grades[g] << " DX " << dx << " roll " << roll;
      }
    }
  }
}

TEST(DozenDieArguments, AreCheckedAgainstTheirDeclaredRanges) {
  ScriptedDice dice({1, 2, 3});
  Outcome o = engine().roll("dozen_die.terrain_move(3, 4, \"swamp\")", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::ArgumentOutOfRange);
  o = engine().roll("dozen_die.conflict(-1, 4, \"hard\")", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->message, "the argument 'level' must be at least 0, got -1");
  o = engine().roll("dozen_die.check(5, tie_winner: \"nobody\")", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::ArgumentOutOfRange);
  o = engine().roll("dozen_die.fall_damage(3, 4)", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::MissingArgument);
}

// ---- the melee sweep ------------------------------------------------------------------------

struct MeleeResult {
  std::int64_t hod = 0, hoa = 0;  // hits on the defender, on the attacker
  std::string winner;
  std::vector<std::int64_t> a_succ, d_succ, a_back, d_back, a_spent, d_spent;
};

std::vector<std::int64_t> ints(const Value& v, std::string_view name) {
  std::vector<std::int64_t> out;
  for (const auto& i : *v.field(name)->as_list()) out.push_back(*i.as_int());
  return out;
}

// One melee, compiled once per set of sides, run on scripted dice.
class MeleeRunner {
 public:
  explicit MeleeRunner(const std::string& call) : prog_(engine().compile(call)) {
    if (!prog_.ok()) throw std::runtime_error(render_text(prog_.diagnostics));
  }
  MeleeResult run(std::vector<std::int64_t> faces) const {
    const std::size_t n = faces.size();
    ScriptedDice dice(std::move(faces));
    const Outcome o = engine().run(prog_.program, {}, dice);
    if (!o.ok()) throw std::runtime_error(render_text(*o.error));
    if (dice.used() != n) throw std::runtime_error("not every scripted die was rolled");
    const Value& v = *o.value;
    return {*v.field("hits_on_defender")->as_int(),
            *v.field("hits_on_attacker")->as_int(),
            *v.field("winner")->as_str(),
            ints(v, "attacker_successes"),
            ints(v, "defender_successes"),
            ints(v, "to_reserve_attacker"),
            ints(v, "to_reserve_defender"),
            ints(v, "spent_attacker"),
            ints(v, "spent_defender")};
  }

 private:
  Compiled prog_;
};

// Every roll of n d12, in the order a counter would list them.
const std::vector<std::int64_t> every_face{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

std::vector<std::vector<std::int64_t>> all_rolls(int n, const std::vector<std::int64_t>& faces = every_face) {
  std::vector<std::vector<std::int64_t>> out{{}};
  for (int i = 0; i < n; ++i) {
    std::vector<std::vector<std::int64_t>> next;
    for (const auto& r : out) {
      for (const std::int64_t f : faces) {
        auto s = r;
        s.push_back(f);
        next.push_back(std::move(s));
      }
    }
    out = std::move(next);
  }
  return out;
}

std::vector<std::int64_t> concat(std::vector<std::int64_t> a, const std::vector<std::int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string mirrored(const std::string& w) {
  return w == "attacker" ? "defender" : w == "defender" ? "attacker" : w;
}

std::int64_t highest(const std::vector<std::int64_t>& xs) {
  return xs.empty() ? 0 : *std::max_element(xs.begin(), xs.end());
}

// Swapping attacker and defender changes who wins ties and nothing else; and
// never do both sides hit (A3). Two characters X and Y with skills sx and sy
// and 1 or 2 dice each, over every roll of their dice: X attacking Y (X's dice
// first) against Y attacking X (Y's dice first). A tie is a success of one
// side equal to the other side's highest success. Without one, the results
// are the same with the roles mirrored. With one, the attacker's tying dice
// hit and the defender's are cancelled, whoever attacks; and when both highest
// successes are equal (both 0 included) the attacker wins and takes no hit
// (A4). With tie_winner=defender on the swapped melee, the hits and the dice
// are always mirrored, and so is the winner whenever someone scores a hit.
struct Sweep {
  int sx, sy, nx, ny;  // the skills and dice of X and Y
};

class DozenDieSwap : public ::testing::TestWithParam<Sweep> {};

TEST_P(DozenDieSwap, ChangesOnlyWhoWinsTies) {
  const auto [sx, sy, nx, ny] = GetParam();
  long cases = 0;
  const MeleeRunner xy(melee(nx, sx, ny, sy));
  const MeleeRunner yx(melee(ny, sy, nx, sx));
  const MeleeRunner yx_def(melee(ny, sy, nx, sx, ", tie_winner: \"defender\""));
  // Every face when a side has one die; with two dice a side, the faces at and
  // around every skill of the sweeps and the natural 12, which still make every
  // tie and every boundary (12^4 rolls three ways is too slow under sanitizers).
  const std::vector<std::int64_t> faces =
      nx == 2 && ny == 2 ? std::vector<std::int64_t>{1, 2, 6, 7, 8, 10, 11, 12} : every_face;
  for (const auto& x : all_rolls(nx, faces)) {
    for (const auto& y : all_rolls(ny, faces)) {
      const MeleeResult a = xy.run(concat(x, y));
      const MeleeResult b = yx.run(concat(y, x));
      const MeleeResult c = yx_def.run(concat(y, x));
      const std::string at =
          fmt::format("X {} @{} vs Y {} @{}", fmt::join(x, ","), sx, fmt::join(y, ","), sy);
      ++cases;
      // A3: at most one side hits.
      ASSERT_EQ(std::min(a.hod, a.hoa), 0) << at;
      ASSERT_EQ(std::min(b.hod, b.hoa), 0) << at;
      ASSERT_EQ(std::min(c.hod, c.hoa), 0) << at;
      // The successes do not depend on the roles.
      ASSERT_EQ(a.a_succ, b.d_succ) << at;
      ASSERT_EQ(a.d_succ, b.a_succ) << at;
      // With the tie going to the same character, everything is mirrored.
      ASSERT_EQ(a.hod, c.hoa) << at;
      ASSERT_EQ(a.hoa, c.hod) << at;
      ASSERT_EQ(a.a_back, c.d_back) << at;
      ASSERT_EQ(a.d_back, c.a_back) << at;
      ASSERT_EQ(a.a_spent, c.d_spent) << at;
      ASSERT_EQ(a.d_spent, c.a_spent) << at;
      if (a.hod + a.hoa > 0) {
        ASSERT_EQ(a.winner, mirrored(c.winner)) << at;
      }
      // A tie: a success of one side equal to the other side's highest success.
      const std::int64_t mx = highest(a.a_succ), my = highest(a.d_succ);
      const auto ties_x = my == 0 ? 0 : std::count(a.a_succ.begin(), a.a_succ.end(), my);
      const auto ties_y = mx == 0 ? 0 : std::count(a.d_succ.begin(), a.d_succ.end(), mx);
      if (ties_x == 0 && ties_y == 0 && mx != my) {
        // No tie: the same result, the roles mirrored.
        ASSERT_EQ(a.hod, b.hoa) << at;
        ASSERT_EQ(a.hoa, b.hod) << at;
        ASSERT_EQ(a.winner, mirrored(b.winner)) << at;
        ASSERT_EQ(a.a_back, b.d_back) << at;
        ASSERT_EQ(a.d_back, b.a_back) << at;
        ASSERT_EQ(a.a_spent, b.d_spent) << at;
        ASSERT_EQ(a.d_spent, b.a_spent) << at;
      } else {
        // A tie goes to the attacker, whoever it is: its tying dice hit, the
        // defender's tying dice are cancelled.
        ASSERT_EQ(std::count(a.a_spent.begin(), a.a_spent.end(), my), ties_x) << at;
        ASSERT_EQ(std::count(a.d_spent.begin(), a.d_spent.end(), mx), 0) << at;
        ASSERT_EQ(std::count(b.a_spent.begin(), b.a_spent.end(), mx), ties_y) << at;
        ASSERT_EQ(std::count(b.d_spent.begin(), b.d_spent.end(), my), 0) << at;
        if (mx == my) {
          // The same highest success, or none at all: the attacker wins (A4) and takes no hit.
          ASSERT_EQ(a.hoa, 0) << at;
          ASSERT_EQ(b.hoa, 0) << at;
          ASSERT_EQ(a.winner, "attacker") << at;
          ASSERT_EQ(b.winner, "attacker") << at;
        }
      }
    }
  }
  long rolls = 1;
  for (int i = 0; i < nx + ny; ++i) rolls *= static_cast<long>(faces.size());
  EXPECT_EQ(cases, rolls);
}

// Each set of skills and dice is a test of its own, so that none runs long. Skills
// of 12 and more let a natural 12 fail under its target (A8); 2 against 2 is 20736 rolls.
std::vector<Sweep> sweeps() {
  std::vector<Sweep> out;
  for (const auto& [sx, sy] : std::vector<std::pair<int, int>>{{7, 7}, {5, 9}, {12, 3}, {14, 11}}) {
    for (int nx = 1; nx <= 2; ++nx) {
      for (int ny = 1; ny <= 2; ++ny) {
        if (nx == 2 && ny == 2 && sx != 7 && sx != 14) continue;
        out.push_back({sx, sy, nx, ny});
      }
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(DozenDie, DozenDieSwap, ::testing::ValuesIn(sweeps()),
                         [](const auto& param_info) {
                           const Sweep& w = param_info.param;
                           return fmt::format("X{}d12at{}_Y{}d12at{}", w.nx, w.sx, w.ny, w.sy);
                         });

// ---- exact distributions (section 3.3) ----------------------------------------------------------
//
// X1-X3 by enumerating every roll of the 12^n scripted outcomes: the counts of
// each (hits on the defender, hits on the attacker) are compared exactly with
// the spec's fractions times 12^n, so there is no sampling and no tolerance.

struct MeleeDistribution {
  std::string id;
  int an, as, dn, ds;
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<std::int64_t, std::int64_t>>
      p;  // outcome → fraction
};

// Named by its id in test output (and in CTest's test names).
void PrintTo(const MeleeDistribution& c, std::ostream* os) { *os << c.id; }

// num/den in lowest terms, as Probability::exact writes it.
std::string mpq_string(std::int64_t num, std::int64_t den) {
  const std::int64_t g = std::gcd(num, den);
  return fmt::format("{}/{}", num / g, den / g);
}

class DozenDieDistributionX : public ::testing::TestWithParam<MeleeDistribution> {};

TEST_P(DozenDieDistributionX, HoldsExactly) {
  const MeleeDistribution& c = GetParam();
  const MeleeRunner run(melee(c.an, c.as, c.dn, c.ds));
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> counts;
  std::int64_t total = 0;
  for (const auto& faces : all_rolls(c.an + c.dn)) {
    const MeleeResult r = run.run(faces);
    ++counts[{r.hod, r.hoa}];
    ++total;
    ASSERT_EQ(std::min(r.hod, r.hoa), 0);  // A3
  }
  std::int64_t want_total = 0;
  for (const auto& [outcome, fraction] : c.p) {
    const auto [num, den] = fraction;
    ASSERT_EQ(total % den, 0);
    EXPECT_EQ(counts[outcome], total / den * num)
        << c.id << " (" << outcome.first << "," << outcome.second << "): " << counts[outcome] << "/"
        << total << ", expected " << num << "/" << den;
    want_total += total / den * num;
  }
  EXPECT_EQ(want_total, total) << c.id << ": the spec's fractions do not add up to 1";
  EXPECT_EQ(counts.size(), c.p.size()) << c.id << ": an outcome the spec does not list";
}

// The same tables from compute_stats, the engine behind `alea stats`: at most
// one side hits (A3), so the hits on each side give the joint outcome.
TEST_P(DozenDieDistributionX, ComeOutOfTheStatisticsEngineExactly) {
  const MeleeDistribution& c = GetParam();
  const Compiled prog = engine().compile(fmt::format("dozen_die.melee({{pool: {}, ST: {}}}, {{pool: {}, ST: {}}})",
                                                     c.an, c.as, c.dn, c.ds));
  ASSERT_TRUE(prog.ok()) << render_text(prog.diagnostics);
  const Stats s = compute_stats(engine(), prog.program, {}, {});
  ASSERT_EQ(s.method, StatsMethod::Exact) << s.reason;
  EXPECT_EQ(s.unresolved.exact(), "0/1");
  auto p = [&](std::string_view field, std::int64_t hits) {
    for (const auto& d : s.fields) {
      if (d.name != field) continue;
      for (const auto& e : d.entries) {
        if (e.value == Value(hits)) return e.probability.exact();
      }
      return std::string("0/1");
    }
    return std::string("no field");
  };
  for (const auto& [outcome, fraction] : c.p) {
    const auto [num, den] = fraction;
    const std::string want = mpq_string(num, den);
    if (outcome.first > 0) {
      EXPECT_EQ(p("hits_on_defender", outcome.first), want) << c.id;
    }
    if (outcome.second > 0) {
      EXPECT_EQ(p("hits_on_attacker", outcome.second), want) << c.id;
    }
  }
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(DozenDie, DozenDieDistributionX, ::testing::Values(
  MeleeDistribution{"X1", 1, 6, 1, 6, {{{0, 0}, {1, 4}}, {{1, 0}, {19, 48}}, {{0, 1}, {17, 48}}}},
  MeleeDistribution{"X2", 2, 7, 1, 7, {{{0, 0}, {125, 1728}}, {{1, 0}, {371, 864}}, {{2, 0}, {385, 1728}},
                                  {{0, 1}, {119, 432}}}},
  MeleeDistribution{"X3", 2, 7, 2, 5, {{{0, 0}, {1225, 20736}}, {{1, 0}, {2405, 5184}}, {{2, 0}, {2383, 10368}},
                                  {{0, 1}, {2065, 10368}}, {{0, 2}, {995, 20736}}}}),
  [](const auto& param_info) { return param_info.param.id; });
// clang-format on

// X4: a single check against target T succeeds with probability clamp(T, 0, 11)/12:
// of the twelve faces, exactly clamp(T, 0, 11) succeed.
TEST(DozenDieDistribution, X4SingleCheck) {
  const Compiled prog = engine().compile("dozen_die.check(t).success");
  ASSERT_TRUE(prog.ok()) << render_text(prog.diagnostics);
  for (std::int64_t t = -2; t <= 14; ++t) {
    int successes = 0;
    for (std::int64_t face = 1; face <= 12; ++face) {
      ScriptedDice dice({face});
      const Outcome o = engine().run(prog.program, {{"t", Value(t)}}, dice);
      ASSERT_TRUE(o.ok()) << render_text(*o.error);
      successes += *o.value->as_bool() ? 1 : 0;
    }
    EXPECT_EQ(successes, std::clamp<std::int64_t>(t, 0, 11)) << "target " << t;
  }
}

// X5: the HP lost to n save dice against target T is Binomial(n, 1 - clamp(T, 0, 11)/12):
// over the 12^n rolls, k HP are lost on exactly C(n, k) f^k s^(n-k) of them, with
// s = clamp(T, 0, 11) saving faces and f = 12 - s failing ones.
TEST(DozenDieDistribution, X5ArmourSave) {
  const Compiled prog = engine().compile("dozen_die.armour_save(n, dx, bonus).hp_lost");
  ASSERT_TRUE(prog.ok()) << render_text(prog.diagnostics);
  const auto choose = [](int n, int k) {
    std::int64_t c = 1;
    for (int i = 0; i < k; ++i) c = c * (n - i) / (i + 1);
    return c;
  };
  const auto power = [](std::int64_t b, int e) {
    std::int64_t p = 1;
    while (e-- > 0) p *= b;
    return p;
  };
  for (int n = 0; n <= 3; ++n) {
    for (const auto& [dx, bonus] : std::vector<std::pair<int, int>>{
             {0, 0}, {1, 0}, {3, 1}, {4, 0}, {11, 0}, {10, 2}, {12, 3}}) {
      const std::int64_t s = std::clamp(dx + bonus, 0, 11), f = 12 - s;
      std::vector<std::int64_t> counts(static_cast<std::size_t>(n) + 1, 0);
      for (const auto& faces : all_rolls(n)) {
        ScriptedDice dice(faces);
        const Outcome o = engine().run(prog.program,
                                       {{"n", Value(std::int64_t{n})},
                                        {"dx", Value(std::int64_t{dx})},
                                        {"bonus", Value(std::int64_t{bonus})}},
                                       dice);
        ASSERT_TRUE(o.ok()) << render_text(*o.error);
        ++counts.at(static_cast<std::size_t>(*o.value->as_int()));
      }
      for (int k = 0; k <= n; ++k) {
        EXPECT_EQ(counts[static_cast<std::size_t>(k)], choose(n, k) * power(f, k) * power(s, n - k))
            << n << " dice against " << dx + bonus << ", " << k << " HP lost";
      }
    }
  }
}

}  // namespace
}  // namespace alea
