// assay: ROC curve, PR curve, ROC AUC and average precision of binary scores together, from one sort
// and one merge walk (the fast path for large inputs; the same numbers as roc_curve, roc_auc,
// precision_recall_curve and average_precision of the sweep, bit for bit: tests/curves/ranking_test.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/value.hpp"

namespace assay::curves {

/// Both curves in one table, one point per distinct threshold. Point 0 is "nothing positive"
/// (threshold +inf, fpr = tpr = 0, precision 1 as scikit-learn's final PR point); point k >= 1 is
/// "positive when score >= thresholds[k]", thresholds strictly decreasing:
///   fpr[k] = FP_k / N,  tpr[k] = recall[k] = TP_k / P,  precision[k] = TP_k / (TP_k + FP_k).
/// The ROC curve is (fpr, tpr) over all points (roc_curve's points with drop_intermediate off); the
/// PR curve is (recall, precision) over all points in reverse order (precision_recall_curve's layout,
/// whose last point (0, 1) has no threshold). fpr (tpr) is NaN throughout when there is no negative
/// (positive) case, as in roc_curve_result.
struct ranking_curves {
  std::vector<double> thresholds, fpr, tpr, precision;
  value roc_auc;            ///< as roc_auc(sweep)
  value average_precision;  ///< step AP, as average_precision(sweep)
  double positives = 0, negatives = 0;  ///< total weights P and N
};

/// Computes ranking_curves from data validated as sweep_scores does (errors name `caller`). Unweighted
/// data take one parallel radix sort by class (class_sort.hpp) and one merge walk; with weights,
/// sweep_scores' weighted sort.
ranking_curves compute_ranking_curves(std::span<const std::int32_t> y, std::span<const double> score,
                                      std::span<const double> weight = {},
                                      std::string_view caller = "ranking_curves");

}  // namespace assay::curves
