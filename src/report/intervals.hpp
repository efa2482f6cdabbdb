// Confidence intervals for the numbers of a report (assay report --ci). Private to src/report.
#pragma once

#include <cstdint>
#include <span>

#include "assay/metrics/probabilistic.hpp"
#include "assay/report/report.hpp"
#include "assay/stats/proportion.hpp"

namespace assay::detail {

/// The rows a report was computed from, for resampling.
struct report_rows {
  std::span<const std::int32_t> y, yhat;   ///< classification: class indices
  std::span<const double> w;               ///< weights (empty = unit)
  std::span<const double> score;           ///< binary score column (empty if none)
  const proba_view* proba = nullptr;       ///< probabilities (matrix or binary score view)
  std::span<const std::int32_t> y_proba;   ///< the class index of each row as the proba view counts them
  std::span<const double> target, predicted;  ///< regression
};

/// The proportion interval method of --ci-method m: Wilson for automatic. Also Wilson for bootstrap,
/// where it serves only the pointwise bands of the ROC and PR figures (docs/definitions/intervals.md).
stats::proportion_method proportion_method_of(ci_method m);

/// Attaches an interval to every metric of `r` that has one (see docs/definitions/intervals.md).
void attach_intervals(report& r, const evaluate_options& q, const report_rows& rows);

}  // namespace assay::detail
