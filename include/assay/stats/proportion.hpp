// assay: confidence intervals for a proportion (accuracy, error rate, recall, specificity,
// precision, ...): `x` successes out of `n` trials. See docs/stats.md for the formulas and
// docs/definitions/stats.md for the choices (Wilson is assay's default).
//
// Counts may be weighted (non-integer) for the normal, Wilson and Agresti-Coull intervals, which
// are functions of x / n and n only; Clopper-Pearson uses them as the parameters of beta quantiles,
// which is also defined for non-integer counts (statsmodels does the same).
//
// Reference peer: statsmodels.stats.proportion.proportion_confint (methods 'normal', 'wilson',
// 'agresti_coull', 'beta').
#pragma once

#include <string_view>

namespace assay::stats {

/// How an interval for a proportion is computed.
enum class proportion_method {
  wilson,           ///< Wilson (1927) score interval; assay's default
  normal,           ///< Wald: e +- z sqrt(e (1 - e) / n) (Mitchell 1997, eq. 5.1), clipped to [0, 1]
  agresti_coull,    ///< Agresti & Coull (1998): Wald on (x + z^2/2) / (n + z^2)
  clopper_pearson,  ///< Clopper & Pearson (1934) "exact" interval from beta quantiles
};

/// "wilson", "normal", "agresti_coull", "clopper_pearson".
std::string_view to_string(proportion_method m);
/// Parses the names above; also "exact" and "beta" (statsmodels) for Clopper-Pearson, "wald" for
/// normal, "agresti-coull". Throws a usage error naming `what` otherwise.
proportion_method parse_proportion_method(std::string_view text, std::string_view what = "method");

/// A confidence interval with its point estimate, level and method.
struct proportion_interval {
  double estimate = 0;  ///< x / n
  double lower = 0;
  double upper = 0;
  double level = 0.95;
  proportion_method method = proportion_method::wilson;
};

/// Two-sided interval of confidence `level` for the proportion x / n.
///
/// With z = Phi^{-1}((1 + level) / 2) and e = x / n:
/// - normal:          e -+ z sqrt(e (1 - e) / n) (Mitchell, Machine Learning, 1997, ch. 5), clipped to [0, 1] as
///                    statsmodels does (degenerate, [e, e], at e = 0 or 1).
/// - wilson:          (e + z^2/(2n) -+ z sqrt(e (1 - e)/n + z^2/(4 n^2))) / (1 + z^2/n).
/// - agresti_coull:   n~ = n + z^2, e~ = (x + z^2/2) / n~, e~ -+ z sqrt(e~ (1 - e~) / n~), clipped
///                    to [0, 1].
/// - clopper_pearson: [B^{-1}(a/2; x, n - x + 1), B^{-1}(1 - a/2; x + 1, n - x)] with a = 1 - level,
///                    B^{-1} the beta quantile; lower = 0 when x = 0, upper = 1 when x = n.
/// Requires n > 0, 0 <= x <= n, both finite, level in (0, 1); throws a usage error naming the argument.
proportion_interval proportion_ci(double x, double n, double level = 0.95,
                                  proportion_method method = proportion_method::wilson);

}  // namespace assay::stats
