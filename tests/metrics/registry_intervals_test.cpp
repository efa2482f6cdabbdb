// The interval traits of the metric registry (metric_info::interval and what each method reads): every
// row the report can hold declares the method of the table in docs/definitions/intervals.md, written
// out here by hand from that table (not read from the registry), and the data each method needs agrees
// with the metric it serves: a proportion's x / n is the metric, a mean of row losses is the metric.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "assay/curves/summary.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/metrics/registry.hpp"

namespace assay {
namespace {

using im = interval_method;

std::string kind_name(metric_kind k) {
  switch (k) {
    case metric_kind::binary: return "binary";
    case metric_kind::multiclass: return "multiclass";
    case metric_kind::probabilistic: return "probabilistic";
    case metric_kind::ranking: return "ranking";
    case metric_kind::regression: return "regression";
  }
  return "?";
}

std::string key(const metric_info& m) { return kind_name(m.kind) + "/" + std::string(m.name); }

// docs/definitions/intervals.md, row by row: the automatic method of every row of a report.
const std::map<std::string, im>& documented() {
  static const std::map<std::string, im> table = [] {
    std::map<std::string, im> t;
    for (const char* n : {"tp", "fp", "fn", "tn"}) t[std::string("binary/") + n] = im::none;
    for (const char* n : {"accuracy", "error_rate", "precision", "recall", "specificity", "fpr", "fnr", "npv", "prevalence"})
      t[std::string("binary/") + n] = im::proportion;
    for (const char* n : {"accuracy", "error_rate"}) t[std::string("multiclass/") + n] = im::proportion;
    for (const char* n : {"f1", "fbeta", "balanced_accuracy", "matthews_corrcoef", "cohen_kappa"})
      t[std::string("binary/") + n] = im::bootstrap;
    for (const char* n : {"balanced_accuracy", "matthews_corrcoef", "cohen_kappa", "precision_micro", "recall_micro",
                          "f1_micro", "precision_macro", "recall_macro", "f1_macro", "precision_weighted",
                          "recall_weighted", "f1_weighted"})
      t[std::string("multiclass/") + n] = im::bootstrap;
    t["probabilistic/log_loss"] = im::normal_mean;
    t["probabilistic/brier_score_loss"] = im::normal_mean;
    t["probabilistic/top_k_accuracy"] = im::bootstrap;
    for (const char* n : {"roc_auc_ovr_macro", "roc_auc_ovr_weighted", "roc_auc_ovo_macro", "roc_auc_ovo_weighted"})
      t[std::string("probabilistic/") + n] = im::bootstrap;
    t["ranking/roc_auc"] = im::delong;
    t["ranking/average_precision"] = im::logit;
    t["ranking/best_threshold_youden"] = im::none;
    t["ranking/best_threshold_f1"] = im::none;
    for (const char* n : {"mean_absolute_error", "mean_squared_error", "mean_poisson_deviance", "mean_gamma_deviance"})
      t[std::string("regression/") + n] = im::normal_mean;
    for (const char* n : {"root_mean_squared_error", "mean_absolute_percentage_error", "mean_squared_percentage_error",
                          "root_mean_squared_percentage_error", "r2", "explained_variance", "median_absolute_error",
                          "max_error"})
      t[std::string("regression/") + n] = im::bootstrap;
    return t;
  }();
  return table;
}

// Every row a report can hold: the registry, the ranking rows of a binary score, the multiclass AUCs.
std::vector<const metric_info*> report_rows() {
  std::vector<const metric_info*> out;
  std::set<std::string> seen;
  auto add = [&](const metric_info* m) {
    if (seen.insert(key(*m)).second) out.push_back(m);
  };
  for (const auto& m : metric_registry()) add(&m);
  for (const auto* m : ranking_rows()) add(m);
  for (const auto& m : multiclass_auc_rows()) add(&m);
  return out;
}

TEST(RegistryIntervals, EveryRowDeclaresTheDocumentedMethod) {
  std::set<std::string> listed;
  for (const auto& [k, method] : documented()) listed.insert(k);
  for (const metric_info* m : report_rows()) {
    const auto it = documented().find(key(*m));
    ASSERT_NE(it, documented().end()) << key(*m) << " has no row in docs/definitions/intervals.md (add it there and here)";
    EXPECT_EQ(static_cast<int>(m->interval), static_cast<int>(it->second)) << key(*m) << ": interval trait";
    listed.erase(key(*m));
  }
  EXPECT_TRUE(listed.empty()) << "documented but not a row of any report: " << *listed.begin();
}

TEST(RegistryIntervals, EveryMethodHasWhatItReads) {
  for (const metric_info* m : report_rows()) {
    switch (m->interval) {
      case im::proportion:
        EXPECT_TRUE(m->kind == metric_kind::binary ? m->binary_proportion != nullptr
                                                   : m->multiclass_proportion != nullptr)
            << key(*m) << " is a proportion without its counts";
        break;
      case im::normal_mean:
        if (m->kind == metric_kind::regression) {
          EXPECT_NE(m->row_loss, nullptr) << key(*m) << " is a mean of row losses without its row loss";
        } else {
          EXPECT_EQ(m->kind, metric_kind::probabilistic) << key(*m);
          EXPECT_NE(m->proba_losses, nullptr) << key(*m);
          EXPECT_NE(m->proba_loss, nullptr) << key(*m);
        }
        break;
      case im::delong:
      case im::logit: EXPECT_EQ(m->kind, metric_kind::ranking) << key(*m); break;
      default: break;
    }
  }
  // The ranking rows read the sweep and the streaming summary; ROC AUC first, then AP (the
  // per-class areas are read at those places).
  const auto& rows = ranking_rows();
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]->interval, im::delong);
  EXPECT_EQ(rows[1]->interval, im::logit);
  for (const auto* m : rows) {
    EXPECT_NE(m->from_sweep, nullptr) << key(*m);
    EXPECT_NE(m->from_summary, nullptr) << key(*m);
  }
}

// x / n of a proportion's counts is the metric itself, on random tables (n > 0).
TEST(RegistryIntervals, ProportionCountsGiveTheMetric) {
  std::mt19937_64 gen(5);
  std::uniform_int_distribution<int> cell(0, 9);
  std::size_t checked = 0;
  for (int t = 0; t < 200; ++t) {
    binary_counts c{static_cast<double>(cell(gen)), static_cast<double>(cell(gen)), static_cast<double>(cell(gen)),
                    static_cast<double>(cell(gen))};
    confusion_matrix cm(3);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) cm.add(i, j, cell(gen));
    for (const auto& m : metric_registry()) {
      if (m.interval != im::proportion) continue;
      const proportion_counts xn = m.kind == metric_kind::binary ? m.binary_proportion(c) : m.multiclass_proportion(cm);
      const value v = m.kind == metric_kind::binary ? m.binary(c, {}) : m.multiclass(cm, {});
      if (xn.n == 0) continue;
      ASSERT_TRUE(v.defined()) << key(m);
      EXPECT_NEAR(xn.x / xn.n, v.v, 1e-15) << key(m);
      ++checked;
    }
  }
  EXPECT_GT(checked, 1500u);
}

// The mean of a normal_mean entry's row losses is the metric itself.
TEST(RegistryIntervals, RowLossesAverageToTheMetric) {
  std::mt19937_64 gen(9);
  std::uniform_real_distribution<double> u(0.05, 3.0);
  std::vector<double> y(50), yhat(50);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = u(gen), yhat[i] = u(gen);
  std::vector<std::int32_t> cls(50);
  std::vector<double> p(50 * 3);
  for (std::size_t i = 0; i < cls.size(); ++i) {
    cls[i] = static_cast<std::int32_t>(i % 3);
    double sum = 0;
    for (std::size_t k = 0; k < 3; ++k) sum += p[i * 3 + k] = u(gen);
    for (std::size_t k = 0; k < 3; ++k) p[i * 3 + k] /= sum;
  }
  const proba_view pv = proba_view::matrix(p, 3);
  std::size_t checked = 0;
  for (const auto& m : metric_registry()) {
    if (m.interval != im::normal_mean) continue;
    double mean = 0;
    value v;
    if (m.kind == metric_kind::regression) {
      for (std::size_t i = 0; i < y.size(); ++i) mean += m.row_loss(y[i], yhat[i]) / static_cast<double>(y.size());
      v = m.regression(y, yhat, {}, {});
    } else {
      const std::vector<double> l = m.proba_losses(cls, pv);
      for (std::size_t i = 0; i < l.size(); ++i) {
        mean += l[i] / static_cast<double>(l.size());
        EXPECT_DOUBLE_EQ(l[i], m.proba_loss(pv, i, static_cast<std::size_t>(cls[i]))) << key(m) << " row " << i;
      }
      v = m.probabilistic(cls, pv, {}, {});
    }
    ASSERT_TRUE(v.defined()) << key(m);
    EXPECT_NEAR(mean, v.v, 1e-12 * (1 + std::abs(v.v))) << key(m);
    ++checked;
  }
  EXPECT_EQ(checked, 6u);  // MAE, MSE, the mean Poisson and Gamma deviances, log loss, Brier score
}

}  // namespace
}  // namespace assay
