// assay: regression metrics (names and definitions after scikit-learn's regression metrics). `w` is empty or one
// finite non-negative weight per case. Percentage errors are fractions (0.1 = 10%), as in
// scikit-learn.
#pragma once

#include <span>

#include "assay/value.hpp"

namespace assay {

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

}  // namespace assay
