// Differential test: replays every case of sklearn_cases.json (written by generate_sklearn.py with
// scikit-learn 1.2.1) through assay's library API and its metric registry.
//
// Tolerance: relative 1e-12 with an absolute floor of 1e-15 (see reference_util.hpp). A value that
// is 0/0 in sklearn is null in the file and must be undefined in assay.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/metrics/classification.hpp"
#include "assay/metrics/confusion.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/metrics/registry.hpp"
#include "assay/metrics/regression.hpp"
#include "reference/reference_util.hpp"

namespace assay::reference {
namespace {

const json& cases() {
  static const json j = load_json(reference_path("sklearn_cases.json"));
  return j;
}

std::vector<double> weights_of(const json& c) {
  if (c.at("weight").is_null()) return {};
  return c.at("weight").get<std::vector<double>>();
}

value registry_binary(std::string_view name, const binary_counts& bc, const metric_params& p = {}) {
  const metric_info* m = find_metric(name, metric_kind::binary);
  if (m == nullptr) throw std::runtime_error("no binary metric " + std::string(name));
  return m->binary(bc, p);
}
value registry_multiclass(std::string_view name, const confusion_matrix& cm, const metric_params& p = {}) {
  const metric_info* m = find_metric(name, metric_kind::multiclass);
  if (m == nullptr) throw std::runtime_error("no multiclass metric " + std::string(name));
  return m->multiclass(cm, p);
}

TEST(SklearnReplay, FileIsFromTheStatedPeer) {
  EXPECT_EQ(cases().at("versions").at("sklearn"), "1.2.1");
  EXPECT_EQ(cases().at("tolerance").at("relative").get<double>(), relative_tolerance);
  EXPECT_EQ(cases().at("tolerance").at("absolute").get<double>(), absolute_tolerance);
}

// The comparison itself can fail: a value off by 1e-11 relative, or a made-up number where sklearn
// has 0/0, is caught.
TEST(SklearnReplay, ComparisonRejectsWrongValues) {
  EXPECT_TRUE(close(0.3, 0.3 * (1 + 5e-13)));
  EXPECT_FALSE(close(0.3, 0.3 * (1 + 1e-11)));
  EXPECT_FALSE(close(1e-14, 0.0));
  EXPECT_TRUE(close(1e-16, 0.0));
  const double saved = max_relative_difference();
  EXPECT_NONFATAL_FAILURE(expect_value(value(0.0), json(nullptr), "x"), "null expected");
  EXPECT_NONFATAL_FAILURE(expect_value(value(0.5), json(0.5000001), "x"), "vs sklearn");
  max_relative_difference() = saved;  // the deliberate miss above is not a measurement
}

TEST(SklearnReplay, Classification) {
  const json& all = cases().at("classification");
  ASSERT_EQ(all.size(), 26u);  // the generator's case list; a file that lost cases must not pass
  const std::size_t before = comparisons();
  std::size_t binary_cases = 0, weighted_cases = 0, with_nulls = 0;
  for (const json& c : all) {
    const std::string name = c.at("name");
    SCOPED_TRACE(name);
    const auto labels = c.at("labels").get<std::vector<std::string>>();
    const auto y_true = c.at("y_true").get<std::vector<std::string>>();
    const auto y_pred = c.at("y_pred").get<std::vector<std::string>>();
    const std::vector<double> w = weights_of(c);
    const json& e = c.at("expected");
    if (!w.empty()) ++weighted_cases;
    if (c.contains("sklearn_raw")) ++with_nulls;

    // Class order: assay's sort_labels must give sklearn's unique_labels order.
    std::vector<std::string> both = y_true;
    both.insert(both.end(), y_pred.begin(), y_pred.end());
    ASSERT_EQ(sort_labels(both), labels);
    auto index = [&](const std::vector<std::string>& v) {
      std::vector<std::int32_t> out;
      for (const auto& s : v) out.push_back(static_cast<std::int32_t>(std::find(labels.begin(), labels.end(), s) - labels.begin()));
      return out;
    };
    const std::size_t K = labels.size();
    const auto cm = confusion_matrix::from_labels(index(y_true), index(y_pred), K, w);

    for (std::size_t i = 0; i < K; ++i) {
      for (std::size_t j = 0; j < K; ++j) {
        expect_value(cm(i, j), e.at("confusion_matrix").at(i).at(j), "confusion_matrix[" + labels[i] + "][" + labels[j] + "]");
      }
    }
    expect_value(accuracy(cm), e.at("accuracy"), "accuracy");
    expect_value(balanced_accuracy(cm), e.at("balanced_accuracy"), "balanced_accuracy");
    expect_value(matthews_corrcoef(cm), e.at("matthews_corrcoef"), "matthews_corrcoef");
    expect_value(cohen_kappa(cm), e.at("cohen_kappa"), "cohen_kappa");
    for (const char* m : {"accuracy", "balanced_accuracy", "matthews_corrcoef", "cohen_kappa"}) {
      expect_value(registry_multiclass(m, cm), e.at(m), std::string("registry multiclass ") + m);
    }

    // Per class, one-vs-rest.
    const auto stats = per_class(cm);
    const json& pc = e.at("per_class");
    for (std::size_t k = 0; k < K; ++k) {
      const std::string at = " of class " + labels[k];
      const binary_counts ovr = binary_counts::one_vs_rest(cm, k);
      expect_value(stats[k].precision, pc.at("precision").at(k), "precision" + at);
      expect_value(stats[k].recall, pc.at("recall").at(k), "recall" + at);
      expect_value(stats[k].tp_rate, pc.at("recall").at(k), "tp_rate" + at);
      expect_value(stats[k].f1, pc.at("f1").at(k), "f1" + at);
      expect_value(stats[k].support, pc.at("support").at(k), "support" + at);
      expect_value(stats[k].fp_rate, pc.at("fp_rate").at(k), "fp_rate" + at);
      expect_value(stats[k].mcc, pc.at("matthews_corrcoef").at(k), "one-vs-rest matthews_corrcoef" + at);
      expect_value(fbeta(ovr, 0.5), pc.at("fbeta_0.5").at(k), "fbeta(0.5)" + at);
      expect_value(fbeta(ovr, 2.0), pc.at("fbeta_2").at(k), "fbeta(2)" + at);
      expect_value(specificity(ovr), pc.at("specificity").at(k), "specificity" + at);
    }

    // Averages under the three zero-division policies.
    const json& av = e.at("averages");
    const averaged micro = micro_average(cm);
    const struct {
      const char* key;
      averaged got;
      zero_division zd;
      bool weighted;
    } blocks[] = {
        {"macro", macro_average(cm, zero_division::zero), zero_division::zero, false},
        {"macro_zd1", macro_average(cm, zero_division::one), zero_division::one, false},
        {"macro_skip", macro_average(cm, zero_division::skip), zero_division::skip, false},
        {"weighted", weighted_average(cm, zero_division::zero), zero_division::zero, true},
        {"weighted_zd1", weighted_average(cm, zero_division::one), zero_division::one, true},
        {"weighted_skip", weighted_average(cm, zero_division::skip), zero_division::skip, true},
    };
    for (const char* key : {"micro", "micro_zd1"}) {
      expect_value(micro.precision, av.at(key).at("precision"), std::string(key) + " precision");
      expect_value(micro.recall, av.at(key).at("recall"), std::string(key) + " recall");
      expect_value(micro.f1, av.at(key).at("f1"), std::string(key) + " f1");
    }
    for (const char* m : {"precision", "recall", "f1"}) {
      expect_value(registry_multiclass(std::string(m) + "_micro", cm), av.at("micro").at(m), std::string("registry ") + m + "_micro");
    }
    for (const auto& b : blocks) {
      const json& want = av.at(b.key);
      expect_value(b.got.precision, want.at("precision"), std::string(b.key) + " precision");
      expect_value(b.got.recall, want.at("recall"), std::string(b.key) + " recall");
      expect_value(b.got.f1, want.at("f1"), std::string(b.key) + " f1");
      if (want.contains("fp_rate")) expect_value(b.got.fp_rate, want.at("fp_rate"), std::string(b.key) + " fp_rate");
      metric_params p;
      p.zd = b.zd;
      const std::string suffix = b.weighted ? "_weighted" : "_macro";
      for (const char* m : {"precision", "recall", "f1"}) {
        expect_value(registry_multiclass(m + suffix, cm, p), want.at(m), std::string("registry ") + m + suffix + " " + b.key);
      }
    }

    // Binary, seen from pos_label.
    if (c.at("pos_label").is_null()) continue;
    ++binary_cases;
    const std::string pos = c.at("pos_label");
    const auto it = std::find(labels.begin(), labels.end(), pos);
    ASSERT_NE(it, labels.end());
    const binary_counts bc = binary_counts::one_vs_rest(cm, static_cast<std::size_t>(it - labels.begin()));
    const json& b = e.at("binary");
    expect_value(bc.tp, b.at("tp"), "tp");
    expect_value(bc.fp, b.at("fp"), "fp");
    expect_value(bc.fn, b.at("fn"), "fn");
    expect_value(bc.tn, b.at("tn"), "tn");
    expect_value(precision(bc), b.at("precision"), "binary precision");
    expect_value(recall(bc), b.at("recall"), "binary recall");
    expect_value(f1(bc), b.at("f1"), "binary f1");
    expect_value(fbeta(bc, 0.5), b.at("fbeta_0.5"), "binary fbeta(0.5)");
    expect_value(fbeta(bc, 2.0), b.at("fbeta_2"), "binary fbeta(2)");
    expect_value(fbeta(bc, 3.7), b.at("fbeta_3.7"), "binary fbeta(3.7)");
    expect_value(specificity(bc), b.at("specificity"), "binary specificity");
    expect_value(npv(bc), b.at("npv"), "binary npv");
    expect_value(accuracy(bc), e.at("accuracy"), "binary accuracy");
    expect_value(balanced_accuracy(bc), e.at("balanced_accuracy"), "binary balanced_accuracy");
    expect_value(matthews_corrcoef(bc), e.at("matthews_corrcoef"), "binary matthews_corrcoef");
    expect_value(cohen_kappa(bc), e.at("cohen_kappa"), "binary cohen_kappa");
    for (const char* m : {"tp", "fp", "fn", "tn", "precision", "recall", "f1", "specificity", "npv"}) {
      expect_value(registry_binary(m, bc), b.at(m), std::string("registry binary ") + m);
    }
    for (const char* m : {"accuracy", "balanced_accuracy", "matthews_corrcoef", "cohen_kappa"}) {
      expect_value(registry_binary(m, bc), e.at(m), std::string("registry binary ") + m);
    }
    metric_params p;
    p.beta = 2.0;
    expect_value(registry_binary("fbeta", bc, p), b.at("fbeta_2"), "registry binary fbeta(2)");
  }
  EXPECT_EQ(binary_cases, 13u);
  EXPECT_EQ(weighted_cases, 7u);
  EXPECT_GE(with_nulls, 8u);  // cases where sklearn's 0 or nan must be assay's undefined
  EXPECT_GT(comparisons() - before, 2500u);
  log_comparisons(::testing::UnitTest::GetInstance()->current_test_info()->name(), comparisons() - before);
}

TEST(SklearnReplay, Probabilistic) {
  const json& all = cases().at("probabilistic");
  ASSERT_EQ(all.size(), 9u);
  const std::size_t before = comparisons();
  std::size_t top_k_checked = 0;
  for (const json& c : all) {
    const std::string name = c.at("name");
    SCOPED_TRACE(name);
    const auto y = c.at("y").get<std::vector<std::int32_t>>();
    const std::vector<double> w = weights_of(c);
    const json& e = c.at("expected");
    const auto K = c.at("classes").get<std::size_t>();
    std::vector<double> flat;
    proba_view pv;
    if (!c.at("score").is_null()) {
      flat = c.at("score").get<std::vector<double>>();
      pv = proba_view::scores(flat);
    } else {
      for (const auto& row : c.at("proba")) {
        ASSERT_EQ(row.size(), K);
        for (const auto& x : row) flat.push_back(x.get<double>());
      }
      pv = proba_view::matrix(flat, K);
    }
    ASSERT_EQ(pv.rows, y.size());
    expect_value(log_loss(y, pv, w), e.at("log_loss"), "log_loss");
    const json& brier = K == 2 ? e.at("brier_score_loss") : e.at("brier_multiclass");
    expect_value(brier_score(y, pv, w), brier, "brier_score");
    const metric_info* ll = find_metric("log_loss", metric_kind::probabilistic);
    const metric_info* bs = find_metric("brier_score_loss", metric_kind::probabilistic);
    const metric_info* tk = find_metric("top_k_accuracy", metric_kind::probabilistic);
    ASSERT_TRUE(ll && bs && tk);
    expect_value(ll->probabilistic(y, pv, w, {}), e.at("log_loss"), "registry log_loss");
    expect_value(bs->probabilistic(y, pv, w, {}), brier, "registry brier_score_loss");
    if (!e.contains("top_k_accuracy")) continue;
    for (const auto& [k, want] : e.at("top_k_accuracy").items()) {
      const std::size_t kk = std::stoul(k);
      expect_value(top_k_accuracy(y, pv, kk, w), want, "top_k_accuracy k=" + k);
      metric_params p;
      p.k = kk;
      expect_value(tk->probabilistic(y, pv, w, p), want, "registry top_k_accuracy k=" + k);
      ++top_k_checked;
    }
  }
  EXPECT_EQ(top_k_checked, 13u);
  EXPECT_GT(comparisons() - before, 50u);
  log_comparisons(::testing::UnitTest::GetInstance()->current_test_info()->name(), comparisons() - before);
}

TEST(SklearnReplay, Regression) {
  const json& all = cases().at("regression");
  ASSERT_EQ(all.size(), 13u);
  using fn = value (*)(std::span<const double>, std::span<const double>, std::span<const double>);
  const std::vector<std::pair<std::string, fn>> direct = {
      {"mean_absolute_error", mean_absolute_error},
      {"mean_squared_error", mean_squared_error},
      {"root_mean_squared_error", root_mean_squared_error},
      {"mean_absolute_percentage_error", mean_absolute_percentage_error},
      {"mean_squared_percentage_error", mean_squared_percentage_error},
      {"root_mean_squared_percentage_error", root_mean_squared_percentage_error},
      {"r2", r2},
      {"explained_variance", explained_variance},
      {"median_absolute_error", median_absolute_error},
      {"max_error", max_error},
      {"mean_poisson_deviance", mean_poisson_deviance},
      {"mean_gamma_deviance", mean_gamma_deviance},
  };
  const std::size_t before = comparisons();
  std::size_t undefined_expected = 0;
  for (const json& c : all) {
    const std::string name = c.at("name");
    SCOPED_TRACE(name);
    const auto y = c.at("y").get<std::vector<double>>();
    const auto yhat = c.at("yhat").get<std::vector<double>>();
    const std::vector<double> w = weights_of(c);
    const json& e = c.at("expected");
    // Unweighted cases carry all twelve metrics; weighted ones all but the two sklearn cannot weight.
    EXPECT_EQ(e.size(), w.empty() ? 12u : 10u);
    for (const auto& [key, want] : e.items()) {
      if (want.is_null()) ++undefined_expected;
      auto d = std::find_if(direct.begin(), direct.end(), [&](const auto& p) { return p.first == key; });
      ASSERT_NE(d, direct.end()) << key;
      expect_value(d->second(y, yhat, w), want, key);
      const metric_info* m = find_metric(key, metric_kind::regression);
      ASSERT_NE(m, nullptr) << key;
      expect_value(m->regression(y, yhat, w, {}), want, "registry " + key);
      // Unit weights must give the unweighted value (for the median this is the documented
      // midpoint rule; sklearn's weighted path would return the lower median).
      if (w.empty()) {
        const std::vector<double> ones(y.size(), 1.0);
        expect_value(d->second(y, yhat, ones), want, key + " with unit weights");
      }
    }
  }
  // constant target (r2, EV) x2, zero target (MAPE, MSPE, RMSPE), a negative target or prediction
  // (Poisson deviance) x6, a target or prediction that is not positive (Gamma deviance) x6
  EXPECT_EQ(undefined_expected, 19u);
  EXPECT_GT(comparisons() - before, 150u);
  log_comparisons(::testing::UnitTest::GetInstance()->current_test_info()->name(), comparisons() - before);
}

}  // namespace
}  // namespace assay::reference
