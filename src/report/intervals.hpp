// Confidence intervals for the numbers of a report (assay report --ci). Private to src/report.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "assay/metrics/probabilistic.hpp"
#include "assay/report/report.hpp"
#include "assay/stats/proportion.hpp"

namespace assay::detail {

/// The tie groups of a binary score without weights, in ascending score order: what a mergeable
/// evaluation state (scale/state.hpp) keeps instead of the rows. score[g] is scored by pos[g]
/// positive and neg[g] negative cases; or, when `ascending` is set, the groups are visited by it
/// (f(score, pos, neg) per group, in the same order, as often as asked: the out-of-core reader reads
/// them back from a file instead of holding them).
struct score_groups {
  std::vector<double> score;
  std::vector<std::uint64_t> pos, neg;
  std::function<void(const std::function<void(double, std::uint64_t, std::uint64_t)>&)> ascending;

  /// Calls f(score, pos, neg) for every group, lowest score first.
  void each(const std::function<void(double, std::uint64_t, std::uint64_t)>& f) const {
    if (ascending) return ascending(f);
    for (std::size_t g = 0; g < score.size(); ++g) f(score[g], pos[g], neg[g]);
  }
};

/// The rows a report was computed from, for resampling.
struct report_rows {
  std::span<const std::int32_t> y, yhat;   ///< classification: class indices
  std::span<const double> w;               ///< weights (empty = unit)
  std::span<const double> score;           ///< binary score column (empty if none)
  const proba_view* proba = nullptr;       ///< probabilities (matrix or binary score view)
  std::span<const std::int32_t> y_proba;   ///< the class index of each row as the proba view counts them
  std::span<const double> target, predicted;  ///< regression
  /// The stable id of each row, on which its Poisson bootstrap weight is drawn (empty: its index).
  std::span<const std::uint64_t> row_ids;
  /// Instead of the rows (y, yhat, score, proba empty; no weights): the score's tie groups, enough for
  /// every interval that does not resample rows (proportions, the confusion matrix's multinomial
  /// bootstrap, DeLong, the normal interval of log loss and Brier, the logit interval of AP).
  const score_groups* groups = nullptr;
};

/// The proportion interval method of --ci-method m: Wilson for automatic. Also Wilson for bootstrap,
/// where it serves only the pointwise bands of the ROC and PR figures (docs/definitions/intervals.md).
stats::proportion_method proportion_method_of(ci_method m);

/// Whether the intervals of options `q` resample rows (the Poisson bootstrap): with weights or
/// ci_method::bootstrap. Without, report_rows::groups serves them all.
bool intervals_need_rows(const evaluate_options& q, bool weighted);

/// Attaches an interval to every metric of `r` that has one (see docs/definitions/intervals.md).
void attach_intervals(report& r, const evaluate_options& q, const report_rows& rows);

}  // namespace assay::detail
