// The Poisson bootstrap (poisson_bootstrap.hpp) and its counter-based weights (random.hpp), and the
// intervals without resampling (asymptotic.hpp): the Poisson(1) law and independence of the weights
// (chi-square tests), the one-pass kernel against a plain reference bit for bit, the same result on
// any thread count, and the coverage of each interval on simulated data from a known population.
//
// Every statistical check declares its failure probability: a chi-square statistic beyond the
// 1 - 1e-6 quantile, or a count of covering intervals outside a binomial acceptance region of total
// probability <= 1e-6 (coverage_ok below), fails a correct implementation with probability <= 1e-6.
#include "assay/stats/poisson_bootstrap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <cmath>
#include <random>
#include <set>

#include "assay/stats/asymptotic.hpp"
#include "assay/stats/detail/poisson_draws.hpp"
#include "assay/stats/distributions.hpp"
#include "assay/stats/random.hpp"
#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::message_of;

// Poisson(1) probabilities of 0..K-2 and of >= K-1.
template <std::size_t K>
std::array<double, K> poisson1_cells() {
  std::array<double, K> p{};
  double pk = std::exp(-1.0), rest = 1;
  for (std::size_t k = 0; k + 1 < K; ++k) {
    p[k] = pk;
    rest -= pk;
    pk /= static_cast<double>(k + 1);
  }
  p[K - 1] = rest;
  return p;
}

TEST(Poisson1, IsAPureFunctionOfSeedReplicateAndRow) {
  EXPECT_EQ(poisson1(3, 5, 7), poisson1_at(poisson1_key(3, 5), 7));
  // Different seeds and replicates give different weight vectors.
  std::set<std::vector<std::uint32_t>> seen;
  for (std::uint64_t seed : {0, 1}) {
    for (std::uint64_t r : {0, 1, 2}) {
      std::vector<std::uint32_t> v;
      for (std::uint64_t i = 0; i < 64; ++i) v.push_back(poisson1(seed, r, i));
      seen.insert(v);
    }
  }
  EXPECT_EQ(seen.size(), 6u);
  // Inversion at the edges of the table: u = 0 is 0; the largest word is 20.
  EXPECT_EQ(poisson1_of_bits(0), 0u);
  EXPECT_EQ(poisson1_of_bits(poisson1_cdf_2_64[0] - 1), 0u);
  EXPECT_EQ(poisson1_of_bits(poisson1_cdf_2_64[0]), 1u);
  EXPECT_EQ(poisson1_of_bits(poisson1_cdf_2_64[3]), 4u);
  EXPECT_EQ(poisson1_of_bits(~std::uint64_t{0}), 20u);
}

// Marginal law: 2 x 10^6 draws in 7 cells (0..5, >= 6) against Poisson(1); chi-square with 6 df.
// Joint laws: (replicate 0, replicate 1) of the same row and (row i, row i + 1) of one replicate in
// 4 x 4 cells (0, 1, 2, >= 3) against the product of the marginals; 15 df. Each fails a correct
// generator with probability 1e-6.
TEST(Poisson1, FollowsPoissonOneAndIsIndependentAcrossReplicatesAndRows) {
  const std::size_t n = 1000000;
  const auto p7 = poisson1_cells<7>();
  std::array<double, 7> count{};
  std::array<double, 16> across{}, along{};
  auto cell4 = [](std::uint32_t k) { return std::min<std::uint32_t>(k, 3); };
  double sum = 0, sum2 = 0;
  for (std::uint64_t r = 0; r < 2; ++r) {
    const std::uint64_t key = poisson1_key(11, r);
    std::uint32_t prev = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint32_t k = poisson1_at(key, i);
      count[std::min<std::uint32_t>(k, 6)] += 1;
      sum += k;
      sum2 += double(k) * k;
      if (i > 0 && i % 2 == 1 && r == 0) along[cell4(prev) * 4 + cell4(k)] += 1;  // disjoint pairs
      if (r == 0) across[cell4(k) * 4 + cell4(poisson1(11, 1, i))] += 1;
      prev = k;
    }
  }
  double chi = 0;
  for (std::size_t c = 0; c < 7; ++c) chi += std::pow(count[c] - 2.0 * n * p7[c], 2) / (2.0 * n * p7[c]);
  EXPECT_LT(chi, chi2_quantile(1 - 1e-6, 6));
  const auto p4 = poisson1_cells<4>();
  for (const auto* t : {&across, &along}) {
    const double total = t == &across ? double(n) : double(n / 2);
    double x = 0;
    for (std::size_t a = 0; a < 4; ++a)
      for (std::size_t b = 0; b < 4; ++b) {
        const double e = total * p4[a] * p4[b];
        x += std::pow((*t)[a * 4 + b] - e, 2) / e;
      }
    EXPECT_LT(x, chi2_quantile(1 - 1e-6, 15)) << (t == &across ? "across replicates" : "along rows");
  }
  // Mean and variance 1 (loose: 6 sd of the sample mean is 0.004).
  EXPECT_NEAR(sum / (2.0 * n), 1.0, 0.005);
  EXPECT_NEAR(sum2 / (2.0 * n) - std::pow(sum / (2.0 * n), 2), 1.0, 0.01);
}

// ---- the kernel against a plain reference ----------------------------------------------------

struct toy {
  std::vector<std::int32_t> y;
  std::vector<double> score, loss, w;
};

// Scores with many ties (10 levels), positives scored higher on average.
toy make_toy(std::size_t n, std::uint64_t seed, bool weights) {
  std::mt19937_64 g(seed);
  toy t;
  for (std::size_t i = 0; i < n; ++i) {
    const int y = g() % 10 < 3 ? 1 : 0;
    t.y.push_back(y);
    t.score.push_back(static_cast<double>((g() % 7) + 3 * y) / 10.0);
    t.loss.push_back(std::uniform_real_distribution<double>(0, 2)(g));
    if (weights) t.w.push_back(static_cast<double>(1 + g() % 3));  // integers: sums stay exact
  }
  return t;
}

// Replicate b of the statistics, written as plainly as possible: the weight of row i is
// w_i poisson1(seed, b, i); mean in decreasing score order; AUC over all positive-negative pairs; AP over the
// distinct scores from the highest down, precision at each from the rows scored at or above it.
std::array<double, 3> reference_replicate(const toy& t, std::uint64_t seed, std::uint64_t b) {
  const std::size_t n = t.y.size();
  std::vector<double> k(n);
  for (std::size_t i = 0; i < n; ++i) k[i] = (t.w.empty() ? 1.0 : t.w[i]) * poisson1(seed, b, i);
  // The kernel sums in the order of its pass: decreasing score, ties in row order.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return t.score[a] > t.score[b]; });
  double num = 0, den = 0;
  for (std::size_t i : order) {
    num += k[i] * t.loss[i];
    den += k[i];
  }
  double wins = 0, P = 0, N = 0;
  for (std::size_t i = 0; i < n; ++i) (t.y[i] ? P : N) += k[i];
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (t.y[i] == 1 && t.y[j] == 0) {
        wins += t.score[i] > t.score[j] ? k[i] * k[j] : t.score[i] == t.score[j] ? 0.5 * k[i] * k[j] : 0.0;
      }
  std::set<double, std::greater<>> levels(t.score.begin(), t.score.end());
  double ap = 0;
  for (double s : levels) {
    double tp = 0, fp = 0, here = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (t.score[i] >= s) (t.y[i] ? tp : fp) += k[i];
      if (t.score[i] == s && t.y[i]) here += k[i];
    }
    if (here > 0) ap += here * (tp / (tp + fp));
  }
  const double nan = std::nan("");
  return {den > 0 ? num / den : nan, P > 0 && N > 0 ? wins / (P * N) : nan, P > 0 ? ap / P : nan};
}

// The baseline kernels forced for the scope (and the widest again after): the pass must give the
// same bits on both.
struct baseline_kernels {
  explicit baseline_kernels(bool on) { detail::use_baseline_poisson_kernels(on); }
  ~baseline_kernels() { detail::use_baseline_poisson_kernels(false); }
};

TEST(PoissonBootstrap, MatchesAPlainReferenceBitForBit) {
  for (const int run : {0, 1, 2, 3}) {  // without and with weights, on the widest and the baseline kernels
    const bool weights = run % 2 == 1;
    const baseline_kernels kernels(run >= 2);
    const toy t = make_toy(150, weights ? 5 : 4, weights);
    poisson_statistics s;
    s.rows = t.y.size();
    s.weight = t.w;
    s.means = {t.loss};
    s.y_true = t.y;
    s.y_score = t.score;
    s.roc_auc = s.average_precision = true;
    bootstrap_options o;
    o.replicates = 37;  // not a multiple of the batch
    o.seed = 9;
    o.keep_distribution = true;
    const auto res = poisson_bootstrap(s, o);
    ASSERT_EQ(res.size(), 3u);
    for (std::size_t st = 0; st < 3; ++st) {
      std::vector<double> want;
      for (std::uint64_t b = 0; b < o.replicates; ++b) {
        const double v = reference_replicate(t, o.seed, b)[st];
        want.push_back(v);
        EXPECT_EQ(std::isnan(v), std::isnan(res[st].distribution[b]));
        if (!std::isnan(v)) EXPECT_EQ(v, res[st].distribution[b]) << "statistic " << st << " replicate " << b;
      }
      const auto [lo, hi] = percentile_interval(want, 0.95);
      EXPECT_EQ(lo.v, res[st].lower.v);
      EXPECT_EQ(hi.v, res[st].upper.v);
    }
    // The estimate is the statistic with every Poisson weight 1.
    double num = 0, den = 0;
    for (std::size_t i = 0; i < t.y.size(); ++i) {
      num += (t.w.empty() ? 1.0 : t.w[i]) * t.loss[i];
      den += t.w.empty() ? 1.0 : t.w[i];
    }
    EXPECT_NEAR(res[0].estimate, num / den, 1e-12);
  }
}

TEST(PoissonBootstrap, SameResultOnAnyThreadCount) {
  const toy t = make_toy(5000, 8, false);
  poisson_statistics s;
  s.rows = t.y.size();
  s.means = {t.loss};
  s.y_true = t.y;
  s.y_score = t.score;
  s.roc_auc = s.average_precision = true;
  bootstrap_options o;
  o.replicates = 101;
  o.keep_distribution = true;
  o.threads = 1;
  const auto one = poisson_bootstrap(s, o);
  o.threads = 4;
  std::size_t calls = 0, last = 0;
  o.progress = [&](std::size_t done, std::size_t total) {
    ++calls;
    EXPECT_EQ(total, 101u);
    EXPECT_GE(done, last);
    last = done;
  };
  const auto four = poisson_bootstrap(s, o);
  EXPECT_GE(calls, 1u);
  EXPECT_EQ(last, 101u);
  o.progress = nullptr;
  for (std::size_t st = 0; st < one.size(); ++st) EXPECT_EQ(one[st].distribution, four[st].distribution);
  // The generic weighted path draws the same weights: its mean equals the kernel's.
  const auto generic = poisson_bootstrap_weighted(
      t.y.size(), {}, 1,
      [&](std::span<const double> w, std::span<double> out) {
        double num = 0, den = 0;
        for (std::size_t i = 0; i < w.size(); ++i) num += w[i] * t.loss[i], den += w[i];
        out[0] = num / den;
      },
      o);
  poisson_statistics means_only;  // without a score the mean is summed in row order, as `generic`
  means_only.rows = t.y.size();
  means_only.means = {t.loss};
  EXPECT_EQ(generic[0].distribution, poisson_bootstrap(means_only, o)[0].distribution);
  for (std::size_t b = 0; b < 101; ++b) EXPECT_NEAR(generic[0].distribution[b], one[0].distribution[b], 1e-12);
}

// The weights of a batch drawn eight at a time (the vector version where the processor has one)
// are poisson1_at's, including the lanes past the branch-free thresholds (k >= 5, about 3,000 of
// the 800,000 here) and ids near 2^64.
TEST(PoissonDraws, EqualPoisson1AtBitForBit) {
  std::array<std::uint64_t, detail::poisson_lanes> key;
  for (std::size_t b = 0; b < key.size(); ++b) key[b] = poisson1_key(11, 40 + b);
  std::vector<std::uint64_t> ids(100000);
  std::mt19937_64 g(3);
  for (std::size_t t = 0; t < ids.size(); ++t) ids[t] = t % 3 == 0 ? g() : t % 3 == 1 ? t : ~std::uint64_t{0} - t;
  std::vector<double> fast(ids.size() * key.size()), plain(fast.size());
  detail::draw_poisson_counts(key.data(), ids.data(), ids.size(), fast.data());
  detail::draw_poisson_counts_scalar(key.data(), ids.data(), ids.size(), plain.data());
  std::size_t far = 0;
  for (std::size_t t = 0; t < ids.size(); ++t) {
    for (std::size_t b = 0; b < key.size(); ++b) {
      const double want = poisson1_at(key[b], ids[t]);
      far += want >= 5;
      ASSERT_EQ(fast[t * key.size() + b], want) << "id " << ids[t] << " lane " << b;
      ASSERT_EQ(plain[t * key.size() + b], want) << "id " << ids[t] << " lane " << b;
    }
  }
  EXPECT_GT(far, 1000u);
}

// other_average_precision gives the numbers of a second call on truth 1 - y and score -score (AP
// alone), and leaves the other statistics as they were: on ties (groups longer than the kernel's
// block of 256 rows among them), on distinct scores, with 0.0 and -0.0 in one group, weighted or
// not, with row ids, on one thread or four, with the widest kernels or the baseline ones.
TEST(PoissonBootstrap, OtherClassAveragePrecisionIsASecondCallsBitForBit) {
  struct data_case {
    std::size_t n;
    bool distinct, weights, ids;
  };
  for (const data_case dc : {data_case{150, false, false, false}, data_case{5000, false, false, true},
                             data_case{5000, false, true, false}, data_case{3000, true, false, false},
                             data_case{3000, true, true, true}}) {
    toy t = make_toy(dc.n, 17 + dc.n, dc.weights);
    std::mt19937_64 g(dc.n);
    for (double& w : t.w) w = std::uniform_real_distribution<double>(0.1, 3)(g);  // sums that round: order shows
    if (dc.distinct) {
      for (double& s : t.score) s = std::uniform_real_distribution<double>(0, 1)(g);
    } else {
      for (std::size_t i = 0; i < t.score.size(); i += 7)
        if (t.score[i] == 0.0) t.score[i] = -0.0;  // the same tie group as 0.0
    }
    std::vector<std::uint64_t> ids;
    if (dc.ids)
      for (std::size_t i = 0; i < dc.n; ++i) ids.push_back(1000003 * i + 17);
    std::vector<std::int32_t> y_other(dc.n);
    std::vector<double> minus(dc.n);
    for (std::size_t i = 0; i < dc.n; ++i) {
      y_other[i] = 1 - t.y[i];
      minus[i] = -t.score[i];
    }
    poisson_statistics s;
    s.rows = dc.n;
    s.weight = t.w;
    s.row_ids = ids;
    s.means = {t.loss};
    s.y_true = t.y;
    s.y_score = t.score;
    s.roc_auc = s.average_precision = true;
    poisson_statistics other = s;
    other.means.clear();
    other.roc_auc = false;
    other.y_true = y_other;
    other.y_score = minus;
    bootstrap_options o;
    o.replicates = 45;  // not a multiple of the batch
    o.seed = 5;
    o.keep_distribution = true;
    const auto without = poisson_bootstrap(s, o);
    const auto second = poisson_bootstrap(other, o);
    s.other_average_precision = true;
    for (unsigned threads : {1u, 4u, 0u}) {  // 0: four threads on the baseline kernels
      o.threads = threads == 0 ? 4 : threads;
      const baseline_kernels kernels(threads == 0);
      const auto with = poisson_bootstrap(s, o);
      ASSERT_EQ(with.size(), 4u);
      for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(with[k].distribution, without[k].distribution) << "n " << dc.n << " statistic " << k;
        EXPECT_EQ(with[k].estimate, without[k].estimate);
      }
      EXPECT_EQ(with[3].distribution, second[0].distribution) << "n " << dc.n << " threads " << threads;
      EXPECT_EQ(with[3].estimate, second[0].estimate);
      EXPECT_EQ(with[3].lower.v, second[0].lower.v);
      EXPECT_EQ(with[3].upper.v, second[0].upper.v);
      EXPECT_NE(with[3].estimate, with[2].estimate);  // another number than the positive class's
    }
  }
}

TEST(PoissonBootstrap, BadInput) {
  poisson_statistics s;
  EXPECT_EQ(message_of([&] { poisson_bootstrap(s); }), "poisson_bootstrap: no rows to resample");
  s.rows = 3;
  EXPECT_EQ(message_of([&] { poisson_bootstrap(s); }), "poisson_bootstrap: no statistic to compute");
  const std::vector<double> x{1, 2};
  s.means = {x};
  EXPECT_EQ(message_of([&] { poisson_bootstrap(s); }), "poisson_bootstrap: 3 rows but mean 0 has 2 values");
  const std::vector<std::int32_t> y{0, 2, 1};
  const std::vector<double> sc{0.1, 0.2, 0.3}, x3{1, 2, 3};
  s.means = {x3};
  s.y_true = y;
  s.y_score = sc;
  s.roc_auc = true;
  EXPECT_EQ(message_of([&] { poisson_bootstrap(s); }), "poisson_bootstrap: label 2 of row 1 is not 0 or 1");
  bootstrap_options o;
  o.level = 1;
  EXPECT_EQ(message_of([&] { poisson_bootstrap(s, o); }), "poisson_bootstrap: level must be in (0, 1); got 1");
  EXPECT_EQ(message_of([&] { mean_normal_ci(x3, x, 0.95); }), "mean_normal_ci: 3 values but 2 weights");
}

// ---- coverage ---------------------------------------------------------------------------------

// Under AddressSanitizer (10-20x slower) the coverage tests run a quarter of the data sets: the
// acceptance regions below hold for any number of runs, so only the power drops, not the guarantee.
#if defined(__SANITIZE_ADDRESS__)
constexpr int sanitizer_divisor = 4;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr int sanitizer_divisor = 4;
#else
constexpr int sanitizer_divisor = 1;
#endif
#else
constexpr int sanitizer_divisor = 1;
#endif

// True when `covered` of `runs` intervals is compatible with a coverage in [lo, hi]: the count is
// neither in the lower 5e-7 tail of Bin(runs, lo) nor in the upper 5e-7 tail of Bin(runs, hi). If
// the true coverage lies in [lo, hi] this fails with probability <= 1e-6.
bool coverage_ok(int covered, int runs, double lo, double hi) {
  return binom_cdf(covered, runs, lo) > 5e-7 && binom_upper_tail(covered, runs, hi) > 5e-7;
}

// A calibrated forecaster: p uniform on {0.2, 0.5, 0.9}, y ~ Bernoulli(p). Population mean log loss
// = mean of the binary entropies H(p), mean Brier score = mean of p (1 - p). n = 1000 rows, 2000 data
// sets; the normal interval's coverage should be within [0.935, 0.96] (n is large, the losses
// bounded) with and without weights (integer weights 1..3 independent of the data, which leave the
// population mean unchanged).
TEST(Coverage, NormalIntervalOfMeanLosses) {
  const std::array<double, 3> ps{0.2, 0.5, 0.9};
  double true_ll = 0, true_brier = 0;
  for (double p : ps) {
    true_ll += (-p * std::log(p) - (1 - p) * std::log(1 - p)) / 3;
    true_brier += p * (1 - p) / 3;
  }
  std::mt19937_64 g(123);
  const int runs = 2000 / sanitizer_divisor;
  const std::size_t n = 1000;
  for (bool weighted : {false, true}) {
    int cover_ll = 0, cover_b = 0;
    std::vector<double> ll(n), br(n), w;
    for (int run = 0; run < runs; ++run) {
      w.clear();
      for (std::size_t i = 0; i < n; ++i) {
        const double p = ps[g() % 3];
        const bool y = std::uniform_real_distribution<double>(0, 1)(g) < p;
        ll[i] = -std::log(y ? p : 1 - p);
        br[i] = (p - y) * (p - y);
        if (weighted) w.push_back(static_cast<double>(1 + g() % 3));
      }
      const auto a = mean_normal_ci(ll, w, 0.95, 0.0), b = mean_normal_ci(br, w, 0.95, 0.0);
      cover_ll += a.lower.v <= true_ll && true_ll <= a.upper.v;
      cover_b += b.lower.v <= true_brier && true_brier <= b.upper.v;
    }
    EXPECT_TRUE(coverage_ok(cover_ll, runs, 0.935, 0.96)) << "log loss " << cover_ll << " weighted " << weighted;
    EXPECT_TRUE(coverage_ok(cover_b, runs, 0.935, 0.96)) << "Brier " << cover_b << " weighted " << weighted;
  }
}

// Scores on 10 levels: P(s = j | positive) = (j + 1) / 55, P(s = j | negative) = (10 - j) / 55, a
// share pi of positives. Population AP = sum_j P(s = j | pos) prec(>= j) (the limit of scikit-learn's
// step-wise AP with ties), population AUC = P(s+ > s-) + P(s+ = s-) / 2.
struct ten_levels {
  double pi = 0.3;
  static double pos(int j) { return (j + 1) / 55.0; }
  static double neg(int j) { return (10 - j) / 55.0; }
  [[nodiscard]] double ap() const {
    double tp = 0, fp = 0, ap = 0;
    for (int j = 9; j >= 0; --j) {
      tp += pi * pos(j);
      fp += (1 - pi) * neg(j);
      ap += pos(j) * tp / (tp + fp);
    }
    return ap;
  }
  static double auc() {
    double a = 0;
    for (int i = 0; i < 10; ++i)
      for (int j = 0; j < 10; ++j) a += pos(i) * neg(j) * (i > j ? 1.0 : i == j ? 0.5 : 0.0);
    return a;
  }
  void draw(std::mt19937_64& g, std::size_t n, std::vector<std::int32_t>& y, std::vector<double>& s) const {
    std::discrete_distribution<int> dp({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), dn({10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
    y.resize(n);
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = std::uniform_real_distribution<double>(0, 1)(g) < pi;
      s[i] = y[i] ? dp(g) : dn(g);
    }
  }
};

// Sample AP with unit weights, by the kernel's sweep (the same statistic as the report's).
double sample_ap(const std::vector<std::int32_t>& y, const std::vector<double>& s, double& n_pos) {
  poisson_statistics st;
  st.rows = y.size();
  st.y_true = y;
  st.y_score = s;
  st.average_precision = true;
  bootstrap_options o;
  o.replicates = 1;
  n_pos = static_cast<double>(std::count(y.begin(), y.end(), 1));
  return poisson_bootstrap(st, o)[0].estimate;
}

// The logit interval is approximate (Boyd et al. 2013 report near-nominal coverage from a few hundred
// positives): what we claim, and test, is coverage >= 0.90 for a nominal 0.95 at n = 1000 (about 300
// positives), over 1500 data sets.
TEST(Coverage, LogitIntervalOfAveragePrecision) {
  const ten_levels pop;
  const double truth = pop.ap();
  std::mt19937_64 g(321);
  std::vector<std::int32_t> y;
  std::vector<double> s;
  const int runs = 1500 / sanitizer_divisor;
  int covered = 0;
  for (int run = 0; run < runs; ++run) {
    pop.draw(g, 1000, y, s);
    double n_pos = 0;
    const double ap = sample_ap(y, s, n_pos);
    const auto ci = average_precision_logit_ci(ap, n_pos, 0.95);
    covered += ci.lower.v <= truth && truth <= ci.upper.v;
  }
  EXPECT_TRUE(coverage_ok(covered, runs, 0.90, 1.0)) << covered << " of " << runs;
}

// The Poisson bootstrap percentile interval (300 replicates) of a mean (Bernoulli(0.3), n = 200) and
// of the AUC (ten_levels, n = 300) over 600 data sets: coverage within [0.92, 0.965] (the percentile
// bootstrap under-covers slightly at small n).
TEST(Coverage, PoissonBootstrapPercentile) {
  const ten_levels pop;
  const double true_auc = ten_levels::auc();
  std::mt19937_64 g(77);
  const int runs = 600 / sanitizer_divisor;
  int cover_mean = 0, cover_auc = 0;
  std::vector<std::int32_t> y;
  std::vector<double> s, x(200);
  for (int run = 0; run < runs; ++run) {
    for (auto& v : x) v = std::uniform_real_distribution<double>(0, 1)(g) < 0.3;
    pop.draw(g, 300, y, s);
    bootstrap_options o;
    o.replicates = 300;
    o.seed = static_cast<std::uint64_t>(run);
    poisson_statistics a;
    a.rows = x.size();
    a.means = {x};
    const auto m = poisson_bootstrap(a, o)[0];
    cover_mean += m.lower.v <= 0.3 && 0.3 <= m.upper.v;
    poisson_statistics b;
    b.rows = y.size();
    b.y_true = y;
    b.y_score = s;
    b.roc_auc = true;
    const auto r = poisson_bootstrap(b, o)[0];
    cover_auc += r.lower.v <= true_auc && true_auc <= r.upper.v;
  }
  EXPECT_TRUE(coverage_ok(cover_mean, runs, 0.92, 0.965)) << "mean " << cover_mean;
  EXPECT_TRUE(coverage_ok(cover_auc, runs, 0.92, 0.965)) << "AUC " << cover_auc;
}

}  // namespace
}  // namespace assay::stats
