// Tests between learners (paired / corrected / 5x2cv t, 5x2cv F, Wilcoxon, Friedman, Nemenyi) against
// SciPy (scipy_stats.json) and hand-worked values.
#include "assay/stats/learner_tests.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "assay/error.hpp"
#include "assay/stats/distributions.hpp"
#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::close;
using testing::load_reference;
using testing::num;
using testing::nums;

using testing::message_of;

TEST(PairedT, MatchesScipyTtest1samp) {
  for (const auto& c : load_reference("scipy_stats.json")["resampling"]["paired_t"]) {
    const auto d = nums(c["deltas"]);
    const auto r = paired_t_test(d, parse_alternative(c["alternative"].get<std::string>()));
    EXPECT_TRUE(close(r.test.statistic, num(c["statistic"]), 1e-12)) << c.dump();
    EXPECT_TRUE(close(r.test.p_value, num(c["pvalue"]), 1e-10)) << c.dump();
    EXPECT_EQ(r.test.df, num(c["df"]));
  }
}

// Seed 003: delta_i = error_{S_i}(h_A) - error_{S_i}(h_B); delta-bar < 0 suggests L_A is better.
// Worked by hand: deltas (-0.02, -0.01, -0.03, 0.00, -0.04): delta-bar = -0.02, s^2 = 0.001 / 4,
// se = sqrt(0.00025 / 5) = 0.0070711, t = -2.8284271, df = 4.
TEST(PairedT, Seed003DeltaBar) {
  const std::vector<double> d{-0.02, -0.01, -0.03, 0.00, -0.04};
  const auto r = paired_t_test(d);
  EXPECT_NEAR(r.mean, -0.02, 1e-16);
  EXPECT_NEAR(r.std_error, std::sqrt(0.00025 / 5), 1e-16);
  EXPECT_NEAR(r.test.statistic, -2 * std::sqrt(2.0), 1e-12);
  EXPECT_EQ(r.test.df, 4);
  // From per-fold errors of the two learners, the same test.
  const std::vector<double> a{0.10, 0.12, 0.09, 0.15, 0.11}, b{0.12, 0.13, 0.12, 0.15, 0.15};
  EXPECT_NEAR(paired_t_test(a, b).test.statistic, r.test.statistic, 1e-9);
}

TEST(PairedT, ZeroVarianceConventions) {
  const std::vector<double> zeros{0, 0, 0}, same{0.5, 0.5, 0.5};
  EXPECT_EQ(paired_t_test(zeros).test.p_value, 1.0);
  EXPECT_EQ(paired_t_test(zeros).test.statistic, 0.0);
  EXPECT_TRUE(std::isinf(paired_t_test(same).test.statistic));
  EXPECT_EQ(paired_t_test(same).test.p_value, 0.0);
  const std::vector<double> one{0.1};
  EXPECT_EQ(message_of([&] { paired_t_test(one); }), "paired_t_test: need at least 2 values; got 1");
  const std::vector<double> bad{0.1, NAN};
  EXPECT_EQ(message_of([&] { paired_t_test(bad); }), "paired_t_test: deltas[1] must be finite; got nan");
}

TEST(CorrectedT, MatchesPublishedFormula) {
  for (const auto& c : load_reference("scipy_stats.json")["resampling"]["corrected_t"]) {
    const auto r = corrected_resampled_t_test(nums(c["deltas"]), num(c["n_train"]), num(c["n_test"]));
    EXPECT_TRUE(close(r.test.statistic, num(c["statistic"]), 1e-12)) << c.dump();
    EXPECT_TRUE(close(r.test.p_value, num(c["pvalue"]), 1e-10)) << c.dump();
  }
  // The correction only ever widens: |t_corrected| < |t_paired| for the same deltas.
  const std::vector<double> d{0.01, 0.03, 0.02, 0.025, 0.015};
  EXPECT_LT(std::fabs(corrected_resampled_t_test(d, 90, 10).test.statistic), std::fabs(paired_t_test(d).test.statistic));
  EXPECT_EQ(message_of([&] { corrected_resampled_t_test(d, 0, 10); }),
            "corrected_resampled_t_test: n_train must be finite and > 0; got 0");
}

// The interval inverts the corrected test: at level 1 - p (p the two-sided p-value of the committed
// replays) one end of the interval is exactly 0; it shares the test's standard error and factor.
TEST(CorrectedInterval, InvertsTheCorrectedTTest) {
  EXPECT_DOUBLE_EQ(corrected_resampled_variance_factor(5, 90, 10), 0.2 + 10.0 / 90);
  int n = 0;
  for (const auto& c : load_reference("scipy_stats.json")["resampling"]["corrected_t"]) {
    if (c.contains("alternative") && c["alternative"] != "two-sided") continue;
    const auto d = nums(c["deltas"]);
    const double n_train = num(c["n_train"]), n_test = num(c["n_test"]), p = num(c["pvalue"]);
    const auto t = corrected_resampled_t_test(d, n_train, n_test);
    const auto ci = corrected_resampled_interval(d, n_train, n_test, 1 - p);
    EXPECT_EQ(ci.std_error, t.std_error);
    EXPECT_EQ(ci.mean, t.mean);
    EXPECT_EQ(ci.df, t.test.df);
    EXPECT_NEAR(t.mean > 0 ? ci.lower : ci.upper, 0.0, 1e-9 * std::fabs(t.mean)) << c.dump();
    const auto wide = corrected_resampled_interval(d, n_train, n_test, 0.99);
    EXPECT_NEAR(wide.upper - wide.mean, t_quantile(0.995, t.test.df) * t.std_error, 1e-12);
    ++n;
  }
  EXPECT_GT(n, 0);
  // n_test = 0 leaves the plain t interval (factor 1/k).
  const std::vector<double> d{0.01, 0.03, 0.02, 0.025, 0.015};
  EXPECT_DOUBLE_EQ(corrected_resampled_interval(d, 90, 0).std_error, paired_t_test(d).std_error);
  EXPECT_EQ(message_of([&] { corrected_resampled_interval(d, 90, 10, 1.0); }),
            "corrected_resampled_interval: level must be in (0, 1); got 1");
  EXPECT_EQ(message_of([&] { corrected_resampled_interval(d, 90, -1); }),
            "corrected_resampled_interval: n_test must be finite and >= 0; got -1");
}

TEST(Cv52, MatchesPublishedFormulas) {
  const auto& ref = load_reference("scipy_stats.json")["resampling"];
  for (std::size_t i = 0; i < ref["cv52_t"].size(); ++i) {
    std::vector<double> p;
    for (const auto& row : ref["cv52_t"][i]["p"]) for (const auto& v : row) p.push_back(num(v));
    const auto t = cv52_paired_t_test(p);
    EXPECT_TRUE(close(t.statistic, num(ref["cv52_t"][i]["statistic"]), 1e-12));
    EXPECT_TRUE(close(t.p_value, num(ref["cv52_t"][i]["pvalue"]), 1e-10));
    EXPECT_EQ(t.df, 5);
    const auto f = cv52_combined_f_test(p);
    EXPECT_TRUE(close(f.statistic, num(ref["cv52_f"][i]["statistic"]), 1e-12));
    EXPECT_TRUE(close(f.p_value, num(ref["cv52_f"][i]["pvalue"]), 1e-10));
    EXPECT_EQ(f.df, 10);
    EXPECT_EQ(f.df2, 5);
  }
  // By hand: p = (0.1, 0.3) in every replication: s_i^2 = 0.02, sum = 0.1, t = 0.1 / sqrt(0.02),
  // F = 5 (0.01 + 0.09) / (2 * 0.1) = 2.5.
  const std::vector<double> p{0.1, 0.3, 0.1, 0.3, 0.1, 0.3, 0.1, 0.3, 0.1, 0.3};
  EXPECT_NEAR(cv52_paired_t_test(p).statistic, 0.1 / std::sqrt(0.02), 1e-12);
  EXPECT_NEAR(cv52_combined_f_test(p).statistic, 2.5, 1e-12);
  EXPECT_EQ(message_of([&] { cv52_combined_f_test(std::span(p).first(9)); }),
            "cv52_combined_f_test: p must hold 5 x 2 = 10 differences; got 9");
}

TEST(Wilcoxon, MatchesScipy) {
  int exact = 0;
  for (const auto& c : load_reference("scipy_stats.json")["wilcoxon"]) {
    wilcoxon_options o;
    const auto zm = c["zero_method"].get<std::string>();
    o.zeros = zm == "wilcox" ? wilcoxon_zeros::wilcox : zm == "pratt" ? wilcoxon_zeros::pratt : wilcoxon_zeros::zsplit;
    o.mode = c["method"] == "exact" ? wilcoxon_mode::exact : wilcoxon_mode::approx;
    o.correction = c["correction"].get<bool>();
    o.alt = parse_alternative(c["alternative"].get<std::string>());
    const auto r = wilcoxon(nums(c["x"]), nums(c["y"]), o);
    EXPECT_TRUE(close(r.statistic, num(c["statistic"]), 1e-13)) << c.dump() << " got " << r.statistic;
    EXPECT_TRUE(close(r.p_value, num(c["pvalue"]), 1e-10)) << c.dump() << " got " << r.p_value;
    EXPECT_EQ(r.method, "wilcoxon_" + c["method"].get<std::string>());
    exact += r.method == "wilcoxon_exact";
  }
  EXPECT_GT(exact, 10);
}

// By hand: d = (1, -2, 3, 4), n = 4, R+ = 1 + 3 + 4 = 8, R- = 2. Of the 16 sign patterns, R+ <= 2 for
// {}, {1}, {2} (sums 0, 1, 2): P(R+ <= 2) = 3/16, two-sided p = 6/16.
TEST(Wilcoxon, HandWorkedExact) {
  const std::vector<double> d{1, -2, 3, 4};
  const auto r = wilcoxon(d);
  EXPECT_EQ(r.statistic, 2);
  EXPECT_DOUBLE_EQ(r.p_value, 6.0 / 16);
  EXPECT_EQ(r.method, "wilcoxon_exact");
  wilcoxon_options g;
  g.alt = alternative::greater;
  EXPECT_DOUBLE_EQ(wilcoxon(d, g).p_value, 3.0 / 16);  // P(R+ >= 8) = P(R+ <= 2) by symmetry
  // Ties switch to the approximation, and the method says so.
  const std::vector<double> tied{1, -1, 2, 3, 4};
  EXPECT_EQ(wilcoxon(tied).method, "wilcoxon_approx");
  const std::vector<double> zeros{0, 0};
  EXPECT_EQ(message_of([&] { wilcoxon(zeros); }),
            "wilcoxon: every difference x - y is zero; the test is undefined (use zeros = zsplit to get p = 1)");
}

TEST(Friedman, MatchesScipy) {
  for (const auto& c : load_reference("scipy_stats.json")["friedman"]) {
    const auto r = friedman(nums(c["data"]), c["n"].get<std::size_t>(), c["k"].get<std::size_t>());
    EXPECT_TRUE(close(r.test.statistic, num(c["statistic"]), 1e-12)) << c.dump();
    EXPECT_TRUE(close(r.test.p_value, num(c["pvalue"]), 1e-10)) << c.dump();
    double sum = 0;
    for (double m : r.mean_ranks) sum += m;
    const double k = c["k"].get<double>();
    EXPECT_NEAR(sum, k * (k + 1) / 2, 1e-12);  // mean ranks always sum to k(k+1)/2
  }
  const std::vector<double> d{1, 2, 3, 4};
  EXPECT_EQ(message_of([&] { friedman(d, 2, 2); }), "friedman: k (treatments) must be >= 3; got 2");
  const std::vector<double> flat{1, 1, 1, 2, 2, 2};
  EXPECT_EQ(friedman(flat, 2, 3).test.p_value, 1.0);
}

TEST(Nemenyi, MatchesScipyStudentizedRangeAndDemsarTable) {
  for (const auto& c : load_reference("scipy_stats.json")["nemenyi_q"]) {
    EXPECT_TRUE(close(nemenyi_q(c["k"].get<std::size_t>(), num(c["alpha"])), num(c["q"]), 1e-8)) << c.dump();
  }
  // Demsar (2006), Table 5(a), q_0.05 for k = 2..10, printed to 3 decimals (not all correctly rounded:
  // k = 3 is 2.34370 printed 2.343, k = 7 is 2.94832 printed 2.949), hence 0.001.
  const double q05[] = {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164};
  for (std::size_t k = 2; k <= 10; ++k) EXPECT_NEAR(nemenyi_q(k, 0.05), q05[k - 2], 0.001) << k;
  // Demsar's example: k = 4 algorithms, N = 14 data sets, CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25.
  EXPECT_NEAR(nemenyi_critical_difference(4, 14), 1.25, 0.005);
}

TEST(Nemenyi, PValuesAgreeWithTheCriticalDifference) {
  // P(W >= q) is alpha exactly at q = the Nemenyi quantile: a mean-rank difference equal to the
  // critical difference has p-value alpha, for every k and n (the same range CDF, inverted).
  for (std::size_t k : {2, 3, 5, 10, 40}) {
    for (std::size_t n : {1, 7, 50}) {
      for (double alpha : {0.01, 0.05, 0.1}) {
        const double cd = nemenyi_critical_difference(k, n, alpha);
        std::vector<double> r(k, 1.0);
        r[1] = 1.0 + cd;
        const auto p = nemenyi_p_values(r, n);
        EXPECT_NEAR(p[1], alpha, 1e-9) << k << " " << n << " " << alpha;
        EXPECT_EQ(p[k], p[1]);       // symmetric
        EXPECT_EQ(p[0], 1.0);        // diagonal
        if (k > 2) EXPECT_EQ(p[2], 1.0);  // equal mean ranks
      }
    }
  }
  // Demsar's example (JMLR 7, 2006, section 3.2.4): k = 4, N = 14, mean ranks 3.143, 2.000, 2.893,
  // 1.964. C4.5 (3.143) and C4.5+m+cf (1.964) differ by 1.179: below CD_0.05 = 1.25, above
  // CD_0.10 = 1.12, so their p-value is between 0.05 and 0.10.
  const std::vector<double> ranks{3.143, 2.000, 2.893, 1.964};
  const auto p = nemenyi_p_values(ranks, 14);
  EXPECT_GT(p[0 * 4 + 3], 0.05);
  EXPECT_LT(p[0 * 4 + 3], 0.10);
  EXPECT_EQ(message_of([&] { nemenyi_p_values(std::vector<double>{1.0}, 3); }),
            "nemenyi_p_values: 1 mean ranks given; k must be in [2, 1000]");
  EXPECT_EQ(message_of([&] { nemenyi_p_values(ranks, 0); }), "nemenyi_p_values: n (data sets) must be >= 1; got 0");
}

TEST(Midranks, AsScipyRankdata) {
  const std::vector<double> v{3, 1, 4, 1, 5, 9, 2, 6, 5};
  const std::vector<double> expected{4, 1.5, 5, 1.5, 6.5, 9, 3, 8, 6.5};
  EXPECT_EQ(midranks(v), expected);
}

}  // namespace
}  // namespace assay::stats
