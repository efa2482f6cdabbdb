// assay: the probability distributions behind every p-value and interval, as thin wrappers over
// Boost.Math. Upper tails ("survival functions", sf) are computed directly as complements, never as
// 1 - cdf, so small p-values keep their precision (cdf(complement(dist, x)) in Boost.Math).
//
// Every function checks its parameters and throws assay::error (kind usage) naming the function,
// the parameter and its value, e.g. `chi2_sf: df must be > 0; got -1`.
//
// References: Johnson, Kotz & Balakrishnan, "Continuous Univariate Distributions" (1994);
// Boost.Math statistical distributions; SciPy's scipy.stats (names: sf, ppf = quantile).
#pragma once

#include <cstdint>
#include <string_view>

namespace assay::stats {

/// Which tail(s) a test looks at. `greater`: the alternative is "the statistic is larger than under
/// H0"; `less`: smaller; `two_sided`: either (SciPy's `alternative`).
enum class alternative { two_sided, greater, less };

/// "two-sided", "greater" or "less" (SciPy's spelling).
std::string_view to_string(alternative alt);
/// Parses "two-sided" (also "two_sided", "two.sided"), "greater", "less"; throws naming `what`.
alternative parse_alternative(std::string_view text, std::string_view what = "alternative");

// ---- normal ---------------------------------------------------------------------------------

/// Standard normal CDF Phi(x) = P(Z <= x).
double normal_cdf(double x);
/// Standard normal upper tail 1 - Phi(x) = P(Z > x), computed directly.
double normal_sf(double x);
/// Standard normal quantile Phi^{-1}(p), p in (0, 1).
double normal_quantile(double p);
/// The two-sided critical value z_N for a central interval of probability `level`:
/// Phi^{-1}((1 + level) / 2), e.g. 1.959964 for level 0.95 (the z_N table of Mitchell 1997, Table 5.1: 50% 0.67,
/// 68% 1.00, 80% 1.28, 90% 1.64, 95% 1.96, 98% 2.33, 99% 2.58). level in (0, 1).
double z_critical(double level);

// ---- Student t ------------------------------------------------------------------------------

/// Student t CDF with df > 0 degrees of freedom (df may be non-integer).
double t_cdf(double x, double df);
/// Student t upper tail P(T > x).
double t_sf(double x, double df);
/// Student t quantile, p in (0, 1).
double t_quantile(double p, double df);

// ---- chi-square and F -----------------------------------------------------------------------

/// Chi-square CDF with df > 0, x >= 0.
double chi2_cdf(double x, double df);
/// Chi-square upper tail P(X > x), e.g. chi2_sf(3.841459, 1) = 0.05 (the familiar 3.84 at 95%).
double chi2_sf(double x, double df);
/// Chi-square quantile, p in (0, 1).
double chi2_quantile(double p, double df);
/// Fisher F upper tail P(F > x) with df1, df2 > 0.
double f_sf(double x, double df1, double df2);

// ---- binomial -------------------------------------------------------------------------------

/// Binomial probability mass P(X = k), X ~ Bin(n, p).
double binom_pmf(std::int64_t k, std::int64_t n, double p);
/// Binomial CDF P(X <= k) (0 for k < 0, 1 for k >= n).
double binom_cdf(std::int64_t k, std::int64_t n, double p);
/// Binomial upper tail P(X >= k), computed directly (1 for k <= 0, 0 for k > n).
/// Seed 002: binom_upper_tail(15, 20, 0.5) = 0.02069...
double binom_upper_tail(std::int64_t k, std::int64_t n, double p);

/// Result of an exact binomial test.
struct binom_test_result {
  std::int64_t k = 0;    ///< successes
  std::int64_t n = 0;    ///< trials
  double p = 0.5;        ///< success probability under H0
  alternative alt = alternative::two_sided;
  double statistic = 0;  ///< k / n
  double p_value = 1;
};

/// Exact binomial test of H0: success probability = p, as scipy.stats.binomtest:
/// - greater: P(X >= k); less: P(X <= k);
/// - two-sided: the total probability of the outcomes no more likely than the observed one,
///   sum of P(X = i) over i with P(X = i) <= P(X = k) (1 + 1e-7) (the relative slack makes outcomes
///   whose probability equals P(X = k) up to rounding count as "as extreme"), capped at 1; exactly 1
///   when k = n p.
/// Requires 0 <= k <= n, n >= 1, p in [0, 1]. Reference: Clopper & Pearson (1934); SciPy binomtest.
binom_test_result binom_test(std::int64_t k, std::int64_t n, double p = 0.5,
                             alternative alt = alternative::two_sided);

}  // namespace assay::stats
