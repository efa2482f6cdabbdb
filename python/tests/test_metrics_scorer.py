"""assay.metrics' scorer API: scikit-learn's scorer objects calling assay's metric functions, the
same names, the same numbers as scikit-learn's scorers, accepted by cross_val_score and GridSearchCV."""

import functools

import numpy as np
import pytest
from sklearn import metrics as sk
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LinearRegression, LogisticRegression, PoissonRegressor
from sklearn.model_selection import GridSearchCV, cross_val_score, cross_validate

from assay import metrics as am
from parity import assert_same_value

# scorers whose metric function scikit-learn defines in its scorer module (assay has no such name)
SKLEARN_FUNCTIONS = {"positive_likelihood_ratio", "neg_negative_likelihood_ratio"}


def test_names():
    assert am.get_scorer_names() == sk.get_scorer_names()


@pytest.mark.parametrize("name", sk.get_scorer_names())
def test_scorer_calls_assay(name):
    ours, theirs = am.get_scorer(name), sk.get_scorer(name)
    assert type(ours) is type(theirs)
    assert repr(ours) == repr(theirs)
    if name in SKLEARN_FUNCTIONS:
        assert ours._score_func is theirs._score_func
    else:
        assert ours._score_func is getattr(am, theirs._score_func.__name__)
        assert ours._score_func.__module__.startswith("assay.")


@functools.lru_cache(maxsize=1)
def _problems():
    X, y = make_classification(n_samples=300, n_features=6, n_informative=4, random_state=0)
    binary = LogisticRegression(max_iter=500).fit(X, y)
    Xm, ym = make_classification(n_samples=300, n_features=6, n_informative=4, n_classes=3, random_state=1)
    multi = LogisticRegression(max_iter=500).fit(Xm, ym)
    Xr, yr = make_regression(n_samples=200, n_features=4, noise=5, random_state=2)
    yr = np.abs(yr) + 1
    regressor = PoissonRegressor(max_iter=500).fit(Xr, yr)
    return (binary, X, y), (multi, Xm, ym), (regressor, Xr, yr)


@pytest.mark.parametrize("name", sk.get_scorer_names())
def test_same_numbers(name):
    """Each scorer on a fitted estimator of each kind: assay's scorer gives scikit-learn's number
    (or the same exception)."""
    for estimator, X, y in _problems():
        outcomes = []
        for scorer in (am.get_scorer(name), sk.get_scorer(name)):
            try:
                outcomes.append(("value", scorer(estimator, X, y)))
            except Exception as e:  # noqa: BLE001
                outcomes.append(("raised", type(e), str(e)))
        assert outcomes[0][0] == outcomes[1][0], (name, outcomes)
        if outcomes[1][0] == "value":
            assert_same_value(outcomes[0][1], outcomes[1][1])
        else:
            assert outcomes[0][1:] == outcomes[1][1:]


def test_model_selection_accepts_them():
    X, y = make_classification(n_samples=200, n_features=5, random_state=3)
    estimator = LogisticRegression(max_iter=500)
    for scoring in ("roc_auc", am.get_scorer("f1_macro"), am.make_scorer(am.fbeta_score, beta=2)):
        ours = cross_val_score(estimator, X, y, cv=3, scoring=scoring)
        theirs = cross_val_score(estimator, X, y, cv=3,
                                 scoring=scoring if not isinstance(scoring, str) else sk.get_scorer(scoring))
        np.testing.assert_array_equal(ours, theirs)
    multi = cross_validate(estimator, X, y, cv=3, scoring=am.check_scoring(estimator, ["accuracy", "roc_auc"]))
    assert set(multi) >= {"test_accuracy", "test_roc_auc"}
    grid = GridSearchCV(estimator, {"C": [0.1, 1.0]}, cv=3, scoring=am.get_scorer("neg_log_loss")).fit(X, y)
    assert np.isfinite(grid.best_score_)


def test_check_scoring():
    estimator = LinearRegression()
    scorer = am.check_scoring(estimator, "r2")
    assert scorer._score_func is am.r2_score
    multi = am.check_scoring(estimator, {"a": "r2", "b": am.make_scorer(am.max_error)})
    assert multi._scorers["a"]._score_func is am.r2_score
    multi = am.check_scoring(estimator, ("r2", "neg_mean_poisson_deviance"))
    assert multi._scorers["neg_mean_poisson_deviance"]._score_func is am.mean_poisson_deviance
    assert repr(am.check_scoring(estimator)) == repr(sk.check_scoring(estimator))
    for bad in (am.r2_score, sk.r2_score):
        with pytest.raises(ValueError, match="looks like it is a metric function rather than a scorer"):
            am.check_scoring(estimator, bad)
    with pytest.raises(ValueError, match="looks like it is a metric function rather than a scorer"):
        am.check_scoring(estimator, {"a": am.r2_score})
    for bad in ("nope", 3, ["r2", "r2"], []):
        with pytest.raises(Exception) as ours:
            am.check_scoring(estimator, bad)
        with pytest.raises(Exception) as theirs:
            sk.check_scoring(estimator, bad)
        assert type(ours.value) is type(theirs.value) and str(ours.value) == str(theirs.value)
    with pytest.raises(ValueError, match="'nope' is not a valid scoring value"):
        am.get_scorer("nope")
    assert am.get_scorer(None) is None
