"""Input checking shared by every function of assay.metrics: one place for scikit-learn's rules on
array-likes, target types, consistent lengths, sample weights and class labels.

The messages are scikit-learn's, word for word, so that code catching them keeps working; the
work itself (finding the classes, coding the labels, counting) runs in the C++ core.
"""

from __future__ import annotations

import numbers

import numpy as np

from assay import _core

# Labels of these dtype kinds are coded by the core in one pass; others (strings, objects) by
# numpy's sort, as scikit-learn does.
_NUMERIC_KINDS = "biuf"


def as_array(y, name="y"):
    """An array-like as a numpy array without a copy where possible (lists, pandas and polars
    Series, pyarrow arrays through __array__)."""
    if isinstance(y, str) or not (hasattr(y, "__array__") or hasattr(y, "__len__")):
        raise ValueError(f"Expected array-like (array or non-string sequence), got {y!r}")
    if hasattr(y, "to_numpy") and not isinstance(y, np.ndarray):
        try:
            y = y.to_numpy()
        except TypeError:
            y = np.asarray(y)
    a = np.asarray(y)
    if a.dtype.kind == "c":
        raise ValueError(f"Complex data not supported\n{a}\n")
    return a


def num_samples(a):
    return a.shape[0] if a.ndim > 0 else 0


def check_consistent_length(*arrays):
    lengths = [num_samples(a) for a in arrays if a is not None]
    if len(set(lengths)) > 1:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: %r" % [int(n) for n in lengths]
        )


def column_or_1d(a, name):
    if a.ndim == 1:
        return a
    if a.ndim == 2 and a.shape[1] == 1:
        import warnings

        from assay._compat import DataConversionWarning

        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please change the shape of y to "
            "(n_samples, ), for example using ravel().",
            DataConversionWarning,
            stacklevel=3,
        )
        return a.ravel()
    raise ValueError(f"{name} should be a 1d array, got an array of shape {a.shape} instead.")


def _is_integral_float(a):
    return a.dtype.kind == "f" and bool(np.all(np.isfinite(a))) and bool(np.all(a == np.trunc(a)))


def type_of_target(a, name=""):
    """scikit-learn's type_of_target for dense arrays: 'binary', 'multiclass', 'continuous',
    'multilabel-indicator', '...-multioutput' or 'unknown'."""
    if a.ndim == 2 and a.shape[1] > 1 and a.dtype.kind in _NUMERIC_KINDS and a.size:
        values = np.unique(a)
        if values.size <= 2 and np.all(np.isin(values, [0, 1])):
            return "multilabel-indicator"
    if a.ndim not in (1, 2):
        return "unknown"
    if not min(a.shape):
        return "binary" if a.ndim == 1 else "unknown"
    if a.dtype == object and not isinstance(a.flat[0], str):
        return "unknown"
    suffix = "-multioutput" if a.ndim == 2 and a.shape[1] > 1 else ""
    if a.dtype.kind == "f" and not _is_integral_float(a):
        if not np.all(np.isfinite(a)):
            what = "NaN" if np.any(np.isnan(a)) else "infinity"
            label = f"Input {name} contains {what}." if name else f"Input contains {what}."
            raise ValueError(label)
        return "continuous" + suffix
    if a.ndim == 2 and a.shape[1] > 1:
        return "multiclass" + suffix
    return "multiclass" if np.unique(a.ravel()).shape[0] > 2 else "binary"


def check_sample_weight(sample_weight, n):
    """Weights as float64 of length n, or None for unit weights."""
    if sample_weight is None:
        return None
    if isinstance(sample_weight, numbers.Number):
        return np.full(n, float(sample_weight))
    w = np.asarray(sample_weight)
    if w.ndim != 1:
        raise ValueError("Sample weights must be 1D array or scalar")
    if w.shape[0] != n:
        raise ValueError(f"sample_weight.shape == ({w.shape[0]},), expected ({n},)!")
    w = np.ascontiguousarray(w, dtype=np.float64)
    if not np.all(np.isfinite(w)):
        raise ValueError("Input sample_weight contains NaN." if np.any(np.isnan(w))
                         else "Input sample_weight contains infinity or a value too large for dtype('float64').")
    return w


class Targets:
    """Checked classification targets: the task type, the sorted classes, and each label's index
    among them (int32, contiguous), ready for the core."""

    __slots__ = ("type", "classes", "true_codes", "pred_codes", "y_true", "y_pred", "weight")


def encode(y_true, y_pred):
    """Sorted union of the classes of y_true and y_pred and both coded as indices into it."""
    if y_true.dtype.kind in _NUMERIC_KINDS and y_pred.dtype.kind in _NUMERIC_KINDS:
        t = np.ascontiguousarray(y_true, dtype=np.float64)
        p = np.ascontiguousarray(y_pred, dtype=np.float64)
        classes, ct, cp = _core.encode_numeric(t, p)
        dtype = np.result_type(y_true.dtype, y_pred.dtype)
        return classes.astype(dtype, copy=False), ct, cp
    kinds = {y_true.dtype.kind in _NUMERIC_KINDS, y_pred.dtype.kind in _NUMERIC_KINDS}
    both = np.concatenate([y_true.astype(object), y_pred.astype(object)])
    if len(kinds) > 1 or len({isinstance(v, str) for v in both}) > 1:
        got = " and ".join(f"{np.unique(y)}" for y in (y_true, y_pred))
        raise ValueError(f"Mix of label input types (string and number); Got {got}.")
    classes, inverse = np.unique(np.concatenate([y_true, y_pred]), return_inverse=True)
    inverse = inverse.astype(np.int32)
    n = y_true.shape[0]
    return classes, np.ascontiguousarray(inverse[:n]), np.ascontiguousarray(inverse[n:])


def check_targets(y_true, y_pred, sample_weight=None):
    """scikit-learn's _check_targets for 1-D label arrays, coding the labels on the way."""
    y_true = as_array(y_true, "y_true")
    y_pred = as_array(y_pred, "y_pred")
    check_consistent_length(y_true, y_pred, None if sample_weight is None else np.asarray(sample_weight))
    type_true = type_of_target(y_true, "y_true")
    type_pred = type_of_target(y_pred, "y_pred")
    if num_samples(y_true) < 1 or num_samples(y_pred) < 1:
        raise ValueError(
            "Found empty input array (e.g., `y_true` or `y_pred`) while a minimum of 1 sample is required."
        )
    weight = check_sample_weight(sample_weight, num_samples(y_true))
    types = {type_true, type_pred}
    if types == {"binary", "multiclass"}:
        types = {"multiclass"}
    if len(types) > 1:
        raise ValueError(f"Classification metrics can't handle a mix of {type_true} and {type_pred} targets")
    y_type = types.pop()
    if y_type == "multilabel-indicator":
        raise NotImplementedError("assay.metrics does not support multilabel-indicator targets yet")
    if y_type not in ("binary", "multiclass"):
        raise ValueError(f"{y_type} is not supported")
    y_true = column_or_1d(y_true, "y_true")
    y_pred = column_or_1d(y_pred, "y_pred")
    t = Targets()
    t.classes, t.true_codes, t.pred_codes = encode(y_true, y_pred)
    if y_type == "binary" and t.classes.shape[0] > 2:
        y_type = "multiclass"
    t.type, t.y_true, t.y_pred, t.weight = y_type, y_true, y_pred, weight
    return t


def binary_codes(y_true, pos_label, name="y_true"):
    """y_true as int32 0/1 (1 = the positive class) for the ranking kernels.

    The positive class is ``pos_label`` when given; otherwise, as scikit-learn, 1 when the classes
    are a subset of {0, 1} or {-1, 1}, and an error for anything else.
    """
    y = as_array(y_true, name)
    if y.ndim != 1:
        y = column_or_1d(y, name)
    classes = np.unique(y)
    if pos_label is None:
        numeric = y.dtype.kind in _NUMERIC_KINDS
        if not numeric or not (set(classes.tolist()) <= {0, 1} or set(classes.tolist()) <= {-1, 1}):
            raise ValueError(
                f"y_true takes value in {{{', '.join(repr(c) for c in classes.tolist())}}} and pos_label is not "
                "specified: either make y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
            )
        pos_label = 1
    if y.dtype == bool and pos_label in (0, 1):
        pos_label = bool(pos_label)
    return np.ascontiguousarray(y == pos_label, dtype=np.int32)
