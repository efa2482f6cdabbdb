// assay: the comparison of two or more models on the same cases, as printed by `assay compare`.
//
// Models are given either as score columns (higher = more positive) or as hard predictions: 0/1 for
// a binary label, class indices for a multiclass one (compare_models_multiclass: then a case counts
// as right when the predicted class is the true one, whatever the number of classes).
// For each model: its accuracy with a Wilson interval (scores: of score >= threshold) and, for
// scores, its AUC with the DeLong interval. For every pair of models (A, B), A listed first:
// DeLong's paired test of the AUCs (scores), McNemar's exact test of the hard predictions, and for
// each chosen registered metric the paired bootstrap of metric(A) - metric(B) and the paired
// permutation test. With more than two models: Cochran's Q over all of them, and the p-values of each
// family of pairwise tests (one family per test and metric) corrected for multiplicity (Holm by
// default, multiple.hpp). A plain-language verdict at the chosen alpha closes the report.
//
// Resampling is stratified by class (the bootstrap keeps the number of cases of every class),
// seeded, and gives the same numbers whatever the thread count. Choices: docs/definitions/stats.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "assay/stats/bootstrap.hpp"
#include "assay/stats/delong.hpp"
#include "assay/stats/multiple.hpp"
#include "assay/stats/proportion.hpp"
#include "assay/stats/tests.hpp"

namespace assay {
struct prediction_table;  // assay/data/predictions.hpp
}  // namespace assay

namespace assay::io {
struct table;  // assay/io/table.hpp
}  // namespace assay::io

namespace assay::stats {

struct compare_options {
  double threshold = 0.5;  ///< scores: predict positive when score >= threshold (McNemar, accuracy, binary metrics)
  double alpha = 0.05;     ///< significance level of the verdicts; intervals at level 1 - alpha
  p_adjust_method adjust = p_adjust_method::holm;  ///< correction of each family of pairwise tests
  /// Registered metric names (metrics/registry.hpp) for the paired bootstrap and permutation tests.
  /// Scores: ranking metrics (roc_auc, average_precision) of the score, probabilistic metrics
  /// (log_loss, brier_score_loss) of the score as P(positive), binary metrics of score >= threshold.
  /// Hard predictions: binary metrics; multiclass hard predictions: multiclass metrics (accuracy,
  /// balanced_accuracy, cohen_kappa, matthews_corrcoef, f1_macro, precision_weighted, ...).
  std::vector<std::string> metrics;
  std::size_t replicates = 2000;    ///< paired bootstrap replicates (>= 1)
  std::size_t permutations = 2000;  ///< permutations of the paired permutation test (>= 1)
  std::uint64_t seed = 0;           ///< seed of both resampling procedures
  unsigned threads = 0;             ///< at most this many (0: assay::max_threads()); results do not depend on it
};

/// One model: a name and either its scores or its hard predictions (binary: 0/1, 1 = positive;
/// multiclass: class indices, see compare_models_multiclass).
struct model_input {
  std::string name;
  std::span<const double> score;
  std::span<const std::int32_t> pred;
};

struct model_summary {
  std::string name;
  bool has_auc = false;   ///< scores given
  auc_interval auc;       ///< DeLong interval at level 1 - alpha (scores only)
  std::int64_t correct = 0;
  proportion_interval accuracy;  ///< Wilson interval of correct / n at level 1 - alpha
  /// Multiclass: predictions of a class the label does not have (they count as wrong), and those
  /// classes' names when known (compare_table), sorted.
  std::int64_t unknown = 0;
  std::vector<std::string> unknown_classes;
};

/// The paired bootstrap and permutation tests of one metric between two models.
struct metric_comparison {
  std::string metric;
  bool higher_is_better = true;       ///< from the registry, for the verdict
  paired_bootstrap_result bootstrap;  ///< difference A - B: percentile interval, bootstrap_z test
  permutation_result permutation;     ///< swap A's and B's predictions case by case
  double bootstrap_p_adjusted = 1, permutation_p_adjusted = 1;
};

struct pair_comparison {
  std::size_t a = 0, b = 0;  ///< indices into comparison::models
  bool has_delong = false;
  delong_test_result delong;  ///< paired, two-sided, A - B (scores only)
  double delong_p_adjusted = 1;
  discordant_counts counts;  ///< hard predictions (scores: at the threshold)
  test_result mcnemar;       ///< exact binomial McNemar
  double mcnemar_p_adjusted = 1;
  std::vector<metric_comparison> metrics;  ///< in the order of compare_options::metrics
};

struct model_comparison {
  std::string source;  ///< where the data came from (for the report)
  bool scores = true;  ///< the models are score columns (false: hard predictions)
  bool multiclass = false;  ///< hard predictions of a label with class indices (n_pos, n_neg unused)
  std::size_t n = 0, n_pos = 0, n_neg = 0;
  std::string label;     ///< the label column's name (compare_table; empty otherwise)
  std::string positive;  ///< binary, from compare_table: the positive class
  /// Multiclass: the label's classes (compare_table: sorted names; else "0", "1", ...) and the number
  /// of cases of each, in the same order.
  std::vector<std::string> classes;
  std::vector<std::size_t> class_counts;
  compare_options options;
  std::vector<model_summary> models;
  std::vector<pair_comparison> pairs;  ///< (0,1), (0,2), ..., (1,2), ...: every unordered pair once
  bool has_cochran = false;            ///< more than two models
  test_result cochran;                 ///< Cochran's Q of the hard predictions of all models
  std::string verdict;                 ///< plain sentences
};

/// Runs the comparison. y_true is 0/1 (1 = positive) with at least 2 positives and 2 negatives; every
/// model has exactly as many scores (finite) or predictions (0 or 1) as y_true has cases, and all
/// models are of one kind (all scores or all predictions); at least two models. Throws assay::error
/// naming the function, the argument (model name) and the value otherwise.
model_comparison compare_models(std::span<const std::int32_t> y_true, const std::vector<model_input>& models,
                          const compare_options& opts = {});

/// Multiclass hard predictions. y_true holds class indices in [0, n_classes), n_classes >= 2, each
/// class with at least one case; each model's `pred` (no scores) holds its predicted class per case.
/// A predicted value outside [0, n_classes) is a class the label does not have: the case counts as
/// wrong (accuracy, McNemar, Cochran's Q), and for the metrics it is one more class (distinct values,
/// distinct classes). Per model: accuracy = mean(pred == y_true) with its Wilson interval. Every pair:
/// McNemar's exact test on the discordant right/wrong cases (class-agnostic), adjusted over the
/// pairs; more than two models: Cochran's Q of right/wrong. Metrics (opts.metrics: multiclass
/// entries of the registry) are computed, as scikit-learn does by default, over the classes present
/// in y_true or in the model's predictions on the cases at hand; the paired bootstrap keeps the
/// number of cases of every true class in every replicate, and the permutation test swaps the two
/// models' predictions case by case. Throws assay::error (usage) naming the argument otherwise.
/// Definitions and choices: docs/definitions/stats.md ("Comparing multiclass predictions").
model_comparison compare_models_multiclass(std::span<const std::int32_t> y_true, std::size_t n_classes,
                                     const std::vector<model_input>& models, const compare_options& opts = {});

/// `assay compare` on columns read from a file: t.columns[0] is the label (column_type::label), the
/// others the models, score columns (number; `scores` true) or prediction columns (label): the table
/// of predictions (make_predictions, class_set::truth), then compare_predictions. Numeric labels are
/// unified first (unify_numeric_labels: "1.0" predicts class "1"). A label of two classes
/// is a binary task: the positive class is `pos_label` or default_positive's, and predictions must be
/// among the label's classes. More than two: a multiclass task, prediction columns only (--score is
/// refused, and so is a positive class); predictions of other classes count as wrong. The metric
/// names are checked against comparable_metrics of the task. Throws assay::error naming the file,
/// the column and the value (usage: the command line, data: the file's content).
model_comparison compare_table(const io::table& t, bool scores, const std::optional<std::string>& pos_label,
                         const compare_options& opts = {});

/// `assay compare` on a prediction table built with class_set::truth (read_predictions,
/// make_predictions): two or more score columns or prediction columns. The label needs cases of two
/// classes; binary predictions must be among the label's classes; multiclass predictions of other
/// classes (the table's unknown_classes) count as wrong. Throws assay::error as compare_table.
model_comparison compare_predictions(const prediction_table& t, const compare_options& opts = {});

/// Two score columns (the common case).
model_comparison compare_models(std::span<const std::int32_t> y_true, std::span<const double> score_a,
                          std::span<const double> score_b, std::string name_a, std::string name_b,
                          const compare_options& opts = {});

/// Text report (for people) and JSON. JSON keeps each test under its own key with named fields:
/// "delong": {"z", "p_value", "diff_ci", ...}, "mcnemar": {"method", "statistic", "p_value", ...},
/// "paired_bootstrap": [{"metric", "diff", "diff_ci", "p_value", "replicates", "seed", ...}],
/// "permutation": [{"metric", "diff", "p_value", "permutations", "seed", ...}]; with two models these
/// sit at the top level, with more under "pairs" (one object per pair, with "a" and "b" and the
/// adjusted p-values), next to "cochrans_q" and "p_adjust". See docs/stats.md.
std::string to_text(const model_comparison& c);
std::string to_json(const model_comparison& c);

/// The names of the registered metrics --metric accepts for scores (`scores` true) or hard
/// predictions of a binary label, or (`multiclass` true) hard predictions of a multiclass label.
std::vector<std::string> comparable_metrics(bool scores, bool multiclass = false);

}  // namespace assay::stats
