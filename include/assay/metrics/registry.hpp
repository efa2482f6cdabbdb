// assay: the metric registry. One table of every metric the report can compute, with its traits;
// the CLI, the tests (properties are checked over every entry) and future bindings all read it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "assay/metrics/classification.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/metrics/regression.hpp"
#include "assay/value.hpp"

namespace assay {

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
};

/// Every registered metric, in report order.
const std::vector<metric_info>& metric_registry();
/// The entry called `name` and of kind `kind`, or nullptr.
const metric_info* find_metric(std::string_view name, metric_kind kind);

}  // namespace assay
