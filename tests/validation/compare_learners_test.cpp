// Comparing two learners: the paired, corrected resampled and 5x2cv t-tests against scipy 1.10
// (scipy_compare.json from generate_scipy_compare.py), and an end-to-end comparison.
#include "assay/validation/compare_learners.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "assay/stats/learner_tests.hpp"

namespace assay::validation {
namespace {

std::vector<double> numbers(const nlohmann::json& j) {
  std::vector<double> v;
  for (const auto& s : j) v.push_back(std::stod(s.get<std::string>()));
  return v;
}

double num(const nlohmann::json& j) { return std::stod(j.get<std::string>()); }

TEST(Compare, TTestsAgreeWithScipy) {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/validation/scipy_compare.json");
  const auto ref = nlohmann::json::parse(f);
  int n = 0;
  for (const auto& c : ref["cases"]) {
    const auto a = numbers(c["a"]), b = numbers(c["b"]);
    const std::size_t j = a.size();
    const auto r = test_split_differences(a, b, c["n_train"], c["n_test"], j == 10 ? 5 : 1, j == 10 ? 2 : j);
    EXPECT_NEAR(r.paired.t.v, num(c["paired_t"]), 1e-10 * std::abs(num(c["paired_t"])));
    EXPECT_NEAR(r.paired.p_value.v, num(c["paired_p"]), 1e-12);
    EXPECT_NEAR(r.corrected.t.v, num(c["corrected_t"]), 1e-10 * std::abs(num(c["corrected_t"])));
    EXPECT_NEAR(r.corrected.p_value.v, num(c["corrected_p"]), 1e-12);
    if (c.contains("five_by_two_t")) {
      EXPECT_NEAR(r.five_by_two.t.v, num(c["five_by_two_t"]), 1e-10 * std::abs(num(c["five_by_two_t"])));
      EXPECT_NEAR(r.five_by_two.p_value.v, num(c["five_by_two_p"]), 1e-12);
    } else {
      EXPECT_FALSE(r.five_by_two.t.defined());
    }
    ++n;
  }
  EXPECT_EQ(n, 3);
  // One implementation: the numbers are those of stats/learner_tests, bit for bit.
  const std::vector<double> a{0.81, 0.84, 0.79, 0.86, 0.83, 0.8, 0.82, 0.85, 0.84, 0.8},
      b{0.8, 0.81, 0.8, 0.83, 0.8, 0.79, 0.83, 0.82, 0.81, 0.8};
  const auto mine = test_split_differences(a, b, 150, 150, 5, 2);
  std::vector<double> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  EXPECT_EQ(mine.paired.t.v, stats::paired_t_test(d).test.statistic);
  EXPECT_EQ(mine.paired.p_value.v, stats::paired_t_test(d).test.p_value);
  EXPECT_EQ(mine.corrected.t.v, stats::corrected_resampled_t_test(d, 150, 150).test.statistic);
  EXPECT_EQ(mine.corrected.p_value.v, stats::corrected_resampled_t_test(d, 150, 150).test.p_value);
  EXPECT_EQ(mine.five_by_two.t.v, stats::cv52_paired_t_test(d).statistic);
  EXPECT_EQ(mine.five_by_two.p_value.v, stats::cv52_paired_t_test(d).p_value);
  // Identical scores: no variance, every test undefined rather than a division by zero.
  const std::vector<double> same{0.9, 0.8, 0.85};
  const auto r = test_split_differences(same, same, 100, 50, 1, 3);
  EXPECT_FALSE(r.paired.p_value.defined());
  EXPECT_FALSE(r.corrected.t.defined());
}

TEST(Compare, LearnersOnTheSameFolds) {
  dataset_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/data/breast_cancer.csv";
  q.target = "diagnosis";
  const auto d = read_dataset(q);
  cv_options o;
  o.metrics = {"accuracy"};
  const auto r = compare_learners(d, make_learner("logistic", true), make_learner("majority", true),
                                  repeated_kfold(d.rows, 2, 5, 3, d.y_class), o);
  ASSERT_EQ(r.a.size(), 10u);
  EXPECT_GT(r.tests.mean_difference, 0.3);  // about 0.97 - 0.63
  EXPECT_LT(r.tests.paired.p_value.v, 1e-6);
  EXPECT_LT(r.tests.five_by_two.p_value.v, 1e-3);
  EXPECT_GT(r.tests.corrected.p_value.v, r.tests.paired.p_value.v);  // the correction is conservative
  // The per-split plot has one point per split and learner, and one line per split.
  const auto svg = to_svg(r);
  std::size_t circles = 0, pos = 0;
  while ((pos = svg.find("<circle", pos)) != std::string::npos) ++circles, ++pos;
  EXPECT_EQ(circles, 20u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

}  // namespace
}  // namespace assay::validation
