// The learners by name, with their parameters: what `assay learners` lists and `--learner` parses.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/validation/learners.hpp"
#include "assay/validation/xgboost.hpp"

namespace assay::validation {

const std::vector<learner_info>& learner_catalog() {
  static const std::vector<learner_info> c{
      {"majority",
       "Majority class (probabilities: training class shares) / training mean; the baseline",
       true,
       true,
       {}},
      {"gaussian_nb",
       "Gaussian naive Bayes",
       true,
       false,
       {{"var_smoothing", "1e-9", "added variance, as a share of the largest feature variance (>= 0)"}}},
      {"logistic",
       "L2 logistic regression, binary or multinomial (Newton's method)",
       true,
       false,
       {{"C", "1", "inverse penalty strength (> 0): minimises C * sum log-loss + |w|^2 / 2"},
        {"max_iter", "100", "Newton iterations (>= 1)"},
        {"tol", "1e-8", "stop when the largest gradient entry is below this (> 0)"},
        {"standardize", "true", "scale numeric features to mean 0, sd 1 (fitted on the training part)"}}},
      {"knn",
       "k-nearest neighbours (Euclidean), vote or mean",
       true,
       true,
       {{"k", "5", "number of neighbours (>= 1)"},
        {"weights", "uniform", "uniform or distance (1/d)"},
        {"standardize", "true", "scale numeric features to mean 0, sd 1 (fitted on the training part)"}}},
      {"tree",
       "CART decision tree (Gini / squared error)",
       true,
       true,
       {{"max_depth", "0", "largest depth, 0 = unlimited"},
        {"min_samples_split", "2", "smallest node that may be split (>= 2)"},
        {"min_samples_leaf", "1", "smallest leaf (>= 1)"}}},
      {"linear",
       "Least squares with intercept; polynomial with degree > 1",
       false,
       true,
       {{"degree", "1", "add powers x^2..x^degree of numeric features (>= 1)"},
        {"standardize", "false", "scale numeric features first"}}},
      {"ridge",
       "Ridge regression: least squares + alpha |w|^2",
       false,
       true,
       {{"alpha", "1", "penalty (>= 0)"},
        {"degree", "1", "add powers x^2..x^degree of numeric features (>= 1)"},
        {"standardize", "false", "scale numeric features first"}}},
      {"xgboost",
       "Gradient-boosted trees (xgboost C API; needs a build with libxgboost-dev)",
       true,
       true,
       {{"n_estimators", "100", "boosting rounds (>= 1)"},
        {"max_depth", "6", "depth of each tree (>= 1)"},
        {"learning_rate", "0.3", "shrinkage eta (> 0, <= 1)"},
        {"reg_lambda", "1", "L2 penalty on leaf weights (>= 0)"},
        {"min_child_weight", "1", "smallest hessian sum in a leaf (>= 0)"}}},
  };
  return c;
}

namespace {

struct param_reader {
  std::string learner;
  std::map<std::string, std::string> given;
  std::vector<std::string> known;

  std::string raw(const std::string& key, const std::string& def) {
    known.push_back(key);
    auto it = given.find(key);
    return it == given.end() ? def : it->second;
  }
  double number(const std::string& key, double def, double lo, double hi, bool open_lo = false) {
    const std::string s = raw(key, "");
    if (s.empty()) return def;
    double v;
    if (!io::parse_double(s, v) || !std::isfinite(v)) {
      throw_usage(fmt::format("learner {}: parameter {}: \"{}\" is not a number", learner, key, s));
    }
    if (v < lo || v > hi || (open_lo && v == lo)) {
      throw_usage(fmt::format("learner {}: parameter {} = {} is out of range ({}{}, {}])", learner, key, s,
                              open_lo ? "(" : "[", lo, hi));
    }
    return v;
  }
  std::size_t count(const std::string& key, std::size_t def, std::size_t lo) {
    const double v = number(key, static_cast<double>(def), static_cast<double>(lo), 1e15);
    if (v != std::floor(v))
      throw_usage(fmt::format("learner {}: parameter {} = {} is not a whole number", learner, key, v));
    return static_cast<std::size_t>(v);
  }
  bool flag(const std::string& key, bool def) {
    const std::string s = raw(key, def ? "true" : "false");
    if (s == "true" || s == "1" || s == "yes") return true;
    if (s == "false" || s == "0" || s == "no") return false;
    throw_usage(fmt::format("learner {}: parameter {}: \"{}\" is not true or false", learner, key, s));
  }
  std::string choice(const std::string& key, const std::string& def, const std::vector<std::string>& allowed) {
    const std::string s = raw(key, def);
    if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
      throw_usage(
          fmt::format("learner {}: parameter {}: \"{}\" is not one of {}", learner, key, s, fmt::join(allowed, ", ")));
    }
    return s;
  }
  void finish() const {
    for (const auto& [k, v] : given) {
      if (std::find(known.begin(), known.end(), k) == known.end()) {
        throw_usage(fmt::format("learner {}: unknown parameter '{}' (parameters: {})", learner, k,
                                known.empty() ? std::string("none") : fmt::format("{}", fmt::join(known, ", "))));
      }
    }
  }
};

}  // namespace

any_learner make_learner(const std::string& spec, bool classification) {
  const auto colon = spec.find(':');
  param_reader p;
  p.learner = spec.substr(0, colon);
  if (colon != std::string::npos) {
    std::string rest = spec.substr(colon + 1);
    std::size_t pos = 0;
    while (pos <= rest.size()) {
      auto comma = rest.find(',', pos);
      if (comma == std::string::npos) comma = rest.size();
      const std::string item = rest.substr(pos, comma - pos);
      pos = comma + 1;
      if (item.empty()) continue;
      const auto eq = item.find('=');
      if (eq == std::string::npos || eq == 0) {
        throw_usage(fmt::format("learner {}: \"{}\" is not key=value", p.learner, item));
      }
      if (!p.given.emplace(item.substr(0, eq), item.substr(eq + 1)).second) {
        throw_usage(fmt::format("learner {}: parameter {} given twice", p.learner, item.substr(0, eq)));
      }
    }
  }
  const auto& cat = learner_catalog();
  auto info = std::find_if(cat.begin(), cat.end(), [&](const learner_info& i) { return i.name == p.learner; });
  if (info == cat.end()) {
    std::vector<std::string> names;
    for (const auto& i : cat) names.push_back(i.name);
    throw_usage(fmt::format("unknown learner '{}' (learners: {})", p.learner, fmt::join(names, ", ")));
  }
  if (classification && !info->classification) {
    throw_usage(fmt::format("learner {} is for regression, but the target is a class", p.learner));
  }
  if (!classification && !info->regression) {
    throw_usage(
        fmt::format("learner {} is for classification, but the target is numeric (use {} classification "
                    "if it is a class)",
                    p.learner, param("task")));
  }
  const std::string& n = p.learner;
  encoder_options pre;
  auto result = [&]() -> any_learner {
    if (n == "majority") return any_learner(n, majority_learner{}, pre);
    if (n == "gaussian_nb") return any_learner(n, gaussian_nb_learner{p.number("var_smoothing", 1e-9, 0, 1e300)}, pre);
    if (n == "logistic") {
      logistic_learner l;
      l.c = p.number("C", 1, 0, 1e300, true);
      l.max_iter = p.count("max_iter", 100, 1);
      l.tol = p.number("tol", 1e-8, 0, 1, true);
      pre.standardize = p.flag("standardize", true);
      return any_learner(n, l, pre);
    }
    if (n == "knn") {
      knn_learner l;
      l.k = p.count("k", 5, 1);
      l.distance_weights = p.choice("weights", "uniform", {"uniform", "distance"}) == "distance";
      pre.standardize = p.flag("standardize", true);
      return any_learner(n, l, pre);
    }
    if (n == "tree") {
      tree_learner l;
      l.max_depth = p.count("max_depth", 0, 0);
      l.min_samples_split = p.count("min_samples_split", 2, 2);
      l.min_samples_leaf = p.count("min_samples_leaf", 1, 1);
      return any_learner(n, l, pre);
    }
    if (n == "xgboost") {
      if (!xgboost_available()) {
        throw_usage("learner xgboost: this assay was built without xgboost (install libxgboost-dev and rebuild)");
      }
      xgboost_learner l;
      l.n_estimators = p.count("n_estimators", 100, 1);
      l.max_depth = p.count("max_depth", 6, 1);
      l.learning_rate = p.number("learning_rate", 0.3, 0, 1, true);
      l.reg_lambda = p.number("reg_lambda", 1, 0, 1e300);
      l.min_child_weight = p.number("min_child_weight", 1, 0, 1e300);
      return any_learner(n, l, pre);
    }
    linear_learner l;
    l.alpha = n == "ridge" ? p.number("alpha", 1, 0, 1e300) : 0.0;
    pre.degree = p.count("degree", 1, 1);
    pre.standardize = p.flag("standardize", false);
    return any_learner(n, l, pre);
  }();
  p.finish();
  return result;
}

}  // namespace assay::validation
