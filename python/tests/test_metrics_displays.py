"""assay.metrics' displays: scikit-learn's displays computing with assay's functions; the same
numbers in the same attributes as scikit-learn's displays, the same plots' data."""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from sklearn import metrics as sk  # noqa: E402
from sklearn.datasets import make_classification, make_regression  # noqa: E402
from sklearn.linear_model import LinearRegression, LogisticRegression  # noqa: E402
from sklearn.model_selection import cross_validate  # noqa: E402

from assay import metrics as am  # noqa: E402
from parity import assert_same_value  # noqa: E402


def _same(ours, theirs, fields):
    import matplotlib.pyplot as plt

    assert isinstance(ours, type(theirs)) and type(ours).__module__ == "assay.metrics"
    for field in fields:
        a, b = getattr(ours, field), getattr(theirs, field)
        if isinstance(b, list):
            assert len(a) == len(b)
            for x, y in zip(a, b):
                assert_same_value(x, y)
        else:
            assert_same_value(a, b)
    plt.close("all")


def _data(rng, n=200, weighted=False):
    y = rng.integers(0, 2, n)
    score = np.round(y * 0.3 + rng.random(n), 2)
    return y, score, (rng.random(n) if weighted else None)


@pytest.mark.parametrize("weighted", [False, True])
def test_curves_from_predictions(rng, weighted):
    y, score, w = _data(rng, weighted=weighted)
    labels = np.array(["no", "yes"])[y]
    for args, kwargs in (((y, score), {}), ((labels, score), {"pos_label": "yes"}),
                         ((y, score), {"drop_intermediate": False})):
        kwargs = {"sample_weight": w, **kwargs}
        _same(am.RocCurveDisplay.from_predictions(*args, **kwargs),
              sk.RocCurveDisplay.from_predictions(*args, **kwargs), ["fpr", "tpr", "roc_auc", "pos_label", "name"])
        _same(am.PrecisionRecallDisplay.from_predictions(*args, **kwargs),
              sk.PrecisionRecallDisplay.from_predictions(*args, **kwargs),
              ["precision", "recall", "average_precision", "prevalence_pos_label", "pos_label"])
        _same(am.DetCurveDisplay.from_predictions(*args, **kwargs),
              sk.DetCurveDisplay.from_predictions(*args, **kwargs), ["fpr", "fnr", "pos_label"])


def test_from_estimator_and_cv_results():
    X, y = make_classification(n_samples=150, n_features=5, random_state=0)
    clf = LogisticRegression(max_iter=500).fit(X, y)
    _same(am.RocCurveDisplay.from_estimator(clf, X, y), sk.RocCurveDisplay.from_estimator(clf, X, y),
          ["fpr", "tpr", "roc_auc"])
    _same(am.PrecisionRecallDisplay.from_estimator(clf, X, y), sk.PrecisionRecallDisplay.from_estimator(clf, X, y),
          ["precision", "recall", "average_precision"])
    _same(am.DetCurveDisplay.from_estimator(clf, X, y), sk.DetCurveDisplay.from_estimator(clf, X, y),
          ["fpr", "fnr"])
    _same(am.ConfusionMatrixDisplay.from_estimator(clf, X, y, normalize="true"),
          sk.ConfusionMatrixDisplay.from_estimator(clf, X, y, normalize="true"), ["confusion_matrix"])
    cv = cross_validate(LogisticRegression(max_iter=500), X, y, cv=3, return_estimator=True, return_indices=True)
    _same(am.RocCurveDisplay.from_cv_results(cv, X, y), sk.RocCurveDisplay.from_cv_results(cv, X, y),
          ["fpr", "tpr", "roc_auc"])
    _same(am.PrecisionRecallDisplay.from_cv_results(cv, X, y), sk.PrecisionRecallDisplay.from_cv_results(cv, X, y),
          ["precision", "recall", "average_precision", "prevalence_pos_label"])


def test_confusion_matrix_and_prediction_error(rng):
    y = rng.choice(["a", "b", "c"], 100)
    p = rng.choice(["a", "b", "c"], 100)
    for kwargs in ({}, {"normalize": "all"}, {"labels": ["c", "a"]}, {"sample_weight": rng.random(100)}):
        _same(am.ConfusionMatrixDisplay.from_predictions(y, p, **kwargs),
              sk.ConfusionMatrixDisplay.from_predictions(y, p, **kwargs), ["confusion_matrix", "display_labels"])
    X, t = make_regression(n_samples=80, n_features=3, random_state=0)
    reg = LinearRegression().fit(X, t)
    _same(am.PredictionErrorDisplay.from_estimator(reg, X, t), sk.PredictionErrorDisplay.from_estimator(reg, X, t),
          ["y_true", "y_pred"])


def test_errors_as_scikit_learn():
    for display in ("RocCurveDisplay", "PrecisionRecallDisplay", "DetCurveDisplay"):
        for args, kwargs in (((["a", "b"], [0.1, 0.2]), {}), (([0, 1, 2], [0.1, 0.2, 0.3]), {})):
            with pytest.raises(Exception) as ours:
                getattr(am, display).from_predictions(*args, **kwargs)
            with pytest.raises(Exception) as theirs:
                getattr(sk, display).from_predictions(*args, **kwargs)
            assert type(ours.value) is type(theirs.value) and str(ours.value) == str(theirs.value)
