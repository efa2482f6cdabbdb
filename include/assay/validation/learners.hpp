// assay: learners. A learner is trained on a training set and returns a model that predicts a
// matrix of encoded features (features.hpp). The C++20 concepts `model` and `learner` state the
// contract; `any_learner` erases the type so that the engine and the command line can pick a
// learner by name ("knn:k=3,weights=distance").
//
// Built-in reference learners (parameters and defaults in learner_catalog(), docs/validation.md):
//   majority     majority class / mean (scikit-learn's DummyClassifier(strategy="prior"), DummyRegressor)
//   gaussian_nb  Gaussian naive Bayes (scikit-learn's GaussianNB)
//   logistic     L2 logistic regression, binary or multinomial (scikit-learn's LogisticRegression)
//   knn          k-nearest neighbours, classification or regression (KNeighborsClassifier/Regressor)
//   tree         CART decision tree, Gini or squared error (Breiman et al. 1984; DecisionTree*)
//   linear       least squares, optionally polynomial (LinearRegression)
//   ridge        ridge regression (scikit-learn's Ridge)
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "assay/validation/features.hpp"

namespace assay::validation {

/// The training part as a learner sees it.
struct training_set {
  const matrix& x;
  std::span<const std::int32_t> y_class;  ///< classification: class index in [0, classes)
  std::size_t classes = 0;                ///< number of classes of the whole data set (0 = regression)
  std::span<const double> y_value;        ///< regression target
  [[nodiscard]] bool classification() const noexcept { return classes > 0; }
};

/// What a model returns for a matrix of cases.
struct predictions {
  std::vector<std::int32_t> cls;  ///< classification: predicted class index
  std::vector<double> value;      ///< regression: predicted value
  /// Classification: rows x classes probabilities (row-major), empty when the model has none.
  std::vector<double> proba;
};

template <class M>
concept model = requires(const M& m, const matrix& x) {
  { m.predict(x) } -> std::same_as<predictions>;
};

template <class L>
concept learner = requires(const L& l, const training_set& t) {
  { l.fit(t) } -> model;
};

/// A type-erased fitted model.
class any_model {
 public:
  template <model M>
  explicit any_model(M m) : impl_(std::make_shared<const M>(std::move(m))) {
    predict_ = [](const void* p, const matrix& x) { return static_cast<const M*>(p)->predict(x); };
  }
  [[nodiscard]] predictions predict(const matrix& x) const { return predict_(impl_.get(), x); }

 private:
  std::shared_ptr<const void> impl_;
  predictions (*predict_)(const void*, const matrix&);
};

/// A type-erased learner with the preprocessing it wants.
class any_learner {
 public:
  template <learner L>
  any_learner(std::string name, L l, encoder_options pre = {})
      : name_(std::move(name)),
        pre_(pre),
        fit_([l = std::move(l)](const training_set& t) { return any_model(l.fit(t)); }) {}
  [[nodiscard]] any_model fit(const training_set& t) const { return fit_(t); }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] const encoder_options& preprocessing() const noexcept { return pre_; }
  encoder_options& preprocessing() noexcept { return pre_; }

 private:
  std::string name_;
  encoder_options pre_;
  std::function<any_model(const training_set&)> fit_;
};

// ---- the built-in learners ---------------------------------------------------------------------

/// Majority class: predicts the most frequent training class (ties: the lowest class index) with
/// the training class frequencies as probabilities; for regression, the training mean.
struct majority_learner {
  struct fitted {
    std::int32_t cls = 0;
    double mean = 0;
    std::vector<double> prior;
    [[nodiscard]] predictions predict(const matrix& x) const;
  };
  [[nodiscard]] fitted fit(const training_set& t) const;
};

/// Gaussian naive Bayes: log P(c) + sum_j log N(x_j; mu_cj, s2_cj + eps), eps = var_smoothing *
/// max_j Var(x_j) (population variances), probabilities by normalising the exponentials (as
/// scikit-learn's GaussianNB). Classes absent from the training part get probability 0.
struct gaussian_nb_learner {
  double var_smoothing = 1e-9;
  struct fitted {
    std::size_t classes = 0, d = 0;
    std::vector<double> log_prior, mean, var;  // class-major
    [[nodiscard]] predictions predict(const matrix& x) const;
  };
  [[nodiscard]] fitted fit(const training_set& t) const;
};

/// L2-penalised logistic regression minimising C sum_i log-loss_i + ||W||^2 / 2 with an unpenalised
/// intercept: scikit-learn's LogisticRegression(penalty="l2", C) objective; binary (one weight
/// vector, sigmoid) for two training classes, multinomial (softmax over K weight vectors) for more.
/// Solved by Newton's method with backtracking until the largest gradient entry is below `tol`.
struct logistic_learner {
  double c = 1.0;
  std::size_t max_iter = 100;
  double tol = 1e-8;
  struct fitted {
    std::size_t classes = 0, d = 0;
    std::vector<std::int32_t> present;  // training classes, the columns of w
    std::vector<double> w;              // (d + 1) per present class (binary: one vector), intercept last
    [[nodiscard]] predictions predict(const matrix& x) const;
  };
  [[nodiscard]] fitted fit(const training_set& t) const;
};

/// k-nearest neighbours in Euclidean distance (ties in distance: the earlier training row first).
/// Classification: majority vote (ties: the lowest class index), probabilities = vote shares;
/// regression: mean of the neighbours' targets. weights "distance" weighs by 1/d (exact matches
/// take all the weight), as scikit-learn's KNeighbors*(weights="distance").
struct knn_learner {
  std::size_t k = 5;
  bool distance_weights = false;
  struct fitted {
    std::size_t k = 5, classes = 0;
    bool distance_weights = false;
    matrix x;
    std::vector<std::int32_t> y_class;
    std::vector<double> y_value;
    [[nodiscard]] predictions predict(const matrix& q) const;
  };
  [[nodiscard]] fitted fit(const training_set& t) const;
};

/// CART (Breiman et al. 1984): binary splits x_j <= threshold (midpoints between sorted distinct
/// values) chosen greedily to minimise the weighted Gini impurity (classification) or squared error
/// (regression) of the children; features scanned in order, the first best split kept. Leaves
/// predict the majority class with class shares as probabilities, or the mean.
struct tree_learner {
  std::size_t max_depth = 0;  ///< 0 = unlimited
  std::size_t min_samples_split = 2;
  std::size_t min_samples_leaf = 1;
  struct node {
    std::int32_t feature = -1;  // -1 = leaf
    double threshold = 0;
    std::int32_t left = -1, right = -1;
    std::vector<double> dist;  // leaf: class shares, or {mean}
  };
  struct fitted {
    std::size_t classes = 0;
    std::vector<node> nodes;
    [[nodiscard]] predictions predict(const matrix& x) const;
  };
  [[nodiscard]] fitted fit(const training_set& t) const;
};

/// Linear least squares with intercept, y = b + x'w, minimising ||y - b - Xw||^2 + alpha ||w||^2
/// (alpha = 0: ordinary least squares, the minimum-norm solution when X is rank deficient, as
/// scikit-learn's LinearRegression; alpha > 0: scikit-learn's Ridge). Regression only.
struct linear_learner {
  double alpha = 0;
  struct fitted {
    std::vector<double> w;
    double b = 0;
    [[nodiscard]] predictions predict(const matrix& x) const;
  };
  [[nodiscard]] fitted fit(const training_set& t) const;
};

static_assert(learner<majority_learner> && learner<gaussian_nb_learner> && learner<logistic_learner> &&
              learner<knn_learner> && learner<tree_learner> && learner<linear_learner>);

/// A learner's parameter, for `assay learners` and the docs.
struct learner_param {
  std::string name, default_value, description;
};
struct learner_info {
  std::string name, description;
  bool classification = false, regression = false;
  std::vector<learner_param> params;
};
const std::vector<learner_info>& learner_catalog();

/// Builds a learner from "name" or "name:key=value,key=value". Throws a usage error naming the
/// learner, parameter and value for an unknown learner or parameter, or a value out of range, and
/// when the learner cannot do the task (classification = true for a class target).
any_learner make_learner(const std::string& spec, bool classification);

}  // namespace assay::validation
