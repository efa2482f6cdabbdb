// `assay compare --pred` with a multiclass label, through the command line: three classifiers'
// out-of-fold predictions on wine.csv (tests/stats/compare_multiclass.json, from scikit-learn and
// statsmodels). The text report is rebuilt here from the peer's numbers (layout ours, numbers theirs);
// the JSON is checked key by key; predictions of a class the label lacks; bad input (whole message,
// exit code, nothing on standard output).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_expect.hpp"
#include "cli/run_cli.hpp"
#include "stats/reference.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;
using stats::testing::load_reference;
using stats::testing::num;

const json& ref(const char* which) { return load_reference("compare_multiclass.json")[which]; }

// The case as a CSV: the true cultivar, then one column per model.
std::string csv_of(const json& c) {
  std::string s = "cultivar";
  for (const auto& n : c["names"]) s += "," + n.get<std::string>();
  s += "\n";
  for (std::size_t i = 0; i < c["y"].size(); ++i) {
    s += c["y"][i].get<std::string>();
    for (const auto& n : c["names"]) s += "," + c["preds"][n.get<std::string>()][i].get<std::string>();
    s += "\n";
  }
  return s;
}

void expect_close(const json& got, double want, const std::string& what) {
  ASSERT_TRUE(got.is_number()) << what << ": " << got.dump();
  EXPECT_NEAR(got.get<double>(), want, 1e-12 * std::fabs(want) + 1e-300) << what;
}

args_t three_models(const std::string& csv) {
  return {"compare", csv, "--label", "cultivar", "--pred", "tree", "--pred", "bayes", "--pred", "knn"};
}

// The whole text report of three models, with every number taken from statsmodels.
TEST(compare_multiclass_cli, text_report_of_three_models) {
  const auto& c = ref("three");
  temp_dir dir;
  const auto csv = dir.file("wine_preds.csv", csv_of(c));
  const cli_result r = run_assay(three_models(csv));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, int> count;
  for (const auto& y : c["y"]) ++count[y.get<std::string>()];
  std::string want = fmt::format("{}: 178 cases, 3 classes (class_0: {}, class_1: {}, class_2: {})\n\n", csv,
                                 count["class_0"], count["class_1"], count["class_2"]);
  want += fmt::format("{:<20} {:>10}  {:>19}\n", "model", "accuracy", "95% CI (Wilson)");
  for (const auto& m : c["models"]) {
    want += fmt::format("{:<20} {:>10.4f}  {:>19}\n", m["name"].get<std::string>(), m["correct"].get<double>() / 178,
                        fmt::format("[{:.4f}, {:.4f}]", num(m["lower"]), num(m["upper"])));
  }
  const auto& q = c["cochrans_q"];
  want += fmt::format("\nCochran's Q test of the 3 accuracies: Q = {:.4f}, df = {:g}, p = {:.4g}\n", num(q["statistic"]),
                      num(q["df"]), num(q["pvalue"]));
  want += "Pairwise tests, A - B; p-values adjusted by holm within each test\n";
  std::string differ;
  for (const auto& p : c["pairs"]) {
    const auto a = p["a"].get<std::string>(), b = p["b"].get<std::string>();
    want += fmt::format("\n{} vs {}\n", a, b);
    want += fmt::format(
        "McNemar test (exact binomial): {} right / {} wrong on {} cases, the reverse on {}; p = {:.4g}, adjusted p = "
        "{:.4g}\n",
        a, b, p["n01"].get<int>(), p["n10"].get<int>(), num(p["pvalue"]), num(p["pvalue_holm"]));
    if (num(p["pvalue_holm"]) < 0.05) {
      differ += fmt::format("{}{} vs {} ({} better, adjusted p = {:.3g})", differ.empty() ? "" : "; ", a, b,
                            p["n01"].get<int>() > p["n10"].get<int>() ? a : b, num(p["pvalue_holm"]));
    }
  }
  ASSERT_LT(num(q["pvalue"]), 0.05);
  want += fmt::format("\nThe 3 accuracies differ (Cochran's Q p = {:.3g}); pairs that differ after Holm's correction "
                      "over the 3 pairs (McNemar): {}.\n",
                      num(q["pvalue"]), differ);
  EXPECT_EQ(r.out, want);
  EXPECT_EQ(r.err, "");
}

TEST(compare_multiclass_cli, json_report_of_three_models) {
  const auto& c = ref("three");
  temp_dir dir;
  const auto csv = dir.file("wine_preds.csv", csv_of(c));
  auto args = three_models(csv);
  args.insert(args.end(), {"--format", "json"});
  const cli_result r = run_assay(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  std::set<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.insert(k);
  EXPECT_EQ(keys, (std::set<std::string>{"source", "n", "task", "label", "n_classes", "classes", "alpha", "input",
                                         "models", "cochrans_q", "p_adjust", "pairs", "verdict"}));
  EXPECT_EQ(j["source"], csv);
  EXPECT_EQ(j["task"], "multiclass");
  EXPECT_EQ(j["label"], "cultivar");
  EXPECT_EQ(j["input"], "pred");
  EXPECT_EQ(j["n"], 178);
  EXPECT_EQ(j["n_classes"], 3);
  EXPECT_EQ(j["classes"], json::parse(R"([{"class": "class_0", "n": 59}, {"class": "class_1", "n": 71},
                                          {"class": "class_2", "n": 48}])"));
  ASSERT_EQ(j["models"].size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    const auto& m = j["models"][k];
    const auto& want = c["models"][k];
    EXPECT_EQ(m["name"], want["name"]);
    EXPECT_EQ(m["correct"], want["correct"]);
    expect_close(m["accuracy"], want["correct"].get<double>() / 178, "accuracy");
    EXPECT_EQ(m["accuracy_ci_method"], "wilson");
    expect_close(m["accuracy_ci"][0], num(want["lower"]), "Wilson lower");
    expect_close(m["accuracy_ci"][1], num(want["upper"]), "Wilson upper");
    EXPECT_EQ(m["unknown_predictions"], 0);
    EXPECT_EQ(m["unknown_classes"], json::array());
  }
  expect_close(j["cochrans_q"]["statistic"], num(c["cochrans_q"]["statistic"]), "Q");
  EXPECT_EQ(j["cochrans_q"]["df"], 2.0);
  expect_close(j["cochrans_q"]["p_value"], num(c["cochrans_q"]["pvalue"]), "Q p");
  EXPECT_EQ(j["p_adjust"], "holm");
  ASSERT_EQ(j["pairs"].size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& p = j["pairs"][i];
    const auto& want = c["pairs"][i];
    EXPECT_EQ(p["a"], want["a"]);
    EXPECT_EQ(p["b"], want["b"]);
    const auto& m = p["mcnemar"];
    EXPECT_EQ(m["method"], "exact");
    for (const char* n : {"n00", "n01", "n10", "n11"}) EXPECT_EQ(m[n], want[n]) << n;
    EXPECT_EQ(m["statistic"], num(want["statistic"]));
    expect_close(m["p_value"], num(want["pvalue"]), "McNemar p");
    expect_close(m["p_value_adjusted"], num(want["pvalue_holm"]), "Holm");
    EXPECT_FALSE(p.contains("delong"));
    EXPECT_FALSE(p.contains("paired_bootstrap"));
  }
}

// knn's predictions with 9 replaced by "unsure": wrong, counted and named; the metrics take the
// classes present in the truth or the predictions (scikit-learn's default), so "unsure" is a fourth
// class of knn_unsure's macro averages. Same numbers with --threads 1 and 2.
TEST(compare_multiclass_cli, predictions_of_a_class_the_label_lacks) {
  const auto& c = ref("unsure");
  temp_dir dir;
  const auto csv = dir.file("unsure.csv", csv_of(c));
  const args_t base{"compare", csv, "--label", "cultivar", "--pred", "bayes", "--pred", "knn_unsure", "--metric",
                    "f1_macro", "--metric", "cohen_kappa", "--replicates", "200", "--permutations", "200", "--seed",
                    "9", "--format", "json"};
  args_t one = base, two = base;
  one.insert(one.end(), {"--threads", "1"});
  two.insert(two.end(), {"--threads", "2"});
  const cli_result r1 = run_assay(one), r2 = run_assay(two);
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  EXPECT_EQ(r1.out, r2.out);
  const auto j = json::parse(r1.out);
  EXPECT_EQ(j["models"][1]["unknown_predictions"], 9);
  EXPECT_EQ(j["models"][1]["unknown_classes"], json::array({"unsure"}));
  EXPECT_EQ(j["models"][1]["correct"], c["models"][1]["correct"]);
  EXPECT_EQ(j["mcnemar"]["n01"], c["pairs"][0]["n01"]);
  EXPECT_EQ(j["mcnemar"]["n10"], c["pairs"][0]["n10"]);
  expect_close(j["mcnemar"]["p_value"], num(c["pairs"][0]["pvalue"]), "McNemar p");
  for (std::size_t k = 0; k < 2; ++k) {
    const auto& b = j["paired_bootstrap"][k];
    const std::string metric = b["metric"];
    const double wa = num(c["models"][0]["metrics"][metric]), wb = num(c["models"][1]["metrics"][metric]);
    EXPECT_NEAR(b["estimate_a"].get<double>(), wa, 1e-12) << metric;
    EXPECT_NEAR(b["estimate_b"].get<double>(), wb, 1e-12) << metric;
    EXPECT_NEAR(b["diff"].get<double>(), wa - wb, 1e-12) << metric;
    EXPECT_EQ(b["stratified"], true);
    EXPECT_NEAR(j["permutation"][k]["diff"].get<double>(), wa - wb, 1e-12) << metric;
    // bayes is far better (difference > 0.4): the interval excludes 0 and both tests reject.
    EXPECT_GT(b["diff_ci"][0].get<double>(), 0) << metric;
    EXPECT_LT(j["permutation"][k]["p_value"].get<double>(), 0.01) << metric;
  }
  const cli_result text = run_assay({"compare", csv, "--label", "cultivar", "--pred", "bayes", "--pred", "knn_unsure"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Note: knn_unsure predicts a class the label does not have (\"unsure\") for 9 cases; "
                          "counted as wrong.\n"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("Note: bayes"), std::string::npos) << text.out;
}

TEST(compare_multiclass_cli, small_classes_numeric_labels_and_html) {
  temp_dir dir;
  // Class 2 has a single case (allowed: the bootstrap then always redraws it); "2.0" predicts "2".
  const auto csv = dir.file("small.csv", "y,a,b\n0,0,0\n0,0,1\n0,1,1\n1,1,1\n1,1,2.0\n1,0,1\n2,2.0,2\n");
  const auto page = (dir.path() / "c.html").string();
  const cli_result r = run_assay({"compare", csv, "--label", "y", "--pred", "a", "--pred", "b", "--metric",
                                  "balanced_accuracy", "--replicates", "50", "--permutations", "50", "--html", page});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n') + 1), csv + ": 7 cases, 3 classes (0: 3, 1: 3, 2: 1)\n");
  // y = 0 0 0 1 1 1 2; a = 0 0 1 1 1 0 2: right on rows 1, 2, 4, 5, 7 (5 of 7; 4 if "2.0" were not "2").
  EXPECT_NE(r.out.find("a                        0.7143"), std::string::npos) << r.out;
  // b = 0 1 1 1 2 1 2: right on rows 1, 4, 6, 7 (4 of 7).
  EXPECT_NE(r.out.find("b                        0.5714"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Note:"), std::string::npos) << r.out;  // "2.0" is class 2, not a class the label lacks
  const std::string html = read_file(page);
  EXPECT_NE(html.find("3 (0: 3, 1: 3, 2: 1)"), std::string::npos);
  EXPECT_EQ(html.find("Positive class"), std::string::npos);
  EXPECT_EQ(html.find("--pos-label"), std::string::npos);
  EXPECT_NE(html.find("--metric balanced_accuracy"), std::string::npos);
  // A binary label is unified the same way: "1.0" predicts class "1".
  const auto bin = dir.file("bin.csv", "y,a,b\n0,0.0,0\n0,1.0,0\n1,1.0,1\n1,1,0.0\n");
  const cli_result b = run_assay({"compare", bin, "--label", "y", "--pred", "a", "--pred", "b", "--format", "json"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const auto j = json::parse(b.out);
  EXPECT_EQ(j["task"], "binary");
  EXPECT_EQ(j["positive_class"], "1");
  EXPECT_EQ(j["models"][0]["correct"], 3);
  EXPECT_EQ(j["models"][1]["correct"], 3);
}

TEST(compare_multiclass_cli, bad_input) {
  temp_dir dir;
  const auto csv = dir.file("m.csv", "y,s,t,p,q\nx,0.1,0.2,x,y\ny,0.3,0.4,y,y\nz,0.5,0.6,z,x\nx,0.7,0.1,x,x\n");
  expect_error({"compare", csv, "--label", "y", "--score", "s", "--score", "t"},
               "assay compare: " + csv +
                   ": column 'y' has 3 classes (\"x\", \"y\", \"z\"); --score compares binary classifiers: compare "
                   "multiclass models by their predicted classes with --pred (compare does not take class-probability "
                   "columns)\n");
  expect_error({"compare", csv, "--label", "y", "--pos-label", "x", "--pred", "p", "--pred", "q"},
               "assay compare: --pos-label: column 'y' has 3 classes (\"x\", \"y\", \"z\"); a positive class has no "
               "meaning for a multiclass task: leave --pos-label out\n");
  expect_error({"compare", csv, "--label", "y", "--pred", "p", "--pred", "q", "--metric", "f1"},
               "assay compare: --metric: \"f1\" cannot compare prediction columns of a multiclass label; choose from: "
               "accuracy, error_rate, balanced_accuracy, matthews_corrcoef, cohen_kappa, precision_micro, "
               "recall_micro, f1_micro, precision_macro, recall_macro, f1_macro, precision_weighted, recall_weighted, "
               "f1_weighted\n");
  // A binary label keeps the binary metrics.
  const auto bin = dir.file("b.csv", "y,p,q\n1,1,0\n0,0,0\n1,1,1\n0,1,0\n");
  expect_error({"compare", bin, "--label", "y", "--pred", "p", "--pred", "q", "--metric", "f1_macro"},
               "assay compare: --metric: \"f1_macro\" cannot compare prediction columns; choose from: tp, fp, fn, tn, "
               "accuracy, error_rate, prevalence, recall, specificity, fpr, fnr, precision, npv, f1, fbeta, "
               "balanced_accuracy, matthews_corrcoef, cohen_kappa\n");
}

}  // namespace
}  // namespace assay::test
