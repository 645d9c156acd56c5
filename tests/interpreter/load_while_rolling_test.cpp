// tests/interpreter/load_while_rolling_test.cpp — an Engine loads rulesets while other threads
// compile, roll and compute odds with it (a server taking users' rulesets at run time): each
// of those sees a whole set of rulesets, the one before a load or the one after.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"

namespace alea {
namespace load_while_rolling_test {

std::string version_of(int value) {
  return "schema: 1\nname: live\ntitle: Live\nsource: a test\nmechanics:\n  m:\n    doc: x\n    body: " +
         std::to_string(value) + "\n    returns: {type: int, doc: x}\n";
}

TEST(LoadWhileRolling, EveryRunSeesOneWholeSetOfRulesets) {
  Engine engine;
  ASSERT_TRUE(engine.load_ruleset("heroes-mythos", {ALEA_SOURCE_DIR "/rulesets"}).empty());
  ASSERT_TRUE(engine.load_ruleset_text(version_of(0), "live.yaml").empty());
  constexpr int loads = 40;
  std::atomic<bool> loading{true};
  std::atomic<int> runs{0}, wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      int last = 0;
      for (int i = 0; loading || i < 5; ++i) {
        // The versions only go up: a run never sees an older one than a run before it.
        const Outcome live = engine.roll("live.m()", static_cast<std::uint64_t>(i));
        const std::int64_t* v = live.ok() ? live.value->as_int() : nullptr;
        if (v == nullptr || *v < last || *v > loads) ++wrong;
        else last = static_cast<int>(*v);
        // A ruleset loaded before the others started is there all along.
        const Outcome check = engine.roll("heroes_mythos.check(3, red: 1)", static_cast<std::uint64_t>(t * 1000 + i));
        if (!check.ok()) ++wrong;
        const Compiled c = engine.compile("live.m() + 2d6");
        if (!c.ok() || compute_stats(engine, c.program, {}, {}).value.entries.size() != 11) ++wrong;
        ++runs;
      }
    });
  }
  for (int v = 1; v <= loads; ++v) {
    EXPECT_TRUE(engine.load_ruleset_text(version_of(v), "live.yaml").empty());
    if (v % 10 == 0) {
      EXPECT_TRUE(engine.load_ruleset("heroes-mythos", {ALEA_SOURCE_DIR "/rulesets"}).empty());
    }
  }
  loading = false;
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0) << "of " << runs.load() << " runs";
  // Once the loads are done, every compile sees the last version, cached or not.
  EXPECT_EQ(to_display(*engine.roll("live.m()", 1).value), std::to_string(loads));
  EXPECT_EQ(engine.rulesets().size(), 2u);
}

TEST(LoadWhileRolling, AProgramKeepsTheMechanicsItWasCompiledAgainst) {
  Engine engine;
  ASSERT_TRUE(engine.load_ruleset_text(version_of(1), "live.yaml").empty());
  const Compiled before = engine.compile("live.m()");
  const Ruleset* first = engine.find_ruleset("live");
  ASSERT_TRUE(engine.load_ruleset_text(version_of(2), "live.yaml").empty());
  ScriptedDice none({});
  EXPECT_EQ(to_display(*engine.run(before.program, {}, none).value), "1");
  EXPECT_EQ(to_display(*engine.roll("live.m()", 1).value), "2");
  // The pointer found before the load still points at the ruleset it named.
  EXPECT_EQ(ruleset_summary(*first).name, "live");
  EXPECT_NE(engine.find_ruleset("live"), first);
}

TEST(LoadWhileRolling, ACopyHasTheRulesetsAndLoadsOnItsOwn) {
  Engine engine;
  ASSERT_TRUE(engine.load_ruleset_text(version_of(1), "live.yaml").empty());
  Engine copy(engine);
  ASSERT_TRUE(copy.load_ruleset_text(version_of(2), "live.yaml").empty());
  EXPECT_EQ(to_display(*engine.roll("live.m()", 1).value), "1");
  EXPECT_EQ(to_display(*copy.roll("live.m()", 1).value), "2");
}

}  // namespace load_while_rolling_test
}  // namespace alea
