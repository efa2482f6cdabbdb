"""assay.metrics against the installed scikit-learn: equal values, equal dtypes, equal exceptions."""

import numpy as np
import pytest
from sklearn import metrics as sk

from assay import metrics as am


def label_cases(rng):
    n = 200
    yield rng.integers(0, 2, n), rng.integers(0, 2, n)
    yield rng.integers(0, 4, n), rng.integers(0, 4, n)
    yield rng.integers(-1, 2, n) * 2, rng.integers(-1, 2, n) * 2
    yield rng.integers(0, 3, n).astype(float), rng.integers(0, 3, n).astype(np.int32)
    yield np.array(["no", "yes"])[rng.integers(0, 2, n)], np.array(["no", "yes"])[rng.integers(0, 2, n)]
    yield np.array(["a", "b", "c"])[rng.integers(0, 3, n)], np.array(["a", "b", "d"])[rng.integers(0, 3, n)]
    yield rng.integers(0, 3, n).astype(bool), rng.integers(0, 2, n).astype(bool)
    yield list(rng.integers(0, 3, 20)), list(rng.integers(0, 3, 20))
    yield rng.integers(10**9, 10**9 + 3, n), rng.integers(10**9, 10**9 + 3, n)


def assert_same(a, b):
    assert type(a) is type(b)
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype
        assert a.shape == b.shape
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b or (np.isnan(a) and np.isnan(b))


@pytest.mark.parametrize("weighted", [False, True])
def test_confusion_matrix_and_accuracy(rng, weighted):
    for y_true, y_pred in label_cases(rng):
        w = rng.random(len(y_true)) if weighted else None
        assert_same(am.confusion_matrix(y_true, y_pred, sample_weight=w),
                    sk.confusion_matrix(y_true, y_pred, sample_weight=w))
        for normalize in ("true", "pred", "all"):
            assert_same(am.confusion_matrix(y_true, y_pred, sample_weight=w, normalize=normalize),
                        sk.confusion_matrix(y_true, y_pred, sample_weight=w, normalize=normalize))
        for normalize in (True, False):
            assert_same(am.accuracy_score(y_true, y_pred, sample_weight=w, normalize=normalize),
                        sk.accuracy_score(y_true, y_pred, sample_weight=w, normalize=normalize))


def test_confusion_matrix_labels(rng):
    y_true, y_pred = rng.integers(0, 4, 100), rng.integers(0, 4, 100)
    for labels in ([3, 1], [0, 1, 2, 3, 7], [2]):
        assert_same(am.confusion_matrix(y_true, y_pred, labels=labels),
                    sk.confusion_matrix(y_true, y_pred, labels=labels))


@pytest.mark.parametrize("args", [
    ([0, 1], [0, 1, 1]),
    ([0, 1, 2], [0.5, 1.5, 2]),
    ([], []),
    (["a", "b"], [0, 1]),
])
def test_same_exceptions(args):
    with pytest.raises(ValueError) as theirs:
        sk.accuracy_score(*args)
    with pytest.raises(ValueError) as ours:
        am.accuracy_score(*args)
    assert str(ours.value) == str(theirs.value)
