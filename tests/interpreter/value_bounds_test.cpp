// tests/interpreter/value_bounds_test.cpp — the bounds on what values cost (issue 17): a
// value's size counts shared parts each time, rendering stays within max_render_size whatever
// the value, and a Session keeps at most max_session_size items.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "interpreter/api.hpp"

namespace alea {
namespace value_bounds_test {

// 2^levels leaves of `leaf`, sharing one list per level: built in `levels` steps.
Value doubled(int levels, const Value& leaf) {
  Value v = leaf;
  for (int i = 0; i < levels; ++i) v = make_list({v, v});
  return v;
}

TEST(ValueSize, CountsSharedPartsEachTimeAndSaturates) {
  EXPECT_EQ(Value(3).size(), 1u);
  EXPECT_EQ(make_list({}).size(), 1u);  // an empty list prints, so it counts
  EXPECT_EQ(make_record({"a", "b"}, {Value(1), make_list({Value(1), Value(2)})}).size(), 3u);
  EXPECT_EQ(doubled(20, Value(1)).size(), 1u << 20);
  EXPECT_EQ(doubled(70, Value(1)).size(), UINT64_MAX);
}

TEST(ValueSize, ABuiltValuePastTheLimitIsAnErrorNamingIt) {
  Engine engine;
  Outcome o = engine.roll("(loop x = {n: 0, v: 1} while x.n < 60 { {n: x.n + 1, v: [x.v, x.v]} }).v", 1);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::SizeLimitExceeded);
  EXPECT_NE(o.error->message.find("(max_value_size)"), std::string::npos) << o.error->message;
  EXPECT_LT(o.steps, 10000);
}

TEST(Render, ADisplayPastTheLimitIsCutWithAMarker) {
  const Value v = doubled(60, Value(std::string("é")));  // 2^60 leaves: never printable whole
  const std::string s = to_display(v, 1000);
  EXPECT_LE(s.size(), 1000u);
  EXPECT_NE(s.find("more values left out"), std::string::npos) << s;
  EXPECT_NE(s.find("(max_render_size)"), std::string::npos);
  EXPECT_EQ(to_display(make_list({Value(1), Value(2)}), 1000), "[1, 2]");
}

TEST(Render, JsonPastTheLimitIsRefusedWhole) {
  const Value v = doubled(60, Value(1));
  const std::string j = render_value_json(v, 1000);
  const auto doc = nlohmann::json::parse(j);
  EXPECT_EQ(doc["error"]["code"], "SizeLimitExceeded");
  EXPECT_EQ(render_value_json(make_list({Value(1), Value(std::string("a"))})), "[1,\"a\"]");
}

TEST(Render, AnOutcomeOfAHugeValueRendersWithinTheLimit) {
  Engine engine;
  Outcome o = engine.roll("1", 1);
  ASSERT_TRUE(o.ok());
  o.value = doubled(60, Value(1));  // as a host could build it
  const std::string text = render_breakdown(o, 2000);
  EXPECT_LE(text.size(), 2000u);
  EXPECT_NE(text.find("(max_render_size)"), std::string::npos);
  const std::string doc = render_json(o, "1", std::nullopt, 2000);
  const auto j = nlohmann::json::parse(doc);
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["error"]["code"], "SizeLimitExceeded");
}

TEST(Render, ABreakdownOfManyRollsSaysHowManyLinesItLeftOut) {
  Engine engine;
  Outcome o = engine.roll("sum(repeat 10000 { d6 })", 1);
  ASSERT_TRUE(o.ok());
  const std::string all = render_breakdown(o);
  EXPECT_NE(all.find("\n  d6: "), std::string::npos);
  const std::string cut = render_breakdown(o, 5000);
  EXPECT_LE(cut.size(), 5000u);
  EXPECT_NE(cut.find("more lines left out"), std::string::npos) << cut.substr(cut.size() - 200);
}

TEST(SessionBudget, ADefinitionPastTheLimitIsRefusedAndChangesNothing) {
  EngineOptions opts;
  opts.limits.max_session_size = 25'000;
  Engine engine(opts);
  Session s(engine);
  RandomDice dice(1);
  ASSERT_TRUE(s.eval("let a = range(1, 10000)", dice).ok());
  ASSERT_TRUE(s.eval("let b = range(1, 10000)", dice).ok());
  Outcome o = s.eval("let c = range(1, 10000)", dice);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, DiagCode::SizeLimitExceeded);
  EXPECT_NE(o.error->message.find("(max_session_size)"), std::string::npos) << o.error->message;
  EXPECT_EQ(s.variables().find("c"), nullptr);
  // Replacing a variable frees its room.
  EXPECT_TRUE(s.eval("let a = 1", dice).ok());
  EXPECT_TRUE(s.eval("let c = range(1, 10000)", dice).ok());
}

TEST(SessionBudget, AHostsVariablePastTheLimitIsRefusedAndChangesNothing) {
  EngineOptions opts;
  opts.limits.max_session_size = 25'000;
  Engine engine(opts);
  Session s(engine);
  std::vector<Value> items(10'000, Value(1));
  const Value big = make_list(items);
  EXPECT_FALSE(s.set_variable("a", big));
  EXPECT_FALSE(s.set_variable("b", big));
  const std::optional<Diagnostic> refused = s.set_variable("c", big);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code, DiagCode::SizeLimitExceeded);
  EXPECT_NE(refused->message.find("(max_session_size)"), std::string::npos) << refused->message;
  EXPECT_EQ(s.variables().find("c"), nullptr);
  // Replacing a variable frees its room.
  EXPECT_FALSE(s.set_variable("a", Value(1)));
  EXPECT_FALSE(s.set_variable("c", big));
}

TEST(EngineLimits, ANegativeLimitIsRefusedNamingIt) {
  EngineOptions opts;
  opts.limits.max_explosion_depth = -1;
  try {
    Engine engine(opts);
    FAIL() << "an engine with a negative limit was made";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("max_explosion_depth"), std::string::npos) << e.what();
  }
  opts.limits.max_explosion_depth = 0;  // zero is a limit like any other
  Engine engine(opts);
  const Outcome o = engine.roll("d6 explode", 1);
  EXPECT_TRUE(o.ok() || o.error->code == DiagCode::ExplosionLimitExceeded);
}

}  // namespace value_bounds_test
}  // namespace alea
