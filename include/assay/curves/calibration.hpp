// assay: calibration of predicted probabilities of a binary outcome: reliability curves, expected
// calibration error and Murphy's decomposition of the Brier score.
//
// References: DeGroot & Fienberg, The Statistician 32 (1983) (reliability diagrams); Naeini, Cooper &
// Hauskrecht, AAAI 2015 and Guo et al., ICML 2017 (ECE); Murphy, J. Applied Meteorology 12 (1973)
// (Brier decomposition); scikit-learn's calibration_curve (1.2) as the differential peer.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "assay/value.hpp"

namespace assay::curves {

enum class bin_strategy {
  uniform,   ///< edges i / n_bins (computed as numpy.linspace does: i * (1 / n_bins))
  quantile,  ///< edges at the i / n_bins sample quantiles of the probabilities (numpy.percentile's
             ///< linear interpolation, Hyndman & Fan type 7), so each bin holds about the same total
             ///< weight. Weights are frequencies: the quantiles are those of the data with case i
             ///< repeated w_i times (virtual index (W - 1) q over the cumulative weights W_i), so unit
             ///< weights give numpy's edges exactly, integer weights those of the repeated rows, and a
             ///< zero weight removes the case. Needs W >= 1. See docs/definitions/curves.md.
};

/// A reliability curve: for every non-empty bin, the observed frequency of positives (prob_true)
/// against the mean predicted probability (prob_pred), both weighted. A probability equal to an inner
/// edge goes to the lower bin (numpy.searchsorted, side "left"), as scikit-learn's calibration_curve.
struct reliability_result {
  std::vector<double> prob_true, prob_pred;
  std::vector<double> weight;           ///< total weight of each returned bin
  std::vector<double> edges;            ///< all n_bins + 1 edges (empty bins are not returned)
};

/// `y` 0/1, `prob` in [0, 1] (throws kind data naming the index otherwise), n_bins >= 1 (kind usage).
/// The per-bin sums (count, sum w_i, sum w_i y_i, sum w_i p_i) are exact and rounded once
/// (detail/exact_sum.hpp): the curve does not depend on the order of the cases.
reliability_result reliability_curve(std::span<const std::int32_t> y, std::span<const double> prob,
                                     std::span<const double> weight = {}, std::size_t n_bins = 5,
                                     bin_strategy strategy = bin_strategy::uniform);

/// The bin of a probability p among n_bins uniform bins: the number of inner edges i / n_bins
/// strictly below p (numpy.searchsorted, side "left"), as reliability_curve. A mergeable state
/// (scale/state.hpp) keeps the per-bin sums of 10 uniform bins with it.
/// Inline: the mergeable state calls it once per row. The edges are those of bin_edges(uniform),
/// i * (1 / n_bins) for i = 1 .. n_bins - 1, increasing in i, so the count is found from a first guess
/// floor(p n_bins), corrected by at most a step each way (a scan of the edges cost up to n_bins - 1
/// comparisons a row).
inline std::size_t uniform_bin_of(double p, std::size_t n_bins) {
  if (n_bins <= 1 || !(p > 0)) return 0;  // no edge is below 0 or NaN (every edge is > 0)
  const double step = 1.0 / static_cast<double>(n_bins), g = p * static_cast<double>(n_bins);
  std::size_t b = g >= static_cast<double>(n_bins - 1) ? n_bins - 1 : static_cast<std::size_t>(g);
  // Invariant after both loops: edges 1..b are below p (b == 0 or edge b is), edge b + 1 is not (or
  // there is none): b edges below p.
  while (b > 0 && !(static_cast<double>(b) * step < p)) --b;
  while (b + 1 < n_bins && static_cast<double>(b + 1) * step < p) ++b;
  return b;
}
/// The n_bins + 1 edges of uniform bins (numpy.linspace(0, 1, n_bins + 1), as reliability_curve).
std::vector<double> uniform_bin_edges(std::size_t n_bins);

/// The reliability curve of per-bin sums over the given edges (n_bins + 1): the non-empty bins of
/// positive weight, as reliability_curve returns them from its own sums.
reliability_result reliability_from_bins(std::vector<double> edges, std::span<const std::uint64_t> count,
                                         std::span<const double> sum_w, std::span<const double> sum_wy,
                                         std::span<const double> sum_wp);

/// Expected calibration error: sum over bins of (W_b / W) |prob_true_b - prob_pred_b| (Naeini et al.
/// 2015), with the bins of reliability_curve (default 10 uniform bins). Undefined when W = 0.
value expected_calibration_error(std::span<const std::int32_t> y, std::span<const double> prob,
                                 std::span<const double> weight = {}, std::size_t n_bins = 10,
                                 bin_strategy strategy = bin_strategy::uniform);

/// The same ECE read off a reliability curve already computed (one pass over the data instead of two).
value expected_calibration_error(const reliability_result& curve);

/// Murphy's (1973) decomposition BS = reliability - resolution + uncertainty, with the forecasts
/// grouped by their distinct values (so the identity is exact):
///   reliability = (1/W) sum_f W_f (f - o_f)^2, resolution = (1/W) sum_f W_f (o_f - o)^2,
///   uncertainty = o (1 - o), o_f the observed frequency among cases forecast f, o the overall one.
struct brier_decomposition {
  value brier, reliability, resolution, uncertainty;
};
brier_decomposition brier_decompose(std::span<const std::int32_t> y, std::span<const double> prob,
                                    std::span<const double> weight = {});

}  // namespace assay::curves
