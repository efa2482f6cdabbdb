// The difference of two independent proportions against statsmodels (confint_proportions_2indep,
// proportions_ztest) and SciPy (fisher_exact): tests/stats/two_proportions.json, written by
// tests/stats/generate_two_proportions.py. Plus a hand-worked case, a naive Fisher sum and bad input.
#include "assay/stats/two_proportions.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "assay/error.hpp"
#include "assay/stats/distributions.hpp"
#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::close;
using testing::load_reference;
using testing::message_of;
using testing::num;

TEST(TwoProportions, MatchesStatsmodelsAndScipy) {
  int checked = 0, fisher = 0;
  for (const auto& c : load_reference("two_proportions.json")["cases"]) {
    const double x1 = num(c["x1"]), n1 = num(c["n1"]), x2 = num(c["x2"]), n2 = num(c["n2"]), level = num(c["level"]);
    const auto w = two_proportions_ci(x1, n1, x2, n2, level, difference_method::wald);
    const auto nc = two_proportions_ci(x1, n1, x2, n2, level, difference_method::newcombe);
    EXPECT_TRUE(close(w.lower, num(c["wald"][0]), 1e-12, 1e-15)) << c.dump() << " got " << w.lower;
    EXPECT_TRUE(close(w.upper, num(c["wald"][1]), 1e-12, 1e-15)) << c.dump() << " got " << w.upper;
    EXPECT_TRUE(close(nc.lower, num(c["newcombe"][0]), 1e-12, 1e-15)) << c.dump() << " got " << nc.lower;
    EXPECT_TRUE(close(nc.upper, num(c["newcombe"][1]), 1e-12, 1e-15)) << c.dump() << " got " << nc.upper;
    for (auto alt : {alternative::two_sided, alternative::greater, alternative::less}) {
      const std::string a(to_string(alt));
      const auto z = two_proportions_z_test(x1, n1, x2, n2, alt);
      EXPECT_TRUE(close(z.test.statistic, num(c["z_" + a][0]), 1e-12, 1e-15)) << c.dump() << a;
      EXPECT_TRUE(close(z.test.p_value, num(c["z_" + a][1]), 1e-11, 1e-15)) << c.dump() << a << " got " << z.test.p_value;
      EXPECT_EQ(z.undefined.empty(), !std::isnan(num(c["z_" + a][0]))) << c.dump();
      if (c.contains("fisher_" + a)) {
        const auto fr = fisher_exact_test(static_cast<std::int64_t>(x1), static_cast<std::int64_t>(n1),
                                          static_cast<std::int64_t>(x2), static_cast<std::int64_t>(n2), alt);
        EXPECT_TRUE(close(fr.statistic, num(c["fisher_" + a][0]), 1e-13)) << c.dump() << a;
        EXPECT_TRUE(close(fr.p_value, num(c["fisher_" + a][1]), 1e-9, 1e-14)) << c.dump() << a << " got " << fr.p_value;
        ++fisher;
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 50);
  EXPECT_GT(fisher, 150);
}

// Mitchell (1997) section 5.5 by hand: e1 = 30/200 = 0.15, e2 = 45/210 = 0.2142857...,
// sqrt(0.15 * 0.85 / 200 + (45/210)(165/210) / 210) = sqrt(0.0006375 + 0.00080175) = 0.0379374..., d = -0.0642857...
TEST(TwoProportions, WaldByHand) {
  const auto r = compare_two_proportions(30, 200, 45, 210);
  const double se = std::sqrt(0.15 * 0.85 / 200 + (45.0 / 210) * (165.0 / 210) / 210);
  EXPECT_DOUBLE_EQ(r.wald_std_error, se);
  EXPECT_DOUBLE_EQ(r.difference, 0.15 - 45.0 / 210);
  EXPECT_NEAR(r.wald.lower, r.difference - 1.959963984540054 * se, 1e-15);
  EXPECT_NEAR(r.wald.upper, r.difference + 1.959963984540054 * se, 1e-15);
  EXPECT_TRUE(r.has_fisher);
  EXPECT_EQ(r.z_test.test.method, "two_proportion_z");
}

// Fisher's two-sided p against a naive sum of hypergeometric masses from binomial coefficients.
TEST(TwoProportions, FisherAgainstNaiveSum) {
  auto choose = [](int n, int k) { return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0)); };
  for (auto [x1, n1, x2, n2] : {std::tuple{3, 10, 7, 12}, {0, 5, 5, 5}, {4, 9, 4, 9}, {1, 2, 14, 30}}) {
    const int m = x1 + x2;
    std::vector<double> pm;
    double total = 0;
    for (int k = std::max(0, m - n2); k <= std::min(n1, m); ++k) {
      pm.push_back(choose(n1, k) * choose(n2, m - k));
      total += pm.back();
    }
    const double obs = pm[static_cast<std::size_t>(x1 - std::max(0, m - n2))];
    double p = 0;
    for (double v : pm) if (v <= obs * (1 + 1e-7)) p += v;
    EXPECT_NEAR(fisher_exact_test(x1, n1, x2, n2).p_value, std::min(1.0, p / total), 1e-12) << x1 << " " << x2;
  }
}

TEST(TwoProportions, UndefinedAndDegenerate) {
  const auto r = compare_two_proportions(0, 50, 0, 60);
  EXPECT_FALSE(r.z_test.undefined.empty());
  EXPECT_TRUE(std::isnan(r.z_test.test.p_value));
  EXPECT_EQ(r.wald.lower, 0);  // degenerate Wald
  EXPECT_EQ(r.wald.upper, 0);
  EXPECT_LT(r.newcombe.lower, 0);  // Newcombe is not
  EXPECT_GT(r.newcombe.upper, 0);
  EXPECT_EQ(r.fisher.p_value, 1);
  EXPECT_FALSE(compare_two_proportions(0.5, 10, 1, 10).has_fisher);  // weighted counts: no Fisher
}

TEST(TwoProportions, BadInput) {
  EXPECT_EQ(message_of([] { two_proportions_ci(3, 0, 1, 2); }), "two_proportions_ci: n1 must be finite and > 0; got 0");
  EXPECT_EQ(message_of([] { two_proportions_ci(3, 2, 1, 2); }), "two_proportions_ci: x1 must be in [0, n1] = [0, 2]; got 3");
  EXPECT_EQ(message_of([] { two_proportions_ci(1, 2, -1, 2); }), "two_proportions_ci: x2 must be in [0, n2] = [0, 2]; got -1");
  EXPECT_EQ(message_of([] { two_proportions_ci(1, 2, 1, 2, 1.0); }), "two_proportions_ci: level must be in (0, 1); got 1");
  EXPECT_EQ(message_of([] { two_proportions_z_test(1, 2, 1, NAN); }), "two_proportions_z_test: n2 must be finite and > 0; got nan");
  EXPECT_EQ(message_of([] { fisher_exact_test(5, 4, 1, 2); }), "fisher_exact_test: x1 must be in [0, n1] = [0, 4]; got 5");
}

}  // namespace
}  // namespace assay::stats
