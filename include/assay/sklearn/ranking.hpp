// assay: scikit-learn's binary score metrics computed to the bit, for the drop-in assay.metrics of
// the Python package (roc_curve, roc_auc_score, average_precision_score). The scores are sorted once
// and swept once; with weights the cumulative sums are taken one case at a time in the stable
// descending order, as scikit-learn's np.cumsum does (the core's own sweep, sweep.hpp, adds tied
// weights as a group first, which rounds differently in the last bits), and the post-sweep
// arithmetic rounds each operation as numpy does and sums in numpy's pairwise order
// (assay/sklearn/detail/numpy_sum.hpp). assay's own reports use curves/sweep.hpp and curves/ranking.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace assay::sklearn {

/// Cumulative weights at each distinct score, highest first (scikit-learn's
/// confusion_matrix_at_thresholds): fp[k], tp[k] of the classifier "positive when score >= thresholds[k]".
struct sweep_points {
  std::vector<double> fp, tp, thresholds;
};

/// (fps, tps, thresholds) as scikit-learn's confusion_matrix_at_thresholds (weights >= 0; weight-0
/// cases left out). Input is checked as sweep_scores does (errors name "sweep").
sweep_points clf_curve(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight);
/// roc_curve's points, with (0, 0, +inf) in front and scikit-learn's drop_intermediate rule when asked.
sweep_points roc_points(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight,
                        bool drop_intermediate);
/// The counts of roc_points divided into rates as numpy divides (fps / fps[-1], tps / tps[-1]); false,
/// and the counts left as they are, when a class has no weight.
bool to_rates(sweep_points& c);
/// roc_auc_score of binary scores to the bit; nullopt when a class has no weight.
std::optional<double> roc_auc(std::span<const std::int32_t> y, std::span<const double> score,
                              std::span<const double> weight);
/// average_precision_score of binary scores to the bit; nullopt without positive weight.
std::optional<double> average_precision(std::span<const std::int32_t> y, std::span<const double> score,
                                        std::span<const double> weight);
/// Threads of the parallel class sort behind the unweighted sweeps from 2^16 cases (0: the core's
/// choice); for measurements.
void set_sort_threads(unsigned threads);

}  // namespace assay::sklearn
