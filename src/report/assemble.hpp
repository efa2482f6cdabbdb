// assay (internal): the parts of a classification report that follow from its confusion matrix,
// shared by evaluate() (report.cpp) and the mergeable state's finish() (src/scale/state_finish.cpp), so
// the two cannot list different metrics or notes.
#pragma once

#include "assay/report/report.hpp"

namespace assay::detail {

/// From r.cm, r.task and r.positive: the per-class table (with caret's statistics by class; ROC and PR
/// areas undefined until the ranking sets them), the averages and the headline metrics of the matrix,
/// in print order (binary: tp ... f1, fbeta with options.beta, balanced accuracy, MCC, kappa,
/// prevalence; multiclass: accuracy ... kappa), with caret's no-information rate and tests after
/// accuracy (`not_counts`: detail::not_counts_reason of the weights).
void add_confusion_metrics(report& r, const evaluate_options& options, const std::string& not_counts);

/// Refuses (usage) operating points under a constraint (options.constraints) for predictions that are
/// not a binary score (`what`: "predicted classes", "class probabilities", "regression predictions"),
/// and constraints out of their bounds: evaluate's rule, named by evaluate's parameter.
void check_constraints_apply(const evaluate_options& options, bool binary_score, const char* what);

/// The notes saying how undefined per-class values entered the averages.
void add_undefined_notes(report& r, const evaluate_options& options);

}  // namespace assay::detail
