// assay: the metric registry. One table of every metric the report can compute, with its traits;
// the CLI, the tests (properties are checked over every entry) and future bindings all read it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "assay/data/classes.hpp"
#include "assay/metrics/classification.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/metrics/regression.hpp"
#include "assay/value.hpp"

namespace assay {

namespace curves {
struct score_sweep;
struct ranking_summary;
}  // namespace curves

/// What a metric is computed from.
enum class metric_kind {
  binary,          ///< TP, FP, FN, TN of one positive class
  multiclass,      ///< a K x K confusion matrix (also used for K = 2)
  probabilistic,   ///< true classes and class probabilities
  ranking,         ///< binary truth (0/1, 1 = positive) and a real-valued score; invariant under
                   ///< strictly increasing transforms of the score
  regression,      ///< true and predicted real values
};

/// Parameters some metrics take.
struct metric_params {
  double beta = 1.0;                       ///< for fbeta
  std::size_t k = 2;                       ///< for top_k_accuracy
  zero_division zd = zero_division::zero;  ///< for macro / weighted averages
};

/// Facts about a metric that the property tests check and the report uses.
struct metric_traits {
  double lower;             ///< smallest possible value (may be -inf)
  double upper;             ///< largest possible value (may be +inf)
  bool higher_is_better;
  /// f(actual, predicted) = f(predicted, actual): swapping truth and prediction changes nothing.
  bool symmetric;
};

/// How `assay report --ci` puts an interval around a metric when the method is automatic (the table of
/// docs/definitions/intervals.md); under ci_method::bootstrap every metric but `none` is bootstrapped.
enum class interval_method {
  none,         ///< no interval: a count, or a threshold chosen from the data
  proportion,   ///< x successes of n trials (Wilson 1927 by default); the entry's `proportion` gives x and n
  delong,       ///< ROC AUC: DeLong et al. (1988) without weights, else the Poisson bootstrap
  logit,        ///< average precision: the logit interval of Boyd et al. (2013)
  normal_mean,  ///< a mean of per-row losses: the normal interval from their variance; the entry's
                ///< `row_loss` (regression) or `proba_losses` (probabilistic) gives the losses
  bootstrap,    ///< the percentile bootstrap
};

/// x successes of n trials.
struct proportion_counts {
  double x = 0, n = 0;
};

/// Which of the mergeable state's regression sums a regression metric is read from (metrics that are
/// means of row terms are read from the sum of their terms, `mean_of`).
enum class regression_sum {
  terms,                  ///< mean_of: the sum of its row terms
  mean_absolute,          ///< sum |y - yhat| / W
  mean_squared,           ///< sum (y - yhat)^2 / W
  root_mean_squared,      ///< sqrt of the above
  max_absolute,           ///< max |y - yhat|
  r2,                     ///< 1 - SS_res / SS_tot
  explained_variance,     ///< 1 - Var(y - yhat) / Var(y)
  median_absolute,        ///< the weighted median of |y - yhat|
};

struct metric_info {
  std::string_view name;   ///< the JSON key (scikit-learn's name without "_score")
  std::string_view title;  ///< for the text report
  metric_kind kind;
  metric_traits traits;
  value (*binary)(const binary_counts&, const metric_params&) = nullptr;
  value (*multiclass)(const confusion_matrix&, const metric_params&) = nullptr;
  value (*probabilistic)(std::span<const std::int32_t>, proba_view, std::span<const double>, const metric_params&) = nullptr;
  value (*ranking)(std::span<const std::int32_t>, std::span<const double>, std::span<const double>, const metric_params&) = nullptr;
  value (*regression)(std::span<const double>, std::span<const double>, std::span<const double>, const metric_params&) = nullptr;
  /// Regression: the metric is a mean of row terms (metrics/regression.hpp). Then `regression` is
  /// mean_of_terms on it, and the mergeable state keeps one exact sum of its terms: adding such a
  /// metric is one entry here, with nothing to add to the state, its format or the engines.
  row_term mean_of{};
  /// Regression: which of the mergeable state's sums serve this metric.
  regression_sum state_sum = regression_sum::terms;

  /// The interval of --ci (automatic methods).
  interval_method interval = interval_method::bootstrap;
  /// interval_method::proportion: x of n from a binary table (binary entries) or the matrix
  /// (multiclass entries).
  proportion_counts (*binary_proportion)(const binary_counts&) = nullptr;
  proportion_counts (*multiclass_proportion)(const confusion_matrix&) = nullptr;
  /// interval_method::normal_mean of a regression entry: the loss of one row.
  double (*row_loss)(double y, double yhat) = nullptr;
  /// interval_method::normal_mean of a probabilistic entry: the loss of every row, and the loss of
  /// row i had its class been k (tie groups of a score weigh the two classes' losses by their counts).
  std::vector<double> (*proba_losses)(std::span<const std::int32_t> y, proba_view p) = nullptr;
  double (*proba_loss)(const proba_view& p, std::size_t i, std::size_t k) = nullptr;

  /// The rows a binary score adds to the report (ranking_rows()): the value from the sweep of the
  /// scores, and from the streaming summary of an unweighted score.
  value (*from_sweep)(const curves::score_sweep&) = nullptr;
  value (*from_summary)(const curves::ranking_summary&) = nullptr;
};

/// Every registered metric, in report order.
const std::vector<metric_info>& metric_registry();
/// The entry called `name` and of kind `kind`, or nullptr.
const metric_info* find_metric(std::string_view name, metric_kind kind);

/// The headline rows of a binary score, in report order: the registry's ROC AUC and average precision,
/// then the best thresholds by Youden's J and by F1 (rows of the report, not metrics of the registry:
/// they are chosen thresholds, with interval_method::none). Each has from_sweep and from_summary.
const std::vector<const metric_info*>& ranking_rows();
/// The multiclass ROC AUCs of class probabilities, in report order (scikit-learn's
/// roc_auc_score(multi_class='ovr'|'ovo', average='macro'|'weighted')): probabilistic rows of the
/// report with the bootstrap interval, not metrics of the registry.
const std::vector<metric_info>& multiclass_auc_rows();
/// The entry behind a row of a report of `task` called `name`: the registry's entry of the task's
/// kind (binary or multiclass; regression), else of kind probabilistic or ranking, else a ranking or
/// multiclass AUC row; nullptr when there is none.
const metric_info* find_report_metric(std::string_view name, task_kind task);

}  // namespace assay
