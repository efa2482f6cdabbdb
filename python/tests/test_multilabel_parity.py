"""Multilabel-indicator targets in assay.metrics against the installed scikit-learn: random 0/1
indicator matrices (with all-zero rows and columns, a column never predicted, a column never true),
with and without weights, every average, every zero_division; values bit for bit with their dtypes,
the same warnings, the same exceptions (parity.check)."""

import numpy as np
import pytest
from parity import check

AVERAGES = [None, "micro", "macro", "weighted", "samples"]
ZERO_DIVISIONS = ["warn", 0.0, 1.0, np.nan]


def indicator_pairs(rng):
    """(y_true, y_pred) pairs of n x L 0/1 matrices, awkward ones included."""
    for n, k, p in ((1, 2, 0.5), (7, 3, 0.4), (40, 5, 0.3), (200, 4, 0.5), (64, 6, 0.1)):
        y_true = (rng.random((n, k)) < p).astype(np.int64)
        y_pred = np.where(rng.random((n, k)) < 0.7, y_true, (rng.random((n, k)) < p).astype(np.int64))
        if n > 3:
            y_true[1, :] = 0  # a sample with no label
            y_pred[2, :] = 0  # a sample predicted with none
            y_true[:, 0] = 0  # a label that never applies
            y_pred[:, -1] = 0  # a label never predicted
        yield y_true, y_pred
    # Other dtypes of the same values.
    y_true = (rng.random((30, 3)) < 0.5)
    y_pred = (rng.random((30, 3)) < 0.5)
    yield y_true, y_pred
    yield y_true.astype(np.float64), y_pred.astype(np.float64)
    yield np.zeros((5, 3), dtype=np.int64), np.zeros((5, 3), dtype=np.int64)
    yield np.ones((5, 2), dtype=np.int64), np.zeros((5, 2), dtype=np.int64)


def weights_for(rng, n):
    return [None, rng.random(n), rng.integers(1, 4, n), np.where(rng.random(n) < 0.3, 0.0, rng.random(n) * 2)]


def test_multilabel_confusion_matrix(rng):
    for y_true, y_pred in indicator_pairs(rng):
        n, k = y_true.shape
        for w in weights_for(rng, n):
            if w is not None and not np.any(w):
                continue
            for samplewise in (False, True):
                check("multilabel_confusion_matrix", y_true, y_pred, sample_weight=w, samplewise=samplewise)
                check("multilabel_confusion_matrix", y_true, y_pred, sample_weight=w, samplewise=samplewise,
                      labels=list(range(k))[::-1])
                check("multilabel_confusion_matrix", y_true, y_pred, sample_weight=w, samplewise=samplewise,
                      labels=[k - 1, 0])
            check("multilabel_confusion_matrix", y_true, y_pred, sample_weight=w, labels=[0, k])  # out of range
            check("multilabel_confusion_matrix", y_true, y_pred, sample_weight=w, labels=[-1, 0])


@pytest.mark.parametrize("average", AVERAGES)
def test_precision_recall_f(rng, average):
    for y_true, y_pred in indicator_pairs(rng):
        n, k = y_true.shape
        for w in weights_for(rng, n)[:3]:
            for zd in ZERO_DIVISIONS:
                check("precision_recall_fscore_support", y_true, y_pred, average=average, sample_weight=w,
                      zero_division=zd)
                check("precision_recall_fscore_support", y_true, y_pred, average=average, sample_weight=w,
                      zero_division=zd, beta=0.5, labels=[k - 1, 0])
            for name in ("precision_score", "recall_score", "f1_score"):
                check(name, y_true, y_pred, average=average, sample_weight=w)
            check("fbeta_score", y_true, y_pred, beta=2.0, average=average, sample_weight=w, zero_division=1.0)
            check("jaccard_score", y_true, y_pred, average=average, sample_weight=w)
            check("jaccard_score", y_true, y_pred, average=average, sample_weight=w, zero_division=1)


def test_binary_average_is_refused(rng):
    y_true, y_pred = next(indicator_pairs(rng))
    for name in ("precision_score", "f1_score", "jaccard_score"):
        check(name, y_true, y_pred)  # average='binary': scikit-learn's ValueError


def test_accuracy_hamming_zero_one(rng):
    for y_true, y_pred in indicator_pairs(rng):
        n = y_true.shape[0]
        for w in weights_for(rng, n):
            for normalize in (True, False):
                check("accuracy_score", y_true, y_pred, normalize=normalize, sample_weight=w)
                check("zero_one_loss", y_true, y_pred, normalize=normalize, sample_weight=w)
            check("hamming_loss", y_true, y_pred, sample_weight=w)


def test_classification_report(rng):
    for y_true, y_pred in indicator_pairs(rng):
        n, k = y_true.shape
        for w in weights_for(rng, n)[:2]:
            for zd in ZERO_DIVISIONS:
                check("classification_report", y_true, y_pred, sample_weight=w, zero_division=zd)
                check("classification_report", y_true, y_pred, sample_weight=w, zero_division=zd, output_dict=True)
            names = [f"label {j}" for j in range(k)]
            check("classification_report", y_true, y_pred, target_names=names, digits=4)
            check("classification_report", y_true, y_pred, labels=[k - 1], output_dict=True)


def test_bad_multilabel_input(rng):
    y = (rng.random((10, 3)) < 0.5).astype(np.int64)
    check("accuracy_score", y, y[:, :2])  # different numbers of labels
    check("f1_score", y, y[:, 0], average="macro")  # a mix of multilabel and binary
    check("hamming_loss", y, y[:5])  # lengths differ
    check("precision_score", y, y, average="samples", sample_weight=np.ones(9))
    for name in ("confusion_matrix", "matthews_corrcoef", "balanced_accuracy_score", "cohen_kappa_score",
                 "class_likelihood_ratios"):
        check(name, y, y)
