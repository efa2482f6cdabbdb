"""assay.metrics: metrics of scores (ROC, precision-recall and DET curves, their areas, top-k accuracy).

Same names, signatures, defaults, return types, warnings and numbers as sklearn.metrics. The sort
and the sweep over the scores run in the C++ core; for the areas (roc_auc_score,
average_precision_score) the core also does the arithmetic after the sweep, rounding each
operation as numpy does and summing in numpy's pairwise order, so the values are scikit-learn's to
the bit. Contiguous float64 scores with integer or boolean labels reach the core without a copy of
the scores.
"""

from __future__ import annotations

import warnings
from itertools import combinations
from numbers import Integral

import numpy as np

from assay import _core
from assay._compat import UndefinedMetricWarning
from assay._inputs import array_view, as_numpy, on_host_args
from assay._params import ARRAY, BOOL, NONE, POS_LABEL, REAL, STR, Interval, str_options, validate
from assay._targets import (
    as_array, check_consistent_length, check_weight_shape, check_weights_finite, check_weights_not_all_zero,
    refuse_complex, type_of_target, unique_labels_1d,
)

try:
    from sklearn.utils._param_validation import InvalidParameterError
except ImportError:  # pragma: no cover - exercised only without scikit-learn

    class InvalidParameterError(ValueError, TypeError):
        """A parameter of a metric has a value outside its allowed set."""


__all__ = [
    "average_precision_score",
    "det_curve",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
    "top_k_accuracy_score",
]


# ----------------------------------------------------------------------------------------------
# Checks shared by the functions below


def _options_error(param, func, options, value, none=True):
    # scikit-learn prints the allowed strings as a set, in the set's own order (its set object's).
    options = str_options(func, param, set(options))
    text = f"a str among {{{', '.join(repr(o) for o in options)}}}" + (" or None" if none else "")
    return InvalidParameterError(f"The {param!r} parameter of {func} must be {text}. Got {value!r} instead.")


def refuse_strings(a):
    """scikit-learn's check_array(dtype="numeric") refuses strings and bytes (it converts nothing)."""
    if a.dtype.kind in "US":
        raise ValueError("dtype='numeric' is not compatible with arrays of bytes/strings.Convert your data to "
                         "numeric values explicitly instead.")
    return a


def column_or_1d(a, name="y"):
    """A 1-D view of a or of its single column (scikit-learn's column_or_1d, which does not warn here)."""
    if a.ndim == 1:
        return a
    if a.ndim == 2 and a.shape[1] == 1:
        return a.ravel()
    raise ValueError(f"y should be a 1d array, got an array of shape {a.shape} instead.")


def _assert_finite(a, name=""):
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        prefix = f"Input {name} contains" if name else "Input contains"
        if np.isnan(a).any():
            raise ValueError(f"{prefix} NaN.")
        raise ValueError(f"{prefix} infinity or a value too large for {a.dtype!r}.")


def check_samples_2d(a, name="", ensure_2d=False):
    """scikit-learn's check_array shape and finiteness rules for 1-D or 2-D values (scalar, 1-D when
    ``ensure_2d``, more than 2 dimensions, no samples, no features, NaN or infinity), with its
    messages; ``name`` is the input's name in the finiteness message ("Input X contains NaN.")."""
    for kind, refused in (("scalar", a.ndim == 0), ("1D", ensure_2d and a.ndim == 1)):
        if refused:
            raise ValueError(f"Expected 2D array, got {kind} array instead:\narray={a}.\nReshape your data either "
                             "using array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) "
                             "if it contains a single sample.")
    if a.ndim > 2:
        raise ValueError(f"Found array with dim {a.ndim}, while dim <= 2 is required.")
    if a.shape[0] == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape={a.shape}) while a minimum of 1 is required.")
    if a.ndim == 2 and a.shape[1] == 0:
        raise ValueError(f"Found array with 0 feature(s) (shape={a.shape}) while a minimum of 1 is required.")
    _assert_finite(a, name)
    return a


def _two_classes(y_true):
    """np.unique(y_true) of a 1-D integer or boolean array of one or two values, found in O(n)
    without a sort; None for anything else."""
    if not isinstance(y_true, np.ndarray) or y_true.ndim != 1 or y_true.dtype.kind not in "biu" or not y_true.size:
        return None
    lo, hi = y_true.min(), y_true.max()
    if lo == hi:
        return np.array([lo], dtype=y_true.dtype)
    if np.count_nonzero(y_true == lo) + np.count_nonzero(y_true == hi) != y_true.shape[0]:
        return None
    return np.array([lo, hi], dtype=y_true.dtype)


def _check_pos_label(pos_label, y_true, classes=None):
    """scikit-learn's _check_pos_label_consistency: pos_label, or 1 when the labels allow it."""
    if pos_label is not None:
        return pos_label
    if classes is None:
        classes = unique_labels_1d(y_true) if isinstance(y_true, np.ndarray) else np.unique(y_true)
    ok = classes.dtype.kind not in "OUS" and classes.shape[0] <= 2 and any(
        bool(np.all(classes == np.asarray(c)))
        for c in ([0, 1], [-1, 1], [0], [-1], [1])
    )
    if not ok:
        shown = ", ".join(repr(c) for c in classes.tolist())
        raise ValueError(
            f"y_true takes value in {{{shown}}} and pos_label is not specified: either make y_true take value "
            "in {0, 1} or {-1, 1} or pass pos_label explicitly."
        )
    return 1


def _weights(sample_weight, n):
    if sample_weight is None:
        return None
    w = as_numpy(sample_weight, "sample_weight")
    refuse_complex(w)
    if w.ndim == 1 and w.shape[0] == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape={w.shape}) while a minimum of 1 is required.")
    w = column_or_1d(w, "sample_weight")
    check_weight_shape(w, n)
    w = np.ascontiguousarray(w, dtype=np.float64)
    check_weights_finite(w)
    check_weights_not_all_zero(w)
    return w


def _as_f64(a):
    return a if a.dtype == np.float64 and a.flags.c_contiguous else np.ascontiguousarray(a, dtype=np.float64)


def _sweep_numpy(y, score, w):
    """The sweep for what the core does not take (negative weights): scikit-learn's algorithm."""
    if w is not None:
        keep = w != 0
        y, score, w = y[keep], score[keep], w[keep]
    order = np.argsort(-score, kind="stable")
    score, y = score[order], y[order].astype(np.float64)
    idx = np.r_[np.flatnonzero(np.diff(score)), y.shape[0] - 1]
    if w is None:
        tps = np.cumsum(y)[idx]
        fps = 1 + idx.astype(np.float64) - tps
    else:
        w = w[order]
        tps = np.cumsum(y * w)[idx]
        fps = np.cumsum((1 - y) * w)[idx]
    return fps, tps, score[idx]


def _binary_inputs(y_true, y_score, pos_label, sample_weight):
    """(0/1 labels as int32, scores as float64, weights or None, the scores' dtype) as scikit-learn's
    confusion_matrix_at_thresholds reads them."""
    y_true = as_array(y_true, "y_true")
    y_score = as_array(y_score, "y_score")
    classes = _two_classes(y_true)
    y_type = "binary" if classes is not None else type_of_target(y_true, "y_true")
    if not (y_type == "binary" or (y_type == "multiclass" and pos_label is not None)):
        raise ValueError("{0} format is not supported".format(y_type))
    pos_label = _check_pos_label(pos_label, y_true, classes)
    y = np.asarray(y_true == pos_label, dtype=np.int32)
    w = None if sample_weight is None else as_numpy(sample_weight, "sample_weight")
    check_consistent_length(y, y_score, w)
    y = np.ascontiguousarray(column_or_1d(y, "y"))
    y_score = column_or_1d(y_score, "y")
    _assert_finite(y_score)
    if y_score.dtype == object and any(v != v for v in y_score.tolist()):
        raise ValueError("Input contains NaN")  # scikit-learn's one check of object arrays
    w = _weights(w, y.shape[0])
    if y_score.dtype.kind in "US" or (y_score.dtype == object and y_score.size and isinstance(y_score[0], str)):
        # scikit-learn sorts string scores and then takes their differences, which numpy refuses
        # (a TypeError); doing the same here raises that same error instead of comparing strings.
        np.subtract(y_score[:1], y_score[:1])
    if y.shape[0] == 0:
        # scikit-learn indexes the last of no thresholds.
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    return y, y_score, w


def _clf_curve(y, y_score, w):
    """(fps, tps, thresholds as float64) of checked inputs."""
    score = _as_f64(y_score)
    if w is not None and (w < 0).any():
        return _sweep_numpy(y, score, w)
    return _core.clf_curve(y, score, w)


def _keep_corners(fps, tps, order):
    """Indices kept by drop_intermediate: first, last, and where np.diff(_, order) is non-zero."""
    if order == 2:
        inner = np.logical_or(np.diff(fps, 2), np.diff(tps, 2))
    else:
        inner = np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:]))
    return np.flatnonzero(np.r_[True, inner, True])


# ----------------------------------------------------------------------------------------------
# Curves


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """Receiver operating characteristic: (fpr, tpr, thresholds), thresholds decreasing from inf.

    Same as sklearn.metrics.roc_curve.
    """
    validate("roc_curve", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]), pos_label=(pos_label, POS_LABEL),
             sample_weight=(sample_weight, [ARRAY, NONE]), drop_intermediate=(drop_intermediate, [BOOL]))
    y_true, y_score, sample_weight = on_host_args(y_true=y_true, y_score=y_score, sample_weight=sample_weight)
    y, y_score, w = _binary_inputs(y_true, y_score, pos_label, sample_weight)
    if w is None or not (w < 0).any():
        fpr, tpr, thresholds, rates = _core.roc_points(y, _as_f64(y_score), w, bool(drop_intermediate))
        if rates:
            return fpr, tpr, thresholds
        fps, tps = fpr, tpr
    else:
        fps, tps, thresholds = _sweep_numpy(y, _as_f64(y_score), w)
        if drop_intermediate and fps.shape[0] > 2:
            keep = _keep_corners(fps, tps, 2)
            fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
        fps = np.r_[0.0, fps]
        tps = np.r_[0.0, tps]
        thresholds = np.r_[np.inf, thresholds]
    if fps[-1] <= 0:
        warnings.warn("No negative samples in y_true, false positive value should be meaningless",
                      UndefinedMetricWarning, stacklevel=2)
        fpr = np.full(fps.shape, np.nan)
    else:
        fpr = fps / fps[-1]
    if tps[-1] <= 0:
        warnings.warn("No positive samples in y_true, true positive value should be meaningless",
                      UndefinedMetricWarning, stacklevel=2)
        tpr = np.full(tps.shape, np.nan)
    else:
        tpr = tps / tps[-1]
    return fpr, tpr, thresholds


def precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=False):
    """(precision, recall, thresholds): recall decreasing to 0, precision ending at 1, thresholds
    increasing in the scores' dtype.

    Same as sklearn.metrics.precision_recall_curve.
    """
    validate("precision_recall_curve", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]),
             pos_label=(pos_label, POS_LABEL), sample_weight=(sample_weight, [ARRAY, NONE]),
             drop_intermediate=(drop_intermediate, [BOOL]))
    y_true, y_score, sample_weight = on_host_args(y_true=y_true, y_score=y_score, sample_weight=sample_weight)
    y, y_score, w = _binary_inputs(y_true, y_score, pos_label, sample_weight)
    fps, tps, thresholds = _clf_curve(y, y_score, w)
    return _pr_from_counts(fps, tps, thresholds.astype(y_score.dtype, copy=False), drop_intermediate)


def _pr_from_counts(fps, tps, thresholds, drop_intermediate=False):
    if drop_intermediate and fps.shape[0] > 2:
        keep = _keep_corners(fps, tps, 1)
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    ps = tps + fps
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(ps != 0, np.divide(tps, ps), 0.0)
    if tps[-1] == 0:
        warnings.warn("No positive class found in y_true, recall is set to one for all thresholds.", stacklevel=3)
        recall = np.full(tps.shape, 1.0)
    else:
        recall = tps / tps[-1]
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1]


def det_curve(y_true, y_score, pos_label=None, sample_weight=None, drop_intermediate=False):
    """Detection error tradeoff: (fpr, fnr, thresholds), false positive rate decreasing.

    Same as sklearn.metrics.det_curve.
    """
    validate("det_curve", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]), pos_label=(pos_label, POS_LABEL),
             sample_weight=(sample_weight, [ARRAY, NONE]), drop_intermediate=(drop_intermediate, [BOOL]))
    y_true, y_score, sample_weight = on_host_args(y_true=y_true, y_score=y_score, sample_weight=sample_weight)
    y, y_score, w = _binary_inputs(y_true, y_score, pos_label, sample_weight)
    fps, tps, thresholds = _clf_curve(y, y_score, w)
    tps = np.r_[0.0, tps]
    fps = np.r_[0.0, fps]
    thresholds = np.r_[np.inf, thresholds]
    if drop_intermediate and fps.shape[0] > 2:
        keep = _keep_corners(fps, tps, 1)
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    if np.unique(as_array(y_true)).shape[0] != 2:
        raise ValueError("Only one class is present in y_true. Detection error tradeoff curve is not defined in "
                         "that case.")
    fns = tps[-1] - tps
    first = np.searchsorted(fps, fps[0], side="right")
    sl = slice(first - 1 if first > 0 else None, np.searchsorted(tps, tps[-1]) + 1)
    return fps[sl][::-1] / fps[-1], fns[sl][::-1] / tps[-1], thresholds[sl][::-1]


# ----------------------------------------------------------------------------------------------
# Areas


def _binary_auc(y01, y_score, sample_weight=None, max_fpr=None):
    """scikit-learn's _binary_roc_auc_score on 0/1 labels."""
    if np.unique(y01).shape[0] != 2:
        warnings.warn("Only one class is present in y_true. ROC AUC score is not defined in that case.",
                      UndefinedMetricWarning, stacklevel=3)
        return np.nan
    if max_fpr is None or max_fpr == 1:
        y = np.ascontiguousarray(column_or_1d(np.asarray(y01 == 1, dtype=np.int32), "y"))
        score = column_or_1d(as_numpy(y_score, "y_score"), "y")
        check_consistent_length(y, score, None if sample_weight is None else as_numpy(sample_weight, "sample_weight"))
        _assert_finite(score)
        w = _weights(sample_weight, y.shape[0])
        if w is None or not (w < 0).any():
            area = _core.roc_auc(y, _as_f64(score), w)
            if area is not None:
                return area
    fpr, tpr, _ = roc_curve(y01, y_score, sample_weight=sample_weight)
    if max_fpr is None or max_fpr == 1:
        return _trapezoid_area(fpr, tpr)
    if max_fpr <= 0 or max_fpr > 1:
        raise ValueError("Expected max_fpr in range (0, 1], got: %r" % max_fpr)
    stop = np.searchsorted(fpr, max_fpr, "right")
    tpr = np.append(tpr[:stop], np.interp(max_fpr, [fpr[stop - 1], fpr[stop]], [tpr[stop - 1], tpr[stop]]))
    fpr = np.append(fpr[:stop], max_fpr)
    partial = _trapezoid_area(fpr, tpr)
    # McClish: 0.5 for a chance classifier, 1 for a perfect one, over [0, max_fpr].
    lo = 0.5 * max_fpr**2
    hi = max_fpr
    return 0.5 * (1 + (partial - lo) / (hi - lo))


def _trapezoid_area(x, y):
    """scikit-learn's auc(x, y) of a curve (x monotone)."""
    dx = np.diff(x)
    direction = 1
    if np.any(dx < 0):
        if np.all(dx <= 0):
            direction = -1
        else:
            raise ValueError("x is neither increasing nor decreasing : {}.".format(x))
    return float(direction * np.sum(dx * (y[1:] + y[:-1]) / 2.0, dtype=np.float64))


def _average_binary(metric, y_true, y_score, average, sample_weight):
    """scikit-learn's _average_binary_score: a binary metric per column, averaged."""
    y_type = type_of_target(y_true)
    if y_type not in ("binary", "multilabel-indicator"):
        raise ValueError("{0} format is not supported".format(y_type))
    if y_type == "binary":
        return metric(y_true, y_score, sample_weight)
    check_consistent_length(y_true, y_score, sample_weight)
    y_true = check_samples_2d(as_numpy(y_true, "y_true"))
    y_score = refuse_strings(as_numpy(y_score, "y_score"))
    y_score = check_samples_2d(y_score.astype(np.float64) if y_score.dtype.kind != "f" else y_score)
    axis = 1
    score_weight = sample_weight
    average_weight = None
    if average == "micro":
        if score_weight is not None:
            score_weight = np.repeat(score_weight, y_true.shape[1])
        y_true = y_true.ravel()
        y_score = y_score.ravel()
    elif average == "weighted":
        if score_weight is not None:
            sw = np.asarray(score_weight)
            average_weight = np.sum(np.multiply(np.asarray(y_true, dtype=sw.dtype), sw.reshape(-1, 1)), axis=0)
        else:
            average_weight = np.sum(y_true, axis=0)
        if np.isclose(np.sum(average_weight), 0):
            return 0
    elif average == "samples":
        average_weight = score_weight
        score_weight = None
        axis = 0
    if y_true.ndim == 1:
        y_true = y_true.reshape(-1, 1)
    if y_score.ndim == 1:
        y_score = y_score.reshape(-1, 1)
    n = y_score.shape[axis]
    scores = np.zeros((n,))
    for c in range(n):
        yt = np.take(y_true, [c], axis=axis).ravel()
        ys = np.take(y_score, [c], axis=axis).ravel()
        scores[c] = metric(yt, ys, score_weight)
    if average is None:
        return scores
    if average_weight is not None:
        scores[average_weight == 0] = 0
    return float(np.average(scores, weights=average_weight))


def _fast_binary_codes(y_true):
    """(0/1 int32 codes, positive = the greater label; whether that label is 1) of a contiguous 1-D
    integer, boolean or integral float array with exactly two distinct values, else None. One pass
    in the core (min and max, then the codes), without numpy's temporaries."""
    if not isinstance(y_true, np.ndarray) or y_true.ndim != 1 or y_true.dtype.kind not in "biuf" \
            or not y_true.flags.c_contiguous:
        return None
    try:
        return _core.two_class_codes(y_true)
    except TypeError:  # a layout the binding does not take (e.g. non-native byte order)
        return None


_AVERAGES = ("micro", "macro", "samples", "weighted")


def roc_auc_score(y_true, y_score, *, average="macro", sample_weight=None, max_fpr=None, multi_class="raise",
                  labels=None):
    """Area under the ROC curve: binary, multilabel, or multiclass one-vs-rest / one-vs-one.

    Same as sklearn.metrics.roc_auc_score (max_fpr with McClish's correction).
    """
    # scikit-learn's checks, in the order of its signature.
    validate("roc_auc_score", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]))
    if average is not None and average not in _AVERAGES:
        raise _options_error("average", "roc_auc_score", {"micro", "macro", "samples", "weighted"}, average)
    validate("roc_auc_score", sample_weight=(sample_weight, [ARRAY, NONE]))
    if max_fpr is not None and (isinstance(max_fpr, bool) or not isinstance(max_fpr, (int, float, np.number))
                                or not 0 < max_fpr <= 1):
        raise InvalidParameterError("The 'max_fpr' parameter of roc_auc_score must be a float in the range "
                                    f"(0.0, 1.0] or None. Got {max_fpr!r} instead.")
    if multi_class not in ("raise", "ovr", "ovo"):
        raise _options_error("multi_class", "roc_auc_score", {"raise", "ovr", "ovo"}, multi_class, none=False)
    validate("roc_auc_score", labels=(labels, [ARRAY, NONE]))
    # Fast path: 1-D integer/boolean labels of two classes, contiguous float64 scores (of any array
    # library: array_view is a view where the dtype fits).
    y_true, y_score, sample_weight = on_host_args(y_true=y_true, y_score=y_score, sample_weight=sample_weight)
    t_view, s_view = array_view(y_true, "y_true"), array_view(y_score, "y_score")
    if (max_fpr is None and isinstance(s_view, np.ndarray) and s_view.ndim == 1
            and s_view.dtype == np.float64 and s_view.flags.c_contiguous
            and isinstance(t_view, np.ndarray) and t_view.shape == s_view.shape):
        codes = _fast_binary_codes(t_view)
        y = None if codes is None else codes[0]
        w = None
        if y is not None and sample_weight is not None:
            w = as_numpy(sample_weight, "sample_weight")
            w = w if w.dtype == np.float64 and w.ndim == 1 and w.flags.c_contiguous else None
        if y is not None and (sample_weight is None or w is not None):
            try:
                area = _core.roc_auc(y, s_view, w)
            except ValueError:
                area = None  # a bad value: the checks below give scikit-learn's message
            if area is not None:
                return area
    y_true_a = as_array(y_true, "y_true")
    y_type = type_of_target(y_true_a, "y_true")
    if y_true_a.ndim == 0 or y_true_a.shape[0] == 0:
        shape = y_true_a.shape
        raise ValueError(f"Found array with 0 sample(s) (shape={shape}) while a minimum of 1 is required.")
    y_score_a = as_array(y_score, "y_score")
    refuse_strings(y_score_a)
    if y_score_a.dtype.kind not in "fc":
        y_score_a = y_score_a.astype(np.float64)
    if y_score_a.ndim >= 1 and y_score_a.shape[0] == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape={y_score_a.shape}) while a minimum of 1 is required.")
    _assert_finite(y_score_a)
    if sample_weight is not None:
        sample_weight = column_or_1d(as_numpy(sample_weight, "sample_weight"), "sample_weight")
    if y_type == "multiclass" or (y_type == "binary" and y_score_a.ndim == 2 and y_score_a.shape[1] > 2):
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError("Partial AUC computation not available in multiclass setting, 'max_fpr' must be set to "
                             f"`None`, received `max_fpr={max_fpr}` instead")
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr')")
        return _multiclass_auc(y_true_a, y_score_a, labels, multi_class, average, sample_weight)
    if y_type == "binary":
        classes = np.unique(y_true_a)
        y01 = (column_or_1d(y_true_a, "y") == classes[-1]).astype(np.int64) if classes.shape[0] > 1 else \
            np.zeros(y_true_a.shape[0], dtype=np.int64)
        metric = lambda t, s, w: _binary_auc(t, s, w, max_fpr)  # noqa: E731
        if classes.shape[0] > 1 and y_score_a.ndim == 2:  # lengths before the scores' shape, as scikit-learn
            check_consistent_length(y01, y_score_a, sample_weight)
        return _average_binary(metric, y01, y_score_a, average, sample_weight)
    metric = lambda t, s, w: _binary_auc(t, s, w, max_fpr)  # noqa: E731
    return _average_binary(metric, y_true_a, y_score_a, average, sample_weight)


def _binarize(y, classes):
    """One column per class, 1 where y is that class (int64), as label_binarize."""
    return (np.asarray(y).reshape(-1, 1) == np.asarray(classes).reshape(1, -1)).astype(np.int64)


def _multiclass_auc(y_true, y_score, labels, multi_class, average, sample_weight):
    if y_score.ndim != 2:
        raise ValueError("`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains multiple "
                         f"classes. Got `y_score.shape={y_score.shape}`.")
    if not np.allclose(1, y_score.sum(axis=1)):
        raise ValueError("Target scores need to be probabilities for multiclass roc_auc, i.e. they should sum up to "
                         "1.0 over classes")
    options = ("macro", "weighted", None)
    if multi_class == "ovr":
        options = ("micro",) + options
    if average not in options:
        raise ValueError("average must be one of {0} for multiclass problems".format(options))
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    y_true = column_or_1d(y_true, "y")
    if labels is not None:
        labels = column_or_1d(np.asarray(labels), "labels")
        classes = np.unique(labels)
        if len(classes) != len(labels):
            raise ValueError("Parameter 'labels' must be unique")
        if not np.array_equal(classes, labels):
            raise ValueError("Parameter 'labels' must be ordered")
        if len(classes) != y_score.shape[1]:
            raise ValueError("Number of given labels, {0}, not equal to the number of columns in 'y_score', {1}"
                             .format(len(classes), y_score.shape[1]))
        if len(np.setdiff1d(y_true, classes)):
            raise ValueError("'y_true' contains labels not in parameter 'labels'")
    else:
        classes = np.unique(y_true)
        if len(classes) != y_score.shape[1]:
            raise ValueError("Number of classes in y_true not equal to the number of columns in 'y_score'")
    metric = lambda t, s, w: _binary_auc(t, s, w)  # noqa: E731
    if multi_class == "ovo":
        if sample_weight is not None:
            raise ValueError("sample_weight is not supported for multiclass one-vs-one ROC AUC, 'sample_weight' must "
                             "be None in this case.")
        codes = np.searchsorted(classes, y_true)
        present = np.unique(codes)
        pairs = list(combinations(present, 2))
        pair_scores = np.empty(len(pairs))
        prevalence = np.empty(len(pairs)) if average == "weighted" else None
        for i, (a, b) in enumerate(pairs):
            a_mask = codes == a
            b_mask = codes == b
            ab = a_mask | b_mask
            if prevalence is not None:
                prevalence[i] = np.average(ab)
            pair_scores[i] = (metric(a_mask[ab], y_score[ab, a], None) + metric(b_mask[ab], y_score[ab, b], None)) / 2
        return np.average(pair_scores, weights=prevalence)
    return _average_binary(metric, _binarize(y_true, classes), y_score, average, sample_weight)


def average_precision_score(y_true, y_score, *, average="macro", pos_label=1, sample_weight=None):
    """Average precision: the precision-recall curve's step integral (no interpolation).

    Same as sklearn.metrics.average_precision_score (binary, multilabel, multiclass one-vs-rest).
    """
    validate("average_precision_score", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]))
    if average is not None and average not in _AVERAGES:
        raise _options_error("average", "average_precision_score", {"micro", "samples", "weighted", "macro"},
                             average)
    validate("average_precision_score", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]),
             pos_label=(pos_label, [REAL, STR, BOOL]), sample_weight=(sample_weight, [ARRAY, NONE]))
    y_true, y_score, sample_weight = on_host_args(y_true=y_true, y_score=y_score, sample_weight=sample_weight)
    t_view, s_view = array_view(y_true, "y_true"), array_view(y_score, "y_score")
    if pos_label == 1 and isinstance(s_view, np.ndarray) and s_view.ndim == 1 and s_view.dtype == np.float64 \
            and s_view.flags.c_contiguous and isinstance(t_view, np.ndarray) and t_view.shape == s_view.shape:
        codes = _fast_binary_codes(t_view)
        y = None if codes is None else codes[0]
        # Labels {0, 1}, {-1, 1} or {False, True}: the positive is 1, the greater label.
        if y is not None and codes[1]:
            w = None if sample_weight is None else as_numpy(sample_weight, "sample_weight")
            if w is None or (w.dtype == np.float64 and w.ndim == 1 and w.flags.c_contiguous and w.shape == y.shape):
                try:
                    ap = _core.average_precision(y, s_view, w)
                except ValueError:
                    ap = None
                if ap is not None:
                    return ap
    if sample_weight is not None:
        sample_weight = column_or_1d(as_numpy(sample_weight, "sample_weight"), "sample_weight")

    def binary_ap(t, s, w):
        y, s, w = _binary_inputs(t, s, pos_label, w)
        if w is None or not (w < 0).any():
            try:
                ap = _core.average_precision(y, _as_f64(s), w)
            except ValueError:
                ap = None
            if ap is not None:
                return ap
        precision, recall, _ = _pr_from_counts(*_clf_curve(y, s, w))
        return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))

    y_true_a = as_array(y_true, "y_true")
    y_type = type_of_target(y_true_a, "y_true")
    present = np.unique(y_true_a)
    if y_type == "binary":
        if present.shape[0] == 2 and pos_label not in present:
            raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one of {present}")
    elif y_type == "multilabel-indicator" and pos_label != 1:
        raise ValueError("Parameter pos_label is fixed to 1 for multilabel-indicator y_true. Do not set pos_label or "
                         "set pos_label to 1.")
    elif y_type == "multiclass":
        if pos_label != 1:
            raise ValueError("Parameter pos_label is fixed to 1 for multiclass y_true. Do not set pos_label or set "
                             "pos_label to 1.")
        y_true_a = _binarize(y_true_a, present)
        y_score = as_numpy(y_score, "y_score")
        if not y_score.shape == y_true_a.shape:
            raise ValueError("`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
                             f"multiple classes. Got `y_score.shape={y_score.shape}`.")
    return _average_binary(binary_ap, y_true_a, y_score, average, sample_weight)


def _true_class_in_top_k(y_score, codes, k):
    """Whether each row's true class (column codes[i]) is among the first k columns when the row is
    ranked as scikit-learn ranks it: a stable ascending sort of the scores, reversed, so that the
    higher score comes first and, among equal scores, the later column. The position of the true
    class is then the number of columns with a higher score plus the number of later columns with
    the same score; counting them is one pass over the (finite) scores instead of a sort per row."""
    n, classes = y_score.shape
    own = y_score[np.arange(n), codes]
    if classes > 64:
        later = np.arange(classes)[np.newaxis, :] > codes[:, np.newaxis]
        ahead = np.count_nonzero(y_score > own[:, np.newaxis], axis=1)
        return ahead + np.count_nonzero((y_score == own[:, np.newaxis]) & later, axis=1) < k
    # Few columns: one column at a time (numpy's row-wise counts are slow on short rows).
    ahead = np.zeros(n, dtype=np.int32)
    for j in range(classes):
        column = y_score[:, j]
        ahead += column > own
        ahead += (column == own) & (codes < j)
    return ahead < k


def top_k_accuracy_score(y_true, y_score, *, k=2, normalize=True, sample_weight=None, labels=None):
    """Fraction (or weighted number) of cases whose true class is among the k highest scores.

    Same as sklearn.metrics.top_k_accuracy_score.
    """
    y_true, y_score, sample_weight = on_host_args(y_true=y_true, y_score=y_score, sample_weight=sample_weight)
    validate("top_k_accuracy_score", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]),
             k=(k, [Interval(Integral, 1, None, "left")]), normalize=(normalize, [BOOL]),
             sample_weight=(sample_weight, [ARRAY, NONE]), labels=(labels, [ARRAY, NONE]))
    y_true = column_or_1d(check_samples_2d(as_array(y_true, "y_true")), "y")
    y_type = type_of_target(y_true, "y_true")
    if y_type == "binary" and labels is not None and len(labels) > 2:
        y_type = "multiclass"
    if y_type not in {"binary", "multiclass"}:
        raise ValueError(f"y type must be 'binary' or 'multiclass', got '{y_type}' instead.")
    y_score = refuse_strings(as_array(y_score, "y_score"))
    if y_score.dtype.kind not in "f":
        y_score = y_score.astype(np.float64)
    check_samples_2d(y_score)
    if y_type == "binary":
        if y_score.ndim == 2 and y_score.shape[1] != 1:
            raise ValueError(f"`y_true` is binary while y_score is 2d with {y_score.shape[1]} classes. If `y_true` "
                             "does not contain all the labels, `labels` must be provided.")
        y_score = column_or_1d(y_score, "y")
    elif y_score.ndim != 2:
        raise ValueError("`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains multiple "
                         f"classes. Got `y_score.shape={y_score.shape}`.")
    check_consistent_length(y_true, y_score,
                            None if sample_weight is None else as_numpy(sample_weight, "sample_weight"))
    n_score_classes = y_score.shape[1] if y_score.ndim == 2 else 2
    if labels is None:
        classes = unique_labels_1d(y_true)
        n_classes = len(classes)
        if n_classes != n_score_classes:
            raise ValueError(f"Number of classes in 'y_true' ({n_classes}) not equal to the number of classes in "
                             f"'y_score' ({n_score_classes}).You can provide a list of all known classes by assigning "
                             "it to the `labels` parameter.")
    else:
        labels = column_or_1d(np.asarray(labels), "labels")
        classes = np.unique(labels)
        n_classes = len(classes)
        if n_classes != len(labels):
            raise ValueError("Parameter 'labels' must be unique.")
        if not np.array_equal(classes, labels):
            raise ValueError("Parameter 'labels' must be ordered.")
        if n_classes != n_score_classes:
            raise ValueError(f"Number of given labels ({n_classes}) not equal to the number of classes in 'y_score' "
                             f"({n_score_classes}).")
        if len(np.setdiff1d(y_true, classes)):
            raise ValueError("'y_true' contains labels not in parameter 'labels'.")
    if k >= n_classes:
        warnings.warn(f"'k' ({k}) greater than or equal to 'n_classes' ({n_classes}) will result in a perfect score "
                      "and is therefore meaningless.", UndefinedMetricWarning, stacklevel=2)
    # (scikit-learn checks here again for labels of y_true outside the classes; both branches above
    # have already made sure there are none.)
    codes = np.searchsorted(classes, y_true)
    if y_type == "binary":
        if k == 1:
            cut = 0.5 if y_score.min() >= 0 and y_score.max() <= 1 else 0
            hits = (y_score > cut).astype(np.int64) == codes
        else:
            hits = np.ones_like(y_score, dtype=np.bool_)
    else:
        hits = _true_class_in_top_k(y_score, codes, k)
    if normalize:
        return float(np.average(hits, weights=sample_weight))
    if sample_weight is None:
        return float(np.sum(hits))
    return float(np.dot(hits, sample_weight))
