// ROC and AUC: a 10-case worked example (from course notes, checked by hand), a naive O(n^2) pairwise AUC on random inputs with
// heavy ties and weights, invariances, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/error.hpp"

namespace assay::curves {
namespace {

// Seed 000, "Plotting ROC curve": 10 instances sorted by confidence, with their classes.
//   Ex 9 .99 +, Ex 7 .98 +, Ex 1 .72 -, Ex 2 .70 +, Ex 6 .65 +, Ex 10 .51 -, Ex 3 .39 -, Ex 5 .24 +,
//   Ex 4 .11 -, Ex 8 .01 -
// The notes' algorithm gives TPR = 2/5, FPR = 0/5; 4/5, 1/5; 5/5, 3/5; 5/5, 5/5.
const std::vector<std::int32_t> seed_y{1, 1, 0, 1, 1, 0, 0, 1, 0, 0};
const std::vector<double> seed_s{.99, .98, .72, .70, .65, .51, .39, .24, .11, .01};

TEST(Roc, SeedLectureExample) {
  const roc_curve_result r = roc_curve_corners(sweep_scores("test", seed_y, seed_s));
  const std::vector<double> fpr{0, 0, 0.2, 0.6, 1}, tpr{0, 0.4, 0.8, 1, 1};
  EXPECT_EQ(r.fpr, fpr);
  EXPECT_EQ(r.tpr, tpr);
  EXPECT_EQ(r.thresholds[1], .98);
  EXPECT_EQ(r.thresholds[2], .65);
  EXPECT_EQ(r.thresholds[3], .24);
  // Presented in another order, the result is the same.
  std::vector<std::int32_t> y(seed_y.rbegin(), seed_y.rend());
  std::vector<double> s(seed_s.rbegin(), seed_s.rend());
  const roc_curve_result r2 = roc_curve_corners(sweep_scores("test", y, s));
  EXPECT_EQ(r2.fpr, fpr);
  EXPECT_EQ(r2.tpr, tpr);
}

TEST(Roc, SeedExampleFullCurveAndAuc) {
  const score_sweep sw = sweep_scores("test", seed_y, seed_s);
  const roc_curve_result full = roc_curve(sw);
  EXPECT_EQ(full.fpr.size(), 11u);  // origin + 10 distinct scores
  // Pairs: positive above negative counted by hand: .99 and .98 beat 5 negatives each, .70 and .65
  // beat 4, .24 beats 2: 20 of 25.
  EXPECT_EQ(roc_auc(sw).v, 20.0 / 25);
  const roc_curve_result dropped = roc_curve(sw, {true, first_threshold::infinity});
  // Corners (0,.4) (.2,.4) (.2,.8) (.6,.8) (.6,1) (1,1), plus the first threshold's point (0,.2),
  // which scikit-learn's rule always keeps, plus the origin: 8 points.
  EXPECT_EQ(dropped.fpr, (std::vector<double>{0, 0, 0, 0.2, 0.2, 0.6, 0.6, 1}));
  EXPECT_EQ(dropped.tpr, (std::vector<double>{0, 0.2, 0.4, 0.4, 0.8, 0.8, 1, 1}));
}

TEST(Roc, TiesMakeDiagonal) {
  // One positive and one negative tied at 0.5: a single diagonal step from (0,0) to (1,1).
  const roc_curve_result r = roc_curve(std::vector<std::int32_t>{1, 0}, std::vector<double>{0.5, 0.5});
  EXPECT_EQ(r.fpr, (std::vector<double>{0, 1}));
  EXPECT_EQ(r.tpr, (std::vector<double>{0, 1}));
  EXPECT_EQ(roc_auc(std::vector<std::int32_t>{1, 0}, std::vector<double>{0.5, 0.5}).v, 0.5);
}

// sum over positive-negative pairs of w+ w- ([s+ > s-] + [s+ = s-] / 2) / (W+ W-).
double naive_auc(const std::vector<std::int32_t>& y, const std::vector<double>& s, const std::vector<double>& w) {
  double num = 0, pos = 0, neg = 0;
  for (std::size_t i = 0; i < y.size(); ++i) (y[i] ? pos : neg) += w[i];
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!y[i]) continue;
    for (std::size_t j = 0; j < y.size(); ++j) {
      if (y[j]) continue;
      num += w[i] * w[j] * (s[i] > s[j] ? 1.0 : s[i] == s[j] ? 0.5 : 0.0);
    }
  }
  return num / pos / neg;
}

// 2000 random inputs (fixed seed) of 2..60 cases with 1..6 distinct scores and integer or real
// weights, some 0. Deterministic: cannot fail by chance.
TEST(Roc, AucEqualsNaivePairCountWithTies) {
  std::mt19937_64 rng(12345);
  int compared = 0;
  for (int rep = 0; rep < 2000; ++rep) {
    const std::size_t n = 2 + rng() % 59;
    const int levels = 1 + static_cast<int>(rng() % 6);
    std::vector<std::int32_t> y(n);
    std::vector<double> s(n), w(n), ones(n, 1.0);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(rng() % 2);
      s[i] = static_cast<double>(rng() % levels) * 0.1 - 0.2;
      w[i] = rep % 2 ? static_cast<double>(rng() % 4) : std::uniform_real_distribution<double>(0, 2)(rng);
    }
    for (const auto* wv : {&ones, &w}) {
      const score_sweep sw = sweep_scores("test", y, s, *wv);
      const value a = roc_auc(sw);
      if (sw.positives == 0 || sw.negatives == 0) {
        EXPECT_FALSE(a.defined());
        continue;
      }
      ASSERT_TRUE(a.defined());
      EXPECT_NEAR(a.v, naive_auc(y, s, *wv), 1e-12) << "rep " << rep;
      // AUC(y, -s) = 1 - AUC(y, s).
      std::vector<double> neg(n);
      for (std::size_t i = 0; i < n; ++i) neg[i] = -s[i];
      EXPECT_NEAR(roc_auc(y, neg, *wv).v, 1 - a.v, 1e-12);
      // Invariance to a strictly increasing transform: AUC, AP and the curves' rates do not change.
      std::vector<double> t(n);
      for (std::size_t i = 0; i < n; ++i) t[i] = std::exp(3 * s[i]) + 7;
      const score_sweep st = sweep_scores("test", y, t, *wv);
      EXPECT_EQ(roc_auc(st).v, a.v);
      EXPECT_EQ(average_precision(st).v, average_precision(sw).v);
      EXPECT_EQ(roc_curve(st).tpr, roc_curve(sw).tpr);
      EXPECT_EQ(roc_curve(st).fpr, roc_curve(sw).fpr);
      // Full AUC as the McClish-free partial AUC over [0, 1].
      EXPECT_NEAR(partial_auc_fpr(sw, 0, 1, false).v, a.v, 1e-12);
      EXPECT_NEAR(partial_auc_tpr(sw, 0, 1, false).v, a.v, 1e-12);
      // Partial areas over a split range add up.
      EXPECT_NEAR(partial_auc_fpr(sw, 0, 0.3, false).v + partial_auc_fpr(sw, 0.3, 1, false).v, a.v, 1e-12);
      ++compared;
    }
  }
  EXPECT_GT(compared, 3000);
}

TEST(Roc, OneClassIsUndefinedButCurveWritten) {
  const std::vector<std::int32_t> y{1, 1, 1};
  const std::vector<double> s{0.1, 0.4, 0.4};
  const value a = roc_auc(y, s);
  EXPECT_FALSE(a.defined());
  EXPECT_NE(a.reason.find("only one class"), std::string::npos);
  const roc_curve_result r = roc_curve(y, s);
  EXPECT_FALSE(r.undefined.empty());
  EXPECT_EQ(r.tpr, (std::vector<double>{0, 2.0 / 3, 1}));
  EXPECT_TRUE(std::isnan(r.fpr[1]));
  EXPECT_FALSE(average_precision(std::vector<std::int32_t>{0, 0}, std::vector<double>{0.1, 0.2}).defined());
}

TEST(Roc, BadInputIsRefusedWithItsIndex) {
  const std::vector<std::int32_t> y{1, 0, 1};
  try {
    roc_auc(y, std::vector<double>{0.1, std::nan(""), 0.3});
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::data);
    EXPECT_NE(std::string(e.what()).find("score[1]"), std::string::npos) << e.what();
  }
  EXPECT_THROW(roc_auc(y, std::vector<double>{0.1, INFINITY, 0.3}), error);
  EXPECT_THROW(roc_auc(y, std::vector<double>{0.1, 0.2}), error);
  EXPECT_THROW(roc_auc(std::vector<std::int32_t>{1, 2}, std::vector<double>{0.1, 0.2}), error);
  EXPECT_THROW(roc_auc(y, std::vector<double>{0.1, 0.2, 0.3}, std::vector<double>{1, -1, 1}), error);
  const score_sweep sw = sweep_scores("test", y, std::vector<double>{0.1, 0.2, 0.3});
  EXPECT_THROW(partial_auc_fpr(sw, 0.5, 0.5), error);  // empty range
  EXPECT_THROW(partial_auc_fpr(sw, 0, 1.5), error);
  EXPECT_THROW(partial_auc_tpr(sw, 0.6, 0.2), error);
  EXPECT_THROW(roc_curve_corners(sweep_scores("test", std::vector<std::int32_t>{1}, std::vector<double>{0.5})), error);
}

TEST(Roc, MulticlassRowsMustSumToOne) {
  const std::vector<std::int32_t> y{0, 1, 2};
  const std::vector<double> p{0.5, 0.3, 0.2, 0.1, 0.8, 0.1, 0.3, 0.3, 0.3};  // last row sums to 0.9
  try {
    roc_auc_ovr(y, proba_view::matrix(p, 3));
    FAIL();
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("row 2"), std::string::npos) << e.what();
  }
  // A class without cases makes the one-vs-rest AUC undefined.
  const std::vector<double> q{0.5, 0.3, 0.2, 0.1, 0.8, 0.1, 0.4, 0.3, 0.3};
  EXPECT_FALSE(roc_auc_ovr(std::vector<std::int32_t>{0, 1, 1}, proba_view::matrix(q, 3)).defined());
  EXPECT_TRUE(roc_auc_ovr(y, proba_view::matrix(q, 3)).defined());
}

TEST(Roc, McClishBounds) {
  // A perfect ranking has standardised partial AUC 1; a reversed one 0.5 - ... at most 0.5 (below chance).
  const std::vector<std::int32_t> y{0, 0, 1, 1};
  const score_sweep good = sweep_scores("test", y, std::vector<double>{1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(partial_auc_fpr(good, 0, 0.2).v, 1.0);
  EXPECT_DOUBLE_EQ(partial_auc_tpr(good, 0.8, 1).v, 1.0);
  const score_sweep chance = sweep_scores("test", y, std::vector<double>{1, 1, 1, 1});
  EXPECT_DOUBLE_EQ(partial_auc_fpr(chance, 0.1, 0.4).v, 0.5);
  EXPECT_DOUBLE_EQ(partial_auc_tpr(chance, 0.1, 0.4).v, 0.5);
}

}  // namespace
}  // namespace assay::curves

#include "assay/metrics/registry.hpp"

namespace assay::curves {
namespace {

TEST(Registry, RankingMetricsAreRegistered) {
  const std::vector<std::int32_t> y{1, 1, 0, 1, 1, 0, 0, 1, 0, 0};
  const std::vector<double> s{.99, .98, .72, .70, .65, .51, .39, .24, .11, .01};
  const metric_info* auc = find_metric("roc_auc", metric_kind::ranking);
  const metric_info* ap = find_metric("average_precision", metric_kind::ranking);
  ASSERT_NE(auc, nullptr);
  ASSERT_NE(ap, nullptr);
  EXPECT_EQ(auc->ranking(y, s, {}, {}).v, 0.8);
  // AP by hand: recall steps of 1/5 at ranks 1, 2, 4, 5, 8 with precision 1, 1, 3/4, 4/5, 5/8.
  EXPECT_NEAR(ap->ranking(y, s, {}, {}).v, (1 + 1 + 0.75 + 0.8 + 0.625) / 5, 1e-15);
}

}  // namespace
}  // namespace assay::curves

namespace assay::curves {
namespace {

// Per-class curves and weights: unit weights change nothing, and each one-vs-rest curve's AUC is the
// binary AUC of that class.
TEST(Roc, MulticlassCurvesAndUnitWeights) {
  const std::vector<std::int32_t> y{0, 1, 2, 1, 0, 2, 2};
  const std::vector<double> p{.6, .3, .1, .2, .5, .3, .2, .2, .6, .4, .4, .2, .3, .3, .4, .1, .1, .8, .3, .4, .3};
  const proba_view pv = proba_view::matrix(p, 3);
  const std::vector<double> ones(7, 1.0);
  for (auto avg : {multiclass_average::macro, multiclass_average::weighted}) {
    EXPECT_EQ(roc_auc_ovr(y, pv, ones, avg).v, roc_auc_ovr(y, pv, {}, avg).v);
    EXPECT_EQ(roc_auc_ovo(y, pv, ones, avg).v, roc_auc_ovo(y, pv, {}, avg).v);
  }
  const auto curves = roc_curves_ovr(y, pv);
  ASSERT_EQ(curves.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    std::vector<std::int32_t> yk(7);
    std::vector<double> sk(7);
    for (std::size_t i = 0; i < 7; ++i) yk[i] = y[i] == static_cast<std::int32_t>(k), sk[i] = p[i * 3 + k];
    EXPECT_EQ(curves[k].tpr, roc_curve(yk, sk).tpr);
  }
}

}  // namespace
}  // namespace assay::curves
