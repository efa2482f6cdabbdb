// The curves `assay report` keeps for the HTML page besides ROC and PR: the threshold sweep and the
// reliability diagram. Private to the library; see report::thresholds and report::calibration.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>

#include "assay/curves/sweep.hpp"
#include "assay/curves/threshold.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/report/report.hpp"
#include "assay/stats/proportion.hpp"

namespace assay::detail {

/// The index into a curve of n points of the k-th of the m points kept for drawing (evenly along
/// it, the first and last always): k (n - 1) / (m - 1). The one rule of curve_sample::thin and of the
/// threshold sweep.
std::size_t thinned_index(std::size_t k, std::size_t n, std::size_t m);

/// Sets the pointwise band of a kept curve c (thinned from c.points points): at kept point k, the
/// interval stats::proportion_ci(x, n, level, method) of the counts (x, n) = counts(i) of the full
/// curve's point i = thinned_index(k, c.points, c.x.size()); NaN when n <= 0. Weighted counts are
/// used as counts, as for the report's proportion intervals.
void set_proportion_band(curve_sample& c, const std::function<std::pair<double, double>(std::size_t)>& counts,
                         double level, stats::proportion_method method);

/// F1, precision, recall and FPR at up to curve_sample::max_points thresholds of the sweep (evenly
/// along it; exact values there), and the best thresholds by max F1 and Youden's J.
threshold_sample keep_threshold_sweep(const curves::score_sweep& sw);

/// keep_threshold_sweep of a sweep of `n` entries given by what it reads: `thin`, the sweep's entries
/// at thinned_index(k, n, min(n, max_points)) in order, and the best thresholds of the whole sweep
/// (curves::best_fbeta(sw, 1), curves::best_youden(sw)). The mergeable state's finish gives them
/// from walks of its runs without holding the sweep.
threshold_sample keep_threshold_sample(const curves::score_sweep& thin, std::size_t n,
                                       const curves::operating_point& f1, const curves::operating_point& youden);

/// Reliability curve of a binary probability (y 0/1), 10 uniform bins, and its ECE.
calibration_sample keep_calibration(std::span<const std::int32_t> y, std::span<const double> prob,
                                    std::span<const double> weight);

/// Top-label reliability curve of class probabilities (y class indices), 10 uniform bins, and its
/// ECE (Guo et al. 2017). Throws as curves::check_multiclass_input (e.g. rows not summing to 1).
calibration_sample keep_top_label_calibration(std::span<const std::int32_t> y, proba_view p,
                                              std::span<const double> weight);

}  // namespace assay::detail
