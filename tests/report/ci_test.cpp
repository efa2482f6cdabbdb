// assay report --ci: which method serves which number, and that the intervals are right.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include <unistd.h>

#include "assay/error.hpp"
#include "assay/report/report.hpp"
#include "assay/stats/asymptotic.hpp"
#include "assay/stats/delong.hpp"
#include "assay/stats/proportion.hpp"

namespace assay {
namespace {

std::string source_path(const std::string& rel) { return std::string(ASSAY_SOURCE_DIR) + "/" + rel; }

const metric_result& find(const report& r, const std::string& name) {
  for (const auto& m : r.metrics)
    if (m.name == name) return m;
  throw std::runtime_error("no metric " + name);
}

report_request breast(double level) {
  report_request q;
  q.path = source_path("examples/breast_cancer_predictions.csv");
  q.label = "diagnosis";
  q.score = "p_malignant";
  q.pos_label = "malignant";
  q.ci_level = level;
  return q;
}

TEST(ReportCi, ProportionsUseTheirOwnNumeratorAndDenominator) {
  for (auto [method, pm] : {std::pair{ci_method::automatic, stats::proportion_method::wilson},
                            std::pair{ci_method::normal, stats::proportion_method::normal},
                            std::pair{ci_method::clopper_pearson, stats::proportion_method::clopper_pearson}}) {
    report_request q = breast(0.9);
    q.ci = method;
    const report r = make_report(q);
    const binary_counts c = binary_counts::one_vs_rest(r.cm, *r.positive);
    // By hand from the counts: (metric, successes, trials).
    const std::vector<std::tuple<std::string, double, double>> expected{
        {"accuracy", c.tp + c.tn, c.total()}, {"precision", c.tp, c.tp + c.fp}, {"recall", c.tp, c.tp + c.fn},
        {"specificity", c.tn, c.tn + c.fp},   {"npv", c.tn, c.tn + c.fn},       {"fpr", c.fp, c.fp + c.tn},
        {"fnr", c.fn, c.fn + c.tp},           {"error_rate", c.fp + c.fn, c.total()},
        {"prevalence", c.tp + c.fn, c.total()}};
    for (const auto& [name, x, n] : expected) {
      const auto& m = find(r, name);
      ASSERT_TRUE(m.ci) << name;
      const auto want = stats::proportion_ci(x, n, 0.9, pm);
      EXPECT_EQ(m.ci->lower.v, want.lower) << name;
      EXPECT_EQ(m.ci->upper.v, want.upper) << name;
      EXPECT_EQ(m.ci->method, stats::to_string(pm)) << name;
    }
    EXPECT_FALSE(find(r, "tp").ci) << "counts have no interval";
    EXPECT_FALSE(find(r, "best_threshold_f1").ci);
  }
}

TEST(ReportCi, RocAucUsesDeLong) {
  const report r = make_report(breast(0.95));
  const auto& m = find(r, "roc_auc");
  ASSERT_TRUE(m.ci);
  EXPECT_EQ(m.ci->method, "delong");
  EXPECT_LE(m.ci->lower.v, m.v.v);
  EXPECT_GE(m.ci->upper.v, m.v.v);
  EXPECT_GT(m.ci->upper.v - m.ci->lower.v, 0.001);
}

TEST(ReportCi, BootstrapIsReproducibleForASeedAndChangesWithIt) {
  report_request q = breast(0.95);
  q.bootstrap_replicates = 500;
  q.ci = ci_method::bootstrap;  // log loss and AP are bootstrapped only when asked
  const report a = make_report(q), b = make_report(q);
  q.seed = 1;
  const report c = make_report(q);
  for (const char* name : {"f1", "matthews_corrcoef", "log_loss", "brier_score_loss", "roc_auc", "average_precision"}) {
    ASSERT_TRUE(find(a, name).ci) << name;
    EXPECT_EQ(find(a, name).ci->lower.v, find(b, name).ci->lower.v) << name;
    EXPECT_EQ(find(a, name).ci->upper.v, find(b, name).ci->upper.v) << name;
    EXPECT_NE(find(a, name).ci->lower.v, find(c, name).ci->lower.v) << name;
  }
}

// Which method the automatic choice gives each number that is not a proportion, and that the
// closed-form intervals are the library's (stats/asymptotic.hpp) on the same inputs.
TEST(ReportCi, AutomaticMethodsOfLossesAndAveragePrecision) {
  const report r = make_report(breast(0.95));
  EXPECT_EQ(find(r, "log_loss").ci->method, "normal, from the variance of the per-row losses");
  EXPECT_EQ(find(r, "brier_score_loss").ci->method, "normal, from the variance of the per-row losses");
  EXPECT_EQ(find(r, "average_precision").ci->method, "logit (Boyd et al. 2013)");
  EXPECT_EQ(find(r, "f1").ci->method, "bootstrap percentile, stratified by class, 2000 replicates");
  const binary_counts c = binary_counts::one_vs_rest(r.cm, *r.positive);
  const auto& ap = find(r, "average_precision");
  const auto want = stats::average_precision_logit_ci(ap.v.v, c.tp + c.fn, 0.95);
  EXPECT_EQ(ap.ci->lower.v, want.lower.v);
  EXPECT_EQ(ap.ci->upper.v, want.upper.v);
  for (const char* name : {"log_loss", "brier_score_loss", "average_precision"}) {
    EXPECT_LT(find(r, name).ci->lower.v, find(r, name).v.v) << name;
    EXPECT_GT(find(r, name).ci->upper.v, find(r, name).v.v) << name;
  }
  report_request q = breast(0.95);
  q.ci = ci_method::bootstrap;
  q.bootstrap_replicates = 300;
  const report b = make_report(q);
  for (const char* name : {"log_loss", "brier_score_loss", "roc_auc", "average_precision"}) {
    EXPECT_EQ(find(b, name).ci->method, "poisson bootstrap percentile, 300 replicates") << name;
  }
}

// The multinomial shortcut must agree with the Poisson bootstrap that weights force: with weights of 1
// the two intervals differ only by Monte Carlo error and by stratification (the multinomial draw keeps
// the class counts, the Poisson weights do not), which at 569 cases moves F1's or MCC's percentiles
// by far less than the Monte Carlo error allowed here.
TEST(ReportCi, MultinomialBootstrapAgreesWithRowBootstrap) {
  const auto path = (std::filesystem::temp_directory_path() / ("assay_ci_unit_weights_" + std::to_string(::getpid()) + ".csv")).string();
  {
    std::ifstream in(source_path("examples/breast_cancer_predictions.csv"));
    std::ofstream out(path);
    std::string line;
    std::getline(in, line);
    out << line << ",w\n";
    while (std::getline(in, line)) out << line << ",1\n";
  }
  report_request q = breast(0.95);
  const report fast = make_report(q);
  q.path = path;
  q.weight = "w";
  const report rows = make_report(q);
  for (const char* name : {"f1", "matthews_corrcoef", "balanced_accuracy", "cohen_kappa"}) {
    const auto& f = *find(fast, name).ci;
    const auto& s = *find(rows, name).ci;
    const double width = f.upper.v - f.lower.v;
    // 2000 replicates each: the 2.5% quantile's Monte Carlo error is ~3% of the width; 15% is ~5 sd.
    EXPECT_NEAR(f.lower.v, s.lower.v, 0.15 * width) << name;
    EXPECT_NEAR(f.upper.v, s.upper.v, 0.15 * width) << name;
  }
  std::remove(path.c_str());
}

// Coverage of the multinomial bootstrap for accuracy (--ci-method bootstrap) on simulated data with a
// known true accuracy of 0.8: 300 data sets of 200 cases. Percentile intervals cover ~94-95%; with
// 300 trials the standard error is 1.3%, so [0.89, 0.99] fails with probability < 1e-4 if correct.
TEST(ReportCi, BootstrapCoverageOfAKnownAccuracy) {
  const auto path = (std::filesystem::temp_directory_path() / ("assay_ci_coverage_" + std::to_string(::getpid()) + ".csv")).string();
  std::mt19937_64 gen(2026);
  int covered = 0;
  const int trials = 300;
  for (int t = 0; t < trials; ++t) {
    {
      std::ofstream out(path);
      out << "y,p\n";
      for (int i = 0; i < 200; ++i) {
        const int y = static_cast<int>(gen() % 2);
        const bool right = std::uniform_real_distribution<double>(0, 1)(gen) < 0.8;
        out << y << ',' << (right ? y : 1 - y) << '\n';
      }
    }
    report_request q;
    q.path = path;
    q.label = "y";
    q.pred = "p";
    q.ci_level = 0.95;
    q.ci = ci_method::bootstrap;
    q.bootstrap_replicates = 400;
    q.seed = static_cast<std::uint64_t>(t);
    const report r = make_report(q);
    const auto& ci = *find(r, "accuracy").ci;
    covered += (ci.lower.v <= 0.8 && 0.8 <= ci.upper.v) ? 1 : 0;
  }
  std::remove(path.c_str());
  const double coverage = static_cast<double>(covered) / trials;
  EXPECT_GE(coverage, 0.89);
  EXPECT_LE(coverage, 0.99);
}

TEST(ReportCi, RegressionAndUndefinedValues) {
  report_request q;
  q.path = source_path("examples/diabetes_predictions.csv");
  q.task = task_kind::regression;
  q.label = "progression";
  q.pred = "predicted";
  q.ci_level = 0.95;
  q.bootstrap_replicates = 300;
  const report r = make_report(q);
  for (const auto& m : r.metrics) {
    ASSERT_TRUE(m.ci) << m.name;
    EXPECT_LE(m.ci->lower.v, m.ci->upper.v) << m.name;
  }
}

TEST(ReportCi, BadLevelIsAUsageError) {
  report_request q = breast(1.5);
  try {
    make_report(q);
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::usage);
    EXPECT_EQ(std::string(e.what()), "make_report: ci_level: the level is 1.5, but must be between 0 and 1 (e.g. 0.95)");
  }
}

}  // namespace
}  // namespace assay
