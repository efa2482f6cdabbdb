// Bias-variance decomposition: the identities hold exactly, and the lecture's example behaves as
// taught: a constant model has high bias and low variance, an interpolating polynomial the opposite.
#include "assay/validation/bias_variance.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace assay::validation {
namespace {

dataset sine(std::size_t n, std::uint64_t seed) {
  rng g(seed);
  dataset d;
  d.source = "sine";
  d.target_name = "y";
  d.task = task_type::regression;
  d.rows = n;
  d.features = {feature_column{"x", false, {}, {}, {}, 0}};
  for (std::size_t i = 0; i < n; ++i) {
    const double x = 3 * g.uniform();
    const double u = g.uniform(), v = g.uniform();
    const double noise = 0.3 * std::sqrt(-2 * std::log1p(-u)) * std::cos(6.283185307179586 * v);
    d.features[0].numbers.push_back(x);
    d.y_value.push_back(std::sin(2 * x) + noise);
  }
  return d;
}

TEST(BiasVariance, ConstantModelVersusInterpolatingPolynomial) {
  const auto d = sine(60, 3);
  const auto part = holdout(60, 2.0 / 3, 5);
  const auto flat = bias_variance(d, make_learner("majority", false), part, 200, 1);
  const auto wiggly = bias_variance(d, make_learner("linear:degree=7,standardize=true", false), part, 200, 1);
  const auto wild = bias_variance(d, make_learner("linear:degree=9,standardize=true", false), part, 200, 1);
  for (const auto* r : {&flat, &wiggly, &wild}) {
    EXPECT_EQ(r->loss, "squared");
    EXPECT_NEAR(r->expected_loss, r->bias + r->variance, 1e-10 * r->expected_loss);
  }
  // The constant model misses the curve (bias^2 about 0.85 on this sample: the spread of sin(2x)
  // plus the noise 0.09); a degree-7 polynomial follows it (bias^2 about 0.09) but varies about nine
  // times as much from one training set to the next; at degree 9, nearly interpolating 40 points,
  // the variance explodes.
  EXPECT_GT(flat.bias, 0.5);
  EXPECT_LT(wiggly.bias, 0.2);
  EXPECT_GT(wiggly.variance, 5 * flat.variance);
  EXPECT_GT(wild.variance, 10 * wiggly.variance);
  // The constant model's variance is that of a bootstrap mean: about Var(y) / 40.
  EXPECT_LT(flat.variance, 0.05);
}

TEST(BiasVariance, ZeroOneLossIdentityAndOrdering) {
  dataset_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/data/breast_cancer.csv";
  q.target = "diagnosis";
  const auto d = read_dataset(q);
  const auto part = holdout(d.rows, 2.0 / 3, 7, d.y_class);
  const auto nn = bias_variance(d, make_learner("knn:k=1,standardize=false", true), part, 100, 2);
  const auto maj = bias_variance(d, make_learner("majority", true), part, 100, 2);
  for (const auto* r : {&nn, &maj}) {
    EXPECT_EQ(r->loss, "zero_one");
    EXPECT_NEAR(r->expected_loss, r->bias + r->net_variance, 1e-12);
    EXPECT_GE(r->variance, 0);
    EXPECT_LE(r->variance, 1);
  }
  // The majority class of every bootstrap sample is benign (357 of 569): no variance, and the
  // biased cases are the malignant ones (37% of the stratified test part).
  EXPECT_EQ(maj.variance, 0.0);
  EXPECT_NEAR(maj.bias, 71.0 / 190, 1e-12);
  EXPECT_GT(nn.variance, maj.variance);
  EXPECT_LT(nn.bias, maj.bias);
  // Same seed, same result.
  const auto again = bias_variance(d, make_learner("knn:k=1,standardize=false", true), part, 100, 2, 1);
  EXPECT_EQ(again.expected_loss, nn.expected_loss);
  EXPECT_EQ(again.variance, nn.variance);
}

}  // namespace
}  // namespace assay::validation
