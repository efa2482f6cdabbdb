// Validation curve: each point is the plain cross-validation of the learner with that value.
#include "assay/validation/validation_curve.hpp"

#include <gtest/gtest.h>

#include "assay/error.hpp"

namespace assay::validation {
namespace {

TEST(ValidationCurve, PointsAreCrossValidationsOfEachValue) {
  dataset_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/data/wine.csv";
  q.target = "cultivar";
  const auto d = read_dataset(q);
  const auto splits = stratified_kfold(d.y_class, 5);
  cv_options o;
  o.metrics = {"accuracy"};
  const auto r = validation_curve(d, "knn:weights=distance", "k", {"1", "9"}, splits, o);
  ASSERT_EQ(r.points.size(), 2u);
  for (const auto& p : r.points) {
    const auto plain = cross_validate(d, make_learner("knn:weights=distance,k=" + p.value, true), splits, o);
    EXPECT_DOUBLE_EQ(p.test[0].mean.v, plain.summary[0].mean.v) << p.value;
    // Distance weights: every training case is its own nearest neighbour at distance 0.
    EXPECT_DOUBLE_EQ(p.train[0].mean.v, 1.0) << p.value;
  }
  EXPECT_THROW(validation_curve(d, "knn", "kk", {"1"}, splits, o), error);
  EXPECT_THROW(validation_curve(d, "knn:k=3", "k", {"1"}, splits, o), error);
}

}  // namespace
}  // namespace assay::validation
