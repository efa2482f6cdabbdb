// Weighted quantile bins of reliability_curve: weights are frequencies, so integer weights equal
// repeated rows, a zero weight equals a removed row and unit weights equal no weights. Random
// inputs with heavy ties (fixed seeds; the checks are deterministic identities, they cannot fail by
// chance).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "assay/curves/calibration.hpp"
#include "assay/error.hpp"

namespace assay::curves {
namespace {

struct data {
  std::vector<std::int32_t> y;
  std::vector<double> p, w;
};

// n rows, probabilities rounded to `digits` decimals (ties and values on the edges), weights from
// `weight` (called with the generator).
template <typename W>
data make(std::mt19937_64& rng, std::size_t n, int digits, W weight) {
  data d;
  std::uniform_real_distribution<double> u(0, 1);
  const double scale = std::pow(10.0, digits);
  for (std::size_t i = 0; i < n; ++i) {
    d.p.push_back(std::round(u(rng) * scale) / scale);
    d.y.push_back(u(rng) < d.p.back() ? 1 : 0);
    d.w.push_back(weight(rng));
  }
  return d;
}

void expect_same_curve(const reliability_result& a, const reliability_result& b, const std::string& what) {
  EXPECT_EQ(a.edges, b.edges) << what;  // the same doubles, not just close
  ASSERT_EQ(a.prob_true.size(), b.prob_true.size()) << what;
  for (std::size_t k = 0; k < a.prob_true.size(); ++k) {
    EXPECT_NEAR(a.prob_true[k], b.prob_true[k], 1e-12) << what << " bin " << k;
    EXPECT_NEAR(a.prob_pred[k], b.prob_pred[k], 1e-12) << what << " bin " << k;
    EXPECT_NEAR(a.weight[k], b.weight[k], 1e-9) << what << " bin " << k;
  }
}

TEST(WeightedQuantileBins, IntegerWeightsEqualRepeatedRows) {
  std::mt19937_64 rng(11);
  for (int rep = 0; rep < 200; ++rep) {
    const std::size_t n = 1 + rng() % 40;
    const data d = make(rng, n, 1 + static_cast<int>(rng() % 2), [](auto& g) { return static_cast<double>(g() % 5); });
    data r;
    for (std::size_t i = 0; i < n; ++i)
      for (int k = 0; k < static_cast<int>(d.w[i]); ++k) r.y.push_back(d.y[i]), r.p.push_back(d.p[i]);
    if (r.p.empty()) continue;
    for (std::size_t bins : {1, 3, 7, 10}) {
      const std::string what = "rep " + std::to_string(rep) + " bins " + std::to_string(bins);
      expect_same_curve(reliability_curve(d.y, d.p, d.w, bins, bin_strategy::quantile),
                        reliability_curve(r.y, r.p, {}, bins, bin_strategy::quantile), what);
    }
  }
}

TEST(WeightedQuantileBins, ZeroWeightEqualsRemovedRow) {
  std::mt19937_64 rng(12);
  for (int rep = 0; rep < 200; ++rep) {
    const std::size_t n = 2 + rng() % 40;
    data d = make(rng, n, 2, [](auto& g) { return std::uniform_real_distribution<double>(0.5, 3)(g); });
    for (std::size_t i = 0; i < n; ++i)
      if (rng() % 4 == 0) d.w[i] = 0;
    d.w[0] = 1.5;
    data kept;
    for (std::size_t i = 0; i < n; ++i)
      if (d.w[i] > 0) kept.y.push_back(d.y[i]), kept.p.push_back(d.p[i]), kept.w.push_back(d.w[i]);
    for (std::size_t bins : {2, 5, 10})
      expect_same_curve(reliability_curve(d.y, d.p, d.w, bins, bin_strategy::quantile),
                        reliability_curve(kept.y, kept.p, kept.w, bins, bin_strategy::quantile),
                        "rep " + std::to_string(rep));
  }
}

TEST(WeightedQuantileBins, UnitWeightsEqualNoWeights) {
  std::mt19937_64 rng(13);
  for (int rep = 0; rep < 200; ++rep) {
    const data d = make(rng, 1 + rng() % 60, 1 + static_cast<int>(rng() % 3), [](auto&) { return 1.0; });
    for (std::size_t bins : {1, 4, 10}) {
      const auto a = reliability_curve(d.y, d.p, d.w, bins, bin_strategy::quantile);
      const auto b = reliability_curve(d.y, d.p, {}, bins, bin_strategy::quantile);
      EXPECT_EQ(a.edges, b.edges);
      EXPECT_EQ(a.prob_true, b.prob_true);
      EXPECT_EQ(a.prob_pred, b.prob_pred);
      EXPECT_EQ(a.weight, b.weight);
    }
  }
}

TEST(WeightedQuantileBins, HandExampleAndTotalWeightBelowOne) {
  // Weights 3 and 1 on 0.2 and 0.6 read as 0.2 0.2 0.2 0.6: the median (virtual index 1.5) is 0.2,
  // the 3/4 quantile (index 2.25) is 0.2 + 0.25 * 0.4 = 0.3.
  const std::vector<std::int32_t> y{0, 1};
  const std::vector<double> p{0.6, 0.2}, w{1, 3};
  const auto r = reliability_curve(y, p, w, 4, bin_strategy::quantile);
  ASSERT_EQ(r.edges.size(), 5u);
  EXPECT_EQ(r.edges[0], 0.2);
  EXPECT_EQ(r.edges[2], 0.2);
  EXPECT_NEAR(r.edges[3], 0.3, 1e-15);
  EXPECT_EQ(r.edges[4], 0.6);
  try {
    reliability_curve(y, p, std::vector<double>{0.25, 0.5}, 4, bin_strategy::quantile);
    FAIL() << "a total weight of 0.75 must be refused for quantile bins";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()),
              "reliability_curve: quantile bins read the weights as frequencies (a weight of 2 counts as two rows), "
              "so they need a total weight >= 1, got 0.75; rescale the weights");
  }
  // Uniform bins take any weights.
  EXPECT_EQ(reliability_curve(y, p, std::vector<double>{0.25, 0.5}, 4).weight.size(), 2u);
}

// uniform_bin_of (a first guess corrected by steps) against the scan of the inner edges of
// bin_edges(uniform) it replaced, on the edges themselves, their neighbours and random values.
TEST(UniformBinOf, EqualsTheScanOfTheEdges) {
  const auto scan = [](double p, std::size_t n) {
    const double step = 1.0 / static_cast<double>(n);
    std::size_t b = 0;
    while (b + 1 < n && static_cast<double>(b + 1) * step < p) ++b;
    return b;
  };
  std::mt19937_64 g(17);
  std::uniform_real_distribution<double> u(-0.1, 1.1);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t n = 1; n <= 40; ++n) {
    std::vector<double> ps = {0.0, -0.0, 1.0, -1.0, inf, -inf, nan, 1e-300, 0.5, 1.0 / 3, 2.0 / 3};
    for (std::size_t i = 0; i <= n; ++i) {
      const double e = static_cast<double>(i) * (1.0 / static_cast<double>(n));
      const double f = static_cast<double>(i) / static_cast<double>(n);
      for (double x : {e, f}) ps.insert(ps.end(), {x, std::nextafter(x, -inf), std::nextafter(x, inf)});
    }
    for (int k = 0; k < 2000; ++k) ps.push_back(u(g));
    for (double p : ps) ASSERT_EQ(uniform_bin_of(p, n), scan(p, n)) << "p = " << p << ", n_bins = " << n;
  }
}

}  // namespace
}  // namespace assay::curves
