// Operating points under a constraint (max FPR, min TPR, min precision, min recall) against a naive
// scan of every threshold on random data with ties and weights; a hand-worked case on the lecture
// notes' 10 instances; the Neyman-Pearson umbrella threshold's rank against a naive binomial sum and
// its guarantee P(population FPR > alpha) <= delta by simulation with a declared failure probability.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "assay/curves/threshold.hpp"
#include "assay/error.hpp"
#include "assay/stats/distributions.hpp"
#include "assay/stats/random.hpp"

namespace assay::curves {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const assay::error& e) {
    return e.what();
  }
  return "no throw";
}

// Ranks: .99+ .98+ .72- .70+ .65+ .51- .39- .24+ .11- .01-; P = N = 5.
const std::vector<std::int32_t> y10{1, 1, 0, 1, 1, 0, 0, 1, 0, 0};
const std::vector<double> s10{.99, .98, .72, .70, .65, .51, .39, .24, .11, .01};

TEST(ConstrainedThreshold, LectureExampleByHand) {
  const score_sweep sw = sweep_scores("test", y10, s10);
  // FPR <= 0.2: thresholds down to .65 (FP 1); TPR 4/5 at .65.
  auto p = constrained_threshold(sw, constraint_kind::max_fpr, 0.2);
  EXPECT_EQ(p.point.threshold, .65);
  EXPECT_EQ(p.point.criterion.v, 0.8);
  EXPECT_EQ(p.constrained.v, 0.2);
  EXPECT_EQ(p.point.counts.tp, 4);
  EXPECT_EQ(p.point.counts.tn, 4);
  // FPR <= 0.1: only FP 0: .98 (TPR .4) and +inf (TPR 0): .98.
  EXPECT_EQ(constrained_threshold(sw, constraint_kind::max_fpr, 0.1).point.threshold, .98);
  // TPR >= 1: .24 (FP 3) is the highest threshold with TP 5; specificity .4.
  p = constrained_threshold(sw, constraint_kind::min_tpr, 1);
  EXPECT_EQ(p.point.threshold, .24);
  EXPECT_NEAR(p.point.criterion.v, 0.4, 1e-15);
  // TPR >= 0.5: .70 (TP 3, FP 1) and .65 (TP 4, FP 1) have specificity .8: the tie goes to the higher TPR, .65.
  EXPECT_EQ(constrained_threshold(sw, constraint_kind::min_tpr, 0.5).point.threshold, .65);
  // precision >= 0.8: .98 (2/2), .70 (3/4 no), .65 (4/5 = .8): recall .8 at .65.
  p = constrained_threshold(sw, constraint_kind::min_precision, 0.8);
  EXPECT_EQ(p.point.threshold, .65);
  EXPECT_EQ(p.point.criterion.v, 0.8);
  // recall >= 0.9: only TP 5: .24 (5/8) and below: precision 5/8 at .24.
  p = constrained_threshold(sw, constraint_kind::min_recall, 0.9);
  EXPECT_EQ(p.point.threshold, .24);
  EXPECT_EQ(p.point.criterion.v, 5.0 / 8);
  // precision >= 1 with recall: .98 (2/2); recall .4. precision > 1 is bad input; nothing reaches...
  EXPECT_EQ(constrained_threshold(sw, constraint_kind::min_precision, 1).point.threshold, .98);
}

TEST(ConstrainedThreshold, UndefinedWithReason) {
  const std::vector<std::int32_t> y{0, 1, 0, 1};
  const std::vector<double> s{.9, .8, .7, .6};  // the top score is a negative: precision 0, 1/2, 1/3, 2/4
  const score_sweep sw = sweep_scores("test", y, s);
  const auto p = constrained_threshold(sw, constraint_kind::min_precision, 0.9);
  EXPECT_FALSE(p.point.criterion.defined());
  EXPECT_EQ(p.point.criterion.reason,
            "no threshold has precision >= 0.9; the precision is 0.5 at best (threshold 0.8)");
  EXPECT_TRUE(std::isnan(p.point.threshold));
  const std::vector<std::int32_t> only_neg{0, 0};
  const score_sweep sn = sweep_scores("test", only_neg, std::vector<double>{.1, .2});
  EXPECT_EQ(constrained_threshold(sn, constraint_kind::max_fpr, 0.1).point.criterion.reason,
            "no positive cases: the true-positive rate is undefined");
  EXPECT_EQ(constrained_threshold(sn, constraint_kind::min_recall, 0.1).point.criterion.reason,
            "no positive cases: recall is undefined");
  EXPECT_EQ(message_of([&] { constrained_threshold(sw, constraint_kind::min_tpr, 1.5); }),
            "constrained_threshold: min_tpr = 1.5 must be in [0, 1]");
  EXPECT_EQ(message_of([&] { constrained_threshold(sw, constraint_kind::max_fpr, std::nan("")); }),
            "constrained_threshold: max_fpr = nan must be in [0, 1]");
}

// The naive reference: every candidate threshold (+inf and each distinct score of a case with weight
// > 0), its counts summed from the raw data, the rule of threshold.hpp written out directly.
struct naive_choice {
  bool found = false;
  double threshold = std::nan(""), tp = 0, fp = 0;
};

naive_choice naive(const std::vector<std::int32_t>& y, const std::vector<double>& s, const std::vector<double>& w,
                   constraint_kind kind, double bound) {
  std::set<double, std::greater<>> cands{inf};
  double P = 0, N = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (w[i] > 0) cands.insert(s[i]);
    (y[i] ? P : N) += w[i];
  }
  naive_choice best;
  double bo = 0, bc = 0;
  for (double t : cands) {  // highest first
    double tp = 0, fp = 0;
    for (std::size_t i = 0; i < y.size(); ++i)
      if (s[i] >= t) (y[i] ? tp : fp) += w[i];
    const double tpr = tp / P, fpr = fp / N, prec = tp + fp > 0 ? tp / (tp + fp) : std::nan("");
    double obj = 0, con = 0;
    bool ok = false, lower_better = false;
    switch (kind) {
      case constraint_kind::max_fpr: obj = tpr, con = fpr, ok = fpr <= bound, lower_better = true; break;
      case constraint_kind::min_tpr: obj = (N - fp) / N, con = tpr, ok = tpr >= bound; break;
      case constraint_kind::min_precision: obj = tpr, con = prec, ok = prec >= bound; break;
      case constraint_kind::min_recall: obj = prec, con = tpr, ok = tpr >= bound; break;
    }
    if (!ok || std::isnan(obj)) continue;
    const bool better_con = lower_better ? con < bc : con > bc;
    if (!best.found || obj > bo || (obj == bo && better_con)) {
      best = {true, t, tp, fp};
      bo = obj, bc = con;
    }
  }
  return best;
}

TEST(ConstrainedThreshold, MatchesNaiveScanWithTiesAndWeights) {
  int compared = 0, undefined = 0;
  for (std::uint64_t rep = 0; rep < 300; ++rep) {
    stats::rng g(7, rep);
    const std::size_t n = 2 + g.below(60);
    const bool weighted = rep % 2 == 1;
    std::vector<std::int32_t> y(n);
    std::vector<double> s(n), w(n, 1.0);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(g.below(2));
      s[i] = static_cast<double>(g.below(rep % 3 == 0 ? 5 : 25)) / 4 + (y[i] ? 1.0 : 0.0);  // many ties
      if (weighted) w[i] = static_cast<double>(g.below(7)) / 2;  // 0, 0.5, ..., 3: sums exact in binary
    }
    double P = 0, N = 0;
    for (std::size_t i = 0; i < n; ++i) (y[i] ? P : N) += w[i];
    if (P == 0 || N == 0) continue;
    const score_sweep sw = weighted ? sweep_scores("test", y, s, w) : sweep_scores("test", y, s);
    for (auto kind : {constraint_kind::max_fpr, constraint_kind::min_tpr, constraint_kind::min_precision,
                      constraint_kind::min_recall}) {
      for (double bound : {0.0, 0.05, 0.2, 1.0 / 3, 0.5, 0.8, 0.95, 1.0, g.uniform()}) {
        const auto got = constrained_threshold(sw, kind, bound);
        const auto want = naive(y, s, w, kind, bound);
        ASSERT_EQ(got.point.criterion.defined(), want.found) << rep << " " << to_string(kind) << " " << bound;
        if (!want.found) {
          ++undefined;
          continue;
        }
        EXPECT_EQ(got.point.threshold, want.threshold) << rep << " " << to_string(kind) << " " << bound;
        EXPECT_EQ(got.point.counts.tp, want.tp);
        EXPECT_EQ(got.point.counts.fp, want.fp);
        EXPECT_EQ(got.point.counts.fn, P - want.tp);
        EXPECT_EQ(got.point.counts.tn, N - want.fp);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 5000);
  EXPECT_GT(undefined, 50);  // min_precision above what the data reach
}

// ---- the Neyman-Pearson umbrella threshold --------------------------------------------------------

// P(Bin(n, p) >= k) summed term by term from log binomial coefficients.
double naive_upper_tail(int k, int n, double p) {
  double s = 0;
  for (int j = k; j <= n; ++j)
    s += std::exp(std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) + j * std::log(p) +
                  (n - j) * std::log1p(-p));
  return s;
}

TEST(NpUmbrella, MinimumNegatives) {
  // log(0.05) / log(0.95) = 58.40 -> 59; log(0.05) / log(0.9) = 28.43 -> 29; log(0.01) / log(0.99) = 458.21 -> 459.
  EXPECT_EQ(np_min_negatives(0.05, 0.05), 59u);
  EXPECT_EQ(np_min_negatives(0.1, 0.05), 29u);
  EXPECT_EQ(np_min_negatives(0.01, 0.01), 459u);
  // alpha = 0.5, delta = 0.25: 0.5^2 = 0.25 <= 0.25 exactly: n = 2.
  EXPECT_EQ(np_min_negatives(0.5, 0.25), 2u);
}

TEST(NpUmbrella, RankMatchesNaiveBinomialSum) {
  for (int n : {29, 30, 45, 100, 257}) {
    for (auto [alpha, delta] : {std::pair{0.1, 0.05}, {0.2, 0.1}, {0.1, 0.01}, {0.3, 0.05}}) {
      std::vector<double> neg(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) neg[static_cast<std::size_t>(i)] = (i * 37 % n) + 0.5;  // a permutation of 0.5..n-0.5
      const std::vector<std::int32_t> y(neg.size(), 0);
      const auto r = np_umbrella_threshold(neg, sweep_scores("test", y, neg), alpha, delta);
      int k = 1;
      while (k <= n && naive_upper_tail(k, n, 1 - alpha) > delta) ++k;
      if (k > n) {
        EXPECT_FALSE(r.order_statistic.defined()) << n << " " << alpha;
        continue;
      }
      ASSERT_TRUE(r.order_statistic.defined()) << n << " " << alpha << " " << r.order_statistic.reason;
      EXPECT_EQ(r.k, static_cast<std::size_t>(k)) << n << " " << alpha << " " << delta;
      EXPECT_EQ(r.order_statistic.v, k - 0.5);  // the k-th smallest
      EXPECT_NEAR(r.violation_bound.v, naive_upper_tail(k, n, 1 - alpha), 1e-12);
      EXPECT_EQ(r.point.threshold, std::nextafter(k - 0.5, inf));
      EXPECT_EQ(r.point.counts.fp, n - k);  // negatives strictly above t(k)
    }
  }
}

TEST(NpUmbrella, TooFewNegativesAndBadInput) {
  const std::vector<double> neg(28, 1.0);
  const std::vector<std::int32_t> y(28, 0);
  const auto r = np_umbrella_threshold(neg, sweep_scores("test", y, neg), 0.1, 0.05);
  EXPECT_FALSE(r.order_statistic.defined());
  EXPECT_EQ(r.order_statistic.reason,
            "too few negatives: the umbrella threshold for alpha = 0.1 at confidence 0.95 needs at least 29 "
            "negative cases; there are 28");
  EXPECT_EQ(r.min_negatives, 29u);
  EXPECT_TRUE(std::isnan(r.point.threshold));
  const score_sweep sw = sweep_scores("test", y, neg);
  EXPECT_EQ(message_of([&] { np_umbrella_threshold(neg, sw, 0, 0.05); }), "np_umbrella_threshold: alpha = 0 must be in (0, 1)");
  EXPECT_EQ(message_of([&] { np_umbrella_threshold(neg, sw, 0.1, 1); }), "np_umbrella_threshold: delta = 1 must be in (0, 1)");
}

// The guarantee. Negatives' scores from a known population; each draw of n negatives gives an
// umbrella threshold t, whose population FPR P(S > t(k)) is computed exactly from the distribution.
// For a continuous population the violation event {FPR > alpha} has probability exactly
// v = P(Bin(n, 1 - alpha) >= k) <= delta (Tong, Feng & Li 2018), so the count of violations over R
// independent draws is Bin(R, v): the test accepts it inside the two-sided region of probability
// >= 1 - 1e-6 (failure probability <= 1e-6 for a correct implementation; an off-by-one rank moves v
// by a factor ~2 and falls outside). For a discrete population (ties) the event has probability <= v:
// only the upper bound is tested, again at 1e-6.
std::pair<std::int64_t, std::int64_t> acceptance(std::int64_t draws, double p, double fail) {
  std::int64_t lo = 0, hi = draws;
  while (lo < draws && stats::binom_cdf(lo, draws, p) <= fail / 2) ++lo;       // P(X < lo) <= fail / 2
  while (hi > 0 && stats::binom_upper_tail(hi, draws, p) <= fail / 2) --hi;    // P(X > hi) <= fail / 2
  return {lo, hi};
}

TEST(NpUmbrella, GuaranteeBySimulationContinuous) {
  const std::int64_t draws = 20000;
  const int n = 100;
  const double alpha = 0.1, delta = 0.05;
  std::int64_t violations = 0;
  double v = 0;
  std::vector<double> neg(n);
  const std::vector<std::int32_t> y(n, 0);
  for (std::int64_t b = 0; b < draws; ++b) {
    stats::rng g(2018, static_cast<std::uint64_t>(b));
    for (auto& x : neg) x = -std::log1p(-g.uniform());  // Exp(1): P(S > t) = exp(-t)
    const auto r = np_umbrella_threshold(neg, sweep_scores("test", y, neg), alpha, delta);
    ASSERT_TRUE(r.order_statistic.defined());
    v = r.violation_bound.v;
    const double population_fpr = std::exp(-r.order_statistic.v);  // P(S > t(k)) = P(S >= next double)
    violations += population_fpr > alpha;
  }
  EXPECT_LE(v, delta);
  const auto [lo, hi] = acceptance(draws, v, 1e-6);
  EXPECT_GE(violations, lo) << "v = " << v;
  EXPECT_LE(violations, hi) << "v = " << v;
  // And under delta as the paper promises (implied by the above, stated for the reader).
  EXPECT_LE(violations, acceptance(draws, delta, 1e-6).second);
}

TEST(NpUmbrella, GuaranteeBySimulationWithTies) {
  // Geometric scores on {0, 1, 2, ...} with P(S >= t) = q^t, q = 0.8: heavy ties.
  const std::int64_t draws = 20000;
  const int n = 60;
  const double alpha = 0.15, delta = 0.1, q = 0.8;
  std::int64_t violations = 0;
  std::vector<double> neg(n);
  const std::vector<std::int32_t> y(n, 0);
  for (std::int64_t b = 0; b < draws; ++b) {
    stats::rng g(1933, static_cast<std::uint64_t>(b));
    for (auto& x : neg) x = std::floor(std::log1p(-g.uniform()) / std::log(q));
    const auto r = np_umbrella_threshold(neg, sweep_scores("test", y, neg), alpha, delta);
    const double population_fpr = std::pow(q, r.order_statistic.v + 1);  // P(S > t) = P(S >= t + 1)
    violations += population_fpr > alpha;
  }
  EXPECT_LE(violations, acceptance(draws, delta, 1e-6).second);
}

}  // namespace
}  // namespace assay::curves
