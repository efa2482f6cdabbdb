// Precision-recall: the interpolated AP variants, targets and break-even on the lecture notes'
// 10-instance example (seed 000), computed by hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

#include "assay/curves/pr.hpp"
#include "assay/error.hpp"

namespace assay::curves {
namespace {

// Ranks 1..10: + + - + + - - + - -, P = 5. Precision at the ranks where recall rises: 1, 1, 3/4, 4/5,
// 5/8 (recall .2, .4, .6, .8, 1). Interpolated precision: 1 up to recall .4, .8 up to .8, 5/8 after.
const std::vector<std::int32_t> y{1, 1, 0, 1, 1, 0, 0, 1, 0, 0};
const std::vector<double> s{.99, .98, .72, .70, .65, .51, .39, .24, .11, .01};

TEST(Pr, AveragePrecisionVariantsByHand) {
  const score_sweep sw = sweep_scores("test", y, s);
  EXPECT_NEAR(average_precision(sw, ap_variant::step).v, (1 + 1 + 0.75 + 0.8 + 0.625) / 5, 1e-15);
  EXPECT_NEAR(average_precision(sw, ap_variant::all_point).v, (1 + 1 + 0.8 + 0.8 + 0.625) / 5, 1e-15);
  // t = 0, .1, ..., .4 -> 1 (5 points); .5 ... .8 -> .8 (4); .9, 1 -> .625 (2).
  EXPECT_NEAR(average_precision(sw, ap_variant::voc11).v, (5 + 4 * 0.8 + 2 * 0.625) / 11, 1e-15);
  // t = i/100: i <= 40 -> 1 (41 points), 41..80 -> .8 (40), 81..100 -> .625 (20).
  EXPECT_NEAR(average_precision(sw, ap_variant::coco101).v, (41 + 40 * 0.8 + 20 * 0.625) / 101, 1e-14);  // 101 rounded additions
  EXPECT_EQ(parse_ap_variant("voc11"), ap_variant::voc11);
  EXPECT_THROW(parse_ap_variant("voc12"), error);
}

TEST(Pr, TargetsAndBreakEven) {
  const score_sweep sw = sweep_scores("test", y, s);
  const pr_point a = precision_at_recall(sw, 0.5);
  EXPECT_EQ(a.v.v, 0.8);
  EXPECT_EQ(a.threshold, .65);
  EXPECT_EQ(precision_at_recall(sw, 0.0).v.v, 1.0);
  EXPECT_EQ(recall_at_precision(sw, 0.7).v.v, 0.8);
  EXPECT_EQ(recall_at_precision(sw, 0.9).v.v, 0.4);
  EXPECT_EQ(recall_at_precision(sw, 0.9).threshold, .98);
  EXPECT_EQ(break_even_point(sw).v, 0.8);  // top 5 cases hold 4 positives
  EXPECT_THROW(precision_at_recall(sw, 1.5), error);
  EXPECT_THROW(recall_at_precision(sw, -0.1), error);
  // No threshold reaches precision 1 when the top score is negative.
  const score_sweep bad = sweep_scores("test", std::vector<std::int32_t>{0, 1}, std::vector<double>{2, 1});
  EXPECT_FALSE(recall_at_precision(bad, 1.0).v.defined());
}

TEST(Pr, TargetMessages) {
  const score_sweep sw = sweep_scores("test", y, s);
  try {
    precision_at_recall(sw, 1.5);
    FAIL() << "no throw";
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "precision_at_recall: recall 1.5 is not in [0, 1]");
  }
  try {
    recall_at_precision(sw, -0.1);
    FAIL() << "no throw";
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "recall_at_precision: precision -0.1 is not in [0, 1]");
  }
  const score_sweep bad = sweep_scores("test", std::vector<std::int32_t>{0, 1}, std::vector<double>{2, 1});
  EXPECT_EQ(recall_at_precision(bad, 1.0).v.reason, "no threshold reaches precision 1");
  const score_sweep none = sweep_scores("test", std::vector<std::int32_t>{0, 0}, std::vector<double>{2, 1});
  EXPECT_FALSE(precision_at_recall(none, 0.5).v.defined());
  EXPECT_FALSE(recall_at_precision(none, 0.5).v.defined());
}

// Naive reference: for every distinct score t, count the cases with score >= t directly, then keep the
// best admissible cut (ties between cuts keep the highest threshold). Scores are drawn from 6 values,
// so ties are frequent. Deterministic (fixed seed): it cannot fail by chance.
TEST(Pr, TargetsMatchNaiveCountsWithTies) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> label(0, 1), level(0, 5);
  for (int rep = 0; rep < 200; ++rep) {
    const int n = 1 + rep % 17;
    std::vector<std::int32_t> yy(n);
    std::vector<double> ss(n);
    for (int i = 0; i < n; ++i) yy[i] = label(rng), ss[i] = level(rng) / 5.0;
    const score_sweep sw = sweep_scores("test", yy, ss);
    if (sw.positives == 0) continue;
    std::vector<double> cuts(ss);
    std::sort(cuts.begin(), cuts.end(), std::greater<>());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (double target : {0.0, 0.25, 0.5, 0.6, 0.75, 1.0}) {
      double best_p = -1, best_p_t = 0, best_r = -1, best_r_t = 0;
      for (double t : cuts) {
        double tp = 0, pp = 0;
        for (int i = 0; i < n; ++i) pp += ss[i] >= t, tp += ss[i] >= t && yy[i] == 1;
        const double p = tp / pp, r = tp / sw.positives;
        if (r >= target && p > best_p) best_p = p, best_p_t = t;
        if (p >= target && r > best_r) best_r = r, best_r_t = t;
      }
      const pr_point a = precision_at_recall(sw, target), b = recall_at_precision(sw, target);
      EXPECT_EQ(a.v.v, best_p) << rep << " " << target;
      EXPECT_EQ(a.threshold, best_p_t) << rep << " " << target;
      ASSERT_EQ(b.v.defined(), best_r >= 0) << rep << " " << target;
      if (best_r >= 0) {
        EXPECT_EQ(b.v.v, best_r) << rep << " " << target;
        EXPECT_EQ(b.threshold, best_r_t) << rep << " " << target;
        EXPECT_EQ(b.recall, best_r);
      }
    }
  }
}

TEST(Pr, BreakEvenInsideTies) {
  // Four tied cases, two positive: the cut at 2 predicted positives expects 1 true positive.
  const score_sweep sw = sweep_scores("test", std::vector<std::int32_t>{1, 0, 1, 0}, std::vector<double>{.5, .5, .5, .5});
  EXPECT_EQ(break_even_point(sw).v, 0.5);
}

// The interpolated variants can only raise the step sum (the envelope is >= the precision), and every
// AP is in [0, 1]. 500 random inputs with ties, fixed seed: deterministic.
TEST(Pr, VariantOrdering) {
  std::mt19937_64 rng(7);
  for (int rep = 0; rep < 500; ++rep) {
    const std::size_t n = 2 + rng() % 40;
    std::vector<std::int32_t> yy(n);
    std::vector<double> ss(n);
    for (std::size_t i = 0; i < n; ++i) yy[i] = static_cast<std::int32_t>(rng() % 2), ss[i] = static_cast<double>(rng() % 5);
    yy[0] = 1;
    const score_sweep sw = sweep_scores("test", yy, ss);
    const double step = average_precision(sw, ap_variant::step).v, all = average_precision(sw, ap_variant::all_point).v;
    EXPECT_LE(step, all + 1e-15);
    for (auto v : {ap_variant::step, ap_variant::all_point, ap_variant::voc11, ap_variant::coco101}) {
      const double a = average_precision(sw, v).v;
      EXPECT_GE(a, 0);
      EXPECT_LE(a, 1 + 1e-15);
    }
  }
}

}  // namespace
}  // namespace assay::curves
