// The one-pass label tally (include/assay/metrics/label_tally.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "assay/error.hpp"
#include "assay/metrics/label_tally.hpp"

namespace assay {
namespace {

TEST(LabelTally, CountsCellsAndTotals) {
  std::vector<std::int32_t> a{0, 1, 2, 2, 2}, p{0, 2, 2, 1, 2};
  auto t = tally_codes(a, p, 3);
  EXPECT_EQ(t.cells, (std::vector<double>{1, 0, 0, 0, 0, 1, 0, 1, 2}));
  EXPECT_EQ(t.actual, (std::vector<double>{1, 1, 3}));
  EXPECT_EQ(t.predicted, (std::vector<double>{1, 1, 3}));
  EXPECT_EQ(t.correct, (std::vector<double>{1, 0, 2}));
}

TEST(LabelTally, WeightedTotalsAreSummedCaseByCase) {
  // 0.1 + 0.2 + 0.3 in case order is not 0.1 + (0.2 + 0.3): the total of class 0 must be the former,
  // as np.bincount gives it, not a sum of the cells.
  std::vector<std::int32_t> a{0, 0, 0}, p{0, 1, 0};
  std::vector<double> w{0.1, 0.2, 0.3};
  auto t = tally_codes(a, p, 2, w);
  EXPECT_EQ(t.actual[0], (0.1 + 0.2) + 0.3);
  EXPECT_EQ(t.cells[0], 0.1 + 0.3);
  EXPECT_EQ(t.correct[0], 0.1 + 0.3);
  EXPECT_EQ(t.predicted[1], 0.2);
}

TEST(LabelTally, IntegerLabelsNeedNoCoding) {
  std::vector<std::int64_t> a{-5, 7, 7, 1000}, p{7, 7, -5, 1000};
  auto t = tally_integer_labels(a, p);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->classes, (std::vector<std::int64_t>{-5, 7, 1000}));
  EXPECT_EQ(t->tally.cells, (std::vector<double>{0, 1, 0, 1, 1, 0, 0, 0, 1}));
}

TEST(LabelTally, SmallAndNotSoSmallLabelsGiveTheSameTally) {
  // [0, 64) takes the one-pass path; the same labels shifted by 64 or by -1 take the others.
  std::vector<std::int64_t> a{0, 63, 63, 5, 0}, p{63, 63, 5, 5, 7};
  for (std::int64_t shift : {0, 1, 64, -1, -1000}) {
    std::vector<std::int64_t> as, ps;
    for (auto v : a) as.push_back(v + shift);
    for (auto v : p) ps.push_back(v + shift);
    auto t = tally_integer_labels(as, ps);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->classes, (std::vector<std::int64_t>{shift, 5 + shift, 7 + shift, 63 + shift}));
    EXPECT_EQ(t->tally.cells, (std::vector<double>{0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}));
    EXPECT_EQ(t->tally.actual, (std::vector<double>{2, 1, 0, 2}));
    EXPECT_EQ(t->tally.predicted, (std::vector<double>{0, 2, 1, 2}));
    EXPECT_EQ(t->tally.correct, (std::vector<double>{0, 1, 0, 1}));
    // Weighted, a class whose only case weighs 0 is still a class.
    std::vector<double> w{0.5, 1, 1, 2, 0};
    auto tw = tally_integer_labels(as, ps, w);
    ASSERT_TRUE(tw);
    EXPECT_EQ(tw->classes, t->classes);
    EXPECT_EQ(tw->tally.cells, (std::vector<double>{0, 0, 0, 0.5, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}));
    EXPECT_EQ(tw->tally.actual, (std::vector<double>{0.5, 2, 0, 2}));
  }
}

TEST(LabelTally, WideIntegerSpanIsLeftToTheCaller) {
  std::vector<std::int64_t> a{INT64_MIN, INT64_MAX}, p{0, 0};
  EXPECT_FALSE(tally_integer_labels(a, p));
  EXPECT_FALSE(tally_integer_labels({}, {}));
}

TEST(LabelTally, RejectsBadInput) {
  std::vector<std::int32_t> a{0, 3}, p{0, 0}, short_p{0};
  EXPECT_THROW(tally_codes(a, p, 3), error);
  EXPECT_THROW(tally_codes(a, short_p, 4), error);
}

// tally_indicators against counts taken by definition, per label and per case, on random 0/1
// matrices with an all-zero row and column; weighted per-label totals summed in row order.
// From 2^20 cases the unweighted count runs on two halves: the same cells as a plain count, and a
// bad index in either half is named by its case, with the caller's name.
TEST(LabelTally, LargeCountsEqualAPlainCountAndNameABadCase) {
  const std::size_t n = (std::size_t{1} << 20) + 7, k = 3;
  std::mt19937_64 rng(9);
  std::vector<std::int32_t> a(n), p(n);
  std::vector<double> want(k * k, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<std::int32_t>(rng() % k);
    p[i] = static_cast<std::int32_t>(rng() % k);
    want[static_cast<std::size_t>(a[i]) * k + static_cast<std::size_t>(p[i])] += 1;
  }
  const label_tally t = tally_codes(a, p, k);
  EXPECT_EQ(t.cells, want);
  for (std::size_t c = 0; c < k; ++c) {
    EXPECT_EQ(t.correct[c], want[c * k + c]);
    EXPECT_EQ(t.actual[c], want[c * k] + want[c * k + 1] + want[c * k + 2]);
    EXPECT_EQ(t.predicted[c], want[c] + want[k + c] + want[2 * k + c]);
  }
  for (const std::size_t bad : {std::size_t{3}, n - 1}) {
    auto q = p;
    q[bad] = 3;
    try {
      (void)tally_codes(a, q, k, {}, "confusion_matrix");
      ADD_FAILURE() << "no error for case " << bad;
    } catch (const error& e) {
      EXPECT_EQ(std::string(e.what()), "confusion_matrix: case " + std::to_string(bad) + " has class index (" +
                                           std::to_string(a[bad]) + ", 3) outside [0, 3)");
    }
  }
  EXPECT_THROW((void)tally_codes(std::vector<std::int32_t>{0}, std::vector<std::int32_t>{0}, 0), error);
}

// The tally at a threshold equals a plain count of (actual, score >= threshold ? pos : 1 - pos), on
// both sides of the two-thread size, with scores on the threshold, outside [0, 1] and NaN (never >=,
// so predicted 1 - pos, and not in [0, 1]); a class index other than 0 or 1 is named.
TEST(LabelTally, AtThresholdEqualsAPlainCount) {
  std::mt19937_64 rng(4);
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
    for (const std::int32_t pos : {0, 1}) {
      for (const bool unit : {true, false}) {
        std::vector<std::int32_t> a(n);
        std::vector<double> s(n);
        std::vector<double> want(4, 0.0);
        bool want_unit = true;
        for (std::size_t i = 0; i < n; ++i) {
          a[i] = static_cast<std::int32_t>(rng() % 2);
          s[i] = static_cast<double>(rng() % 11) / 10;  // 0.5 (the threshold) among them
          if (!unit && i == n / 2) s[i] = i % 2 ? std::nan("") : 1.5;
          want_unit &= s[i] >= 0 && s[i] <= 1;
          const std::int32_t p = s[i] >= 0.5 ? pos : 1 - pos;
          want[static_cast<std::size_t>(a[i]) * 2 + static_cast<std::size_t>(p)] += 1;
        }
        bool in_unit = !want_unit;
        const label_tally t = tally_at_threshold(a, s, 0.5, pos, in_unit, "evaluate");
        EXPECT_EQ(t.cells, want) << n << " " << pos;
        EXPECT_EQ(in_unit, want_unit) << n << " " << pos;
        EXPECT_EQ(t.correct[1], want[3]);
        EXPECT_EQ(t.predicted[0], want[0] + want[2]);
        if (n > 2) {
          a[n - 2] = 2;
          try {
            (void)tally_at_threshold(a, s, 0.5, pos, in_unit, "evaluate");
            ADD_FAILURE() << "no error";
          } catch (const error& e) {
            EXPECT_EQ(std::string(e.what()), "evaluate: case " + std::to_string(n - 2) + " has class index 2 outside [0, 2)");
          }
        }
      }
    }
  }
}

TEST(LabelTally, IndicatorCountsPerLabelAndPerCase) {
  std::mt19937 rng(17);
  const std::size_t n = 57, L = 5;
  std::vector<std::int32_t> t(n * L), p(n * L);
  std::vector<double> w(n);
  for (std::size_t e = 0; e < n * L; ++e) {
    t[e] = static_cast<std::int32_t>(rng() % 2);
    p[e] = static_cast<std::int32_t>(rng() % 3 == 0);
  }
  for (std::size_t j = 0; j < L; ++j) t[3 * L + j] = 0;  // a case with no label
  for (std::size_t i = 0; i < n; ++i) p[i * L + 2] = 0;  // a label never predicted
  for (auto& x : w) x = std::uniform_real_distribution<double>(0, 2)(rng);
  const indicator_tally by_label = tally_indicators(t, p, n, L, false);
  const indicator_tally weighted = tally_indicators(t, p, n, L, false, w);
  for (std::size_t j = 0; j < L; ++j) {
    double tp = 0, actual = 0, predicted = 0, wtp = 0, wactual = 0, wpredicted = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const bool a = t[i * L + j] == 1, b = p[i * L + j] == 1;
      tp += a && b, actual += a, predicted += b;
      if (a && b) wtp += w[i];
      if (a) wactual += w[i];
      if (b) wpredicted += w[i];
    }
    EXPECT_EQ(by_label.tp[j], tp);
    EXPECT_EQ(by_label.actual[j], actual);
    EXPECT_EQ(by_label.predicted[j], predicted);
    EXPECT_EQ(weighted.tp[j], wtp);
    EXPECT_EQ(weighted.actual[j], wactual);
    EXPECT_EQ(weighted.predicted[j], wpredicted);
  }
  EXPECT_EQ(by_label.predicted[2], 0.0);
  const indicator_tally by_case = tally_indicators(t, p, n, L, true);
  for (std::size_t i = 0; i < n; ++i) {
    double tp = 0, actual = 0, predicted = 0;
    for (std::size_t j = 0; j < L; ++j) {
      const bool a = t[i * L + j] == 1, b = p[i * L + j] == 1;
      tp += a && b, actual += a, predicted += b;
    }
    EXPECT_EQ(by_case.tp[i], tp);
    EXPECT_EQ(by_case.actual[i], actual);
    EXPECT_EQ(by_case.predicted[i], predicted);
  }
  EXPECT_EQ(by_case.actual[3], 0.0);
}

TEST(LabelTally, IndicatorBadInputIsNamed) {
  std::vector<std::int32_t> t{0, 1, 1, 0}, p{0, 1, 2, 0};
  try {
    (void)tally_indicators(t, p, 2, 2, false);
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "tally_indicators: entry (1, 0) is (1, 2), not 0 or 1");
  }
  EXPECT_THROW((void)tally_indicators(t, p, 3, 2, false), error);
  std::vector<double> w{1.0, 2.0};
  EXPECT_THROW((void)tally_indicators(t, t, 2, 2, true, w), error);
}

}  // namespace
}  // namespace assay
