// Learners against scikit-learn 1.2.1 (sklearn_learners.json from generate_sklearn_learners.py):
// same rows, same preprocessing, predictions compared with stated tolerances. Plus properties of
// the learners scikit-learn cannot match exactly (CART), bad parameters, and the leakage test.
#include "assay/validation/learners.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "assay/error.hpp"
#include "assay/validation/dataset.hpp"
#include "assay/validation/features.hpp"

namespace assay::validation {
namespace {

dataset load(const std::string& name, const std::string& target) {
  dataset_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/data/" + name + ".csv";
  q.target = target;
  q.task = name == "diabetes" ? task_type::regression : task_type::classification;
  return read_dataset(q);
}

struct fit_result {
  predictions p;
  feature_encoder enc;
};

fit_result fit_predict(const dataset& d, const any_learner& l, const std::vector<std::size_t>& tr,
                       const std::vector<std::size_t>& te) {
  fit_result r;
  r.enc.fit(d, tr, l.preprocessing());
  const matrix xtr = r.enc.transform(d, tr), xte = r.enc.transform(d, te);
  std::vector<std::int32_t> yc;
  std::vector<double> yv;
  for (auto i : tr) {
    if (d.classification())
      yc.push_back(d.y_class[i]);
    else
      yv.push_back(d.y_value[i]);
  }
  training_set t{xtr, yc, d.classification() ? d.classes.size() : 0, yv};
  r.p = l.fit(t).predict(xte);
  return r;
}

double parse(const nlohmann::json& j) { return std::stod(j.get<std::string>()); }

TEST(Learners, AgreeWithScikitLearn) {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/validation/sklearn_learners.json");
  ASSERT_TRUE(f.good());
  const auto ref = nlohmann::json::parse(f);
  ASSERT_EQ(ref["sklearn"], "1.2.1");
  int cases = 0, compared_rows = 0;
  for (const auto& c : ref["cases"]) {
    const std::string spec = c["learner"], data = c["data"];
    SCOPED_TRACE(data + " " + spec);
    const auto d = load(data, c["target"]);
    std::vector<std::size_t> tr, te;
    for (std::size_t i = 0; i < d.rows; ++i) (i % 3 ? tr : te).push_back(i);
    const auto l = make_learner(spec, d.classification());
    const auto p = fit_predict(d, l, tr, te).p;
    const std::string name = spec.substr(0, spec.find(':'));
    // Tolerances: closed forms (naive Bayes, k-NN votes, the dummies) to rounding; least squares to
    // 1e-9 relative; logistic regression (iterative on both sides) to 1e-6 in probability.
    const double tol = name == "logistic" ? 1e-6 : name == "linear" || name == "ridge" ? 1e-9 : 1e-12;
    std::vector<bool> tie(te.size(), false);
    if (c.contains("tie")) tie = c["tie"].get<std::vector<bool>>();
    if (c.contains("value")) {
      ASSERT_EQ(p.value.size(), te.size());
      for (std::size_t i = 0; i < te.size(); ++i) {
        if (tie[i]) continue;
        const double want = parse(c["value"][i]);
        EXPECT_NEAR(p.value[i], want, tol * std::max(1.0, std::abs(want))) << "test row " << te[i];
        ++compared_rows;
      }
    } else {
      ASSERT_EQ(c["classes"].get<std::vector<std::string>>(), d.classes);
      ASSERT_EQ(p.proba.size(), te.size() * d.classes.size());
      for (std::size_t i = 0; i < te.size(); ++i) {
        if (tie[i]) continue;
        EXPECT_EQ(d.classes[static_cast<std::size_t>(p.cls[i])], c["pred"][i].get<std::string>()) << "row " << te[i];
        for (std::size_t k = 0; k < d.classes.size(); ++k)
          EXPECT_NEAR(p.proba[i * d.classes.size() + k], parse(c["proba"][i][k]), tol)
              << "row " << te[i] << " class " << k;
        ++compared_rows;
      }
    }
    ++cases;
  }
  EXPECT_EQ(cases, 24);
  EXPECT_GT(compared_rows, 2000);
}

TEST(Learners, TreeFitsTrainingDataAndRespectsLimits) {
  const auto d = load("iris", "species");
  std::vector<std::size_t> all(d.rows);
  for (std::size_t i = 0; i < d.rows; ++i) all[i] = i;
  // Unlimited depth fits the training data perfectly unless identical feature vectors carry
  // different classes; iris has one duplicated row, with the same class, so every row is right.
  auto full = fit_predict(d, make_learner("tree", true), all, all).p;
  std::size_t right = 0;
  for (std::size_t i = 0; i < d.rows; ++i) right += full.cls[i] == d.y_class[i];
  EXPECT_EQ(right, d.rows);
  // A stump splits iris once: petal length/width separates setosa exactly, so 100/150 right.
  auto stump = fit_predict(d, make_learner("tree:max_depth=1", true), all, all).p;
  right = 0;
  for (std::size_t i = 0; i < d.rows; ++i) right += stump.cls[i] == d.y_class[i];
  EXPECT_EQ(right, 100u);
  // Regression tree with min_samples_leaf = n/2 predicts at most two values.
  const auto r = load("diabetes", "progression");
  std::vector<std::size_t> rows(r.rows);
  for (std::size_t i = 0; i < r.rows; ++i) rows[i] = i;
  auto two = fit_predict(r, make_learner("tree:min_samples_leaf=221", false), rows, rows).p;
  std::vector<double> v = two.value;
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  EXPECT_EQ(v.size(), 2u);
}

TEST(Learners, PolynomialRegressionFitsAPolynomialExactly) {
  // y = 1 - 2x + 0.5x^3 on 12 points: degree 3 least squares reproduces it.
  std::string text = "x,y\n";
  for (int i = 0; i < 12; ++i) {
    const double x = -2 + 0.37 * i;
    text += fmt::format("{},{}\n", x, 1 - 2 * x + 0.5 * x * x * x);
  }
  const std::string path = ::testing::TempDir() + "poly.csv";
  std::ofstream(path) << text;
  dataset_request q;
  q.path = path;
  q.target = "y";
  q.task = task_type::regression;
  const auto d = read_dataset(q);
  std::vector<std::size_t> rows(12);
  for (std::size_t i = 0; i < 12; ++i) rows[i] = i;
  auto p = fit_predict(d, make_learner("linear:degree=3", false), rows, rows).p;
  for (std::size_t i = 0; i < 12; ++i) EXPECT_NEAR(p.value[i], d.y_value[i], 1e-9);
}

TEST(Learners, BadParametersAreUsageErrors) {
  auto expect_message = [](const std::string& spec, bool cls, const std::string& part) {
    try {
      make_learner(spec, cls);
      ADD_FAILURE() << spec << ": no error";
    } catch (const error& e) {
      EXPECT_EQ(e.kind(), error_kind::usage);
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_message("forest", true, "unknown learner 'forest'");
  expect_message("knn:kk=3", true, "unknown parameter 'kk' (parameters: k, weights, standardize)");
  expect_message("knn:k=0", true, "k = 0 is out of range");
  expect_message("knn:k=2.5", true, "not a whole number");
  expect_message("logistic:C=-1", true, "C = -1 is out of range");
  expect_message("logistic:C=abc", true, "\"abc\" is not a number");
  expect_message("knn:weights=cosine", true, "\"cosine\" is not one of uniform, distance");
  expect_message("ridge", true, "is for regression");
  expect_message("logistic", false, "is for classification");
  expect_message("knn:k", true, "is not key=value");
}

TEST(Learners, MissingValuesRefusedUnlessImputed) {
  const std::string path = ::testing::TempDir() + "missing.csv";
  std::ofstream(path) << "a,b,y\n1,x,0\n2,,1\n3,y,0\nNA,x,1\n5,y,1\n";
  dataset_request q;
  q.path = path;
  q.target = "y";
  const auto d = read_dataset(q);
  EXPECT_EQ(d.features[0].missing, 1u);
  EXPECT_TRUE(d.features[1].categorical);
  std::vector<std::size_t> rows{0, 1, 2, 3, 4};
  feature_encoder e;
  e.fit(d, rows, {});
  try {
    (void)e.transform(d, rows);
    FAIL() << "no error";
  } catch (const error& err) {
    EXPECT_EQ(err.kind(), error_kind::data);
    EXPECT_NE(std::string(err.what()).find("row 2: column 'b' is missing"), std::string::npos) << err.what();
  }
  encoder_options o;
  o.impute = impute_kind::mean;
  e.fit(d, rows, o);
  const auto m = e.transform(d, rows);
  ASSERT_EQ(m.cols, 3u);                             // a, b=x, b=y
  EXPECT_DOUBLE_EQ(m(3, 0), (1 + 2 + 3 + 5) / 4.0);  // training mean
  EXPECT_EQ(m(1, 1), 1.0);                           // most frequent level x (ties: the first level)
}

// Leakage: everything the encoder and the model learn comes from the training rows. Changing the
// test rows' features (even to absurd values) must not change the fitted scaling or the predictions
// for other, unchanged test rows.
TEST(Learners, PreprocessingSeesTrainingRowsOnly) {
  auto d = load("wine", "cultivar");
  std::vector<std::size_t> tr, te;
  for (std::size_t i = 0; i < d.rows; ++i) (i % 4 ? tr : te).push_back(i);
  for (const std::string spec : {"logistic", "knn", "gaussian_nb"}) {
    const auto l = make_learner(spec, true);
    auto a = fit_predict(d, l, tr, te);
    auto changed = d;
    for (std::size_t k = 0; k < te.size(); k += 2)
      for (auto& f : changed.features) f.numbers[te[k]] = 1e6;
    auto b = fit_predict(changed, l, tr, te);
    EXPECT_EQ(a.enc.centres(), b.enc.centres()) << spec;
    EXPECT_EQ(a.enc.scales(), b.enc.scales()) << spec;
    for (std::size_t k = 1; k < te.size(); k += 2) {
      for (std::size_t c = 0; c < 3; ++c) ASSERT_EQ(a.p.proba[k * 3 + c], b.p.proba[k * 3 + c]) << spec;
    }
    // And the training statistics are those of the training rows: the centre of column 0.
    double m = 0;
    for (auto i : tr) m += d.features[0].numbers[i];
    if (l.preprocessing().standardize) EXPECT_NEAR(a.enc.centres()[0], m / static_cast<double>(tr.size()), 1e-12);
  }
}

}  // namespace
}  // namespace assay::validation

namespace assay::validation {
namespace {

// The engine's fast path (a dense copy of all-numeric data) encodes exactly as the general one.
TEST(Learners, DenseFastPathEncodesIdentically) {
  const auto d = load("breast_cancer", "diagnosis");
  const matrix full = dense_features(d);
  ASSERT_EQ(full.rows, d.rows);
  std::vector<std::size_t> tr, te;
  for (std::size_t i = 0; i < d.rows; ++i) (i % 5 == 2 ? te : tr).push_back(i);
  for (bool standardize : {false, true}) {
    encoder_options o;
    o.standardize = standardize;
    feature_encoder slow, fast;
    slow.fit(d, tr, o);
    fast.fit(d, full, tr, o);
    EXPECT_EQ(slow.names(), fast.names());
    EXPECT_EQ(slow.transform(d, te).data, fast.transform(full, te).data);
    EXPECT_EQ(slow.transform(d, tr).data, fast.transform(full, tr).data);
  }
}

}  // namespace
}  // namespace assay::validation
