// `assay report --max-fpr / --min-tpr / --min-precision / --min-recall [--confidence C]`: the
// report's operating points under a constraint. A small example worked by hand, a brute-force scan of
// every threshold on random data with ties and weights (the objective, the constraint and the tie
// rules written out naively here), the umbrella threshold's order statistic recomputed from the
// sorted negatives, the text block whole, the slices, and bad input as whole messages.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cli/cli_expect.hpp"
#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;

// Ranks: .99+ .98+ .72- .70+ .65+ .51- .39- .24+ .11- .01-; P = N = 5.
const std::string small_csv = "y,p\n1,0.99\n1,0.98\n0,0.72\n1,0.70\n1,0.65\n0,0.51\n0,0.39\n1,0.24\n0,0.11\n0,0.01\n";

json report_json(args_t args, const std::string& in) {
  args.insert(args.end(), {"--format", "json"});
  const cli_result r = run_assay(args, in);
  EXPECT_EQ(r.exit_code, 0) << show_args(args) << r.err;
  EXPECT_EQ(r.err, "");
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

TEST(report_constraints_cli, worked_by_hand) {
  const json j = report_json({"report", "-", "--label", "y", "--score", "p", "--max-fpr", "0.2", "--min-tpr", "0.5",
                              "--min-precision", "0.8", "--min-recall", "0.9"},
                             small_csv);
  const json& o = j["operating_points"];
  // FPR <= 0.2 allows one negative: down to .65 (TP 4, FP 1), TPR .8.
  EXPECT_EQ(o["max_fpr"]["threshold"], 0.65);
  EXPECT_EQ(o["max_fpr"]["value"], 0.8);
  EXPECT_EQ(o["max_fpr"]["tp"], 4);
  EXPECT_EQ(o["max_fpr"]["fp"], 1);
  EXPECT_EQ(o["max_fpr"]["fn"], 1);
  EXPECT_EQ(o["max_fpr"]["tn"], 4);
  EXPECT_EQ(o["max_fpr"]["constraint"], "fpr <= 0.2");
  // TPR >= .5: .70 (3/5) and .65 (4/5) both have specificity .8; the higher TPR wins: .65.
  EXPECT_EQ(o["min_tpr"]["threshold"], 0.65);
  EXPECT_EQ(o["min_tpr"]["value"], 0.8);
  // precision >= .8: .99, .98 (precision 1) and .65 (4/5): the best recall is .8 at .65.
  EXPECT_EQ(o["min_precision"]["threshold"], 0.65);
  // recall >= .9 needs all five positives: down to .24, 5 of 8 predicted: precision .625.
  EXPECT_EQ(o["min_recall"]["threshold"], 0.24);
  EXPECT_EQ(o["min_recall"]["value"], 0.625);
  // Five negatives are too few for an umbrella at alpha = 0.2, 95%: 0.8^n <= 0.05 needs n >= 14.
  EXPECT_TRUE(o["np_umbrella"]["value"].is_null());
  EXPECT_EQ(o["np_umbrella"]["min_negatives"], 14);
  // The report's own threshold (0.5) is unchanged by the constraints.
  EXPECT_EQ(j["tp"], 4);
  EXPECT_EQ(j["fp"], 2);
  // Without a constraint there is no section.
  EXPECT_FALSE(report_json({"report", "-", "--label", "y", "--score", "p"}, small_csv).contains("operating_points"));
}

TEST(report_constraints_cli, text_block) {
  const cli_result r =
      run_assay({"report", "-", "--label", "y", "--score", "p", "--max-fpr", "0.2", "--min-recall", "0.9"}, small_csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto at = r.out.find("\nOperating points");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string block = r.out.substr(at, r.out.find("\n\n", at + 1) - at);
  EXPECT_EQ(block,
            "\nOperating points under a constraint (positive when score >= threshold)\n"
            "  constraint              threshold         TP         FP         FN         TN      TPR      FPR precision\n"
            "  FPR <= 0.2                   0.65          4          1          1          4   0.8000   0.2000    0.8000\n"
            "  recall >= 0.9                0.24          5          3          0          2   1.0000   0.6000    0.6250\n"
            "  NP umbrella          undefined (too few negatives: the umbrella threshold for alpha = 0.2 at confidence "
            "0.95 needs at least 14 negative cases; there are 5)");
}

// Naive operating point: every candidate threshold (+inf and each distinct score), its weighted
// counts by a full pass, the objective and constrained quantity, and the tie rules of
// curves::constrained_threshold: best objective, then best constrained quantity, then the highest
// threshold.
struct naive_point {
  bool found = false;
  double threshold = 0, tp = 0, fp = 0;
};

naive_point naive(const std::vector<int>& y, const std::vector<double>& s, const std::vector<double>& w,
                  const std::string& kind, double bound) {
  std::vector<double> candidates(s);
  candidates.push_back(std::numeric_limits<double>::infinity());
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  double P = 0, N = 0;
  for (std::size_t i = 0; i < y.size(); ++i) (y[i] ? P : N) += w[i];
  naive_point best;
  double best_obj = 0, best_con = 0;
  for (double t : candidates) {
    double tp = 0, fp = 0;
    for (std::size_t i = 0; i < y.size(); ++i)
      if (s[i] >= t) (y[i] ? tp : fp) += w[i];
    const double tpr = tp / P, fpr = fp / N, precision = tp + fp > 0 ? tp / (tp + fp) : std::nan("");
    double obj = 0, con = 0;  // con: larger is better
    bool ok = false;
    if (kind == "max_fpr") obj = tpr, con = -fpr, ok = fpr <= bound;
    if (kind == "min_tpr") obj = 1 - fpr, con = tpr, ok = tpr >= bound;
    if (kind == "min_precision") obj = tpr, con = precision, ok = precision >= bound;
    if (kind == "min_recall") obj = precision, con = tpr, ok = tpr >= bound && !std::isnan(precision);
    if (!ok) continue;
    // Candidates ascend, so a later one with an equal objective and constraint has the higher threshold.
    if (!best.found || obj > best_obj || (obj == best_obj && con >= best_con)) {
      best = {true, t, tp, fp};
      best_obj = obj, best_con = con;
    }
  }
  return best;
}

TEST(report_constraints_cli, brute_force_scan_with_ties_and_weights) {
  std::mt19937_64 rng(20261126);
  for (int rep = 0; rep < 12; ++rep) {
    const bool weighted = rep % 2 == 1;
    const int n = 40 + rep * 17;
    std::vector<int> y(n);
    std::vector<double> s(n), w(n, 1.0);
    std::string csv = "y,p,w\n";
    for (int i = 0; i < n; ++i) {
      y[i] = std::bernoulli_distribution(0.4)(rng);
      s[i] = std::uniform_int_distribution<int>(0, 12)(rng) / 12.0 + (y[i] ? 0.2 : 0.0);  // many ties
      if (weighted) w[i] = std::uniform_int_distribution<int>(1, 4)(rng) / 2.0;
      csv += fmt::format("{},{},{}\n", y[i], s[i], w[i]);
    }
    args_t args{"report", "-", "--label", "y", "--score", "p", "--max-fpr", "0.15", "--min-tpr", "0.8",
                "--min-precision", "0.7", "--min-recall", "0.6"};
    if (weighted) args.insert(args.end(), {"--weight", "w"});
    const json o = report_json(args, csv)["operating_points"];
    for (auto [kind, bound] : {std::pair{"max_fpr", 0.15}, {"min_tpr", 0.8}, {"min_precision", 0.7}, {"min_recall", 0.6}}) {
      const naive_point e = naive(y, s, w, kind, bound);
      const json& got = o[kind];
      SCOPED_TRACE(fmt::format("rep {} {}", rep, kind));
      ASSERT_EQ(e.found, !got["value"].is_null()) << got.dump();
      if (!e.found) continue;
      if (std::isinf(e.threshold)) {
        EXPECT_TRUE(got["threshold_is_infinite"].get<bool>());
      } else {
        EXPECT_EQ(got["threshold"].get<double>(), e.threshold);
      }
      EXPECT_DOUBLE_EQ(got["tp"].get<double>(), e.tp);
      EXPECT_DOUBLE_EQ(got["fp"].get<double>(), e.fp);
    }
    if (weighted) {
      EXPECT_EQ(o["np_umbrella"]["value_undefined"],
                "the umbrella threshold is an order statistic of unweighted negative cases; the data are weighted");
    }
  }
}

// The umbrella threshold recomputed from the sorted negatives: k is the least rank with
// P(Bin(n, 1 - alpha) >= k) <= delta; with n = 100 negatives scored 1..100 / 100, alpha = 0.1 and
// delta = 0.05, SciPy 1.10's binom.sf(k - 1, 100, 0.9) gives k = 96 (0.0237) while k = 95 gives
// 0.0576. So t(k) = 0.96, and rows scoring above 0.96 are predicted positive.
TEST(report_constraints_cli, umbrella_order_statistic) {
  std::string csv = "y,p\n";
  for (int i = 1; i <= 100; ++i) csv += fmt::format("0,{}\n", i / 100.0);
  for (int i = 0; i < 20; ++i) csv += fmt::format("1,{}\n", (180 + i) / 200.0);  // 0.9, 0.905, ..., 0.995
  const json u = report_json({"report", "-", "--label", "y", "--score", "p", "--max-fpr", "0.1"}, csv)
                     ["operating_points"]["np_umbrella"];
  EXPECT_EQ(u["k"], 96);
  EXPECT_EQ(u["order_statistic"], 0.96);
  EXPECT_EQ(u["negatives"], 100);
  EXPECT_EQ(u["fp"], 4);                          // 0.97 ... 1.00
  EXPECT_EQ(u["tp"], 7);                          // 0.965, 0.97, ..., 0.995
  EXPECT_NEAR(u["violation_bound"].get<double>(), 0.0237, 5e-4);
  const cli_result text = run_assay({"report", "-", "--label", "y", "--score", "p", "--max-fpr", "0.1"}, csv);
  EXPECT_NE(text.out.find("  NP umbrella                > 0.96          7          4         13         96   0.3500   "
                          "0.0400    0.6364\n"
                          "  (NP umbrella: positive when score > t(k), the k-th smallest negative score: t(96) = 0.96 of "
                          "100 negatives; P(population FPR > 0.1) <= 0.0237111)\n"),
            std::string::npos)
      << text.out;
}

TEST(report_constraints_cli, every_slice_has_its_points) {
  std::string csv = "y,p,g\n";
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300; ++i) {
    const int y = std::bernoulli_distribution(0.5)(rng);
    csv += fmt::format("{},{},{}\n", y, std::uniform_int_distribution<int>(0, 20)(rng) / 20.0, i % 3 == 0 ? "a" : "b");
  }
  const json j = report_json({"report", "-", "--label", "y", "--score", "p", "--by", "g", "--min-tpr", "0.7"}, csv);
  ASSERT_EQ(j["slices"].size(), 2u);
  for (const json& sl : j["slices"]) {
    std::string part = "y,p,g\n";
    std::size_t pos = csv.find('\n') + 1;
    while (pos < csv.size()) {
      const std::size_t end = csv.find('\n', pos);
      const std::string line = csv.substr(pos, end - pos);
      if (line.substr(line.rfind(',') + 1) == sl["key"][0].get<std::string>()) part += line + "\n";
      pos = end + 1;
    }
    const json alone = report_json({"report", "-", "--label", "y", "--score", "p", "--min-tpr", "0.7"}, part);
    EXPECT_EQ(sl["report"]["operating_points"], alone["operating_points"]);
  }
}

TEST(report_constraints_cli, bad_input) {
  const args_t base{"report", "-", "--label", "y"};
  auto run_with = [&](std::initializer_list<std::string> extra) {
    args_t a = base;
    a.insert(a.end(), extra);
    return run_assay(a, small_csv);
  };
  auto expect = [](const cli_result& r, const std::string& message) {
    EXPECT_EQ(r.err, message);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
  };
  expect(run_with({"--score", "p", "--max-fpr", "0"}), "assay report: --max-fpr: 0 must be in (0, 1)\n");
  expect(run_with({"--score", "p", "--min-precision", "1.5"}), "assay report: --min-precision: 1.5 must be in [0, 1]\n");
  expect(run_with({"--score", "p", "--max-fpr", "nan"}), "assay report: --max-fpr: cannot parse \"nan\" as a finite number\n");
  expect(run_with({"--score", "p", "--max-fpr", "0.1", "--confidence", "1"}),
         "assay report: --confidence: 1 must be in (0, 1)\n");
  expect(run_with({"--score", "p", "--confidence", "0.9"}),
         "assay report: --confidence needs --max-fpr (it is the umbrella threshold's 1 - delta)\n");
  expect(run_with({"--pred", "y", "--min-recall", "0.5"}),
         "assay report: --min-recall: operating points under a constraint need a binary score; the predictions are "
         "predicted classes\n");
}

}  // namespace
}  // namespace assay::test
