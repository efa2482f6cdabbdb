"""Input checking shared by every function of assay.metrics: one place for scikit-learn's rules on
array-likes, target types, consistent lengths, sample weights and class labels.

The messages are scikit-learn's, word for word, so that code catching them keeps working; the
work itself (finding the classes, coding the labels, counting) runs in the C++ core.
"""

from __future__ import annotations

import numbers

import numpy as np

from assay import _core
# The conversion of every array argument lives in the one input layer; these names stay importable
# from here for the modules of assay.metrics.
from assay._inputs import as_array, as_numpy, from_arrow, numpy_dtype, on_host, refuse_complex  # noqa: F401

# Labels of these dtype kinds are coded by the core in one pass; others (strings, objects) by
# numpy's sort, as scikit-learn does.
_NUMERIC_KINDS = "biuf"


def num_samples(a):
    """The number of samples of an array, or of a sequence (its length), as scikit-learn counts them."""
    if not hasattr(a, "shape"):
        return len(a)
    return a.shape[0] if len(a.shape) > 0 else 0


def check_consistent_length(*arrays):
    lengths = [num_samples(a) for a in arrays if a is not None]
    if len(set(lengths)) > 1:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: %r" % [int(n) for n in lengths]
        )


def column_or_1d(a, name):
    """A column vector flattened (silently, as scikit-learn's metrics do), a 1-D array as it is."""
    if a.ndim == 1:
        return a
    if a.ndim == 2 and a.shape[1] == 1:
        return a.ravel()
    raise ValueError(f"{name} should be a 1d array, got an array of shape {a.shape} instead.")


def _is_integral_float(a):
    # scikit-learn's test, a round trip through int64 (NaN and infinity fail it, with numpy's
    # RuntimeWarning about the cast, which scikit-learn lets through too).
    return a.dtype.kind == "f" and not bool(np.any(a != a.astype(np.int64).astype(a.dtype)))


def _small_range(a):
    """(a as int64 minus its minimum, the minimum) for 1-D integer or boolean arrays whose values
    span a range no wider than the array (or 2**16); None otherwise."""
    if not (isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype.kind in "biu" and a.size):
        return None
    v = a.view(np.uint8) if a.dtype.kind == "b" else a
    lo, hi = int(v.min()), int(v.max())
    if hi - lo > max(a.size, 1 << 16) or lo <= -(2**62) or hi >= 2**62:
        return None
    return (v.astype(np.int64) - lo if lo else v.astype(np.int64, copy=False)), lo


def unique_labels_1d(a):
    """np.unique(a) of a 1-D array. Integers and booleans of a small range (see _small_range) are
    counted in a table, one pass (np.bincount) instead of numpy's sort of all n values; the same
    sorted classes, in a's dtype."""
    small = _small_range(a)
    if small is None:
        return np.unique(a)
    offsets, lo = small
    return (np.flatnonzero(np.bincount(offsets)) + lo).astype(a.dtype)


def label_codes_1d(a):
    """np.unique(a, return_inverse=True, return_counts=True) of a 1-D array: (classes, the index of
    each entry's class, the classes' sizes as int64), by a count table for integers and booleans
    of a small range (see _small_range), by numpy's sort otherwise."""
    small = _small_range(a)
    if small is None:
        classes, codes, counts = np.unique(a, return_inverse=True, return_counts=True)
        return classes, codes.ravel(), counts.astype(np.int64)
    offsets, lo = small
    counts = np.bincount(offsets)
    present = np.flatnonzero(counts)
    lookup = np.zeros(counts.shape[0], dtype=np.int64)
    lookup[present] = np.arange(present.shape[0])
    return (present + lo).astype(a.dtype), lookup[offsets], counts[present].astype(np.int64)


def type_of_target(a, name="", count_classes=True):
    """scikit-learn's type_of_target for dense arrays: 'binary', 'multiclass', 'continuous',
    'multilabel-indicator', '...-multioutput' or 'unknown'. With count_classes=False, 'binary' stands
    for 'binary or multiclass' (no np.unique: the caller counts the classes of both arrays)."""
    if a.ndim == 2 and a.shape[1] > 1 and a.dtype.kind in _NUMERIC_KINDS:
        # scikit-learn's rule: at most two distinct values, integers or integral floats (any two,
        # not only 0 and 1: the metrics then read a non-zero value as the label being present).
        values = unique_labels_1d(a.ravel())
        if values.size <= 2 and (a.dtype.kind in "biu" or _is_integral_float(values)):
            return "multilabel-indicator"
    if a.ndim == 1 and a.shape[0] and isinstance(a[0], bytes):
        raise TypeError("Support for labels represented as bytes is not supported. Convert the labels to a string or "
                        "integer format.")
    if a.ndim not in (1, 2):
        return "unknown"
    if not min(a.shape):
        return "binary" if a.ndim == 1 else "unknown"
    if a.dtype == object and not isinstance(a.flat[0], str):
        return "unknown"
    suffix = "-multioutput" if a.ndim == 2 and a.shape[1] > 1 else ""
    if a.dtype.kind == "f" and not _is_integral_float(a):
        if not np.all(np.isfinite(a)):
            what = "NaN" if np.any(np.isnan(a)) else f"infinity or a value too large for {a.dtype!r}"
            label = f"Input {name} contains {what}." if name else f"Input contains {what}."
            raise ValueError(label)
        return "continuous" + suffix
    if a.ndim == 2 and a.shape[1] > 1:
        return "multiclass" + suffix
    if not count_classes:
        return "binary"
    return "multiclass" if unique_labels_1d(a.ravel()).shape[0] > 2 else "binary"


def check_weight_shape(w, n):
    """Sample weights (an array) must be 1-D and one per sample: scikit-learn's two messages."""
    if w.ndim != 1:
        raise ValueError(
            f"Sample weights must be 1D array or scalar, got {w.ndim}D array. Expected either a scalar "
            f"value or a 1D array of length {n}."
        )
    if w.shape[0] != n:
        raise ValueError(f"sample_weight.shape == ({w.shape[0]},), expected ({n},)!")


def check_weights_finite(w, dtype=None):
    """An array of sample weights must not hold NaN or infinity (the message names `dtype`, the
    weights' dtype as scikit-learn holds them: w's own by default)."""
    dtype = w.dtype if dtype is None else dtype
    if w.dtype.kind == "f" and not np.all(np.isfinite(w)):
        raise ValueError("Input sample_weight contains NaN." if np.any(np.isnan(w))
                         else f"Input sample_weight contains infinity or a value too large for {dtype!r}.")


def check_weights_not_all_zero(w):
    if not np.any(w):
        raise ValueError("Sample weights must contain at least one non-zero number.")


def check_sample_weight(sample_weight, n):
    """scikit-learn's checks of sample weights (as _check_targets makes them): (the weights as
    scikit-learn keeps them, C-contiguous with their own dtype; the same as float64 for the core),
    or (None, None) for unit weights. Its rules (refuse_complex, check_weight_shape,
    check_weights_finite, check_weights_not_all_zero) are the ones every function of assay.metrics
    applies to its weights."""
    if sample_weight is None:
        return None, None
    if isinstance(sample_weight, numbers.Number):
        raw = np.full(n, sample_weight)
    else:
        raw = as_numpy(sample_weight, "sample_weight")
        refuse_complex(raw)
        if raw.dtype.kind not in "biuf":
            raw = raw.astype(np.float64)
        raw = np.ascontiguousarray(raw)
        check_weight_shape(raw, n)
    w = raw if raw.dtype == np.float64 else raw.astype(np.float64)
    with np.errstate(over="ignore"):  # an overflow here is only a reason to look closer
        total = np.sum(w)
    if np.isfinite(total) and total != 0:  # one pass: then every weight is finite and one is not 0
        return raw, w
    check_weights_finite(w if raw.dtype.kind == "f" else raw, raw.dtype)
    check_weights_not_all_zero(w)
    return raw, w


class Targets:
    """Checked classification targets: the task type, the sorted classes (as scikit-learn's
    unique_labels gives them), the 1-D label arrays, the weights, and the tally of the core."""

    __slots__ = ("type", "classes", "true_codes", "pred_codes", "y_true", "y_pred", "weight", "weight_raw",
                 "_tally", "indicator_values")

    def tally(self):
        """(cells K x K, actual, predicted, correct totals per class), float64, computed once in the
        core. Weighted totals are summed case by case (np.bincount's order), not from the cells."""
        if self._tally is None:
            self._tally = _core.tally(self.true_codes, self.pred_codes, self.classes.shape[0], self.weight)
        return self._tally


def _exact_in_float64(y):
    """Whether every label keeps its value as a float64 (the core codes numeric labels as float64):
    64-bit integers beyond 2**53 do not (2**63 and 2**63 + 1 would become one class)."""
    if y.dtype.kind not in "iu" or y.dtype.itemsize < 8 or y.size == 0:
        return True
    return bool(np.max(y) <= 2**53 and (y.dtype.kind == "u" or np.min(y) >= -(2**53)))


def encode(y_true, y_pred):
    """Sorted union of the classes of y_true and y_pred and both coded as indices into it."""
    if (y_true.dtype.kind in _NUMERIC_KINDS and y_pred.dtype.kind in _NUMERIC_KINDS
            and _exact_in_float64(y_true) and _exact_in_float64(y_pred)):
        t = np.ascontiguousarray(y_true, dtype=np.float64)
        p = np.ascontiguousarray(y_pred, dtype=np.float64)
        classes, ct, cp = _core.encode_numeric(t, p)
        dtype = np.result_type(y_true.dtype, y_pred.dtype)
        return classes.astype(dtype, copy=False), ct, cp
    if (y_true.dtype.kind == "U" and y_pred.dtype.kind == "U" and y_true.ndim == 1 and y_pred.ndim == 1
            and np.result_type(y_true.dtype, y_pred.dtype).itemsize > 0):
        return _encode_strings(y_true, y_pred)
    kinds = {y_true.dtype.kind in _NUMERIC_KINDS, y_pred.dtype.kind in _NUMERIC_KINDS}
    both = np.concatenate([y_true.astype(object), y_pred.astype(object)])
    if kinds == {True} and y_true.dtype.kind in "biu" and y_pred.dtype.kind in "biu":
        # Integers that float64 cannot hold: sorted as Python ints (numpy would mix int64 and
        # uint64 in float64), as scikit-learn's set of labels does.
        classes, inverse = np.unique(both, return_inverse=True)
        n = y_true.shape[0]
        inverse = inverse.astype(np.int32)
        return (np.asarray(classes.tolist()), np.ascontiguousarray(inverse[:n]),
                np.ascontiguousarray(inverse[n:]))
    if len(kinds) > 1 or len({isinstance(v, str) for v in both}) > 1:
        got = " and ".join(f"{np.unique(y)}" for y in (y_true, y_pred))
        raise ValueError(f"Mix of label input types (string and number); Got {got}.")
    classes, inverse = np.unique(np.concatenate([y_true, y_pred]), return_inverse=True)
    inverse = inverse.astype(np.int32)
    if classes.dtype == object:
        classes = np.asarray(classes.tolist())  # scikit-learn's unique_labels gives a str array
    n = y_true.shape[0]
    return classes, np.ascontiguousarray(inverse[:n]), np.ascontiguousarray(inverse[n:])


def _encode_strings(y_true, y_pred):
    """encode for two NumPy string arrays: the core hashes the fixed-width strings (one pass, no sort
    of n strings); numpy sorts the few distinct ones, so the order is np.unique's."""
    common = np.result_type(y_true.dtype, y_pred.dtype)
    t = np.ascontiguousarray(y_true, dtype=common)
    p = np.ascontiguousarray(y_pred, dtype=common)
    n = t.shape[0]
    first, codes_true, codes_pred = _core.encode_records(t.view(np.uint8), p.view(np.uint8), common.itemsize)
    from_true = first < n
    distinct = np.empty(first.shape[0], dtype=common)
    distinct[from_true] = t[first[from_true]]
    distinct[~from_true] = p[first[~from_true] - n]
    order = np.argsort(distinct, kind="stable")
    rank = np.empty(order.shape[0], dtype=np.int32)
    rank[order] = np.arange(order.shape[0], dtype=np.int32)
    return distinct[order], rank[codes_true], rank[codes_pred]


def _class_dtype(y_true, y_pred, classes):
    """The dtype of scikit-learn's unique_labels: an array of the set of both arrays' values, where a
    value of y_pred equal to one of y_true is y_true's."""
    if (classes.dtype.kind in "iuO" and y_true.dtype.kind in "iu" and y_pred.dtype.kind in "iu"
            and not (_exact_in_float64(y_true) and _exact_in_float64(y_pred))):
        return classes.dtype  # integers beyond float64's: numpy's type for the values themselves
    if y_true.dtype == y_pred.dtype or classes.dtype.kind not in _NUMERIC_KINDS:
        return classes.dtype if classes.dtype.kind not in _NUMERIC_KINDS else y_true.dtype
    both = np.result_type(y_true.dtype, y_pred.dtype)
    if both == y_true.dtype or np.isin(classes, y_true).all():
        return y_true.dtype
    return both


def _integer_fast_path(y_true, y_pred):
    """Whether the labels go to the core as int64 as they are (no type_of_target pass needed:
    integer labels are always binary or multiclass)."""
    return (y_true.ndim == 1 and y_pred.ndim == 1 and y_true.shape[0] == y_pred.shape[0] and y_true.shape[0] > 0
            and all(y.dtype.kind in "biu" and not (y.dtype.kind == "u" and y.dtype.itemsize == 8)
                    for y in (y_true, y_pred)))


def _as_int64(y):
    return y if y.dtype == np.int64 and y.flags.c_contiguous else np.ascontiguousarray(y, dtype=np.int64)


def is_sparse(y):
    return type(y).__module__.startswith("scipy.sparse")


def densify(y):
    """A scipy.sparse matrix or array of labels as a dense numpy array (anything else as it is).

    scikit-learn takes a sparse matrix of two or more columns for a multilabel indicator when its
    stored values are integral and either all one value or two values one of which is 0, and then
    counts its non-zero entries: such a matrix becomes the dense 0/1 matrix of its non-zeros. Any
    other sparse matrix becomes its dense values."""
    if not is_sparse(y):
        return y
    if len(y.shape) == 2 and y.shape[1] > 1:
        stored = np.unique(np.asarray(y.tocsr().data if y.format in ("dok", "lil") else y.data))
        integral = y.dtype.kind in "biu" or (stored.dtype.kind == "f" and _is_integral_float(stored))
        if stored.size == 0 or ((stored.size == 1 or (stored.size == 2 and 0 in stored)) and integral):
            return np.asarray((y != 0).toarray(), dtype=np.int32)
    return np.asarray(y.toarray())


def _refuse_object_indicators(given):
    """scikit-learn makes a multilabel indicator a scipy.sparse matrix of the array as given, and a
    pandas DataFrame of nullable dtypes (Int64, boolean, ...) is an object array there: scipy's
    ValueError, which assay raises too (through scipy itself when it is installed, so the message
    is scipy's own)."""
    for y in given:
        if type(y).__module__.startswith("pandas") and hasattr(y, "dtypes") and numpy_dtype(y) is None:
            try:
                import scipy.sparse
            except ImportError:
                raise ValueError("scipy.sparse does not support dtype object.") from None
            scipy.sparse.csr_matrix(np.asarray(y))


def check_targets(y_true, y_pred, sample_weight=None):
    """scikit-learn's _check_targets, coding (and for integer labels, counting) 1-D labels on the
    way; multilabel-indicator targets are kept as two n x L int32 matrices (type
    'multilabel-indicator', classes 0 .. L-1), sparse ones made dense first."""
    y_true, y_pred = on_host(y_true, "y_true"), on_host(y_pred, "y_pred")
    sample_weight = on_host(sample_weight, "sample_weight")
    given = (y_true, y_pred)
    y_true, y_pred = densify(y_true), densify(y_pred)
    y_true = as_array(y_true, "y_true")
    y_pred = as_array(y_pred, "y_pred")
    check_consistent_length(y_true, y_pred, None if sample_weight is None else np.asarray(sample_weight))
    t = Targets()
    t._tally = t.indicator_values = None
    if _integer_fast_path(y_true, y_pred):
        t.weight_raw, t.weight = check_sample_weight(sample_weight, y_true.shape[0])
        counted = _core.tally_int64(_as_int64(y_true), _as_int64(y_pred), t.weight)
        if counted is not None:
            classes, t._tally = counted
            t.classes = classes.astype(_class_dtype(y_true, y_pred, classes), copy=False)
            t.type = "binary" if classes.shape[0] <= 2 else "multiclass"
            t.y_true, t.y_pred, t.true_codes, t.pred_codes = y_true, y_pred, None, None
            return t
    type_true = type_of_target(y_true, "y_true", count_classes=False)
    type_pred = type_of_target(y_pred, "y_pred", count_classes=False)
    if {type_true, type_pred} != {"binary"}:  # an error, or multilabel: scikit-learn's exact types
        type_true = type_of_target(y_true, "y_true")
        type_pred = type_of_target(y_pred, "y_pred")
    if num_samples(y_true) < 1 or num_samples(y_pred) < 1:
        raise ValueError(
            "Found empty input array (e.g., `y_true` or `y_pred`) while a minimum of 1 sample is required."
        )
    t.weight_raw, t.weight = check_sample_weight(sample_weight, num_samples(y_true))
    types = {type_true, type_pred}
    if types == {"binary", "multiclass"}:
        types = {"multiclass"}
    if len(types) > 1:
        raise ValueError(f"Classification metrics can't handle a mix of {type_true} and {type_pred} targets")
    y_type = types.pop()
    if y_type == "multilabel-indicator":
        _refuse_object_indicators(given)
        if y_true.shape[1] != y_pred.shape[1]:
            raise ValueError("Multi-label binary indicator input with different numbers of labels")
        # One column per label, 1 where the label is present (a non-zero value), as int32 for the
        # core's tally. Values other than 0 and 1 are kept too: scikit-learn counts a label as
        # wrong where the two values differ (2 against 3), not where presence differs.
        t.type, t.classes = y_type, np.arange(y_true.shape[1])
        for y in (y_true, y_pred):
            if y.dtype == np.float16:  # scikit-learn holds indicators as scipy.sparse matrices, which refuse it
                import scipy.sparse

                scipy.sparse.csr_array(y)
        t.indicator_values = None
        if not all(np.all((y == 0) | (y == 1)) for y in (y_true, y_pred)):
            t.indicator_values = (y_true, y_pred)
            y_true, y_pred = y_true != 0, y_pred != 0
        t.y_true = np.ascontiguousarray(y_true, dtype=np.int32)
        t.y_pred = np.ascontiguousarray(y_pred, dtype=np.int32)
        t.true_codes = t.pred_codes = None
        return t
    if y_type not in ("binary", "multiclass"):
        raise ValueError(f"{y_type} is not supported")
    y_true = column_or_1d(y_true, "y_true")
    y_pred = column_or_1d(y_pred, "y_pred")
    classes, t.true_codes, t.pred_codes = encode(y_true, y_pred)
    t.classes = classes.astype(_class_dtype(y_true, y_pred, classes), copy=False)
    if y_type == "binary" and t.classes.shape[0] > 2:
        y_type = "multiclass"
    t.type, t.y_true, t.y_pred = y_type, y_true, y_pred
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
