// Bootstrap: interval rules against numpy / SciPy on given replicates (scipy_stats.json), determinism
// across thread counts, coverage on simulated data (declared failure probabilities), the AUC fast
// path against the generic path, and bad input.
#include "assay/stats/bootstrap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "assay/error.hpp"
#include "assay/stats/delong.hpp"
#include "assay/stats/proportion.hpp"
#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::close;
using testing::load_reference;
using testing::num;
using testing::nums;

using testing::message_of;

TEST(BootstrapRules, PercentileAndBcaMatchScipy) {
  for (const auto& c : load_reference("scipy_stats.json")["bootstrap_rules"]) {
    const auto x = nums(c["x"]);
    const auto reps = nums(c["replicates"]);
    const double level = num(c["level"]);
    const auto [lo, hi] = percentile_interval(reps, level);
    EXPECT_TRUE(close(lo.v, num(c["percentile"][0]), 1e-14)) << c["statistic"];
    EXPECT_TRUE(close(hi.v, num(c["percentile"][1]), 1e-14)) << c["statistic"];
    // Leave-one-out jackknife of the statistic, computed here.
    const bool is_mean = c["statistic"] == "mean";
    auto stat = [&](const std::vector<double>& v) {
      double m = 0;
      for (double t : v) m += t;
      m /= static_cast<double>(v.size());
      if (is_mean) return m;
      double ss = 0;
      for (double t : v) ss += (t - m) * (t - m);
      return ss / static_cast<double>(v.size() - 1);
    };
    std::vector<double> jack;
    for (std::size_t i = 0; i < x.size(); ++i) {
      std::vector<double> rest;
      for (std::size_t j = 0; j < x.size(); ++j) if (j != i) rest.push_back(x[j]);
      jack.push_back(stat(rest));
    }
    const auto b = bca_interval(stat(x), reps, jack, level);
    EXPECT_TRUE(close(b.acceleration, num(c["acceleration"]), 1e-10)) << c["statistic"];
    EXPECT_TRUE(close(b.lower.v, num(c["bca"][0]), 1e-12)) << c["statistic"];
    EXPECT_TRUE(close(b.upper.v, num(c["bca"][1]), 1e-12)) << c["statistic"];
  }
}

TEST(BootstrapRules, QuantileType7ByHand) {
  const std::vector<double> s{1, 2, 4, 8};
  EXPECT_DOUBLE_EQ(quantile_sorted(s, 0.0), 1);
  EXPECT_DOUBLE_EQ(quantile_sorted(s, 1.0), 8);
  EXPECT_DOUBLE_EQ(quantile_sorted(s, 0.5), 3);       // h = 1.5
  EXPECT_DOUBLE_EQ(quantile_sorted(s, 0.25), 1.75);   // h = 0.75
  // Every replicate on one side: BCa undefined, said so.
  const std::vector<double> above{2, 3, 4};
  const auto b = bca_interval(1.0, above, above, 0.95);
  EXPECT_FALSE(b.lower.defined());
  EXPECT_EQ(b.lower.reason, "BCa undefined: every bootstrap replicate lies on one side of the estimate");
}

double mean_of(const std::vector<double>& x, std::span<const std::uint32_t> rows) {
  double s = 0;
  for (auto r : rows) s += x[r];
  return s / static_cast<double>(rows.size());
}

// The DeLong-module AUC of the drawn rows (NaN when they hold one class): the generic statistic the AUC
// fast paths must reproduce.
double auc_of(const std::vector<std::int32_t>& y, const std::vector<double>& s, std::span<const std::uint32_t> rows) {
  std::vector<std::int32_t> yy;
  std::vector<double> ss;
  for (auto r : rows) {
    yy.push_back(y[r]);
    ss.push_back(s[r]);
  }
  const auto a = delong(yy, ss).auc;
  return a.defined() ? a.v : std::nan("");
}

// Options that keep the replicate values, to compare two runs replicate by replicate.
bootstrap_options keeping(std::size_t replicates, std::uint64_t seed, bootstrap_method method,
                          std::span<const std::int32_t> strata) {
  bootstrap_options o;
  o.replicates = replicates;
  o.seed = seed;
  o.method = method;
  o.strata = strata;
  o.keep_distribution = true;
  return o;
}

TEST(Bootstrap, DeterministicWhateverTheThreadCount) {
  std::mt19937_64 gen(5);
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> x(300);
  std::vector<std::int32_t> strata(300);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = nd(gen);
    strata[i] = static_cast<std::int32_t>(i % 3);
  }
  auto stat = [&](std::span<const std::uint32_t> rows) { return mean_of(x, rows); };
  for (auto method : {bootstrap_method::percentile, bootstrap_method::bca}) {
    bootstrap_options o = keeping(500, 99, method, strata);
    o.threads = 1;
    const auto one = bootstrap_ci(x.size(), stat, o);
    for (unsigned t : {2u, 3u, 7u}) {
      o.threads = t;
      const auto many = bootstrap_ci(x.size(), stat, o);
      EXPECT_EQ(many.distribution, one.distribution) << t;
      EXPECT_EQ(many.lower.v, one.lower.v);
      EXPECT_EQ(many.upper.v, one.upper.v);
    }
  }
  std::vector<std::int32_t> y(300);
  std::vector<double> s(300);
  for (std::size_t i = 0; i < y.size(); ++i) {
    y[i] = static_cast<std::int32_t>(i % 4 == 0);
    s[i] = nd(gen) + y[i];
  }
  bootstrap_options o;
  o.replicates = 300;
  o.keep_distribution = true;
  o.threads = 1;
  const auto one = bootstrap_auc(y, s, o);
  o.threads = 4;
  EXPECT_EQ(bootstrap_auc(y, s, o).distribution, one.distribution);
}

// Stratified resampling keeps each stratum's size: the mean of a 0/1 stratum indicator is constant.
TEST(Bootstrap, StratifiedKeepsStratumSizes) {
  std::vector<double> ind(50);
  std::vector<std::int32_t> strata(50);
  for (std::size_t i = 0; i < 50; ++i) ind[i] = strata[i] = static_cast<std::int32_t>(i < 12);
  bootstrap_options o;
  o.replicates = 200;
  o.strata = strata;
  o.keep_distribution = true;
  const auto r = bootstrap_ci(50, [&](std::span<const std::uint32_t> rows) { return mean_of(ind, rows); }, o);
  for (double v : r.distribution) EXPECT_DOUBLE_EQ(v, 12.0 / 50);
}

// The AUC fast path (one sort, then multiplicities per replicate) draws the k-th case in score order
// (within its class when stratified) where the generic path draws the k-th row. On rows already
// sorted by score the two draw the same cases with the same seed, so every replicate must equal the
// AUC recomputed from the resampled rows (up to summation order), stratified and not.
TEST(Bootstrap, AucFastPathEqualsGenericPathReplicateByReplicate) {
  std::mt19937_64 gen(8);
  std::normal_distribution<double> nd(0, 1);
  const std::size_t n = 300;
  std::vector<std::int32_t> y(n);
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = static_cast<std::int32_t>(gen() % 3 == 0);
    s[i] = std::round((nd(gen) + y[i]) * 4) / 4;  // ties
  }
  {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return s[a] < s[b]; });
    std::vector<std::int32_t> ys(n);
    std::vector<double> ss(n);
    for (std::size_t i = 0; i < n; ++i) {
      ys[i] = y[order[i]];
      ss[i] = s[order[i]];
    }
    y = ys;
    s = ss;
  }
  auto auc_of_rows = [&](std::span<const std::uint32_t> rows) { return auc_of(y, s, rows); };
  for (bool stratified : {true, false}) {
    bootstrap_options o = keeping(300, 1, bootstrap_method::percentile, {});
    if (stratified) o.strata = y;
    const auto generic = bootstrap_ci(n, auc_of_rows, o);
    const auto fast = bootstrap_auc(y, s, o, stratified);
    EXPECT_EQ(fast.estimate, generic.estimate);
    ASSERT_EQ(fast.distribution.size(), generic.distribution.size());
    for (std::size_t r = 0; r < fast.distribution.size(); ++r) {
      EXPECT_NEAR(fast.distribution[r], generic.distribution[r], 1e-13) << r << (stratified ? " stratified" : " simple");
    }
  }
  // The bootstrap SD of the AUC is close to the DeLong standard error (both estimate the same
  // sampling SD); with 2000 replicates the SD is estimated to ~1.6% relative; allow 15%.
  bootstrap_options o;
  const auto fast = bootstrap_auc(y, s, o);
  EXPECT_NEAR(fast.std_error, std::sqrt(delong(y, s).variance.v), 0.15 * fast.std_error);
}

// The paired AUC fast path draws the same cases as the generic paired bootstrap stratified by class
// (data not sorted, ties, two correlated models), so the replicate differences agree to rounding;
// the jackknife for BCa agrees too (same interval), and the bootstrap-z test is the same rule.
TEST(Bootstrap, PairedAucFastPathEqualsGenericReplicateByReplicate) {
  std::mt19937_64 gen(81);
  std::normal_distribution<double> nd(0, 1);
  const std::size_t n = 120;
  std::vector<std::int32_t> y(n);
  std::vector<double> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = static_cast<std::int32_t>(gen() % 3 == 0);
    a[i] = std::round((nd(gen) + y[i]) * 3) / 3;  // ties
    b[i] = std::round((0.5 * a[i] + nd(gen) + 0.7 * y[i]) * 2) / 2;
  }
  auto auc_rows = [&y](const std::vector<double>& s) {
    return [&y, &s](std::span<const std::uint32_t> rows) { return auc_of(y, s, rows); };
  };
  for (auto method : {bootstrap_method::percentile, bootstrap_method::bca}) {
    const bootstrap_options o = keeping(100, 4, method, y);
    const auto generic = paired_bootstrap(n, auc_rows(a), auc_rows(b), o);
    const auto fast = paired_bootstrap_auc(y, a, b, o);
    EXPECT_NEAR(fast.difference.estimate, generic.difference.estimate, 1e-15);
    ASSERT_EQ(fast.difference.distribution.size(), 100u);
    for (std::size_t r = 0; r < 100; ++r) {
      EXPECT_NEAR(fast.difference.distribution[r], generic.difference.distribution[r], 1e-13) << r;
    }
    EXPECT_NEAR(fast.difference.lower.v, generic.difference.lower.v, 1e-12) << to_string(method);
    EXPECT_NEAR(fast.difference.upper.v, generic.difference.upper.v, 1e-12) << to_string(method);
    EXPECT_NEAR(fast.test.p_value, generic.test.p_value, 1e-9);
    EXPECT_EQ(fast.test.method, "bootstrap_z");
  }
  const std::vector<double> short_b(3, 0.5);
  EXPECT_EQ(message_of([&] { paired_bootstrap_auc(y, a, short_b); }),
            "paired_bootstrap_auc: y_true has 120 cases but score_a has 120 and score_b 3");
}

// Coverage: over 300 simulated samples of n = 60 from Bernoulli(0.3), the 95% percentile bootstrap
// interval of the mean (500 replicates) should contain 0.3 about 93-95% of the time (the percentile
// bootstrap under-covers slightly at this n). If the true coverage is anywhere in [0.92, 0.96], the
// observed share over 300 runs lies in [0.87, 0.99] except with probability < 1e-3 (> 3.3 sd).
TEST(Bootstrap, CoverageOfKnownProportion) {
  std::mt19937_64 gen(17);
  std::bernoulli_distribution coin(0.3);
  for (auto method : {bootstrap_method::percentile, bootstrap_method::bca}) {
    int covered = 0;
    const int runs = 300;
    for (int run = 0; run < runs; ++run) {
      std::vector<double> x(60);
      for (auto& v : x) v = coin(gen);
      bootstrap_options o;
      o.replicates = 500;
      o.seed = static_cast<std::uint64_t>(run);
      o.method = method;
      o.threads = 1;
      const auto r = bootstrap_ci(60, [&](std::span<const std::uint32_t> rows) { return mean_of(x, rows); }, o);
      covered += r.lower.defined() && r.lower.v <= 0.3 && 0.3 <= r.upper.v;
    }
    EXPECT_GE(covered / double(runs), 0.87) << to_string(method);
    EXPECT_LE(covered / double(runs), 0.99) << to_string(method);
  }
}

// Wilson's coverage is computed exactly (no simulation): for X ~ Bin(n, p), coverage(p) =
// sum_k P(X = k) [p in CI(k)]. Over p on a grid in [0.05, 0.95] at n = 50 its mean is close to 95%
// (Brown, Cai & DasGupta 2001 report ~0.95 on average, with oscillations) and never below 0.83.
TEST(Coverage, WilsonExactCoverageNearNominal) {
  const int n = 50;
  double total = 0, worst = 1;
  int points = 0;
  std::vector<proportion_interval> ci;
  for (int k = 0; k <= n; ++k) ci.push_back(proportion_ci(k, n));
  for (double p = 0.05; p <= 0.95 + 1e-9; p += 0.005) {
    double cov = 0, pk = std::pow(1 - p, n);
    for (int k = 0; k <= n; ++k) {
      if (ci[k].lower <= p && p <= ci[k].upper) cov += pk;
      pk *= (p / (1 - p)) * (n - k) / (k + 1.0);
    }
    total += cov;
    worst = std::min(worst, cov);
    ++points;
  }
  EXPECT_NEAR(total / points, 0.95, 0.01);
  EXPECT_GT(worst, 0.83);
  // The Wald interval, by contrast, under-covers on average (why Wilson is the default).
  double wald_total = 0;
  for (double p = 0.05; p <= 0.95 + 1e-9; p += 0.005) {
    double cov = 0, pk = std::pow(1 - p, n);
    for (int k = 0; k <= n; ++k) {
      const auto w = proportion_ci(k, n, 0.95, proportion_method::normal);
      if (w.lower <= p && p <= w.upper) cov += pk;
      pk *= (p / (1 - p)) * (n - k) / (k + 1.0);
    }
    wald_total += cov;
  }
  EXPECT_LT(wald_total / points, total / points - 0.01);
}

TEST(Bootstrap, PairedDifference) {
  std::mt19937_64 gen(23);
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> a(200), b(200);
  for (std::size_t i = 0; i < 200; ++i) {
    const double common = nd(gen);
    a[i] = common + 0.3 + 0.2 * nd(gen);
    b[i] = common + 0.2 * nd(gen);
  }
  auto ma = [&](std::span<const std::uint32_t> r) { return mean_of(a, r); };
  auto mb = [&](std::span<const std::uint32_t> r) { return mean_of(b, r); };
  const auto r = paired_bootstrap(200, ma, mb);
  // The paired design removes the common part: SD of the difference ~ sqrt(0.08 / 200) = 0.02, far
  // below the unpaired ~ sqrt(2 * 1.04 / 200) = 0.10.
  EXPECT_NEAR(r.difference.std_error, 0.02, 0.005);
  EXPECT_LT(r.difference.lower.v, r.difference.estimate);
  EXPECT_GT(r.difference.lower.v, 0.2);
  EXPECT_LT(r.test.p_value, 1e-10);
  EXPECT_EQ(r.test.method, "bootstrap_z");
  // Same model twice: difference 0, p = 1.
  EXPECT_EQ(paired_bootstrap(200, ma, ma).test.p_value, 1.0);
}

TEST(Bootstrap, BadInput) {
  auto stat = [](std::span<const std::uint32_t>) { return 0.0; };
  bootstrap_options o;
  o.replicates = 0;
  EXPECT_EQ(message_of([&] { bootstrap_ci(10, stat, o); }), "bootstrap_ci: replicates must be >= 1; got 0");
  o.replicates = 10;
  o.level = 1.5;
  EXPECT_EQ(message_of([&] { bootstrap_ci(10, stat, o); }), "bootstrap_ci: level must be in (0, 1); got 1.5");
  o.level = 0.95;
  std::vector<std::int32_t> strata(3);
  o.strata = strata;
  EXPECT_EQ(message_of([&] { bootstrap_ci(10, stat, o); }), "bootstrap_ci: strata has 3 entries but there are 10 rows");
  EXPECT_EQ(message_of([&] { bootstrap_ci(0, stat); }), "bootstrap_ci: no rows to resample");
  const std::vector<std::int32_t> y{1, 1, 1};
  const std::vector<double> s{0.1, 0.2, 0.3};
  EXPECT_EQ(message_of([&] { bootstrap_auc(y, s); }), "bootstrap_auc: the AUC is undefined: no negative case");
  const std::vector<double> bad{0.1, NAN, 0.3};
  const std::vector<std::int32_t> y2{1, 0, 1};
  EXPECT_EQ(message_of([&] { bootstrap_auc(y2, bad); }), "delong: y_score[1] must be finite; got nan");
}

}  // namespace
}  // namespace assay::stats
