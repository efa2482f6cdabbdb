// assay: one pass over a pair of label arrays giving everything the label metrics read off them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace assay {

/// The K x K matrix of (weighted) counts of a pair of label arrays and the per-class totals of the
/// actual labels, the predicted labels and the correct predictions.
///
/// Without weights every number is an exact integer count. With weights each cell and each total is
/// summed case by case in the order of the cases, which is how np.bincount and scipy's coo_array
/// accumulate: the totals are not re-derived from the cells, because a different order of the same
/// additions rounds differently (scikit-learn's per-class totals are bincounts).
struct label_tally {
  std::size_t classes = 0;
  std::vector<double> cells;                       ///< classes x classes, row-major; row = actual class
  std::vector<double> actual, predicted, correct;  ///< per class
};

/// Tallies class indices in [0, classes). `weight` is empty (every case weighs 1) or has one weight
/// per case (finite; the caller checks). Throws assay::error (usage) on a length mismatch or an index
/// out of range, the message starting with `caller`. Unweighted, the indices are checked in the
/// counting pass itself, and from 2^20 cases two fixed halves are counted on two threads (exact
/// integer counts: the same result on any number of threads).
label_tally tally_codes(std::span<const std::int32_t> actual, std::span<const std::int32_t> predicted,
                        std::size_t classes, std::span<const double> weight = {},
                        std::string_view caller = "tally_codes");

/// The unweighted 2 x 2 tally of binary class indices `actual` (0 or 1) against the classes a score
/// predicts at a threshold (`positive` when score >= threshold, else 1 - positive), counted as
/// tally_codes counts them but without an array of predicted classes; `scores_in_unit` is set to
/// whether every score lies in [0, 1]. Throws assay::error (usage), the message starting with
/// `caller`, on a length mismatch or an index that is not 0 or 1.
label_tally tally_at_threshold(std::span<const std::int32_t> actual, std::span<const double> scores, double threshold,
                               std::int32_t positive, bool& scores_in_unit, std::string_view caller);

/// Integer labels tallied as they are, with no coding pass: the classes are the distinct values of
/// both arrays together in increasing order.
struct integer_label_tally {
  std::vector<std::int64_t> classes;
  label_tally tally;
};

/// As tally_codes for integer labels whose values span fewer than 2^20 integers (a lookup table
/// codes them); nullopt for a wider span (the caller sorts instead) or for empty input.
std::optional<integer_label_tally> tally_integer_labels(std::span<const std::int64_t> actual,
                                                        std::span<const std::int64_t> predicted,
                                                        std::span<const double> weight = {});

/// Per-label (or per-case) counts of two multilabel indicator matrices: for each unit, the number
/// (or weight) of entries with y_true = y_pred = 1 (tp), with y_true = 1 (actual) and with y_pred = 1
/// (predicted); fp = predicted - tp, fn = actual - tp. scikit-learn's multilabel_confusion_matrix of
/// multilabel-indicator targets reads the same three per label, or per sample when samplewise.
struct indicator_tally {
  std::vector<double> tp, actual, predicted;
};

/// Counts two n x L row-major indicator matrices (entries 0 or 1), each label (column) a two-class
/// problem tallied by tally_codes (the one label kernel: the 2 x 2 confusion matrix of that column),
/// or with `by_case` each case (row) so. `weight` (per label only) is empty or one weight per case;
/// weighted totals are summed case by case in row order, as np.bincount sums the stored entries of a
/// CSR matrix. Throws assay::error (usage) naming the function for sizes that do not match, an entry
/// that is not 0 or 1, or weights with `by_case` (the caller scales the per-case counts).
indicator_tally tally_indicators(std::span<const std::int32_t> y_true, std::span<const std::int32_t> y_pred,
                                 std::size_t cases, std::size_t labels, bool by_case,
                                 std::span<const double> weight = {});

}  // namespace assay

