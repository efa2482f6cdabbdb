// assay: tests of whether one slice of a test set (the rows of one country, one device, ...) differs
// from the rest of it, for the sliced report (report/slices.hpp).
//
// - Rates (accuracy, error rate, TPR, ...): each slice against the rest by the pooled two-proportion
//   z test, and all slices at once by Pearson's chi-square test of homogeneity of a k x 2 table,
//   without continuity correction (Agresti, "Categorical Data Analysis", 3rd ed., 2013, sections
//   3.1-3.2). Same numbers as statsmodels' proportions_ztest and SciPy's
//   chi2_contingency(correction=False), which the tests replay.
// - ROC AUC: each slice against the rest by the unpaired DeLong test (DeLong, DeLong &
//   Clarke-Pearson, Biometrics 44 (1988) 837-845; pROC's roc.test(paired = FALSE)): the slice and
//   the rest are independent samples, each AUC has its DeLong variance from the structural
//   components (stats/delong.hpp), and t = (A_slice - A_rest) / sqrt(V_slice + V_rest) with
//   Welch-Satterthwaite degrees of freedom.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "assay/stats/delong.hpp"
#include "assay/stats/test_result.hpp"
#include "assay/value.hpp"

namespace assay::stats {

/// What inference on one AUC needs: the class counts, the AUC and its DeLong variance
/// Var = S10 / m + S01 / n from the structural components (stats/delong.hpp).
struct auc_variance {
  std::size_t n_pos = 0, n_neg = 0;
  value auc;       ///< undefined without both classes
  value variance;  ///< undefined with fewer than 2 positives or 2 negatives
};

/// The AUC and DeLong variance of one sample (`y_true` 0/1, finite scores), O(N log N).
auc_variance delong_auc_variance(std::span<const std::int32_t> y_true, std::span<const double> y_score);

/// The unpaired DeLong test of two independent samples from their summaries:
/// t = (AUC_a - AUC_b) / sqrt(V_a + V_b), df = (V_a + V_b)^2 / (V_a^2 / (N_a - 1) + V_b^2 / (N_b - 1))
/// with N = n_pos + n_neg, p from Student's t; pROC's roc.test(paired = FALSE, method = "delong").
/// Both variances must be defined (a usage error naming delong_unpaired_from_variances otherwise).
/// V_a + V_b = 0 gives p = 1 for equal AUCs and p = 0 otherwise (two-sided), df NaN.
delong_test_result delong_unpaired_from_variances(const auc_variance& a, const auc_variance& b,
                                                  alternative alt = alternative::two_sided);

/// Rows grouped into slices: the rows of slice s are order[offsets[s] .. offsets[s + 1]).
/// offsets has (slices + 1) entries, starts at 0, never decreases and ends at order.size().
struct row_groups {
  std::vector<std::uint32_t> order;
  std::vector<std::size_t> offsets;
  std::vector<std::int32_t> code;  ///< each row's slice, in row order
  /// column[i] for the rows of every slice, slice after slice (column[order[j]] at j): one pass over
  /// the column in row order, so the reads are sequential whatever the slices.
  template <class T>
  [[nodiscard]] std::vector<T> scatter(std::span<const T> column, std::size_t width = 1) const {
    std::vector<T> out(column.size());
    std::vector<std::size_t> next(offsets.begin(), offsets.end() - 1);
    for (std::size_t i = 0; i < code.size(); ++i) {
      const std::size_t at = next[static_cast<std::size_t>(code[i])]++;
      for (std::size_t c = 0; c < width; ++c) out[at * width + c] = column[i * width + c];
    }
    return out;
  }
  [[nodiscard]] std::size_t size() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  [[nodiscard]] std::span<const std::uint32_t> rows(std::size_t s) const {
    return std::span<const std::uint32_t>(order).subspan(offsets[s], offsets[s + 1] - offsets[s]);
  }
};

/// Groups rows by code (codes[i] in [0, slices)) with one stable counting sort: rows keep their order
/// within a slice. O(N + slices). Throws a usage error naming the row when a code is out of range.
row_groups group_rows(std::span<const std::int32_t> codes, std::size_t slices);

/// Each slice's AUC summary and that of the rest (all other rows).
struct auc_slice_vs_rest {
  auc_variance slice, rest;
};

/// For every group of `groups` (which must cover every row of y_true exactly once): the AUC and
/// DeLong variance of the slice and of the rest, in O(N log N + N) overall, not O(N) per slice: the
/// scores are sorted once into groups of tied scores; for a positive of the rest, the negatives of
/// the rest it beats are all the negatives it beats less the slice's, and the slice's count is a
/// step function of the score that changes only at the slice's own negatives, so the sums over the
/// rest's placements come from prefix sums over the tied groups (and likewise for the negatives).
/// Same numbers as stats::delong on the rest's rows alone, up to rounding (tested against an O(n^2)
/// brute force). A front end of the version below: it sorts the rows, counts each slice's positives
/// and negatives in every group of tied scores, and hands those counts over (so both give the same
/// bits). Usage errors (naming delong_slices_vs_rest) for labels other than 0/1, non-finite scores,
/// lengths that differ and groups that do not cover the rows.
std::vector<auc_slice_vs_rest> delong_slices_vs_rest(std::span<const std::int32_t> y_true,
                                                     std::span<const double> y_score, const row_groups& groups);

/// The rows of one slice in one group of tied scores.
struct slice_tie_counts {
  std::uint32_t slice = 0;
  std::uint64_t pos = 0, neg = 0;  ///< the slice's positives and negatives with this score
};

/// delong_slices_vs_rest from the groups of tied scores instead of rows: group g (ascending score
/// order) is counts[group_starts[g] .. group_starts[g + 1]), one entry per slice with rows at that
/// score (slices in any order within a group; an entry may have pos = neg = 0). group_starts starts
/// at 0, never decreases and ends at counts.size(). Every entry's slice is < `slices`.
/// The same numbers, bit for bit, as the row version on rows with these counts.
///
/// This is what a merge of per-slice sorted runs of (score, class, count) yields (e.g. mergeable
/// states summed over partitions): the scores themselves are not needed, only their order and ties.
/// The placements are DeLong's (DeLong, DeLong & Clarke-Pearson, Biometrics 44 (1988) 837-845): a
/// positive at score s is placed at (negatives below s + half the negatives at s) / n, a negative at
/// (positives above s + half the positives at s) / m, within the slice and within the rest.
/// Returns one entry per slice (`slices` of them); a slice or rest without both classes has an
/// undefined AUC, one with fewer than 2 of either class an undefined variance (with the reason).
/// The rest's placement sums are exact integers (128-bit), so a small rest beside a large slice keeps
/// its variance; that needs the total of all pos and neg to stay below 2^42 (4.4 10^12 rows).
/// Usage errors (naming delong_slices_vs_rest, the argument, the index and the value) for a slice
/// >= `slices`, a group_starts that is empty, does not start at 0, decreases or does not end at
/// counts.size(), the same slice twice in one group, and a total of rows of 2^42 or more.
/// O(E + G + slices) for E entries in G groups.
std::vector<auc_slice_vs_rest> delong_slices_vs_rest(std::span<const slice_tie_counts> counts,
                                                     std::span<const std::size_t> group_starts,
                                                     std::size_t slices);

/// Pooled two-proportion z test of x1/n1 against x2/n2 (two-sided):
/// p = (x1 + x2) / (n1 + n2), z = (x1/n1 - x2/n2) / sqrt(p (1 - p) (1/n1 + 1/n2)), p-value 2 P(Z > |z|);
/// statsmodels' proportions_ztest(count, nobs); two_proportions_z_test (two_proportions.hpp) as a
/// value. Undefined (with the reason) when n1 or n2 is 0 or when p is 0 or 1 (the statistic is 0/0).
struct proportion_test {
  value statistic, p_value;
};
proportion_test two_proportion_z_test(double x1, double n1, double x2, double n2);

/// Pearson's chi-square test of homogeneity of k proportions x_i / n_i (a k x 2 table of successes
/// and failures), without continuity correction: sum (O - E)^2 / E over the 2k cells, df = k - 1;
/// SciPy's chi2_contingency(table, correction=False). Groups with n_i = 0 are left out (they have
/// no row); undefined (with the reason) with fewer than 2 groups left or when every case is a
/// success or every one a failure (an expected count of 0).
struct homogeneity_test {
  value statistic, p_value;
  double df = 0;
};
homogeneity_test chi2_homogeneity(std::span<const double> x, std::span<const double> n);

}  // namespace assay::stats
