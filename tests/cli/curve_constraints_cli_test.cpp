// `assay curve threshold --max-fpr / --min-tpr / --min-precision / --min-recall` and the
// Neyman-Pearson umbrella threshold: the lecture notes' 10 instances worked by hand, an umbrella case
// checked against SciPy's binomial tail, and bad input (alpha outside (0, 1), a constraint no
// threshold meets, too few negatives) as whole messages.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_expect.hpp"
#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;

// Ranks: .99+ .98+ .72- .70+ .65+ .51- .39- .24+ .11- .01-; P = N = 5.
const std::string seed_csv = "y,p\n1,0.99\n1,0.98\n0,0.72\n1,0.70\n1,0.65\n0,0.51\n0,0.39\n1,0.24\n0,0.11\n0,0.01\n";

json best_of(const args_t& args, const std::string& in) {
  const cli_result r = run_assay(args, in);
  EXPECT_EQ(r.exit_code, 0) << show_args(args) << r.err;
  EXPECT_EQ(r.err, "");
  return r.exit_code == 0 ? json::parse(r.out)["models"][0]["best"] : json::object();
}

TEST(curve_constraints_cli, lecture_example_by_hand) {
  const json b = best_of({"curve", "threshold", "-", "--label", "y", "--score", "p", "--format", "json", "--max-fpr",
                          "0.2", "--min-tpr", "0.5", "--min-precision", "0.8", "--min-recall", "0.9"},
                         seed_csv);
  // FPR <= 0.2: down to .65 (TP 4, FP 1): TPR .8.
  EXPECT_EQ(b["max_fpr"]["threshold"], 0.65);
  EXPECT_EQ(b["max_fpr"]["value"], 0.8);
  EXPECT_EQ(b["max_fpr"]["constraint"], "fpr <= 0.2");
  EXPECT_EQ(b["max_fpr"]["objective"], "tpr");
  EXPECT_EQ(b["max_fpr"]["fpr_at_threshold"], 0.2);
  EXPECT_EQ(b["max_fpr"]["tp"], 4);
  EXPECT_EQ(b["max_fpr"]["fp"], 1);
  EXPECT_EQ(b["max_fpr"]["fn"], 1);
  EXPECT_EQ(b["max_fpr"]["tn"], 4);
  EXPECT_EQ(b["max_fpr"]["precision"], 0.8);
  EXPECT_EQ(b["max_fpr"]["specificity"], 0.8);
  // TPR >= .5: .70 (TP 3, FP 1) and .65 (TP 4, FP 1) have specificity .8; the higher TPR wins: .65.
  EXPECT_EQ(b["min_tpr"]["threshold"], 0.65);
  EXPECT_EQ(b["min_tpr"]["value"], 0.8);
  EXPECT_EQ(b["min_tpr"]["objective"], "specificity");
  // precision >= .8: .99 (1/1), .98 (2/2), .65 (4/5): the highest recall is .8 at .65.
  EXPECT_EQ(b["min_precision"]["threshold"], 0.65);
  EXPECT_EQ(b["min_precision"]["value"], 0.8);
  // recall >= .9 needs all 5 positives: .24 (5 of 8 predicted): precision .625.
  EXPECT_EQ(b["min_recall"]["threshold"], 0.24);
  EXPECT_EQ(b["min_recall"]["value"], 0.625);
  EXPECT_EQ(b["min_recall"]["tp"], 5);
  EXPECT_EQ(b["min_recall"]["fp"], 3);
  // 5 negatives: the umbrella for alpha = 0.2 at 95% needs log(0.05) / log(0.8) = 13.4 -> 14.
  EXPECT_TRUE(b["np_umbrella"]["threshold"].is_null());
  EXPECT_EQ(b["np_umbrella"]["min_negatives"], 14);
  EXPECT_EQ(b["np_umbrella"]["negatives"], 5);
  EXPECT_EQ(b["np_umbrella"]["value_undefined"],
            "too few negatives: the umbrella threshold for alpha = 0.2 at confidence 0.95 needs at least 14 negative "
            "cases; there are 5");
  // Without a constraint option nothing is added.
  const json plain = best_of({"curve", "threshold", "-", "--label", "y", "--score", "p", "--format", "json"}, seed_csv);
  EXPECT_FALSE(plain.contains("max_fpr"));
  EXPECT_FALSE(plain.contains("np_umbrella"));
}

// 40 negatives scored .01, ..., .40 and 10 positives. SciPy 1.10: P(Bin(40, 0.9) >= 40) = 0.9^40 =
// 0.014780882941434597 <= 0.05 < P(Bin(40, 0.9) >= 39) = 0.0805: k = 40, t(40) = 0.40; positive when
// score > 0.40: 8 of the 10 positives, no negative.
TEST(curve_constraints_cli, umbrella_threshold) {
  std::string csv = "y,p\n";
  for (int i = 1; i <= 40; ++i) csv += "0," + std::to_string(i / 100.0) + "\n";
  for (double p : {0.30, 0.38, 0.45, 0.50, 0.60, 0.70, 0.80, 0.90, 0.95, 0.99}) csv += "1," + std::to_string(p) + "\n";
  const json b = best_of({"curve", "threshold", "-", "--label", "y", "--score", "p", "--format", "json", "--max-fpr",
                          "0.1", "--confidence", "0.95"},
                         csv);
  const json& u = b["np_umbrella"];
  EXPECT_EQ(u["k"], 40);
  EXPECT_EQ(u["order_statistic"], 0.4);
  EXPECT_GT(u["threshold"].get<double>(), 0.4);
  EXPECT_LT(u["threshold"].get<double>(), 0.4 + 1e-15);
  EXPECT_NEAR(u["violation_bound"].get<double>(), 0.014780882941434597, 1e-14);
  EXPECT_EQ(u["tp"], 8);
  EXPECT_EQ(u["fp"], 0);
  EXPECT_EQ(u["value"], 0.8);
  EXPECT_EQ(u["min_negatives"], 29);
  EXPECT_EQ(u["confidence"], 0.95);
  // The empirical point at FPR <= 0.1 goes lower: .37 (FP 4 = 10%) and .38 (FP 3) both have TP 9 (the
  // positive at .38 is in): the tie goes to the lower FPR, .38.
  EXPECT_EQ(b["max_fpr"]["threshold"], 0.38);
  EXPECT_EQ(b["max_fpr"]["fp"], 3);
  EXPECT_EQ(b["max_fpr"]["tp"], 9);
}

TEST(curve_constraints_cli, no_threshold_meets) {
  const json b = best_of({"curve", "threshold", "-", "--label", "y", "--score", "p", "--format", "json",
                          "--min-precision", "0.9"},
                         "y,p\n0,0.9\n1,0.8\n0,0.7\n1,0.6\n");
  EXPECT_TRUE(b["min_precision"]["value"].is_null());
  EXPECT_TRUE(b["min_precision"]["threshold"].is_null());
  EXPECT_EQ(b["min_precision"]["value_undefined"],
            "no threshold has precision >= 0.9; the precision is 0.5 at best (threshold 0.8)");
}

TEST(curve_constraints_cli, bad_input) {
  const args_t base{"curve", "threshold", "-", "--label", "y", "--score", "p"};
  auto with = [&](std::initializer_list<std::string> extra) {
    args_t a = base;
    a.insert(a.end(), extra);
    return a;
  };
  const cli_result r0 = run_assay(with({"--max-fpr", "0"}), seed_csv);
  EXPECT_EQ(r0.err, "assay curve threshold: --max-fpr: 0 must be in (0, 1)\n");
  EXPECT_EQ(r0.exit_code, 2);
  const cli_result r1 = run_assay(with({"--max-fpr", "1.5"}), seed_csv);
  EXPECT_EQ(r1.err, "assay curve threshold: --max-fpr: 1.5 must be in (0, 1)\n");
  const cli_result r2 = run_assay(with({"--min-recall", "-0.1"}), seed_csv);
  EXPECT_EQ(r2.err, "assay curve threshold: --min-recall: -0.1 must be in [0, 1]\n");
  const cli_result r3 = run_assay(with({"--max-fpr", "0.1", "--confidence", "1"}), seed_csv);
  EXPECT_EQ(r3.err, "assay curve threshold: --confidence: 1 must be in (0, 1)\n");
  EXPECT_EQ(r3.out, "");
  // --confidence qualifies --max-fpr's umbrella threshold: alone it is refused, as in assay report.
  const cli_result r4 = run_assay(with({"--confidence", "0.9"}), seed_csv);
  EXPECT_EQ(r4.err, "assay curve: --confidence requires --max-fpr\n");
  EXPECT_EQ(r4.exit_code, 2);
  EXPECT_EQ(r4.out, "");
}

}  // namespace
}  // namespace assay::test
