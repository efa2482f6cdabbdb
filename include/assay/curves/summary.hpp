// assay: ROC AUC, average precision and the best thresholds of unweighted binary scores in one
// streaming pass, with no per-threshold arrays: what `assay report` needs for a large file, in
// O(1) memory beyond the scores. Equal to roc_auc / average_precision / best_youden / best_fbeta of
// the sweep (tests/curves/summary_test.cpp), as both use the same running sums (accumulate.hpp).
#pragma once

#include <span>

#include "assay/value.hpp"

namespace assay::curves {

struct ranking_summary {
  value roc_auc;
  value average_precision;
  value best_threshold_youden;  ///< the threshold itself ("positive when score >= t")
  value best_threshold_f1;
};

/// `positives` and `negatives` are the scores of each class, each sorted ascending, -0.0 already
/// turned into +0.0 (adding 0.0 does it).
ranking_summary summarize_sorted(std::span<const double> positives, std::span<const double> negatives);

/// Splits `score` by class in place (y[i] == 1 is positive; both spans are permuted together),
/// sorts each class (two threads on large inputs) and summarises. The inputs' order is lost.
ranking_summary summarize_in_place(std::span<std::int32_t> y, std::span<double> score);

/// After summarize_in_place(y, score) with `positives` cases of class 1 (now the first `positives`
/// entries of `score`, each class sorted ascending): the summary of the complementary problem, the
/// negatives as the positive class ranked by -score (as complement() of a sweep), without a second
/// sort: the scores are negated and reversed in place (O(n)). The best thresholds are thresholds of
/// -score. A second call restores the original layout.
ranking_summary summarize_complement_sorted(std::span<double> score, std::size_t positives);

}  // namespace assay::curves
