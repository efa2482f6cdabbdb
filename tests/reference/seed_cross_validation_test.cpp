// Seed 000's 5-fold cross-validation example (../shared/seeds/000_*.txt, "Cross validation example"):
// 100 instances in 5 folds of 20, with 11/20, 17/20, 16/20, 13/20 and 16/20 correct; the notes give
// the pooled accuracy as 73/100 = 73%. Here each fold's predictions become a confusion matrix and
// the five are summed with confusion_matrix::operator+=.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "assay/error.hpp"
#include "assay/metrics/classification.hpp"
#include "assay/metrics/confusion.hpp"

namespace assay {
namespace {

// One fold of 20 binary cases with `correct` right answers. Actual classes alternate 0, 1; the
// first `correct` cases are predicted right, the rest wrong.
void make_fold(int correct, std::vector<std::int32_t>& actual, std::vector<std::int32_t>& predicted) {
  actual.clear();
  predicted.clear();
  for (int i = 0; i < 20; ++i) {
    const std::int32_t y = i % 2;
    actual.push_back(y);
    predicted.push_back(i < correct ? y : 1 - y);
  }
}

TEST(SeedCrossValidation, FiveFoldsPoolTo73Of100) {
  constexpr std::array<int, 5> correct = {11, 17, 16, 13, 16};
  confusion_matrix pooled;  // empty: takes the size of the first fold
  std::vector<std::int32_t> all_actual, all_predicted, a, p;
  for (int c : correct) {
    make_fold(c, a, p);
    const auto fold = confusion_matrix::from_labels(a, p, 2);
    EXPECT_EQ(fold.trace(), c);
    EXPECT_EQ(fold.total(), 20);
    EXPECT_EQ(accuracy(fold).v, c / 20.0);
    pooled += fold;
    all_actual.insert(all_actual.end(), a.begin(), a.end());
    all_predicted.insert(all_predicted.end(), p.begin(), p.end());
  }
  ASSERT_EQ(pooled.classes(), 2u);
  EXPECT_EQ(pooled.trace(), 73);
  EXPECT_EQ(pooled.total(), 100);
  EXPECT_EQ(accuracy(pooled).v, 0.73);  // 73/100 is the double nearest 0.73
  EXPECT_EQ(error_rate(pooled).v, 27 / 100.0);

  // Summing the fold matrices is the same as one matrix of all 100 out-of-fold predictions.
  const auto whole = confusion_matrix::from_labels(all_actual, all_predicted, 2);
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 2; ++j) EXPECT_EQ(pooled(i, j), whole(i, j)) << i << "," << j;
  }

  // With equal folds the mean of the fold accuracies is the pooled accuracy too.
  double mean = 0;
  for (int c : correct) mean += c / 20.0;
  EXPECT_NEAR(mean / 5, 0.73, 1e-15);
}

TEST(SeedCrossValidation, AddingMatricesOfDifferentSizeIsAUsageError) {
  confusion_matrix two(2), three(3);
  try {
    two += three;
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::usage);
    EXPECT_STREQ(e.what(), "confusion_matrix +=: cannot add a 3 x 3 matrix to a 2 x 2 one");
  }
  EXPECT_EQ(two.total(), 0);  // unchanged
}

TEST(SeedCrossValidation, WeightedFoldsAddCellByCell) {
  std::vector<std::int32_t> a{0, 1, 2, 2}, p{0, 2, 2, 1};
  std::vector<double> w1{0.5, 1.25, 2, 0}, w2{1, 1, 1, 3};
  auto sum = confusion_matrix::from_labels(a, p, 3, w1);
  sum += confusion_matrix::from_labels(a, p, 3, w2);
  EXPECT_EQ(sum(0, 0), 1.5);
  EXPECT_EQ(sum(1, 2), 2.25);
  EXPECT_EQ(sum(2, 2), 3);
  EXPECT_EQ(sum(2, 1), 3);
  EXPECT_EQ(sum.total(), 9.75);
}

}  // namespace
}  // namespace assay
