// The tests of the sliced report against statsmodels and SciPy (tests/slices/heterogeneity.json, made
// by tests/slices/generate_heterogeneity.py with Debian's python3: statsmodels 0.13.5, SciPy 1.10.1):
// each slice against the rest by proportions_ztest, Holm by multipletests, and all slices by
// chi2_contingency(correction=False), for accuracy and recall of binary tables built from the
// slices' confusion counts.
#include <gtest/gtest.h>

#include <fstream>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "assay/data/predictions.hpp"
#include "assay/report/slices.hpp"
#include "assay/stats/slices.hpp"

namespace {

using namespace assay;

TEST(SlicesHeterogeneity, MatchesStatsmodelsAndScipy) {
  std::ifstream in(std::string(ASSAY_TEST_DIR) + "/slices/heterogeneity.json");
  ASSERT_TRUE(in) << "tests/slices/heterogeneity.json";
  const auto ref = nlohmann::json::parse(in);
  ASSERT_GE(ref["cases"].size(), 5u);
  for (const auto& c : ref["cases"]) {
    std::vector<double> y, p;
    slice_column key;
    key.name = "slice";
    std::int32_t s = 0;
    for (const auto& k : c["counts"]) {
      key.levels.push_back(fmt::format("s{:02}", s));
      auto add = [&](int n, double yy, double pp) {
        for (int i = 0; i < n; ++i) y.push_back(yy), p.push_back(pp), key.codes.push_back(s);
      };
      add(k["tp"], 1, 1);
      add(k["fn"], 1, 0);
      add(k["tn"], 0, 0);
      add(k["fp"], 0, 1);
      ++s;
    }
    const auto sr = evaluate_slices(predictions_from_labels(y, p), std::vector<slice_column>{key});
    for (const char* name : {"accuracy", "recall"}) {
      const auto& want = c["expected"][name];
      const slice_metric* m = nullptr;
      for (const auto& x : sr.metrics)
        if (x.name == name) m = &x;
      ASSERT_NE(m, nullptr);
      ASSERT_EQ(m->rows.size(), want["z"].size());
      for (std::size_t i = 0; i < m->rows.size(); ++i) {
        const auto& row = m->rows[i];
        ASSERT_TRUE(row.p_value.defined()) << row.p_value.reason;
        EXPECT_NEAR(row.statistic.v, want["z"][i].get<double>(), 1e-12) << name << " slice " << i;
        EXPECT_NEAR(row.p_value.v, want["p"][i].get<double>(), 1e-13) << name << " slice " << i;
        EXPECT_NEAR(row.p_adjusted.v, want["p_holm"][i].get<double>(), 1e-13) << name << " slice " << i;
      }
      ASSERT_TRUE(m->chi2 && m->chi2->defined());
      EXPECT_NEAR(m->chi2->v, want["chi2"].get<double>(), 1e-10 * (1 + want["chi2"].get<double>())) << name;
      EXPECT_NEAR(m->chi2_p->v, want["chi2_p"].get<double>(), 1e-12) << name;
      EXPECT_EQ(m->chi2_df, want["df"].get<double>()) << name;
    }
  }
}

TEST(SlicesHeterogeneity, UndefinedCasesSayWhy) {
  EXPECT_EQ(stats::two_proportion_z_test(0, 10, 0, 5).p_value.reason, "no successes in either sample: the pooled proportion is 0 and z is 0/0");
  EXPECT_EQ(stats::two_proportion_z_test(1, 0, 0, 5).p_value.reason, "no case in the first sample");
  EXPECT_EQ(stats::chi2_homogeneity(std::vector<double>{3}, std::vector<double>{5}).p_value.reason,
            "1 group with cases; the test needs 2");
  EXPECT_EQ(stats::chi2_homogeneity(std::vector<double>{5, 4}, std::vector<double>{5, 4}).p_value.reason,
            "every case is a success: an expected count is 0");
}

}  // namespace
