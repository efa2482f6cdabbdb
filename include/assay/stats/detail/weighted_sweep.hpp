// assay (internal): the one weighted sweep of ranking statistics over cases sorted by score, shared
// by the AUC bootstrap (bootstrap.cpp, multiplicities of a resample) and the Poisson bootstrap
// (poisson_bootstrap.cpp, Poisson weights): sort once, then each replicate is one sweep of weights.
#pragma once

#include <cstddef>
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

/// Two doubles side by side, one per replicate (the GCC/Clang vector extension: each operation is
/// the scalar IEEE operation lane by lane; one SSE2 register, so running sums stay in registers).
using double2 = double __attribute__((vector_size(2 * sizeof(double))));

/// ranking_sweeps side by side, one per lane of V (replicates of a batch), with ranking_sweep's
/// arithmetic lane by lane, so each lane gives ranking_sweep's numbers bit for bit. Branch-free: the
/// precision of a group is computed in every lane and added only where gp > 0 (its bits masked to
/// +0.0 elsewhere; adding +0.0 to ap >= +0 changes no bit), and the caller may skip it (need_ap
/// false) for a group that holds no positive case, where no gp is > 0.
template <class V>
struct ranking_lanes {
  V wins{}, pos{}, neg{}, ap{};
  void group(const V& gp, const V& gn, bool need_ap) {
    wins += gn * (pos + 0.5 * gp);
    pos += gp;
    neg += gn;
    if (!need_ap) return;
    using mask = decltype(gp > 0.0);
    const V term = gp * (pos / (pos + neg));
    ap += reinterpret_cast<V>(reinterpret_cast<mask>(term) & (gp > 0.0));
  }
  [[nodiscard]] double auc(std::size_t b) const {
    return pos[b] > 0 && neg[b] > 0 ? wins[b] / (pos[b] * neg[b]) : std::numeric_limits<double>::quiet_NaN();
  }
  [[nodiscard]] double average_precision(std::size_t b) const {
    return pos[b] > 0 ? ap[b] / pos[b] : std::numeric_limits<double>::quiet_NaN();
  }
};

}  // namespace assay::stats::detail
