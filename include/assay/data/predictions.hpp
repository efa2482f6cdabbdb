// assay: the table of predictions every evaluation starts from (`assay report`, `assay curve`,
// `assay compare`, and C++ or Python callers with arrays in memory).
//
// A table holds the true labels (class indices into a sorted class list, or true values for
// regression), then the predictions: binary scores of the positive class, predicted classes, a matrix
// of class probabilities, or predicted values; and optional sample weights. Building a table applies
// the class rules (decide_classes, assay/data/classes.hpp) to the spellings of its label columns, and
// checks the weights (finite, >= 0, not all 0).
// Files are read by io::read_table (one typed column per role, in parallel for large files) and the
// columns it produces are moved into the table: no per-row string work, no extra copy of a column.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "assay/data/classes.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"

namespace assay {

namespace io {
struct table;  // assay/io/table.hpp
}  // namespace io


/// A column of numbers of a table, with the name it is shown under (header name, or parameter name).
struct number_column {
  std::string name;
  std::vector<double> values;
};

/// A column of predicted classes: indices into prediction_table::classes. A predicted class that is
/// not one of the table's classes (class_set::truth) has index classes.size() + its place in
/// prediction_table::unknown_classes.
struct class_column {
  std::string name;
  std::vector<std::int32_t> codes;
  std::vector<std::string> unknown;  ///< the classes of this column that are not table classes, sorted
};


struct prediction_table {
  std::string source;       ///< the file name, or the function that built the table (for messages)
  std::size_t rows = 0;
  std::size_t threads = 1;  ///< how many threads read the file
  /// Rows of the file skipped for a missing value (io::missing_rows; only when read with
  /// csv_options::drop_missing, else they are refused). Not among `rows`.
  std::uint64_t missing = 0;
  task_kind task = task_kind::binary;  ///< binary, multiclass or regression (never automatic)
  std::string label_name;   ///< the true-label column's name ("y_true" in memory)

  // Classification.
  std::vector<std::string> classes;     ///< sorted; binary: exactly two
  std::optional<std::size_t> positive;  ///< binary: index of the positive class in `classes`
  std::vector<std::int32_t> y;          ///< the true class of each row, an index into `classes`

  // Regression.
  std::vector<double> target;  ///< the true value of each row

  // Predictions: one kind per table.
  std::vector<number_column> scores;      ///< binary: the score of the positive class, one column per model
  std::vector<class_column> predictions;  ///< predicted classes, one column per model
  std::vector<std::string> unknown_classes;  ///< class_set::truth: predicted classes that are not classes, sorted
  std::vector<double> proba;              ///< rows x classes.size() class probabilities, row-major, class order
  std::vector<std::string> proba_names;   ///< the probability columns' names, in class order
  /// The first row (0-based) whose probabilities do not sum to 1 and its sum, rule
  /// |sum - 1| <= 1e-8 + 1e-5 |sum| (NumPy's isclose); none when every row does or without `proba`.
  std::optional<std::pair<std::size_t, double>> proba_row_off;
  std::vector<number_column> values;      ///< regression: predicted values, one column per model

  std::vector<double> weight;  ///< sample weights; empty: every row weighs 1
  double total_weight = 0;     ///< sum of the weights (rows when unweighted)

  [[nodiscard]] bool weighted() const { return !weight.empty(); }
};

/// How a table is read from a file. Column references are header names or 1-based indices.
struct prediction_file {
  std::string path;  ///< "-" for standard input
  io::csv_options csv;
  std::string label;                     ///< true classes (true values for regression)
  std::vector<std::string> scores;       ///< binary scores of the positive class, one per model
  std::vector<std::string> predictions;  ///< predicted classes (predicted values for regression), one per model
  std::vector<std::string> proba;        ///< one probability column per class
  std::optional<std::string> weight;
  task_kind task = task_kind::automatic;
  std::optional<std::string> pos_label;
  class_set classes = class_set::truth_and_predictions;
};

/// Reads the columns (io::read_table) and builds the table. Messages name the file, the line, the
/// column and the field of `f` it came from (label, scores, predictions, proba, weight, pos_label,
/// task; marked with assay::param, so the CLI names its options instead).
prediction_table read_predictions(const prediction_file& f);

/// The columns read_predictions reads, in make_predictions' order (label, scores, predictions,
/// weight, proba); a caller may append columns of its own and take them off before make_predictions.
std::vector<io::column_spec> column_specs(const prediction_file& f);

/// The same on columns already read: `t.columns` in the order label, scores, predictions, weight,
/// proba, with as many of each as `f` names (f.path and f.csv are not used).
prediction_table make_predictions(io::table&& t, const prediction_file& f);

// ---- arrays in memory -----------------------------------------------------------------------------

/// Class labels in memory: numbers or strings. A view: the data must outlive the call.
/// Numbers must be finite; they are classes by value (0.0 and 0 are class "0").
class labels_view {
 public:
  labels_view(std::span<const double> numbers) : numbers_(numbers), is_text_(false) {}  // NOLINT: implicit
  labels_view(std::span<const std::string> text) : text_(text), is_text_(true) {}      // NOLINT: implicit
  labels_view(const std::vector<double>& v) : labels_view(std::span<const double>(v)) {}        // NOLINT
  labels_view(const std::vector<std::string>& v) : labels_view(std::span<const std::string>(v)) {}  // NOLINT
  [[nodiscard]] bool is_text() const { return is_text_; }
  [[nodiscard]] std::size_t size() const { return is_text_ ? text_.size() : numbers_.size(); }
  [[nodiscard]] std::span<const double> numbers() const { return numbers_; }
  [[nodiscard]] std::span<const std::string> text() const { return text_; }

 private:
  std::span<const double> numbers_;
  std::span<const std::string> text_;
  bool is_text_;
};

/// What the in-memory builders take besides the arrays.
struct prediction_options {
  std::span<const double> sample_weight;  ///< empty: unweighted; else one finite weight >= 0 per row, not all 0
  std::optional<std::string> pos_label;   ///< the positive class ("1" names the number 1 as well)
  task_kind task = task_kind::automatic;  ///< binary or multiclass (regression: predictions_from_values)
  /// The classes of predicted labels: the union with the true ones (a confusion matrix: evaluate), or
  /// the true ones only, other predictions being unknown classes (stats::compare_predictions).
  class_set classes = class_set::truth_and_predictions;
};

/// One model's scores of the positive class, or its predicted classes, under a name.
struct scored_model {
  std::string name;  ///< empty: "model <k + 1>"
  std::span<const double> y_score;
};
struct labelled_model {
  std::string name;  ///< empty: "model <k + 1>"
  labels_view y_pred;
};

/// A binary task: y_true's classes (at most two) and the score of the positive class per row
/// (finite; higher = more positive). Throws assay::error (usage) naming the function, the parameter,
/// the index and the value, e.g. `predictions_from_scores: y_score[3] is nan; scores must be finite`.
prediction_table predictions_from_scores(labels_view y_true, std::span<const double> y_score,
                                         const prediction_options& options = {});

/// Predicted classes against true classes (binary or multiclass: the class list is their union).
prediction_table predictions_from_labels(labels_view y_true, labels_view y_pred, const prediction_options& options = {});

/// Class probabilities: `y_proba` holds y_true.size() rows of `classes.size()` numbers in [0, 1]
/// summing to 1, row-major. `classes` names the columns (in any order; as numbers for numeric
/// labels, e.g. "0", "1", "2"); empty = one column per class of y_true, in sorted class order.
prediction_table predictions_from_proba(labels_view y_true, std::span<const double> y_proba,
                                        const std::vector<std::string>& classes = {},
                                        const prediction_options& options = {});

/// Several models on the same cases, for stats::compare_predictions (and make_curve, one curve each):
/// their scores (a binary task), or their predicted classes (pass options.classes = class_set::truth
/// to compare multiclass predictions). Messages name the model's index, e.g.
/// `predictions_from_model_scores: models[1].y_score[0] is nan; scores must be finite`.
prediction_table predictions_from_model_scores(labels_view y_true, const std::vector<scored_model>& models,
                                               const prediction_options& options = {});
prediction_table predictions_from_model_labels(labels_view y_true, const std::vector<labelled_model>& models,
                                               const prediction_options& options = {});

/// Regression: true and predicted values (finite). options.pos_label and task are not used.
prediction_table predictions_from_values(std::span<const double> y_true, std::span<const double> y_pred,
                                         const prediction_options& options = {});

}  // namespace assay
