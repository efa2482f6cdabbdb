"""assay.metrics: the classification metrics of labels (everything read off a confusion matrix)."""

from __future__ import annotations

import numpy as np

from assay import _core
from assay._targets import check_targets

__all__ = ["accuracy_score", "confusion_matrix"]


def _counts(t):
    """The K x K confusion matrix of checked targets over all their classes (float64)."""
    return _core.confusion_matrix(t.true_codes, t.pred_codes, t.classes.shape[0], t.weight)


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Fraction (or, with normalize=False, the weighted number) of exactly right predictions.

    Same as sklearn.metrics.accuracy_score.
    """
    t = check_targets(y_true, y_pred, sample_weight)
    if t.weight is not None:
        # numpy's own weighted mean, so that the rounding is scikit-learn's.
        right = t.true_codes == t.pred_codes
        return float(np.average(right, weights=t.weight) if normalize else np.dot(right, t.weight))
    cm = _counts(t)
    right = float(np.trace(cm))
    return right / t.true_codes.shape[0] if normalize else right


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    """Confusion matrix C with C[i, j] the (weighted) number of cases of class i predicted as j.

    Same as sklearn.metrics.confusion_matrix: int64 counts without weights (or with integer
    weights), float64 with real weights; ``normalize`` in {'true', 'pred', 'all', None}.
    """
    if normalize not in ("true", "pred", "all", None):
        raise ValueError(
            "The 'normalize' parameter of confusion_matrix must be a str among {'true', 'pred', 'all'} or "
            f"None. Got {normalize!r} instead."
        )
    t = check_targets(y_true, y_pred, sample_weight)
    integer_weights = sample_weight is None or np.asarray(sample_weight).dtype.kind in "iub"
    cm = _counts(t)
    if labels is not None:
        labels = np.asarray(labels)
        if labels.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        if len(np.intersect1d(t.y_true, labels)) == 0:
            raise ValueError("At least one label specified must be in y_true")
        index = {c: i for i, c in enumerate(t.classes.tolist())}
        pick = [index.get(c) for c in labels.tolist()]
        full = np.zeros((len(pick), len(pick)))
        for a, i in enumerate(pick):
            for b, j in enumerate(pick):
                if i is not None and j is not None:
                    full[a, b] = cm[i, j]
        cm = full
    if integer_weights:
        cm = cm.astype(np.int64)
    if normalize is None:
        return cm
    with np.errstate(all="ignore"):
        if normalize == "true":
            cm = cm / cm.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            cm = cm / cm.sum(axis=0, keepdims=True)
        else:
            cm = cm / cm.sum()
    return np.nan_to_num(cm)
