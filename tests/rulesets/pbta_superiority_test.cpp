// tests/rulesets/pbta_superiority_test.cpp — the test vectors of
// specs/pbta-superiority.md beyond the tiers V1–V7 and the moves U1–U9 (those are
// data, tests/rulesets/vectors/pbta-superiority.yaml, run by vectors_test.cpp):
// the player's choices, the superiority state machine S1–S8
// through the state a host keeps, and the exact distributions X1–X12 from
// compute_stats (the engine behind `alea stats`), checked both against the
// spec's fractions and against a brute-force enumeration of the 36 rolls.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "interpreter/api.hpp"
#include "interpreter/stats.hpp"
#include "tests/support/shipped.hpp"
#include "tests/support/pinned_stats.hpp"

namespace alea {
namespace pbta_superiority_test {

const Engine& engine() {
  static const Engine e = testing::engine_with_ruleset("pbta-superiority");
  return e;
}

constexpr const char* ruleset = "pbta-superiority";

State with_superiority(std::int64_t s) {
  State st;
  st.set(ruleset, "superiority", s);
  return st;
}

// S in a state: its default, 1, when the state has none.
std::int64_t superiority(const State& st) {
  const Value* v = st.find(ruleset, "superiority");
  return v ? *v->as_int() : 1;
}

Outcome run(const std::string& call, std::vector<std::int64_t> faces, const State& st, const Choices& choices = {}) {
  const Compiled c = engine().compile(call);
  if (!c.ok()) throw std::runtime_error(render_text(c.diagnostics));
  ScriptedDice dice(std::move(faces));
  Outcome o = engine().run(c.program, {}, dice, {&st, &choices});
  if (o.ok() && dice.remaining() != 0) throw std::runtime_error(call + ": scripted dice left over");
  return o;
}

std::string field(const Outcome& o, const std::string& name) {
  const Value* f = o.value->field(name);
  if (!f) return "<no field " + name + ">";
  return f->as_str() ? *f->as_str() : to_display(*f);
}

// ---- 3.2 the superiority state machine ---------------------------------------------------

struct StateVector {
  std::string id;
  std::int64_t start;                // S before, as the host's state holds it
  std::vector<std::string> calls;    // mechanics, in the language, one run each
  std::int64_t after;
  std::string last_value;            // the last call's value, "" to skip
};

class PbtaStateVector : public ::testing::TestWithParam<StateVector> {};

TEST_P(PbtaStateVector, LeavesSuperiorityAt) {
  const StateVector& v = GetParam();
  State st = v.start == 0 ? State{} : with_superiority(v.start);  // 0: a new game
  Outcome last;
  for (const auto& call : v.calls) {
    last = run(call, {}, st);
    ASSERT_TRUE(last.ok()) << v.id << " " << call << ": " << render_text(*last.error);
    ASSERT_TRUE(last.state.has_value());
    st = *last.state;
  }
  EXPECT_EQ(superiority(st), v.after) << v.id;
  if (!v.last_value.empty()) {
    EXPECT_EQ(to_display(*last.value), v.last_value) << v.id;
  }
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Spec, PbtaStateVector, ::testing::Values(
  StateVector{"S1", 0, {"pbta_superiority.current()"}, 1, "1"},
  StateVector{"S2", 0, {"pbta_superiority.increase()", "pbta_superiority.increase()"}, 3, "3"},
  StateVector{"S3", 3, {"pbta_superiority.gm_decrease()"}, 2, "2"},
  StateVector{"S4", 5, {"pbta_superiority.use([2, 4], 0)"}, 1, "{roll: [5, 4], replaced: 2, with: 5, superiority_after: 1}"},
  StateVector{"S5", 5, {"pbta_superiority.end_encounter()"}, 1, "1"},
  StateVector{"S6", 6, {"pbta_superiority.increase()"}, 6, "6"},
  StateVector{"S7", 1, {"pbta_superiority.gm_decrease()"}, 1, "1"},
  StateVector{"S8", 1, {"pbta_superiority.use([3, 5], 1)"}, 1, "{roll: [3, 1], replaced: 5, with: 1, superiority_after: 1}"},
  // Beyond the spec's list: several faces at once stop at 6; a face set by hand.
  StateVector{"increase_by_n", 2, {"pbta_superiority.increase(7)"}, 6, "6"},
  StateVector{"turn_to", 2, {"pbta_superiority.turn_to(5)"}, 5, "5"}),
  [](const auto& p) { return p.param.id; });
// clang-format on

// ---- the player's choice against the policy ----------------------------------------------

Choices decide(bool use) {
  Choices c;
  c.set(ruleset, "use_superiority", use);
  return c;
}

TEST(PbtaChoice, ThePlayersWordOverridesThePolicy) {
  // U3: the policy keeps S = 3 (7 → 7); the player spends it anyway: 3 replaced by 3.
  Outcome o = run("pbta_superiority.move(0)", {3, 4}, with_superiority(3), decide(true));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(field(o, "superiority_used"), "true");
  EXPECT_EQ(field(o, "total"), "7");
  EXPECT_EQ(superiority(*o.state), 1);
  // U1: the policy would spend S = 5; the player keeps it and takes the miss.
  o = run("pbta_superiority.move(0)", {2, 4}, with_superiority(5), decide(false));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(field(o, "superiority_used"), "false");
  EXPECT_EQ(field(o, "tier"), "miss");
  EXPECT_EQ(superiority(*o.state), 5);
}

TEST(PbtaChoice, OtherPoliciesAreParameters) {
  // if_higher: S = 2 above the lower die 1 is spent although 5 → 6 stays a miss (U5).
  Outcome o = run("pbta_superiority.move(0, policy: \"if_higher\")", {1, 4}, with_superiority(2));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(field(o, "superiority_used"), "true");
  EXPECT_EQ(field(o, "total"), "6");
  // never: U1 keeps S.
  o = run("pbta_superiority.move(0, policy: \"never\")", {2, 4}, with_superiority(5));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(field(o, "superiority_used"), "false");
  EXPECT_EQ(superiority(*o.state), 5);
}

TEST(PbtaChoice, AnyOtherRollSpendsItOnlyWhenThePlayerSays) {
  Outcome o = run("pbta_superiority.roll(3, modifier: 1)", {2, 1, 5}, with_superiority(6));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(field(o, "total"), "9");
  EXPECT_EQ(superiority(*o.state), 6);
  o = run("pbta_superiority.roll(3, modifier: 1)", {2, 1, 5}, with_superiority(6), decide(true));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(field(o, "final_dice"), "[2, 6, 5]");
  EXPECT_EQ(field(o, "total"), "14");
  EXPECT_EQ(superiority(*o.state), 1);
}

// ---- atomic state, sessions and threads ----------------------------------------------------

TEST(PbtaState, ARollThatFailsChangesNothing) {
  const State st = with_superiority(2);
  // The increase happens, then the run fails: the host's state must not move.
  const Outcome o = run("pbta_superiority.increase(3) + \"a\"", {}, st);
  ASSERT_FALSE(o.ok());
  EXPECT_FALSE(o.state.has_value());
  EXPECT_EQ(superiority(st), 2);

  Session session(engine());
  session.set_state(st);
  ScriptedDice dice({});
  EXPECT_FALSE(session.eval("pbta_superiority.increase(3) + \"a\"", dice).ok());
  EXPECT_EQ(superiority(session.state()), 2);
  EXPECT_TRUE(session.eval("pbta_superiority.increase(3)", dice).ok());
  EXPECT_EQ(superiority(session.state()), 5);
}

TEST(PbtaState, ASessionDecidesAfterSeeingTheRoll) {
  Session session(engine());
  ScriptedDice dice({2, 4});
  ASSERT_TRUE(session.eval("pbta_superiority.increase(4)", dice).ok());
  // U1: the policy spends S = 5.
  Outcome o = session.eval("pbta_superiority.move(0)", dice);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(field(o, "tier"), "partial");
  EXPECT_EQ(superiority(session.state()), 1);
  // The player keeps it: the same dice, S back at 5, a miss.
  ScriptedDice none({});
  o = session.revise(decide(false), none);
  ASSERT_TRUE(o.ok()) << render_text(*o.error);
  EXPECT_EQ(field(o, "dice"), "[2, 4]");
  EXPECT_EQ(field(o, "tier"), "miss");
  EXPECT_EQ(superiority(session.state()), 5);
  // And changes their mind again.
  o = session.revise(decide(true), none);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(field(o, "total"), "9");
  EXPECT_EQ(superiority(session.state()), 1);
}

TEST(PbtaState, AnArgumentSetsTheCounterForTheCall) {
  // `superiority: 4` is as if the state held 4: the move starts from it.
  const Outcome o = run("pbta_superiority.move(1, superiority: 4)", {1, 1}, with_superiority(2));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(field(o, "total"), "3");  // with S: 1 + 4 + 1 = 6, still a miss, so S is kept
  EXPECT_EQ(superiority(*o.state), 4);
  const Outcome bad = run("pbta_superiority.move(1, superiority: 7)", {}, State{});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error->code, DiagCode::ArgumentOutOfRange);
}

TEST(PbtaState, ManyCharactersOnOneEngineFromManyThreads) {
  const Compiled c = engine().compile("pbta_superiority.move(0)");
  ASSERT_TRUE(c.ok());
  std::vector<std::int64_t> after(6, 0);
  std::vector<std::thread> threads;
  for (int s = 1; s <= 6; ++s) {
    threads.emplace_back([&, s] {
      for (int i = 0; i < 200; ++i) {
        const State st = with_superiority(s);
        ScriptedDice dice({2, 4});
        const Outcome o = engine().run(c.program, {}, dice, {&st, nullptr});
        after[static_cast<std::size_t>(s - 1)] = o.ok() ? superiority(*o.state) : -1;
      }
    });
  }
  for (auto& t : threads) t.join();
  // 2 + 4 = 6 is a miss; S replaces the 2 when 4 + S >= 7, i.e. S >= 3.
  EXPECT_EQ(after, (std::vector<std::int64_t>{1, 2, 1, 1, 1, 1}));
}

// ---- 3.4 exact distributions ---------------------------------------------------------------

struct Distribution {
  std::string id;
  std::int64_t stat;
  std::int64_t s;
  std::array<std::string, 4> p;  // miss, partial, full, superiority used
};

class PbtaDistribution : public ::testing::TestWithParam<Distribution> {};

std::string exact_of(const Stats& st, std::string_view field_name, const Value& v) {
  for (const auto& d : st.fields) {
    if (d.name != field_name) continue;
    for (const auto& e : d.entries) {
      if (e.value == v) return e.probability.exact();
    }
    return "0";
  }
  return "<no field>";
}

std::string canonical(std::string fraction) {
  if (fraction == "0/1") return "0";
  return fraction;
}

// Independent of the ruleset: the 36 ordered rolls of 2d6, with the spec's
// policy written out here (A5).
std::array<std::string, 4> brute_force(std::int64_t stat, std::int64_t s) {
  const auto tier = [](std::int64_t t) { return t <= 6 ? 0 : t <= 9 ? 1 : 2; };
  std::array<std::int64_t, 4> n{};  // out of 36
  for (std::int64_t a = 1; a <= 6; ++a) {
    for (std::int64_t b = 1; b <= 6; ++b) {
      const std::int64_t plain = a + b + stat;
      const std::int64_t swapped = std::max(a, b) + s + stat;
      const bool use = tier(swapped) > tier(plain);
      ++n[static_cast<std::size_t>(tier(use ? swapped : plain))];
      if (use) ++n[3];
    }
  }
  std::array<std::string, 4> out;
  for (std::size_t i = 0; i < 4; ++i) {
    const std::int64_t g = std::gcd(n[i], std::int64_t{36});
    out[i] = n[i] == 0 ? "0" : fmt::format("{}/{}", n[i] / g, 36 / g);
  }
  return out;
}

TEST_P(PbtaDistribution, ComesOutOfTheStatisticsEngineExactly) {
  const Distribution& d = GetParam();
  EXPECT_EQ(brute_force(d.stat, d.s), d.p) << d.id << ": the spec and the enumeration disagree";
  const Compiled c = engine().compile(fmt::format("pbta_superiority.move({}, superiority: {})", d.stat, d.s));
  ASSERT_TRUE(c.ok());
  const Stats st = compute_stats(engine(), c.program, {}, testing::exact_pinned());
  ASSERT_EQ(st.method, StatsMethod::Exact) << st.reason;
  const std::array<std::string, 4> got = {canonical(exact_of(st, "tier", Value(std::string("miss")))),
                                          canonical(exact_of(st, "tier", Value(std::string("partial")))),
                                          canonical(exact_of(st, "tier", Value(std::string("full")))),
                                          canonical(exact_of(st, "superiority_used", Value(true)))};
  EXPECT_EQ(got, d.p) << d.id;
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Spec, PbtaDistribution, ::testing::Values(
  Distribution{"X1", 0, 1, {"5/12", "5/12", "1/6", "0"}},
  Distribution{"X2", 0, 2, {"13/36", "17/36", "1/6", "1/18"}},
  Distribution{"X3", 0, 3, {"1/4", "7/12", "1/6", "1/6"}},
  Distribution{"X4", 0, 4, {"1/9", "5/9", "1/3", "17/36"}},
  Distribution{"X5", 0, 5, {"1/36", "5/12", "5/9", "13/18"}},
  Distribution{"X6", 0, 6, {"0", "1/4", "3/4", "5/6"}},
  Distribution{"X7", 1, 1, {"5/18", "4/9", "5/18", "0"}},
  Distribution{"X8", 1, 2, {"2/9", "1/2", "5/18", "1/18"}},
  Distribution{"X9", 1, 3, {"1/9", "1/2", "7/18", "5/18"}},
  Distribution{"X10", 1, 4, {"1/36", "5/12", "5/9", "19/36"}},
  Distribution{"X11", 1, 5, {"0", "1/4", "3/4", "25/36"}},
  Distribution{"X12", 1, 6, {"0", "1/9", "8/9", "13/18"}}),
  [](const auto& p) { return p.param.id; });
// clang-format on

TEST(PbtaDistribution, WithoutSuperiorityIsPlainTwoDiceAndOne) {
  // The player never spends it: 2d6 + 1 as it is, whatever S is.
  const Compiled c = engine().compile("pbta_superiority.move(1, superiority: 6, use_superiority: false)");
  ASSERT_TRUE(c.ok());
  const Stats st = compute_stats(engine(), c.program, {}, testing::exact_pinned());
  ASSERT_EQ(st.method, StatsMethod::Exact);
  EXPECT_EQ(exact_of(st, "tier", Value(std::string("miss"))), "5/18");
  EXPECT_EQ(exact_of(st, "tier", Value(std::string("partial"))), "4/9");
  EXPECT_EQ(exact_of(st, "tier", Value(std::string("full"))), "5/18");
}

}  // namespace pbta_superiority_test
}  // namespace alea
