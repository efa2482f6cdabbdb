// evaluate_options::metrics: a report asked for one row holds that row, with the number, reason and
// interval of the whole report's row, for every row of every kind of report (binary scores with and
// without weights, intervals and the bootstrap; predicted classes; class probabilities; regression).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "assay/report/report.hpp"

using namespace assay;

namespace {

struct table_case {
  std::string name;
  prediction_table (*make)();
  evaluate_options options;
};

std::vector<double> labels01(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> y(n);
  for (auto& v : y) v = static_cast<double>(rng() % 2);
  return y;
}

// Scores with ties (rounded to 0.05), related to the label.
std::vector<double> scores(const std::vector<double>& y, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> s(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) s[i] = std::round(20 * (0.6 * u(rng) + 0.4 * y[i])) / 20;
  return s;
}

std::vector<double> weights(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> w(n);
  for (auto& v : w) v = static_cast<double>(rng() % 4) / 2;
  return w;
}

prediction_table binary_scores() {
  const auto y = labels01(400, 1);
  return predictions_from_scores(y, scores(y, 2));
}

prediction_table weighted_scores() {
  const auto y = labels01(400, 3);
  static const std::vector<double> w = weights(400, 4);  // the options hold a view
  prediction_options o;
  o.sample_weight = w;
  return predictions_from_scores(y, scores(y, 5), o);
}

prediction_table predicted_classes() {
  std::mt19937_64 rng(6);
  std::vector<std::string> y(300), p(300);
  const char* names[] = {"a", "b", "c"};
  for (std::size_t i = 0; i < y.size(); ++i) {
    y[i] = names[rng() % 3];
    p[i] = rng() % 3 == 0 ? names[rng() % 3] : y[i];
  }
  return predictions_from_labels(y, p);
}

prediction_table class_probabilities() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.05, 1);
  const std::size_t n = 300, K = 3;
  std::vector<double> y(n), p(n * K);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = static_cast<double>(rng() % K);
    double sum = 0;
    for (std::size_t k = 0; k < K; ++k) sum += p[i * K + k] = u(rng) + (k == y[i] ? 0.5 : 0.0);
    for (std::size_t k = 0; k < K; ++k) p[i * K + k] /= sum;
  }
  return predictions_from_proba(y, p, {"0", "1", "2"});
}

prediction_table regression() {
  std::mt19937_64 rng(8);
  std::gamma_distribution<double> g(2.0, 1.0);
  std::vector<double> y(300), yhat(300);
  for (std::size_t i = 0; i < y.size(); ++i) {
    y[i] = g(rng);
    yhat[i] = y[i] * (0.7 + 0.6 * std::generate_canonical<double, 53>(rng));
  }
  return predictions_from_values(y, yhat);
}

evaluate_options with_ci(ci_method m = ci_method::automatic) {
  evaluate_options o;
  o.ci_level = 0.9;
  o.ci_method = m;
  o.replicates = 200;
  o.seed = 17;
  return o;
}

void expect_same_value(const value& got, const value& want, const std::string& what) {
  EXPECT_EQ(got.defined(), want.defined()) << what;
  EXPECT_EQ(got.reason, want.reason) << what;
  if (got.defined() && want.defined()) EXPECT_EQ(got.v, want.v) << what;
}

}  // namespace

TEST(RequestedRows, EachRowAloneEqualsTheWholeReportsRow) {
  const std::vector<table_case> cases = {
      {"binary scores", binary_scores, {}},
      {"binary scores, intervals", binary_scores, with_ci()},
      {"binary scores, bootstrap", binary_scores, with_ci(ci_method::bootstrap)},
      {"weighted scores", weighted_scores, {}},
      {"weighted scores, intervals", weighted_scores, with_ci()},
      {"predicted classes", predicted_classes, {}},
      {"class probabilities", class_probabilities, {}},
      {"predicted classes, intervals", predicted_classes, with_ci()},
      {"class probabilities, intervals", class_probabilities, with_ci()},
      {"regression", regression, {}},
      {"regression, intervals", regression, with_ci()},
      {"regression, bootstrap", regression, with_ci(ci_method::bootstrap)},
  };
  std::size_t rows = 0;
  for (const auto& c : cases) {
    const report whole = evaluate(c.make(), c.options);
    ASSERT_GT(whole.metrics.size(), 3u) << c.name;
    for (const metric_result& want : whole.metrics) {
      evaluate_options one = c.options;
      one.metrics = {want.name};
      const report got = evaluate(c.make(), one);
      const std::string what = c.name + ": " + want.name;
      ASSERT_EQ(got.metrics.size(), 1u) << what;
      EXPECT_EQ(got.metrics[0].name, want.name) << what;
      EXPECT_EQ(got.metrics[0].title, want.title) << what;
      expect_same_value(got.metrics[0].v, want.v, what);
      ASSERT_EQ(got.metrics[0].ci.has_value(), want.ci.has_value()) << what;
      if (want.ci) {
        expect_same_value(got.metrics[0].ci->lower, want.ci->lower, what + " lower");
        expect_same_value(got.metrics[0].ci->upper, want.ci->upper, what + " upper");
        EXPECT_EQ(got.metrics[0].ci->method, want.ci->method) << what;
      }
      ++rows;
    }
  }
  EXPECT_GT(rows, 100u);
}

TEST(RequestedRows, SeveralRowsKeepTheReportsOrder) {
  evaluate_options o;
  o.metrics = {"roc_auc", "f1", "accuracy"};
  const report r = evaluate(binary_scores(), o);
  ASSERT_EQ(r.metrics.size(), 3u);
  EXPECT_EQ(r.metrics[0].name, "accuracy");
  EXPECT_EQ(r.metrics[1].name, "f1");
  EXPECT_EQ(r.metrics[2].name, "roc_auc");
}

TEST(RequestedRows, AnUnknownNameIsRefusedByName) {
  evaluate_options o;
  o.metrics = {"f1", "roc_acu"};
  try {
    evaluate(binary_scores(), o);
    FAIL() << "no error";
  } catch (const assay::error& e) {
    EXPECT_STREQ(e.what(), "evaluate: metrics names 'roc_acu', which is not a row of any report");
    EXPECT_EQ(e.kind(), error_kind::usage);
  }
}
