// assay: tests between learning algorithms from resampling results (per-fold differences of a
// score, or per-data-set scores). The resampling engine that produces the numbers is elsewhere;
// these functions take the numbers. Formulas and references: docs/stats.md; choices (Wilcoxon zeros
// and ties, degenerate variances): docs/definitions/stats.md.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "assay/stats/test_result.hpp"

namespace assay::stats {

/// A t test with the mean it tests and its standard error.
struct t_test_result {
  test_result test;      ///< statistic t, df, p-value
  double mean = 0;       ///< delta-bar
  double std_error = 0;  ///< the denominator of t
};

/// Paired t test over k folds (Mitchell, Machine Learning, 1997, section 5.6:
/// delta_i = error_{S_i}(h_A) - error_{S_i}(h_B), delta-bar = (1/k) sum delta_i):
/// t = delta-bar / (s / sqrt(k)), s^2 = sum (delta_i - delta-bar)^2 / (k - 1), df = k - 1;
/// scipy.stats.ttest_1samp(deltas, 0) = ttest_rel(a, b). Requires k >= 2, finite values.
/// When s = 0: t = 0, p = 1 if delta-bar = 0, else t = +-inf and the p-value of an infinite t (SciPy
/// returns NaN for 0/0). Reference: Dietterich (1998), Neural Computation 10(7):1895-1923.
t_test_result paired_t_test(std::span<const double> deltas, alternative alt = alternative::two_sided);
/// The same on paired per-fold scores: deltas a_i - b_i.
t_test_result paired_t_test(std::span<const double> a, std::span<const double> b,
                            alternative alt = alternative::two_sided);

/// The variance factor of Nadeau & Bengio's correction (Machine Learning 52:239-281, 2003): over k
/// train/test splits with n_train and n_test cases each, the per-split values are correlated through
/// the overlap of the training sets, and Var(mean) is estimated by (1/k + n_test/n_train) s^2 instead
/// of s^2 / k. The one place this factor is written; every corrected test and interval uses it.
double corrected_resampled_variance_factor(std::size_t k, double n_train, double n_test);

/// Nadeau & Bengio's corrected resampled t test (Machine Learning 52:239-281, 2003): for k
/// train/test splits with n_train and n_test cases each, the variance of delta-bar is inflated for
/// the overlap of the training sets: t = delta-bar / sqrt((1/k + n_test/n_train) s^2), df = k - 1.
/// Requires k >= 2, n_train > 0, n_test > 0.
t_test_result corrected_resampled_t_test(std::span<const double> deltas, double n_train, double n_test,
                                         alternative alt = alternative::two_sided);
/// The same on paired per-fold scores: deltas a_i - b_i. Throws a usage error when the lengths differ.
t_test_result corrected_resampled_t_test(std::span<const double> a, std::span<const double> b, double n_train,
                                         double n_test, alternative alt = alternative::two_sided);

/// The mean of k per-split values with its corrected resampled t interval.
struct corrected_interval {
  double mean = 0;
  double std_error = 0;  ///< sqrt((1/k + n_test/n_train) s^2)
  double df = 0;         ///< k - 1
  double level = 0.95;
  double lower = 0, upper = 0;
};

/// Interval for the mean of k per-split values (scores of one learner, or differences between two)
/// from resampling whose training sets overlap (Nadeau & Bengio 2003): mean +- t_{k-1, (1+level)/2}
/// * sqrt((1/k + n_test/n_train) s^2), s the sample sd (k - 1). It inverts corrected_resampled_t_test:
/// 0 lies outside the interval exactly when that test's two-sided p-value is below 1 - level.
/// Requires k >= 2 finite values, n_train > 0, n_test >= 0 (0 gives the plain t interval), level in
/// (0, 1); throws a usage error otherwise.
corrected_interval corrected_resampled_interval(std::span<const double> values, double n_train, double n_test,
                                                double level = 0.95);

/// Dietterich's 5x2cv paired t test (Dietterich 1998). `p` holds the 10 differences p_i^(j) of
/// replication i = 1..5 and fold j = 1, 2, row-major (p[2 (i-1) + (j-1)]). With
/// pbar_i = (p_i^(1) + p_i^(2)) / 2 and s_i^2 = (p_i^(1) - pbar_i)^2 + (p_i^(2) - pbar_i)^2:
/// t = p_1^(1) / sqrt((1/5) sum_i s_i^2), df = 5. When sum s_i^2 = 0 the same convention as
/// paired_t_test applies.
test_result cv52_paired_t_test(std::span<const double> p, alternative alt = alternative::two_sided);

/// Alpaydin's combined 5x2cv F test (Neural Computation 11(8):1885-1892, 1999), same input as
/// cv52_paired_t_test: F = sum_i sum_j (p_i^(j))^2 / (2 sum_i s_i^2), F(10, 5), p = P(F > f).
/// When sum s_i^2 = 0: F = 0, p = 1 if every p is 0, else F = inf, p = 0.
test_result cv52_combined_f_test(std::span<const double> p);

/// How the Wilcoxon signed-rank test treats zero differences (SciPy's zero_method).
enum class wilcoxon_zeros {
  wilcox,  ///< drop them (Wilcoxon 1945); assay's default
  pratt,   ///< rank them with the others, then drop their ranks (Pratt 1959)
  zsplit,  ///< rank them and split their ranks equally between the + and - sums
};

/// Which distribution gives the Wilcoxon p-value.
enum class wilcoxon_mode {
  automatic,  ///< exact when it applies (n <= 50, no zeros, no ties), else the normal approximation
  exact,      ///< exact null distribution; falls back to the approximation when there are zeros or ties
  approx,     ///< normal approximation with the tie correction
};

struct wilcoxon_options {
  wilcoxon_zeros zeros = wilcoxon_zeros::wilcox;
  wilcoxon_mode mode = wilcoxon_mode::automatic;
  bool correction = false;  ///< continuity correction of the normal approximation
  alternative alt = alternative::two_sided;
};

/// Wilcoxon signed-rank test (Wilcoxon 1945) of H0: the differences d_i = x_i - y_i are symmetric
/// about 0, as scipy.stats.wilcoxon. |d| is ranked with midranks; R+ (R-) sums the ranks of the
/// positive (negative) differences. Statistic: min(R+, R-) two-sided, R+ one-sided (SciPy).
/// Exact: P from the distribution of R+ = sum of a random subset of {1..n}, two-sided
/// min(1, 2 min(P(R+ <= r), P(R+ >= r))). Approximation: z = (T - n(n+1)/4 - cc) / sigma,
/// sigma^2 = (n(n+1)(2n+1) - sum_ties (t^3 - t)/2) / 24 (Pratt: minus the zeros' share, Cureton 1967).
/// The exact distribution is never used with ties (SciPy 1.10 does, truncating half ranks; assay
/// switches to the approximation and says so in `method`: "wilcoxon_exact" or "wilcoxon_approx").
/// Throws a data error when every difference is zero (wilcox, pratt), a usage error on length
/// mismatch, fewer than 1 case or non-finite values.
test_result wilcoxon(std::span<const double> x, std::span<const double> y, const wilcoxon_options& opts = {});
/// The same on the differences d = x - y.
test_result wilcoxon(std::span<const double> d, const wilcoxon_options& opts = {});

/// Friedman's test with its mean ranks.
struct friedman_result {
  test_result test;                ///< chi-square statistic, df = k - 1, p-value
  std::vector<double> mean_ranks;  ///< per treatment (column); rank 1 = the smallest value in a row
};

/// Friedman's test (Friedman 1937) of H0: k >= 3 treatments (learners, columns) are equivalent over
/// n >= 2 blocks (data sets, rows), `data` row-major n x k: ranks within each row (midranks for
/// ties), R_j the column rank sums,
///   chi2_F = (12 / (n k (k + 1)) sum_j R_j^2 - 3 n (k + 1)) / (1 - sum_ties (t^3 - t) / (n k (k^2 - 1))),
/// df = k - 1, p = chi2_sf; scipy.stats.friedmanchisquare. If every row is entirely tied the
/// statistic is 0 and p = 1 (SciPy: NaN). Reference: Demsar, JMLR 7:1-30 (2006).
friedman_result friedman(std::span<const double> data, std::size_t n_rows, std::size_t k);

/// The critical value q_alpha of the Nemenyi test (Demsar 2006, Table 5a/b): the 1 - alpha quantile
/// of the studentized range of k independent standard normals divided by sqrt(2). The range's CDF
/// is P(W <= w) = k Int phi(z) (Phi(z + w) - Phi(z))^(k-1) dz, integrated numerically and inverted
/// by root finding; scipy.stats.studentized_range(k, inf). k in [2, 1000], alpha in (0, 1).
double nemenyi_q(std::size_t k, double alpha = 0.05);

/// Nemenyi critical difference of mean ranks (Demsar 2006): CD = q_alpha sqrt(k (k + 1) / (6 n)).
/// Two learners differ significantly when their mean ranks differ by at least CD.
double nemenyi_critical_difference(std::size_t k, std::size_t n, double alpha = 0.05);

/// Pairwise p-values of the Nemenyi test (Nemenyi 1963; Demsar 2006) from the mean ranks of k >= 2
/// learners over n >= 1 data sets: learners i and j differ when
///   q_ij = |R_i - R_j| / sqrt(k (k + 1) / (6 n)) * sqrt(2)
/// is large under the studentized range of k standard normals (infinite degrees of freedom):
/// p_ij = P(W >= q_ij), P from the same numerical range CDF as nemenyi_q (so p_ij <= alpha exactly
/// when |R_i - R_j| >= the critical difference, up to the root finder's tolerance). Row-major k x k,
/// diagonal 1; scikit-posthocs' posthoc_nemenyi_friedman. Throws a usage error for k outside
/// [2, 1000], n = 0 or a non-finite rank.
std::vector<double> nemenyi_p_values(std::span<const double> mean_ranks, std::size_t n);

/// Midranks of `v` (1-based; ties get the mean of the ranks they span), as scipy.stats.rankdata.
std::vector<double> midranks(std::span<const double> v);

}  // namespace assay::stats
