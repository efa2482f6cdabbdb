// The curves `assay report` keeps for the HTML page besides ROC and PR: the threshold sweep and the
// reliability diagram. Private to the library; see report::thresholds and report::calibration.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>

#include "assay/curves/sweep.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/report/report.hpp"

namespace assay::detail {

/// F1, precision, recall and FPR at up to curve_sample::max_points thresholds of the sweep (evenly
/// along it; exact values there), and the best thresholds by max F1 and Youden's J.
threshold_sample keep_threshold_sweep(const curves::score_sweep& sw);

/// Reliability curve of a binary probability (y 0/1), 10 uniform bins, and its ECE.
calibration_sample keep_calibration(std::span<const std::int32_t> y, std::span<const double> prob,
                                    std::span<const double> weight);

/// Top-label reliability curve of class probabilities (y class indices), 10 uniform bins, and its
/// ECE (Guo et al. 2017). Throws as curves::check_multiclass_input (e.g. rows not summing to 1).
calibration_sample keep_top_label_calibration(std::span<const std::int32_t> y, proba_view p,
                                              std::span<const double> weight);

}  // namespace assay::detail
