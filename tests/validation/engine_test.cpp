// Cross-validation engine: seed 000's worked example (pooled 73/100), agreement with scikit-learn's
// cross_val_score on the same folds, thread-count independence, out-of-fold predictions accepted by
// `assay report`, learning curves and bad input.
#include "assay/validation/engine.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "assay/error.hpp"
#include "assay/stats/learner_tests.hpp"
#include "assay/threads.hpp"
#include "assay/validation/learning_curve.hpp"
#include "assay/validation/split_plan.hpp"
#include "validation/cli_util.hpp"

namespace assay::validation {
namespace {

// A learner for tests: predicts the true class where the feature `right` is 1 and the other class
// where it is 0 (it reads the answer from the features, so the counts of correct predictions per
// fold are fixed by the data).
struct scripted_learner {
  struct fitted {
    [[nodiscard]] predictions predict(const matrix& x) const {
      predictions p;
      for (std::size_t i = 0; i < x.rows; ++i) {
        const auto y = static_cast<std::int32_t>(x(i, 1));
        p.cls.push_back(x(i, 0) == 1 ? y : 1 - y);
      }
      return p;
    }
  };
  [[nodiscard]] fitted fit(const training_set&) const { return {}; }
};
static_assert(learner<scripted_learner>);

dataset scripted_data(const std::vector<int>& fold_size, const std::vector<int>& correct) {
  dataset d;
  d.source = "scripted";
  d.target_name = "y";
  d.classes = {"0", "1"};
  feature_column right{"right", false, {}, {}, {}, 0}, label{"label", false, {}, {}, {}, 0};
  for (std::size_t f = 0; f < fold_size.size(); ++f) {
    for (int i = 0; i < fold_size[f]; ++i) {
      const int y = i % 2;
      d.y_class.push_back(y);
      label.numbers.push_back(y);
      right.numbers.push_back(i < correct[f] ? 1 : 0);
    }
  }
  d.rows = d.y_class.size();
  d.features = {right, label};
  return d;
}

// Seed 000: 100 instances, 5 folds of 20 with 11, 17, 16, 13, 16 correct: accuracy 73/100.
TEST(Engine, Seed000PooledAccuracy) {
  const auto d = scripted_data({20, 20, 20, 20, 20}, {11, 17, 16, 13, 16});
  const auto r = cross_validate(d, any_learner("scripted", scripted_learner{}), kfold(100, 5), {{"accuracy"}});
  ASSERT_EQ(r.folds.size(), 5u);
  EXPECT_DOUBLE_EQ(r.folds[0].test[0].v, 11.0 / 20);
  EXPECT_DOUBLE_EQ(r.folds[1].test[0].v, 17.0 / 20);
  EXPECT_DOUBLE_EQ(r.summary[0].pooled.v, 0.73);
  EXPECT_DOUBLE_EQ(r.summary[0].mean.v, 0.73);  // equal folds: the mean of fold accuracies is the same
  // sd of (0.55, 0.85, 0.80, 0.65, 0.80), n - 1 denominator.
  EXPECT_NEAR(r.summary[0].sd.v, std::sqrt((0.0324 + 0.0144 + 0.0049 + 0.0064 + 0.0049) / 4), 1e-12);
}

// With unequal folds the mean of fold accuracies and the pooled accuracy differ: folds of 10 and 40
// cases with 10 and 20 right give mean (1 + 0.5) / 2 = 0.75 but pooled 30/50 = 0.6.
TEST(Engine, MeanOfFoldsVersusPooled) {
  const auto d = scripted_data({10, 40}, {10, 20});
  split_list s(2);
  for (std::size_t i = 0; i < 50; ++i) {
    s[0].train.push_back(i);
    s[1].train.push_back(i);
  }
  s[0].train.erase(s[0].train.begin(), s[0].train.begin() + 10);
  s[0].test = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  s[1].train.resize(10);
  for (std::size_t i = 10; i < 50; ++i) s[1].test.push_back(i);
  const auto r = cross_validate(d, any_learner("scripted", scripted_learner{}), s, {{"accuracy"}});
  EXPECT_DOUBLE_EQ(r.summary[0].mean.v, 0.75);
  EXPECT_DOUBLE_EQ(r.summary[0].pooled.v, 0.6);
}

dataset load(const std::string& name, const std::string& target) {
  dataset_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/data/" + name + ".csv";
  q.target = target;
  q.task = name == "diabetes" ? task_type::regression : task_type::classification;
  return read_dataset(q);
}

TEST(Engine, EqualsScikitLearnCrossValScore) {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/validation/sklearn_learners.json");
  const auto ref = nlohmann::json::parse(f);
  int runs = 0;
  for (const auto& c : ref["cv"]) {
    const std::string data = c["data"], spec = c["learner"], metric = c["metric"];
    SCOPED_TRACE(data + " " + spec + " " + metric);
    const auto d = load(data, c["target"]);
    split_request q;
    q.method = d.classification() ? "stratified-kfold" : "kfold";
    const auto splits = make_splits(q, d.rows, d.y_class, d.y_value, {}, "");
    cv_options o;
    o.metrics = {metric};
    const auto r = cross_validate(d, make_learner(spec, d.classification()), splits, o);
    ASSERT_EQ(r.folds.size(), c["folds"].size());
    for (std::size_t k = 0; k < r.folds.size(); ++k) {
      const double want = std::stod(c["folds"][k].get<std::string>());
      EXPECT_NEAR(r.folds[k].test[0].v, want, 1e-9 * std::max(1.0, std::abs(want))) << "fold " << k;
    }
    ++runs;
  }
  EXPECT_EQ(runs, 7);
}

TEST(Engine, SameResultWhateverTheThreadCount) {
  const auto d = load("wine", "cultivar");
  const auto splits = repeated_kfold(d.rows, 5, 3, 42, d.y_class);
  assay::set_max_threads(8);  // four lanes even on a smaller machine
  for (const std::string spec : {"logistic", "knn", "tree"}) {
    cv_options one, many;
    one.threads = 1;
    many.threads = 4;
    const auto l = make_learner(spec, true);
    const auto a = cross_validate(d, l, splits, one), b = cross_validate(d, l, splits, many);
    EXPECT_EQ(b.threads, 4u);
    ASSERT_EQ(a.oof.size(), b.oof.size());
    for (std::size_t i = 0; i < a.oof.size(); ++i) {
      ASSERT_EQ(a.oof[i].row, b.oof[i].row);
      ASSERT_EQ(a.oof[i].cls, b.oof[i].cls);
      ASSERT_EQ(a.oof[i].proba, b.oof[i].proba) << spec;  // bitwise
    }
    for (std::size_t m = 0; m < a.summary.size(); ++m) EXPECT_EQ(a.summary[m].mean.v, b.summary[m].mean.v);
  }
  assay::set_max_threads(0);
}

// The interval of the text and JSON outputs is stats::corrected_resampled_interval of the split values.
TEST(Engine, CorrectedIntervalOfTheMean) {
  const auto d = load("wine", "cultivar");
  const auto splits = repeated_kfold(d.rows, 5, 2, 7, d.y_class);
  const auto r = cross_validate(d, make_learner("knn", true), splits, {});
  std::vector<double> x;
  double tr = 0, te = 0;
  for (const auto& f : r.folds) x.push_back(f.test[0].v), tr += f.train_rows, te += f.test_rows;
  const auto want = assay::stats::corrected_resampled_interval(x, tr, te);
  const auto [lo, hi] = corrected_mean_interval(r, 0);
  EXPECT_EQ(lo.v, want.lower);
  EXPECT_EQ(hi.v, want.upper);
  EXPECT_LT(lo.v, r.summary[0].mean.v);
  const auto j = nlohmann::json::parse(to_json(r));
  EXPECT_EQ(j["summary"][r.summary[0].name]["mean_ci_95"][0].get<double>(), want.lower);
  EXPECT_NE(to_text(r).find("95% interval"), std::string::npos);
}

TEST(Engine, BadInput) {
  const auto d = load("iris", "species");
  const auto splits = kfold(d.rows, 5);
  cv_options o;
  o.metrics = {"rmse"};
  try {
    cross_validate(d, make_learner("majority", true), splits, o);
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::usage);
    EXPECT_NE(std::string(e.what()).find("'rmse' is not a metric for this multiclass task"), std::string::npos);
  }
  o.metrics = {};
  o.pos_label = "nope";
  const auto b = load("breast_cancer", "diagnosis");
  EXPECT_THROW(cross_validate(b, make_learner("majority", true), kfold(b.rows, 5), o), error);
  // Text labels: the positive class is named or refused, as assay report does (decide_classes), unless
  // every metric asked for reads no positive class.
  o.pos_label.reset();
  try {
    cross_validate(b, make_learner("majority", true), kfold(b.rows, 5), o);
    FAIL();
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot tell which class is positive among \"benign\", \"malignant\""),
              std::string::npos)
        << e.what();
  }
  o.metrics = {"accuracy", "matthews_corrcoef", "log_loss"};
  const auto no_positive = cross_validate(b, make_learner("majority", true), kfold(b.rows, 5), o);
  EXPECT_FALSE(no_positive.positive.has_value());
  o.metrics = {"accuracy", "f1"};
  EXPECT_THROW(cross_validate(b, make_learner("majority", true), kfold(b.rows, 5), o), error);
  o.pos_label = "malignant";
  const auto named = cross_validate(b, make_learner("majority", true), kfold(b.rows, 5), o);
  ASSERT_TRUE(named.positive.has_value());
  EXPECT_EQ(named.classes[*named.positive], "malignant");
  o.metrics = {};
  o.pos_label.reset();
  // A learner failure names the split: k-NN with more neighbours than training rows.
  try {
    cross_validate(d, make_learner("knn:k=140", true), splits, {});
    FAIL();
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("split 1 (of 5): learner knn: k = 140 is more than the 120 training rows"),
              std::string::npos)
        << e.what();
  }
}

TEST(Engine, LearningCurveGrowsAndNests) {
  const auto d = load("breast_cancer", "diagnosis");
  learning_curve_options o;
  o.sizes = {0.1, 0.5, 1.0};
  o.cv.metrics = {"accuracy"};
  const auto r = learning_curve(d, make_learner("logistic", true), stratified_kfold(d.y_class, 5), o);
  ASSERT_EQ(r.points.size(), 3u);
  EXPECT_EQ(r.points[0].train_rows, 46u);  // round(0.1 * 455.2)
  EXPECT_EQ(r.points[2].train_rows, 455u);
  // At share 1 the test score is the plain cross-validation score.
  const auto full = cross_validate(d, make_learner("logistic", true), stratified_kfold(d.y_class, 5), o.cv);
  EXPECT_DOUBLE_EQ(r.points[2].test[0].mean.v, full.summary[0].mean.v);
  // More data, better test accuracy on this problem (0.1 -> 1.0 gains several points).
  EXPECT_GT(r.points[2].test[0].mean.v, r.points[0].test[0].mean.v);
  EXPECT_GE(r.points[0].train[0].mean.v, r.points[0].test[0].mean.v);
  const auto svg = to_svg(r);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace assay::validation

namespace assay::test {
namespace {

TEST(CvCli, OutOfFoldPredictionsFeedAssayReport) {
  const auto oof = temp_path("oof.csv");
  auto r = run_assay("cv " + data_path("iris.csv") +
                     " --target species --learner knn --format json --oof-predictions " + oof);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto cv = nlohmann::json::parse(r.out);
  const double pooled = cv["summary"]["accuracy"]["pooled"];
  auto rep = run_assay("report " + oof + " --label species --pred pred --format json");
  ASSERT_EQ(rep.code, 0) << rep.out;
  EXPECT_NE(rep.out.find("\"accuracy\""), std::string::npos);
  const auto j = nlohmann::json::parse(rep.out);
  bool found = false;
  std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& x) {
    if (x.is_object()) {
      for (auto it = x.begin(); it != x.end(); ++it) {
        if (it.key() == "accuracy" && it.value().is_number()) {
          EXPECT_DOUBLE_EQ(it.value().get<double>(), pooled);
          found = true;
        } else {
          walk(it.value());
        }
      }
    } else if (x.is_array()) {
      for (const auto& e : x) walk(e);
    }
  };
  walk(j);
  EXPECT_TRUE(found) << rep.out;
  // The probability columns are accepted too.
  rep = run_assay("report " + oof + " --label species --proba setosa versicolor virginica");
  EXPECT_EQ(rep.code, 0) << rep.out;
  std::filesystem::remove(oof);
}

TEST(CvCli, ErrorsNameTheProblem) {
  auto r = run_assay("cv " + data_path("iris.csv") + " --target species --learner knn:k=0");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("assay cv: learner knn: parameter k = 0 is out of range"), std::string::npos) << r.out;
  // The whole message: the command once, the option, the file, the rule and the value.
  r = run_assay("cv " + data_path("iris.csv") + " --target nosuch");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "assay cv: --target: " + data_path("iris.csv") +
                       ": no column named 'nosuch' (columns: sepal_length, sepal_width, petal_length, petal_width, "
                       "species)\n");
  r = run_assay("learning-curve " + data_path("iris.csv") + " --target species --group nosuch");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out.rfind("assay learning-curve: --group: ", 0), 0U) << r.out;
  r = run_assay("cv " + data_path("iris.csv") + " --target species --folds 200");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("200 folds"), std::string::npos) << r.out;
  const auto data = temp_path("nan.csv");
  write_file(data, "a,b,y\n1,2,0\n2,NaN,1\n3,4,0\n4,5,1\n5,6,0\n6,7,1\n");
  r = run_assay("cv " + data + " --target y --learner gaussian_nb --folds 2");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.out.find("column 'b' is missing or NaN"), std::string::npos) << r.out;
  r = run_assay("cv " + data + " --target y --learner gaussian_nb --folds 2 --impute mean");
  EXPECT_EQ(r.code, 0) << r.out;
  // Constant features are fine.
  write_file(data, "a,b,y\n1,1,0\n1,1,1\n1,1,0\n1,1,1\n1,1,0\n1,1,1\n");
  for (const char* l : {"gaussian_nb", "logistic", "knn:k=2", "tree"}) {
    r = run_assay("cv " + data + " --target y --folds 3 --learner " + std::string(l));
    EXPECT_EQ(r.code, 0) << l << r.out;
  }
  // A class with fewer cases than folds: a note, as scikit-learn warns.
  write_file(data, "a,y\n1,0\n2,0\n3,0\n4,0\n5,1\n6,1\n7,0\n8,0\n");
  r = run_assay("cv " + data + " --target y --folds 3");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("class '1' has 2 cases, fewer than the 3 folds"), std::string::npos) << r.out;
  std::filesystem::remove(data);
}

}  // namespace
}  // namespace assay::test
