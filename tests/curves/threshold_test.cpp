// Threshold choice, cost curves and rejection curves on the lecture notes' 10-instance example
// (seed 000), each expected value worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>

#include "assay/curves/calibration.hpp"
#include "assay/curves/threshold.hpp"
#include "assay/error.hpp"
#include "assay/metrics/probabilistic.hpp"

namespace assay::curves {
namespace {

// Ranks: .99+ .98+ .72- .70+ .65+ .51- .39- .24+ .11- .01-; P = N = 5.
const std::vector<std::int32_t> y{1, 1, 0, 1, 1, 0, 0, 1, 0, 0};
const std::vector<double> s{.99, .98, .72, .70, .65, .51, .39, .24, .11, .01};

TEST(Threshold, BestOperatingPoints) {
  const score_sweep sw = sweep_scores("test", y, s);
  // J: the corner (FPR .2, TPR .8) at .65 gives .6, every other point <= .4.
  const operating_point j = best_youden(sw);
  EXPECT_EQ(j.threshold, .65);
  EXPECT_NEAR(j.criterion.v, 0.6, 1e-15);
  EXPECT_EQ(j.fpr, 0.2);
  EXPECT_EQ(j.tpr, 0.8);
  // Nearest (0, 1): (.2, .8) at distance sqrt(.08); (0, .4) and (.6, 1) are at .6.
  const operating_point c = best_closest_to_corner(sw);
  EXPECT_EQ(c.threshold, .65);
  EXPECT_NEAR(c.criterion.v, std::sqrt(0.08), 1e-15);
  // F1: 2*4/(8+1+1) = .8 at .65; 10/13 at .24.
  const operating_point f = best_fbeta(sw, 1);
  EXPECT_EQ(f.threshold, .65);
  EXPECT_NEAR(f.criterion.v, 0.8, 1e-15);
  // F2 favours recall: at .24 (TP 5, FP 3) F2 = 5*5/(5*5 + 0 + 3) = 25/28 beats .65's 20/(20+4+1) = .8.
  EXPECT_EQ(best_fbeta(sw, 2).threshold, .24);
}

TEST(Threshold, MinimumExpectedCost) {
  const score_sweep sw = sweep_scores("test", y, s);
  // cost(FN) = 10, cost(FP) = 1, test prior: at .24 FN = 0, FP = 3 -> 3/10 per case; at .65 (FN 1,
  // FP 1) 11/10; everything positive (.01): 5/10.
  const operating_point a = min_expected_cost(sw, {1, 10, 0, 0, std::nullopt});
  EXPECT_EQ(a.threshold, .24);
  EXPECT_NEAR(a.criterion.v, 0.3, 1e-15);
  EXPECT_EQ(a.counts.fp, 3);
  // Deployment prior 0.1: .65 costs .1*.2*10 + .9*.2 = .38; .24 costs .9*.6 = .54; .98 costs .6.
  const operating_point b = min_expected_cost(sw, {1, 10, 0, 0, 0.1});
  EXPECT_EQ(b.threshold, .65);
  EXPECT_NEAR(b.criterion.v, 0.38, 1e-15);
  // A benefit for TP (negative cost) is allowed; a negative cost(FP) is not.
  EXPECT_NO_THROW(min_expected_cost(sw, {1, 1, -1, 0, std::nullopt}));
  EXPECT_THROW(min_expected_cost(sw, {-1, 1, 0, 0, std::nullopt}), error);
  EXPECT_THROW(min_expected_cost(sw, {1, 1, 0, 0, 1.5}), error);
  // One class: undefined, with the reason.
  const score_sweep one = sweep_scores("test", std::vector<std::int32_t>{1, 1}, std::vector<double>{.2, .3});
  EXPECT_FALSE(min_expected_cost(one, {}).criterion.defined());
  EXPECT_FALSE(best_youden(one).criterion.defined());
}

TEST(Threshold, MetricVsThreshold) {
  const threshold_table t = threshold_counts(sweep_scores("test", y, s));
  ASSERT_EQ(t.thresholds.size(), 11u);
  EXPECT_TRUE(std::isinf(t.thresholds[0]));
  const std::vector<value> f1 = metric_vs_threshold(t, "f1");
  EXPECT_EQ(f1[0].v, 0.0);               // nothing positive: 0 / (0 + 0 + 5)
  EXPECT_EQ(f1[5].v, 0.8);               // >= .65
  EXPECT_EQ(f1[8].v, 10.0 / 13);         // >= .24
  const std::vector<value> prec = metric_vs_threshold(t, "precision");
  EXPECT_FALSE(prec[0].defined());       // 0/0 when nothing is positive
  EXPECT_EQ(prec[3].v, 2.0 / 3);
  EXPECT_THROW(metric_vs_threshold(t, "no_such_metric"), error);
}

TEST(Threshold, CostCurveEnvelope) {
  // ROC hull (0,.4) (.2,.8) (.6,1) (1,1). Lines cross at pc = dF/(dF+dT): 1/3 (cost .6/3 = .2) and
  // 2/3 (cost .2/3 + .2/3 = .2); the last edge is horizontal and meets the end (1, 0).
  const cost_curve_result r = cost_curve(sweep_scores("test", y, s));
  ASSERT_EQ(r.envelope_pc.size(), 4u);
  EXPECT_EQ(r.envelope_pc[0], 0);
  EXPECT_EQ(r.envelope_cost[0], 0);
  EXPECT_NEAR(r.envelope_pc[1], 1.0 / 3, 1e-15);
  EXPECT_NEAR(r.envelope_cost[1], 0.2, 1e-15);
  EXPECT_NEAR(r.envelope_pc[2], 2.0 / 3, 1e-15);
  EXPECT_NEAR(r.envelope_cost[2], 0.2, 1e-15);
  EXPECT_EQ(r.envelope_pc[3], 1);
  EXPECT_EQ(r.envelope_cost[3], 0);
  EXPECT_EQ(r.line_fpr.size(), 11u);
}

TEST(Threshold, RejectionCurveBinary) {
  // Threshold .5; confidence |s - .5| ascending: .01 (.51-, wrong), .11 (.39-, right), .15 (.65+,
  // right), .20 (.70+, right), .22 (.72-, wrong), .26 (.24+, wrong), ...; 7 of 10 right overall.
  const rejection_curve_result r = rejection_curve(y, s, {}, 0.5);
  const std::vector<double> rej{0, .1, .2, .3, .4, .5, .6};
  const std::vector<double> acc{.7, 7.0 / 9, 6.0 / 8, 5.0 / 7, 4.0 / 6, 4.0 / 5, 1};
  ASSERT_GE(r.rejected.size(), rej.size());
  for (std::size_t k = 0; k < rej.size(); ++k) {
    EXPECT_NEAR(r.rejected[k], rej[k], 1e-15) << k;
    EXPECT_NEAR(r.accuracy[k], acc[k], 1e-15) << k;
  }
}

TEST(Threshold, RejectionCurveMulticlassMargin) {
  // Margins .6 (right), .1 (wrong), .3 (right): reject .1 first.
  const std::vector<std::int32_t> yy{0, 2, 1};
  const std::vector<double> p{.7, .1, .2, .5, .4, .1, .2, .5, .3};
  const rejection_curve_result r = rejection_curve_multiclass(yy, proba_view::matrix(p, 3));
  ASSERT_EQ(r.rejected.size(), 3u);
  EXPECT_NEAR(r.accuracy[0], 2.0 / 3, 1e-15);
  EXPECT_NEAR(r.rejected[1], 1.0 / 3, 1e-15);
  EXPECT_EQ(r.accuracy[1], 1.0);
}

TEST(Calibration, BrierDecompositionIsExact) {
  // BS = REL - RES + UNC holds exactly for grouping by distinct forecast; compare with the Brier score
  // of the metrics library on the same data (weighted).
  const std::vector<std::int32_t> yy{1, 0, 1, 1, 0, 0, 1, 0};
  const std::vector<double> p{.8, .8, .6, .6, .6, .2, .2, .1};
  const std::vector<double> w{1, 2, 1, 1, 0.5, 1, 3, 1};
  const brier_decomposition d = brier_decompose(yy, p, w);
  EXPECT_NEAR(d.brier.v, brier_score(yy, proba_view::scores(p), w).v, 1e-15);
  EXPECT_NEAR(d.reliability.v - d.resolution.v + d.uncertainty.v, d.brier.v, 1e-15);
  // By hand, unweighted: forecasts .8 (1 of 2), .6 (2 of 3), .2 (1 of 2), .1 (0 of 1); o = 4/8.
  const brier_decomposition u = brier_decompose(yy, p);
  const double rel = (2 * 0.09 + 3 * (0.6 - 2.0 / 3) * (0.6 - 2.0 / 3) + 2 * 0.09 + 0.01) / 8;
  const double res = (0 + 3 * (2.0 / 3 - 0.5) * (2.0 / 3 - 0.5) + 0 + 0.25) / 8;
  EXPECT_NEAR(u.reliability.v, rel, 1e-15);
  EXPECT_NEAR(u.resolution.v, res, 1e-15);
  EXPECT_EQ(u.uncertainty.v, 0.25);
}

TEST(Calibration, EceAndBadInput) {
  // Two bins of 5 uniform bins hold cases: [.1, .1] with 0 of 2 positive, [.9, .9, .9] with 3 of 3.
  const std::vector<std::int32_t> yy{0, 0, 1, 1, 1};
  const std::vector<double> p{.1, .1, .9, .9, .9};
  EXPECT_NEAR(expected_calibration_error(yy, p, {}, 5).v, (2 * 0.1 + 3 * 0.1) / 5, 1e-15);
  EXPECT_THROW(reliability_curve(yy, std::vector<double>{.1, .1, .9, 1.2, .9}), error);
  EXPECT_THROW(reliability_curve(yy, p, {}, 0), error);
}

}  // namespace
}  // namespace assay::curves
