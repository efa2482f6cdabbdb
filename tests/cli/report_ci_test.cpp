// assay report --ci through the command line: keys, methods, and option errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_cli.hpp"

namespace {

using json = nlohmann::json;
using namespace assay::test;

const std::vector<std::string> breast{"report", std::string(ASSAY_SOURCE_DIR) + "/examples/breast_cancer_predictions.csv",
                                      "--label", "diagnosis", "--score", "p_malignant", "--pos-label", "malignant"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(report_ci, json_has_interval_and_method_keys) {
  const cli_result r = run_assay(with(breast, {"--ci", "0.9", "--bootstrap-replicates", "200", "-f", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("ci_level"), 0.9);
  EXPECT_EQ(j.at("accuracy_ci_method"), "wilson");
  EXPECT_EQ(j.at("roc_auc_ci_method"), "delong");
  EXPECT_EQ(j.at("f1_ci_method"), "bootstrap percentile, stratified by class, 200 replicates");
  for (const char* k : {"accuracy", "roc_auc", "f1", "log_loss"}) {
    const auto ci = j.at(std::string(k) + "_ci");
    ASSERT_EQ(ci.size(), 2u) << k;
    EXPECT_LE(ci[0].get<double>(), j.at(k).get<double>()) << k;
    EXPECT_GE(ci[1].get<double>(), j.at(k).get<double>()) << k;
  }
  EXPECT_FALSE(j.contains("tp_ci"));
}

TEST(report_ci, replicates_is_the_same_option_as_bootstrap_replicates) {
  // One name across report, compare, text and detection: --replicates.
  const cli_result a = run_assay(with(breast, {"--ci", "--bootstrap-replicates", "150", "-f", "json"}));
  const cli_result b = run_assay(with(breast, {"--ci", "--replicates", "150", "-f", "json"}));
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(json::parse(b.out).at("f1_ci_method"), "bootstrap percentile, stratified by class, 150 replicates");
}

TEST(report_ci, bare_flag_means_95_percent_and_text_names_the_method) {
  const cli_result r = run_assay(with(breast, {"--ci", "--ci-method", "exact"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(95% confidence intervals; the method follows each)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("] clopper_pearson\n"), std::string::npos) << r.out;
}

TEST(report_ci, method_without_ci_is_a_usage_error) {
  const cli_result r = run_assay(with(breast, {"--ci-method", "wilson"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "assay report: --ci-method needs --ci\n");
  EXPECT_EQ(r.out, "");
}

TEST(report_ci, level_outside_0_1_is_a_usage_error) {
  const cli_result r = run_assay(with(breast, {"--ci", "95"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "assay report: --ci: the level is 95, but must be between 0 and 1 (e.g. 0.95)\n");
}

}  // namespace
