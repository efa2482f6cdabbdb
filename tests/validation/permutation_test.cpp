// Label-permutation test: p-values uniform under the null (statistical check, fixed seeds, declared
// failure probability) and minimal when the features carry the labels.
#include "assay/validation/permutation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace assay::validation {
namespace {

// n rows, two Gaussian features; labels independent of them unless `signal`.
dataset synthetic(std::size_t n, std::uint64_t seed, bool signal) {
  rng g(seed);
  auto normal = [&g] {
    const double u = g.uniform(), v = g.uniform();
    return std::sqrt(-2 * std::log1p(-u)) * std::cos(6.283185307179586 * v);
  };
  dataset d;
  d.source = "synthetic";
  d.target_name = "y";
  d.classes = {"0", "1"};
  d.rows = n;
  d.features = {feature_column{"a", false, {}, {}, {}, 0}, feature_column{"b", false, {}, {}, {}, 0}};
  for (std::size_t i = 0; i < n; ++i) {
    const auto y = static_cast<std::int32_t>(i % 2);
    d.y_class.push_back(y);
    d.features[0].numbers.push_back(normal() + (signal ? 3.0 * y : 0.0));
    d.features[1].numbers.push_back(normal());
  }
  return d;
}

// Under independence every arrangement of the labels is equally likely, so with a continuous
// statistic (log loss; ties have probability 0) the p-value is uniform on {1/20, ..., 20/20} for
// 19 permutations. Over 200 null data sets, the number with p <= 0.25 (5 of the 20 values) is
// Binomial(200, 0.25): outside [26, 79] with probability < 1.2e-5; the number with p = 0.05 is
// Binomial(200, 0.05): 24 or more with probability 7.2e-5. Overall failure probability < 1e-4.
TEST(Permutation, PValuesUniformUnderTheNull) {
  const auto learner = make_learner("gaussian_nb", true);
  int at_most_quarter = 0, smallest = 0;
  double mean_p = 0;
  for (std::uint64_t s = 0; s < 200; ++s) {
    const auto d = synthetic(40, 1000 + s, false);
    permutation_options o;
    o.permutations = 19;
    o.seed = s;
    o.cv.threads = 1;
    o.cv.metrics = {"log_loss"};
    const auto r = permutation_test(d, learner, kfold(40, 4, true, s), o);
    EXPECT_FALSE(r.higher_is_better);
    at_most_quarter += r.p_value <= 0.25 + 1e-12;
    smallest += r.p_value <= 0.05 + 1e-12;
    mean_p += r.p_value / 200;
  }
  std::printf("null: %d of 200 with p <= 0.25, %d with p = 0.05, mean p %.3f\n", at_most_quarter, smallest, mean_p);
  EXPECT_GE(at_most_quarter, 26);
  EXPECT_LE(at_most_quarter, 79);
  EXPECT_LT(smallest, 24);
  EXPECT_NEAR(mean_p, 0.525, 0.1);  // E[p] = 10.5/20; sd of the mean about 0.02
}

TEST(Permutation, SmallestPossiblePWhenFeaturesCarryTheLabels) {
  const auto d = synthetic(60, 7, true);
  permutation_options o;
  o.permutations = 49;
  o.cv.metrics = {"accuracy"};
  const auto r = permutation_test(d, make_learner("gaussian_nb", true), stratified_kfold(d.y_class, 5), o);
  EXPECT_GT(r.score, 0.9);
  EXPECT_DOUBLE_EQ(r.p_value, 1.0 / 50);
  EXPECT_EQ(r.permuted.size(), 49u);
  // Same seed, same permutations and p-value.
  const auto again = permutation_test(d, make_learner("gaussian_nb", true), stratified_kfold(d.y_class, 5), o);
  EXPECT_EQ(r.permuted, again.permuted);
}

}  // namespace
}  // namespace assay::validation
