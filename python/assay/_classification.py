"""assay.metrics: the classification metrics of labels (everything read off a confusion matrix).

Every function reads the labels once: the C++ core codes them and, in the same pass, tallies the
K x K confusion matrix and the per-class totals (actual, predicted, correct). What follows is
arithmetic on K numbers, written so that it performs scikit-learn's floating-point operations in
scikit-learn's order: the results are bit-identical, not merely close.

Multilabel-indicator targets (two n x L 0/1 matrices) are counted by the core per label (each
column a two-class tally, weighted sums in row order as scikit-learn's np.bincount of the CSR
entries) or per sample (average='samples', samplewise=True); the arithmetic on those counts is
scikit-learn's. Sparse (scipy.sparse) indicator matrices are made dense first.
"""

from __future__ import annotations

import os
import sys
import warnings
from numbers import Integral, Real

import numpy as np

from assay import _core
from assay._compat import UndefinedMetricWarning
from assay._params import (
    ARRAY, AVERAGE, BOOL, LABELS_IN, NAN, NONE, POS_LABEL, ZERO_DIVISION, Instance, Interval, RealIn, Str, validate,
)
from assay._targets import as_array, check_targets, densify, num_samples, type_of_target

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "class_likelihood_ratios",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "hamming_loss",
    "jaccard_score",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "zero_one_loss",
]

_AVERAGE_CHOICES = (None, "micro", "macro", "weighted", "samples")
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _warn(message, category=UserWarning):
    """warnings.warn attributed to the caller's code: the first frame outside the assay package."""
    frame, level = sys._getframe(1), 2
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


# --- reading the tally -------------------------------------------------------------------------

def _integer_counts(t):
    """Whether scikit-learn counts in int64 (no weights, or integer weights) rather than float64."""
    return t.weight_raw is None or t.weight_raw.dtype.kind in "iub"


def _label_positions(t, labels):
    """For each entry of `labels`, its index among the classes of `t`, or K (one past the end) for
    a label that does not occur. Labels are matched by value, as a dict of numpy scalars does."""
    classes = t.classes
    labels = np.asarray(labels)
    if {classes.dtype.kind, labels.dtype.kind} in ({"U", "b"}, {"U", "i"}, {"U", "u"}, {"U", "f"}):
        # scikit-learn concatenates labels= with the classes, and numpy writes numbers as strings
        # there: 1 matches the class '1' (and 1.0 matches '1.0'), as does '1' the class 1.
        classes, labels = classes.astype(str), labels.astype(str)
    index = {c: i for i, c in enumerate(classes.tolist())}
    k = classes.shape[0]
    return np.array([index.get(v, k) for v in labels.tolist()], dtype=np.intp)


def _integer_weight_cells(t):
    """The K x K cells of integer weights as scikit-learn sums them: in int64, wrapping around on
    overflow (uint64 weights taken as int64). The core's float64 tally is that exactly while every
    sum stays below 2**53; beyond, the cells are summed here in int64."""
    w = t.weight_raw
    with np.errstate(over="ignore"):
        largest = np.sum(np.abs(t.weight))
    if largest < 2.0**53:
        return t.tally()[0].astype(np.int64)
    k = t.classes.shape[0]
    if t.true_codes is None:  # the integer fast path counted without coding: code now
        true_codes, pred_codes = np.searchsorted(t.classes, t.y_true), np.searchsorted(t.classes, t.y_pred)
    else:
        true_codes, pred_codes = t.true_codes, t.pred_codes
    cells = np.zeros(k * k, dtype=np.int64)
    np.add.at(cells, true_codes.astype(np.intp) * k + pred_codes, w.astype(np.int64))
    return cells.reshape(k, k)


def _targets_as_confusion_matrix_sees_them(y_true, y_pred, sample_weight):
    """check_targets, with the length check of confusion_matrix: without weights scikit-learn checks
    a vector of ones as long as y_true, and says so in its message."""
    if sample_weight is None:
        yt, yp = as_array(y_true, "y_true"), as_array(y_pred, "y_pred")
        n_true, n_pred = num_samples(yt), num_samples(yp)
        if n_true != n_pred:  # the vector of ones is checked only when it is not empty
            raise ValueError("Found input variables with inconsistent numbers of samples: %r"
                             % ([n_true, n_pred, n_true] if n_true else [n_true, n_pred]))
        return check_targets(yt, yp)
    if num_samples(np.asarray(sample_weight)) == 0:  # no weights at all: checked without them
        return check_targets(y_true, y_pred)
    return check_targets(y_true, y_pred, sample_weight)


def _confusion(t, labels=None, normalize=None):
    """scikit-learn's confusion_matrix of checked targets (dtype, labels, normalisation, warning)."""
    if t.type not in ("binary", "multiclass"):
        raise ValueError(f"{t.type} is not supported")
    cells = _integer_weight_cells(t) if _integer_counts(t) and t.weight is not None else t.tally()[0]
    if labels is None:
        cm = cells
    else:
        labels = np.asarray(labels)
        if labels.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        pos = _label_positions(t, labels)
        k = t.classes.shape[0]
        if t.weight is None:
            in_true = bool(np.any(np.append(t.tally()[1], 0.0)[pos] > 0))
        else:  # a weighted total may be 0 for a class that occurs: ask the labels themselves
            in_true = len(np.intersect1d(t.y_true, labels)) > 0
        if not in_true:
            raise ValueError("At least one label specified must be in y_true")
        if (labels.dtype.kind in "biu" and t.classes.dtype.kind == "U"
                and np.array_equal(labels, np.arange(labels.size))):
            # scikit-learn takes labels 0 .. K-1 for indices and asks y_true for its minimum,
            # which numpy refuses for strings (its TypeError, raised here the same way).
            np.min(np.asarray(t.y_true))
        # A label listed twice counts at its last place only (scikit-learn maps label -> last index).
        last = {v: a for a, v in enumerate(labels.tolist())}
        keep = np.array([pos[a] < k and last[v] == a for a, v in enumerate(labels.tolist())], dtype=bool)
        cm = np.zeros((labels.size, labels.size), dtype=cells.dtype)
        cm[np.ix_(keep, keep)] = cells[np.ix_(pos[keep], pos[keep])]
    cm = cm.astype(np.int64) if _integer_counts(t) else cm.copy()
    if normalize is not None:
        with np.errstate(all="ignore"):
            if normalize == "true":
                cm = cm / cm.sum(axis=1, keepdims=True)
            elif normalize == "pred":
                cm = cm / cm.sum(axis=0, keepdims=True)
            else:
                cm = cm / cm.sum()
            cm = np.nan_to_num(cm)
    if cm.shape == (1, 1):
        _warn(
            "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to have the correct "
            "shape, use the 'labels' parameter to pass all known labels.",
            UserWarning,
        )
    return cm


def _multilabel_confusion(t, labels=None):
    """scikit-learn's multilabel_confusion_matrix of 1-D targets: one 2 x 2 matrix [[tn, fp], [fn, tp]]
    per label, with its dtypes (int64 counts; float64 with weights, or when nothing at all is
    predicted right, as np.bincount of an empty selection gives)."""
    _, actual, predicted, correct = t.tally()
    pos = np.arange(t.classes.shape[0]) if labels is None else _label_positions(t, labels)
    take = lambda totals: np.append(totals, 0)[pos]  # noqa: E731 - label K is an absent one
    if t.weight is not None:
        tp, true_sum, pred_sum = take(correct), take(actual), take(predicted)
    else:
        true_sum, pred_sum = take(actual).astype(np.int64), take(predicted).astype(np.int64)
        tp = take(correct).astype(np.int64) if correct.any() else np.zeros(pos.shape[0])
    fp = pred_sum - tp
    fn = true_sum - tp
    total = np.sum(t.weight_raw) if t.weight is not None else t.y_true.shape[0]
    tn = total - tp - fp - fn
    return np.stack([tn, fp, fn, tp]).T.reshape(-1, 2, 2)


def _indicator_confusion(t, labels=None, samplewise=False):
    """scikit-learn's multilabel_confusion_matrix of multilabel-indicator targets: [[tn, fp], [fn, tp]]
    per label (per sample when samplewise), int64 counts, float64 with weights."""
    present = t.classes
    selected = None
    if labels is not None:
        labels = np.asarray(labels)
        if labels.size == 0:  # no labels: numpy's empty array is float, an index needs integers
            labels = labels.astype(np.intp)
        n_labels = labels.shape[0]
        labels = np.hstack([labels, np.setdiff1d(present, labels, assume_unique=True)])
        if labels.shape != present.shape or np.any(labels != present):
            if np.max(labels) > np.max(present):
                raise ValueError("All labels must be in [0, n labels) for multilabel targets. Got %d > %d"
                                 % (np.max(labels), np.max(present)))
            if np.min(labels) < 0:
                raise ValueError("All labels must be in [0, n labels) for multilabel targets. Got %d < 0"
                                 % np.min(labels))
        selected = labels[:n_labels]
    y_true, y_pred = t.y_true, t.y_pred
    if selected is not None and samplewise:
        y_true = np.ascontiguousarray(y_true[:, selected])
        y_pred = np.ascontiguousarray(y_pred[:, selected])
    n_cases, n_columns = y_true.shape[0], (y_true.shape[1] if selected is None else len(selected))
    weighted = t.weight is not None
    tp, true_sum, pred_sum = _core.tally_indicators(y_true, y_pred, samplewise,
                                                    t.weight if weighted and not samplewise else None)
    if selected is not None and not samplewise:
        tp, true_sum, pred_sum = tp[selected], true_sum[selected], pred_sum[selected]
    if not weighted or samplewise:  # counts, as np.bincount and np.diff(indptr) give them
        tp, true_sum, pred_sum = tp.astype(np.int64), true_sum.astype(np.int64), pred_sum.astype(np.int64)
    else:
        # np.bincount of no entries at all is int64 even with weights: a matrix (of the selected
        # labels) with no 1 gives int64 zeros.
        yt = t.y_true if selected is None else t.y_true[:, selected]
        yp = t.y_pred if selected is None else t.y_pred[:, selected]
        if not yt.any():
            true_sum = true_sum.astype(np.int64)
        if not yp.any():
            pred_sum = pred_sum.astype(np.int64)
        if not np.any(yt & yp):
            tp = tp.astype(np.int64)
    if weighted and samplewise:  # count_nonzero(axis=1, sample_weight): counts times the weights
        tp, true_sum, pred_sum = tp * t.weight_raw, true_sum * t.weight_raw, pred_sum * t.weight_raw
    fp = pred_sum - tp
    fn = true_sum - tp
    if weighted and samplewise:
        tn = t.weight_raw * n_columns - tp - fp - fn
    elif weighted:
        tn = np.sum(t.weight_raw) - tp - fp - fn
    elif samplewise:
        tn = n_columns - tp - fp - fn
    else:
        tn = n_cases - tp - fp - fn
    return np.stack([tn, fp, fn, tp]).T.reshape(-1, 2, 2)


def _differing_labels(t):
    """Per sample, the number of labels where y_true and y_pred differ (int64)."""
    if t.indicator_values is not None:  # values other than 0/1: compare the values themselves
        yt, yp = t.indicator_values
        return np.count_nonzero(yt != yp, axis=1).astype(np.int64)
    tp, true_sum, pred_sum = _core.tally_indicators(t.y_true, t.y_pred, True, None)
    return (true_sum + pred_sum - 2 * tp).astype(np.int64)


def _sk_average(a, weights=None, normalize=True):
    """scikit-learn's _average on numpy arrays: np.average, or np.dot with the weights for a weighted
    sum, or the plain sum."""
    if normalize:
        return np.average(a, weights=weights)
    if weights is not None:
        return np.dot(a, weights)
    return np.sum(np.asarray(a).astype(np.float64))


# --- precision, recall, F ----------------------------------------------------------------------

def _warn_ill_defined(average, modifier, what, size):
    axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
    where = "due to" if size == 1 else f"in {axis1}s with"
    _warn(
        f"{what} ill-defined and being set to 0.0 {where} no {modifier} {axis0}s. Use `zero_division` parameter "
        "to control this behavior.",
        UndefinedMetricWarning,
    )


def _zero_division_value(zero_division):
    if isinstance(zero_division, str) and zero_division == "warn":
        return np.float64(0.0)
    if isinstance(zero_division, (int, float)) and zero_division in [0, 1]:
        return np.float64(zero_division)
    return np.nan


def _divide(numerator, denominator, metric, modifier, average, warn_for, zero_division):
    """numerator / denominator as float64, with zero_division where the denominator is 0 (and the
    UndefinedMetricWarning when zero_division is 'warn' and the metric is one to warn for)."""
    zero = denominator == 0
    denominator = np.array(denominator, dtype=np.float64)
    denominator[zero] = 1
    result = np.asarray(numerator, dtype=np.float64) / denominator
    if not np.any(zero):
        return result
    result[zero] = _zero_division_value(zero_division)
    if zero_division == "warn" and metric in warn_for:
        _warn_ill_defined(average, modifier, f"{metric.capitalize()} is", result.shape[0])
    return result


def _nan_average(a, weights=None):
    """Weighted mean ignoring NaN (scikit-learn's _nanaverage, through the same numpy calls)."""
    if a.shape[0] == 0:
        return np.nan
    nan = np.isnan(a)
    if np.all(nan):
        return np.nan
    if weights is None:
        return np.nanmean(a)
    weights = np.asarray(weights)
    a, weights = a[~nan], weights[~nan]
    try:
        return np.average(a, weights=weights)
    except ZeroDivisionError:  # every weight 0: plain mean
        return np.average(a)


def _set_wise_targets(y_true, y_pred, sample_weight, average, labels, pos_label):
    """Checked targets and the labels to score, as scikit-learn's _check_set_wise_labels (which
    checks the labels before the weights are looked at: its errors come first)."""
    if average not in _AVERAGE_CHOICES and average != "binary":
        raise ValueError("average has to be one of " + str(_AVERAGE_CHOICES))
    weight_error = None
    try:
        t = check_targets(y_true, y_pred, sample_weight)
    except (ValueError, TypeError) as e:
        if sample_weight is None:
            raise
        t = check_targets(y_true, y_pred)  # raises the label error, if that was one
        weight_error = e
    if average == "binary":
        if t.type == "binary":
            present = t.classes
            if pos_label not in present and len(present) >= 2:
                raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one of {present}")
            labels = [pos_label]
        else:
            choices = [a for a in _AVERAGE_CHOICES if not (a == "samples" and t.type == "multiclass")]
            raise ValueError(
                "Target is %s but average='binary'. Please choose another average setting, one of %r."
                % (t.type, choices)
            )
    elif pos_label not in (None, 1):
        _warn(
            "Note that pos_label (set to %r) is ignored when average != 'binary' (got %r). You may use "
            "labels=[pos_label] to specify a single positive class." % (pos_label, average),
            UserWarning,
        )
    if weight_error is not None:
        raise weight_error
    return t, labels


def _per_label_confusion(t, labels, average):
    if t.type == "multilabel-indicator":
        return _indicator_confusion(t, labels, samplewise=average == "samples")
    if average == "samples":
        raise ValueError("Samplewise metrics are not available outside of multilabel classification.")
    return _multilabel_confusion(t, labels)


def _prf(t, labels, average, beta, warn_for, zero_division):
    mcm = _per_label_confusion(t, labels, average)
    tp_sum = mcm[:, 1, 1]
    pred_sum = tp_sum + mcm[:, 0, 1]
    true_sum = tp_sum + mcm[:, 1, 0]
    if average == "micro":
        tp_sum = np.reshape(np.sum(tp_sum), (1,))
        pred_sum = np.reshape(np.sum(pred_sum), (1,))
        true_sum = np.reshape(np.sum(true_sum), (1,))
    beta2 = beta**2
    precision = _divide(tp_sum, pred_sum, "precision", "predicted", average, warn_for, zero_division)
    recall = _divide(tp_sum, true_sum, "recall", "true", average, warn_for, zero_division)
    if np.isposinf(beta):
        f_score = recall
    elif beta == 0:
        f_score = precision
    else:
        denominator = beta2 * true_sum.astype(np.float64) + pred_sum.astype(np.float64)
        f_score = _divide((1 + beta2) * tp_sum.astype(np.float64), denominator, "f-score", "true nor predicted",
                          average, warn_for, zero_division)
    if average is None:
        return precision, recall, f_score, true_sum
    weights = true_sum if average == "weighted" else t.weight_raw if average == "samples" else None
    return (float(_nan_average(precision, weights)), float(_nan_average(recall, weights)),
            float(_nan_average(f_score, weights)), None)


_PRF_WARN_FOR = ("precision", "recall", "f-score")


def precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None, pos_label=1, average=None,
                                    warn_for=_PRF_WARN_FOR, sample_weight=None, zero_division="warn"):
    """Precision, recall, F-beta and support of each label, or their average.

    Same as sklearn.metrics.precision_recall_fscore_support for binary, multiclass and
    multilabel-indicator targets (``average='samples'`` for the last). With ``average=None`` the four are
    arrays over ``labels`` (support: int64 counts, float64 with weights); otherwise three floats and
    None. ``zero_division`` ('warn', 0.0, 1.0 or np.nan) is the value of a 0/0; 'warn' also emits
    an UndefinedMetricWarning.
    """
    validate("precision_recall_fscore_support", y_true=(y_true, LABELS_IN), y_pred=(y_pred, LABELS_IN),
             beta=(beta, [Interval(Real, 0.0, None, "both")]), labels=(labels, [ARRAY, NONE]),
             pos_label=(pos_label, POS_LABEL), average=(average, AVERAGE),
             warn_for=(warn_for, [Instance(list, "list"), Instance(tuple, "tuple"), Instance(set, "set")]),
             sample_weight=(sample_weight, [ARRAY, NONE]), zero_division=(zero_division, ZERO_DIVISION))
    t, labels = _set_wise_targets(y_true, y_pred, sample_weight, average, labels, pos_label)
    return _prf(t, labels, average, beta, warn_for, zero_division)


def _scores(function, which, y_true, y_pred, beta, labels, pos_label, average, sample_weight, zero_division):
    params = dict(y_true=(y_true, LABELS_IN), y_pred=(y_pred, LABELS_IN))
    if function == "fbeta_score":
        params["beta"] = (beta, [Interval(Real, 0.0, None, "both")])
    params.update(labels=(labels, [ARRAY, NONE]), pos_label=(pos_label, POS_LABEL), average=(average, AVERAGE),
                  sample_weight=(sample_weight, [ARRAY, NONE]), zero_division=(zero_division, ZERO_DIVISION))
    validate(function, **params)
    t, labels = _set_wise_targets(y_true, y_pred, sample_weight, average, labels, pos_label)
    return _prf(t, labels, average, beta, (which,), zero_division)


def precision_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
                    zero_division="warn"):
    """Precision tp / (tp + fp): of the cases predicted as the class, the share that is.

    Same as sklearn.metrics.precision_score (binary, multiclass and multilabel-indicator targets); see
    precision_recall_fscore_support for ``average`` and ``zero_division``.
    """
    return _scores("precision_score", "precision", y_true, y_pred, 1.0, labels, pos_label, average, sample_weight,
                   zero_division)[0]


def recall_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
                 zero_division="warn"):
    """Recall tp / (tp + fn): of the cases of the class, the share predicted as it.

    Same as sklearn.metrics.recall_score (binary, multiclass and multilabel-indicator targets).
    """
    return _scores("recall_score", "recall", y_true, y_pred, 1.0, labels, pos_label, average, sample_weight,
                   zero_division)[1]


def fbeta_score(y_true, y_pred, *, beta, labels=None, pos_label=1, average="binary", sample_weight=None,
                zero_division="warn"):
    """F-beta, the weighted harmonic mean of precision and recall (recall beta times as important).

    Same as sklearn.metrics.fbeta_score (binary, multiclass and multilabel-indicator targets).
    """
    return _scores("fbeta_score", "f-score", y_true, y_pred, beta, labels, pos_label, average, sample_weight,
                   zero_division)[2]


def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
             zero_division="warn"):
    """F1, the harmonic mean of precision and recall.

    Same as sklearn.metrics.f1_score (binary, multiclass and multilabel-indicator targets).
    """
    return _scores("f1_score", "f-score", y_true, y_pred, 1, labels, pos_label, average, sample_weight,
                   zero_division)[2]


def _refuse_as_sparse(t):
    """classification_report hands scikit-learn's precision_recall_fscore_support the targets as
    sparse matrices, whose rule for a multilabel indicator is stricter than a dense array's: at most
    one non-zero value (2 and 3, or -1 and 1, make a multiclass-multioutput target there)."""
    kinds = ["multilabel-indicator" if np.unique(y[y != 0]).size <= 1 else "multiclass-multioutput"
             for y in t.indicator_values]
    if kinds[0] != kinds[1]:
        raise ValueError(f"Classification metrics can't handle a mix of {kinds[0]} and {kinds[1]} targets")
    if kinds[0] != "multilabel-indicator":
        raise ValueError(f"{kinds[0]} is not supported")


def classification_report(y_true, y_pred, *, labels=None, target_names=None, sample_weight=None, digits=2,
                          output_dict=False, zero_division="warn"):
    """Text (or, with output_dict=True, a dict) of precision, recall, F1 and support per class, with
    accuracy and the macro and weighted averages.

    Same as sklearn.metrics.classification_report, character for character (binary, multiclass and
    multilabel-indicator targets). The labels are read once; the per-class and averaged rows come from one tally.
    """
    validate("classification_report", y_true=(y_true, LABELS_IN), y_pred=(y_pred, LABELS_IN),
             labels=(labels, [ARRAY, NONE]), target_names=(target_names, [ARRAY, NONE]),
             sample_weight=(sample_weight, [ARRAY, NONE]), digits=(digits, [Interval(Integral, 0, None, "left")]),
             output_dict=(output_dict, [BOOL]), zero_division=(zero_division, ZERO_DIVISION))
    t = check_targets(y_true, y_pred, sample_weight)
    if labels is None and t.type in ("binary", "multiclass"):
        for y in (t.y_true, t.y_pred):  # scikit-learn's unique_labels of the flattened targets refuses bytes
            type_of_target(y[:1], count_classes=False)
    if labels is None:
        labels, labels_given = t.classes, False
    else:
        labels, labels_given = np.asarray(labels), True
    micro_is_accuracy = t.type in ("binary", "multiclass") and (
        not labels_given or set(labels.tolist()) >= set(t.classes.tolist()))
    if target_names is not None and len(labels) != len(target_names):
        if labels_given:
            _warn(f"labels size, {len(labels)}, does not match size of target_names, {len(target_names)}")
        else:
            raise ValueError(
                f"Number of classes, {len(labels)}, does not match size of target_names, {len(target_names)}. "
                "Try specifying the labels parameter"
            )
    if t.indicator_values is not None:
        _refuse_as_sparse(t)
    if target_names is None:
        target_names = ["%s" % v for v in labels]
    headers = ["precision", "recall", "f1-score", "support"]
    p, r, f1, s = _prf(t, labels, None, 1.0, _PRF_WARN_FOR, zero_division)
    rows = list(zip(target_names, p, r, f1, s))
    if output_dict:
        report = {}
        for name, *scores in rows:
            report[name] = dict(zip(headers, [float(x) for x in scores]))
    else:
        width = max(max(len(name) for name in target_names), len("weighted avg"), digits)
        text = ("{:>{width}s} " + " {:>9}" * len(headers)).format("", *headers, width=width) + "\n\n"
        row_format = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
        for row in rows:
            text += row_format.format(*row, width=width, digits=digits)
        text += "\n"
    averages = ("micro", "macro", "weighted") + (("samples",) if t.type == "multilabel-indicator" else ())
    for average in averages:
        heading = "accuracy" if average == "micro" and micro_is_accuracy else average + " avg"
        avg_p, avg_r, avg_f1, _ = _prf(t, labels, average, 1.0, _PRF_WARN_FOR, zero_division)
        line = [avg_p, avg_r, avg_f1, np.sum(s)]
        if output_dict:
            report[heading] = dict(zip(headers, [float(x) for x in line]))
        elif heading == "accuracy":
            accuracy_format = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
            text += accuracy_format.format(heading, "", "", *line[2:], width=width, digits=digits)
        else:
            text += row_format.format(heading, *line, width=width, digits=digits)
    if output_dict:
        if "accuracy" in report:
            report["accuracy"] = report["accuracy"]["precision"]
        return report
    return text


def jaccard_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
                  zero_division="warn"):
    """Jaccard index tp / (tp + fp + fn) of each label, or their average.

    Same as sklearn.metrics.jaccard_score (binary, multiclass and multilabel-indicator targets).
    """
    validate("jaccard_score", y_true=(y_true, LABELS_IN), y_pred=(y_pred, LABELS_IN), labels=(labels, [ARRAY, NONE]),
             pos_label=(pos_label, POS_LABEL), average=(average, AVERAGE),
             sample_weight=(sample_weight, [ARRAY, NONE]),
             zero_division=(zero_division, [RealIn({0, 1}), Str({"warn"})]))
    t, labels = _set_wise_targets(y_true, y_pred, sample_weight, average, labels, pos_label)
    mcm = _per_label_confusion(t, labels, average)
    numerator = mcm[:, 1, 1]
    denominator = mcm[:, 1, 1] + mcm[:, 0, 1] + mcm[:, 1, 0]
    if average == "micro":
        numerator = np.asarray(np.sum(numerator, keepdims=True))
        denominator = np.asarray(np.sum(denominator, keepdims=True))
    jaccard = _divide(numerator, denominator, "jaccard", "true or predicted", average, ("jaccard",), zero_division)
    if average is None:
        return jaccard
    weights = None
    if average == "weighted":
        weights = mcm[:, 1, 0] + mcm[:, 1, 1]
        if not np.any(weights):
            weights = None
    elif average == "samples" and t.weight_raw is not None:
        weights = t.weight_raw
    return float(np.average(jaccard, weights=weights))


# --- read off the confusion matrix -------------------------------------------------------------

def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    """Confusion matrix C with C[i, j] the (weighted) number of cases of class i predicted as j.

    Same as sklearn.metrics.confusion_matrix: int64 counts without weights (or with integer
    weights), float64 with real weights; ``normalize`` in {'true', 'pred', 'all', None}.
    """
    validate("confusion_matrix", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]), labels=(labels, [ARRAY, NONE]),
             sample_weight=(sample_weight, [ARRAY, NONE]),
             normalize=(normalize, [Str({"true", "pred", "all"}), NONE]))
    t = _targets_as_confusion_matrix_sees_them(y_true, y_pred, sample_weight)
    return _confusion(t, labels, normalize)


def multilabel_confusion_matrix(y_true, y_pred, *, sample_weight=None, labels=None, samplewise=False):
    """One-vs-rest 2 x 2 confusion matrices [[tn, fp], [fn, tp]], one per label.

    Same as sklearn.metrics.multilabel_confusion_matrix for binary, multiclass and
    multilabel-indicator targets (``samplewise=True``: one matrix per sample, multilabel only).
    """
    validate("multilabel_confusion_matrix", y_true=(y_true, LABELS_IN), y_pred=(y_pred, LABELS_IN),
             sample_weight=(sample_weight, [ARRAY, NONE]), labels=(labels, [ARRAY, NONE]),
             samplewise=(samplewise, [BOOL]))
    t = check_targets(y_true, y_pred, sample_weight)
    if t.type == "multilabel-indicator":
        return _indicator_confusion(t, labels, samplewise)
    if samplewise:
        raise ValueError("Samplewise metrics are not available outside of multilabel classification.")
    return _multilabel_confusion(t, labels)


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Fraction (or, with normalize=False, the weighted number) of exactly right predictions.

    Same as sklearn.metrics.accuracy_score; on multilabel-indicator targets the subset accuracy.
    """
    validate("accuracy_score", y_true=(y_true, LABELS_IN), y_pred=(y_pred, LABELS_IN), normalize=(normalize, [BOOL]),
             sample_weight=(sample_weight, [ARRAY, NONE]))
    t = check_targets(y_true, y_pred, sample_weight)
    if t.type == "multilabel-indicator":  # subset accuracy: every label of the sample right
        return float(_sk_average(_differing_labels(t) == 0, weights=t.weight_raw, normalize=normalize))
    if t.weight is not None:
        # numpy's own weighted mean over the cases, so that the rounding is scikit-learn's.
        right = t.y_true == t.y_pred
        return float(np.average(right, weights=t.weight_raw) if normalize else np.dot(right, t.weight_raw))
    right = float(np.trace(t.tally()[0]))  # an exact count
    return right / t.y_true.shape[0] if normalize else right


def zero_one_loss(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Fraction (or weighted number) of wrong predictions: 1 - accuracy.

    Same as sklearn.metrics.zero_one_loss (binary, multiclass and multilabel-indicator targets).
    """
    validate("zero_one_loss", y_true=(y_true, LABELS_IN), y_pred=(y_pred, LABELS_IN), normalize=(normalize, [BOOL]),
             sample_weight=(sample_weight, [ARRAY, NONE]))
    score = accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=sample_weight)
    if normalize:
        return 1 - score
    n = np.sum(sample_weight) if sample_weight is not None else num_samples(as_array(densify(y_true)))
    return n - score


def hamming_loss(y_true, y_pred, *, sample_weight=None):
    """Fraction of wrong labels (for 1-D targets, the zero-one loss).

    Same as sklearn.metrics.hamming_loss (binary, multiclass and multilabel-indicator targets).
    """
    validate("hamming_loss", y_true=(y_true, LABELS_IN), y_pred=(y_pred, LABELS_IN),
             sample_weight=(sample_weight, [ARRAY, NONE]))
    t = check_targets(y_true, y_pred, sample_weight)
    if t.type == "multilabel-indicator":
        weight_average = 1.0 if t.weight is None else _sk_average(t.weight_raw)
        differing = _differing_labels(t)
        n_differences = int(np.sum(differing)) if t.weight is None else np.dot(differing, t.weight_raw)
        return float(n_differences) / (t.y_true.shape[0] * t.y_true.shape[1] * weight_average)
    if t.weight is not None:
        np.average(t.weight_raw)  # unused, but scikit-learn computes it (and warns if it overflows)
        return float(np.average(t.y_true != t.y_pred, weights=t.weight_raw))
    n = t.y_true.shape[0]
    return float(np.float64(n - np.trace(t.tally()[0])) / n)


def balanced_accuracy_score(y_true, y_pred, *, sample_weight=None, adjusted=False):
    """Mean recall over the classes present in y_true; ``adjusted`` rescales chance to 0.

    Same as sklearn.metrics.balanced_accuracy_score, warnings included.
    """
    validate("balanced_accuracy_score", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]), adjusted=(adjusted, [BOOL]))
    cm = _confusion(_targets_as_confusion_matrix_sees_them(y_true, y_pred, sample_weight))
    with np.errstate(divide="ignore", invalid="ignore"):
        per_class = np.diagonal(cm) / np.sum(cm, axis=1)
    if np.any(np.isnan(per_class)):
        _warn("y_pred contains classes not in y_true")
        per_class = per_class[~np.isnan(per_class)]
    score = np.mean(per_class)
    if adjusted:
        chance = 1 / per_class.shape[0]
        score -= chance
        score /= 1 - chance
    return float(score)


def matthews_corrcoef(y_true, y_pred, *, sample_weight=None):
    """Matthews correlation coefficient (multiclass: Gorodkin's R_K); 0.0 where it is undefined.

    Same as sklearn.metrics.matthews_corrcoef.
    """
    validate("matthews_corrcoef", y_true=(y_true, [ARRAY]), y_pred=(y_pred, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]))
    cm = _confusion(check_targets(y_true, y_pred, sample_weight))
    t_sum = cm.sum(axis=1, dtype=np.float64)
    p_sum = cm.sum(axis=0, dtype=np.float64)
    n_correct = np.trace(cm, dtype=np.float64)
    n = p_sum.sum()
    cov_tp = n_correct * n - np.dot(t_sum, p_sum)
    cov_pp = n**2 - np.dot(p_sum, p_sum)
    cov_tt = n**2 - np.dot(t_sum, t_sum)
    product = cov_pp * cov_tt
    if product == 0:
        return 0.0
    return float(cov_tp / np.sqrt(product))


def cohen_kappa_score(y1, y2, *, labels=None, weights=None, sample_weight=None, replace_undefined_by=np.nan):
    """Cohen's kappa, agreement beyond chance of two raters; ``weights`` None, 'linear' or
    'quadratic' for ordinal classes.

    Same as sklearn.metrics.cohen_kappa_score (``replace_undefined_by`` where it is 0/0, with an
    UndefinedMetricWarning).
    """
    validate("cohen_kappa_score", y1=(y1, [ARRAY]), y2=(y2, [ARRAY]), labels=(labels, [ARRAY, NONE]),
             weights=(weights, [Str({"linear", "quadratic"}), NONE]), sample_weight=(sample_weight, [ARRAY, NONE]),
             replace_undefined_by=(replace_undefined_by, [Interval(Real, -1.0, 1.0, "both"), NAN]))
    try:
        cm = _confusion(_targets_as_confusion_matrix_sees_them(y1, y2, sample_weight), labels)
    except ValueError as e:
        if "At least one label specified must be in y_true" in str(e):
            raise ValueError(
                "At least one label in `labels` must be present in `y1` (even though `cohen_kappa_score` is "
                "otherwise agnostic to the order of `y1` and `y2`)."
            ) from e
        raise
    k = cm.shape[0]
    cm = cm.astype(np.float64, copy=False)
    sum0 = np.sum(cm, axis=0)
    sum1 = np.sum(cm, axis=1)
    chance_counts = np.outer(sum0, sum1)  # before the total: the same overflow warnings in the same order
    total = np.sum(sum0)
    if total == 0:
        _warn(
            "`y2` contains no labels that are present in both `y1` and `labels`.`cohen_kappa_score` is undefined "
            "and set to the value defined by the `replace_undefined_by` param, which is set to "
            f"{replace_undefined_by}.",
            UndefinedMetricWarning,
        )
        return replace_undefined_by
    expected = chance_counts / total
    if weights is None:
        w = np.ones([k, k], dtype=np.float64)
        np.fill_diagonal(w, 0)
    else:
        w = np.zeros([k, k], dtype=np.float64)
        w += np.arange(k)
        w = np.abs(w - w.T) if weights == "linear" else (w - w.T) ** 2
    observed_disagreement = np.sum(w * cm)
    expected_disagreement = np.sum(w * expected)
    if expected_disagreement == 0:
        _warn(
            "`y1`, `y2` and `labels` have only one label in common. `cohen_kappa_score` is undefined and set to "
            "the value defined by the the `replace_undefined_by` param, which is set to "
            f"{replace_undefined_by}.",
            UndefinedMetricWarning,
        )
        return replace_undefined_by
    return float(1 - observed_disagreement / expected_disagreement)


def class_likelihood_ratios(y_true, y_pred, *, labels=None, sample_weight=None, replace_undefined_by=np.nan):
    """Positive and negative likelihood ratios (LR+, LR-) of a binary problem.

    Same as sklearn.metrics.class_likelihood_ratios, warnings included.
    """
    validate("class_likelihood_ratios", y_true=(y_true, LABELS_IN), y_pred=(y_pred, LABELS_IN),
             labels=(labels, [ARRAY, NONE]), sample_weight=(sample_weight, [ARRAY, NONE]),
             replace_undefined_by=(replace_undefined_by, [RealIn({1.0, np.nan}), Instance(dict, "dict")]))
    t = check_targets(y_true, y_pred, sample_weight)
    if t.type != "binary":
        raise ValueError(
            f"class_likelihood_ratios only supports binary classification problems, got targets of type: {t.type}"
        )
    lr_pos = lr_neg = None
    if replace_undefined_by == 1.0:
        replace_undefined_by = {"LR+": 1.0, "LR-": 1.0}
    if isinstance(replace_undefined_by, dict):
        message = (
            "The dictionary passed as `replace_undefined_by` needs to be in the form `{'LR+': `value_1`, 'LR-': "
            "`value_2`}` where the value for `LR+` ranges from `1.0` to `np.inf` or is `np.nan` and the value for "
            f"`LR-` ranges from `0.0` to `1.0` or is `np.nan`; got `{replace_undefined_by}`."
        )
        lr_pos, lr_neg = replace_undefined_by.get("LR+"), replace_undefined_by.get("LR-")
        if not ("LR+" in replace_undefined_by and "LR-" in replace_undefined_by
                and isinstance(lr_pos, Real) and not lr_pos < 1.0
                and isinstance(lr_neg, Real) and not lr_neg < 0.0 and not lr_neg > 1.0):
            raise ValueError(message)
    undefined_is_nan = isinstance(replace_undefined_by, float) and np.isnan(replace_undefined_by)
    tn, fp, fn, tp = _confusion(t, labels).ravel()
    support_pos = tp + fn
    support_neg = tn + fp
    advice = ("Use the `replace_undefined_by` param to control this behavior. To suppress this warning or turn it "
              "into an error, see Python's `warnings` module and `warnings.catch_warnings()`.")
    if support_pos == 0:
        _warn(
            "No samples of the positive class are present in `y_true`. `positive_likelihood_ratio` and "
            "`negative_likelihood_ratio` are both set to `np.nan`. " + advice,
            UndefinedMetricWarning,
        )
    if fp == 0:
        start = ("No samples were predicted for the positive class and `positive_likelihood_ratio` is " if tp == 0
                 else "`positive_likelihood_ratio` is ill-defined and ")
        # scikit-learn's message stops here (the rest of its sentence is not part of the string).
        _warn(start + "set to `np.nan`. Use the `replace_undefined_by` param to ", UndefinedMetricWarning)
        lr_plus = replace_undefined_by if undefined_is_nan else lr_pos
    else:
        lr_plus = tp * support_neg / (fp * support_pos)
    if tn == 0:
        _warn("`negative_likelihood_ratio` is ill-defined and set to `np.nan`. " + advice, UndefinedMetricWarning)
        lr_minus = replace_undefined_by if undefined_is_nan else lr_neg
    else:
        lr_minus = fn * support_neg / (tn * support_pos)
    return float(lr_plus), float(lr_minus)
