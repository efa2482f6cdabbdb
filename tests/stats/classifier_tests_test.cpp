// McNemar, Cochran's Q (statsmodels, scipy_stats.json; seed 004) and the paired permutation test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "assay/error.hpp"
#include "assay/stats/tests.hpp"
#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::close;
using testing::load_reference;
using testing::num;

using testing::message_of;

TEST(McNemar, MatchesStatsmodels) {
  for (const auto& c : load_reference("scipy_stats.json")["mcnemar"]) {
    const auto name = c["method"].get<std::string>();
    const auto m = name == "exact" ? mcnemar_method::exact
                   : name == "chi2" ? mcnemar_method::chi2 : mcnemar_method::chi2_corrected;
    const auto r = mcnemar(c["n01"].get<std::int64_t>(), c["n10"].get<std::int64_t>(), m);
    EXPECT_TRUE(close(r.statistic, num(c["statistic"]), 1e-14)) << c.dump();
    EXPECT_TRUE(close(r.p_value, num(c["pvalue"]), 1e-11)) << c.dump() << " got " << r.p_value;
    EXPECT_EQ(r.method, "mcnemar_" + name);
  }
}

// Seed 004: M = (|n01 - n10| - 1)^2 / (n01 + n10) > 3.84 rejects at 95%.
TEST(McNemar, Seed004Example) {
  // n01 = 15, n10 = 5: M = 81 / 20 = 4.05 > 3.84, reject; n01 = 14, n10 = 6: 49 / 20 = 2.45, keep.
  const auto reject = mcnemar(15, 5, mcnemar_method::chi2_corrected);
  EXPECT_DOUBLE_EQ(reject.statistic, 4.05);
  EXPECT_LT(reject.p_value, 0.05);
  const auto keep = mcnemar(14, 6, mcnemar_method::chi2_corrected);
  EXPECT_DOUBLE_EQ(keep.statistic, 2.45);
  EXPECT_GT(keep.p_value, 0.05);
}

TEST(McNemar, NoDiscordantCaseIsNoEvidence) {
  for (auto m : {mcnemar_method::exact, mcnemar_method::chi2, mcnemar_method::chi2_corrected}) {
    const auto r = mcnemar(0, 0, m);
    EXPECT_EQ(r.p_value, 1.0);
    EXPECT_EQ(r.statistic, 0.0);
  }
  EXPECT_EQ(message_of([] { mcnemar(-1, 3); }), "mcnemar: counts must be >= 0; got n01 = -1, n10 = 3");
}

TEST(McNemar, CountsFromPredictions) {
  std::vector<std::int32_t> y{1, 1, 0, 0, 1, 0, 1, 0};
  std::vector<std::int32_t> a{1, 1, 0, 1, 0, 0, 1, 0};  // wrong on cases 3, 4
  std::vector<std::int32_t> b{0, 1, 0, 0, 0, 1, 1, 0};  // wrong on cases 0, 4, 5
  const auto c = count_discordant(y, a, b);
  EXPECT_EQ(c.n01, 2);  // cases 0, 5
  EXPECT_EQ(c.n10, 1);  // case 3
  EXPECT_EQ(c.n00, 1);  // case 4
  EXPECT_EQ(c.n11, 4);
  std::vector<std::int32_t> short_b{0, 1};
  EXPECT_EQ(message_of([&] { count_discordant(y, a, short_b); }),
            "count_discordant: y_true has 8 cases but pred_a has 8 and pred_b 2");
}

TEST(CochransQ, MatchesStatsmodels) {
  for (const auto& c : load_reference("scipy_stats.json")["cochrans_q"]) {
    const auto x = c["x"].get<std::vector<std::int32_t>>();
    const auto r = cochrans_q(x, c["n"].get<std::size_t>(), c["k"].get<std::size_t>());
    EXPECT_TRUE(close(r.statistic, num(c["statistic"]), 1e-13)) << c.dump();
    EXPECT_TRUE(close(r.p_value, num(c["pvalue"]), 1e-11));
    EXPECT_EQ(r.df, num(c["df"]));
  }
}

TEST(CochransQ, TwoClassifiersEqualUncorrectedMcNemar) {
  // Rows (A right, B right): 6 x (1,0), 2 x (0,1), 5 x (1,1), 3 x (0,0).
  std::vector<std::int32_t> x;
  auto add = [&](int times, int a, int b) { for (int i = 0; i < times; ++i) x.insert(x.end(), {a, b}); };
  add(6, 1, 0);
  add(2, 0, 1);
  add(5, 1, 1);
  add(3, 0, 0);
  const auto q = cochrans_q(x, 16, 2);
  const auto m = mcnemar(6, 2, mcnemar_method::chi2);
  EXPECT_NEAR(q.statistic, m.statistic, 1e-14);
  EXPECT_NEAR(q.p_value, m.p_value, 1e-14);
}

TEST(CochransQ, EdgesAndBadInput) {
  std::vector<std::int32_t> constant{1, 1, 1, 0, 0, 0};
  const auto r = cochrans_q(constant, 2, 3);
  EXPECT_EQ(r.statistic, 0.0);
  EXPECT_EQ(r.p_value, 1.0);
  EXPECT_EQ(message_of([&] { cochrans_q(constant, 2, 2); }),
            "cochrans_q: success has 6 entries but n_rows x k = 2 x 2 = 4");
  std::vector<std::int32_t> bad{1, 2};
  EXPECT_EQ(message_of([&] { cochrans_q(bad, 1, 2); }), "cochrans_q: success[0][1] must be 0 or 1; got 2");
  EXPECT_EQ(message_of([&] { cochrans_q(bad, 2, 1); }), "cochrans_q: k (classifiers) must be >= 2; got 1");
}

double accuracy_of(std::span<const double> y, std::span<const double> p) {
  double right = 0;
  for (std::size_t i = 0; i < y.size(); ++i) right += (y[i] == p[i]);
  return right / static_cast<double>(y.size());
}

// With accuracy as the metric, swapping predictions only matters on the discordant cases, and the
// permutation distribution of the difference is (n01' - n10') / n with n01' ~ Bin(n01 + n10, 1/2):
// the exact p-value is McNemar's exact binomial p. With 20000 permutations the Monte Carlo p has
// standard error <= sqrt(0.25 / 20000) = 0.0035; the test allows 5 standard errors (failure
// probability < 1e-6 for this fixed seed, and the seed is fixed anyway).
TEST(PermutationTest, AccuracyDifferenceMatchesExactMcNemar) {
  std::vector<double> y(60), a(60), b(60);
  std::int64_t n01 = 0, n10 = 0;
  for (int i = 0; i < 60; ++i) {
    y[i] = i % 2;
    const bool a_right = (i % 5) != 0, b_right = (i % 3) != 0;
    a[i] = a_right ? y[i] : 1 - y[i];
    b[i] = b_right ? y[i] : 1 - y[i];
    n01 += a_right && !b_right;
    n10 += !a_right && b_right;
  }
  permutation_options opts;
  opts.permutations = 20000;
  opts.seed = 7;
  const auto r = paired_permutation_test(y, a, b, accuracy_of, opts);
  EXPECT_NEAR(r.observed, static_cast<double>(n01 - n10) / 60, 1e-15);
  EXPECT_NEAR(r.p_value, mcnemar(n01, n10, mcnemar_method::exact).p_value, 5 * 0.0036);
}

TEST(PermutationTest, DeterministicWhateverTheThreadCount) {
  std::mt19937_64 gen(3);
  std::uniform_int_distribution<int> bit(0, 1);
  std::vector<double> y(200), a(200), b(200);
  for (int i = 0; i < 200; ++i) {
    y[i] = bit(gen);
    a[i] = bit(gen) ? y[i] : bit(gen);
    b[i] = bit(gen) ? y[i] : bit(gen);
  }
  permutation_options opts;
  opts.permutations = 3000;
  opts.seed = 42;
  opts.threads = 1;
  const auto one = paired_permutation_test(y, a, b, accuracy_of, opts);
  for (unsigned t : {2u, 3u, 8u}) {
    opts.threads = t;
    const auto many = paired_permutation_test(y, a, b, accuracy_of, opts);
    EXPECT_EQ(many.extreme, one.extreme) << t;
    EXPECT_EQ(many.p_value, one.p_value);
  }
  opts.seed = 43;
  EXPECT_GT(one.extreme, 100u);  // a p-value far from 0, so that a different seed must show
  EXPECT_NE(paired_permutation_test(y, a, b, accuracy_of, opts).extreme, one.extreme);
}

// Under H0 (both models are draws from the same distribution) the p-values are uniform: over 400
// independent data sets, the share of p <= 0.1 is Bin(400, 0.1)/400 (mean 0.1, sd 0.015), and
// of p <= 0.5 has sd 0.025. Accept within 4 sd each: failure probability < 2e-4 in all.
TEST(PermutationTest, PValuesUniformUnderNull) {
  std::mt19937_64 gen(11);
  std::normal_distribution<double> noise(0, 1);
  int below_01 = 0, below_05 = 0;
  const int runs = 400;
  auto mean_sq = [](std::span<const double> y, std::span<const double> p) {
    double s = 0;
    for (std::size_t i = 0; i < y.size(); ++i) s += (y[i] - p[i]) * (y[i] - p[i]);
    return s / static_cast<double>(y.size());
  };
  for (int run = 0; run < runs; ++run) {
    std::vector<double> y(40), a(40), b(40);
    for (int i = 0; i < 40; ++i) {
      y[i] = noise(gen);
      a[i] = y[i] + noise(gen);
      b[i] = y[i] + noise(gen);
    }
    permutation_options opts;
    opts.permutations = 199;
    opts.seed = static_cast<std::uint64_t>(run);
    opts.threads = 1;
    const double p = paired_permutation_test(y, a, b, mean_sq, opts).p_value;
    below_01 += p <= 0.1;
    below_05 += p <= 0.5;
  }
  EXPECT_NEAR(below_01 / double(runs), 0.1, 4 * 0.015);
  EXPECT_NEAR(below_05 / double(runs), 0.5, 4 * 0.025);
}

TEST(PermutationTest, BadInput) {
  std::vector<double> y{1, 0}, a{1, 0}, b{1};
  EXPECT_EQ(message_of([&] { paired_permutation_test(y, a, b, accuracy_of); }),
            "paired_permutation_test: y_true has 2 cases but pred_a has 2 and pred_b 1");
  permutation_options opts;
  opts.permutations = 0;
  EXPECT_EQ(message_of([&] { paired_permutation_test(y, a, a, accuracy_of, opts); }),
            "paired_permutation_test: permutations must be >= 1; got 0");
  // Identical models: every permutation ties the observed 0, p = 1.
  EXPECT_EQ(paired_permutation_test(y, a, a, accuracy_of).p_value, 1.0);
}

}  // namespace
}  // namespace assay::stats
