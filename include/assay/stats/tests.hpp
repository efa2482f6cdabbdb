// assay: tests between classifiers evaluated on one and the same test set: McNemar (two models),
// Cochran's Q (two or more), and the paired permutation test of any metric difference.
// Which McNemar to use when: docs/definitions/stats.md. Formulas and references: docs/stats.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "assay/stats/test_result.hpp"

namespace assay::stats {

/// The discordant counts of two classifiers on the same cases (Dietterich 1998's notation,
/// Neural Computation 10(7)):
/// n01 = cases model A classifies correctly and model B wrongly, n10 = the reverse.
struct discordant_counts {
  std::int64_t n01 = 0;  ///< A right, B wrong
  std::int64_t n10 = 0;  ///< A wrong, B right
  std::int64_t n11 = 0;  ///< both right
  std::int64_t n00 = 0;  ///< both wrong
};

/// Counts the 2 x 2 agreement table of two sets of hard predictions against `y_true`.
/// Throws a usage error naming the argument when the lengths differ.
discordant_counts count_discordant(std::span<const std::int32_t> y_true, std::span<const std::int32_t> pred_a,
                                   std::span<const std::int32_t> pred_b);

/// Variants of McNemar's test.
enum class mcnemar_method {
  exact,           ///< exact binomial: statistic min(n01, n10), p = min(1, 2 P(X <= min)), X ~ Bin(n01 + n10, 1/2)
  chi2_corrected,  ///< (|n01 - n10| - 1)^2 / (n01 + n10) vs chi-square(1) (Edwards 1948)
  chi2,            ///< (n01 - n10)^2 / (n01 + n10) vs chi-square(1), no continuity correction
};

/// McNemar's test (McNemar 1947) of H0: the two classifiers have the same error rate, from the
/// discordant counts n01, n10 (>= 0). Same numbers as statsmodels.stats.contingency_tables.mcnemar
/// (exact=True; exact=False with correction=True / False), except when n01 + n10 = 0: no
/// discordant case is no evidence, so the statistic is 0 and p = 1 (statsmodels returns NaN).
/// As in statsmodels and most textbooks, the corrected statistic is not truncated at 0 when n01 = n10
/// (it is 1 / (n01 + n10) there; R's mcnemar.test drops the correction in that case).
/// method names: "mcnemar_exact", "mcnemar_chi2_corrected", "mcnemar_chi2".
test_result mcnemar(std::int64_t n01, std::int64_t n10, mcnemar_method method = mcnemar_method::exact);

/// R's mcnemar.test(x) of a K x K table `table` (row-major, K >= 2, entries finite and >= 0; e.g. a
/// confusion matrix): H0 the table is symmetric, n_ij and n_ji equally likely for every pair.
/// K = 2: McNemar (1947) with R's continuity correction, (|n01 - n10| - 1)^2 / (n01 + n10), which R
/// drops when n01 = n10 (statistic 0, p = 1); df 1. K > 2: Bowker's (1948) test,
/// sum_{i<j} (n_ij - n_ji)^2 / (n_ij + n_ji), df = K (K - 1) / 2, without correction (as R).
/// p = chi2_sf. As R, the result is NaN (p_value NaN) when some pair has n_ij + n_ji = 0 (0/0): the
/// caller reports it undefined. What caret's confusionMatrix prints as "Mcnemar's Test P-Value".
/// method names: "mcnemar_chi2_corrected" (K = 2, n01 != n10), "mcnemar_chi2" (K = 2, n01 = n10),
/// "bowker". Throws kind usage naming the function for a bad size or entry.
test_result table_symmetry_test(std::span<const double> table, std::size_t K);

/// Cochran's Q test (Cochran 1950) of H0: k >= 2 classifiers have the same success probability,
/// from `success` = n rows (cases) x k columns (classifiers), row-major, 1 = classified correctly.
///   Q = (k - 1) (k sum_j C_j^2 - T^2) / (k T - sum_i R_i^2), df = k - 1, p = chi2_sf(Q, k - 1),
/// C_j column totals, R_i row totals, T the grand total; statsmodels cochrans_q. When every row is
/// constant (all right or all wrong: the denominator is 0), Q = 0 and p = 1 (statsmodels: NaN).
/// For k = 2 Q equals McNemar's uncorrected chi-square. Entries must be 0 or 1.
test_result cochrans_q(std::span<const std::int32_t> success, std::size_t n_rows, std::size_t k);

/// A metric of predictions against the truth, e.g. accuracy of labels or AUC of scores, as
/// f(y_true, y_pred). Called concurrently from several threads: it must not mutate shared state.
using metric_fn = std::function<double(std::span<const double> y_true, std::span<const double> y_pred)>;

struct permutation_options {
  std::size_t permutations = 10000;
  std::uint64_t seed = 0;
  unsigned threads = 0;  ///< at most this many (0: assay::max_threads()); the result does not depend on it
  alternative alt = alternative::two_sided;
};

struct permutation_result {
  double observed = 0;      ///< metric(A) - metric(B) on the data as given
  double p_value = 1;
  std::size_t extreme = 0;  ///< permutations at least as extreme as the observed difference
  std::size_t permutations = 0;
  alternative alt = alternative::two_sided;
};

/// Paired (approximate) permutation test of H0: models A and B are exchangeable, i.e. the metric
/// difference d = metric(y, a) - metric(y, b) is as likely as its value with the two models'
/// predictions swapped on any subset of the cases. Each permutation swaps a_i and b_i independently
/// with probability 1/2 for every case i, then recomputes d*. With R permutations and E of them at
/// least as extreme as d (|d*| >= |d| two-sided; d* >= d greater; d* <= d less; comparisons with a
/// relative slack of 1e-12 so rounding does not split ties), p = (E + 1) / (R + 1), which is never 0
/// and is a valid p-value (Phipson & Smyth 2010). Deterministic for a seed whatever the thread count:
/// permutation r uses its own random stream (random.hpp). Once cancellation is requested
/// (validation/cancel.hpp) the remaining permutations are skipped and validation::interrupted thrown.
/// References: Good, "Permutation, Parametric and Bootstrap Tests of Hypotheses" (2005);
/// Noreen, "Computer-Intensive Methods for Testing Hypotheses" (1989).
permutation_result paired_permutation_test(std::span<const double> y_true, std::span<const double> pred_a,
                                           std::span<const double> pred_b, const metric_fn& metric,
                                           const permutation_options& opts = {});

}  // namespace assay::stats
