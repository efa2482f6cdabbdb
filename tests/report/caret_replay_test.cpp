// R's caret confusionMatrix against assay::evaluate: the no-information rate, the one-sided exact
// binomial p-value of accuracy > NIR, McNemar's (binary) or Bowker's (multiclass) test p-value, and
// per class (one against the rest) sensitivity, specificity, PPV, NPV, F1, prevalence, detection
// rate, detection prevalence and balanced accuracy. Expected values: caret_reference.json, written
// by generate_caret.R (caret version recorded in it) from aSAH, iris and random cases.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "assay/data/predictions.hpp"
#include "assay/report/report.hpp"

namespace assay {
namespace {

using json = nlohmann::json;

const json& reference() {
  static const json j = [] {
    std::ifstream in(std::string(ASSAY_TEST_DIR) + "/report/caret_reference.json");
    return json::parse(in);
  }();
  return j;
}

// caret's number (null = NA) against assay's value: both undefined, or equal to 1e-12 relative.
void expect_same(const json& want, const value& got, const std::string& where) {
  if (want.is_null()) {
    EXPECT_FALSE(got.defined()) << where << ": caret NA, assay " << got.v;
    return;
  }
  ASSERT_TRUE(got.defined()) << where << ": caret " << want.get<double>() << ", assay undefined (" << got.reason << ")";
  const double w = want.get<double>();
  EXPECT_NEAR(got.v, w, 1e-12 * std::max(1.0, std::abs(w)) + 1e-300) << where;
  if (w != 0 && std::abs(w) < 1e-3) EXPECT_NEAR(got.v / w, 1.0, 1e-9) << where << " (relative, small p-value)";
}

const value& metric(const report& r, const std::string& name) {
  for (const auto& m : r.metrics)
    if (m.name == name) return m.v;
  static const value none = value::undefined("missing");
  ADD_FAILURE() << "no metric " << name;
  return none;
}

TEST(CaretReplay, EveryCaseEveryStatistic) {
  EXPECT_EQ(reference().at("versions").at("caret"), "6.0.93");
  const json& cases = reference().at("cases");
  ASSERT_EQ(cases.size(), 7u);
  std::size_t compared = 0, caret_f1_na_ours_defined = 0;
  for (const json& c : cases) {
    const std::string name = c.at("name");
    SCOPED_TRACE(name);
    const auto truth = c.at("truth").get<std::vector<std::string>>();
    const auto pred = c.at("pred").get<std::vector<std::string>>();
    const auto levels = c.at("levels").get<std::vector<std::string>>();
    prediction_options o;
    o.task = levels.size() == 2 ? task_kind::binary : task_kind::multiclass;
    if (levels.size() == 2) o.pos_label = levels[1];
    const report r = evaluate(predictions_from_labels(truth, pred, o));
    ASSERT_EQ(r.labels, levels);  // caret's level order is our sorted order in every case
    expect_same(c.at("accuracy"), metric(r, "accuracy"), "accuracy");
    expect_same(c.at("no_information_rate"), metric(r, "no_information_rate"), "no_information_rate");
    expect_same(c.at("accuracy_p_value"), metric(r, "accuracy_p_value"), "accuracy_p_value");
    expect_same(c.at("mcnemar_p_value"), metric(r, "mcnemar_p_value"), "mcnemar_p_value");
    compared += 4;
    for (std::size_t k = 0; k < levels.size(); ++k) {
      const json& want = c.at("by_class").at(levels[k]);
      const class_detail& d = r.by_class[k];
      const std::string where = "class " + levels[k] + ": ";
      expect_same(want.at("sensitivity"), d.sensitivity, where + "sensitivity");
      expect_same(want.at("specificity"), d.specificity, where + "specificity");
      expect_same(want.at("ppv"), d.ppv, where + "ppv");
      expect_same(want.at("npv"), d.npv, where + "npv");
      expect_same(want.at("prevalence"), d.prevalence, where + "prevalence");
      expect_same(want.at("detection_rate"), d.detection_rate, where + "detection_rate");
      expect_same(want.at("detection_prevalence"), d.detection_prevalence, where + "detection_prevalence");
      expect_same(want.at("balanced_accuracy"), d.balanced_accuracy, where + "balanced_accuracy");
      compared += 8;
      // F1: caret's F_meas is NA where precision is (a class never predicted); ours is scikit-learn's
      // 2 TP / (2 TP + FP + FN), 0 there (docs/definitions). Equal wherever caret's is defined.
      if (want.at("f1").is_null() && !d.ppv.defined() && r.per_class[k].f1.defined()) {
        EXPECT_EQ(r.per_class[k].f1.v, 0.0) << where << "f1";
        ++caret_f1_na_ours_defined;
      } else {
        expect_same(want.at("f1"), r.per_class[k].f1, where + "f1");
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, 4u * 7 + 9u * (2 + 2 + 3 + 3 + 4 + 2 + 2));
  EXPECT_EQ(caret_f1_na_ours_defined, 1u);  // class "d" of random_never_predicted
}

// With weights: whole-number weights are counts (the same tests as the repeated rows); other
// weights leave the p-values undefined with the reason.
TEST(CaretReplay, WeightsAsCounts) {
  const std::vector<std::string> y{"a", "a", "b", "b", "a"}, p{"a", "b", "b", "a", "a"};
  const std::vector<double> w{3, 1, 2, 2, 1};
  std::vector<std::string> y_rep, p_rep;
  for (std::size_t i = 0; i < y.size(); ++i)
    for (int k = 0; k < static_cast<int>(w[i]); ++k) y_rep.push_back(y[i]), p_rep.push_back(p[i]);
  prediction_options o;
  o.pos_label = "b";
  const report repeated = evaluate(predictions_from_labels(y_rep, p_rep, o));
  o.sample_weight = w;
  const report weighted = evaluate(predictions_from_labels(y, p, o));
  for (const char* name : {"no_information_rate", "accuracy_p_value", "mcnemar_p_value"}) {
    ASSERT_TRUE(metric(repeated, name).defined()) << name;
    EXPECT_DOUBLE_EQ(metric(weighted, name).v, metric(repeated, name).v) << name;
  }
  const std::vector<double> half{3, 1, 2, 2, 0.5};
  o.sample_weight = half;
  const report frac = evaluate(predictions_from_labels(y, p, o));
  EXPECT_TRUE(metric(frac, "no_information_rate").defined());
  for (const char* name : {"accuracy_p_value", "mcnemar_p_value"}) {
    EXPECT_FALSE(metric(frac, name).defined()) << name;
    EXPECT_EQ(metric(frac, name).reason,
              "the weights are not all whole numbers (the smallest that is not: 0.5); the exact tests need counts "
              "(whole-number weights are read as repeated rows)");
  }
}

}  // namespace
}  // namespace assay
