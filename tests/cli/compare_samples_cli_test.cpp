// `assay compare` on two independent samples: aSAH split in two (patients 1-60 and 61-113, marker
// s100b) against pROC 1.18's unpaired DeLong test and error counts made in R
// (tests/cli/compare_samples_proc.json, generator tests/cli/generate_compare_samples.R); the two
// input forms (two files, one file with --sample) give the same numbers; bad input as whole messages.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "assay/stats/two_proportions.hpp"
#include "cli/cli_expect.hpp"
#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;

json reference() {
  std::ifstream in(std::string(ASSAY_TEST_DIR) + "/cli/compare_samples_proc.json");
  return json::parse(in);
}

// The lines of examples/data/asah.csv: header, then 113 patients.
std::vector<std::string> asah_lines() {
  std::ifstream in(std::string(ASSAY_SOURCE_DIR) + "/examples/data/asah.csv");
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

struct files {
  temp_dir dir;
  std::string a, b, both;
  files() {
    const auto lines = asah_lines();
    std::string ta = lines[0] + "\n", tb = ta, all = lines[0] + ",site\n";
    for (std::size_t i = 1; i < lines.size(); ++i) {
      (i <= 60 ? ta : tb) += lines[i] + "\n";
      all += lines[i] + (i <= 60 ? ",a\n" : ",b\n");
    }
    a = dir.file("a.csv", ta);
    b = dir.file("b.csv", tb);
    both = dir.file("both.csv", all);
  }
};

json run_json(const args_t& args) {
  const cli_result r = run_assay(args);
  EXPECT_EQ(r.exit_code, 0) << show_args(args) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

void expect_matches_reference(const json& j) {
  const json ref = reference();
  ASSERT_EQ(j["samples"].size(), 2u) << j.dump();
  EXPECT_EQ(j["samples"][0]["n"], ref["n_a"]);
  EXPECT_EQ(j["samples"][1]["n"], ref["n_b"]);
  EXPECT_EQ(j["samples"][0]["errors"], ref["errors_a"]);
  EXPECT_EQ(j["samples"][1]["errors"], ref["errors_b"]);
  EXPECT_NEAR(j["samples"][0]["auc"].get<double>(), ref["auc_a"].get<double>(), 1e-12);
  EXPECT_NEAR(j["samples"][1]["auc"].get<double>(), ref["auc_b"].get<double>(), 1e-12);
  const json& d = j["delong_unpaired"];
  EXPECT_NEAR(d["t"].get<double>(), ref["t"].get<double>(), 1e-9);
  EXPECT_NEAR(d["df"].get<double>(), ref["df"].get<double>(), 1e-9 * ref["df"].get<double>());
  EXPECT_NEAR(d["p_value"].get<double>(), ref["p_value"].get<double>(), 1e-9);
  // The difference of error rates from the R counts through the statsmodels-checked kernel.
  const auto e = stats::compare_two_proportions(ref["errors_a"].get<double>(), ref["n_a"].get<double>(),
                                                ref["errors_b"].get<double>(), ref["n_b"].get<double>());
  const json& x = j["error_rate_difference"];
  EXPECT_DOUBLE_EQ(x["difference"].get<double>(), e.difference);
  EXPECT_DOUBLE_EQ(x["wald_ci"][0].get<double>(), e.wald.lower);
  EXPECT_DOUBLE_EQ(x["newcombe_ci"][1].get<double>(), e.newcombe.upper);
  EXPECT_DOUBLE_EQ(x["z_test"]["p_value"].get<double>(), e.z_test.test.p_value);
  EXPECT_DOUBLE_EQ(x["fisher_exact"]["p_value"].get<double>(), e.fisher.p_value);
}

TEST(compare_samples_cli, two_files_match_proc) {
  files f;
  const json j = run_json({"compare", f.a, f.b, "--label", "outcome", "--pos-label", "Poor", "--score", "s100b",
                           "--threshold", "0.2", "--format", "json"});
  expect_matches_reference(j);
  EXPECT_EQ(j["samples"][0]["name"], f.a);
  EXPECT_EQ(j["design"], "two independent samples");
}

TEST(compare_samples_cli, sample_column_matches_proc) {
  files f;
  const json j = run_json({"compare", f.both, "--label", "outcome", "--pos-label", "Poor", "--score", "s100b",
                           "--threshold", "0.2", "--sample", "site", "--format", "json"});
  expect_matches_reference(j);
  EXPECT_EQ(j["samples"][0]["name"], "a");
  EXPECT_EQ(j["sample_column"], "site");
}

TEST(compare_samples_cli, text) {
  files f;
  const cli_result r = run_assay({"compare", f.both, "--label", "outcome", "--pos-label", "Poor", "--score", "s100b",
                                  "--threshold", "0.2", "--sample", "site"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 14/60 = 0.2333 and 15/53 = 0.2830; pROC: t = -0.0195, df = 110.79, p = 0.9845.
  EXPECT_NE(r.out.find("a                 60      0.2333"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Difference of error rates, a - b: -0.0497"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("t = -0.0195, df = 110.79, p = 0.9845"), std::string::npos) << r.out;
}

TEST(compare_samples_cli, hard_predictions) {
  temp_dir d;
  // A: 3 wrong of 8; B: 1 wrong of 6.
  const std::string a = d.file("a.csv", "y,h\n1,1\n1,0\n0,0\n0,1\n1,1\n0,0\n1,0\n0,0\n");
  const std::string b = d.file("b.csv", "y,h\n1,1\n1,1\n0,0\n0,1\n1,1\n0,0\n");
  const json j = run_json({"compare", a, b, "--label", "y", "--pred", "h", "--format", "json"});
  EXPECT_EQ(j["samples"][0]["errors"], 3);
  EXPECT_EQ(j["samples"][1]["errors"], 1);
  EXPECT_DOUBLE_EQ(j["error_rate_difference"]["difference"].get<double>(), 3.0 / 8 - 1.0 / 6);
  EXPECT_FALSE(j.contains("delong_unpaired"));
}

TEST(compare_samples_cli, bad_input) {
  temp_dir d;
  const std::string one = d.file("one.csv", "y,p,site\n1,0.9,a\n0,0.2,a\n1,0.7,a\n0,0.4,a\n");
  expect_error({"compare", one, "--label", "y", "--score", "p", "--sample", "site"},
               "assay compare: " + one + ": sample column 'site' has 1 value (\"a\"); it must have exactly two (one per sample)\n",
               3);
  const std::string three = d.file("three.csv", "y,p,site\n1,0.9,a\n0,0.2,b\n1,0.7,c\n0,0.4,a\n");
  expect_error({"compare", three, "--label", "y", "--score", "p", "--sample", "site"},
               "assay compare: " + three + ": sample column 'site' has 3 values; it must have exactly two (one per sample)\n",
               3);
  const std::string a = d.file("a.csv", "y,p\n1,0.9\n0,0.2\n1,0.7\n0,0.4\n");
  const std::string b = d.file("b.csv", "y,p\n1,0.9\n2,0.2\n1,0.7\n2,0.4\n");
  expect_error({"compare", a, b, "--label", "y", "--score", "p", "--pos-label", "1"},
               "assay compare: compare_samples: the samples have different label sets: " + a + " has classes {\"0\", \"1\"}, " +
                   b + " has {\"1\", \"2\"}\n",
               3);
  const std::string h = d.file("h.csv", "y,h\n1,1\n0,0\n1,yes\n");
  expect_error({"compare", h, h, "--label", "y", "--pred", "h"},
               "assay compare: compare_samples: " + h + ": prediction column 'h' predicts class \"yes\", which column 'y' does not have\n",
               3);
  expect_error({"compare", a, b, "--label", "y", "--score", "p", "--score", "q"},
               "assay compare: --score: two files compare one model column across two samples; got 2 columns\n");
  expect_error({"compare", a, b, "--label", "y", "--score", "p", "--sample", "site"},
               "assay compare: --sample: splits one file into two samples; with two files each file is a sample\n");
  expect_error({"compare", a, b, "--label", "y", "--score", "p", "--metric", "f1"},
               "assay compare: --metric: the paired tests need the same cases; not with two files\n");
}

}  // namespace
}  // namespace assay::test
