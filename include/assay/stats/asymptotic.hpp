// assay: confidence intervals from large-sample theory, without resampling: the normal interval of
// a (weighted) mean of per-row losses, and the logit interval of an average precision. They serve
// `assay report --ci` where the bootstrap would cost minutes on 10^7 rows (docs/definitions/intervals.md).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <span>

#include "assay/value.hpp"

namespace assay::stats {

struct asymptotic_interval {
  value lower, upper;  ///< undefined (with the reason) when the interval cannot be formed
};

/// The normal (central limit) interval of the weighted mean m = sum w_i l_i / sum w_i of per-row
/// values l (w empty: all 1; rows of weight 0 left out, n = the rest): m -+ z_{(1+level)/2} se with
///   se^2 = n / (n - 1) sum_i w_i^2 (l_i - m)^2 / (sum_i w_i)^2,
/// the linearisation (sandwich) variance of a ratio estimator with the n / (n - 1) correction, which
/// is s^2 / n (s^2 the sample variance) without weights (e.g. Cochran, "Sampling Techniques", 3rd ed.
/// 1977, sec. 6.4). With lower_bound set (e.g. 0 for losses), the lower end is raised to it.
/// Undefined below 2 rows of positive weight or for non-finite values. Throws a usage error for a
/// level outside (0, 1) or weights of the wrong length.
/// The sums are exact and rounded once (every term w_i l_i and (w_i (l_i - m))^2 rounded once, then
/// added exactly: detail/exact_sum.hpp), so for values >= 0 the interval does not depend on the order
/// of the rows; negative values are summed in row order.
asymptotic_interval mean_normal_ci(std::span<const double> values, std::span<const double> w, double level,
                                   double lower_bound = -std::numeric_limits<double>::infinity());

/// mean_normal_ci without weights of the rows given as groups of equal values: counts[g] rows of value
/// values[g] (values >= 0). The same interval, bit for bit, as mean_normal_ci of the rows one by one in
/// any order; the mergeable evaluation state (scale/state.hpp) uses it on its runs of equal scores.
asymptotic_interval mean_normal_ci_grouped(std::span<const double> values, std::span<const std::uint64_t> counts,
                                           double level,
                                           double lower_bound = -std::numeric_limits<double>::infinity());

/// Visits groups of equal values: f(value, count) once per group.
using value_group_source = std::function<void(const std::function<void(double, std::uint64_t)>&)>;

/// mean_normal_ci_grouped with the groups visited instead of held: `groups` is called twice (the
/// mean, then the sum of squares about it), each time with the same groups. The same interval, bit
/// for bit; memory O(1) (groups read back from a file: scale/out_of_core.hpp).
asymptotic_interval mean_normal_ci_grouped(const value_group_source& groups, double level,
                                           double lower_bound = -std::numeric_limits<double>::infinity());

/// The logit interval of an average precision (area under the precision-recall curve) of Boyd, Eng &
/// Page (2013), "Area under the precision-recall curve: point estimates and confidence intervals",
/// ECML PKDD, LNCS 8190, sec. 4: expit(logit(AP) -+ z_{(1+level)/2} tau), tau = 1 / sqrt(n_pos AP (1 - AP)),
/// with n_pos the number of positive cases. An approximation: Boyd et al. report coverage near the
/// nominal level from a few hundred positives, lower for few positives or AP near 1. Undefined unless
/// 0 < AP < 1 and n_pos > 0. Throws a usage error for a level outside (0, 1).
asymptotic_interval average_precision_logit_ci(double ap, double n_pos, double level);

}  // namespace assay::stats
