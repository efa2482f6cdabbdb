// assay: precision-recall curves and average precision.
//
// References: Davis & Goadrich, ICML 2006 (PR vs ROC); Everingham et al., IJCV 88 (2010) (PASCAL VOC
// 11-point and all-point interpolated AP); Lin et al., ECCV 2014 (COCO 101-point AP); scikit-learn's
// precision_recall_curve / average_precision_score (1.2) as the differential peer. Variants are named
// in docs/definitions/curves.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/curves/sweep.hpp"
#include "assay/value.hpp"

namespace assay::curves {

/// A PR curve in scikit-learn's layout: thresholds increasing, point k (k < size) is the classifier
/// "positive when score >= thresholds[k]" with precision TP/(TP+FP) and recall TP/P; a final point
/// (recall 0, precision 1) without a threshold ends the curve, so precision and recall have one
/// more entry than thresholds. With no positive case recall is NaN and `undefined` says why
/// (scikit-learn sets it to 1).
struct pr_curve_result {
  std::vector<double> precision, recall, thresholds;
  std::string undefined;
};

pr_curve_result precision_recall_curve(const score_sweep& sw);
pr_curve_result precision_recall_curve(std::span<const std::int32_t> y, std::span<const double> score,
                                       std::span<const double> weight = {});

/// How average precision summarises the PR curve.
enum class ap_variant {
  step,            ///< "step": sum_n (R_n - R_{n-1}) P_n over thresholds in decreasing order, R_{-1} = 0
                   ///< (scikit-learn's average_precision_score; no interpolation). The default.
  all_point,       ///< "all_point": the same sum with P_n replaced by the interpolated precision
                   ///< max_{m: R_m >= R_n} P_m (PASCAL VOC 2010+)
  voc11,           ///< "voc11": mean over t in {0, 0.1, ..., 1} of max_{R_m >= t} P_m, 0 when no R_m >= t
                   ///< (PASCAL VOC 2007); t = i/10 exactly rounded
  coco101,         ///< "coco101": the same over t in {0, 0.01, ..., 1} (COCO); t = i/100 exactly rounded
};

/// Parses "step", "all_point", "voc11", "coco101"; throws kind usage naming `option` otherwise.
ap_variant parse_ap_variant(std::string_view name, std::string_view option = "variant");
/// The name parse_ap_variant accepts for `v`.
const char* ap_variant_name(ap_variant v);

/// Average precision; undefined when there is no positive case. Only thresholds that occur (not the
/// appended (0, 1) point) enter the interpolated variants, as in the VOC and COCO toolkits.
value average_precision(const score_sweep& sw, ap_variant variant = ap_variant::step);
value average_precision(std::span<const std::int32_t> y, std::span<const double> score,
                        std::span<const double> weight = {}, ap_variant variant = ap_variant::step);

/// A precision or recall read off the curve at a target, with the threshold that attains it.
struct pr_point {
  value v;                 ///< the precision (or recall) found
  double threshold = 0;    ///< "positive when score >= threshold"; NaN when v is undefined
  double precision = 0, recall = 0;
};

/// The highest precision among thresholds whose recall is >= `recall` (the interpolated precision at
/// that recall). Undefined when no positive case exists. Throws kind usage unless 0 <= recall <= 1.
pr_point precision_at_recall(const score_sweep& sw, double recall);
/// The highest recall among thresholds whose precision is >= `precision`; undefined when no threshold
/// reaches it. Throws kind usage unless 0 <= precision <= 1.
pr_point recall_at_precision(const score_sweep& sw, double precision);

/// Precision-recall break-even point: the common value of precision and recall at the cut where the
/// predicted-positive weight equals the positive weight P (there TP/(TP+FP) = TP/P; this is also
/// R-precision). When that cut falls inside a group of tied scores, TP is interpolated linearly within
/// the group (the expected value under random tie-breaking). Undefined when P = 0.
value break_even_point(const score_sweep& sw);

}  // namespace assay::curves
