// Worked examples from the lecture notes (../shared/seeds), computed by hand there.
#include <gtest/gtest.h>

#include "assay/metrics/classification.hpp"

namespace assay {
namespace {

// Seed 002: 12 patients, TP 6, FP 1, FN 2, TN 3.
TEST(SeedExamples, TwelvePatients) {
  std::vector<std::int32_t> actual{1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0};
  std::vector<std::int32_t> predicted{0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0};
  auto cm = confusion_matrix::from_labels(actual, predicted, 2);
  auto c = binary_counts::one_vs_rest(cm, 1);
  EXPECT_EQ(c.tp, 6);
  EXPECT_EQ(c.fp, 1);
  EXPECT_EQ(c.fn, 2);
  EXPECT_EQ(c.tn, 3);
  EXPECT_DOUBLE_EQ(accuracy(c).v, 9.0 / 12);
  EXPECT_DOUBLE_EQ(recall(c).v, 6.0 / 8);
  EXPECT_DOUBLE_EQ(precision(c).v, 6.0 / 7);
  EXPECT_DOUBLE_EQ(specificity(c).v, 3.0 / 4);
  EXPECT_DOUBLE_EQ(fpr(c).v, 1.0 / 4);
  EXPECT_DOUBLE_EQ(fnr(c).v, 2.0 / 8);
  EXPECT_DOUBLE_EQ(npv(c).v, 3.0 / 5);
  // F1 = 2PR/(P+R) with P = 6/7, R = 3/4 -> 12/15 = 0.8.
  EXPECT_DOUBLE_EQ(f1(c).v, 0.8);
  EXPECT_DOUBLE_EQ(error_rate(c).v, 3.0 / 12);
}

// Seed 000: "Is 98% accuracy good when 97% of the instances are negative?" A model that always
// says negative already scores 97%; its recall is 0 and its precision undefined.
TEST(SeedExamples, AccuracyUnderClassSkew) {
  binary_counts always_negative{0, 0, 3, 97};
  EXPECT_DOUBLE_EQ(accuracy(always_negative).v, 0.97);
  EXPECT_DOUBLE_EQ(recall(always_negative).v, 0.0);
  EXPECT_FALSE(precision(always_negative).defined());
  EXPECT_FALSE(matthews_corrcoef(always_negative).defined());
  EXPECT_DOUBLE_EQ(balanced_accuracy(always_negative).v, 0.5);
}

}  // namespace
}  // namespace assay
