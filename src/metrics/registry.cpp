#include "assay/metrics/registry.hpp"

#include <limits>

#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/metrics/regression.hpp"

namespace assay {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// Traits shorthands: bounds, higher-is-better, symmetric.
constexpr metric_traits unit_up{0, 1, true, false};
constexpr metric_traits unit_up_sym{0, 1, true, true};
constexpr metric_traits unit_down{0, 1, false, false};
constexpr metric_traits unit_down_sym{0, 1, false, true};
constexpr metric_traits corr_sym{-1, 1, true, true};
constexpr metric_traits loss{0, inf, false, false};
constexpr metric_traits loss_sym{0, inf, false, true};

metric_info bin(std::string_view name, std::string_view title, metric_traits t,
                value (*f)(const binary_counts&, const metric_params&)) {
  metric_info m{name, title, metric_kind::binary, t};
  m.binary = f;
  return m;
}
metric_info multi(std::string_view name, std::string_view title, metric_traits t,
                  value (*f)(const confusion_matrix&, const metric_params&)) {
  metric_info m{name, title, metric_kind::multiclass, t};
  m.multiclass = f;
  return m;
}
metric_info prob(std::string_view name, std::string_view title, metric_traits t,
                 value (*f)(std::span<const std::int32_t>, proba_view, std::span<const double>, const metric_params&)) {
  metric_info m{name, title, metric_kind::probabilistic, t};
  m.probabilistic = f;
  return m;
}
metric_info reg(std::string_view name, std::string_view title, metric_traits t,
                value (*f)(std::span<const double>, std::span<const double>, std::span<const double>,
                           const metric_params&)) {
  metric_info m{name, title, metric_kind::regression, t};
  m.regression = f;
  return m;
}
// A regression metric that is a mean of row terms: `f` is mean_of_terms on `t` (regression.cpp), and
// the mergeable state computes it from `t` alone (the registry property test checks they agree).
metric_info mean_of(std::string_view name, std::string_view title, metric_traits traits,
                    value (*f)(std::span<const double>, std::span<const double>, std::span<const double>,
                               const metric_params&),
                    row_term t) {
  metric_info m = reg(name, title, traits, f);
  m.mean_of = t;
  return m;
}

row_term rooted(row_term t) {
  t.root = true;
  return t;
}

// Adapters from the plain functions to the registry signatures.
#define ASSAY_BIN(fn) [](const binary_counts& c, const metric_params&) { return fn(c); }
#define ASSAY_MC(fn) [](const confusion_matrix& c, const metric_params&) { return fn(c); }
#define ASSAY_REG(fn)                                                                                  \
  [](std::span<const double> y, std::span<const double> p, std::span<const double> w, const metric_params&) { \
    return fn(y, p, w);                                                                                \
  }

std::vector<metric_info> build() {
  std::vector<metric_info> r;
  // Binary (one positive class).
  r.push_back(bin("tp", "true positives", {0, inf, true, true}, [](const binary_counts& c, const metric_params&) { return value(c.tp); }));
  r.push_back(bin("fp", "false positives", {0, inf, false, false}, [](const binary_counts& c, const metric_params&) { return value(c.fp); }));
  r.push_back(bin("fn", "false negatives", {0, inf, false, false}, [](const binary_counts& c, const metric_params&) { return value(c.fn); }));
  r.push_back(bin("tn", "true negatives", {0, inf, true, true}, [](const binary_counts& c, const metric_params&) { return value(c.tn); }));
  r.push_back(bin("accuracy", "accuracy", unit_up_sym, ASSAY_BIN(accuracy)));
  r.push_back(bin("error_rate", "error rate", unit_down_sym, ASSAY_BIN(error_rate)));
  r.push_back(bin("prevalence", "prevalence", {0, 1, true, false}, ASSAY_BIN(prevalence)));
  r.push_back(bin("recall", "recall (TPR, sensitivity)", unit_up, ASSAY_BIN(recall)));
  r.push_back(bin("specificity", "specificity (TNR)", unit_up, ASSAY_BIN(specificity)));
  r.push_back(bin("fpr", "false-positive rate", unit_down, ASSAY_BIN(fpr)));
  r.push_back(bin("fnr", "false-negative rate", unit_down, ASSAY_BIN(fnr)));
  r.push_back(bin("precision", "precision (PPV)", unit_up, ASSAY_BIN(precision)));
  r.push_back(bin("npv", "negative predictive value", unit_up, ASSAY_BIN(npv)));
  r.push_back(bin("f1", "F1", unit_up_sym, ASSAY_BIN(f1)));
  r.push_back(bin("fbeta", "F-beta", unit_up, [](const binary_counts& c, const metric_params& p) { return fbeta(c, p.beta); }));
  r.push_back(bin("balanced_accuracy", "balanced accuracy", unit_up, ASSAY_BIN(balanced_accuracy)));
  r.push_back(bin("matthews_corrcoef", "Matthews correlation", corr_sym, ASSAY_BIN(matthews_corrcoef)));
  r.push_back(bin("cohen_kappa", "Cohen's kappa", {-1, 1, true, true}, ASSAY_BIN(cohen_kappa)));
  // Multiclass (any K).
  r.push_back(multi("accuracy", "accuracy", unit_up_sym, ASSAY_MC(accuracy)));
  r.push_back(multi("error_rate", "error rate", unit_down_sym, ASSAY_MC(error_rate)));
  r.push_back(multi("balanced_accuracy", "balanced accuracy", unit_up, ASSAY_MC(balanced_accuracy)));
  r.push_back(multi("matthews_corrcoef", "Matthews correlation", corr_sym, ASSAY_MC(matthews_corrcoef)));
  r.push_back(multi("cohen_kappa", "Cohen's kappa", {-1, 1, true, true}, ASSAY_MC(cohen_kappa)));
  r.push_back(multi("precision_micro", "precision, micro", unit_up_sym, [](const confusion_matrix& c, const metric_params&) { return micro_average(c).precision; }));
  r.push_back(multi("recall_micro", "recall, micro", unit_up_sym, [](const confusion_matrix& c, const metric_params&) { return micro_average(c).recall; }));
  r.push_back(multi("f1_micro", "F1, micro", unit_up_sym, [](const confusion_matrix& c, const metric_params&) { return micro_average(c).f1; }));
  r.push_back(multi("precision_macro", "precision, macro", unit_up, [](const confusion_matrix& c, const metric_params& p) { return macro_average(c, p.zd).precision; }));
  r.push_back(multi("recall_macro", "recall, macro", unit_up, [](const confusion_matrix& c, const metric_params& p) { return macro_average(c, p.zd).recall; }));
  r.push_back(multi("f1_macro", "F1, macro", unit_up_sym, [](const confusion_matrix& c, const metric_params& p) { return macro_average(c, p.zd).f1; }));
  r.push_back(multi("precision_weighted", "precision, weighted", unit_up, [](const confusion_matrix& c, const metric_params& p) { return weighted_average(c, p.zd).precision; }));
  r.push_back(multi("recall_weighted", "recall, weighted", unit_up_sym, [](const confusion_matrix& c, const metric_params& p) { return weighted_average(c, p.zd).recall; }));
  r.push_back(multi("f1_weighted", "F1, weighted", unit_up, [](const confusion_matrix& c, const metric_params& p) { return weighted_average(c, p.zd).f1; }));
  // Probabilistic.
  r.push_back(prob("log_loss", "log loss", loss, [](std::span<const std::int32_t> y, proba_view p, std::span<const double> w, const metric_params&) { return log_loss(y, p, w); }));
  r.push_back(prob("brier_score_loss", "Brier score", {0, 2, false, false}, [](std::span<const std::int32_t> y, proba_view p, std::span<const double> w, const metric_params&) { return brier_score(y, p, w); }));
  r.push_back(prob("top_k_accuracy", "top-k accuracy", unit_up, [](std::span<const std::int32_t> y, proba_view p, std::span<const double> w, const metric_params& m) { return top_k_accuracy(y, p, m.k, w); }));
  // Ranking (binary truth and a score; see include/assay/curves/).
  {
    metric_info m{"roc_auc", "ROC AUC", metric_kind::ranking, unit_up};
    m.ranking = [](std::span<const std::int32_t> y, std::span<const double> s, std::span<const double> w,
                   const metric_params&) { return curves::roc_auc(y, s, w); };
    r.push_back(m);
    m = {"average_precision", "average precision", metric_kind::ranking, unit_up};
    m.ranking = [](std::span<const std::int32_t> y, std::span<const double> s, std::span<const double> w,
                   const metric_params&) { return curves::average_precision(y, s, w); };
    r.push_back(m);
  }
  // Regression.
  r.push_back(reg("mean_absolute_error", "mean absolute error (MAE)", loss_sym, ASSAY_REG(mean_absolute_error)));
  r.push_back(reg("mean_squared_error", "mean squared error (MSE)", loss_sym, ASSAY_REG(mean_squared_error)));
  r.push_back(reg("root_mean_squared_error", "root mean squared error (RMSE)", loss_sym, ASSAY_REG(root_mean_squared_error)));
  r.push_back(mean_of("mean_absolute_percentage_error", "mean absolute percentage error (MAPE)", loss,
                      ASSAY_REG(mean_absolute_percentage_error), absolute_percentage_term));
  r.push_back(mean_of("mean_squared_percentage_error", "mean squared percentage error (MSPE)", loss,
                      ASSAY_REG(mean_squared_percentage_error), squared_percentage_term));
  r.push_back(mean_of("root_mean_squared_percentage_error", "root mean squared percentage error (RMSPE)", loss,
                      ASSAY_REG(root_mean_squared_percentage_error), rooted(squared_percentage_term)));
  r.push_back(reg("r2", "R^2 (coefficient of determination)", {-inf, 1, true, false}, ASSAY_REG(r2)));
  r.push_back(reg("explained_variance", "explained variance", {-inf, 1, true, false}, ASSAY_REG(explained_variance)));
  r.push_back(reg("median_absolute_error", "median absolute error", loss_sym, ASSAY_REG(median_absolute_error)));
  r.push_back(reg("max_error", "max error", loss_sym, ASSAY_REG(max_error)));
  r.push_back(mean_of("mean_poisson_deviance", "mean Poisson deviance", loss, ASSAY_REG(mean_poisson_deviance),
                      poisson_deviance_term));
  r.push_back(mean_of("mean_gamma_deviance", "mean Gamma deviance", loss, ASSAY_REG(mean_gamma_deviance),
                      gamma_deviance_term));
  return r;
}

#undef ASSAY_BIN
#undef ASSAY_MC
#undef ASSAY_REG

}  // namespace

const std::vector<metric_info>& metric_registry() {
  static const std::vector<metric_info> r = build();
  return r;
}

const metric_info* find_metric(std::string_view name, metric_kind kind) {
  for (const auto& m : metric_registry()) {
    if (m.name == name && m.kind == kind) return &m;
  }
  return nullptr;
}

}  // namespace assay
