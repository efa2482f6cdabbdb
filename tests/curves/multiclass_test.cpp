// Multiclass reductions (include/assay/curves/multiclass.hpp) against naive references: per-class
// confusion counts by brute force at every threshold, and the top-label ECE on a hand example.
#include "assay/curves/multiclass.hpp"

#include <gtest/gtest.h>

#include <random>

#include "assay/curves/threshold.hpp"
#include "assay/error.hpp"

namespace assay::curves {
namespace {

// Random K-class probabilities k / 10 (many ties, rows sum to 1 within rounding).
void make(std::mt19937_64& rng, std::size_t n, std::size_t K, std::vector<std::int32_t>& y, std::vector<double>& p,
          std::vector<double>& w) {
  y.clear(), p.clear(), w.clear();
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<int> c(K, 0);
    for (int t = 0; t < 10; ++t) ++c[rng() % K];
    for (std::size_t k = 0; k < K; ++k) p.push_back(c[k] / 10.0);
    y.push_back(static_cast<std::int32_t>(rng() % K));
    w.push_back(static_cast<double>(rng() % 4) * 0.5);
  }
}

TEST(Multiclass, OneVsRestThresholdCountsEqualBruteForce) {
  std::mt19937_64 rng(21);
  std::vector<std::int32_t> y;
  std::vector<double> p, w;
  for (int rep = 0; rep < 100; ++rep) {
    const std::size_t K = 2 + rng() % 4, n = 1 + rng() % 30;
    make(rng, n, K, y, p, w);
    const proba_view pv = proba_view::matrix(p, K);
    const auto sweeps = sweep_one_vs_rest(y, pv, w);
    ASSERT_EQ(sweeps.size(), K);
    for (std::size_t k = 0; k < K; ++k) {
      const threshold_table t = threshold_counts(sweeps[k]);
      for (std::size_t j = 1; j < t.thresholds.size(); ++j) {
        double tp = 0, fp = 0, fn = 0, tn = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const bool pos = y[i] == static_cast<std::int32_t>(k), hit = pv(i, k) >= t.thresholds[j];
          (pos ? (hit ? tp : fn) : (hit ? fp : tn)) += w[i];
        }
        EXPECT_NEAR(t.counts[j].tp, tp, 1e-12);
        EXPECT_NEAR(t.counts[j].fp, fp, 1e-12);
        EXPECT_NEAR(t.counts[j].fn, fn, 1e-12);
        EXPECT_NEAR(t.counts[j].tn, tn, 1e-12);
      }
    }
  }
}

TEST(Multiclass, TopLabelHandExample) {
  // Rows: argmax, confidence, correct?
  //   [.7 .2 .1] y 0: 0, .7, yes      [.4 .4 .2] y 1: 0 (first of equal maxima), .4, no
  //   [.1 .8 .1] y 1: 1, .8, yes      [.3 .3 .4] y 0: 2, .4, no      [.05 .05 .9] y 2: 2, .9, yes
  const std::vector<std::int32_t> y{0, 1, 1, 0, 2};
  const std::vector<double> p{.7, .2, .1, .4, .4, .2, .1, .8, .1, .3, .3, .4, .05, .05, .9};
  const proba_view pv = proba_view::matrix(p, 3);
  const binary_problem b = top_label(y, pv);
  EXPECT_EQ(b.y, (std::vector<std::int32_t>{1, 0, 1, 0, 1}));
  EXPECT_EQ(b.score, (std::vector<double>{.7, .4, .8, .4, .9}));
  // 5 uniform bins: [.2,.4] holds .4,.4 (acc 0, conf .4); (.6,.8] holds .7,.8 (acc 1, conf .75); (.8,1] .9 (acc 1).
  // ECE = (2 * .4 + 2 * .25 + 1 * .1) / 5 = 1.4 / 5.
  EXPECT_NEAR(top_label_calibration_error(y, pv, {}, 5).v, 1.4 / 5, 1e-15);
  const auto r = top_label_reliability_curve(y, pv, {}, 5);
  EXPECT_EQ(r.prob_true, (std::vector<double>{0, 1, 1}));
  ASSERT_EQ(r.prob_pred.size(), 3u);
  EXPECT_NEAR(r.prob_pred[1], 0.75, 1e-15);
  // Weighted: the wrong rows weigh 0, so the ECE is that of the right ones only: (2 * .25 + .1) / 3.
  EXPECT_NEAR(top_label_calibration_error(y, pv, std::vector<double>{1, 0, 1, 0, 1}, 5).v, 0.6 / 3, 1e-15);
}

std::string message_of(auto f) {
  try {
    f();
  } catch (const error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Multiclass, BadInput) {
  const std::vector<std::int32_t> y{0, 1};
  const std::vector<double> ok{.5, .5, .2, .8}, sum{.5, .4, .2, .8}, neg{1.1, -.1, .2, .8};
  EXPECT_EQ(message_of([&] { top_label(y, proba_view::matrix(sum, 2)); }),
            "top_label: the probabilities of row 0 sum to 0.9, not 1 (multiclass AUC needs class probabilities; rule: "
            "|sum - 1| <= 1e-8 + 1e-5 |sum|)");
  EXPECT_EQ(message_of([&] { top_label(y, proba_view::matrix(neg, 2)); }),
            "top_label: probability [0, 0] = 1.1 is not in [0, 1]");
  EXPECT_EQ(message_of([&] {
              one_vs_rest(std::vector<std::int32_t>{0, 2}, proba_view::matrix(ok, 2), 0);
            }),
            "one_vs_rest: y[1] = 2 is not a class index in 0..1");
  EXPECT_EQ(message_of([&] { one_vs_rest(y, proba_view::matrix(ok, 2), 2); }),
            "one_vs_rest: class index 2 is not in 0..1");
  EXPECT_EQ(message_of([&] {
              sweep_one_vs_rest(y, proba_view::matrix(ok, 2), std::vector<double>{1, -1});
            }),
            "sweep_one_vs_rest: weight[1] = -1 is not a finite number >= 0");
}

}  // namespace
}  // namespace assay::curves
