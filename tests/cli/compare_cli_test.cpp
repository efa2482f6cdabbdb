// `assay compare` with --pred columns, more than two models and --metric, through the command line:
// the statsmodels reference of tests/stats/scipy_stats.json ("compare_preds": Cochran's Q, pairwise
// exact McNemar, Holm, Wilson intervals), the JSON layout of each test, output independent of
// --threads, and bad input (whole message, exit code, nothing on standard output).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
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

void expect_close(const json& got, double want, const std::string& what) {
  ASSERT_TRUE(got.is_number()) << what << ": " << got.dump();
  EXPECT_NEAR(got.get<double>(), want, 1e-12 * std::fabs(want) + 1e-15) << what;
}

// The "compare_preds" data as a CSV with class names: y in {no, yes}, predictions likewise.
std::string preds_csv() {
  const auto& ref = load_reference("scipy_stats.json")["compare_preds"];
  std::string s = "truth,tree,forest,knn\n";
  auto name = [](int v) { return v == 1 ? std::string("yes") : std::string("no"); };
  const auto& y = ref["y"];
  for (std::size_t i = 0; i < y.size(); ++i) {
    s += name(y[i].get<int>());
    for (const char* k : {"tree", "forest", "knn"}) s += "," + name(ref["preds"][k][i].get<int>());
    s += "\n";
  }
  return s;
}

TEST(compare_cli, pred_columns_match_statsmodels) {
  const auto& ref = load_reference("scipy_stats.json")["compare_preds"];
  temp_dir dir;
  const auto csv = dir.file("preds.csv", preds_csv());
  const cli_result r = run_assay({"compare", csv, "--label", "truth", "--pos-label", "yes", "--pred", "tree", "--pred",
                                  "forest", "--pred", "knn", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["input"], "pred");
  EXPECT_EQ(j["p_adjust"], "holm");
  expect_close(j["cochrans_q"]["statistic"], num(ref["cochrans_q"]["statistic"]), "Q");
  expect_close(j["cochrans_q"]["p_value"], num(ref["cochrans_q"]["pvalue"]), "Q p");
  ASSERT_EQ(j["pairs"].size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& p = j["pairs"][i];
    const auto& want = ref["pairs"][i];
    EXPECT_EQ(p["a"], want["a"]);
    EXPECT_EQ(p["b"], want["b"]);
    EXPECT_FALSE(p.contains("delong"));
    EXPECT_EQ(p["mcnemar"]["method"], "exact");
    EXPECT_EQ(p["mcnemar"]["n01"], want["n01"]);
    EXPECT_EQ(p["mcnemar"]["n10"], want["n10"]);
    expect_close(p["mcnemar"]["p_value"], num(want["pvalue"]), "McNemar p");
    expect_close(p["mcnemar"]["p_value_adjusted"], num(want["pvalue_holm"]), "Holm");
  }
  for (std::size_t k = 0; k < 3; ++k) {
    const auto& m = j["models"][k];
    const auto& want = ref["accuracy"][k];
    EXPECT_EQ(m["correct"], want["correct"]);
    EXPECT_EQ(m["accuracy_ci_method"], "wilson");
    expect_close(m["accuracy_ci"][0], num(want["lower"]), "Wilson lower");
    expect_close(m["accuracy_ci"][1], num(want["upper"]), "Wilson upper");
    EXPECT_FALSE(m.contains("auc"));
  }
  // The text names the correction and Cochran's Q.
  const cli_result text = run_assay({"compare", csv, "--label", "truth", "--pos-label", "yes", "--pred", "tree",
                                     "--pred", "forest", "--pred", "knn"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("p-values adjusted by holm within each test"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Cochran's Q test of the 3 accuracies: Q = 3.7831, df = 2, p = 0.1508"), std::string::npos)
      << text.out;
}

TEST(compare_cli, two_pred_columns_mcnemar_and_permutation_of_a_metric) {
  temp_dir dir;
  const auto csv = dir.file("preds.csv", preds_csv());
  const args_t base{"compare", csv, "--label", "truth", "--pos-label", "yes", "--pred", "tree", "--pred", "forest",
                    "--metric", "accuracy", "--metric", "f1", "--replicates", "500", "--permutations", "999",
                    "--seed", "11", "--format", "json"};
  args_t one = base, two = base;
  one.insert(one.end(), {"--threads", "1"});
  two.insert(two.end(), {"--threads", "2"});
  const cli_result r1 = run_assay(one), r2 = run_assay(two);
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  EXPECT_EQ(r1.out, r2.out);  // the same numbers whatever the thread count
  const auto j = json::parse(r1.out);
  const auto& ref = load_reference("scipy_stats.json")["compare_preds"]["pairs"][0];
  EXPECT_EQ(j["mcnemar"]["n01"], ref["n01"]);
  expect_close(j["mcnemar"]["p_value"], num(ref["pvalue"]), "McNemar p");
  ASSERT_EQ(j["paired_bootstrap"].size(), 2u);
  const auto& b = j["paired_bootstrap"][0];
  EXPECT_EQ(b["metric"], "accuracy");
  EXPECT_EQ(b["replicates"], 500);
  EXPECT_EQ(b["seed"], 11);
  EXPECT_EQ(b["ci_method"], "percentile");
  EXPECT_EQ(b["p_value_method"], "bootstrap_z");
  // accuracy(A) - accuracy(B) = (n01 - n10) / n exactly.
  const double n01 = ref["n01"].get<double>(), n10 = ref["n10"].get<double>();
  expect_close(b["diff"], (n01 - n10) / 150, "accuracy difference");
  EXPECT_LT(b["diff_ci"][0].get<double>(), b["diff"].get<double>());
  EXPECT_GT(b["diff_ci"][1].get<double>(), b["diff"].get<double>());
  const auto& p = j["permutation"][0];
  EXPECT_EQ(p["metric"], "accuracy");
  EXPECT_EQ(p["permutations"], 999);
  // The permutation p of the accuracy difference estimates McNemar's exact p (the exact permutation
  // distribution); 999 permutations: standard error <= 0.016, 5 of them allowed (failure < 1e-6).
  EXPECT_NEAR(p["p_value"].get<double>(), num(ref["pvalue"]), 5 * 0.016);
  EXPECT_EQ(j["permutation"][1]["metric"], "f1");
}

TEST(compare_cli, html_page_for_three_models_with_a_metric) {
  temp_dir dir;
  const auto page = (dir.path() / "c.html").string();
  const cli_result r = run_assay({"compare", "examples/data/asah.csv", "--label", "outcome", "--pos-label", "Poor",
                                  "--score", "s100b", "--score", "ndka", "--score", "wfns", "--metric", "roc_auc",
                                  "--replicates", "200", "--permutations", "200", "--html", page});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(page);
  for (const char* id : {"setup", "auc", "cochran", "pairs", "verdict"})
    EXPECT_NE(html.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  EXPECT_NE(html.find("adjusted over the 3 pairs by holm"), std::string::npos);
  EXPECT_NE(html.find("Paired permutation p-value (200 permutations)"), std::string::npos);
  EXPECT_NE(r.out.find("s100b vs wfns"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Paired bootstrap of roc_auc (stratified, 200 replicates, seed 0)"), std::string::npos) << r.out;
}

TEST(compare_cli, bad_input) {
  temp_dir dir;
  const auto csv = dir.file("d.csv", "y,a,b,p,q\n1,0.9,0.8,1,1\n1,0.7,0.4,1,0\n0,0.3,0.5,0,0\n0,0.2,0.1,1,0\n");
  const std::string asah = "examples/data/asah.csv";
  expect_error({"compare", csv, "--label", "y", "--score", "a", "--pred", "p"},
               "assay compare: --pred: cannot be mixed with --score; compare either score columns or prediction "
               "columns\n");
  expect_error({"compare", csv, "--label", "y", "--pred", "p"},
               "assay compare: --pred: give at least two columns (--pred A --pred B); got 1\n");
  expect_error({"compare", csv, "--label", "y", "--score", "a", "--score", "a"},
               "assay compare: --score: column 'a' is given twice\n");
  expect_error({"compare", csv, "--label", "y"}, "assay compare: --score or --pred: give at least two model columns\n");
  expect_error({"compare", csv, "--label", "y", "--score", "a", "--score", "b", "--alpha", "1.5"},
               "assay compare: --alpha: must be in (0, 1); got 1.5\n");
  expect_error({"compare", csv, "--label", "y", "--score", "a", "--score", "b", "--alpha", "0"},
               "assay compare: --alpha: must be in (0, 1); got 0\n");
  expect_error({"compare", csv, "--label", "y", "--score", "a", "--score", "b", "--replicates", "0"},
               "assay compare: --replicates: must be >= 1; got 0\n");
  expect_error({"compare", csv, "--label", "y", "--score", "a", "--score", "b", "--permutations", "-5"},
               "assay compare: --permutations: must be >= 1; got -5\n");
  expect_error({"compare", csv, "--label", "y", "--score", "a", "--score", "b", "--adjust", "sidak"},
               "assay compare: --adjust: unknown correction \"sidak\"; choose holm, bonferroni, fdr_bh or none\n");
  expect_error({"compare", csv, "--label", "y", "--score", "a", "--score", "b", "--metric", "r2"},
               "assay compare: --metric: \"r2\" cannot compare score columns; choose from: tp, fp, fn, tn, accuracy, "
               "error_rate, prevalence, recall, specificity, fpr, fnr, precision, npv, f1, fbeta, balanced_accuracy, "
               "matthews_corrcoef, cohen_kappa, log_loss, brier_score_loss, roc_auc, average_precision\n");
  // A single class (exit 3: the data, not the command line).
  const auto one = dir.file("one.csv", "y,a,b\n1,0.9,0.8\n1,0.7,0.4\n1,0.3,0.5\n");
  expect_error({"compare", one, "--label", "y", "--score", "a", "--score", "b"},
               "assay compare: " + one + ": column 'y' has a single class (\"1\"); compare needs cases of both classes\n",
               3);
  // Too few of a class for DeLong.
  const auto few = dir.file("few.csv", "y,a,b\n1,0.9,0.8\n0,0.7,0.4\n0,0.3,0.5\n");
  expect_error({"compare", few, "--label", "y", "--score", "a", "--score", "b"},
               "assay compare: compare_models: y_true has 1 positive and 2 negative cases; a comparison needs at least "
               "2 of each\n",
               3);
  // NaN scores are refused where they are read, with the line.
  const auto nan = dir.file("nan.csv", "y,a,b\n1,0.9,0.8\n1,nan,0.4\n0,0.3,0.5\n0,0.1,0.2\n");
  expect_error({"compare", nan, "--label", "y", "--score", "a", "--score", "b"},
               "assay compare: " + nan + ":3: column 'a': value \"nan\" is not a finite number\n", 3);
  // A prediction column with a class the label column does not have.
  const auto odd = dir.file("odd.csv", "y,p,q\nyes,yes,no\nno,maybe,no\nyes,no,yes\nno,no,no\n");
  expect_error({"compare", odd, "--label", "y", "--pos-label", "yes", "--pred", "p", "--pred", "q"},
               "assay compare: " + odd + ": --pred column 'p' predicts class \"maybe\", which column 'y' does not have\n",
               3);
  // A metric undefined on the data.
  const auto none_pos = dir.file("np.csv", "y,p,q\n1,0,0\n1,0,1\n0,0,0\n0,0,0\n");
  expect_error({"compare", none_pos, "--label", "y", "--pred", "p", "--pred", "q", "--metric", "precision"},
               "assay compare: compare_models: metric \"precision\" is undefined for model 'p' on these cases\n", 3);
}

}  // namespace
}  // namespace assay::test
