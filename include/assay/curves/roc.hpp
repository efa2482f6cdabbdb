// assay: ROC curves and the area under them (binary, partial, multiclass).
//
// References: Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27 (2006);
// Hanley & McNeil, Radiology 143 (1982) (AUC = Mann-Whitney U / (n+ n-)); McClish, Medical Decision
// Making 9 (1989) (standardised partial AUC); Hand & Till, Machine Learning 45 (2001) (one-vs-one
// multiclass AUC); scikit-learn's roc_curve / roc_auc_score (1.2) as the differential peer.
// Conventions we chose are in docs/definitions/curves.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <string>
#include <vector>

#include "assay/curves/sweep.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/value.hpp"

namespace assay::curves {

/// The threshold reported for the first point (0, 0) of a ROC curve, where nothing is positive.
enum class first_threshold {
  infinity,      ///< +inf: "positive when score >= +inf" (our default; scikit-learn >= 1.3)
  max_plus_one,  ///< the highest score + 1 (scikit-learn 1.2 and earlier)
};

struct roc_options {
  /// Drop points collinear with their neighbours, exactly as scikit-learn's drop_intermediate=True
  /// (a point is kept when the second difference of fps or of tps is non-zero). Off by default: the
  /// full curve has one point per distinct threshold. The AUC does not change.
  bool drop_intermediate = false;
  first_threshold first = first_threshold::infinity;
};

/// scikit-learn's drop_intermediate rule for an inner point (fp1, tp1) of the curve between its
/// neighbours (fp0, tp0) and (fp2, tp2): kept when the second difference of fps or of tps is non-zero
/// (np.diff(x, 2) = (x2 - x1) - (x1 - x0), evaluated in that order so weighted sums agree bit for bit).
/// The first and last points of a curve are always kept.
inline bool keeps_roc_point(double fp0, double tp0, double fp1, double tp1, double fp2, double tp2) noexcept {
  return (fp2 - fp1) - (fp1 - fp0) != 0 || (tp2 - tp1) - (tp1 - tp0) != 0;
}

/// A ROC curve: point k is the classifier "positive when score >= thresholds[k]". Point 0 is the
/// origin (nothing positive); the last point is (1, 1). fpr = fps / N, tpr = tps / P.
/// When the data hold no negatives (no positives), fpr (tpr) is NaN throughout and `undefined` says
/// why; fps and tps are always defined.
struct roc_curve_result {
  std::vector<double> fpr, tpr, thresholds;
  std::vector<double> fps, tps;  ///< weighted counts of false / true positives
  std::string undefined;         ///< empty when both rates are defined
};

/// ROC curve with one point per distinct score (ties make one diagonal step), plus the origin.
/// The same points as scikit-learn's roc_curve(drop_intermediate=False); see roc_options.
roc_curve_result roc_curve(const score_sweep& sw, const roc_options& options = {});
/// As above, from the data (validated as sweep_scores does).
roc_curve_result roc_curve(std::span<const std::int32_t> y, std::span<const double> score,
                           std::span<const double> weight = {}, const roc_options& options = {});

/// The corner-point ROC construction taught in many machine-learning courses (e.g. M. Craven and
/// D. Page, CS 760, University of Wisconsin-Madison, "Algorithm for creating an ROC curve"): walking down the
/// sorted scores, a point (FP/N, TP/P) is output before a case at a new score value when that score
/// group holds a negative and TP has grown since the last point; the final (1, 1) is always output.
/// Points are thus only the corners where a negative follows a positive; ties never produce a
/// diagonal. We read "the case is negative" as "its tie group holds a negative", which makes the
/// result independent of the input order. The origin (0, 0) is prepended. Needs P > 0 and N > 0
/// (throws assay::error kind data otherwise). thresholds[k] has roc_curve's meaning: the point is the
/// classifier "positive when score >= thresholds[k]" (+inf for the origin).
roc_curve_result roc_curve_corners(const score_sweep& sw);

/// AUC = P(s+ > s-) + P(s+ = s-)/2 over positive-negative pairs, weighted by w+ w- (the Mann-Whitney
/// statistic, Hanley & McNeil 1982), computed as the trapezoid area of the full ROC curve (the two are
/// equal identically). Undefined when P = 0 or N = 0. Matches scikit-learn's roc_auc_score.
value roc_auc(const score_sweep& sw);
value roc_auc(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight = {});

/// Area under the ROC curve for fpr in [lo, hi], 0 <= lo < hi <= 1 (the curve is linear between its
/// points, so the ends are interpolated). With `mcclish`, standardised as McClish (1989):
/// (1 + (A - A_min) / (A_max - A_min)) / 2 with A_min = (hi^2 - lo^2)/2 (the chance diagonal) and
/// A_max = hi - lo; for lo = 0 this is scikit-learn's roc_auc_score(max_fpr=hi) (which returns the
/// plain AUC for hi = 1) and pROC's partial.auc.correct = TRUE. Throws kind usage for an empty or
/// invalid range.
value partial_auc_fpr(const score_sweep& sw, double lo, double hi, bool mcclish = true);
/// Area for tpr in [lo, hi]: the integral of (1 - fpr) over tpr in [lo, hi] (pROC's
/// partial.auc.focus = "sensitivity"). McClish: A_min = (hi - lo) - (hi^2 - lo^2)/2, A_max = hi - lo.
value partial_auc_tpr(const score_sweep& sw, double lo, double hi, bool mcclish = true);

enum class multiclass_average {
  macro,     ///< unweighted mean over classes (one-vs-rest) or class pairs (one-vs-one)
  weighted,  ///< one-vs-rest: weighted by class support; one-vs-one: by the pair's share of the cases
};

/// Checks that every row of an n x K probability matrix sums to 1 (scikit-learn's rule, numpy's
/// allclose: |sum - 1| <= 1e-8 + 1e-5 |sum|), as multiclass AUC needs probabilities. Throws kind data
/// naming `caller`, the row and its sum.
void check_rows_sum_to_one(std::string_view caller, proba_view p);

/// The first row of `p` whose probabilities break the rule of check_rows_sum_to_one: its 0-based
/// index and its sum; nullopt when every row sums to 1. For callers that note rather than refuse.
std::optional<std::pair<std::size_t, double>> first_row_not_summing_to_one(proba_view p);

/// One-vs-rest multiclass AUC: class k's AUC of (y == k) against p(., k), averaged over the K classes
/// (Provost & Domingos 2000). `y` holds class indices 0..K-1. Undefined when a class has no cases
/// (its AUC is). Matches roc_auc_score(multi_class="ovr", average=...). Rows must sum to 1.
value roc_auc_ovr(std::span<const std::int32_t> y, proba_view p, std::span<const double> weight = {},
                  multiclass_average average = multiclass_average::macro);
/// Hand & Till (2001) M: mean over class pairs (a, b) of (A(a|b) + A(b|a)) / 2, where A(a|b) is the
/// AUC of p(., a) separating class a from class b on the cases of these two classes. `weighted`
/// weighs a pair by the (weighted) share of cases in a or b. Matches roc_auc_score(multi_class="ovo")
/// (which has no sample weights). Rows must sum to 1.
value roc_auc_ovo(std::span<const std::int32_t> y, proba_view p, std::span<const double> weight = {},
                  multiclass_average average = multiclass_average::macro);

/// Per-class one-vs-rest ROC curves of a multiclass problem (class k against the rest, score p(., k)).
std::vector<roc_curve_result> roc_curves_ovr(std::span<const std::int32_t> y, proba_view p,
                                             std::span<const double> weight = {}, const roc_options& options = {});

}  // namespace assay::curves
