// Lesion study: the interval is the corrected resampled t interval (t quantile from scipy 1.10),
// removing the informative feature hurts, and unknown columns are refused.
#include "assay/validation/lesion.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "assay/error.hpp"

namespace assay::validation {
namespace {

dataset breast_cancer() {
  dataset_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/data/breast_cancer.csv";
  q.target = "diagnosis";
  return read_dataset(q);
}

TEST(Lesion, CorrectedResampledTInterval) {
  const auto d = breast_cancer();
  const auto splits = repeated_kfold(d.rows, 10, 3, 1, d.y_class);
  cv_options o;
  o.metrics = {"accuracy"};
  const auto l = make_learner("gaussian_nb", true);
  const std::vector<feature_group> groups{parse_feature_group("worst=worst_radius,worst_perimeter,worst_area")};
  const auto r = lesion_study(d, l, splits, groups, o);
  // Recompute by hand from two plain cross-validations.
  const auto full = cross_validate(d, l, splits, o);
  auto less = d;
  std::erase_if(less.features, [](const feature_column& f) {
    return f.name == "worst_radius" || f.name == "worst_perimeter" || f.name == "worst_area";
  });
  ASSERT_EQ(less.features.size(), 27u);
  const auto cut = cross_validate(less, l, splits, o);
  std::vector<double> drop;
  double tr = 0, te = 0;
  for (std::size_t s = 0; s < splits.size(); ++s) {
    drop.push_back(full.folds[s].test[0].v - cut.folds[s].test[0].v);
    tr += static_cast<double>(splits[s].train.size());
    te += static_cast<double>(splits[s].test.size());
  }
  double m = 0, ss = 0;
  for (double x : drop) m += x / 30;
  for (double x : drop) ss += (x - m) * (x - m);
  const double se = std::sqrt(ss / 29) * std::sqrt(1.0 / 30 + te / tr);
  const double t29 = 2.045229642132703;  // scipy.stats.t.ppf(0.975, 29)
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_NEAR(r.entries[0].drop, m, 1e-15);
  EXPECT_NEAR(r.entries[0].low.v, m - t29 * se, 1e-12);
  EXPECT_NEAR(r.entries[0].high.v, m + t29 * se, 1e-12);
  EXPECT_DOUBLE_EQ(r.full.v, full.summary[0].mean.v);
}

TEST(Lesion, RemovingTheSignalHurts) {
  // y follows feature a; b is noise. Without a the score falls to chance; without b nothing changes much.
  dataset d;
  d.source = "synthetic";
  d.target_name = "y";
  d.classes = {"0", "1"};
  d.rows = 200;
  d.features = {feature_column{"a", false, {}, {}, {}, 0}, feature_column{"b", false, {}, {}, {}, 0}};
  rng g(5);
  for (std::size_t i = 0; i < 200; ++i) {
    const auto y = static_cast<std::int32_t>(i % 2);
    d.y_class.push_back(y);
    d.features[0].numbers.push_back(y + 0.3 * (g.uniform() - 0.5));
    d.features[1].numbers.push_back(g.uniform());
  }
  cv_options o;
  o.metrics = {"accuracy"};
  const auto r = lesion_study(d, make_learner("gaussian_nb", true), stratified_kfold(d.y_class, 5),
                              {parse_feature_group("signal=a"), parse_feature_group("noise=b")}, o, 0.9);
  EXPECT_DOUBLE_EQ(r.full.v, 1.0);
  EXPECT_GT(r.entries[0].low.v, 0.3);   // accuracy falls from 1 to about 0.5
  EXPECT_LT(r.entries[1].low.v, 0.05);  // noise removed: no real drop
  EXPECT_THROW(lesion_study(d, make_learner("gaussian_nb", true), stratified_kfold(d.y_class, 5),
                            {parse_feature_group("x=c")}, o),
               error);
  EXPECT_THROW(parse_feature_group("novalue"), error);
}

}  // namespace
}  // namespace assay::validation
