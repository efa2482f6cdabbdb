// `assay report --score` gains roc_auc, average_precision and the best thresholds; checked against
// scikit-learn's values for the example file (sklearn_curves.json, "example_file").
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "assay/curves/threshold.hpp"
#include "assay/report/report.hpp"

namespace assay {
namespace {

const metric_result* find(const report& r, const std::string& name) {
  for (const auto& m : r.metrics) if (m.name == name) return &m;
  return nullptr;
}

TEST(ReportRanking, ExampleFileMatchesSklearn) {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/curves/sklearn_curves.json");
  const auto ex = nlohmann::json::parse(f)["example_file"];
  report_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/" + ex["file"].get<std::string>();
  q.label = ex["label"];
  q.score = ex["score"].get<std::string>();
  q.pos_label = ex["positive"].get<std::string>();
  const report r = make_report(q);
  ASSERT_NE(find(r, "roc_auc"), nullptr);
  EXPECT_NEAR(find(r, "roc_auc")->v.v, ex["roc_auc"].get<double>(), 1e-12);
  EXPECT_NEAR(find(r, "average_precision")->v.v, ex["average_precision"].get<double>(), 1e-12);
  ASSERT_NE(find(r, "best_threshold_youden"), nullptr);
  EXPECT_TRUE(find(r, "best_threshold_youden")->v.defined());
  EXPECT_TRUE(find(r, "best_threshold_f1")->v.defined());
}

TEST(ReportRanking, AbsentWithoutScores) {
  report_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/breast_cancer_predictions.csv";
  q.label = "diagnosis";
  q.pred = "predicted";
  q.pos_label = "malignant";
  const report r = make_report(q);
  EXPECT_EQ(find(r, "roc_auc"), nullptr);
}

}  // namespace
}  // namespace assay
