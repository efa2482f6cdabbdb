// assay compare: the library comparison and the CLI end to end, on the aSAH data carried in
// proc_asah.json, against pROC's numbers.
#include "assay/stats/compare_models.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::load_reference;
using testing::num;
using testing::nums;

const nlohmann::json& asah_pair(const std::string& name) {
  for (const auto& c : load_reference("proc_asah.json")["paired"]) {
    if (c["name"] == name) return c;
  }
  throw std::runtime_error("no case " + name);
}

std::vector<std::int32_t> labels(const nlohmann::json& j) {
  std::vector<std::int32_t> v;
  for (const auto& e : j) v.push_back(static_cast<std::int32_t>(num(e)));
  return v;
}

TEST(Compare, LibraryMatchesPROCAndCountsMcNemar) {
  const auto& c = asah_pair("asah_s100b_ndka");
  const auto y = labels(c["labels"]);
  const auto a = nums(c["a"]), b = nums(c["b"]);
  const auto r = compare_models(y, a, b, "s100b", "ndka");
  EXPECT_NEAR(r.pairs[0].delong.test.statistic, num(c["z"]), 1e-9);
  EXPECT_NEAR(r.pairs[0].delong.test.p_value, num(c["p_value"]), 1e-9);
  EXPECT_NEAR(r.models[0].auc.auc.v, num(c["auc_a"]), 1e-9);
  // McNemar counts by hand from the data at threshold 0.5.
  std::int64_t n01 = 0, n10 = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const bool ra = (a[i] >= 0.5) == (y[i] == 1), rb = (b[i] >= 0.5) == (y[i] == 1);
    n01 += ra && !rb;
    n10 += !ra && rb;
  }
  EXPECT_EQ(r.pairs[0].counts.n01, n01);
  EXPECT_EQ(r.pairs[0].counts.n10, n10);
  EXPECT_EQ(r.pairs[0].mcnemar.p_value, mcnemar(n01, n10).p_value);
  EXPECT_NE(r.verdict.find("No significant difference in AUC"), std::string::npos);
}

TEST(Compare, CliJsonEndToEnd) {
  const auto& c = asah_pair("asah_s100b_wfns");
  const auto y = labels(c["labels"]);
  const auto a = nums(c["a"]), b = nums(c["b"]);
  const auto dir = std::filesystem::temp_directory_path() / ("assay_compare_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto csv = dir / "asah.csv";
  {
    std::ofstream f(csv);
    f << "outcome,s100b,wfns\n";
    f.precision(17);
    for (std::size_t i = 0; i < y.size(); ++i) f << (y[i] ? "Poor" : "Good") << "," << a[i] << "," << b[i] << "\n";
  }
  const auto out = dir / "out.json";
  const std::string cmd = std::string(ASSAY_CLI_PATH) + " compare " + csv.string() +
                          " --label outcome --pos-label Poor --score s100b --score wfns --format json -o " + out.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(out);
  const auto j = nlohmann::json::parse(in);
  EXPECT_NEAR(j["delong"]["z"].get<double>(), num(c["z"]), 1e-9);
  EXPECT_NEAR(j["delong"]["p_value"].get<double>(), num(c["p_value"]), 1e-9);
  EXPECT_NEAR(j["delong"]["diff_ci"][0].get<double>(), num(c["diff_lower"]), 1e-9);
  EXPECT_NEAR(j["delong"]["diff_ci"][1].get<double>(), num(c["diff_upper"]), 1e-9);
  EXPECT_EQ(j["mcnemar"]["method"], "exact");
  EXPECT_EQ(j["models"][0]["name"], "s100b");
  EXPECT_EQ(j["n_positive"], 41);
  // Bad input: one score column is a usage error (exit code 2) with the option named.
  const std::string bad = std::string(ASSAY_CLI_PATH) + " compare " + csv.string() +
                          " --label outcome --pos-label Poor --score s100b 2> " + (dir / "err.txt").string();
  const int status = std::system(bad.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  std::ifstream err(dir / "err.txt");
  std::string line;
  std::getline(err, line);
  EXPECT_EQ(line, "assay compare: --score: give at least two columns (--score A --score B); got 1");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace assay::stats

namespace assay::stats {
namespace {

using testing::close;
using testing::load_reference;
using testing::message_of;
using testing::num;
using testing::nums;

std::vector<std::int32_t> ints(const nlohmann::json& j) { return j.get<std::vector<std::int32_t>>(); }

// Three classifiers' hard predictions: Cochran's Q, pairwise exact McNemar, Holm over the pairs and
// the Wilson intervals of the accuracies, against statsmodels (scipy_stats.json "compare_preds").
TEST(CompareMany, PredictionsMatchStatsmodels) {
  const auto& ref = load_reference("scipy_stats.json")["compare_preds"];
  const auto y = ints(ref["y"]);
  std::vector<std::vector<std::int32_t>> preds;
  std::vector<model_input> models;
  for (const auto& name : ref["names"]) preds.push_back(ints(ref["preds"][name.get<std::string>()]));
  for (std::size_t k = 0; k < preds.size(); ++k) models.push_back({ref["names"][k].get<std::string>(), {}, preds[k]});
  const auto c = compare_models(y, models);
  ASSERT_TRUE(c.has_cochran);
  EXPECT_TRUE(close(c.cochran.statistic, num(ref["cochrans_q"]["statistic"]), 1e-13));
  EXPECT_TRUE(close(c.cochran.p_value, num(ref["cochrans_q"]["pvalue"]), 1e-12));
  EXPECT_EQ(c.cochran.df, num(ref["cochrans_q"]["df"]));
  ASSERT_EQ(c.pairs.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& p = c.pairs[i];
    const auto& r = ref["pairs"][i];
    EXPECT_EQ(c.models[p.a].name, r["a"].get<std::string>());
    EXPECT_EQ(c.models[p.b].name, r["b"].get<std::string>());
    EXPECT_EQ(p.counts.n01, r["n01"].get<std::int64_t>());
    EXPECT_EQ(p.counts.n10, r["n10"].get<std::int64_t>());
    EXPECT_EQ(p.mcnemar.statistic, num(r["statistic"]));
    EXPECT_TRUE(close(p.mcnemar.p_value, num(r["pvalue"]), 1e-12));
    EXPECT_TRUE(close(p.mcnemar_p_adjusted, num(r["pvalue_holm"]), 1e-12));
    EXPECT_FALSE(p.has_delong);
  }
  for (std::size_t k = 0; k < 3; ++k) {
    const auto& a = ref["accuracy"][k];
    EXPECT_EQ(c.models[k].correct, a["correct"].get<std::int64_t>());
    EXPECT_TRUE(close(c.models[k].accuracy.lower, num(a["lower"]), 1e-13));
    EXPECT_TRUE(close(c.models[k].accuracy.upper, num(a["upper"]), 1e-13));
  }
  EXPECT_NE(c.verdict.find("No significant difference among the 3 accuracies (Cochran's Q p = 0.151)"),
            std::string::npos)
      << c.verdict;
}

// Three score models on aSAH: each pairwise DeLong test equals pROC's, and the adjusted p-values
// are Holm's correction of pROC's three p-values (Holm itself is checked against statsmodels).
TEST(CompareMany, ScoresPairwiseDeLongWithHolm) {
  const auto& ref = load_reference("proc_asah.json")["paired"];
  auto find = [&](const std::string& n) -> const nlohmann::json& {
    for (const auto& c : ref) {
      if (c["name"] == n) return c;
    }
    throw std::runtime_error(n);
  };
  const auto& sn = find("asah_s100b_ndka");
  const auto& sw = find("asah_s100b_wfns");
  const auto& nw = find("asah_ndka_wfns");
  const auto y = labels(sn["labels"]);
  const auto s100b = nums(sn["a"]), ndka = nums(sn["b"]), wfns = nums(sw["b"]);
  const auto c = compare_models(y, {{"s100b", s100b, {}}, {"ndka", ndka, {}}, {"wfns", wfns, {}}});
  ASSERT_EQ(c.pairs.size(), 3u);
  const std::vector<double> proc_p{num(sn["p_value"]), num(sw["p_value"]), num(nw["p_value"])};
  const auto holm = adjust_p_values(proc_p, p_adjust_method::holm);
  const nlohmann::json* refs[] = {&sn, &sw, &nw};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(c.pairs[i].delong.test.statistic, num((*refs[i])["z"]), 1e-9);
    EXPECT_NEAR(c.pairs[i].delong.test.p_value, proc_p[i], 1e-9);
    EXPECT_NEAR(c.pairs[i].delong_p_adjusted, holm[i], 1e-9);
  }
  EXPECT_TRUE(c.has_cochran);
  const auto json = nlohmann::json::parse(to_json(c));
  EXPECT_EQ(json["p_adjust"], "holm");
  EXPECT_EQ(json["pairs"].size(), 3u);
  EXPECT_EQ(json["pairs"][2]["a"], "ndka");
  EXPECT_NEAR(json["pairs"][2]["delong"]["p_value_adjusted"].get<double>(), holm[2], 1e-9);
  EXPECT_FALSE(json.contains("delong"));  // with more than two models the tests live under "pairs"
}

// A small data set with two score models that differ (b is a noisy a).
struct two_models {
  std::vector<std::int32_t> y;
  std::vector<double> a, b;
};
// The score model of make_two: a logistic of a latent u shifted by the label.
double logistic_score(double u, int y) { return 1 / (1 + std::exp(-(u + 1.5 * y - 0.5))); }

two_models make_two(std::size_t n, std::uint64_t seed, double noise_b) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> z;
  two_models d;
  for (std::size_t i = 0; i < n; ++i) {
    const int y = (i % 3 == 0) ? 1 : 0;
    const double u = z(gen);
    d.y.push_back(y);
    d.a.push_back(logistic_score(u, y));
    d.b.push_back(logistic_score(u + noise_b * z(gen), y));
  }
  return d;
}

// A second model drawn like make_two's a but with its own latent values: given y it is independent of a
// and has the same distribution (the two models are exchangeable, H0 of the paired tests).
std::vector<double> exchangeable_model(const std::vector<std::int32_t>& y, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> z;
  std::vector<double> b(y.size());
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = logistic_score(z(gen), y[i]);
  return b;
}

// compare_models on one data set of a null simulation: make_two's y and a, and an exchangeable b.
auto compare_under_null(std::size_t n, std::uint64_t data_seed, std::uint64_t model_seed, const compare_options& o) {
  const auto d = make_two(n, data_seed, 0.0);
  return compare_models(d.y, d.a, exchangeable_model(d.y, model_seed), "a", "b", o);
}

TEST(CompareMetrics, IdenticalWhateverTheThreadCount) {
  const auto d = make_two(300, 5, 1.0);
  compare_options o;
  o.metrics = {"accuracy", "roc_auc", "brier_score_loss", "f1"};
  o.replicates = 150;
  o.permutations = 150;
  o.seed = 9;
  o.threads = 1;
  const auto one = to_json(compare_models(d.y, d.a, d.b, "a", "b", o));
  for (unsigned t : {2u, 3u, 7u}) {
    o.threads = t;
    EXPECT_EQ(to_json(compare_models(d.y, d.a, d.b, "a", "b", o)), one) << t;
  }
  o.seed = 10;
  EXPECT_NE(to_json(compare_models(d.y, d.a, d.b, "a", "b", o)), one);
  const auto j = nlohmann::json::parse(one);
  ASSERT_EQ(j["paired_bootstrap"].size(), 4u);
  const auto& pb = j["paired_bootstrap"][1];
  EXPECT_EQ(pb["metric"], "roc_auc");
  EXPECT_EQ(pb["replicates"], 150);
  EXPECT_EQ(pb["seed"], 9);
  EXPECT_EQ(pb["undefined_replicates"], 0);
  // The roc_auc difference is the DeLong difference (same AUCs), and its interval brackets it.
  EXPECT_NEAR(pb["diff"].get<double>(), j["delong"]["auc_difference"].get<double>(), 1e-12);
  EXPECT_LE(pb["diff_ci"][0].get<double>(), pb["diff"].get<double>());
  EXPECT_GE(pb["diff_ci"][1].get<double>(), pb["diff"].get<double>());
  EXPECT_EQ(j["permutation"][1]["metric"], "roc_auc");
  EXPECT_EQ(j["permutation"][1]["permutations"], 150);
}

// With accuracy as the metric, the paired permutation test's exact null distribution is McNemar's
// exact binomial one (only discordant cases change the difference): with 20000 permutations the
// Monte Carlo p has standard error <= 0.0036; 5 standard errors allowed (failure probability < 1e-6).
TEST(CompareMetrics, AccuracyPermutationAgreesWithExactMcNemar) {
  const auto d = make_two(240, 17, 1.5);
  compare_options o;
  o.metrics = {"accuracy"};
  o.replicates = 1;
  o.permutations = 20000;
  o.seed = 3;
  const auto c = compare_models(d.y, d.a, d.b, "a", "b", o);
  const auto& p = c.pairs[0];
  EXPECT_NEAR(p.metrics[0].permutation.observed, static_cast<double>(p.counts.n01 - p.counts.n10) / 240, 1e-15);
  EXPECT_NEAR(p.metrics[0].permutation.p_value, p.mcnemar.p_value, 5 * 0.0036);
}

// Under H0 (the two models are exchangeable: a_i, b_i i.i.d. given y_i) the permutation p-value of a
// continuous metric (Brier score) is uniform on {1, ..., R + 1} / (R + 1). Over 200 independent data
// sets, the Kolmogorov-Smirnov distance between the empirical CDF at the grid points k / (R + 1) and
// the uniform CDF stays below 1.95 / sqrt(200) = 0.138 with probability >= 0.999 (the asymptotic
// KS bound; evaluating on the grid only can make D smaller). Declared failure probability: 1e-3.
TEST(CompareMetrics, PermutationPValuesUniformUnderNull) {
  const std::size_t runs = 200, R = 49;
  std::vector<std::size_t> hist(R + 2, 0);
  compare_options o;
  o.metrics = {"brier_score_loss"};
  o.replicates = 1;
  o.permutations = R;
  o.threads = 1;
  for (std::size_t run = 0; run < runs; ++run) {
    o.seed = run;
    const auto c = compare_under_null(40, 1000 + run, 5000 + run, o);
    const double p = c.pairs[0].metrics[0].permutation.p_value;
    ++hist[static_cast<std::size_t>(std::lround(p * static_cast<double>(R + 1)))];
  }
  double cdf = 0, dmax = 0;
  for (std::size_t k = 1; k <= R + 1; ++k) {
    cdf += static_cast<double>(hist[k]) / static_cast<double>(runs);
    dmax = std::max(dmax, std::fabs(cdf - static_cast<double>(k) / static_cast<double>(R + 1)));
  }
  EXPECT_EQ(hist[0], 0u);  // p is never 0
  EXPECT_LT(dmax, 1.95 / std::sqrt(static_cast<double>(runs)));
}

// Coverage of the paired bootstrap's percentile interval of the difference in Brier score: with
// exchangeable models the true difference is 0. Over 200 data sets of 80 cases, 90% intervals with
// 200 replicates; the share covering 0 is Binomial(200, c)/200 with sd <= 0.022 around the true
// coverage c. The percentile method is close to nominal here (a smooth mean statistic); assuming
// |c - 0.90| <= 0.01, the band [0.83, 0.97] is >= 2.8 sd away: failure probability < 5e-3.
TEST(CompareMetrics, PairedBootstrapIntervalCoversZeroUnderNull) {
  const std::size_t runs = 200;
  std::size_t covered = 0;
  compare_options o;
  o.metrics = {"brier_score_loss"};
  o.alpha = 0.10;
  o.replicates = 200;
  o.permutations = 1;
  o.threads = 1;
  for (std::size_t run = 0; run < runs; ++run) {
    o.seed = run;
    const auto c = compare_under_null(80, 90000 + run, 70000 + run, o);
    const auto& bs = c.pairs[0].metrics[0].bootstrap.difference;
    covered += bs.lower.v <= 0 && 0 <= bs.upper.v;
  }
  const double share = static_cast<double>(covered) / static_cast<double>(runs);
  EXPECT_GE(share, 0.83);
  EXPECT_LE(share, 0.97);
}

TEST(CompareBadInput, MessagesNameTheArgument) {
  const std::vector<std::int32_t> y{1, 1, 0, 0, 1, 0};
  const std::vector<double> a{0.9, 0.8, 0.2, 0.3, 0.6, 0.4}, short_b{0.1, 0.2};
  const std::vector<std::int32_t> pa{1, 1, 0, 0, 1, 1};
  EXPECT_EQ(message_of([&] { compare_models(y, a, short_b, "a", "b"); }),
            "compare_models: model 'b' has 2 scores but y_true has 6 cases");
  EXPECT_EQ(message_of([&] { compare_models(y, {{"a", a, {}}, {"p", {}, pa}}); }),
            "compare_models: model 'p' has predictions but model 'a' has scores; compare models of one kind");
  EXPECT_EQ(message_of([&] { compare_models(y, {{"a", a, {}}}); }), "compare_models: give at least two models; got 1");
  std::vector<double> nan_b = a;
  nan_b[3] = std::nan("");
  EXPECT_EQ(message_of([&] { compare_models(y, a, nan_b, "a", "b"); }),
            "compare_models: model 'b': score[3] must be finite; got nan");
  const std::vector<std::int32_t> one_class{1, 1, 1, 1, 1, 0};
  EXPECT_EQ(message_of([&] { compare_models(one_class, a, a, "a", "b"); }),
            "compare_models: y_true has 5 positive and 1 negative cases; a comparison needs at least 2 of each");
  compare_options o;
  o.alpha = 1.5;
  EXPECT_EQ(message_of([&] { compare_models(y, a, a, "a", "b", o); }), "compare_models: alpha must be in (0, 1); got 1.5");
  o = {};
  o.replicates = 0;
  EXPECT_EQ(message_of([&] { compare_models(y, a, a, "a", "b", o); }), "compare_models: replicates must be >= 1; got 0");
  o = {};
  o.metrics = {"r2"};
  EXPECT_EQ(message_of([&] { compare_models(y, {{"a", {}, pa}, {"b", {}, pa}}, o); }),
            "compare_models: metric \"r2\" cannot compare hard predictions; choose from: tp, fp, fn, tn, accuracy, "
            "error_rate, prevalence, recall, specificity, fpr, fnr, precision, npv, f1, fbeta, balanced_accuracy, "
            "matthews_corrcoef, cohen_kappa");
  o.metrics = {"log_loss"};
  const std::vector<double> big{0.9, 1.8, 0.2, 0.3, 0.6, 0.4};
  EXPECT_EQ(message_of([&] { compare_models(y, a, big, "a", "b", o); }),
            "compare_models: metric \"log_loss\" needs probabilities in [0, 1]; model 'b' has score[1] = 1.8");
  // Identical models: DeLong z = 0, p = 1; every permutation ties, p = 1.
  o.metrics = {"roc_auc"};
  o.replicates = 50;
  o.permutations = 50;
  const auto same = compare_models(y, a, a, "a", "b", o);
  EXPECT_EQ(same.pairs[0].delong.test.p_value, 1.0);
  EXPECT_EQ(same.pairs[0].metrics[0].permutation.p_value, 1.0);
  EXPECT_EQ(same.pairs[0].metrics[0].bootstrap.test.p_value, 1.0);
}

}  // namespace
}  // namespace assay::stats
