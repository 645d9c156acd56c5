// tests/interpreter/compile_cache_test.cpp — an Engine keeps the programs it
// compiled by source text (EngineOptions::compile_cache): a host that compiles
// the same expression again gets the same program back, the cache stays
// within its bounds, is safe from many threads, and never hands out a program
// compiled against a ruleset that has since been replaced.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "interpreter/api.hpp"

namespace alea {
namespace compile_cache_test {

EngineOptions with_cache(std::size_t n) {
  EngineOptions o;
  o.compile_cache = n;
  return o;
}

TEST(CompileCache, ASecondCompileOfTheSameTextGivesTheSameProgram) {
  const Engine engine;
  const Compiled a = engine.compile("4d6kh3");
  const Compiled b = engine.compile("4d6kh3");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.program, b.program);
  // The name shown in diagnostics is part of what was compiled.
  EXPECT_NE(engine.compile("4d6kh3", "bot.alea").program, a.program);
  EXPECT_NE(engine.compile("4d6kh3 ").program, a.program);
  // And a cached program rolls exactly as a fresh one does.
  const Engine cold(with_cache(0));
  EXPECT_EQ(render_breakdown(engine.roll("4d6kh3", 7)), render_breakdown(cold.roll("4d6kh3", 7)));
  EXPECT_EQ(render_breakdown(engine.roll("4d6kh3", 7)), render_breakdown(cold.roll("4d6kh3", 7)));
}

TEST(CompileCache, CanBeTurnedOff) {
  const Engine engine(with_cache(0));
  EXPECT_NE(engine.compile("3d6").program, engine.compile("3d6").program);
}

TEST(CompileCache, KeepsNeitherErrorsNorLongSources) {
  const Engine engine;
  for (int i = 0; i < 2; ++i) {
    const Compiled c = engine.compile("frob(1)");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.diagnostics.front().code, DiagCode::UnknownFunction);
  }
  std::string longer = "1";
  while (longer.size() <= CompileCache::max_source_bytes) longer += " + 1";
  const Compiled a = engine.compile(longer), b = engine.compile(longer);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a.program, b.program);
}

TEST(CompileCache, ForgetsTheLeastRecentlyUsedFirst) {
  const Engine engine(with_cache(2));
  const auto a = engine.compile("1d4").program;
  const auto b = engine.compile("1d6").program;
  EXPECT_EQ(engine.compile("1d4").program, a);  // 1d4 is now the most recently used
  const auto c = engine.compile("1d8").program;  // so 1d6 goes
  EXPECT_EQ(engine.compile("1d4").program, a);
  EXPECT_EQ(engine.compile("1d8").program, c);
  EXPECT_NE(engine.compile("1d6").program, b);
}

TEST(CompileCache, StaysWithinItsCapacity) {
  CompileCache cache(3);
  const Engine engine(with_cache(0));
  for (int i = 0; i < 10; ++i) {
    const std::string source = std::to_string(i) + "d6";
    cache.insert("<input>", source, engine.compile(source).program);
    EXPECT_LE(cache.size(), 3u);
  }
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_NE(cache.find("<input>", "9d6"), nullptr);
  EXPECT_EQ(cache.find("<input>", "6d6"), nullptr);
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
}

TEST(CompileCache, LoadingARulesetMakesNamesMeanTheNewMechanics) {
  Engine engine;
  const auto ruleset = [](int value) {
    return "schema: 1\nname: cached\ntitle: C\nsource: a test\nmechanics:\n  m:\n    doc: x\n    body: " +
           std::to_string(value) + "\n    returns: {type: int, doc: x}\n";
  };
  ASSERT_TRUE(engine.load_ruleset_text(ruleset(1), "cached.yaml").empty());
  EXPECT_EQ(to_display(*engine.roll("cached.m()", 1).value), "1");
  ASSERT_TRUE(engine.load_ruleset_text(ruleset(2), "cached.yaml").empty());  // replaces it
  EXPECT_EQ(to_display(*engine.roll("cached.m()", 1).value), "2");
}

TEST(CompileCache, IsSafeToUseFromManyThreadsAtOnce) {
  const Engine engine(with_cache(8));
  std::vector<std::string> sources;
  for (int i = 1; i <= 24; ++i) sources.push_back(std::to_string(i) + "d6kh1 + " + std::to_string(i));
  std::vector<std::thread> threads;
  std::vector<int> wrong(6, 0);
  for (std::size_t t = 0; t < wrong.size(); ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t k = 0; k < 400; ++k) {
        const std::size_t i = (k * 7 + t * 5) % sources.size();
        ExtremeDice max(ExtremeDice::End::Max);
        const Outcome o = engine.roll(sources[i], max);
        // The highest die of a roll of d6s, plus the count: 6 + (i + 1).
        if (!o.ok() || to_display(*o.value) != std::to_string(6 + i + 1)) ++wrong[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int w : wrong) EXPECT_EQ(w, 0);
}

}  // namespace compile_cache_test
}  // namespace alea
