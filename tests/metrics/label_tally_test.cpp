// The one-pass label tally (include/assay/metrics/label_tally.hpp).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace assay
