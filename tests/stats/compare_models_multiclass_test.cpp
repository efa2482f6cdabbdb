// assay compare with a multiclass label (compare_models_multiclass, compare_table): against
// statsmodels (McNemar exact, Cochran's Q, Holm, Wilson) and scikit-learn (the multiclass metrics,
// classes = those in the truth or the predictions) on three classifiers' out-of-fold predictions on
// wine.csv (compare_multiclass.json, tests/stats/generate_compare_multiclass.py); the stratified
// bootstrap keeps every class count; results do not depend on the thread count; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/stats/bootstrap.hpp"
#include "assay/stats/compare_models.hpp"
#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::load_reference;
using testing::num;

const nlohmann::json& ref(const char* which) { return load_reference("compare_multiclass.json")[which]; }

// The wine classes, sorted: class_0, class_1, class_2.
std::vector<std::string> classes_of(const nlohmann::json& c) {
  std::vector<std::string> v;
  for (const auto& e : c["y"]) v.push_back(e.get<std::string>());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Class codes of a list of names; a name that is not a class gets `other`.
std::vector<std::int32_t> codes(const nlohmann::json& names, const std::vector<std::string>& classes,
                                std::int32_t other = -1) {
  std::vector<std::int32_t> v;
  for (const auto& e : names) {
    const auto it = std::find(classes.begin(), classes.end(), e.get<std::string>());
    v.push_back(it == classes.end() ? other : static_cast<std::int32_t>(it - classes.begin()));
  }
  return v;
}

// Tolerances: counts exact; McNemar's exact p and Wilson bounds 1e-12 relative (the same closed
// forms, different summation order); Cochran's Q 1e-12 relative; metrics 1e-12 absolute.
void expect_rel(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, 1e-12 * std::fabs(want) + 1e-300) << what;
}

TEST(CompareMulticlass, ThreeModelsMatchStatsmodels) {
  const auto& c = ref("three");
  const auto classes = classes_of(c);
  ASSERT_EQ(classes.size(), 3u);
  const auto y = codes(c["y"], classes);
  std::vector<std::vector<std::int32_t>> preds;
  std::vector<model_input> models;
  for (const auto& name : c["names"]) preds.push_back(codes(c["preds"][name.get<std::string>()], classes));
  for (std::size_t k = 0; k < preds.size(); ++k) models.push_back({c["names"][k].get<std::string>(), {}, preds[k]});
  const auto r = compare_models_multiclass(y, 3, models);
  EXPECT_TRUE(r.multiclass);
  EXPECT_EQ(r.n, y.size());
  EXPECT_EQ(r.class_counts, (std::vector<std::size_t>{59, 71, 48}));  // wine.csv's cultivars
  ASSERT_EQ(r.models.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    const auto& want = c["models"][k];
    EXPECT_EQ(r.models[k].correct, want["correct"].get<std::int64_t>());
    EXPECT_EQ(r.models[k].unknown, 0);
    expect_rel(r.models[k].accuracy.lower, num(want["lower"]), "Wilson lower");
    expect_rel(r.models[k].accuracy.upper, num(want["upper"]), "Wilson upper");
  }
  ASSERT_TRUE(r.has_cochran);
  expect_rel(r.cochran.statistic, num(c["cochrans_q"]["statistic"]), "Q");
  EXPECT_EQ(r.cochran.df, num(c["cochrans_q"]["df"]));
  expect_rel(r.cochran.p_value, num(c["cochrans_q"]["pvalue"]), "Q p");
  ASSERT_EQ(r.pairs.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& p = r.pairs[i];
    const auto& want = c["pairs"][i];
    EXPECT_EQ(r.models[p.a].name, want["a"]);
    EXPECT_EQ(r.models[p.b].name, want["b"]);
    EXPECT_EQ(p.counts.n11, want["n11"].get<std::int64_t>());
    EXPECT_EQ(p.counts.n01, want["n01"].get<std::int64_t>());
    EXPECT_EQ(p.counts.n10, want["n10"].get<std::int64_t>());
    EXPECT_EQ(p.counts.n00, want["n00"].get<std::int64_t>());
    EXPECT_EQ(p.mcnemar.statistic, num(want["statistic"]));
    expect_rel(p.mcnemar.p_value, num(want["pvalue"]), "McNemar p");
    expect_rel(p.mcnemar_p_adjusted, num(want["pvalue_holm"]), "Holm");
  }
}

// Every multiclass metric the registry offers, for each model and each pair's difference, against
// scikit-learn (zero_division=0); one replicate and one permutation: only the point values matter.
TEST(CompareMulticlass, MetricsMatchScikitLearn) {
  for (const char* which : {"three", "unsure"}) {
    const auto& c = ref(which);
    const auto classes = classes_of(c);
    const auto y = codes(c["y"], classes);
    std::vector<std::vector<std::int32_t>> preds;
    for (const auto& name : c["names"]) preds.push_back(codes(c["preds"][name.get<std::string>()], classes, 7));
    std::vector<model_input> models;
    for (std::size_t k = 0; k < preds.size(); ++k) models.push_back({c["names"][k].get<std::string>(), {}, preds[k]});
    compare_options o;
    o.metrics = comparable_metrics(false, true);
    ASSERT_EQ(o.metrics.size(), 14u);
    o.replicates = 1;
    o.permutations = 1;
    const auto r = compare_models_multiclass(y, 3, models, o);
    for (std::size_t k = 0; k < models.size(); ++k) {
      EXPECT_EQ(r.models[k].unknown, c["models"][k]["unknown"].get<std::int64_t>()) << which;
    }
    for (const auto& p : r.pairs) {
      for (const auto& m : p.metrics) {
        const auto& wa = c["models"][p.a]["metrics"];
        const auto& wb = c["models"][p.b]["metrics"];
        ASSERT_TRUE(wa.contains(m.metric)) << m.metric;
        EXPECT_NEAR(m.bootstrap.estimate_a, num(wa[m.metric]), 1e-12) << which << " " << m.metric;
        EXPECT_NEAR(m.bootstrap.estimate_b, num(wb[m.metric]), 1e-12) << which << " " << m.metric;
        EXPECT_NEAR(m.permutation.observed, num(wa[m.metric]) - num(wb[m.metric]), 1e-12) << which << " " << m.metric;
      }
    }
  }
}

// The same data through compare_table (labels as read from a file): class names, the predictions of
// a class the label lacks ("unsure": wrong, listed), and the same numbers as statsmodels.
TEST(CompareMulticlass, TableNamesClassesAndCountsUnknownPredictions) {
  const auto& c = ref("unsure");
  io::table t;
  t.source = "wine_preds.csv";
  t.rows = c["y"].size();
  auto label_column = [&](const std::string& name, const nlohmann::json& values) {
    io::column col;
    col.name = name;
    col.type = io::column_type::label;
    for (const auto& e : values) {
      const auto s = e.get<std::string>();
      auto it = std::find(col.levels.begin(), col.levels.end(), s);
      if (it == col.levels.end()) it = col.levels.insert(col.levels.end(), s);
      col.codes.push_back(static_cast<std::int32_t>(it - col.levels.begin()));
    }
    return col;
  };
  t.columns.push_back(label_column("cultivar", c["y"]));
  for (const auto& name : c["names"]) t.columns.push_back(label_column(name, c["preds"][name.get<std::string>()]));
  const auto r = compare_table(t, false, std::nullopt);
  EXPECT_TRUE(r.multiclass);
  EXPECT_EQ(r.classes, (std::vector<std::string>{"class_0", "class_1", "class_2"}));
  EXPECT_EQ(r.label, "cultivar");
  ASSERT_EQ(r.models.size(), 2u);
  EXPECT_EQ(r.models[1].unknown, 9);
  EXPECT_EQ(r.models[1].unknown_classes, std::vector<std::string>{"unsure"});
  EXPECT_EQ(r.models[1].correct, c["models"][1]["correct"].get<std::int64_t>());
  EXPECT_EQ(r.pairs[0].counts.n01, c["pairs"][0]["n01"].get<std::int64_t>());
  EXPECT_EQ(r.pairs[0].counts.n10, c["pairs"][0]["n10"].get<std::int64_t>());
  expect_rel(r.pairs[0].mcnemar.p_value, num(c["pairs"][0]["pvalue"]), "McNemar p");
  EXPECT_FALSE(r.has_cochran);
  const auto text = to_text(r);
  EXPECT_NE(text.find("wine_preds.csv: 178 cases, 3 classes (class_0: 59, class_1: 71, class_2: 48)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Note: knn_unsure predicts a class the label does not have (\"unsure\") for 9 cases; counted "
                      "as wrong.\n"),
            std::string::npos)
      << text;
  const auto j = nlohmann::json::parse(to_json(r));
  EXPECT_EQ(j["task"], "multiclass");
  EXPECT_EQ(j["n_classes"], 3);
  EXPECT_FALSE(j.contains("n_positive"));
  EXPECT_EQ(j["models"][1]["unknown_predictions"], 9);
  EXPECT_EQ(j["models"][1]["unknown_classes"], nlohmann::json::array({"unsure"}));
}

// Model A is right exactly on class 0, model B exactly on class 1; class sizes 5, 9, 6. Every
// replicate of a class-stratified bootstrap keeps these counts, so accuracy(A) - accuracy(B) is
// (5 - 9) / 20 in every replicate: zero spread, a point interval. (An unstratified bootstrap keeps
// both counts in a replicate with probability < 0.1, so in all 200 with probability < 1e-200.)
TEST(CompareMulticlass, StratifiedBootstrapKeepsEveryClassCount) {
  std::vector<std::int32_t> y, a, b;
  const int sizes[3] = {5, 9, 6};
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < sizes[k]; ++i) {
      y.push_back(k);
      a.push_back(k == 0 ? 0 : k == 1 ? 2 : 0);  // right on class 0 only
      b.push_back(k == 0 ? 2 : k == 1 ? 1 : 0);  // right on class 1 only
    }
  }
  for (std::size_t i = 0; i < y.size(); ++i) {
    ASSERT_EQ(a[i] == y[i], y[i] == 0);
    ASSERT_EQ(b[i] == y[i], y[i] == 1);
  }
  compare_options o;
  o.metrics = {"accuracy", "recall_macro"};
  o.replicates = 200;
  o.permutations = 10;
  o.seed = 3;
  const auto r = compare_models_multiclass(y, 3, {{"a", {}, a}, {"b", {}, b}}, o);
  const auto& d = r.pairs[0].metrics[0].bootstrap.difference;
  EXPECT_DOUBLE_EQ(d.estimate, -4.0 / 20);
  EXPECT_LT(d.std_error, 1e-12);  // the rounding of a sum of 200 equal values
  ASSERT_TRUE(d.lower.defined() && d.upper.defined());
  EXPECT_DOUBLE_EQ(d.lower.v, -0.2);
  EXPECT_DOUBLE_EQ(d.upper.v, -0.2);
  // Macro recall: A has recall 1 on class 0, 0 elsewhere; B 1 on class 1: both 1/3 in every replicate.
  const auto& m = r.pairs[0].metrics[1].bootstrap.difference;
  EXPECT_EQ(m.estimate, 0.0);
  EXPECT_LT(m.std_error, 1e-12);
}

// The generic engine with many strata (negative, gapped codes): every replicate draws exactly each
// stratum's count from that stratum.
TEST(CompareMulticlass, BootstrapStrataKeepCountsDirectly) {
  std::vector<std::int32_t> strata;
  const std::map<std::int32_t, int> want{{-3, 4}, {0, 11}, {2, 1}, {9, 7}, {40, 3}};
  for (const auto& [s, n] : want) {
    for (int i = 0; i < n; ++i) strata.push_back(s);
  }
  std::reverse(strata.begin(), strata.end());
  bootstrap_options o;
  o.replicates = 300;
  o.strata = strata;
  o.keep_distribution = true;
  o.threads = 2;
  const auto r = bootstrap_ci(
      strata.size(),
      [&](std::span<const std::uint32_t> rows) {
        std::map<std::int32_t, int> got;
        for (const auto i : rows) ++got[strata[i]];
        return got == want ? 1.0 : 0.0;
      },
      o);
  ASSERT_EQ(r.distribution.size(), 300u);
  for (const double v : r.distribution) ASSERT_EQ(v, 1.0);
}

TEST(CompareMulticlass, SameBitsWhateverTheThreadCount) {
  const auto& c = ref("three");
  const auto classes = classes_of(c);
  const auto y = codes(c["y"], classes);
  std::vector<std::vector<std::int32_t>> preds;
  for (const auto& name : c["names"]) preds.push_back(codes(c["preds"][name.get<std::string>()], classes));
  std::vector<model_input> models;
  for (std::size_t k = 0; k < preds.size(); ++k) models.push_back({c["names"][k].get<std::string>(), {}, preds[k]});
  compare_options o;
  o.metrics = {"f1_macro", "cohen_kappa"};
  o.replicates = 300;
  o.permutations = 300;
  o.seed = 42;
  o.threads = 1;
  const auto one = compare_models_multiclass(y, 3, models, o);
  o.threads = 2;
  const auto two = compare_models_multiclass(y, 3, models, o);
  for (std::size_t p = 0; p < one.pairs.size(); ++p) {
    for (std::size_t m = 0; m < 2; ++m) {
      const auto &x = one.pairs[p].metrics[m], &z = two.pairs[p].metrics[m];
      EXPECT_EQ(x.bootstrap.difference.lower.v, z.bootstrap.difference.lower.v);
      EXPECT_EQ(x.bootstrap.difference.upper.v, z.bootstrap.difference.upper.v);
      EXPECT_EQ(x.bootstrap.difference.std_error, z.bootstrap.difference.std_error);
      EXPECT_EQ(x.bootstrap.test.p_value, z.bootstrap.test.p_value);
      EXPECT_EQ(x.permutation.extreme, z.permutation.extreme);
      EXPECT_EQ(x.permutation.p_value, z.permutation.p_value);
    }
  }
  EXPECT_EQ(to_json(one), to_json(two));
}

// The permutation test of the accuracy difference estimates McNemar's exact p (its exact
// permutation distribution), whatever the number of classes. tree vs knn: p = 0.0114; 2000
// permutations: standard error 0.0024, 5 of them allowed (failure probability < 1e-6).
TEST(CompareMulticlass, PermutationOfAccuracyEstimatesMcNemar) {
  const auto& c = ref("three");
  const auto classes = classes_of(c);
  const auto y = codes(c["y"], classes);
  const auto tree = codes(c["preds"]["tree"], classes), knn = codes(c["preds"]["knn"], classes);
  compare_options o;
  o.metrics = {"accuracy"};
  o.replicates = 1;
  o.permutations = 2000;
  o.seed = 5;
  const auto r = compare_models_multiclass(y, 3, {{"tree", {}, tree}, {"knn", {}, knn}}, o);
  const double want = num(c["pairs"][1]["pvalue"]);
  ASSERT_EQ(c["pairs"][1]["b"], "knn");
  EXPECT_NEAR(r.pairs[0].metrics[0].permutation.p_value, want, 5 * 0.0024);
}

TEST(CompareMulticlass, BadInput) {
  const std::vector<std::int32_t> y{0, 1, 2, 0, 1, 2}, p{0, 1, 2, 2, 1, 0};
  const std::vector<double> s{0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  auto message = [](auto f) {
    try {
      f();
    } catch (const error& e) {
      return std::to_string(static_cast<int>(e.kind())) + " " + e.what();
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { compare_models_multiclass(y, 3, {{"a", s, {}}, {"b", s, {}}}); }),
            "2 compare_models_multiclass: model 'a' has scores; a multiclass comparison takes hard predictions");
  EXPECT_EQ(message([&] { compare_models_multiclass(y, 4, {{"a", {}, p}, {"b", {}, p}}); }),
            "2 compare_models_multiclass: class 3 has no case in y_true; every one of the 4 classes needs one");
  EXPECT_EQ(message([&] { compare_models_multiclass(y, 2, {{"a", {}, p}, {"b", {}, p}}); }),
            "2 compare_models_multiclass: y_true[2] must be a class index in [0, 2); got 2");
  EXPECT_EQ(message([&] { compare_models_multiclass(y, 1, {{"a", {}, p}, {"b", {}, p}}); }),
            "2 compare_models_multiclass: n_classes must be >= 2; got 1");
  EXPECT_EQ(message([&] { compare_models_multiclass(y, 3, {{"a", {}, p}}); }),
            "2 compare_models_multiclass: give at least two models; got 1");
  compare_options o;
  o.metrics = {"f1"};
  EXPECT_EQ(message([&] { compare_models_multiclass(y, 3, {{"a", {}, p}, {"b", {}, p}}, o); }),
            "2 compare_models_multiclass: metric \"f1\" cannot compare multiclass predictions; choose from: accuracy, "
            "error_rate, balanced_accuracy, matthews_corrcoef, cohen_kappa, precision_micro, recall_micro, f1_micro, "
            "precision_macro, recall_macro, f1_macro, precision_weighted, recall_weighted, f1_weighted");
}

}  // namespace
}  // namespace assay::stats
