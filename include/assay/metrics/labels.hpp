// assay: class labels as read from files, put in a canonical order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay {

/// The number a label stands for: a finite decimal ("1", "1.0", "1e0"), or a boolean, 1 for
/// True/TRUE/true and 0 for False/FALSE/false (as NumPy counts booleans; how Python, R, pandas and
/// JSON write them). False when the label is neither.
bool label_number(std::string_view label, double& x);

/// True when every label stands for a number (label_number): finite decimals or booleans.
bool labels_are_numeric(const std::vector<std::string>& labels);

/// Sorts labels the way scikit-learn's np.unique does for the data's type: numerically when all
/// are numbers (so "2" < "10"), otherwise by bytes. Returns the sorted, de-duplicated list.
std::vector<std::string> sort_labels(std::vector<std::string> labels);

/// The class name of a numeric label: the shortest decimal that reads back as `x` ("1", "0.5"; -0 is
/// "0"). The one spelling of numeric classes (unify_numeric_labels, labels given as numbers).
std::string canonical_number(double x);

/// Numeric labels are classes by value: when every label in `sets` is a number (label_number), each is
/// replaced by the shortest decimal that reads back as the same double ("1.0", "1e0", "True" and "1"
/// all become "1"; "-0" and "False" become "0"), so that a truth column of 0/1 and predictions of 0.0/1.0 agree. `extra`
/// (a positive label, probability column names) is rewritten the same way where it is a number.
/// With any non-numeric label nothing changes: labels are then compared as strings.
void unify_numeric_labels(const std::vector<std::vector<std::string>*>& sets, const std::vector<std::string*>& extra);

/// Maps codes into `levels` to indices into `sorted` (every level must be present in `sorted`).
std::vector<std::int32_t> recode(const std::vector<std::int32_t>& codes, const std::vector<std::string>& levels,
                                 const std::vector<std::string>& sorted);

/// The positive class of a binary task among `labels` (sorted, at most 2), chosen as documented in
/// docs/definitions.md: `pos_label` when given; otherwise "1" for numeric labels in {0, 1} or
/// {-1, 1} (also when only 0 or -1 occurs), or the larger of two numeric labels. Returns nullopt when it cannot be decided (string
/// labels without --pos-label).
std::optional<std::string> default_positive(const std::vector<std::string>& labels);

/// Labels for messages: `"a", "b", ...`, at most 10, then how many there are in all.
std::string join_labels(const std::vector<std::string>& labels);

/// The positive class of a binary task: `pos_label` when given, else default_positive(labels).
/// Throws assay::error (usage) naming `source` and the classes when it cannot be decided.
std::string require_positive(const std::vector<std::string>& labels, const std::optional<std::string>& pos_label,
                             std::string_view source);

}  // namespace assay
