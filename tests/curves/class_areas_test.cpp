// Per-class ROC and PR areas (areas_one_vs_rest), the complementary sweep (complement) and the
// complementary summary (summarize_in_place's class 0): a hand-worked 3-class example, a hand-worked
// binary score, and random scores with ties against a naive second sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "assay/curves/multiclass.hpp"
#include "assay/error.hpp"
#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/curves/summary.hpp"
#include "assay/curves/sweep.hpp"

namespace assay::curves {
namespace {

// Six cases, two per class. By hand, class against the rest:
// class 0: positives score {0.6, 0.4}, negatives {0.3, 0.5, 0.2, 0.1}: 0.6 beats 4, 0.4 beats 3 of 8
//   pairs, AUC 7/8; walking down, 0.6 (P: precision 1, recall 1/2), 0.5 (N), 0.4 (P: 2/3, recall 1),
//   AP = 1/2 * 1 + 1/2 * 2/3 = 5/6.
// class 1: positives {0.5, 0.2}, negatives {0.3, 0.4, 0.3, 0.2}: 0.5 beats 4, 0.2 ties 1 (1/2), AUC
//   4.5/8; 0.5 (P: 1, recall 1/2), 0.4, 0.3, 0.3 (N), 0.2 (P and N tied: 2/6, recall 1), AP = 2/3.
// class 2: positives {0.5, 0.7} above every negative {0.1, 0.2, 0.2, 0.3}: AUC 1, AP 1.
TEST(ClassAreas, HandWorkedThreeClasses) {
  const std::vector<std::int32_t> y{0, 0, 1, 1, 2, 2};
  const std::vector<double> p{0.6, 0.3, 0.1,  //
                              0.4, 0.4, 0.2,  //
                              0.3, 0.5, 0.2,  //
                              0.5, 0.2, 0.3,  //
                              0.2, 0.3, 0.5,  //
                              0.1, 0.2, 0.7};
  const auto a = areas_one_vs_rest(y, proba_view::matrix(p, 3));
  ASSERT_EQ(a.size(), 3u);
  EXPECT_DOUBLE_EQ(a[0].roc_auc.v, 7.0 / 8);
  EXPECT_DOUBLE_EQ(a[0].average_precision.v, 5.0 / 6);
  EXPECT_DOUBLE_EQ(a[1].roc_auc.v, 4.5 / 8);
  EXPECT_DOUBLE_EQ(a[1].average_precision.v, 2.0 / 3);
  EXPECT_DOUBLE_EQ(a[2].roc_auc.v, 1.0);
  EXPECT_DOUBLE_EQ(a[2].average_precision.v, 1.0);
  // The macro mean of the per-class AUCs is the one-vs-rest multiclass AUC.
  EXPECT_DOUBLE_EQ(roc_auc_ovr(y, proba_view::matrix(p, 3)).v, (7.0 / 8 + 4.5 / 8 + 1.0) / 3);
}

TEST(ClassAreas, ClassWithoutCasesIsUndefined) {
  const std::vector<std::int32_t> y{0, 0, 1, 1};
  const std::vector<double> p{0.6, 0.3, 0.1, 0.4, 0.4, 0.2, 0.3, 0.5, 0.2, 0.5, 0.2, 0.3};
  const auto a = areas_one_vs_rest(y, proba_view::matrix(p, 3));
  EXPECT_FALSE(a[2].roc_auc.defined());
  EXPECT_EQ(a[2].roc_auc.reason, "only one class present: no positive cases");
  EXPECT_FALSE(a[2].average_precision.defined());
  EXPECT_TRUE(a[0].roc_auc.defined());
}

TEST(ClassAreas, BadInputThrowsNamingTheFunction) {
  const std::vector<std::int32_t> y{0, 3};
  const std::vector<double> p{0.6, 0.4, 0.5, 0.5};
  try {
    areas_one_vs_rest(y, proba_view::matrix(p, 2));
    FAIL();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "areas_one_vs_rest: y[1] = 3 is not a class index in 0..1");
  }
}

// A binary score: y = 1, 0, 1, 0 with scores 0.9, 0.9, 0.4, 0.1. Class 1 by the score: pairs (0.9 vs
// 0.9 tie, 0.9 vs 0.1, 0.4 vs 0.9, 0.4 vs 0.1) give AUC 2.5/4; walking down, 0.9 (P and N: 1/2,
// recall 1/2), 0.4 (P: 2/3, recall 1): AP = 1/4 + 1/3 = 7/12. Class 0 by -score: the same AUC;
// -0.1 (its case: 1, recall 1/2), -0.4 (other), -0.9 (both: 2/4, recall 1): AP = 1/2 + 1/4 = 3/4.
TEST(ClassAreas, HandWorkedBinaryScoreBothClasses) {
  const std::vector<std::int32_t> y{1, 0, 1, 0};
  const std::vector<double> s{0.9, 0.9, 0.4, 0.1};
  const auto a = areas_one_vs_rest(y, proba_view::scores(s));
  EXPECT_DOUBLE_EQ(a[1].roc_auc.v, 0.625);
  EXPECT_DOUBLE_EQ(a[1].average_precision.v, 7.0 / 12);
  EXPECT_DOUBLE_EQ(a[0].roc_auc.v, 0.625);
  EXPECT_DOUBLE_EQ(a[0].average_precision.v, 0.75);
}

// complement(sweep(y, s, w)) against the naive second sweep of (1 - y, -s, w): equal entry by entry,
// exactly for integer weights, on random scores with many ties (and zeros of both signs).
TEST(ClassAreas, ComplementEqualsSweepOfTheReversedProblem) {
  std::mt19937_64 g(7);
  for (int rep = 0; rep < 50; ++rep) {
    const std::size_t n = 1 + g() % 300;
    std::vector<std::int32_t> y(n), y0(n);
    std::vector<double> s(n), neg(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(g() % 2);
      y0[i] = 1 - y[i];
      s[i] = static_cast<double>(static_cast<int>(g() % 9) - 4) / 4;  // ties, and 0.0
      if (g() % 5 == 0) s[i] = -0.0;
      neg[i] = -s[i];
      w[i] = static_cast<double>(g() % 4);  // zeros too
    }
    for (const bool weighted : {false, true}) {
      const std::span<const double> ws = weighted ? std::span<const double>(w) : std::span<const double>();
      const score_sweep c = complement(sweep_scores("test", y, s, ws));
      const score_sweep want = sweep_scores("test", y0, neg, ws);
      ASSERT_EQ(c.thresholds, want.thresholds) << rep;
      ASSERT_EQ(c.tp, want.tp) << rep;
      ASSERT_EQ(c.fp, want.fp) << rep;
      EXPECT_EQ(c.positives, want.positives);
      EXPECT_EQ(c.negatives, want.negatives);
    }
  }
}

// summarize_in_place's summary of class 0 equals the sweep functions of (1 - y, -s).
TEST(ClassAreas, ComplementSummaryEqualsSweepOfTheReversedProblem) {
  std::mt19937_64 g(11);
  for (int rep = 0; rep < 50; ++rep) {
    const std::size_t n = 1 + g() % 300;
    std::vector<std::int32_t> y(n), y0(n);
    std::vector<double> s(n), neg(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(g() % 3 == 0);
      y0[i] = 1 - y[i];
      s[i] = static_cast<double>(g() % 13) / 12;
      neg[i] = -s[i];
    }
    std::vector<std::int32_t> y2 = y;
    std::vector<double> s2 = s;
    const ranking_areas got = summarize_in_place(y2, s2).negative;
    const score_sweep want = sweep_scores("test", y0, neg);
    const value auc = roc_auc(want), ap = average_precision(want);
    ASSERT_EQ(got.roc_auc.defined(), auc.defined()) << rep;
    if (auc.defined()) EXPECT_EQ(got.roc_auc.v, auc.v) << rep;
    ASSERT_EQ(got.average_precision.defined(), ap.defined()) << rep;
    if (ap.defined()) EXPECT_EQ(got.average_precision.v, ap.v) << rep;
  }
}

}  // namespace
}  // namespace assay::curves
