// table_symmetry_test: R's mcnemar.test of a K x K table (McNemar with R's continuity correction for
// 2 x 2, Bowker for K > 2), by hand; caret's "Mcnemar's Test P-Value" replay is in
// tests/report/caret_replay_test.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "assay/error.hpp"
#include "assay/stats/tests.hpp"

namespace assay::stats {
namespace {

TEST(TableSymmetryTest, TwoByTwoCorrectedAsR) {
  // n01 = 10, n10 = 4: (|10 - 4| - 1)^2 / 14 = 25/14; chi-square(1) upper tail = erfc(sqrt(x / 2)).
  const std::vector<double> t{20, 10, 4, 30};
  const test_result r = table_symmetry_test(t, 2);
  EXPECT_EQ(r.method, "mcnemar_chi2_corrected");
  EXPECT_DOUBLE_EQ(r.statistic, 25.0 / 14);
  EXPECT_NEAR(r.p_value, std::erfc(std::sqrt(25.0 / 14 / 2)), 1e-14);
  EXPECT_EQ(r.df, 1);
}

TEST(TableSymmetryTest, TwoByTwoSymmetricDropsTheCorrection) {
  const std::vector<double> t{20, 5, 5, 30};
  const test_result r = table_symmetry_test(t, 2);
  EXPECT_EQ(r.method, "mcnemar_chi2");
  EXPECT_EQ(r.statistic, 0);
  EXPECT_EQ(r.p_value, 1);
}

TEST(TableSymmetryTest, BowkerByHand) {
  // Pairs: (0,1) 6 vs 2 -> 16/8 = 2; (0,2) 3 vs 1 -> 4/4 = 1; (1,2) 4 vs 4 -> 0. Sum 3 on 3 df;
  // chi-square(3) upper tail of x: erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2).
  const std::vector<double> t{10, 6, 3, 2, 12, 4, 1, 4, 9};
  const test_result r = table_symmetry_test(t, 3);
  EXPECT_EQ(r.method, "bowker");
  EXPECT_DOUBLE_EQ(r.statistic, 3.0);
  EXPECT_EQ(r.df, 3);
  const double x = 3.0, want = std::erfc(std::sqrt(x / 2)) + std::sqrt(2 * x / M_PI) * std::exp(-x / 2);
  EXPECT_NEAR(r.p_value, want, 1e-14);
}

TEST(TableSymmetryTest, PairNeverConfusedIsNaNAsR) {
  const std::vector<double> t{10, 0, 3, 0, 12, 4, 1, 4, 9};
  EXPECT_TRUE(std::isnan(table_symmetry_test(t, 3).p_value));
  const std::vector<double> perfect{10, 0, 0, 12};
  EXPECT_TRUE(std::isnan(table_symmetry_test(perfect, 2).p_value));
}

TEST(TableSymmetryTest, BadTableThrows) {
  const std::vector<double> t{1, 2, 3};
  try {
    table_symmetry_test(t, 2);
    FAIL();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "table_symmetry_test: the table has 3 entries; it must be K x K with K >= 2 (K = 2)");
  }
  const std::vector<double> neg{1, -2, 3, 4};
  try {
    table_symmetry_test(neg, 2);
    FAIL();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "table_symmetry_test: entry [0, 1] is -2; entries must be finite and >= 0");
  }
}

}  // namespace
}  // namespace assay::stats
