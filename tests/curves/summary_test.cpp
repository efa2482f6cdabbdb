// The streaming summary (curves/summary.hpp) must equal the sweep-based functions exactly: both use
// the same running sums, so any difference is a bug, not rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/curves/summary.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/curves/threshold.hpp"

namespace assay::curves {
namespace {

void expect_same(const value& a, const value& b, const char* what) {
  ASSERT_EQ(a.defined(), b.defined()) << what << ": " << a.reason << " / " << b.reason;
  if (a.defined()) EXPECT_EQ(a.v, b.v) << what;  // bit for bit
}

value threshold_of(const operating_point& p) { return p.criterion.defined() ? value(p.threshold) : p.criterion; }

TEST(RankingSummary, EqualsTheSweepOnRandomInputsWithTies) {
  std::mt19937_64 rng(11);
  int compared = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t n = rng() % 60;
    const int levels = 1 + static_cast<int>(rng() % 12);  // few levels: many ties
    const double p_pos = (trial % 10 == 0) ? 0.0 : (trial % 10 == 1) ? 1.0 : 0.4;
    std::vector<std::int32_t> y(n);
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = std::uniform_real_distribution<double>(0, 1)(rng) < p_pos ? 1 : 0;
      const int level = static_cast<int>(rng() % static_cast<unsigned>(levels)) - levels / 2;
      s[i] = (level == 0 && rng() % 2) ? -0.0 : level * 0.25;  // -0.0 and +0.0 are one threshold
    }
    const score_sweep sw = sweep_scores("test", y, s);
    std::vector<std::int32_t> y2 = y;
    std::vector<double> s2 = s;
    const ranking_summary got = summarize_in_place(y2, s2).positive;
    expect_same(got.roc_auc, roc_auc(sw), "roc_auc");
    expect_same(got.average_precision, average_precision(sw), "average_precision");
    expect_same(got.best_threshold_youden, threshold_of(best_youden(sw)), "youden");
    expect_same(got.best_threshold_f1, threshold_of(best_fbeta(sw, 1)), "f1");
    compared += got.roc_auc.defined() ? 1 : 0;
  }
  EXPECT_GT(compared, 300);
}

// summarize_in_place on copies of (y, s) against the functions read off sweep_scores(y, s).
void expect_summary_equals_sweep(const std::vector<std::int32_t>& y, const std::vector<double>& s) {
  const score_sweep sw = sweep_scores("test", y, s);
  std::vector<std::int32_t> y2 = y;
  std::vector<double> s2 = s;
  const ranking_summary got = summarize_in_place(y2, s2).positive;
  expect_same(got.roc_auc, roc_auc(sw), "roc_auc");
  expect_same(got.average_precision, average_precision(sw), "average_precision");
  expect_same(got.best_threshold_youden, threshold_of(best_youden(sw)), "youden");
  expect_same(got.best_threshold_f1, threshold_of(best_fbeta(sw, 1)), "f1");
}

// Large inputs go through the parallel sort: probabilities with ties, and margins of both signs
// (decision-function scores) spread over many binades.
TEST(RankingSummary, LargeInputUsesTwoThreadsAndStaysEqual) {
  for (int shape = 0; shape < 2; ++shape) {
    std::mt19937_64 rng(5 + shape);
    const std::size_t n = 200000;
    std::vector<std::int32_t> y(n);
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(rng() % 2);
      s[i] = shape == 0 ? std::round(std::uniform_real_distribution<double>(0, 1)(rng) * 1000) / 1000 + 0.1 * y[i]
                        : std::normal_distribution<double>(y[i], 3)(rng);
    }
    expect_summary_equals_sweep(y, s);
  }
}

// The other class's summary (the negatives ranked by -score, walked up the sorted runs) equals the
// sweep's complement, on inputs large enough that the class sort leaves a run in its own buffer and
// that the two walks run side by side.
TEST(RankingSummary, ComplementEqualsTheSweepsComplementOnLargeInputs) {
  for (int shape = 0; shape < 3; ++shape) {
    std::mt19937_64 rng(41 + shape);
    const std::size_t n = shape == 2 ? 1000 : 300000;
    const double share = shape == 1 ? 0.8 : 0.3;  // the larger run is the positives or the negatives
    std::vector<std::int32_t> y(n);
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = std::bernoulli_distribution(share)(rng) ? 1 : 0;
      s[i] = std::round(std::normal_distribution<double>(y[i], 1.5)(rng) * 500) / 500;  // ties
    }
    const score_sweep other = complement(sweep_scores("test", y, s));
    std::vector<std::int32_t> y2 = y;
    std::vector<double> s2 = s;
    const ranking_areas c = summarize_in_place(y2, s2).negative;
    EXPECT_EQ(c.roc_auc.v, roc_auc(other).v) << shape;
    EXPECT_EQ(c.average_precision.v, average_precision(other).v) << shape;
  }
}

// From 2^20 cases the halves are partitioned side by side and the blocks between them trade places:
// with few positives (the first half's negatives outnumber the second's positives) and with many
// (the other way round), with -0.0 and +0.0 among the scores, both classes' results equal the sweep's.
TEST(RankingSummary, HalvesPartitionedSideBySideGiveTheSweepsNumbers) {
  for (const double share : {0.2, 0.85}) {
    std::mt19937_64 rng(static_cast<unsigned>(share * 100));
    const std::size_t n = (std::size_t{1} << 20) + 5;
    std::vector<std::int32_t> y(n);
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = std::bernoulli_distribution(share)(rng) ? 1 : 0;
      const double v = std::round(std::normal_distribution<double>(y[i], 1)(rng) * 4000) / 4000;
      s[i] = v == 0 && rng() % 2 ? -0.0 : v;
    }
    const score_sweep sw = sweep_scores("test", y, s);
    const score_sweep other = complement(sw);
    std::vector<std::int32_t> y2 = y;
    std::vector<double> s2 = s;
    const class_summaries got = summarize_in_place(y2, s2);
    expect_same(got.positive.roc_auc, roc_auc(sw), "roc_auc");
    expect_same(got.positive.average_precision, average_precision(sw), "average_precision");
    expect_same(got.positive.best_threshold_youden, threshold_of(best_youden(sw)), "youden");
    expect_same(got.positive.best_threshold_f1, threshold_of(best_fbeta(sw, 1)), "f1");
    expect_same(got.negative.roc_auc, roc_auc(other), "other roc_auc");
    expect_same(got.negative.average_precision, average_precision(other), "other average_precision");
    EXPECT_EQ(y2, y);  // only read
  }
}

}  // namespace
}  // namespace assay::curves
