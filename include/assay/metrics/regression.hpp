// assay: regression metrics (names and definitions after scikit-learn's regression metrics). `w` is empty or one
// finite non-negative weight per case. Percentage errors are fractions (0.1 = 10%), as in
// scikit-learn.
#pragma once

#include <span>

#include "assay/value.hpp"

namespace assay {

/// A regression metric that is the weighted mean of one term per row, (1/W) sum w_i term(y_i, yhat_i)
/// (or its square root), defined when every row of positive weight lies in the term's domain. One
/// exact sum of the terms is all such a metric needs (detail/exact_sum.hpp: any order of the rows and
/// any partition give the same bits), so an entry of the metric registry that carries a row_term is
/// computed by every engine without code of its own: in memory (mean_of_terms), and in the mergeable
/// state behind out of core, MPI, Spark and Dask.
struct row_term {
  double (*term)(double y, double yhat) = nullptr;  ///< nullptr: not a mean of row terms
  /// nullptr when (y, yhat) is in the domain, else why the mean is undefined ("the target is 0").
  const char* (*outside)(double y, double yhat) = nullptr;
  bool root = false;  ///< the metric is the square root of the mean (RMSPE)
};

/// The weighted mean of `t`'s terms over the cases of positive weight; undefined with "<reason> in
/// case <i>" (1-based) at the first such case outside the domain, or with "no cases".
value mean_of_terms(const row_term& t, std::span<const double> y, std::span<const double> yhat,
                    std::span<const double> w = {});

/// The terms of the registry's means of row terms (metrics/registry.cpp).
extern const row_term absolute_percentage_term;  ///< |y - yhat| / |y|; y != 0
extern const row_term squared_percentage_term;   ///< ((y - yhat) / y)^2; y != 0
extern const row_term poisson_deviance_term;     ///< 2 (y log(y / yhat) - y + yhat); y >= 0, yhat > 0
extern const row_term gamma_deviance_term;       ///< 2 (log(yhat / y) + y / yhat - 1); y > 0, yhat > 0

/// (1/W) sum w_i |y_i - yhat_i|.
value mean_absolute_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// (1/W) sum w_i (y_i - yhat_i)^2.
value mean_squared_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// sqrt(MSE).
value root_mean_squared_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// (1/W) sum w_i |y_i - yhat_i| / |y_i|. Undefined when some y_i = 0 (with positive weight);
/// scikit-learn divides by max(|y_i|, eps) instead and returns ~1e15-sized numbers.
value mean_absolute_percentage_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// (1/W) sum w_i ((y_i - yhat_i) / y_i)^2; undefined when some y_i = 0.
value mean_squared_percentage_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// sqrt(MSPE).
value root_mean_squared_percentage_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// 1 - SS_res / SS_tot with weighted sums about the weighted mean of y. Undefined for a constant
/// target (SS_tot = 0); scikit-learn returns 1 or 0 there.
value r2(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// 1 - Var(y - yhat) / Var(y) (weighted); undefined for a constant target.
value explained_variance(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// Weighted median of |y_i - yhat_i|: the midpoint of the lower and upper weighted medians, so that
/// unit weights give the ordinary median (scikit-learn's weighted path returns the lower one).
value median_absolute_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// max |y_i - yhat_i| over cases with positive weight.
value max_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// Mean Poisson deviance, (1/W) sum w_i 2 (y_i log(y_i / yhat_i) - y_i + yhat_i), with 0 log 0 = 0
/// (scikit-learn's mean_poisson_deviance; McCullagh and Nelder, Generalized Linear Models, 1989,
/// section 2.3). Undefined when a target is negative or a prediction is not positive, where
/// scikit-learn raises.
value mean_poisson_deviance(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});
/// Mean Gamma deviance, (1/W) sum w_i 2 (log(yhat_i / y_i) + y_i / yhat_i - 1) (scikit-learn's
/// mean_gamma_deviance, the Tweedie deviance of power 2; McCullagh and Nelder, 1989, section 8.3).
/// It depends on the ratio yhat / y only, so it weighs relative errors alike at every scale.
/// Undefined when a target or a prediction is not positive, where scikit-learn raises.
value mean_gamma_deviance(std::span<const double> y, std::span<const double> yhat, std::span<const double> w = {});


}  // namespace assay
