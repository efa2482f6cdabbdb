// xgboost through its C API (when built with it): deterministic whatever the thread count, proper
// probabilities, and far better than the majority baseline on breast cancer.
#include "assay/validation/xgboost.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "assay/error.hpp"
#include "assay/validation/engine.hpp"

namespace assay::validation {
namespace {

TEST(Xgboost, DeterministicProbabilitiesAndUseful) {
  if (!xgboost_available()) {
    EXPECT_THROW(make_learner("xgboost", true), error);
    GTEST_SKIP() << "built without xgboost";
  }
  dataset_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/data/breast_cancer.csv";
  q.target = "diagnosis";
  const auto d = read_dataset(q);
  const auto splits = stratified_kfold(d.y_class, 5);
  cv_options one, two;
  one.threads = 1;
  two.threads = 2;
  one.pos_label = two.pos_label = "malignant";
  const auto l = make_learner("xgboost:n_estimators=30,max_depth=3", true);
  const auto a = cross_validate(d, l, splits, one), b = cross_validate(d, l, splits, two);
  ASSERT_EQ(a.oof.size(), d.rows);
  for (std::size_t i = 0; i < a.oof.size(); ++i) {
    ASSERT_EQ(a.oof[i].proba, b.oof[i].proba);
    EXPECT_NEAR(a.oof[i].proba[0] + a.oof[i].proba[1], 1.0, 1e-6);
    EXPECT_GE(a.oof[i].proba[1], 0.0);
  }
  const auto base = cross_validate(d, make_learner("majority", true), splits, one);
  EXPECT_GT(a.summary[0].mean.v, base.summary[0].mean.v + 0.25);  // about 0.96 vs 0.63
  EXPECT_THROW(make_learner("xgboost:learning_rate=0", true), error);
}

}  // namespace
}  // namespace assay::validation
