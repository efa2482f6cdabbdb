// The per-class one-vs-rest statistics of R's caret confusionMatrix, the per-class ROC and PR areas
// and the no-information rate tests of a report. Private to src/report.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "assay/metrics/probabilistic.hpp"
#include "assay/report/report.hpp"

namespace assay::detail {

/// caret's byClass statistics of every class of `cm` (one against the rest); roc_auc and
/// average_precision are left undefined with `no_ranking` as the reason.
std::vector<class_detail> class_details(const confusion_matrix& cm, const std::string& no_ranking);

/// Sets by_class[k].roc_auc / average_precision from curves::areas_one_vs_rest(y, p, w) (`view_class`
/// maps a class of the view to a class of the report) and the macro and weighted averages.
void set_class_areas(report& r, std::span<const std::int32_t> y, proba_view p, std::span<const double> w,
                     std::span<const std::size_t> view_class);

/// Sets the averages of by_class[].roc_auc / average_precision (macro, and weighted by support).
void set_ranking_averages(report& r);

/// The smallest weight that is not a whole number (none: every weight is whole, or no weights). A
/// summary that merges (the minimum), so the mergeable state gives the same answer as evaluate.
std::optional<double> smallest_fractional_weight(std::span<const double> weights);

/// Why the exact tests cannot read the weighted matrix as counts: empty when every weight is whole.
std::string not_counts_reason(std::optional<double> smallest_fractional_weight);

/// The no-information rate (the largest actual class share), the one-sided exact binomial p-value of
/// accuracy > NIR and R's mcnemar.test of the matrix, as caret's confusionMatrix; inserted after
/// "accuracy" in r.metrics. The tests treat the weighted matrix as counts when every weight is a
/// whole number, and are undefined with `not_counts` (not_counts_reason) otherwise.
void insert_caret_overall(report& r, const std::string& not_counts);

}  // namespace assay::detail
