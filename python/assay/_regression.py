"""assay.metrics: regression metrics (errors, R^2, explained variance).

Same names, signatures, defaults, return types, warnings and numbers as sklearn.metrics. Each metric
is one elementwise pass and a (weighted) mean per output column: the arithmetic is numpy's, in the
same order as scikit-learn's (numpy's pairwise sums over one column, row by row over several), so
the values agree to the bit; the weighted median sorts with numpy as scikit-learn does.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from assay._compat import UndefinedMetricWarning
from assay._inputs import as_numpy, on_host_args
from assay._params import ARRAY, BOOL, NONE, str_options, validate
from assay._ranking import InvalidParameterError, check_samples_2d, column_or_1d, refuse_strings
from assay._targets import (
    as_array, check_consistent_length, check_weight_shape, check_weights_finite, check_weights_not_all_zero,
    refuse_complex,
)

__all__ = [
    "explained_variance_score",
    "max_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_squared_error",
    "mean_squared_log_error",
    "median_absolute_error",
    "r2_score",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
]

_MULTIOUTPUT = ("raw_values", "uniform_average", "variance_weighted")


def _array_like(v):
    return hasattr(v, "__len__") or hasattr(v, "shape") or hasattr(v, "__array__")


def _check_params(func, y_true, y_pred, sample_weight=None, multioutput="uniform_average", fractions=False):
    """scikit-learn's parameter validation of the regression metrics (InvalidParameterError), in
    the order of the function's signature (median_absolute_error takes multioutput first)."""
    validate(func, y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]))
    if func != "median_absolute_error":
        validate(func, sample_weight=(sample_weight, [ARRAY, NONE]))
    options = {"raw_values", "uniform_average", "variance_weighted"} if fractions else {"raw_values", "uniform_average"}
    if isinstance(multioutput, str) and multioutput not in options or (
            not isinstance(multioutput, str) and not _array_like(multioutput)
            and not (func == "r2_score" and multioutput is None)):
        shown = ", ".join(repr(o) for o in str_options(func, "multioutput", options))
        tail = ", an array-like or None" if func == "r2_score" else " or an array-like"
        raise InvalidParameterError(f"The 'multioutput' parameter of {func} must be a str among {{{shown}}}{tail}. "
                                    f"Got {multioutput!r} instead.")
    if func == "median_absolute_error":
        validate(func, sample_weight=(sample_weight, [ARRAY, NONE]))


def _float_dtype(*arrays):
    kinds = [np.asarray(a).dtype for a in arrays if a is not None and hasattr(a, "dtype")]
    floats = [d for d in kinds if d.kind == "f"]
    return np.result_type(*floats) if floats else np.dtype(np.float64)


def _as_values(a, name, dtype):
    a = as_array(a, name)
    if dtype is None:  # scikit-learn's check_array(dtype="numeric")
        refuse_strings(a)
    if a.dtype.kind == "O" and dtype is None:
        a = a.astype(np.float64)
    a = np.asarray(a, dtype=dtype) if dtype is not None else a
    return check_samples_2d(a)


def _targets(y_true, y_pred, sample_weight, multioutput, floating=True):
    """scikit-learn's _check_reg_targets: (n, outputs) arrays, weights, the multioutput weights."""
    y_true, y_pred, sample_weight = on_host_args(y_true=y_true, y_pred=y_pred, sample_weight=sample_weight)
    dtype = _float_dtype(y_true, y_pred, sample_weight) if floating else None
    w_arr = (None if sample_weight is None or isinstance(sample_weight, numbers.Number)
             else as_numpy(sample_weight, "sample_weight"))
    check_consistent_length(as_array(y_true), as_array(y_pred), w_arr)
    y_true = _as_values(y_true, "y_true", dtype)
    y_pred = _as_values(y_pred, "y_pred", dtype)
    if not floating and y_true.dtype.kind not in "fc":
        y_true = y_true.astype(np.float64) if y_true.dtype.kind in "OUS" else y_true
    if sample_weight is not None:
        n = y_true.shape[0]
        wdtype = dtype if dtype is not None else np.float64
        if isinstance(sample_weight, numbers.Number):
            sample_weight = np.full(n, sample_weight, dtype=wdtype)
        else:
            sample_weight = as_numpy(sample_weight, "sample_weight")
            refuse_complex(sample_weight)
            if sample_weight.dtype not in (np.float64, np.float32) or floating:
                sample_weight = np.ascontiguousarray(sample_weight, dtype=wdtype)
            check_weight_shape(sample_weight, n)
            check_weights_finite(sample_weight)
        check_weights_not_all_zero(sample_weight)
    if y_true.ndim == 1:
        y_true = y_true.reshape(-1, 1)
    if y_pred.ndim == 1:
        y_pred = y_pred.reshape(-1, 1)
    if y_true.shape[1] != y_pred.shape[1]:
        raise ValueError(f"y_true and y_pred have different number of output ({y_true.shape[1]}!={y_pred.shape[1]})")
    outputs = y_true.shape[1]
    if isinstance(multioutput, str):
        if multioutput not in _MULTIOUTPUT:
            raise ValueError(f"Allowed 'multioutput' string values are {_MULTIOUTPUT}. You provided "
                             f"multioutput={multioutput!r}")
    elif multioutput is not None:
        multioutput = _as_values(multioutput, "multioutput", None)
        if outputs == 1:
            raise ValueError("Custom weights are useful only in multi-output cases.")
        if outputs != multioutput.shape[0]:
            raise ValueError(f"There must be equally many custom weights ({multioutput.shape[0]}) as outputs "
                             f"({outputs}).")
    return y_true, y_pred, sample_weight, multioutput


def _combine(errors, multioutput):
    """Per-output errors as scikit-learn returns them: the array for 'raw_values', else their mean."""
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return errors
        multioutput = None
    return float(np.average(errors, weights=multioutput))


def mean_absolute_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean of |y_true - y_pred| per output. Same as sklearn.metrics.mean_absolute_error."""
    _check_params("mean_absolute_error", y_true, y_pred, sample_weight, multioutput)
    y_true, y_pred, w, multioutput = _targets(y_true, y_pred, sample_weight, multioutput)
    return _combine(np.average(np.abs(y_pred - y_true), weights=w, axis=0), multioutput)


def mean_absolute_percentage_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean of |y_true - y_pred| / max(|y_true|, eps). Same as sklearn.metrics.mean_absolute_percentage_error."""
    _check_params("mean_absolute_percentage_error", y_true, y_pred, sample_weight, multioutput)
    y_true, y_pred, w, multioutput = _targets(y_true, y_pred, sample_weight, multioutput)
    eps = np.asarray(np.finfo(np.float64).eps, dtype=y_true.dtype)
    ratio = np.abs(y_pred - y_true) / np.maximum(np.abs(y_true), eps)
    return _combine(np.average(ratio, weights=w, axis=0), multioutput)


def mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean of (y_true - y_pred)^2 per output. Same as sklearn.metrics.mean_squared_error."""
    _check_params("mean_squared_error", y_true, y_pred, sample_weight, multioutput)
    y_true, y_pred, w, multioutput = _targets(y_true, y_pred, sample_weight, multioutput)
    return _combine(np.average((y_true - y_pred) ** 2, axis=0, weights=w), multioutput)


def root_mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Square root of the mean squared error per output. Same as sklearn.metrics.root_mean_squared_error."""
    _check_params("root_mean_squared_error", y_true, y_pred, sample_weight, multioutput)
    per_output = np.sqrt(mean_squared_error(y_true, y_pred, sample_weight=sample_weight, multioutput="raw_values"))
    if not isinstance(multioutput, str) and multioutput is not None:
        multioutput = np.asarray(multioutput)
    elif isinstance(multioutput, str) and multioutput not in _MULTIOUTPUT:
        _targets(y_true, y_pred, sample_weight, multioutput)
    return _combine(per_output, multioutput)


def _log1p_targets(y_true, y_pred, sample_weight, multioutput, what):
    y_true, y_pred, w, multioutput = _targets(y_true, y_pred, sample_weight, multioutput)
    if np.any(y_true <= -1) or np.any(y_pred <= -1):
        raise ValueError(f"{what} cannot be used when targets contain values less than or equal to -1.")
    return np.log1p(y_true), np.log1p(y_pred), w, multioutput


def mean_squared_log_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean squared error of log1p of both. Same as sklearn.metrics.mean_squared_log_error."""
    _check_params("mean_squared_log_error", y_true, y_pred, sample_weight, multioutput)
    t, p, w, multioutput = _log1p_targets(y_true, y_pred, sample_weight, multioutput,
                                          "Mean Squared Logarithmic Error")
    return mean_squared_error(t, p, sample_weight=w, multioutput=multioutput)


def root_mean_squared_log_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Root mean squared error of log1p of both. Same as sklearn.metrics.root_mean_squared_log_error."""
    _check_params("root_mean_squared_log_error", y_true, y_pred, sample_weight, multioutput)
    t, p, w, multioutput = _log1p_targets(y_true, y_pred, sample_weight, multioutput,
                                          "Root Mean Squared Logarithmic Error")
    return root_mean_squared_error(t, p, sample_weight=w, multioutput=multioutput)


def _weighted_median(values, weight):
    """scikit-learn's weighted 50th percentile with averaging, per column of a 2-D array: the
    smallest value whose cumulative weight reaches half the total, averaged with the next value
    when the cumulative weight lands on half exactly."""
    dtype = values.dtype if values.dtype.kind == "f" else np.dtype(np.float64)
    values = np.asarray(values, dtype=dtype)
    weight = np.asarray(weight, dtype=dtype)
    if np.all(weight == 0):
        return np.nan
    weights = np.tile(weight, (values.shape[1], 1)).T if values.shape != weight.shape else weight
    order = np.argsort(values, axis=0)
    sorted_w = np.take_along_axis(weights, order, axis=0)
    cols = np.arange(values.shape[1])
    top = values[order[-1, ...], cols]
    if np.any(np.isnan(top)):
        sorted_w[np.take_along_axis(np.isnan(values), order, axis=0)] = 0
    cdf = np.cumsum(sorted_w.T, axis=1)
    half = np.asarray(50, dtype=dtype) / 100 * cdf[..., -1]
    zero = half == 0
    half[zero] = np.nextafter(half[zero], half[zero] + 1)
    at = np.stack([np.searchsorted(cdf[c, ...], half[c]) for c in range(cdf.shape[0])])
    last = order.shape[0] - 1
    at = np.clip(at, 0, last)
    lower = order[at, cols]
    above = (cdf[cols, at] - half) > np.finfo(dtype).eps
    nxt = np.clip(at + 1, 0, last)
    upper = order[nxt, cols]
    for c in cols[weights[upper, cols] == 0]:
        j = np.searchsorted(cdf[c, ...], cdf[c, at[c]], side="right")
        upper[c] = order[at[c] if j > last else j, c]
    return np.where(above, values[lower, cols], (values[lower, cols] + values[upper, cols]) / 2)


def median_absolute_error(y_true, y_pred, *, multioutput="uniform_average", sample_weight=None):
    """Median of |y_true - y_pred| per output (weighted: the weighted median, averaged at an exact
    half). Same as sklearn.metrics.median_absolute_error."""
    _check_params("median_absolute_error", y_true, y_pred, sample_weight, multioutput)
    y_true, y_pred, w, multioutput = _targets(y_true, y_pred, sample_weight, multioutput, floating=False)
    if w is None:
        errors = np.median(np.abs(y_pred - y_true), axis=0)
    else:
        errors = _weighted_median(np.abs(y_pred - y_true), w)
    return _combine(errors, multioutput)


def max_error(y_true, y_pred):
    """Largest |y_true - y_pred| (single output). Same as sklearn.metrics.max_error."""
    validate("max_error", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]))
    y_true, y_pred, _, _ = _targets(y_true, y_pred, None, None, floating=False)
    if y_true.shape[1] > 1:
        raise ValueError("Multioutput not supported in max_error")
    return float(np.max(np.abs(y_true - y_pred)))


def _explained_fraction(numerator, denominator, outputs, multioutput, force_finite):
    """1 - numerator / denominator per output (force_finite: 1 for a perfect fit, 0 for a constant
    y_true predicted imperfectly), then averaged as multioutput asks."""
    nonzero_den = denominator != 0
    if not force_finite:
        scores = 1 - numerator / denominator
    else:
        nonzero_num = numerator != 0
        scores = np.ones([outputs], dtype=numerator.dtype)
        valid = nonzero_den & nonzero_num
        scores[valid] = 1 - numerator[valid] / denominator[valid]
        scores[nonzero_num & ~nonzero_den] = 0.0
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return scores
        weights = None
        if multioutput == "variance_weighted" and np.any(nonzero_den):
            weights = denominator
    else:
        weights = multioutput
    result = np.average(scores, weights=weights)
    return float(result) if np.size(result) == 1 else result


def explained_variance_score(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average",
                             force_finite=True):
    """1 - Var(y_true - y_pred) / Var(y_true) per output. Same as sklearn.metrics.explained_variance_score."""
    _check_params("explained_variance_score", y_true, y_pred, sample_weight, multioutput, fractions=True)
    validate("explained_variance_score", force_finite=(force_finite, [BOOL]))
    y_true, y_pred, w, multioutput = _targets(y_true, y_pred, sample_weight, multioutput)
    mean_diff = np.average(y_true - y_pred, weights=w, axis=0)
    numerator = np.average((y_true - y_pred - mean_diff) ** 2, weights=w, axis=0)
    mean_true = np.average(y_true, weights=w, axis=0)
    denominator = np.average((y_true - mean_true) ** 2, weights=w, axis=0)
    return _explained_fraction(numerator, denominator, y_true.shape[1], multioutput, force_finite)


def r2_score(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average", force_finite=True):
    """Coefficient of determination per output. Same as sklearn.metrics.r2_score."""
    _check_params("r2_score", y_true, y_pred, sample_weight, multioutput, fractions=True)
    validate("r2_score", force_finite=(force_finite, [BOOL]))
    y_true, y_pred, w, multioutput = _targets(y_true, y_pred, sample_weight, multioutput)
    if y_pred.shape[0] < 2:
        warnings.warn("R^2 score is not well-defined with less than two samples.", UndefinedMetricWarning,
                      stacklevel=2)
        return float("nan")
    weight = 1.0 if w is None else column_or_1d(w)[:, None]
    numerator = np.sum(weight * (y_true - y_pred) ** 2, axis=0)
    denominator = np.sum(weight * (y_true - np.average(y_true, axis=0, weights=w)) ** 2, axis=0)
    return _explained_fraction(numerator, denominator, y_true.shape[1], multioutput, force_finite)
