// `assay curve threshold|cost|calibration --proba`: one-vs-rest per class and, for calibration, the
// top-label curve and ECE. Checked against scikit-learn (iris example, sklearn_curves.json) and
// brute-force counts; bad input with its exit code and whole message.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;

const json& sk() {
  static const json j = [] {
    std::ifstream f(std::string(ASSAY_TEST_DIR) + "/curves/sklearn_curves.json");
    return json::parse(f);
  }();
  return j;
}

void expect_near_vec(const json& got, const json& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i].get<double>(), want[i].get<double>(), 1e-12) << what;
}

const std::vector<std::string> iris{"curve",   "calibration", "examples/iris_predictions.csv",
                                    "--label", "species",     "--proba",
                                    "setosa",  "versicolor",  "virginica"};

TEST(MulticlassCurveCli, CalibrationJsonMatchesSklearnPerClassAndTopLabel) {
  auto args = iris;
  args.insert(args.end(), {"--format", "json"});
  const cli_result r = run_assay(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  const json& want = sk()["example_multiclass"]["calibration"];
  EXPECT_EQ(j["one_vs_rest"], true);
  ASSERT_EQ(j["models"].size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(j["models"][k]["model"], sk()["example_multiclass"]["proba"][k]);
    expect_near_vec(j["models"][k]["prob_true"], want["per_class"][k]["prob_true"], "class " + std::to_string(k));
    expect_near_vec(j["models"][k]["prob_pred"], want["per_class"][k]["prob_pred"], "class " + std::to_string(k));
  }
  expect_near_vec(j["top_label"]["prob_true"], want["top_label"]["prob_true"], "top-label");
  expect_near_vec(j["top_label"]["prob_pred"], want["top_label"]["prob_pred"], "top-label");
  EXPECT_NEAR(j["top_label"]["expected_calibration_error"].get<double>(), want["top_label"]["ece"].get<double>(),
              1e-12);
  EXPECT_NE(j["top_label"]["variant"].get<std::string>().find("Guo et al. 2017"), std::string::npos);
}

TEST(MulticlassCurveCli, CalibrationCsvAndSvgOverlayClassesAndTopLabel) {
  temp_dir dir;
  auto args = iris;
  const std::string svg = (dir.path() / "cal.svg").string(), csv = (dir.path() / "cal.csv").string();
  args.insert(args.end(), {"--plot", svg, "--output", csv});
  const cli_result r = run_assay(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = read_file(csv);
  EXPECT_EQ(text.rfind("model,prob_pred,prob_true,weight\n", 0), 0u);
  std::map<std::string, int> rows;
  std::stringstream ss(text);
  std::string line;
  std::getline(ss, line);
  while (std::getline(ss, line)) ++rows[line.substr(0, line.find(','))];
  EXPECT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows["top-label"],
            static_cast<int>(sk()["example_multiclass"]["calibration"]["top_label"]["prob_true"].size()));
  const std::string plot = read_file(svg);
  for (const char* name : {"setosa (ECE", "versicolor (ECE", "virginica (ECE", "top-label (ECE 0.192)"})
    EXPECT_NE(plot.find(name), std::string::npos) << name;
}

// A small file whose per-class counts are checked against a brute-force count at every threshold.
const char* small = "y,a,b,c,w\na,0.6,0.3,0.1,1\nb,0.2,0.5,0.3,2\nc,0.1,0.3,0.6,1\nb,0.3,0.3,0.4,0.5\na,0.5,0.5,0,1\n";

TEST(MulticlassCurveCli, ThresholdAndCostOneVsRestPerClass) {
  temp_dir dir;
  const std::string f = dir.file("small.csv", small);
  const cli_result r = run_assay(
      {"curve", "threshold", f, "--label", "y", "--proba", "a", "b", "c", "--weight", "w", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["models"].size(), 3u);
  const std::vector<std::string> y{"a", "b", "c", "b", "a"};
  const std::vector<std::vector<double>> p{{.6, .3, .1}, {.2, .5, .3}, {.1, .3, .6}, {.3, .3, .4}, {.5, .5, 0}};
  const std::vector<double> w{1, 2, 1, 0.5, 1};
  for (std::size_t k = 0; k < 3; ++k) {
    const json& m = j["models"][k];
    EXPECT_EQ(m["model"], std::string(1, static_cast<char>('a' + k)));
    const auto& t = m["thresholds"];
    ASSERT_GE(t.size(), 2u);
    EXPECT_TRUE(t[0].is_null());  // +inf: nothing positive
    for (std::size_t q = 1; q < t.size(); ++q) {
      double tp = 0, fp = 0;
      for (std::size_t i = 0; i < 5; ++i)
        if (p[i][k] >= t[q].get<double>()) (y[i][0] == 'a' + static_cast<char>(k) ? tp : fp) += w[i];
      EXPECT_DOUBLE_EQ(m["tp"][q].get<double>(), tp) << k << " " << q;
      EXPECT_DOUBLE_EQ(m["fp"][q].get<double>(), fp) << k << " " << q;
    }
    EXPECT_TRUE(m["best"].contains("max_fbeta"));
  }
  const cli_result c = run_assay({"curve", "cost", f, "--label", "y", "--proba", "a", "b", "c", "--cost-fp", "1",
                                  "--cost-fn", "5", "--format", "json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const json cj = json::parse(c.out);
  ASSERT_EQ(cj["models"].size(), 3u);
  // Class c: its only case has the highest c-probability (0.6), so the point at threshold 0.6 has
  // FPR 0, TPR 1 and cost 0.
  EXPECT_EQ(cj["models"][2]["min_expected_cost"]["threshold"].get<double>(), 0.6);
  EXPECT_EQ(cj["models"][2]["min_expected_cost"]["value"].get<double>(), 0.0);
}

TEST(MulticlassCurveCli, BadInput) {
  temp_dir dir;
  const std::string sum = dir.file("sum.csv", "y,a,b,c\na,0.5,0.3,0.2\nb,0.2,0.5,0.3\nc,0.3,0.3,0.3\n");
  for (const char* kind : {"threshold", "cost", "calibration"}) {
    const cli_result r = run_assay({"curve", kind, sum, "--label", "y", "--proba", "a", "b", "c"});
    EXPECT_EQ(r.exit_code, 3) << kind;
    EXPECT_EQ(r.err, "assay curve " + std::string(kind) + ": " + sum +
                         ": data row 3: the --proba columns sum to 0.8999999999999999, not 1 (rule: |sum - 1| <= "
                         "1e-8 + 1e-5 |sum|)\n")
        << kind;
  }
  // Class "d" has no column while a and b are named after classes: refused, not paired with column c.
  const std::string unknown = dir.file("unknown.csv", "y,a,b,c\na,0.5,0.3,0.2\nb,0.2,0.5,0.3\nd,0.3,0.3,0.4\n");
  const cli_result r = run_assay({"curve", "calibration", unknown, "--label", "y", "--proba", "a", "b", "c"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "assay curve calibration: --proba: class \"d\" of column 'y' has no probability column (columns: \"a\", "
            "\"b\", \"c\"; "
            "name them after the classes or none of them)\n");
}

}  // namespace
}  // namespace assay::test
