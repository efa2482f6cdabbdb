// scikit-learn's binary score metrics (assay/sklearn/ranking.hpp) on the unweighted fast paths (from 2^16
// cases: the grouped form of sort_labelled when the scores take few distinct values, the labelled
// keys when they take many, the class sort when the keys leave no room for the class) against the
// weighted path with unit weights, which shares none of that: records sorted stably by score, the
// cumulative sums taken one case at a time. Unit weights count exactly, and both compute each term
// with the same roundings and sum in numpy's order, so every result must be equal to the bit.
// Deterministic (fixed seeds): a failure is a bug, never chance.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "assay/sklearn/ranking.hpp"

namespace assay::sklearn {
namespace {

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

void expect_same_points(const sweep_points& a, const sweep_points& b) {
  ASSERT_EQ(a.thresholds.size(), b.thresholds.size());
  for (std::size_t i = 0; i < a.thresholds.size(); ++i) {
    ASSERT_TRUE(same_bits(a.thresholds[i], b.thresholds[i])) << i;
    ASSERT_TRUE(same_bits(a.tp[i], b.tp[i])) << i;
    ASSERT_TRUE(same_bits(a.fp[i], b.fp[i])) << i;
  }
}

TEST(SklearnCompat, FastPathsEqualTheWeightedPathWithUnitWeights) {
  std::mt19937_64 rng(1511);
  for (int shape = 0; shape < 6; ++shape) {
    for (const std::size_t n : {std::size_t{1} << 16, (std::size_t{1} << 17) + 3, (std::size_t{1} << 19) + 7}) {
      std::vector<std::int32_t> y(n);
      std::vector<double> s(n);
      for (std::size_t i = 0; i < n; ++i) {
        y[i] = rng() % 3 == 0 ? 1 : 0;
        const double u = std::uniform_real_distribution<double>(0, 1)(rng);
        switch (shape) {
          case 0: s[i] = std::round(u * 1000) / 1000; break;                 // 1001 values: grouped
          case 1: s[i] = u; break;                                            // distinct, one sign: keys
          case 2: s[i] = std::round((u - 0.5) * 4000) / 1000; break;          // both signs, ties: grouped
          case 3: s[i] = (u - 0.5) * 3; break;                                // both signs within +-2: keys
          case 4: s[i] = std::ldexp(u - 0.5, static_cast<int>(rng() % 400) - 200); break;  // no room: class sort
          default: s[i] = i < n / 2 ? std::round(u * 10) / 10 : u; break;    // grouping gives up late
        }
        if (i % 101 == 7) s[i] = rng() % 2 ? -0.0 : 0.0;
      }
      const std::vector<double> ones(n, 1.0);
      const auto ap = average_precision(y, s, {}), ap_w = average_precision(y, s, ones);
      ASSERT_TRUE(ap && ap_w);
      EXPECT_TRUE(same_bits(*ap, *ap_w)) << "shape " << shape << " n " << n << ": " << *ap << " vs " << *ap_w;
      const auto auc = roc_auc(y, s, {}), auc_w = roc_auc(y, s, ones);
      ASSERT_TRUE(auc && auc_w);
      EXPECT_TRUE(same_bits(*auc, *auc_w)) << "shape " << shape << " n " << n << ": " << *auc << " vs " << *auc_w;
      expect_same_points(clf_curve(y, s, {}), clf_curve(y, s, ones));
      for (const bool drop : {true, false}) expect_same_points(roc_points(y, s, {}, drop), roc_points(y, s, ones, drop));
    }
  }
}

}  // namespace
}  // namespace assay::sklearn
