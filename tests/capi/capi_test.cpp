// The C API (include/alea/alea.h) as a C host uses it: statuses and errors instead of exceptions,
// values read through accessors, odds as fractions, state as JSON, limits, cancellation, and one
// engine shared by threads.
#include "alea/alea.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "interpreter/api.hpp"

namespace capi_test {

// Owns what a test creates; frees it at the end whatever happened.
struct Handles {
  alea_engine* engine = nullptr;
  alea_run_options* options = alea_run_options_new();
  alea_error* error = nullptr;
  alea_result* result = nullptr;
  ~Handles() {
    alea_result_free(result);
    alea_error_free(error);
    alea_run_options_free(options);
    alea_engine_free(engine);
  }
  // The error's code, taken and cleared, for the next call.
  std::string take_error() {
    std::string code = alea_error_code(error);
    alea_error_free(error);
    error = nullptr;
    return code;
  }
};

Handles started() {
  Handles h;
  EXPECT_EQ(alea_engine_new(nullptr, &h.engine, &h.error), ALEA_OK);
  return h;
}

const char* const rulesets_dir[] = {ALEA_SOURCE_DIR "/rulesets"};

TEST(CApi, SaysItsVersion) {
  EXPECT_EQ(std::string(alea_version()), std::string(alea::version()));
  EXPECT_EQ(std::string(alea_version()), std::to_string(ALEA_VERSION_MAJOR) + "." + std::to_string(ALEA_VERSION_MINOR) +
                                             "." + std::to_string(ALEA_VERSION_PATCH));
  EXPECT_EQ(alea_abi_version(), ALEA_ABI_VERSION);
}

TEST(CApi, RollsAsTheCppApiDoes) {
  Handles h = started();
  alea_run_options_set_seed(h.options, 42);
  ASSERT_EQ(alea_roll(h.engine, "4d6kh3", h.options, &h.result, &h.error), ALEA_OK);
  const alea::Outcome cpp = alea::Engine().roll("4d6kh3", 42);
  EXPECT_EQ(std::string(alea_result_text(h.result)), alea::render_breakdown(cpp));
  EXPECT_EQ(std::string(alea_result_json(h.result)), alea::render_json(cpp, "4d6kh3", 42));
  EXPECT_EQ(std::string(alea_result_json(h.result)).rfind(R"({"schema":"alea.roll/1",)", 0), 0u);
  int64_t total = 0;
  ASSERT_EQ(alea_value_kind(alea_result_value(h.result)), ALEA_KIND_POOL);
  ASSERT_EQ(alea_value_int(alea_result_value(h.result), &total), ALEA_OK);
  EXPECT_EQ(total, *alea::pool_total(*cpp.value->as_pool())) << "a pool reads as its total";
  ASSERT_EQ(alea_result_dice_count(h.result), 4u);
  int kept = 0;
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_STREQ(alea_result_die_kind(h.result, i), "d6");
    kept += std::string(alea_result_die_fate(h.result, i)) == "kept";
  }
  EXPECT_EQ(kept, 3);
  EXPECT_EQ(alea_result_die_fate(h.result, 4), nullptr) << "past the end";
}

TEST(CApi, ReadsListsRecordsStringsAndBooleans) {
  Handles h = started();
  ASSERT_EQ(alea_roll(h.engine, R"({name: "Ajax", hits: [3, 5], alive: true, spare: none})", h.options, &h.result,
                      &h.error),
            ALEA_OK)
      << alea_error_text(h.error);
  const alea_value* v = alea_result_value(h.result);
  ASSERT_EQ(alea_value_kind(v), ALEA_KIND_RECORD);
  ASSERT_EQ(alea_value_count(v), 4u);
  EXPECT_STREQ(alea_value_field_name(v, 1), "hits");
  size_t length = 0;
  EXPECT_STREQ(alea_value_string(alea_value_field(v, "name"), &length), "Ajax");
  EXPECT_EQ(length, 4u);
  const alea_value* hits = alea_value_field(v, "hits");
  ASSERT_EQ(alea_value_kind(hits), ALEA_KIND_LIST);
  int64_t second = 0;
  ASSERT_EQ(alea_value_int(alea_value_item(hits, 1), &second), ALEA_OK);
  EXPECT_EQ(second, 5);
  int alive = 0;
  ASSERT_EQ(alea_value_bool(alea_value_field(v, "alive"), &alive), ALEA_OK);
  EXPECT_EQ(alive, 1);
  EXPECT_EQ(alea_value_kind(alea_value_field(v, "spare")), ALEA_KIND_NONE);
  EXPECT_EQ(alea_value_field(v, "missing"), nullptr);
  EXPECT_EQ(alea_value_item(hits, 2), nullptr);
  // Reading a value as the wrong kind is a usage error, not a guess.
  int64_t n = 0;
  EXPECT_EQ(alea_value_int(alea_value_field(v, "name"), &n), ALEA_ERROR_USAGE);
  EXPECT_EQ(alea_value_string(hits, nullptr), nullptr);
  char* json = nullptr;
  ASSERT_EQ(alea_value_json(v, &json, &h.error), ALEA_OK);
  EXPECT_STREQ(json, R"({"name":"Ajax","hits":[3,5],"alive":true,"spare":null})");
  alea_string_free(json);
}

TEST(CApi, AnErrorCarriesItsCodePlaceAndText) {
  Handles h = started();
  ASSERT_EQ(alea_roll(h.engine, "3d6 + strength", h.options, &h.result, &h.error), ALEA_ERROR_INPUT);
  EXPECT_EQ(h.result, nullptr);
  EXPECT_EQ(alea_error_status(h.error), ALEA_ERROR_INPUT);
  EXPECT_STREQ(alea_error_code(h.error), "UnknownName");
  EXPECT_STREQ(alea_error_message(h.error), "unknown name 'strength'");
  EXPECT_STREQ(alea_error_file(h.error), "<input>");
  EXPECT_EQ(alea_error_line(h.error), 1);
  EXPECT_EQ(alea_error_column(h.error), 7);
  EXPECT_EQ(std::string(alea_error_text(h.error)),
            "<input>:1:7: error: unknown name 'strength' [UnknownName]\n 1 | 3d6 + strength\n   |       ^~~~~~~~\n");
  EXPECT_EQ(std::string(alea_error_json(h.error)),
            R"({"code":"UnknownName","message":"unknown name 'strength'","location":{"file":"<input>","line":1,"column":7},"notes":[],)"
            R"("rendered":"<input>:1:7: error: unknown name 'strength' [UnknownName]\n 1 | 3d6 + strength\n   |       ^~~~~~~~\n"})");
  // A NULL error pointer is allowed: the status alone says it failed.
  EXPECT_EQ(alea_roll(h.engine, "3d6 +", h.options, &h.result, nullptr), ALEA_ERROR_INPUT);
}

TEST(CApi, AWrongCallIsAUsageErrorNotACrash) {
  Handles h = started();
  EXPECT_EQ(alea_roll(nullptr, "1d6", nullptr, &h.result, &h.error), ALEA_ERROR_USAGE);
  EXPECT_STREQ(alea_error_code(h.error), "InvalidArgument");
  EXPECT_STREQ(alea_error_message(h.error), "engine is NULL");
  h.take_error();
  EXPECT_EQ(alea_roll(h.engine, nullptr, nullptr, &h.result, &h.error), ALEA_ERROR_USAGE);
  EXPECT_STREQ(alea_error_message(h.error), "source is NULL");
  h.take_error();
  EXPECT_EQ(alea_roll(h.engine, "1d6", nullptr, nullptr, &h.error), ALEA_ERROR_USAGE);
  h.take_error();
  // What a call cannot use is refused, not ignored.
  alea_run_options_set_threads(h.options, 4);
  EXPECT_EQ(alea_roll(h.engine, "1d6", h.options, &h.result, &h.error), ALEA_ERROR_USAGE);
  EXPECT_STREQ(alea_error_message(h.error), "a roll runs on one thread: set threads for alea_stats_run only");
  h.take_error();
  alea_run_options* both = alea_run_options_new();
  const int64_t one[] = {1};
  alea_run_options_set_seed(both, 1);
  ASSERT_EQ(alea_run_options_set_dice(both, one, 1, &h.error), ALEA_OK);
  EXPECT_EQ(alea_roll(h.engine, "1d6", both, &h.result, &h.error), ALEA_ERROR_USAGE);
  h.take_error();
  alea_program* p = nullptr;
  ASSERT_EQ(alea_compile(h.engine, "1d6", nullptr, &p, &h.error), ALEA_OK);
  alea_stats* s = nullptr;
  EXPECT_EQ(alea_stats_run(h.engine, p, both, &s, &h.error), ALEA_ERROR_USAGE);
  EXPECT_STREQ(alea_error_message(h.error), "scripted dice are for a roll: odds consider every face");
  h.take_error();
  alea_run_options_free(both);
  // A time limit: for odds only, more than 0 and at most a year.
  alea_run_options* timed = alea_run_options_new();
  EXPECT_EQ(alea_run_options_set_time_limit(timed, -1, &h.error), ALEA_ERROR_USAGE);
  EXPECT_STREQ(alea_error_message(h.error),
               "the time limit must be more than 0 and at most 31536000 seconds (a year), not -1");
  h.take_error();
  EXPECT_EQ(alea_run_options_set_time_limit(timed, NAN, &h.error), ALEA_ERROR_USAGE);
  h.take_error();
  ASSERT_EQ(alea_run_options_set_time_limit(timed, 30, &h.error), ALEA_OK);
  EXPECT_EQ(alea_roll(h.engine, "1d6", timed, &h.result, &h.error), ALEA_ERROR_USAGE);
  EXPECT_STREQ(alea_error_message(h.error), "time_limit is for alea_stats_run only");
  h.take_error();
  ASSERT_EQ(alea_stats_run(h.engine, p, timed, &s, &h.error), ALEA_OK) << alea_error_text(h.error);
  EXPECT_EQ(alea_stats_exact(s), 1);
  alea_stats_free(s);
  alea_run_options_free(timed);
  alea_program_free(p);
  // Every free accepts NULL.
  alea_engine_free(nullptr);
  alea_result_free(nullptr);
  alea_error_free(nullptr);
  alea_stats_free(nullptr);
  alea_state_free(nullptr);
  alea_string_free(nullptr);
}

TEST(CApi, LimitsAreSetByNameAndBoundTheRuns) {
  Handles h;
  alea_limits* limits = alea_limits_new();
  EXPECT_EQ(alea_limits_set(limits, "max_dice", 10, &h.error), ALEA_OK);
  int64_t got = 0;
  EXPECT_EQ(alea_limits_get(limits, "max_dice", &got, &h.error), ALEA_OK);
  EXPECT_EQ(got, 10);
  EXPECT_EQ(alea_limits_set(limits, "max_dices", 10, &h.error), ALEA_ERROR_USAGE);
  EXPECT_THAT(alea_error_message(h.error),
              ::testing::StartsWith("there is no limit 'max_dices' (did you mean 'max_dice'?); the limits are max_dice, "));
  h.take_error();
  EXPECT_EQ(alea_limits_set(limits, "max_steps", -1, &h.error), ALEA_ERROR_USAGE);
  EXPECT_STREQ(alea_error_message(h.error), "the limit max_steps cannot be negative, got -1");
  h.take_error();
  ASSERT_EQ(alea_engine_new(limits, &h.engine, &h.error), ALEA_OK);
  alea_limits_free(limits);  // the engine keeps its own copy
  EXPECT_EQ(alea_roll(h.engine, "10d6", h.options, &h.result, &h.error), ALEA_OK);
  alea_result_free(h.result);
  h.result = nullptr;
  EXPECT_EQ(alea_roll(h.engine, "11d6", h.options, &h.result, &h.error), ALEA_ERROR_INPUT);
  EXPECT_STREQ(alea_error_code(h.error), "DiceLimitExceeded");
}

TEST(CApi, ScriptedDiceMustFitTheRoll) {
  Handles h = started();
  const int64_t faces[] = {6, 2, 5};
  ASSERT_EQ(alea_run_options_set_dice(h.options, faces, 3, &h.error), ALEA_OK);
  ASSERT_EQ(alea_roll(h.engine, "3d6", h.options, &h.result, &h.error), ALEA_OK);
  int64_t total = 0;
  alea_value_int(alea_result_value(h.result), &total);
  EXPECT_EQ(total, 13);
  EXPECT_EQ(alea_result_die_face(h.result, 0), 6);
  alea_result_free(h.result);
  h.result = nullptr;
  EXPECT_EQ(alea_roll(h.engine, "2d6", h.options, &h.result, &h.error), ALEA_ERROR_INPUT);
  EXPECT_STREQ(alea_error_code(h.error), "ScriptedDiceUnused");
  EXPECT_STREQ(alea_error_message(h.error), "1 scripted die was not used (5): the roll took 2 of the 3 given");
  h.take_error();
  EXPECT_EQ(alea_roll(h.engine, "4d6", h.options, &h.result, &h.error), ALEA_ERROR_INPUT);
  EXPECT_STREQ(alea_error_code(h.error), "ScriptedDiceExhausted");
}

TEST(CApi, CallsARulesetsMechanic) {
  Handles h = started();
  EXPECT_EQ(alea_engine_load_ruleset(h.engine, "no-such-game", rulesets_dir, 1, &h.error), ALEA_ERROR_INPUT);
  EXPECT_STREQ(alea_error_code(h.error), "RulesetNotFound");
  h.take_error();
  ASSERT_EQ(alea_engine_load_ruleset(h.engine, "heroes-mythos", rulesets_dir, 1, &h.error), ALEA_OK);
  const int64_t faces[] = {5, 4, 2, 3};
  ASSERT_EQ(alea_run_options_set_dice(h.options, faces, 4, &h.error), ALEA_OK);
  ASSERT_EQ(alea_roll(h.engine, "heroes_mythos.check(3, red: 1)", h.options, &h.result, &h.error), ALEA_OK)
      << alea_error_text(h.error);
  int64_t result = 0;
  int success = 1;
  ASSERT_EQ(alea_value_int(alea_value_field(alea_result_value(h.result), "result"), &result), ALEA_OK);
  ASSERT_EQ(alea_value_bool(alea_value_field(alea_result_value(h.result), "success"), &success), ALEA_OK);
  EXPECT_EQ(result, 9);  // 5 + 4; the red 3 cancels the white 2 (A6)
  EXPECT_EQ(success, 0);
  EXPECT_STREQ(alea_result_die_fate(h.result, 2), "cancelled");
}

TEST(CApi, LoadsARulesetFromText) {
  Handles h = started();
  EXPECT_EQ(alea_engine_load_ruleset_text(h.engine, "schema: 1\nname: bad\n", "bad.yaml", &h.error), ALEA_ERROR_INPUT);
  EXPECT_STREQ(alea_error_file(h.error), "bad.yaml");
  h.take_error();
  ASSERT_EQ(alea_engine_load_ruleset_text(h.engine,
                                          "schema: 1\nname: mine\ntitle: Mine\nsource: a test\nmechanics:\n"
                                          "  five:\n    doc: always 5\n    body: \"5\"\n"
                                          "    returns: {type: int, doc: five}\n",
                                          "mine.yaml", &h.error),
            ALEA_OK)
      << alea_error_text(h.error);
  ASSERT_EQ(alea_roll(h.engine, "mine.five() + 1", h.options, &h.result, &h.error), ALEA_OK);
  int64_t six = 0;
  alea_value_int(alea_result_value(h.result), &six);
  EXPECT_EQ(six, 6);
}

TEST(CApi, GivesExactOddsAsFractions) {
  Handles h = started();
  alea_program* p = nullptr;
  ASSERT_EQ(alea_compile(h.engine, "{total: 2d6, high: 2d6 >= 10}", "odds", &p, &h.error), ALEA_OK);
  alea_stats* s = nullptr;
  ASSERT_EQ(alea_stats_run(h.engine, p, nullptr, &s, &h.error), ALEA_OK) << alea_error_text(h.error);
  EXPECT_EQ(alea_stats_exact(s), 1);
  ASSERT_EQ(alea_stats_distribution_count(s), 3u);
  EXPECT_STREQ(alea_stats_distribution_name(s, 1), "total");
  EXPECT_STREQ(alea_stats_distribution_name(s, 2), "high");
  EXPECT_EQ(alea_stats_distribution_name(s, 3), nullptr);
  ASSERT_EQ(alea_stats_entry_count(s, 1), 11u);
  int64_t seven = 0;
  ASSERT_EQ(alea_value_int(alea_stats_entry_value(s, 1, 5), &seven), ALEA_OK);
  EXPECT_EQ(seven, 7);
  EXPECT_STREQ(alea_stats_entry_fraction(s, 1, 5), "1/6");
  EXPECT_DOUBLE_EQ(alea_stats_entry_probability(s, 1, 5), 1.0 / 6);
  EXPECT_STREQ(alea_stats_entry_fraction(s, 2, 1), "1/6");
  EXPECT_STREQ(alea_stats_unresolved_fraction(s), "0/1");
  const std::string json = alea_stats_json(s);
  EXPECT_EQ(json.rfind("{\n  \"schema\": \"alea.stats/1\",", 0), 0u) << json.substr(0, 80);
  EXPECT_NE(json.find("\"exact\": \"1/6\""), std::string::npos);
  alea_stats_free(s);
  alea_program_free(p);
}

TEST(CApi, SamplesWithASeedOrFailsWhenOnlyExactWillDo) {
  Handles h = started();
  alea_program* p = nullptr;
  // Reads the first of twenty dice by position: their 6^20 orders are too many to
  // enumerate, so it is sampled.
  ASSERT_EQ(alea_compile(h.engine, "faces(20d6)[0]", nullptr, &p, &h.error), ALEA_OK) << alea_error_text(h.error);
  alea_run_options_set_seed(h.options, 5);
  alea_run_options_set_samples(h.options, 2000);
  alea_run_options_set_threads(h.options, 2);
  alea_stats* a = nullptr;
  alea_stats* b = nullptr;
  ASSERT_EQ(alea_stats_run(h.engine, p, h.options, &a, &h.error), ALEA_OK) << alea_error_text(h.error);
  ASSERT_EQ(alea_stats_run(h.engine, p, h.options, &b, &h.error), ALEA_OK);
  ASSERT_EQ(alea_stats_exact(a), 0);
  EXPECT_EQ(alea_stats_runs(a), 2000u);
  EXPECT_STREQ(alea_stats_entry_fraction(a, 0, 0), "") << "a sampled probability has no fraction";
  ASSERT_EQ(alea_stats_entry_count(a, 0), 6u);
  ASSERT_EQ(alea_stats_entry_count(b, 0), 6u);
  double sum = 0;
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(alea_stats_entry_probability(a, 0, i), alea_stats_entry_probability(b, 0, i)) << "one seed, one answer";
    // Each face has probability 1/6; 2,000 samples put it within 5 standard errors (0.042).
    EXPECT_NEAR(alea_stats_entry_probability(a, 0, i), 1.0 / 6, 5 * std::sqrt((1.0 / 6) * (5.0 / 6) / 2000));
    sum += alea_stats_entry_probability(a, 0, i);
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
  alea_run_options_set_exact_only(h.options, 1);
  alea_stats* c = nullptr;
  EXPECT_EQ(alea_stats_run(h.engine, p, h.options, &c, &h.error), ALEA_ERROR_INPUT);
  EXPECT_EQ(c, nullptr);
  alea_stats_free(a);
  alea_stats_free(b);
  alea_program_free(p);
}

TEST(CApi, StateGoesInAndOutAsJson) {
  Handles h = started();
  ASSERT_EQ(alea_engine_load_ruleset(h.engine, "pbta-superiority", rulesets_dir, 1, &h.error), ALEA_OK)
      << alea_error_text(h.error);
  alea_state* bad = nullptr;
  EXPECT_EQ(alea_state_from_json("{\"pbta-superiority\": {\"superiority\": }", "hero.json", &bad, &h.error),
            ALEA_ERROR_INPUT);
  EXPECT_STREQ(alea_error_code(h.error), "StateInvalid");
  EXPECT_STREQ(alea_error_file(h.error), "hero.json");
  EXPECT_EQ(alea_error_line(h.error), 1);
  h.take_error();
  ASSERT_EQ(alea_state_from_json("{\"pbta-superiority\": {\"superiority\": 9}}", nullptr, &bad, &h.error), ALEA_OK);
  EXPECT_EQ(alea_state_check(h.engine, bad, &h.error), ALEA_ERROR_INPUT);
  EXPECT_STREQ(alea_error_message(h.error), "pbta-superiority.superiority must be at most 6, got 9");
  h.take_error();
  alea_state_free(bad);

  alea_state* state = nullptr;
  ASSERT_EQ(alea_state_from_json("{\"pbta-superiority\": {\"superiority\": 2}}", nullptr, &state, &h.error), ALEA_OK);
  EXPECT_EQ(alea_state_check(h.engine, state, &h.error), ALEA_OK);
  alea_run_options_set_state(h.options, state);
  ASSERT_EQ(alea_roll(h.engine, "pbta_superiority.increase()", h.options, &h.result, &h.error), ALEA_OK)
      << alea_error_text(h.error);
  char* after = nullptr;
  ASSERT_NE(alea_result_state(h.result), nullptr);
  ASSERT_EQ(alea_state_to_json(alea_result_state(h.result), &after, &h.error), ALEA_OK);
  char* before = nullptr;
  ASSERT_EQ(alea_state_to_json(state, &before, &h.error), ALEA_OK);
  EXPECT_EQ(std::string(after), "{\n  \"pbta-superiority\": {\n    \"superiority\": 3\n  }\n}") << "raised by one";
  EXPECT_EQ(std::string(before), "{\n  \"pbta-superiority\": {\n    \"superiority\": 2\n  }\n}") << "the state given is not written";
  alea_string_free(after);
  alea_string_free(before);
  alea_state_free(state);
}

TEST(CApi, ACancelFlagStopsARun) {
  Handles h = started();
  alea_cancel* cancel = alea_cancel_new();
  alea_cancel_set(cancel);
  alea_run_options_set_cancel(h.options, cancel);
  EXPECT_EQ(alea_roll(h.engine, "repeat 1000 { 1d6 }", h.options, &h.result, &h.error), ALEA_ERROR_INPUT);
  EXPECT_STREQ(alea_error_code(h.error), "Interrupted");
  h.take_error();
  alea_cancel_reset(cancel);
  EXPECT_EQ(alea_roll(h.engine, "repeat 1000 { 1d6 }", h.options, &h.result, &h.error), ALEA_OK);
  alea_cancel_free(cancel);
}

TEST(CApi, OneEngineRollsFromManyThreads) {
  Handles h = started();
  ASSERT_EQ(alea_engine_load_ruleset(h.engine, "heroes-mythos", rulesets_dir, 1, &h.error), ALEA_OK);
  std::atomic<int> agreed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        alea_run_options* o = alea_run_options_new();
        alea_run_options_set_seed(o, static_cast<uint64_t>(t * 100 + i));
        alea_result* r = nullptr;
        if (alea_roll(h.engine, "heroes_mythos.check(4, red: 1)", o, &r, nullptr) == ALEA_OK) {
          const alea::Outcome same = [&] {
            alea::Engine e;
            (void)e.load_ruleset("heroes-mythos", {ALEA_SOURCE_DIR "/rulesets"});
            return e.roll("heroes_mythos.check(4, red: 1)", static_cast<uint64_t>(t * 100 + i));
          }();
          agreed += std::string(alea_result_text(r)) == alea::render_breakdown(same);
        }
        alea_result_free(r);
        alea_run_options_free(o);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(agreed.load(), 100);
}

}  // namespace capi_test
