// tests/interpreter/exact_weight_test.cpp — the exact engine's integer weights
// at the edges of their tiers: 128-bit inline Weights that grow into GMP
// integers (changed in place, never under another copy), the inline limbs of
// dynamic programs (192–512 bits), and sums of dice computed on each tier,
// digit for digit against a plain GMP reference.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/exact/exact_intdist.hpp"
#include "interpreter/exact/exact_limbs.hpp"
#include "interpreter/exact/exact_weight.hpp"

namespace alea::compose {
namespace exact_weight_test {

mpz_class pow2(unsigned long e) {
  mpz_class z = 1;
  z <<= e;
  return z;
}
Weight big(const char* decimal) { return Weight::from_mpz(mpz_class(decimal)); }
const u128 max128 = ~u128{0};

TEST(ExactWeight, SumCrossesIntoGmpAndSubtractionComesBack) {
  Weight w = Weight::from_u128(max128);
  EXPECT_TRUE(w.is_small());
  w += Weight(1);
  EXPECT_FALSE(w.is_small());
  EXPECT_EQ(w.str(), "340282366920938463463374607431768211456");  // 2^128
  EXPECT_EQ(w.bits(), 129u);
  w -= Weight(1);
  EXPECT_TRUE(w.is_small());
  EXPECT_TRUE(w == Weight::from_u128(max128));
  EXPECT_EQ(w.bits(), 128u);
}

TEST(ExactWeight, ProductCrossesIntoGmp) {
  Weight w = Weight::from_u128(u128{1} << 64);
  w *= Weight::from_u128(u128{1} << 64);
  EXPECT_FALSE(w.is_small());
  EXPECT_EQ(w.to_mpz(), pow2(128));
  w *= w;
  EXPECT_EQ(w.to_mpz(), pow2(256));
  w *= Weight(0);
  EXPECT_TRUE(w.is_zero());
  EXPECT_TRUE(w.is_small());
}

// A GMP integer is changed in place only when no other Weight holds it.
TEST(ExactWeight, CopiesNeverSeeAnotherCopysChange) {
  const Weight six100 = Weight(6).pow(100);
  Weight sum = six100;
  sum += Weight(1);
  sum += six100;
  Weight product = six100;
  product *= Weight(3);
  Weight diff = six100;
  diff -= Weight(1);
  const mpz_class expected = [] {
    mpz_class z;
    mpz_ui_pow_ui(z.get_mpz_t(), 6, 100);
    return z;
  }();
  EXPECT_EQ(six100.to_mpz(), expected);
  EXPECT_EQ(sum.to_mpz(), 2 * expected + 1);
  EXPECT_EQ(product.to_mpz(), 3 * expected);
  EXPECT_EQ(diff.to_mpz(), expected - 1);
  Weight self = six100;
  self += self;
  EXPECT_EQ(self.to_mpz(), 2 * expected);
  EXPECT_EQ(six100.to_mpz(), expected);
}

TEST(ExactWeight, ComparesAcrossTiers) {
  const Weight small = Weight::from_u128(max128);
  const Weight just_big = big("340282366920938463463374607431768211456");
  const Weight bigger = big("340282366920938463463374607431768211457");
  EXPECT_TRUE(small < just_big);
  EXPECT_FALSE(just_big < small);
  EXPECT_TRUE(just_big < bigger);
  EXPECT_FALSE(bigger < just_big);
  EXPECT_FALSE(small == just_big);
  EXPECT_TRUE(just_big == big("340282366920938463463374607431768211456"));
  // A GMP integer that fits in 128 bits is the same Weight as the inline one.
  EXPECT_TRUE(Weight::from_mpz(mpz_class(7)) == Weight(7));
  EXPECT_TRUE(Weight::from_mpz(mpz_class(7)).is_small());
}

TEST(ExactWeight, GcdLcmAndDivexactOfBigWeights) {
  const Weight six100 = Weight(6).pow(100);
  const Weight four60 = Weight(4).pow(60);
  EXPECT_EQ(gcd(six100, four60).to_mpz(), pow2(100));
  EXPECT_EQ(lcm(six100, four60).to_mpz(), six100.to_mpz() * pow2(20));
  EXPECT_EQ(six100.divexact(Weight(3).pow(100)).to_mpz(), pow2(100));
  EXPECT_TRUE(six100.divexact(Weight(6).pow(99)) == Weight(6));
  EXPECT_TRUE(gcd(Weight(0), six100) == six100);
}

TEST(ExactWeight, DoublesAndDecimals) {
  EXPECT_EQ(Weight::from_mpz(pow2(200)).to_double(), std::ldexp(1.0, 200));
  EXPECT_EQ(Weight::from_u128(max128).str(), "340282366920938463463374607431768211455");
  EXPECT_EQ(Weight(6).pow(100).str(),
            "653318623500070906096690267158057820537143710472954871543071966369497141477376");
  EXPECT_EQ(Weight(0).str(), "0");
}

TEST(ExactWeight, LimbsRoundTrip) {
  const mpz_class top = pow2(256) - 1;
  const Weight w = Weight::from_mpz(top);
  const Limbs<4> l(w);
  EXPECT_EQ(weight_of(l).to_mpz(), top);
  // High zero limbs: the Weight is inline again.
  const Limbs<4> one(1);
  EXPECT_TRUE(weight_of(one).is_small());
  EXPECT_TRUE(weight_of(one) == Weight(1));
  EXPECT_EQ(Weight::from_limbs(l.l, 4).bits(), 256u);
}

TEST(ExactWeight, LimbsCarryAcrossEveryLimb) {
  Limbs<4> a(Weight::from_u128(max128));
  a += Limbs<4>(1);  // 2^128: the carry crosses into the third limb
  EXPECT_EQ(weight_of(a).to_mpz(), pow2(128));
  a -= Limbs<4>(1);
  EXPECT_EQ(weight_of(a).to_mpz(), pow2(128) - 1);
  Limbs<4> acc(5);
  acc.add_product(Limbs<4>(Weight::from_mpz(pow2(100))), Limbs<4>(Weight::from_mpz(pow2(150) + 3)));
  EXPECT_EQ(weight_of(acc).to_mpz(), pow2(250) + 3 * pow2(100) + 5);
  acc.add_product(Limbs<4>(0), Limbs<4>(7));
  EXPECT_EQ(weight_of(acc).to_mpz(), pow2(250) + 3 * pow2(100) + 5);
}

TEST(ExactWeight, WidthIsTheNarrowestThatHoldsTheBound) {
  auto limbs_for = [](const mpz_class& bound) {
    return with_width(Weight::from_mpz(bound), []<class W>(std::type_identity<W>) -> std::size_t {
      if constexpr (std::is_same_v<W, mpz_class>)
        return 0;
      else
        return sizeof(W) / 8;
    });
  };
  EXPECT_EQ(limbs_for(pow2(64) - 1), 1u);
  EXPECT_EQ(limbs_for(pow2(64)), 2u);
  EXPECT_EQ(limbs_for(pow2(128) - 1), 2u);
  EXPECT_EQ(limbs_for(pow2(128)), 3u);
  EXPECT_EQ(limbs_for(pow2(256) - 1), 4u);
  EXPECT_EQ(limbs_for(pow2(256)), 6u);
  EXPECT_EQ(limbs_for(pow2(512) - 1), 8u);
  EXPECT_EQ(limbs_for(pow2(512)), 0u);  // GMP
}

// The ways n dice with these face weights reach each total, by plain GMP.
std::vector<mpz_class> reference(const std::vector<unsigned long>& faces, int n) {
  std::vector<mpz_class> ways{1};
  for (int die = 0; die < n; ++die) {
    std::vector<mpz_class> next(ways.size() + faces.size() - 1);
    for (std::size_t i = 0; i < ways.size(); ++i) {
      for (std::size_t f = 0; f < faces.size(); ++f) next[i + f] += ways[i] * faces[f];
    }
    ways = std::move(next);
  }
  return ways;
}

IntDist die_of(const std::vector<unsigned long>& faces) {
  IntDist d;
  d.total = 0;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (faces[f]) d.entries.emplace_back(static_cast<std::int64_t>(f + 1), Weight(faces[f]));
    d.total += Weight(faces[f]);
  }
  return d;
}

void expect_sum_of(const std::vector<unsigned long>& faces, int n) {
  Budget budget;
  budget.max = UINT64_MAX;
  const IntDist d = power(budget, die_of(faces), static_cast<std::uint64_t>(n));
  const std::vector<mpz_class> ref = reference(faces, n);
  ASSERT_EQ(d.entries.size(), ref.size()) << n << " dice";
  for (std::size_t i = 0; i < ref.size(); ++i) {
    ASSERT_EQ(d.entries[i].first, static_cast<std::int64_t>(n + i));
    ASSERT_EQ(d.entries[i].second.str(), ref[i].get_str()) << n << " dice, total " << n + i;
  }
}

// nd6 on every tier: 6^20 fits 64 bits, 6^40 128, 6^60 192, 6^90 256, 6^130 384,
// 6^190 512, 6^250 GMP.
TEST(ExactWeight, SumsOfUniformDiceOnEveryTier) {
  for (int n : {20, 40, 60, 90, 130, 190, 250}) expect_sum_of({1, 1, 1, 1, 1, 1}, n);
}

// Convolutions (a die whose faces weigh differently) on every tier.
TEST(ExactWeight, SumsOfWeightedDiceOnEveryTier) {
  for (int n : {10, 25, 40, 60, 90, 120, 150}) expect_sum_of({1, 2, 0, 3, 5, 8}, n);
}

// The cells of a sum are work, not outcomes: 200d6 is 1001 outcomes.
TEST(ExactWeight, SumCellsAreWorkNotBranches) {
  Budget budget;
  budget.max = 1001;
  const IntDist d = power(budget, die_of({1, 1, 1, 1, 1, 1}), 200);
  EXPECT_EQ(d.entries.size(), 1001u);
  EXPECT_EQ(budget.branches, 1001u);
  EXPECT_GT(budget.work, 200u * 1001u);

  Budget tight;
  tight.max = UINT64_MAX;
  tight.max_work = 100'000;
  try {
    (void)power(tight, die_of({1, 1, 1, 1, 1, 1}), 200);
    ADD_FAILURE() << "200d6 fits in 100,000 units of work";
  } catch (const OverBudget& e) {
    EXPECT_EQ(e.limit, "max_odds_work");
    EXPECT_EQ(tight.work, 0u) << "refused before starting";
  }
}

}  // namespace exact_weight_test
}  // namespace alea::compose
