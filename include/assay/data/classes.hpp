// assay: the class rules, one function. Every evaluation that has class labels (a prediction table
// read from a file or built from arrays, the mergeable state when it finishes, the range-partitioned
// MPI report, cross-validation, the Python package's report and curves) turns the label spellings it
// has seen into classes here, so that no two of them can decide differently:
//  - numeric spellings are classes by value: when every label is a number, "1", "1.0" and "1e0" are
//    one class, written "1" (unify_numeric_labels); otherwise labels are compared as strings;
//  - the classes are the sorted union of the classes seen (numerically when all are numbers, else by
//    bytes, as NumPy's np.unique): the true classes, the predicted classes (unless only the true ones
//    make the class list), probability columns named after every true class, and the positive class;
//  - a binary task has exactly two classes (the absent one added when only one occurs) and a positive
//    class: the one named, else "1" for {0, 1} and {-1, 1}, else the larger of two numbers
//    (default_positive). Text labels have no default: the positive class must be named;
//  - probability columns are matched to classes by name when every true class has a column named
//    after it, else taken in sorted class order (then there must be one per class).
// Refusals are assay::error (usage) naming the file and column, or the function and parameter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace assay {

/// The kind of task; `automatic` asks the class rules to decide (binary for at most two classes,
/// else multiclass; regression is never guessed).
enum class task_kind { automatic, binary, multiclass, regression };

const char* task_name(task_kind t);

/// Which labels make up the class list.
enum class class_set {
  truth_and_predictions,  ///< the union of true and predicted classes (a confusion matrix's rows and columns)
  truth,                  ///< the true classes only; other predicted classes are `unknown` (assay compare)
};

/// The distinct label spellings an evaluation has seen, by role (each list in any order, no repeats).
struct label_spellings {
  std::vector<std::string> truth;                   ///< true labels
  std::vector<std::vector<std::string>> predicted;  ///< predicted labels, one list per model
  std::vector<std::string> proba_columns;           ///< the names of the class-probability columns
  std::size_t score_columns = 0;                    ///< binary scores of the positive class, one per model
};

/// What the caller says about the classes.
struct class_options {
  std::optional<std::string> pos_label;  ///< the positive class ("1" names the number 1 as well)
  task_kind task = task_kind::automatic;
  class_set classes = class_set::truth_and_predictions;
};

/// How messages name the inputs: a file's columns (with the options that chose them, marked with
/// assay::param so the CLI shows its flags), or an in-memory function's parameters.
struct label_source {
  bool file = false;
  std::string name;                            ///< the file (file), or the function (memory)
  std::string truth_column = "y_true";         ///< the true labels' column (file)
  std::vector<std::string> predicted_columns;  ///< the predicted labels' columns (file)

  /// Labels given in memory to the function `fn` (named in refusals as "fn: y_true ...").
  static label_source of_function(std::string fn) {
    label_source s;
    s.name = std::move(fn);
    return s;
  }
};

/// The classes decided, and where each spelling seen belongs.
struct class_plan {
  std::vector<std::string> classes;     ///< sorted; binary: exactly two
  std::optional<std::size_t> positive;  ///< binary: the positive class's index in `classes`
  task_kind task = task_kind::binary;   ///< binary or multiclass
  /// label_spellings::truth[i] is class truth[i] (an index into `classes`).
  std::vector<std::int32_t> truth;
  /// label_spellings::predicted[k][i] is class predicted[k][i]: an index into `classes`, or
  /// classes.size() + its index in `unknown_classes` (class_set::truth only).
  std::vector<std::vector<std::int32_t>> predicted;
  std::vector<std::string> unknown_classes;                ///< predicted classes that are not classes, sorted
  std::vector<std::vector<std::string>> predicted_unknown;  ///< the same for each model, sorted
  /// The probability column of each class (classes.size() entries; empty without such columns).
  std::vector<std::size_t> proba_column;

  /// True when the true spelling label_spellings::truth[i] is the positive class.
  [[nodiscard]] bool positive_truth(std::size_t i) const { return positive && truth[i] == static_cast<std::int32_t>(*positive); }
};

/// Decides the classes of `seen` under `options` by the rules of this header. Throws assay::error
/// (usage) when they cannot be decided: more than two classes for binary scores or `task` binary, a
/// positive class of a multiclass task or not among the classes, text labels of a binary task without
/// a positive class, probability columns that do not match the classes. Messages name `source`.
class_plan decide_classes(label_spellings seen, const class_options& options, const label_source& source);

/// The positive class of two-class (or one-class) true labels, as decide_classes decides it for
/// binary scores, given as a flag per spelling of `truth` (1: positive). For callers that only need
/// the positive side: the range-partitioned report, the sliced report's tests, the state's loss terms.
std::vector<std::uint8_t> positive_of_spellings(const std::vector<std::string>& truth, const class_options& options,
                                                const label_source& source);

}  // namespace assay
