// assay: comparing two learners on the same splits: the per-split differences
// delta_i = score_i(A) - score_i(B), i = 1..k, and the tests of their mean (Dietterich 1998;
// Nadeau & Bengio 2003).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "assay/validation/engine.hpp"

namespace assay::validation {

/// A t statistic with its degrees of freedom and two-sided p-value.
struct t_test {
  value t, df, p_value;
};

/// Tests of the mean of paired per-split differences d_i = a_i - b_i, i = 1..J.
struct split_difference_tests {
  double mean_difference = 0;
  value sd;
  /// Paired t-test: t = mean / (sd / sqrt(J)), J - 1 df (scipy.stats.ttest_rel). Too liberal for
  /// cross-validation because the training sets overlap (Dietterich 1998).
  t_test paired;
  /// Corrected resampled t-test (Nadeau & Bengio 2003): t = mean / (sd * sqrt(1/J + n_test/n_train)),
  /// J - 1 df.
  t_test corrected;
  /// 5x2cv paired t-test (Dietterich 1998), only for 5 repeats of 2-fold CV (splits in repeat order):
  /// t = d_1^(1) / sqrt(mean_i s_i^2), s_i^2 = sum over the two folds of repeat i of (d - mean_i)^2,
  /// 5 df. Undefined otherwise.
  t_test five_by_two;
};

/// The three tests from per-split scores of learner A (`a`) and B (`b`); `n_train` and `n_test`
/// are the (mean) sizes of the parts; `repeats` and `folds` describe the layout for 5x2cv. The tests
/// are computed by stats/learner_tests.hpp (paired_t_test, corrected_resampled_t_test,
/// cv52_paired_t_test); here a test is undefined, with the reason, where its t would be infinite
/// (no spread of the differences) or the layout does not fit.
split_difference_tests test_split_differences(std::span<const double> a, std::span<const double> b, double n_train, double n_test,
                                 std::size_t repeats, std::size_t folds);

struct learner_comparison {
  std::string learner_a, learner_b, metric;
  bool higher_is_better = true;
  std::vector<double> a, b;  ///< per-split scores
  cv_result result_a, result_b;
  split_difference_tests tests;
};

/// Cross-validates both learners on `splits` and compares them on the first metric.
learner_comparison compare_learners(const dataset& d, const any_learner& a, const any_learner& b,
                                    const split_list& splits, const cv_options& options);

std::string to_text(const learner_comparison& r);
std::string to_json(const learner_comparison& r);
/// An SVG plot of the per-split scores: one point per split for A and for B, joined by a line, so
/// that a consistent difference (every line sloping the same way) is visible.
std::string to_svg(const learner_comparison& r);

}  // namespace assay::validation
