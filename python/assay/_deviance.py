"""assay.metrics: regression deviances (Tweedie, Poisson, Gamma), the pinball loss and the D^2
scores built on them (Tweedie, pinball, absolute error).

Same names, signatures, defaults, return types, warnings and numbers as sklearn.metrics. These are
numpy implementations today: an elementwise pass and numpy's (weighted) mean per output column in
the order scikit-learn takes them, so the values agree to the bit; the weighted alpha-quantile of
the D^2 pinball score sorts with numpy as scikit-learn does.
"""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np

from assay._compat import UndefinedMetricWarning
from assay._params import ARRAY, NONE, Interval, Str, validate
from assay._regression import _combine, _explained_fraction
from assay._regression import _targets as _regression_targets
from assay._scores_more import refuse_complex_weights, str_options

__all__ = [
    "d2_absolute_error_score",
    "d2_pinball_score",
    "d2_tweedie_score",
    "mean_gamma_deviance",
    "mean_pinball_loss",
    "mean_poisson_deviance",
    "mean_tweedie_deviance",
]

_POWER = [Interval(Real, None, 0, closed="right"), Interval(Real, 1, None, closed="left")]
_ALPHA = [Interval(Real, 0, 1, closed="both")]


def _targets(y_true, y_pred, sample_weight, multioutput):
    refuse_complex_weights(sample_weight)
    return _regression_targets(y_true, y_pred, sample_weight, multioutput)


def _multioutput_options(function):
    return [Str(str_options(function, "multioutput", {"raw_values", "uniform_average"})), ARRAY]


def _deviance(y_true, y_pred, sample_weight, power):
    """Mean unit Tweedie deviance of the given power (no domain checks)."""
    p = power
    if p < 0:
        dev = 2 * (np.power(np.where(y_true > 0, y_true, 0.0), 2 - p) / ((1 - p) * (2 - p))
                   - y_true * np.power(y_pred, 1 - p) / (1 - p) + np.power(y_pred, 2 - p) / (2 - p))
    elif p == 0:
        dev = (y_true - y_pred) ** 2
    elif p == 1:
        ratio = y_true / y_pred
        with np.errstate(divide="ignore", invalid="ignore"):
            xlogy = y_true * np.log(ratio)
        xlogy = np.where(y_true == 0.0, np.asarray(0.0, dtype=xlogy.dtype), xlogy)
        dev = 2 * (xlogy - y_true + y_pred)
    elif p == 2:
        dev = 2 * (np.log(y_pred / y_true) + y_true / y_pred - 1)
    else:
        dev = 2 * (np.power(y_true, 2 - p) / ((1 - p) * (2 - p)) - y_true * np.power(y_pred, 1 - p) / (1 - p)
                   + np.power(y_pred, 2 - p) / (2 - p))
    return float(np.average(dev, weights=sample_weight))


def _tweedie(func, y_true, y_pred, sample_weight, power):
    y_true, y_pred, w, _ = _targets(y_true, y_pred, sample_weight, None)
    if y_true.shape[1] > 1:
        raise ValueError(f"Multioutput not supported in {func}")
    if w is not None:
        w = w[:, np.newaxis]
    message = f"Mean Tweedie deviance error with power={power} can only be used on "
    if power < 0:
        if np.any(y_pred <= 0):
            raise ValueError(message + "strictly positive y_pred.")
    elif 1 <= power < 2:
        if np.any(y_true < 0) or np.any(y_pred <= 0):
            raise ValueError(message + "non-negative y and strictly positive y_pred.")
    elif power >= 2:
        if np.any(y_true <= 0) or np.any(y_pred <= 0):
            raise ValueError(message + "strictly positive y and y_pred.")
    return _deviance(y_true, y_pred, w, power)


def mean_tweedie_deviance(y_true, y_pred, *, sample_weight=None, power=0):
    """Mean Tweedie deviance of the given power (0 normal, 1 Poisson, 2 Gamma, other values in
    (-inf, 0] or [1, inf)). Same as sklearn.metrics.mean_tweedie_deviance."""
    validate("mean_tweedie_deviance", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]), power=(power, _POWER))
    return _tweedie("mean_tweedie_deviance", y_true, y_pred, sample_weight, power)


def mean_poisson_deviance(y_true, y_pred, *, sample_weight=None):
    """Mean Poisson deviance (Tweedie power 1). Same as sklearn.metrics.mean_poisson_deviance."""
    validate("mean_poisson_deviance", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]))
    return mean_tweedie_deviance(y_true, y_pred, sample_weight=sample_weight, power=1)


def mean_gamma_deviance(y_true, y_pred, *, sample_weight=None):
    """Mean Gamma deviance (Tweedie power 2). Same as sklearn.metrics.mean_gamma_deviance."""
    validate("mean_gamma_deviance", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]))
    return mean_tweedie_deviance(y_true, y_pred, sample_weight=sample_weight, power=2)


def _too_few(n):
    if n < 2:
        warnings.warn("D^2 score is not well-defined with less than two samples.", UndefinedMetricWarning,
                      stacklevel=3)
        return True
    return False


def d2_tweedie_score(y_true, y_pred, *, sample_weight=None, power=0):
    """1 - Tweedie deviance / deviance of the (weighted) mean of y_true. Same as
    sklearn.metrics.d2_tweedie_score."""
    validate("d2_tweedie_score", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]), power=(power, _POWER))
    y_true, y_pred, w, _ = _targets(y_true, y_pred, sample_weight, None)
    if y_true.shape[1] > 1:
        raise ValueError("Multioutput not supported in d2_tweedie_score")
    if _too_few(y_pred.shape[0]):
        return float("nan")
    y_true, y_pred = y_true[:, 0], y_pred[:, 0]
    numerator = _tweedie("mean_tweedie_deviance", y_true, y_pred, w, power)
    mean = np.average(y_true, weights=w)
    denominator = _deviance(y_true, mean, w, power)
    return 1 - numerator / denominator


def _pinball(y_true, y_pred, sample_weight, alpha):
    """Mean pinball loss per output column of checked (n, outputs) arrays."""
    diff = y_true - y_pred
    sign = (diff >= 0).astype(diff.dtype)
    loss = alpha * sign * diff - (1 - alpha) * (1 - sign) * diff
    return np.average(loss, weights=sample_weight, axis=0)


def mean_pinball_loss(y_true, y_pred, *, sample_weight=None, alpha=0.5, multioutput="uniform_average"):
    """Mean pinball (quantile) loss at level alpha per output. Same as sklearn.metrics.mean_pinball_loss."""
    validate("mean_pinball_loss", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]), alpha=(alpha, _ALPHA),
             multioutput=(multioutput, _multioutput_options("mean_pinball_loss")))
    y_true, y_pred, w, multioutput = _targets(y_true, y_pred, sample_weight, multioutput)
    return _combine(_pinball(y_true, y_pred, w, alpha), multioutput)


def _weighted_quantile(values, weight, alpha):
    """scikit-learn's weighted percentile with averaging at the level alpha, per column of a 2-D
    array: the smallest value whose cumulative weight reaches alpha of the total, averaged with the
    next one when the cumulative weight lands on it exactly (within eps)."""
    dtype = values.dtype if values.dtype.kind == "f" else np.dtype(np.float64)
    values = np.asarray(values, dtype=dtype)
    weight = np.asarray(weight, dtype=dtype)
    level = np.asarray(alpha * 100, dtype=dtype)
    if np.all(weight == 0):
        return np.nan
    weights = np.tile(weight, (values.shape[1], 1)).T
    order = np.argsort(values, axis=0)
    sorted_w = np.take_along_axis(weights, order, axis=0)
    cols = np.arange(values.shape[1])
    if np.any(np.isnan(values[order[-1, ...], cols])):
        sorted_w[np.take_along_axis(np.isnan(values), order, axis=0)] = 0
    cdf = np.cumsum(sorted_w.T, axis=1)
    target = level / 100 * cdf[..., -1]
    zero = target == 0
    target[zero] = np.nextafter(target[zero], target[zero] + 1)
    at = np.stack([np.searchsorted(cdf[c, ...], target[c]) for c in range(cdf.shape[0])])
    last = order.shape[0] - 1
    at = np.clip(at, 0, last)
    lower = order[at, cols]
    above = (cdf[cols, at] - target) > np.finfo(dtype).eps
    upper = order[np.clip(at + 1, 0, last), cols]
    for c in cols[weights[upper, cols] == 0]:
        j = np.searchsorted(cdf[c, ...], cdf[c, at[c]], side="right")
        upper[c] = order[at[c] if j > last else j, c]
    return np.where(above, values[lower, cols], (values[lower, cols] + values[upper, cols]) / 2)


def _d2_pinball(y_true, y_pred, sample_weight, alpha, multioutput):
    y_true, y_pred, w, multioutput = _targets(y_true, y_pred, sample_weight, multioutput)
    if _too_few(y_pred.shape[0]):
        return float("nan")
    numerator = _pinball(y_true, y_pred, w, alpha)
    if w is None:
        w = np.ones([y_true.shape[0]], dtype=y_true.dtype)
    quantile = np.tile(_weighted_quantile(y_true, w, alpha), (y_true.shape[0], 1))
    denominator = _pinball(y_true, quantile, w, alpha)
    return _explained_fraction(numerator, denominator, y_true.shape[1], multioutput, True)


def d2_pinball_score(y_true, y_pred, *, sample_weight=None, alpha=0.5, multioutput="uniform_average"):
    """1 - pinball loss / pinball loss of the (weighted) alpha-quantile of y_true, per output. Same as
    sklearn.metrics.d2_pinball_score."""
    validate("d2_pinball_score", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]), alpha=(alpha, _ALPHA),
             multioutput=(multioutput, _multioutput_options("d2_pinball_score")))
    return _d2_pinball(y_true, y_pred, sample_weight, alpha, multioutput)


def d2_absolute_error_score(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """1 - absolute error / absolute error of the (weighted) median of y_true, per output. Same as
    sklearn.metrics.d2_absolute_error_score."""
    validate("d2_absolute_error_score", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]),
             multioutput=(multioutput, _multioutput_options("d2_absolute_error_score")))
    return _d2_pinball(y_true, y_pred, sample_weight, 0.5, multioutput)
