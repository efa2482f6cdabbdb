"""assay.metrics: metrics of predicted probabilities (log loss, Brier score).

Same names, signatures, defaults, return types, warnings and numbers as sklearn.metrics. The
arithmetic is numpy's, operation for operation as scikit-learn does it (an elementwise log, a row sum
and a weighted mean: nothing a sort could speed up), so the values agree to the bit.
"""

from __future__ import annotations

import warnings
from math import sqrt

import numpy as np

from assay._params import ARRAY, BOOL, NONE, POS_LABEL, Str, validate
from assay._ranking import _assert_finite, _check_pos_label, check_samples_2d, column_or_1d
from assay._inputs import as_numpy, on_host, on_host_args
from assay._targets import (
    as_array, check_consistent_length, check_weight_shape, check_weights_finite, check_weights_not_all_zero,
    numpy_dtype, refuse_complex, type_of_target, unique_labels_1d,
)

__all__ = ["brier_score_loss", "log_loss"]


def _float_array(a, name):
    """check_array(a, ensure_2d=False, dtype=(float64, float32, float16)): numpy's float dtypes as
    scikit-learn lists them stay when the input itself carries that NumPy dtype; the rest is float64
    (Arrow, polars or array-api-strict float32 too, as scikit-learn converts an input without a
    NumPy dtype to the first dtype it accepts)."""
    floats = (np.float64, np.float32, np.float16)
    a_in, a = a, as_array(a, name)
    if a.dtype not in floats or numpy_dtype(a_in) not in floats:
        a = a.astype(np.float64)
    return check_samples_2d(a)


def _check_weight(sample_weight, n):
    if sample_weight is None:
        return
    w = as_numpy(sample_weight, "sample_weight")
    refuse_complex(w)
    check_weight_shape(w, n)
    check_weights_finite(w)
    check_weights_not_all_zero(w)


def _refuse_mixed_labels(given):
    """A plain sequence of labels (no array: numpy would turn every label into a string) that holds
    both strings and numbers is refused, as scikit-learn's unique_labels does."""
    if hasattr(given, "__array__") or hasattr(given, "dtype") or not hasattr(given, "__iter__"):
        return
    values = list(given)
    if len({isinstance(v, str) for v in values}) > 1:
        raise ValueError(f"Mix of label input types (string and number); Got {np.unique(np.asarray(values))}.")


def _one_hot(y_true, labels):
    """(one column per class, 0/1 int64; the classes): LabelBinarizer's coding for log_loss and
    brier_score_loss. A multilabel-indicator y_true is its own coding (one column per label)."""
    given = y_true  # scikit-learn names the undeclared labels as iterating over y_true gives them
    y_true = as_array(y_true, "y_true")
    if labels is not None:
        if len(labels) == 0:  # scikit-learn's LabelBinarizer fitted on no labels
            raise ValueError(f"y has 0 samples: {labels!r}")
        type_of_target(np.asarray(labels), "labels")  # refuses bytes labels, as scikit-learn does
        classes = np.unique(np.asarray(labels))
        if not np.all(classes == labels):
            warnings.warn(f"Labels passed were {labels}. But this function assumes labels are ordered "
                          f"lexicographically. Pass the ordered labels={classes.tolist()} and ensure that the columns "
                          "of y_prob correspond to this ordering.", UserWarning, stacklevel=4)
        if not np.all(np.isin(y_true, labels)):
            raise ValueError(f"y_true contains values {set(given) - set(labels)} not belonging to the passed labels "
                             f"{labels}.")
        if type_of_target(y_true, "y_true") == "unknown":
            raise ValueError("The type of target data is not known")
        if classes.shape[0] > 1 and type_of_target(y_true, "y_true") == "multilabel-indicator":
            raise ValueError("The object was not fitted with multilabel input.")
    else:
        y_type = type_of_target(y_true, "y")  # LabelBinarizer's name for it
        if y_type.endswith("-multioutput"):
            raise ValueError("Multioutput target data is not supported with label binarization")
        if y_type == "multilabel-indicator":
            return y_true.astype(np.int64), np.arange(y_true.shape[1])
        if y_type not in ("binary", "multiclass"):
            # scikit-learn's LabelBinarizer names the targets as they were given.
            raise ValueError(f"Unknown label type: {(given,)!r}")
        _refuse_mixed_labels(given)
        classes = unique_labels_1d(y_true)
    if classes.shape[0] == 1:
        if labels is None:
            raise ValueError(f"y_true contains only one label ({classes[0]}). Please provide the list of all expected "
                             "class labels explicitly through the labels argument.")
        raise ValueError(f"The labels array needs to contain at least two labels, got {classes}.")
    codes = (column_or_1d(y_true).reshape(-1, 1) == classes.reshape(1, -1)).astype(np.int64)
    if classes.shape[0] == 2:
        codes = np.concatenate((1 - codes[:, 1:], codes[:, 1:]), axis=1)
    return codes, classes


def _multiclass_targets(y_true, y_prob, sample_weight, labels):
    if np.max(y_prob) > 1:
        raise ValueError(f"y_prob contains values greater than 1: {np.max(y_prob)}")
    if np.min(y_prob) < 0:
        raise ValueError(f"y_prob contains values lower than 0: {np.min(y_prob)}")
    check_consistent_length(y_prob, as_array(y_true),
                            None if sample_weight is None else as_numpy(sample_weight, "sample_weight"))
    _check_weight(sample_weight, y_prob.shape[0])
    codes, classes = _one_hot(y_true, labels)
    if y_prob.ndim == 1:
        y_prob = y_prob[:, np.newaxis]
    if y_prob.shape[1] == 1:
        y_prob = np.concatenate([1 - y_prob, y_prob], axis=1)
    total = np.sum(y_prob, axis=1)
    if not np.all(np.isclose(total, np.asarray(1, dtype=total.dtype), rtol=sqrt(np.finfo(y_prob.dtype).eps))):
        warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.", UserWarning,
                      stacklevel=4)
    if classes.shape[0] != y_prob.shape[1]:
        if labels is None:
            raise ValueError(f"y_true and y_prob contain different number of classes: {codes.shape[1]} vs "
                             f"{y_prob.shape[1]}. Please provide the true labels explicitly through the labels "
                             f"argument. Classes found in y_true: {classes}")
        raise ValueError(f"The number of classes in labels is different from that in y_prob. Classes found in labels: "
                         f"{classes}")
    return codes, y_prob


def log_loss(y_true, y_proba=None, *, normalize=True, sample_weight=None, labels=None, y_pred="deprecated"):
    """Cross-entropy of the predicted probabilities (mean, or with normalize=False the weighted sum).

    Same as sklearn.metrics.log_loss (probabilities clipped to [eps, 1 - eps] of their dtype).
    """
    # y_proba=None is allowed (for the deprecated y_pred) but not advertised: the message says array-like.
    validate("log_loss", y_true=(y_true, [ARRAY]), y_proba=(y_proba, [ARRAY] if y_proba is not None else [NONE]),
             normalize=(normalize, [BOOL]), sample_weight=(sample_weight, [ARRAY, NONE]),
             labels=(labels, [ARRAY, NONE]))
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError("Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use `y_proba` instead.")
        warnings.warn("`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in 1.11. Use `y_proba` "
                      "instead.", FutureWarning, stacklevel=2)
        y_proba = y_pred
    y_true, y_proba = on_host_args(y_true=y_true, y_proba=y_proba)
    y_proba = _float_array(y_proba, "y_proba")
    sample_weight = on_host(sample_weight, "sample_weight")  # a device array: one host copy
    codes, y_proba = _multiclass_targets(y_true, y_proba, sample_weight, labels)
    eps = np.finfo(y_proba.dtype).eps
    y_proba = np.clip(y_proba, eps, 1 - eps)
    codes = codes.astype(y_proba.dtype, copy=False)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = codes * np.log(y_proba)
    terms = np.where(codes == 0.0, np.asarray(0.0, dtype=terms.dtype), terms)
    loss = -np.sum(terms, axis=1)
    if normalize:
        return float(np.average(loss, weights=sample_weight))
    if sample_weight is not None:
        return float(np.dot(loss, sample_weight))
    return float(np.sum(loss))


def brier_score_loss(y_true, y_proba, *, sample_weight=None, pos_label=None, labels=None, scale_by_half="auto"):
    """Mean squared difference between the predicted probabilities and the outcomes.

    Same as sklearn.metrics.brier_score_loss (binary halves the multiclass sum unless scale_by_half).
    """
    validate("brier_score_loss", y_true=(y_true, [ARRAY]), y_proba=(y_proba, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]), pos_label=(pos_label, POS_LABEL),
             labels=(labels, [ARRAY, NONE]), scale_by_half=(scale_by_half, [BOOL, Str({"auto"})]))
    y_proba = _float_array(y_proba, "y_proba")
    sample_weight = on_host(sample_weight, "sample_weight")  # a device array: one host copy
    if y_proba.ndim == 1 or y_proba.shape[1] == 1:
        y_t = column_or_1d(as_array(y_true, "y_true"))
        y_p = column_or_1d(y_proba)
        _assert_finite(y_t)
        check_consistent_length(y_p, y_t, None if sample_weight is None else as_numpy(sample_weight, "sample_weight"))
        _check_weight(sample_weight, y_p.shape[0])
        y_type = type_of_target(y_t, "y_true")
        if y_type != "binary":
            raise ValueError(f"The type of the target inferred from y_true is {y_type} but should be binary according "
                             "to the shape of y_prob.")
        if np.max(y_p) > 1:
            raise ValueError(f"y_prob contains values greater than 1: {np.max(y_p)}")
        if np.min(y_p) < 0:
            raise ValueError(f"y_prob contains values less than 0: {np.min(y_p)}")
        try:
            pos_label = _check_pos_label(pos_label, y_t)
        except ValueError:
            classes = unique_labels_1d(y_t)
            if classes.dtype.kind in "OUS":
                raise
            pos_label = classes[-1]
        pos = np.asarray(y_t == pos_label, dtype=np.int64)
        codes = np.stack((1 - pos, pos), axis=1)
        y_proba = np.stack((1 - y_p, y_p), axis=1)
    else:
        codes, y_proba = _multiclass_targets(y_true, y_proba, sample_weight, labels)
    codes = codes.astype(y_proba.dtype, copy=False)
    score = np.average(np.sum((codes - y_proba) ** 2, axis=1), weights=sample_weight)
    if scale_by_half == "auto":
        scale_by_half = y_proba.ndim == 1 or y_proba.shape[1] < 3
    if scale_by_half:
        score *= 0.5
    return float(score)
