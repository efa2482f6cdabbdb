// Nested cross-validation: with one candidate value it is plain cross-validation; the choice in an
// outer split is the best inner mean, recomputed here on inner splits drawn independently.
#include "assay/validation/nested.hpp"

#include <gtest/gtest.h>

namespace assay::validation {
namespace {

dataset wine() {
  dataset_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/data/wine.csv";
  q.target = "cultivar";
  return read_dataset(q);
}

TEST(Nested, OneValueIsPlainCrossValidation) {
  const auto d = wine();
  const auto outer = stratified_kfold(d.y_class, 4);
  split_request inner;
  inner.method = "stratified-kfold";
  inner.folds = 3;
  cv_options o;
  o.metrics = {"accuracy"};
  const auto r = nested_cv(d, "knn", "k", {"5"}, outer, inner, o);
  const auto plain = cross_validate(d, make_learner("knn:k=5", true), outer, o);
  ASSERT_EQ(r.outer.size(), 4u);
  for (std::size_t s = 0; s < 4; ++s) EXPECT_DOUBLE_EQ(r.outer[s].v, plain.folds[s].test[0].v);
  EXPECT_DOUBLE_EQ(r.summary.mean.v, plain.summary[0].mean.v);
}

TEST(Nested, ChoosesTheBestInnerMean) {
  const auto d = wine();
  const auto outer = stratified_kfold(d.y_class, 3, true, 4);
  split_request inner;
  inner.method = "stratified-kfold";
  inner.folds = 3;
  cv_options o;
  o.metrics = {"accuracy"};
  const std::vector<std::string> values{"1", "15", "60"};
  const auto r = nested_cv(d, "knn:standardize=false", "k", values, outer, inner, o);
  // Recompute outer split 0's inner means: inner stratified 3-fold on its training rows.
  const auto& tr = outer[0].train;
  std::vector<std::int32_t> y;
  for (auto i : tr) y.push_back(d.y_class[i]);
  auto in = stratified_kfold(y, 3);
  for (auto& sp : in) {
    for (auto& i : sp.train) i = tr[i];
    for (auto& i : sp.test) i = tr[i];
  }
  std::size_t best = 0;
  std::vector<double> means;
  for (const auto& v : values) {
    means.push_back(cross_validate(d, make_learner("knn:standardize=false,k=" + v, true), in, o).summary[0].mean.v);
    if (means.back() > means[best]) best = means.size() - 1;
  }
  for (std::size_t v = 0; v < values.size(); ++v) EXPECT_DOUBLE_EQ(r.inner[0][v].v, means[v]);
  EXPECT_EQ(r.chosen[0], values[best]);
}

}  // namespace
}  // namespace assay::validation
