// assay: two proportions from independent samples: x1 successes (e.g. errors) out of n1 cases of
// sample 1 and x2 out of n2 of sample 2, such as the error rates of two hypotheses each tested on
// its own test set. The difference d = x1/n1 - x2/n2 with two intervals and two tests.
//
// Intervals (level L, z = Phi^{-1}((1 + L) / 2), p_i = x_i / n_i):
// - Wald:     d -+ z sqrt(p1 (1 - p1) / n1 + p2 (1 - p2) / n2) (Mitchell, "Machine Learning" (1997),
//             section 5.5; not clipped, as statsmodels' confint_proportions_2indep(method='wald')).
//             Degenerate ([d, d]) when both p_i are 0 or 1; too narrow for small n or p near 0 or 1.
// - Newcombe: the hybrid score interval (Newcombe, Statistics in Medicine 17 (1998) 873-890,
//             method 10): with (l_i, u_i) the Wilson interval of p_i at level L,
//             [d - sqrt((p1 - l1)^2 + (u2 - p2)^2), d + sqrt((u1 - p1)^2 + (p2 - l2)^2)];
//             statsmodels' confint_proportions_2indep(method='newcomb'). Inside [-1, 1], never
//             degenerate; assay's recommended interval.
// Tests of H0: p1 = p2:
// - two-proportion z test with the pooled proportion p = (x1 + x2) / (n1 + n2):
//   z = (p1 - p2) / sqrt(p (1 - p) (1 / n1 + 1 / n2)), p-value from the standard normal
//   (statsmodels' proportions_ztest([x1, x2], [n1, n2])). Undefined (0/0) when p is 0 or 1.
// - Fisher's exact test (integer counts only): conditional on the margins x1 + x2, n1, n2, X1 is
//   hypergeometric; greater: P(X1 >= x1), less: P(X1 <= x1), two-sided: the sum of P(X1 = k) over
//   every k with P(X1 = k) <= P(X1 = x1) (1 + 1e-7) (R's fisher.test; scipy.stats.fisher_exact).
//   Its statistic is the sample odds ratio x1 (n2 - x2) / ((n1 - x1) x2) (scipy's), inf or NaN when
//   a denominator is 0.
// `alternative::greater` means p1 > p2.
//
// Counts may be weighted (non-integer) for the intervals and the z test; Fisher's test needs integers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "assay/stats/distributions.hpp"
#include "assay/stats/test_result.hpp"
#include "assay/value.hpp"

namespace assay::stats {

/// How an interval for a difference of two independent proportions is computed.
enum class difference_method {
  wald,      ///< d -+ z sqrt(p1 (1 - p1) / n1 + p2 (1 - p2) / n2)
  newcombe,  ///< Newcombe's (1998) hybrid score interval from two Wilson intervals
};

/// "wald", "newcombe".
std::string_view to_string(difference_method m);

/// An interval for p1 - p2.
struct difference_interval {
  double estimate = 0;  ///< p1 - p2
  double lower = 0, upper = 0;
  double level = 0.95;
  difference_method method = difference_method::newcombe;
};

/// The interval of `method` at `level` for x1/n1 - x2/n2 (formulas above). Requires n_i > 0,
/// 0 <= x_i <= n_i, all finite, level in (0, 1); throws a usage error naming the function, the
/// argument and its value otherwise.
difference_interval two_proportions_ci(double x1, double n1, double x2, double n2, double level = 0.95,
                                       difference_method method = difference_method::newcombe);

/// The pooled two-proportion z test (statistic z, no df, method "two_proportion_z"). Undefined when
/// the pooled proportion is 0 or 1: then the returned value carries the reason and the test_result
/// holds NaN. Arguments as two_proportions_ci.
struct z_test_result {
  test_result test;
  std::string undefined;  ///< empty when defined, else why (e.g. "no successes in either sample")
  double std_error = 0;   ///< sqrt(p (1 - p) (1 / n1 + 1 / n2)), pooled
};
z_test_result two_proportions_z_test(double x1, double n1, double x2, double n2,
                                     alternative alt = alternative::two_sided);

/// Fisher's exact test of the 2 x 2 table [[x1, n1 - x1], [x2, n2 - x2]] (method "fisher_exact",
/// statistic the sample odds ratio). Requires integer counts with n_i > 0 and 0 <= x_i <= n_i.
test_result fisher_exact_test(std::int64_t x1, std::int64_t n1, std::int64_t x2, std::int64_t n2,
                              alternative alt = alternative::two_sided);

/// Everything `assay stats two-proportions` prints.
struct two_proportions_result {
  double x1 = 0, n1 = 0, x2 = 0, n2 = 0;
  double p1 = 0, p2 = 0, difference = 0;
  double level = 0.95;
  double wald_std_error = 0;  ///< sqrt(p1 (1 - p1) / n1 + p2 (1 - p2) / n2)
  difference_interval wald, newcombe;
  z_test_result z_test;
  bool has_fisher = false;  ///< the counts are integers and n1 + n2 <= 10^7 (the test is O(n))
  test_result fisher;
};

/// Both intervals, the z test and (integer counts, n1 + n2 <= 10^7) Fisher's exact test. Arguments as above.
two_proportions_result compare_two_proportions(double x1, double n1, double x2, double n2, double level = 0.95,
                                               alternative alt = alternative::two_sided);

}  // namespace assay::stats
