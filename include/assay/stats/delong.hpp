// assay: inference on the area under the ROC curve by DeLong's method: the variance of the AUC,
// its confidence interval, and the tests comparing two AUCs (paired: two models scored on the same
// cases; unpaired: independent samples). Same numbers as R's pROC (var(roc), ci.auc(method =
// "delong"), roc.test(method = "delong")), checked on the aSAH data to 1e-9.
//
// Placements (DeLong, DeLong & Clarke-Pearson 1988, "structural components"): with m positives
// X_1..X_m and n negatives Y_1..Y_n, psi(x, y) = 1 if x > y, 1/2 if x = y, 0 otherwise,
//   V10_i = (1/n) sum_j psi(X_i, Y_j),  V01_j = (1/m) sum_i psi(X_i, Y_j),
//   AUC = mean_i V10_i = mean_j V01_j,
//   S10 = sum_i (V10_i - AUC)^2 / (m - 1),  S01 = sum_j (V01_j - AUC)^2 / (n - 1),
//   Var(AUC) = S10 / m + S01 / n.
// They are computed in O(N log N) as in Sun & Xu (IEEE Signal Processing Letters 21(11), 2014):
// V10_i = (T_Z(X_i) - T_X(X_i)) / n and V01_j = 1 - (T_Z(Y_j) - T_Y(Y_j)) / m with T the midranks
// in the pooled sample, among positives and among negatives; assay gets the same numbers from one
// sort and one sweep over the groups of tied scores.
//
// Labels are 0/1 (1 = positive, scored higher); scores must be finite. Bad input throws a usage
// error naming the function, the argument and the row.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "assay/stats/test_result.hpp"
#include "assay/value.hpp"

namespace assay::stats {

/// DeLong placements of one model.
struct delong_placements {
  std::size_t n_pos = 0, n_neg = 0;
  value auc;                 ///< undefined when a class is absent
  std::vector<double> v10;   ///< per positive, in input order of the positives
  std::vector<double> v01;   ///< per negative, in input order of the negatives
  value s10, s01;            ///< undefined with fewer than 2 positives (s10) or negatives (s01)
  value variance;            ///< S10 / m + S01 / n
};

/// The placements, AUC and DeLong variance of `y_score` against `y_true` (0/1), O(N log N).
delong_placements delong(std::span<const std::int32_t> y_true, std::span<const double> y_score);

/// An AUC with its DeLong interval.
struct auc_interval {
  value auc;
  value variance;
  value lower, upper;  ///< AUC -+ z sqrt(Var), clipped to [0, 1] as pROC; undefined with < 2 of a class
  double level = 0.95;
};

/// Confidence interval of the AUC at `level` (in (0, 1)) from the DeLong variance; pROC's
/// ci.auc(method = "delong"). AUC = 1 or 0 gives variance 0 and the degenerate interval [AUC, AUC].
auc_interval delong_ci(std::span<const std::int32_t> y_true, std::span<const double> y_score, double level = 0.95);

/// delong_ci from the groups of tied scores instead of the cases: for each distinct score in ascending
/// order, positives[g] positive and negatives[g] negative cases score it (a group of neither is
/// skipped). The same numbers, bit for bit, as delong_ci on the cases; what a mergeable evaluation
/// state (scale/state.hpp) keeps is enough for it.
auc_interval delong_ci_grouped(std::span<const std::uint64_t> positives, std::span<const std::uint64_t> negatives,
                               double level = 0.95);

/// Visits tie groups in ascending score order: f(positives, negatives) once per distinct score.
using tie_group_source = std::function<void(const std::function<void(std::uint64_t, std::uint64_t)>&)>;

/// delong_ci_grouped with the groups visited instead of held: `groups` is called twice (the AUC, then
/// the variance about it), each time with the same groups in the same ascending order; n_pos and
/// n_neg are their totals. The same numbers, bit for bit; memory O(1), so groups read back from a
/// file serve a report out of core (scale/out_of_core.hpp).
auc_interval delong_ci_grouped(std::uint64_t n_pos, std::uint64_t n_neg, const tie_group_source& groups,
                               double level = 0.95);

/// The comparison of two AUCs.
struct delong_test_result {
  test_result test;  ///< statistic z (paired) or t with Welch-Satterthwaite df (unpaired)
  double auc_a = 0, auc_b = 0;
  double difference = 0;   ///< auc_a - auc_b
  double std_error = 0;    ///< sqrt of the variance of the difference
  value diff_lower, diff_upper;  ///< paired only: difference -+ z sqrt(Var) (pROC's conf.int, not clipped)
  double level = 0.95;
};

/// DeLong's test for two correlated ROC curves (DeLong et al. 1988): models A and B scored on the
/// same cases. With the placements of both, the covariance matrix S = S10 / m + S01 / n where
/// S10_ab = sum_i (V10a_i - AUC_a)(V10b_i - AUC_b) / (m - 1) (and likewise S01),
///   z = (AUC_a - AUC_b) / sqrt(S_aa + S_bb - 2 S_ab),
/// p from the standard normal (alt: greater means AUC_a > AUC_b). Identical models give z = 0,
/// p = 1 (0/0, as pROC). Requires >= 2 positives and >= 2 negatives (data error otherwise) and
/// scores of equal length; pROC's roc.test(paired = TRUE, method = "delong").
delong_test_result delong_paired_test(std::span<const std::int32_t> y_true, std::span<const double> score_a,
                                      std::span<const double> score_b, alternative alt = alternative::two_sided,
                                      double level = 0.95);

/// DeLong's test for two ROC curves on independent samples: t = (AUC_a - AUC_b) / sqrt(V_a + V_b),
/// with Welch-Satterthwaite degrees of freedom df = (V_a + V_b)^2 / (V_a^2 / (N_a - 1) + V_b^2 / (N_b - 1))
/// (N = all cases of the sample) and p from Student's t, as pROC's roc.test(paired = FALSE,
/// method = "delong").
delong_test_result delong_unpaired_test(std::span<const std::int32_t> y_a, std::span<const double> score_a,
                                        std::span<const std::int32_t> y_b, std::span<const double> score_b,
                                        alternative alt = alternative::two_sided);

}  // namespace assay::stats
