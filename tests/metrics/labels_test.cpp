// Class labels: ordering and numeric equivalence (include/assay/metrics/labels.hpp).
#include <gtest/gtest.h>

#include "assay/metrics/labels.hpp"

namespace assay {
namespace {

TEST(Labels, NumericLabelsSortByValue) {
  EXPECT_EQ(sort_labels({"10", "2", "-1", "2"}), (std::vector<std::string>{"-1", "2", "10"}));
  EXPECT_EQ(sort_labels({"b", "B", "a"}), (std::vector<std::string>{"B", "a", "b"}));
}

TEST(Labels, SameNumberWrittenTwoWaysIsOneClass) {
  std::vector<std::string> truth{"0", "1"}, pred{"1.0", "0.0", "1e0", "-0"};
  std::string pos = "1.00";
  unify_numeric_labels({&truth, &pred}, {&pos});
  EXPECT_EQ(truth, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(pred, (std::vector<std::string>{"1", "0", "1", "0"}));
  EXPECT_EQ(pos, "1");
}

TEST(Labels, StringLabelsAreLeftAlone) {
  std::vector<std::string> truth{"yes", "1"}, pred{"1.0"};
  std::string pos = "1.0";
  unify_numeric_labels({&truth, &pred}, {&pos});
  EXPECT_EQ(truth, (std::vector<std::string>{"yes", "1"}));
  EXPECT_EQ(pred, (std::vector<std::string>{"1.0"}));
  EXPECT_EQ(pos, "1.0");
}

TEST(Labels, DefaultPositive) {
  EXPECT_EQ(default_positive({"0", "1"}), "1");
  EXPECT_EQ(default_positive({"-1", "1"}), "1");
  EXPECT_EQ(default_positive({"1", "2"}), "2");
  EXPECT_EQ(default_positive({"1"}), "1");
  EXPECT_EQ(default_positive({"0"}), "1");
  EXPECT_EQ(default_positive({"7"}), std::nullopt);
  EXPECT_EQ(default_positive({"neg", "pos"}), std::nullopt);
}

}  // namespace
}  // namespace assay
