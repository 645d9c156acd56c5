// tests/rulesets/dozen_die_test.cpp — specs/dozen-die.md beyond its single test
// vectors (those of sections 3.1 and 3.2 are data, tests/rulesets/vectors/dozen-die.yaml,
// run by vectors_test.cpp; here is the check that they cover the spec): the melee's
// symmetry (swapping the sides changes who wins ties and nothing else) and A3 (never
// both sides hit) over every roll of 1–2 dice a side; and the exact distributions
// X1–X5 by enumerating every outcome.
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
#include "tests/support/vectors.hpp"
#include "interpreter/stats.hpp"
#include "tests/support/pinned_stats.hpp"

namespace alea {
namespace dozen_die_test {

const Engine& engine() {
  static const Engine e = testing::engine_with_ruleset("dozen-die");
  return e;
}

std::string melee(int an, int as, int dn, int ds, const std::string& extra = "") {
  return fmt::format("dozen_die.melee({{pool: {}, ST: {}}}, {{pool: {}, ST: {}}}{})", an, as, dn,
                     ds, extra);
}

// Every vector family of the spec is in the data file.
TEST(DozenDieVectors, CoverEveryVectorOfTheSpec) {
  const std::vector<std::string> ids = testing::vector_ids("dozen-die.yaml");
  std::vector<std::string> want;
  for (int i = 1; i <= 28; ++i) want.push_back(fmt::format("T{}", i));
  for (int i = 1; i <= 11; ++i) want.push_back(fmt::format("M{}", i));
  for (int i = 1; i <= 4; ++i) want.push_back(fmt::format("S{}", i));
  for (int i = 1; i <= 9; ++i) want.push_back(fmt::format("G{}", i));
  for (int i = 1; i <= 3; ++i) want.push_back(fmt::format("J{}", i));
  for (int i = 1; i <= 3; ++i) want.push_back(fmt::format("H{}", i));
  for (int i = 1; i <= 5; ++i) want.push_back(fmt::format("K{}", i));
  for (const auto& id : want) {
    const bool found = std::any_of(ids.begin(), ids.end(), [&](const std::string& v) {
      return v == id || v.starts_with(id + "_");
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
  o = engine().roll("dozen_die.melee({pool: 2, ST: 7}, {pool: 2, ST: 7}, tie_winner: \"nobody\")", dice);
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
  const Stats s = compute_stats(engine(), prog.program, {}, testing::exact_pinned());
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

}  // namespace dozen_die_test
}  // namespace alea
