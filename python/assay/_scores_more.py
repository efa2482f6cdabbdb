"""assay.metrics: the area under a curve (trapezoid), the hinge loss and the D^2 scores of
probabilistic predictions (log loss, Brier score).

Same names, signatures, defaults, return types, warnings and numbers as sklearn.metrics. These are
numpy implementations today: one elementwise pass and numpy's reductions in the order scikit-learn
makes them, so the values agree to the bit.
"""

from __future__ import annotations

import warnings

import numpy as np

from assay._compat import UndefinedMetricWarning
from assay._params import ARRAY, NONE, POS_LABEL, STR, str_options, validate
from assay._probabilistic import _float_array, _multiclass_targets
from assay._ranking import _assert_finite, _check_pos_label, check_samples_2d
from assay._inputs import on_host_args
from assay._targets import as_array, check_consistent_length, is_sparse, type_of_target, unique_labels_1d

__all__ = ["auc", "d2_brier_score", "d2_log_loss_score", "hinge_loss"]

def _trapezoid(y, x):
    """The trapezoid rule as scipy.integrate.trapezoid computes it (x[1:] - x[:-1], the sum in y's
    floating dtype)."""
    dtype = y.dtype if y.dtype.kind in "fc" else np.dtype(np.float64)
    return np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0, dtype=dtype)


def samples_of(*arrays):
    """check_consistent_length of the raw inputs (None skipped), as arrays."""
    out = [None if a is None else a if is_sparse(a) else as_array(a) if not _complex(a) else np.asarray(a)
           for a in arrays]
    check_consistent_length(*out)
    return out


def _complex(a):
    return np.iscomplexobj(a) if isinstance(a, (np.ndarray, list, tuple)) else False


def refuse_complex_weights(sample_weight):
    """scikit-learn's check_array(dtype=float64) of complex weights: a TypeError from float() for a
    list, 'Complex data not supported' for an array."""
    if sample_weight is None or not _complex(sample_weight):
        return
    if isinstance(sample_weight, np.ndarray):
        raise ValueError(f"Complex data not supported\n{sample_weight}\n")
    np.asarray(sample_weight, dtype=np.float64)


def _weights_finite(sample_weight, proba):
    """scikit-learn checks the weights' values after the probabilities' range."""
    if sample_weight is None:
        return
    w = as_array(sample_weight, "sample_weight")
    if w.dtype.kind == "f" and not np.all(np.isfinite(w)) and np.max(proba) <= 1 and np.min(proba) >= 0:
        _assert_finite(w, "sample_weight")


def vector(a, name="y"):
    """scikit-learn's column_or_1d: a 1-D array, or the single column of a 2-D one."""
    a = as_array(a, name)
    if a.ndim > 2:
        raise ValueError(f"Found array with dim {a.ndim}, while dim <= 2 is required.")
    if a.ndim == 1:
        return a
    if a.ndim == 2 and a.shape[1] == 1:
        return a.ravel()
    raise ValueError(f"y should be a 1d array, got an array of shape {a.shape} instead.")


def auc(x, y):
    """Area under the curve through the points (x, y) by the trapezoidal rule; x must be monotonic
    (increasing or decreasing). Same as sklearn.metrics.auc."""
    validate("auc", x=(x, [ARRAY]), y=(y, [ARRAY]))
    samples_of(x, y)
    x, y = vector(x), vector(y)
    if x.shape[0] < 2:
        # scikit-learn formats the shape tuple itself into the message (an empty x is a TypeError)
        raise ValueError("At least 2 points are needed to compute area under curve, but x.shape = %s" % x.shape)
    sign = 1
    steps = np.diff(x)
    if np.any(steps < 0):
        if not np.all(steps <= 0):
            raise ValueError(f"x is neither increasing nor decreasing : {x}.")
        sign = -1
    return float(sign * _trapezoid(y, x))


def _numeric_2d(a, name):
    """check_array(ensure_2d=False) with dtype 'numeric': objects become float64, strings refused."""
    a = as_array(a, name)
    if a.dtype.kind in "USV":
        raise ValueError("dtype='numeric' is not compatible with arrays of bytes/strings.Convert your data to "
                         "numeric values explicitly instead.")
    if a.dtype.kind == "O":
        a = a.astype(np.float64)
    return check_samples_2d(a)


def _unseen(values, known):
    """LabelEncoder's refusal of labels outside the known classes: all of them for numbers, the
    first one met (as a dictionary lookup fails) for strings and objects."""
    if values.dtype.kind in "OUS":
        if values.dtype.kind == "O" and known.dtype.kind in "US":
            values = values.astype(known.dtype)  # as LabelEncoder reads y in the classes' dtype
        outside = ~np.isin(values, known)
        if np.any(outside):
            raise ValueError(f"y contains previously unseen labels: {values[np.argmax(outside)]!r}")
        return
    missing = np.setdiff1d(unique_labels_1d(values), known, assume_unique=True)
    if missing.size:
        raise ValueError(f"y contains previously unseen labels: {list(missing)}")


def hinge_loss(y_true, pred_decision, *, labels=None, sample_weight=None):
    """Mean of max(0, 1 - margin): binary with the larger class as +1, multiclass (Crammer-Singer)
    with the true class's decision minus the largest other one. Same as sklearn.metrics.hinge_loss."""
    validate("hinge_loss", y_true=(y_true, [ARRAY]), pred_decision=(pred_decision, [ARRAY]),
             labels=(labels, [ARRAY, NONE]), sample_weight=(sample_weight, [ARRAY, NONE]))
    y_true, pred_decision, sample_weight = on_host_args(y_true=y_true, pred_decision=pred_decision,
                                                        sample_weight=sample_weight)
    samples_of(y_true, pred_decision, sample_weight)
    decision = _numeric_2d(pred_decision, "pred_decision")
    y = vector(y_true)
    classes = unique_labels_1d(as_array(labels) if labels is not None else y)
    if classes.size > 2:
        if decision.ndim <= 1:
            raise ValueError("The shape of pred_decision cannot be 1d arraywith a multiclass target. pred_decision "
                             f"shape must be (n_samples, n_classes), that is ({y.shape[0]}, {classes.size}). Got: "
                             f"{decision.shape}")
        if classes.size != decision.shape[1]:
            if labels is None:
                raise ValueError("Please include all labels in y_true or pass labels as third argument")
            raise ValueError("The shape of pred_decision is not consistent with the number of classes. With a "
                             "multiclass target, pred_decision shape must be (n_samples, n_classes), that is "
                             f"({y.shape[0]}, {classes.size}). Got: {decision.shape}")
        _unseen(y, classes)
        code = np.searchsorted(classes, y)
        rows = np.arange(y.shape[0])
        others = np.ones(decision.shape, dtype=bool)
        others[rows, code] = False
        margin = decision[rows, code]
        margin -= np.max(decision[others].reshape(y.shape[0], -1), axis=1)
    else:
        decision = np.ravel(vector(decision))
        # LabelBinarizer(neg_label=-1) of y_true: the larger class is +1
        kind = type_of_target(y, "y")
        if "multioutput" in kind:
            raise ValueError("Multioutput target data is not supported with label binarization")
        if kind in ("unknown", "continuous"):
            raise ValueError("Unknown label type: %s" % repr((y,)))
        seen = unique_labels_1d(y)
        if seen.size == 1:
            sign = np.full(y.shape[0], -1, dtype=np.int64)
        else:
            sign = np.where(y == seen[1 if seen.size == 2 else 0], 1, -1)
        margin = sign * decision
    losses = 1 - margin
    np.clip(losses, 0, None, out=losses)
    return float(np.average(losses, weights=sample_weight))


def _renamed_y_pred(y_proba, y_pred):
    if isinstance(y_pred, str) and y_pred == "deprecated":
        return y_proba
    if y_proba is not None:
        raise ValueError("Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use `y_proba` instead.")
    warnings.warn("`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in 1.11. Use `y_proba` "
                  "instead.", FutureWarning, stacklevel=3)
    return y_pred


def _too_few(y_proba):
    if y_proba.shape[0] < 2 if y_proba.ndim else True:
        warnings.warn("D^2 score is not well-defined with less than two samples.", UndefinedMetricWarning,
                      stacklevel=3)
        return True
    return False


def _total_log_loss(codes, proba, sample_weight):
    """The log loss summed over the samples (weighted: the dot product with the weights)."""
    eps = np.finfo(proba.dtype).eps
    proba = np.clip(proba, eps, 1 - eps)
    codes = codes.astype(proba.dtype, copy=False)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = codes * np.log(proba)
    terms = np.where(codes == 0.0, np.asarray(0.0, dtype=terms.dtype), terms)
    loss = -np.sum(terms, axis=1)
    return float(np.dot(loss, sample_weight) if sample_weight is not None else np.sum(loss))


def d2_log_loss_score(y_true, y_proba=None, *, sample_weight=None, labels=None, y_pred="deprecated"):
    """1 - log loss / log loss of the class frequencies of y_true (weighted). Same as
    sklearn.metrics.d2_log_loss_score."""
    validate("d2_log_loss_score", y_true=(y_true, [ARRAY]),
             y_proba=(y_proba, [ARRAY] if y_proba is not None else [NONE]),  # None: allowed, not named
             sample_weight=(sample_weight, [ARRAY, NONE]), labels=(labels, [ARRAY, NONE]),
             y_pred=(y_pred, [ARRAY, STR]))
    y_proba = _renamed_y_pred(y_proba, y_pred)
    y_true, y_proba, sample_weight = on_host_args(y_true=y_true, y_proba=y_proba, sample_weight=sample_weight)
    proba, _, w = samples_of(y_proba, y_true, sample_weight)
    if proba is None:
        raise TypeError(f"Expected sequence or array-like, got {type(y_proba)}")
    if _too_few(proba):
        return float("nan")
    proba = _float_array(y_proba, "y_proba")
    _weights_finite(sample_weight, proba)
    codes, proba = _multiclass_targets(y_true, proba, sample_weight, labels)
    w = None if sample_weight is None else w
    null = np.tile(np.average(codes, axis=0, weights=w), (proba.shape[0], 1))
    return float(1 - _total_log_loss(codes, proba, w) / _total_log_loss(codes, null, w))


def _binary_targets(y_true, y_prob, sample_weight, pos_label):
    """(n, 2) one-hot codes and probabilities of a binary y_true and the positive class's
    probabilities, as scikit-learn's brier score checks them."""
    y_true = vector(y_true)
    y_prob = vector(y_prob)
    _assert_finite(y_true)
    _assert_finite(y_prob)
    check_consistent_length(y_prob, y_true, None if sample_weight is None else as_array(sample_weight))
    if sample_weight is not None:
        _check_weights(sample_weight, y_prob.shape[0])
    kind = type_of_target(y_true, "y_true")
    if kind != "binary":
        raise ValueError(f"The type of the target inferred from y_true is {kind} but should be binary according to "
                         "the shape of y_prob.")
    if np.max(y_prob) > 1:
        raise ValueError(f"y_prob contains values greater than 1: {np.max(y_prob)}")
    if np.min(y_prob) < 0:
        raise ValueError(f"y_prob contains values less than 0: {np.min(y_prob)}")
    try:
        pos_label = _check_pos_label(pos_label, y_true)
    except ValueError:
        classes = unique_labels_1d(y_true)
        if classes.dtype.kind in "OUS":
            raise
        pos_label = classes[-1]
    pos = np.asarray(y_true == pos_label, dtype=np.int64)
    return np.stack((1 - pos, pos), axis=1), np.stack((1 - y_prob, y_prob), axis=1)


def _check_weights(sample_weight, n):
    """scikit-learn's _check_sample_weight (weights kept in their own dtype)."""
    w = as_array(sample_weight, "sample_weight")
    if w.ndim != 1:
        raise ValueError(f"Sample weights must be 1D array or scalar, got {w.ndim}D array. Expected either a scalar "
                         f"value or a 1D array of length {n}.")
    if w.shape != (n,):
        raise ValueError(f"sample_weight.shape == {w.shape}, expected {(n,)}!")
    if w.dtype.kind == "f":
        _assert_finite(w, "sample_weight")
    if np.all(w == 0):
        raise ValueError("Sample weights must contain at least one non-zero number.")


def d2_brier_score(y_true, y_proba, *, sample_weight=None, pos_label=None, labels=None):
    """1 - Brier score / Brier score of the class frequencies of y_true (weighted). Same as
    sklearn.metrics.d2_brier_score."""
    validate("d2_brier_score", y_true=(y_true, [ARRAY]), y_proba=(y_proba, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]), pos_label=(pos_label, POS_LABEL),
             labels=(labels, [ARRAY, NONE]))
    y_true, y_proba, sample_weight = on_host_args(y_true=y_true, y_proba=y_proba, sample_weight=sample_weight)
    proba, _, w = samples_of(y_proba, y_true, sample_weight)
    if _too_few(proba):
        return float("nan")
    proba = _float_array(y_proba, "y_proba")
    if proba.ndim == 1 or proba.shape[1] == 1:
        codes, proba = _binary_targets(y_true, proba, sample_weight, pos_label)
    else:
        _weights_finite(sample_weight, proba)
        codes, proba = _multiclass_targets(y_true, proba, sample_weight, labels)
    codes = codes.astype(proba.dtype, copy=False)
    null = np.tile(np.average(codes, axis=0, weights=w), (proba.shape[0], 1))
    # 0-d arrays, as scikit-learn's (a zero denominator warns about an array divide)
    score = np.asarray(np.average(np.sum((codes - proba) ** 2, axis=1), weights=w))
    score_null = np.asarray(np.average(np.sum((codes - null) ** 2, axis=1), weights=w))
    return float(1 - score / score_null)
