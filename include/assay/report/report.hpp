// assay: the evaluation report of one prediction file: what `assay report` computes and prints.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "assay/curves/threshold.hpp"
#include "assay/data/predictions.hpp"
#include "assay/io/csv.hpp"
#include "assay/metrics/classification.hpp"
#include "assay/metrics/confusion.hpp"
#include "assay/value.hpp"

namespace assay {

/// A confidence interval attached to a reported number.
struct confidence_interval {
  value lower, upper;  ///< undefined (with the reason) when no interval can be formed
  std::string method;  ///< e.g. "wilson", "delong", "bootstrap percentile, stratified, 2000 replicates"
};

/// How `assay report --ci` computes intervals.
enum class ci_method {
  automatic,        ///< Wilson for proportions, DeLong for ROC AUC, normal for mean losses, logit for AP, bootstrap for the rest
  wilson,           ///< proportions by Wilson, the rest as automatic
  normal,           ///< proportions by the normal (Wald) approximation, the rest as automatic
  agresti_coull,    ///< proportions by Agresti-Coull, the rest as automatic
  clopper_pearson,  ///< proportions by Clopper-Pearson ("exact"), the rest as automatic
  bootstrap,        ///< every number by the bootstrap
};

/// What to read and how to evaluate it. Column references are header names or 1-based indices.
struct report_request {
  std::string path;                     ///< "-" for standard input
  std::string label;                    ///< true class or true value
  std::optional<std::string> score;     ///< binary: score of the positive class
  std::optional<std::string> pred;      ///< predicted class or value
  std::vector<std::string> proba;       ///< one probability column per class
  std::optional<std::string> weight;    ///< sample weights
  task_kind task = task_kind::automatic;
  std::optional<std::string> pos_label;
  double threshold = 0.5;               ///< positive when score >= threshold
  std::optional<double> beta;           ///< adds F-beta for this beta
  std::size_t top_k = 2;                ///< for top_k_accuracy (multiclass with --proba)
  zero_division zd = zero_division::zero;
  io::csv_options csv;
  /// Keep the ROC and PR curves of a binary score (thinned for drawing) in report::roc / report::pr,
  /// e.g. for the HTML page. Off by default: a 10^7-point curve costs memory nobody asked for.
  bool keep_curves = false;
  /// Confidence level of intervals to attach (e.g. 0.95); none when empty.
  std::optional<double> ci_level;
  ci_method ci = ci_method::automatic;
  std::size_t bootstrap_replicates = 2000;
  std::uint64_t seed = 0;  ///< for the bootstrap; results do not depend on the thread count
  /// Optional progress of the bootstrap (evaluate_options::progress).
  std::function<void(std::size_t, std::size_t)> progress;
  /// Operating points under constraints (evaluate_options::constraints); binary scores only.
  curves::operating_constraints constraints;
};

/// A curve kept for drawing: at most `max_points` points taken evenly along it (the first and last
/// always), and how many it had. Reported numbers never come from the thinned curve.
struct curve_sample {
  std::vector<double> x, y;
  std::size_t points = 0;
  /// With intervals asked for (request.ci_level), a POINTWISE band: at each kept point, the
  /// proportion interval (band_method, at report::ci_level) of y at that point's threshold, held
  /// fixed: TPR = TP / P on the ROC curve, precision = TP / (TP + FP) on the PR curve. NaN where the
  /// proportion has no trials (the PR curve's closing point). Empty without intervals.
  std::vector<double> y_lo, y_hi;
  std::string band_method;  ///< e.g. "wilson"
  static constexpr std::size_t max_points = 2000;
  /// Thins (x, y) to at most max_points points.
  static curve_sample thin(const std::vector<double>& x, const std::vector<double>& y);
};

/// The binary metrics against the threshold, kept for drawing (request.keep_curves, a score column):
/// F1, precision, recall (= TPR) and FPR at up to curve_sample::max_points thresholds taken evenly
/// along the sorted distinct scores (x = threshold; every value there is exact), and the best
/// thresholds from the full sweep (curves::best_fbeta, curves::best_youden).
struct threshold_sample {
  curve_sample f1, precision, recall, fpr;  ///< x = threshold (the +inf "nothing positive" point left out)
  std::optional<double> max_f1_threshold, max_f1;         ///< absent when F1 is undefined everywhere
  std::optional<double> youden_threshold, youden_tpr, youden_fpr;  ///< absent without both classes
};

/// A reliability curve kept for drawing (request.keep_curves): a binary score that is a probability,
/// or the top-label (confidence) curve of --proba (Guo et al. 2017). 10 uniform bins.
struct calibration_sample {
  std::vector<double> prob_pred, prob_true, weight;  ///< the non-empty bins
  value ece;                                         ///< expected calibration error over the same bins
  std::size_t bins = 10;
  bool top_label = false;                            ///< --proba: accuracy against confidence
};

/// One named number of the report.
struct metric_result {
  metric_result(std::string n, std::string t, value x) : name(std::move(n)), title(std::move(t)), v(std::move(x)) {}
  std::string name;   ///< JSON key
  std::string title;  ///< text label
  value v;
  std::optional<confidence_interval> ci;  ///< with --ci, for the numbers that have one
};

/// One class against the rest: what R's caret confusionMatrix prints per class ("byClass"; its F1 is
/// class_stats::f1), and the ROC and PRC areas of WEKA's "Detailed Accuracy By Class". With weights
/// every count is a weight sum.
struct class_detail {
  value sensitivity;           ///< TP / (TP + FN) (= recall)
  value specificity;           ///< TN / (TN + FP)
  value ppv;                   ///< TP / (TP + FP) (= precision; caret's PPV at the sample prevalence)
  value npv;                   ///< TN / (TN + FN)
  value prevalence;            ///< (TP + FN) / N, the class's share of the actual classes
  value detection_rate;        ///< TP / N
  value detection_prevalence;  ///< (TP + FP) / N, the class's share of the predictions
  value balanced_accuracy;     ///< (sensitivity + specificity) / 2; undefined when either is (as caret)
  /// ROC AUC and average precision of the class against the rest, ranked by its score: the class's
  /// probability column, or for a binary score the score (positive class) or -score (the other).
  /// Undefined with the reason without scores or probabilities, or when the class has no cases.
  value roc_auc, average_precision;
  /// With intervals (report::ci_level), those of roc_auc and average_precision by the methods of the
  /// headline ones (docs/definitions/intervals.md, "Per-class areas"): DeLong for the ROC area without
  /// weights, Boyd et al.'s logit interval for the PR area, the Poisson bootstrap with weights (ROC) or
  /// ci_method::bootstrap (both). For a binary score the positive class's are the headline's, and the
  /// other class's ROC interval too (its area, of -score, is the same number). Absent when the area is
  /// undefined. The macro and weighted averages have none (see the same page).
  std::optional<confidence_interval> roc_auc_ci, average_precision_ci;
};

/// The averages of the per-class ROC AUC and average precision over the classes: macro (unweighted
/// mean) and weighted by support (scikit-learn's average='macro' / 'weighted' of the one-vs-rest
/// columns). Undefined, naming the class, when some class's value is.
struct ranking_average {
  value roc_auc, average_precision;
};

struct report {
  task_kind task = task_kind::binary;
  std::string source;
  std::size_t rows = 0;
  /// Rows skipped for a missing value (an empty cell, io::missing_rows), set when the file was read
  /// with csv_options::drop_missing (0 when none had one); absent otherwise (such rows are refused).
  std::optional<std::uint64_t> missing;
  bool weighted = false;
  double total_weight = 0;
  std::string label_column, prediction_column;  ///< for the header of the text report
  // Classification.
  std::vector<std::string> labels;       ///< class names in matrix order
  std::optional<std::size_t> positive;   ///< index of the positive class (binary)
  std::optional<double> threshold;       ///< set when predictions came from --score
  confusion_matrix cm;
  std::vector<class_stats> per_class;
  averaged micro, macro, weighted_avg;
  std::vector<class_detail> by_class;     ///< per class, in matrix order (same length as per_class)
  ranking_average macro_ranking, weighted_ranking;
  zero_division zd = zero_division::zero;
  // Headline metrics in print order (binary, multiclass or regression ones).
  std::vector<metric_result> metrics;
  std::optional<curve_sample> roc;  ///< FPR (x) vs TPR (y), with request.keep_curves and a score column
  std::optional<curve_sample> pr;   ///< recall (x) vs precision (y), likewise
  std::optional<threshold_sample> thresholds;      ///< with request.keep_curves and a score column
  std::optional<calibration_sample> calibration;  ///< with request.keep_curves: probabilities scored
  /// With options.constraints: the constrained operating points and the Neyman-Pearson umbrella
  /// threshold of the binary score (curves::constrained_thresholds), each with its full counts.
  std::optional<curves::constrained_points> operating_points;
  std::optional<double> ci_level;  ///< the level of the intervals in metrics[].ci
  std::vector<std::string> notes;  ///< caveats a reader must see (e.g. how undefined classes were averaged)
};

/// How evaluate() computes a report from a prediction table.
struct evaluate_options {
  double threshold = 0.5;  ///< binary scores: a row is predicted positive when score >= threshold
  std::optional<double> beta;  ///< adds F-beta for this beta (finite, > 0)
  std::size_t top_k = 2;       ///< k of top_k_accuracy (class probabilities, more than 2 classes)
  /// How undefined per-class values (0/0) enter the macro and weighted averages.
  assay::zero_division zero_division = assay::zero_division::zero;
  std::optional<double> ci_level;  ///< confidence level of intervals to attach (e.g. 0.95); none when empty
  assay::ci_method ci_method = assay::ci_method::automatic;
  std::size_t replicates = 2000;  ///< bootstrap replicates, in [1, 1000000]
  std::uint64_t seed = 0;         ///< of the bootstrap; results do not depend on the thread count
  /// Optional: called with (replicates done, replicates) while a Poisson bootstrap of the intervals
  /// runs, from one thread at a time (not necessarily the caller's), e.g. to show progress. The
  /// library prints nothing itself.
  std::function<void(std::size_t, std::size_t)> progress;
  /// Keep the ROC, PR, threshold and reliability curves of a binary score (thinned for drawing) in
  /// the report, e.g. for the HTML page; a reliability curve of class probabilities too.
  bool keep_curves = false;
  /// Operating points under constraints (Neyman-Pearson: the highest TPR with FPR <= max_fpr, and its
  /// mirrors; with max_fpr also the umbrella threshold at confidence `constraints.confidence`) in
  /// report::operating_points. Binary scores only: with predicted classes or probabilities evaluate
  /// refuses them, naming the constraint.
  curves::operating_constraints constraints;
  /// The report's rows to keep, by their JSON names (`f1`, `roc_auc`, `log_loss`, ...); empty: every
  /// row. With names, the report holds those rows that its task has, and without intervals the parts
  /// of the report no named row needs are not computed (the ranking sort, the probability losses).
  /// A row's number and interval are those of the whole report, to the bit.
  std::vector<std::string> metrics;
};

/// The report of a prediction table (data/predictions.hpp): the confusion matrix, every metric of
/// the task, the per-class table and, with options.ci_level, the intervals. Throws assay::error
/// (usage) naming the function and the option, e.g. `evaluate: threshold is nan; it must be a finite
/// number`. The table built from arrays (predictions_from_scores, ...) and the table read from a file
/// with the same numbers give the same report.
report evaluate(const prediction_table& table, const evaluate_options& options = {});
/// The same, using the table's columns as scratch space (no copy of the score column).
report evaluate(prediction_table&& table, const evaluate_options& options = {});

/// The evaluate_options a request asks for.
evaluate_options options_of(const report_request& request);

/// Reads the file (read_predictions) and evaluates it. Throws assay::error on bad input.
report make_report(const report_request& request);

/// The file description make_report reads, after checking the request (the same messages).
prediction_file prediction_file_of(const report_request& request);

/// The human-readable report (confusion matrix, metrics, WEKA-style per-class block).
std::string to_text(const report& r);
/// The JSON report; the schema is in docs/report-json.md.
std::string to_json(const report& r);

}  // namespace assay
