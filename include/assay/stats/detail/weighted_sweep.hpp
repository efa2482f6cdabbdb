// assay (internal): the one weighted sweep of ranking statistics over cases sorted by score, shared
// by the AUC bootstrap (bootstrap.cpp, multiplicities of a resample) and the Poisson bootstrap
// (poisson_bootstrap.cpp, Poisson weights): sort once, then each replicate is one sweep of weights.
#pragma once

#include <limits>

namespace assay::stats::detail {

/// ROC AUC and average precision of weighted cases fed one tie group (cases of equal score) at a
/// time, in DECREASING score order. For a group with positive weight gp and negative weight gn:
///   AUC: wins += gn (pos_above + gp / 2), AUC = wins / (P N)  (Mann-Whitney; ties count one half);
///   AP:  tp += gp, fp += gn, ap += gp tp / (tp + fp) if gp > 0, AP = ap / P  (scikit-learn's
///        average_precision_score: sum over thresholds of (R_k - R_{k-1}) P_k, no interpolation).
/// With integer weights below 2^53 every sum but ap's is exact, so the AUC does not depend on the
/// direction of the sweep or on how the sums are grouped.
struct ranking_sweep {
  double wins = 0, pos = 0, neg = 0, ap = 0;
  void group(double gp, double gn) {
    wins += gn * (pos + 0.5 * gp);
    pos += gp;
    neg += gn;
    if (gp > 0) ap += gp * (pos / (pos + neg));
  }
  /// NaN without positives or without negatives.
  [[nodiscard]] double auc() const {
    return pos > 0 && neg > 0 ? wins / (pos * neg) : std::numeric_limits<double>::quiet_NaN();
  }
  /// NaN without positives.
  [[nodiscard]] double average_precision() const {
    return pos > 0 ? ap / pos : std::numeric_limits<double>::quiet_NaN();
  }
};

}  // namespace assay::stats::detail
