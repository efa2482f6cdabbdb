// `assay stats`: every subcommand replays the SciPy / statsmodels reference values committed in
// tests/stats/scipy_stats.json (generator tests/stats/generate_scipy.py) through the command line,
// and the lecture notes' worked numbers (seed 002's binomial tail, seed 004's 3.84); bad input gives
// the whole message and exit code 2 with nothing on standard output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_expect.hpp"
#include "cli/run_cli.hpp"
#include "stats/reference.hpp"
#include "test_scale.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;
using stats::testing::load_reference;
using stats::testing::num;

/// A double as text that parses back to the same double.
std::string exact(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string list(const json& values) {
  std::string s;
  for (const auto& v : values) s += (s.empty() ? "" : ",") + exact(num(v));
  return s;
}

json run_json(args_t args) {
  args.emplace_back("--format");
  args.emplace_back("json");
  const cli_result r = run_assay(args);
  EXPECT_EQ(r.exit_code, 0) << show_args(args) << "\n" << r.err;
  EXPECT_EQ(r.err, "") << show_args(args);
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

// The CLI prints what the library computes, which matches the peers to ~1e-12 (tests/stats); the
// tolerance here (relative 1e-9, absolute 1e-15 only for values that are 0, such as an interval's end at x = 0)
// states what the command line must deliver.
void expect_close(const json& got, double want, const std::string& what) {
  ASSERT_TRUE(got.is_number()) << what << ": " << got.dump();
  EXPECT_NEAR(got.get<double>(), want, want == 0 ? 1e-15 : 1e-9 * std::fabs(want)) << what;
}

std::string six(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

TEST(stats_cli, binomial_seed_002_text) {
  // Seed 002: P(X >= 15 | n = 20, p = 0.5) = 0.0207; SciPy's binomtest(15, 20, alternative='greater').
  double scipy = 0;
  for (const auto& c : load_reference("scipy_stats.json")["distributions"]["binomtest"]) {
    if (c["k"] == 15 && c["n"] == 20 && c["alternative"] == "greater") scipy = num(c["pvalue"]);
  }
  ASSERT_GT(scipy, 0);
  EXPECT_NEAR(scipy, 0.0207, 5e-5);  // the lecture notes' rounding
  const cli_result r = run_assay({"stats", "binomial", "--k", "15", "--n", "20"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "Exact binomial test of H0: P(success) = 0.5 (15 successes in 20 trials)\n"
            "  method: binomial_exact\n"
            "  k: 15\n"
            "  n: 20\n"
            "  p: 0.5\n"
            "  statistic: 0.75\n"
            "  alternative: greater\n"
            "  p_value: " + six(scipy) + "\n");
  EXPECT_EQ(r.err, "");
}

TEST(stats_cli, binomial_matches_scipy_binomtest) {
  int checked = 0;
  for (const auto& c : load_reference("scipy_stats.json")["distributions"]["binomtest"]) {
    const std::string k = std::to_string(c["k"].get<long long>()), n = std::to_string(c["n"].get<long long>());
    const json j = run_json({"stats", "binomial", "--k", k, "--n", n, "--p", exact(num(c["p"])), "--alternative",
                             c["alternative"].get<std::string>()});
    expect_close(j["p_value"], num(c["pvalue"]), "binomtest " + c.dump());
    EXPECT_EQ(j["alternative"], c["alternative"]);
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

TEST(stats_cli, chi2_matches_scipy_sf) {
  int checked = 0;
  for (const auto& c : load_reference("scipy_stats.json")["distributions"]["chi2"]) {
    if (!c.contains("sf")) continue;  // the quantile cases
    const json j = run_json({"stats", "chi2", "--x", exact(num(c["x"])), "--df", exact(num(c["df"]))});
    expect_close(j["sf"], num(c["sf"]), "chi2 " + c.dump());
    expect_close(j["cdf"], num(c["cdf"]), "chi2 " + c.dump());
    ++checked;
  }
  EXPECT_GE(checked, 3);
  // Seed 004: 3.84 is the 95% point of chi-square(1).
  const json j = run_json({"stats", "chi2", "--x", "3.84", "--df", "1"});
  EXPECT_NEAR(j["sf"].get<double>(), 0.05, 1e-4);
}

TEST(stats_cli, mcnemar_matches_statsmodels) {
  int checked = 0;
  for (const auto& c : load_reference("scipy_stats.json")["mcnemar"]) {
    if (std::isnan(num(c["pvalue"]))) continue;
    const std::string m = c["method"];
    const std::string flag = m == "exact" ? "--exact" : m == "chi2_corrected" ? "--corrected" : "--uncorrected";
    const json j = run_json({"stats", "mcnemar", "--b", std::to_string(c["n01"].get<long long>()), "--c",
                             std::to_string(c["n10"].get<long long>()), flag});
    expect_close(j["statistic"], num(c["statistic"]), "mcnemar " + c.dump());
    expect_close(j["p_value"], num(c["pvalue"]), "mcnemar " + c.dump());
    EXPECT_EQ(j["method"], "mcnemar_" + m);
    ++checked;
  }
  EXPECT_GE(checked, 3);
  // No discordant case is no evidence: p = 1 (docs/definitions/stats.md).
  EXPECT_EQ(run_json({"stats", "mcnemar", "--b", "0", "--c", "0"})["p_value"], 1.0);
}

TEST(stats_cli, ci_matches_statsmodels_proportion_confint) {
  int checked = 0;
  std::size_t index = 0;
  for (const auto& c : load_reference("scipy_stats.json")["proportion_confint"]) {
    // 300 processes: one in seven under the sanitizers (every method at every level still appears).
    if (!assay::testing::keep_case(index++, 7)) continue;
    const json j = run_json({"stats", "ci", "--x", exact(num(c["x"])), "--n", exact(num(c["n"])), "--level",
                             exact(num(c["level"])), "--method", c["method"].get<std::string>()});
    ASSERT_TRUE(j["ci"].is_array()) << j.dump();
    expect_close(j["ci"][0], num(c["lower"]), "ci " + c.dump());
    expect_close(j["ci"][1], num(c["upper"]), "ci " + c.dump());
    EXPECT_EQ(j["method"], c["method"]);
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

TEST(stats_cli, ci_text_wilson_at_zero_successes) {
  // statsmodels: wilson(0 of 10, level 0.5) = [0, 0.043514...]; the lower limit is exactly 0 (not -3e-18).
  double upper = 0;
  for (const auto& c : load_reference("scipy_stats.json")["proportion_confint"]) {
    if (num(c["x"]) == 0 && num(c["n"]) == 10 && num(c["level"]) == 0.5 && c["method"] == "wilson") {
      ASSERT_EQ(num(c["lower"]), 0.0);
      upper = num(c["upper"]);
    }
  }
  ASSERT_GT(upper, 0);
  const cli_result r = run_assay({"stats", "ci", "--x", "0", "--n", "10", "--level", "0.5"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "50% wilson interval for the proportion 0 / 10\n"
            "  x: 0\n"
            "  n: 10\n"
            "  estimate: 0\n"
            "  ci: [0, " + six(upper) + "]\n"
            "  level: 0.5\n"
            "  method: wilson\n");
}

TEST(stats_cli, ci_seed_003_normal_interval) {
  // Seed 003's formula by hand: error 12 / 40 = 0.30, 0.30 +- 1.96 sqrt(0.3 * 0.7 / 40) = 0.30 +- 0.142.
  const json j = run_json({"stats", "ci", "--x", "12", "--n", "40", "--method", "normal"});
  EXPECT_NEAR(j["ci"][0].get<double>(), 0.30 - 0.142, 5e-4);
  EXPECT_NEAR(j["ci"][1].get<double>(), 0.30 + 0.142, 5e-4);
  EXPECT_EQ(j["method"], "normal");
}

TEST(stats_cli, ttest_matches_scipy) {
  const json& ref = load_reference("scipy_stats.json")["resampling"];
  int checked = 0;
  for (const auto& c : ref["paired_t"]) {
    const json j = run_json({"stats", "ttest", "--d", list(c["deltas"]), "--alternative", c["alternative"]});
    expect_close(j["statistic"], num(c["statistic"]), "paired_t " + c.dump());
    expect_close(j["p_value"], num(c["pvalue"]), "paired_t " + c.dump());
    EXPECT_EQ(j["df"], num(c["df"]));
    ++checked;
  }
  for (const auto& c : ref["corrected_t"]) {
    // n_test / n_train = 100 / 900: a tenth of the data in each test set.
    ASSERT_EQ(num(c["n_train"]), 900);
    ASSERT_EQ(num(c["n_test"]), 100);
    const json j = run_json({"stats", "ttest", "--d", list(c["deltas"]), "--corrected", "--test-fraction", "0.1"});
    expect_close(j["statistic"], num(c["statistic"]), "corrected_t " + c.dump());
    expect_close(j["p_value"], num(c["pvalue"]), "corrected_t " + c.dump());
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(stats_cli, ttest_from_paired_scores) {
  // Seed 003's delta_i = a_i - b_i: scores whose differences are the first reference deltas.
  const json& c = load_reference("scipy_stats.json")["resampling"]["paired_t"][0];
  ASSERT_EQ(c["alternative"], "two-sided");
  std::string a, b;
  for (const auto& d : c["deltas"]) {
    a += (a.empty() ? "" : ",") + exact(0.5 + num(d));
    b += (b.empty() ? "" : ",") + std::string("0.5");
  }
  const json j = run_json({"stats", "ttest", "--a", a, "--b", b});
  EXPECT_NEAR(j["statistic"].get<double>(), num(c["statistic"]), 1e-9);
  EXPECT_NEAR(j["p_value"].get<double>(), num(c["pvalue"]), 1e-9);
  const json k = run_json({"stats", "ttest", "--a", a, "--b", b, "--corrected", "--test-fraction", "0.1"});
  const json& cc = load_reference("scipy_stats.json")["resampling"]["corrected_t"][0];
  ASSERT_EQ(cc["deltas"], c["deltas"]);
  EXPECT_NEAR(k["statistic"].get<double>(), num(cc["statistic"]), 1e-9);
  EXPECT_EQ(k["method"], "corrected_resampled_t");
}

TEST(stats_cli, wilcoxon_matches_scipy) {
  int checked = 0;
  for (const auto& c : load_reference("scipy_stats.json")["wilcoxon"]) {
    args_t args{"stats",         "wilcoxon", "--a",           list(c["x"]),   "--b",
                list(c["y"]),    "--mode",   c["method"],     "--zero-method", c["zero_method"],
                "--alternative", c["alternative"]};
    if (c["correction"].get<bool>()) args.emplace_back("--correction");
    const json j = run_json(args);
    expect_close(j["statistic"], num(c["statistic"]), "wilcoxon " + c.dump());
    expect_close(j["p_value"], num(c["pvalue"]), "wilcoxon " + c.dump());
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

TEST(stats_cli, friedman_matches_scipy) {
  int checked = 0;
  for (const auto& c : load_reference("scipy_stats.json")["friedman"]) {
    const auto n = c["n"].get<std::size_t>(), k = c["k"].get<std::size_t>();
    args_t args{"stats", "friedman"};
    for (std::size_t i = 0; i < n; ++i) {
      std::string row;
      for (std::size_t j = 0; j < k; ++j) row += (j ? "," : "") + exact(num(c["data"][i * k + j]));
      args.emplace_back("--row");
      args.push_back(row);
    }
    const json j = run_json(args);
    expect_close(j["statistic"], num(c["statistic"]), "friedman " + c.dump());
    expect_close(j["p_value"], num(c["pvalue"]), "friedman " + c.dump());
    EXPECT_EQ(j["df"], num(c["df"]));
    ++checked;
  }
  EXPECT_GE(checked, 2);
}

// The same SciPy cases through a file: one row per data set, one column per learner (the data-set
// name in a column the test must leave out, columns in an order that differs from the file's).
TEST(stats_cli, friedman_from_a_file_matches_scipy) {
  temp_dir dir;
  int checked = 0;
  for (const auto& c : load_reference("scipy_stats.json")["friedman"]) {
    const auto n = c["n"].get<std::size_t>(), k = c["k"].get<std::size_t>();
    std::string csv = "dataset";
    for (std::size_t j = 0; j < k; ++j) csv += ",learner" + std::to_string(j);
    csv += "\n";
    for (std::size_t i = 0; i < n; ++i) {
      csv += "set" + std::to_string(i);
      for (std::size_t j = 0; j < k; ++j) csv += "," + exact(num(c["data"][i * k + j]));
      csv += "\n";
    }
    const std::string file = dir.file("scores" + std::to_string(checked) + ".csv", csv);
    const json j = run_json({"stats", "friedman", "--file", file, "--label", "dataset"});
    expect_close(j["statistic"], num(c["statistic"]), "friedman " + c.dump());
    expect_close(j["p_value"], num(c["pvalue"]), "friedman " + c.dump());
    EXPECT_EQ(j["k"], k);
    EXPECT_EQ(j["n"], n);
    // Naming the learner columns gives the same test (Friedman does not depend on column order).
    args_t named{"stats", "friedman", "--file", file, "--columns"};
    for (std::size_t l = k; l-- > 0;) named.push_back("learner" + std::to_string(l));
    const json jn = run_json(named);
    expect_close(jn["statistic"], num(c["statistic"]), "friedman --columns " + c.dump());
    ++checked;
  }
  EXPECT_GE(checked, 2);
}

TEST(stats_cli, wilcoxon_from_a_file_matches_scipy) {
  temp_dir dir;
  int checked = 0;
  // Every eighth case (the numbers are checked on all of them above; this checks the file path and
  // keeps the test fast under sanitizers).
  const auto& all = load_reference("scipy_stats.json")["wilcoxon"];
  for (std::size_t at = 0; at < all.size(); at += 8) {
    const auto& c = all[at];
    std::string csv = "name,x,y\n";
    for (std::size_t i = 0; i < c["x"].size(); ++i)
      csv += "d" + std::to_string(i) + "," + exact(num(c["x"][i])) + "," + exact(num(c["y"][i])) + "\n";
    args_t args{"stats",       "wilcoxon",         "--file",        dir.file("w.csv", csv),
                "--a",         "x",                "--b",           "y",
                "--mode",      c["method"],        "--zero-method", c["zero_method"],
                "--alternative", c["alternative"]};
    if (c["correction"].get<bool>()) args.emplace_back("--correction");
    const json j = run_json(args);
    expect_close(j["statistic"], num(c["statistic"]), "wilcoxon --file " + c.dump());
    expect_close(j["p_value"], num(c["pvalue"]), "wilcoxon --file " + c.dump());
    ++checked;
  }
  EXPECT_GE(checked, 6);
}

// The scatter plot: one point per data set, the labels escaped, the diagonal drawn, and the counts
// on each side of it (counted here from the file).
TEST(stats_cli, scatter_of_two_learners_over_data_sets) {
  temp_dir dir;
  const std::string file = dir.file(
      "s.csv", "dataset,svm,tree\niris,0.95,0.93\nwine,0.97,0.90\n<script>x</script>,0.91,0.92\nflat,0.5,0.5\n");
  const std::string svg = (dir.path() / "plot.svg").string();
  const json j = run_json({"stats", "scatter", file, "--a", "svm", "--b", "tree", "--label", "dataset", "--plot", svg});
  EXPECT_EQ(j["n"], 4);
  EXPECT_EQ(j["above_diagonal"], 1);  // the script row: tree 0.92 > svm 0.91
  EXPECT_EQ(j["below_diagonal"], 2);
  EXPECT_EQ(j["on_diagonal"], 1);
  const std::string plot = read_file(svg);
  ASSERT_EQ(plot.rfind("<svg ", 0), 0u) << plot.substr(0, 100);
  EXPECT_EQ(plot.find("<script"), std::string::npos);
  EXPECT_NE(plot.find(">&lt;script&gt;x&lt;/script&gt;</text>"), std::string::npos);
  std::size_t circles = 0;
  for (auto at = plot.find("<circle "); at != std::string::npos; at = plot.find("<circle ", at + 1)) ++circles;
  EXPECT_EQ(circles, 4u);
  EXPECT_NE(plot.find("stroke-dasharray"), std::string::npos) << "the diagonal";
  EXPECT_NE(plot.find(">svm</text>"), std::string::npos);
  EXPECT_NE(plot.find(">tree</text>"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(svg + ".assay-tmp"));

  expect_error({"stats", "scatter", file, "--a", "svm", "--b", "nope", "--plot", svg},
               "assay stats: --a/--b: " + file + ": no column named \"nope\" (columns: \"dataset\", \"svm\", \"tree\")\n");
  expect_error({"stats", "scatter", file, "--a", "svm", "--b", "dataset", "--plot", svg},
               "assay stats: " + file + ":2: column 'dataset': cannot parse \"iris\" as a number\n", 3);
  expect_error({"stats", "friedman", "--file", file, "--row", "1,2,3"},
               "assay stats: --row: give either --row values or --file, not both\n");
  expect_error({"stats", "friedman"}, "assay stats: --row: give the scores as --row values or as --file FILE\n");
  expect_error({"stats", "friedman", "--file", file, "--label", "dataset"},
               "assay stats: --file: needs at least 3 values (learners) per row; got 2\n");
  expect_error({"stats", "friedman", "--row", "1,2,3", "--row", "2,3,4", "--label", "x"},
               "assay stats: --label: only used with --file\n");
}

TEST(stats_cli, bad_input) {
  expect_error({"stats", "binomial", "--k", "15", "--n", "-3"},
               "assay stats: --n: must be a count (an integer >= 0); got -3\n");
  expect_error({"stats", "binomial", "--k", "21", "--n", "20"}, "assay stats: --k: must be at most --n = 20; got 21\n");
  expect_error({"stats", "binomial", "--k", "2.5", "--n", "20"},
               "assay stats: --k: must be a count (an integer >= 0); got 2.5\n");
  expect_error({"stats", "binomial", "--k", "5", "--n", "20", "--p", "1.5"},
               "assay stats: --p: must be in [0, 1]; got 1.5\n");
  expect_error({"stats", "mcnemar", "--b", "-1", "--c", "4"},
               "assay stats: --b: must be a count (an integer >= 0); got -1\n");
  expect_error({"stats", "chi2", "--x", "3.8.4"}, "assay stats: --x: cannot parse \"3.8.4\" as a number\n");
  expect_error({"stats", "chi2", "--x", "3", "--df", "0"}, "assay stats: --df: must be > 0; got 0\n");
  expect_error({"stats", "ci", "--x", "5", "--n", "20", "--level", "1.5"},
               "assay stats: --level: must be in (0, 1); got 1.5\n");
  expect_error({"stats", "ci", "--x", "25", "--n", "20"}, "assay stats: --x: must be at most --n = 20; got 25\n");
  expect_error({"stats", "ci", "--x", "5", "--n", "0"}, "assay stats: --n: must be > 0; got 0\n");
  expect_error({"stats", "ttest", "--a", "0.8,0.9,0.7", "--b", "0.7,0.8"},
               "assay stats: --b: has 2 values but --a has 3; the folds must be paired\n");
  expect_error({"stats", "ttest", "--a", "0.8,x,0.7", "--b", "0.7,0.8,0.6"},
               "assay stats: --a: cannot parse \"x\" as a number\n");
  expect_error({"stats", "ttest", "--a", "0.8,0.9", "--b", "0.7,0.8", "--corrected"},
               "assay stats: --test-fraction: --corrected needs the share of the data in each test set\n");
  expect_error({"stats", "ttest", "--d", "0.1,0.2", "--corrected", "--test-fraction", "1"},
               "assay stats: --test-fraction: must be in (0, 1); got 1\n");
  expect_error({"stats", "wilcoxon", "--a", "1,2,3"},
               "assay stats: --b: missing; give the paired values --a and --b (or the differences --d)\n");
  expect_error({"stats", "friedman", "--row", "1,2,3", "--row", "1,2"},
               "assay stats: --row: row 2 has 2 values but row 1 has 3\n");
  const cli_result none = run_assay({"stats"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.out, "");
  EXPECT_EQ(none.err.rfind("assay stats: ", 0), 0u) << none.err;
}

}  // namespace
}  // namespace assay::test
