// The multiclass AUCs of assay report (roc_auc_ovr_* / roc_auc_ovo_*) and their (Poisson) bootstrap intervals:
// the point values equal curves::roc_auc_ovr / roc_auc_ovo, the interval does not depend on the
// thread count, and its coverage is checked by simulation with a declared failure probability.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "assay/curves/roc.hpp"
#include "assay/data/predictions.hpp"
#include "assay/report/report.hpp"
#include "assay/threads.hpp"

namespace assay {
namespace {

const metric_result& find(const report& r, const std::string& name) {
  for (const auto& m : r.metrics)
    if (m.name == name) return m;
  throw std::runtime_error("no metric " + name);
}

// n cases of 3 classes (shares 0.5, 0.3, 0.2); p = softmax(mu [y = k] + N(0, 1)).
struct sample {
  std::vector<double> y, p;
};
sample draw(std::mt19937_64& g, std::size_t n, double mu) {
  std::discrete_distribution<int> cls{0.5, 0.3, 0.2};
  std::normal_distribution<double> z;
  sample s;
  for (std::size_t i = 0; i < n; ++i) {
    const int c = cls(g);
    s.y.push_back(c);
    double e[3], sum = 0;
    for (int k = 0; k < 3; ++k) sum += e[k] = std::exp(mu * (k == c) + z(g));
    for (int k = 0; k < 3; ++k) s.p.push_back(e[k] / sum);
  }
  return s;
}

TEST(MulticlassAucCi, PointValuesAreTheCurveKernelsAndIntervalsIgnoreThreads) {
  std::mt19937_64 g(3);
  const sample s = draw(g, 120, 1.0);
  evaluate_options o;
  o.ci_level = 0.95;
  o.replicates = 400;
  o.seed = 9;
  const report r = evaluate(predictions_from_proba(s.y, s.p), o);
  std::vector<std::int32_t> yi(s.y.begin(), s.y.end());
  const proba_view pv = proba_view::matrix(s.p, 3);
  EXPECT_EQ(find(r, "roc_auc_ovr_macro").v.v, curves::roc_auc_ovr(yi, pv).v);
  EXPECT_EQ(find(r, "roc_auc_ovr_weighted").v.v, curves::roc_auc_ovr(yi, pv, {}, curves::multiclass_average::weighted).v);
  EXPECT_EQ(find(r, "roc_auc_ovo_macro").v.v, curves::roc_auc_ovo(yi, pv).v);
  EXPECT_EQ(find(r, "roc_auc_ovo_weighted").v.v, curves::roc_auc_ovo(yi, pv, {}, curves::multiclass_average::weighted).v);
  for (const char* name : {"roc_auc_ovr_macro", "roc_auc_ovr_weighted", "roc_auc_ovo_macro", "roc_auc_ovo_weighted"}) {
    const auto& m = find(r, name);
    ASSERT_TRUE(m.ci && m.ci->lower.defined() && m.ci->upper.defined()) << name;
    EXPECT_EQ(m.ci->method, "poisson bootstrap percentile, 400 replicates");
    EXPECT_LT(m.ci->lower.v, m.v.v) << name;
    EXPECT_GT(m.ci->upper.v, m.v.v) << name;
  }
  thread_limit one(1);
  const report r1 = evaluate(predictions_from_proba(s.y, s.p), o);
  EXPECT_EQ(find(r1, "roc_auc_ovr_macro").ci->lower.v, find(r, "roc_auc_ovr_macro").ci->lower.v);
  EXPECT_EQ(find(r1, "roc_auc_ovo_weighted").ci->upper.v, find(r, "roc_auc_ovo_weighted").ci->upper.v);
}

// Coverage of the 90% interval of roc_auc_ovr_macro at n = 150 over 100 simulated data sets, against
// the population value (a sample of 200000). The percentile bootstrap of an AUC covers about 0.87-0.90
// here; the test fails below 0.78: with a true coverage of 0.87 that is 2.7 binomial standard errors
// (sd 0.034), a failure probability below 0.5% (and the seeds are fixed, so the outcome is too).
TEST(MulticlassAucCi, CoverageBySimulation) {
  std::mt19937_64 g(20261126);
  const sample big = draw(g, 200000, 1.0);
  std::vector<std::int32_t> yb(big.y.begin(), big.y.end());
  const double truth = curves::roc_auc_ovr(yb, proba_view::matrix(big.p, 3)).v;
  int covered = 0;
  const int sets = 100;
  evaluate_options o;
  o.ci_level = 0.90;
  o.replicates = 200;
  for (int d = 0; d < sets; ++d) {
    const sample s = draw(g, 150, 1.0);
    o.seed = static_cast<std::uint64_t>(d);
    const report r = evaluate(predictions_from_proba(s.y, s.p), o);
    const auto& ci = *find(r, "roc_auc_ovr_macro").ci;
    covered += ci.lower.v <= truth && truth <= ci.upper.v;
  }
  std::printf("multiclass AUC 90%% interval: covered %d of %d (population AUC %.4f)\n", covered, sets, truth);
  EXPECT_GE(covered, 78) << "covered " << covered << " of " << sets << " (truth " << truth << ")";
}

}  // namespace
}  // namespace assay
