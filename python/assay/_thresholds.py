"""assay.metrics: the binary confusion matrix at every threshold of the scores, and any metric of
thresholded predictions at every threshold.

Same names, signatures, defaults, return types, warnings and numbers as sklearn.metrics.
confusion_matrix_at_thresholds is the sweep behind roc_curve and precision_recall_curve (one sort
of the scores and running sums, in the core); metric_at_thresholds calls the given metric once per
distinct score, as scikit-learn does.
"""

from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np

from assay._params import ARRAY, NONE, POS_LABEL, Instance, validate
from assay._ranking import _assert_finite, _binary_inputs, _clf_curve, _weights
from assay._scores_more import samples_of, vector

__all__ = ["confusion_matrix_at_thresholds", "metric_at_thresholds"]


def _keywords_warned_from(version):
    """Accept keyword-only parameters given by position, with scikit-learn's FutureWarning."""

    def wrap(f):
        sig = inspect.signature(f)
        positional = [n for n, p in sig.parameters.items() if p.kind == p.POSITIONAL_OR_KEYWORD]
        keyword_only = [n for n, p in sig.parameters.items() if p.kind == p.KEYWORD_ONLY]

        @functools.wraps(f)
        def call(*args, **kwargs):
            extra = len(args) - len(positional)
            if extra <= 0:
                return f(*args, **kwargs)
            shown = ", ".join(f"{name}={value}" for name, value in zip(keyword_only[:extra], args[-extra:]))
            warnings.warn(f"Pass {shown} as keyword args. From version {version} passing these as positional "
                          "arguments will result in an error", FutureWarning, stacklevel=2)
            kwargs.update(zip(sig.parameters, args))
            return f(**kwargs)

        return call

    return wrap


@_keywords_warned_from("1.11")
def confusion_matrix_at_thresholds(y_true, y_score, *, pos_label=None, sample_weight=None):
    """(tns, fps, fns, tps, thresholds): the (weighted) counts of a binary classification that
    predicts positive when score >= threshold, for every distinct score, thresholds decreasing. Same
    as sklearn.metrics.confusion_matrix_at_thresholds."""
    validate("confusion_matrix_at_thresholds", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]),
             pos_label=(pos_label, POS_LABEL), sample_weight=(sample_weight, [ARRAY, NONE]))
    y, y_score, w = _binary_inputs(y_true, y_score, pos_label, sample_weight)
    fps, tps, thresholds = _clf_curve(y, y_score, w)
    return fps[-1] - fps, fps, tps[-1] - tps, tps, thresholds.astype(y_score.dtype, copy=False)


def _descending(a):
    """Indices sorting a in decreasing order, equal values in their original order."""
    n = a.shape[0]
    return (n - 1) - np.argsort(a[::-1], kind="stable")[::-1]


def metric_at_thresholds(y_true, y_score, metric_func, *, sample_weight=None, metric_params=None):
    """(metric values, thresholds): metric_func(y_true, score >= threshold, **metric_params) for every
    distinct score, thresholds decreasing. Same as sklearn.metrics.metric_at_thresholds."""
    validate("metric_at_thresholds", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]),
             metric_func=(metric_func, [_CALLABLE]), sample_weight=(sample_weight, [ARRAY, NONE]),
             metric_params=(metric_params, [Instance(dict, "dict"), NONE]))
    samples_of(y_true, y_score, sample_weight)
    y_true, y_score = vector(y_true), vector(y_score)
    _assert_finite(y_true)
    _assert_finite(y_score)
    if sample_weight is not None:
        raw = vector(sample_weight)
        w = _weights(raw, y_true.shape[0])
        if raw.dtype == np.float32:
            w = w.astype(np.float32)
        keep = w != 0
        y_true, y_score, sample_weight = y_true[keep], y_score[keep], w[keep]
    order = _descending(y_score)
    y_score, y_true = y_score[order], y_true[order]
    params = dict(metric_params or {})
    if sample_weight is not None:
        params["sample_weight"] = sample_weight[order]
    cuts = np.r_[np.flatnonzero(np.diff(y_score)), y_true.shape[0] - 1]
    thresholds = y_score[cuts]
    values = [metric_func(y_true, (y_score >= t).astype(np.int32), **params) for t in thresholds]
    return np.asarray(values), thresholds


class _Callable:
    def ok(self, v):
        return callable(v)

    def __str__(self):
        return "a callable"


_CALLABLE = _Callable()
