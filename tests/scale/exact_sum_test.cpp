// detail/exact_sum.hpp: exact sums rounded once, against a reference that is exact on its domain
// (__float128 sums of doubles spanning at most 41 binary orders of magnitude, at most 2^10 terms:
// 41 + 53 + 10 < 113 bits, so every partial sum is exact and the one rounding to double is correct), and
// independent of the order of the terms.
#include "assay/detail/exact_sum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace assay::detail {
namespace {

TEST(ExactSum, MatchesAnExactReferenceAndIgnoresOrder) {
  std::mt19937_64 g(3);
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> e(-20, 20);
  for (int trial = 0; trial < 300; ++trial) {
    const int lo = trial % 3 == 0 ? -1060 : trial % 3 == 1 ? -20 : 900;  // subnormal, middle, near overflow
    std::vector<double> x(1 + trial % 1000);
    __float128 ref = 0;
    for (auto& v : x) {
      v = std::ldexp(u(g), lo + 30 + e(g));
      ref += v;
    }
    const double want = static_cast<double>(ref);
    exact_sum s;
    for (double v : x) s.add(v);
    EXPECT_EQ(s.value(), want) << "trial " << trial;
    std::shuffle(x.begin(), x.end(), g);
    exact_sum a, b;
    for (std::size_t i = 0; i < x.size(); ++i) (i % 2 ? a : b).add(x[i]);
    b.add(a);
    EXPECT_EQ(b.value(), want) << "trial " << trial;
  }
}

TEST(ExactSum, KnownValues) {
  exact_sum s;
  double naive = 0;
  for (int i = 0; i < 10; ++i) s.add(0.1), naive += 0.1;
  EXPECT_EQ(s.value(), 1.0);  // 10 x the double 0.1 = 1 + 5.55e-17: rounds to 1
  EXPECT_NE(naive, 1.0);      // the running sum does not
  exact_sum t;
  t.add(1e308);
  t.add(1e308);
  EXPECT_TRUE(std::isinf(t.value()));
  exact_sum tiny;
  tiny.add(4.9406564584124654e-324);
  tiny.add(4.9406564584124654e-324);
  EXPECT_EQ(tiny.value(), 2 * 4.9406564584124654e-324);
  exact_sum ties;  // 2^53 + 1: a tie, rounds to even (2^53)
  ties.add(9007199254740992.0);
  ties.add(1.0);
  EXPECT_EQ(ties.value(), 9007199254740992.0);
  ties.add(1.0);  // 2^53 + 2: exact
  EXPECT_EQ(ties.value(), 9007199254740994.0);
  exact_sum neg;  // a negative term: a plain sum from then on, never a silently wrong exact one
  neg.add(1.0);
  neg.add(-0.25);
  EXPECT_EQ(neg.value(), 0.75);
  EXPECT_FALSE(neg.exact_double());
}

// chunked_sum and binned_sum are the same exact sum by other routes: against the __float128
// reference on its domain, and against exact_sum (value and exact_double) on terms spread over the
// whole double range, subnormals and the largest doubles included; a negative or non-finite term
// switches either to a plain sum exactly as it switches exact_sum.
template <class Sum>
void matches_the_reference_and_exact_sum() {
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> e(-20, 20);
  for (int trial = 0; trial < 300; ++trial) {
    const int lo = trial % 3 == 0 ? -1060 : trial % 3 == 1 ? -20 : 900;
    std::vector<double> x(1 + trial % 1000);
    __float128 ref = 0;
    for (auto& v : x) {
      v = std::ldexp(u(g), lo + 30 + e(g));
      ref += v;
    }
    Sum c;
    for (double v : x) c.add(v);
    EXPECT_EQ(c.result().value(), static_cast<double>(ref)) << "trial " << trial;
  }
  std::uniform_int_distribution<int> any_exp(-1074, 1020);
  for (int trial = 0; trial < 300; ++trial) {
    exact_sum s;
    Sum c;
    const int terms = 1 + trial * 7;
    for (int k = 0; k < terms; ++k) {
      const double v = trial % 4 == 0 ? std::ldexp(1.0, any_exp(g)) * (1 + u(g)) : std::ldexp(u(g), any_exp(g) / 4);
      s.add(v);
      c.add(v);
    }
    const exact_sum r = c.result();
    EXPECT_EQ(r.value(), s.value()) << "trial " << trial;
    EXPECT_EQ(r.exact_double(), s.exact_double()) << "trial " << trial;
  }
  for (double bad : {-1.0, std::nan(""), HUGE_VAL}) {
    exact_sum s;
    Sum c;
    for (double v : {0.1, 0.2, bad, 0.3}) {
      s.add(v);
      c.add(v);
    }
    const double a = s.value(), b = c.result().value();
    EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << bad;
    EXPECT_FALSE(c.result().exact_double());
  }
}

// The counter of one exponent overflows its 64-bit low word after about 2^11 significands near 2^53;
// the carries must be kept (the sum of n copies of (2^53 - 1) 2^k is exact in __float128 up to 2^60
// copies). Reading the sum twice, and adding after a read, give the running exact sum.
template <class Sum>
void keeps_the_carries_of_one_exponent() {
  for (const int k : {-1074 + 0, -1022 - 52 + 1, -40, 0, 900}) {
    const double v = std::ldexp(9007199254740991.0, k);  // 2^53 - 1 at unit 2^k (subnormal for the first)
    if (!(v > 0)) continue;
    Sum c;
    __float128 ref = 0;
    for (int n = 0; n < 100000; ++n) {
      c.add(v);
      ref += v;
    }
    EXPECT_EQ(c.result().value(), static_cast<double>(ref)) << "k = " << k;
    EXPECT_EQ(c.result().value(), static_cast<double>(ref)) << "k = " << k << ", read twice";
    c.add(std::ldexp(1.0, k + 3));
    ref += std::ldexp(1.0, k + 3);
    EXPECT_EQ(c.result().value(), static_cast<double>(ref)) << "k = " << k << ", added after a read";
  }
}

TEST(ChunkedSum, MatchesTheReferenceAndExactSum) { matches_the_reference_and_exact_sum<chunked_sum>(); }
TEST(BinnedSum, MatchesTheReferenceAndExactSum) { matches_the_reference_and_exact_sum<binned_sum>(); }
TEST(ChunkedSum, KeepsTheCarriesAndCanBeReadTwice) { keeps_the_carries_of_one_exponent<chunked_sum>(); }
TEST(BinnedSum, KeepsTheCarriesOfOneExponentAndCanBeReadTwice) { keeps_the_carries_of_one_exponent<binned_sum>(); }

TEST(SignedExactSum, MatchesIntegerArithmeticAndIgnoresOrder) {
  // Terms k * 2^-20 with |k| < 2^40 of both signs: their sum is exact in 64-bit integers.
  std::mt19937_64 g(9);
  for (int rep = 0; rep < 200; ++rep) {
    std::vector<double> x;
    std::int64_t exact = 0;
    const int n = 1 + static_cast<int>(g() % 300);
    for (int i = 0; i < n; ++i) {
      const auto k = static_cast<std::int64_t>(g() % (std::uint64_t{1} << 40)) - (std::int64_t{1} << 39);
      exact += k;
      x.push_back(std::ldexp(static_cast<double>(k), -20));
    }
    signed_exact_sum a;
    for (double v : x) a.add(v);
    EXPECT_EQ(a.value(), std::ldexp(static_cast<double>(exact), -20));  // exact integers below 2^53
    // Terms of every size: any order gives the same bits; the difference of the parts is exact.
    std::vector<double> y;
    for (int i = 0; i < n; ++i) y.push_back(std::ldexp(std::uniform_real_distribution<double>(-1, 1)(g),
                                                       static_cast<int>(g() % 120) - 60));
    signed_exact_sum b, c;
    for (double v : y) b.add(v);
    std::shuffle(y.begin(), y.end(), g);
    for (double v : y) c.add(v);
    EXPECT_EQ(b.value(), c.value());
  }
  signed_exact_sum d;  // 1e16 + 1 - 1e16: naive left-to-right floating sums give 0
  d.add(1e16);
  d.add(1.0);
  d.add(-1e16);
  EXPECT_EQ(d.value(), 1.0);
  signed_exact_sum e;
  e.add(-2.5);
  e.add(1.0);
  EXPECT_EQ(e.value(), -1.5);
}

}  // namespace
}  // namespace assay::detail
