// assay: the cross-validation engine. For each split: fit the preprocessing and the learner on the
// training rows, predict the test rows, score them with metrics from the registry. Splits run in
// parallel on threads; the result is identical whatever the thread count (every split is computed
// on its own and stored in its own slot; nothing random happens after the splits are made).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "assay/validation/dataset.hpp"
#include "assay/validation/learners.hpp"
#include "assay/validation/splitters.hpp"
#include "assay/value.hpp"

namespace assay::validation {

struct cv_options {
  /// Registry names (metrics/registry.hpp). Empty = accuracy, balanced_accuracy, F1 (binary) or
  /// f1_macro, and log_loss when the learner gives probabilities; for regression
  /// root_mean_squared_error, mean_absolute_error and r2.
  std::vector<std::string> metrics;
  std::size_t threads = 0;  ///< at most this many (0: assay::max_threads(), threads.hpp)
  impute_kind impute = impute_kind::refuse;
  std::optional<std::string> pos_label;  ///< positive class of a binary task (binary metrics)
  bool keep_predictions = true;          ///< keep the out-of-fold predictions
  bool score_training = false;           ///< also score each model on its own training rows
  /// Called (from worker threads, one call at a time) after each split with (done, total).
  std::function<void(std::size_t, std::size_t)> progress;
};

/// One split's outcome.
struct fold_result {
  std::size_t split = 0, repeat = 0;
  std::size_t train_rows = 0, test_rows = 0;
  std::vector<value> test;                      ///< one per metric, on the test rows
  std::vector<value> train;                     ///< one per metric, on the training rows (score_training)
  double fit_seconds = 0, predict_seconds = 0;  ///< wall time of fit and predict
  /// CPU time of the worker thread for the whole split (encoding, fitting, predicting, scoring) and
  /// for fit + predict alone; their difference is the engine's own overhead.
  double cpu_seconds = 0, model_cpu_seconds = 0;
  /// CPU time of fitting the preprocessing (one-hot levels, imputation, scaling) and encoding the
  /// training and test rows: the part of a scikit-learn Pipeline before the estimator.
  double encode_cpu_seconds = 0;
};

/// A metric over the splits.
struct metric_summary {
  std::string name, title;
  bool higher_is_better = true;
  value mean;               ///< mean of the per-split values that are defined
  value sd;                 ///< their sample standard deviation (n - 1); undefined for fewer than 2
  value pooled;             ///< the metric of all test predictions pooled (e.g. 73/100 correct)
  std::size_t defined = 0;  ///< splits where the value is defined
};

/// One out-of-fold prediction.
struct oof_prediction {
  std::size_t row = 0, split = 0, repeat = 0;
  std::int32_t cls = -1;
  double value = 0;
  std::vector<double> proba;
};

struct cv_result {
  std::string learner;
  bool classification = true;
  std::vector<std::string> classes;
  std::optional<std::size_t> positive;  ///< binary: index of the positive class
  std::vector<fold_result> folds;
  std::vector<metric_summary> summary;
  std::vector<oof_prediction> oof;  ///< in split order, test rows in row order
  std::size_t repeats = 1;
  std::size_t threads = 1;
  double seconds = 0;  ///< wall time of the whole run
  std::vector<std::string> notes;
};

/// Cross-validates `learner` on `d` over `splits`. Throws assay::error for an unknown metric, a
/// split with an empty part, or a learner failure (naming the split).
cv_result cross_validate(const dataset& d, const any_learner& learner, const split_list& splits,
                         const cv_options& options = {});

/// One split's outcome before the summary: its fold_result and its test rows' predictions (in the
/// order of the split's test rows).
struct split_outcome {
  fold_result fold;
  predictions pred;
};

/// The splits `which` (ascending indices into `splits`) of cross_validate(d, learner, splits, options),
/// each computed exactly as cross_validate computes it (the same values whatever the subset and the
/// thread count: a split depends only on its own rows). With summarize_splits, the splits of one
/// cross-validation can be spread over processes (the CLI does it over MPI ranks). Outcomes in the
/// order of `which`. Throws as cross_validate: the error of the first failing split of `which`
/// (naming it), with *failed_split set to its index. *threads: the lanes used.
std::vector<split_outcome> run_splits(const dataset& d, const any_learner& learner, const split_list& splits,
                                      std::span<const std::size_t> which, const cv_options& options = {},
                                      unsigned* threads = nullptr, std::size_t* failed_split = nullptr);

/// cross_validate's result from the outcomes of every split (outcomes[s] of splits[s], as run_splits
/// gives them): equal to cross_validate's except `threads` (1) and `seconds` (0), which the caller sets.
cv_result summarize_splits(const dataset& d, const any_learner& learner, const split_list& splits,
                           std::vector<split_outcome> outcomes, const cv_options& options = {});

/// The out-of-fold predictions as CSV, readable by `assay report`: columns row, [repeat,] fold,
/// the target (true class or value), pred, and for classification one probability column per class
/// named after the class (in sorted class order).
std::string oof_csv(const dataset& d, const cv_result& r);

/// Text and JSON renderings (JSON schema in docs/validation.md).
/// The corrected resampled 95% interval (stats::corrected_resampled_interval; Nadeau & Bengio 2003)
/// of the mean of metric `m` over the splits where it is defined, with the mean training and test
/// sizes of the splits as n_train and n_test; undefined, with the reason, for fewer than 2 such
/// splits. The text and JSON outputs show it next to the mean.
std::pair<value, value> corrected_mean_interval(const cv_result& r, std::size_t m);

std::string to_text(const cv_result& r, bool per_fold = true);
std::string to_json(const cv_result& r);

}  // namespace assay::validation
