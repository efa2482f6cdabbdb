"""assay.metrics' regression and probability metrics against the installed scikit-learn: equal
values to the bit, equal dtypes, equal warnings and exceptions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parity import check

REGRESSION = [
    "mean_absolute_error", "mean_squared_error", "root_mean_squared_error", "mean_squared_log_error",
    "root_mean_squared_log_error", "median_absolute_error", "mean_absolute_percentage_error", "r2_score",
    "explained_variance_score",
]


def regression_cases(rng):
    for n in (1, 2, 5, 64, 129, 1000, 10007):
        t = rng.standard_normal(n) * 3 + 5
        yield t, t + rng.standard_normal(n)
        yield np.round(t, 1), np.round(t + rng.standard_normal(n), 1)
        yield t.astype(np.float32), (t + 1).astype(np.float32)
        yield np.abs(rng.integers(0, 10, n)), np.abs(rng.integers(0, 10, n))
        yield list(t), list(t)
        for k in (2, 3):
            tt = rng.standard_normal((n, k)) + 2
            yield tt, tt + rng.standard_normal((n, k)) * rng.random(k)
        yield np.full(n, 2.0), np.full(n, 2.0)
        yield np.full(n, 2.0), t


@pytest.mark.parametrize("name", REGRESSION)
@pytest.mark.parametrize("weighted", [False, True])
def test_regression(rng, name, weighted):
    for t, p in regression_cases(rng):
        n = len(t)
        w = rng.random(n) if weighted else None
        multioutputs = ["uniform_average", "raw_values"]
        if name in ("r2_score", "explained_variance_score"):
            multioutputs.append("variance_weighted")
        if np.ndim(t) == 2:
            multioutputs.append(rng.random(np.shape(t)[1]))
        for multioutput in multioutputs:
            kwargs = {"sample_weight": w, "multioutput": multioutput}
            if name in ("r2_score", "explained_variance_score"):
                for force_finite in (True, False):
                    check(name, t, p, force_finite=force_finite, **kwargs)
            else:
                check(name, t, p, **kwargs)
        if weighted and name == "median_absolute_error":
            check(name, t, p, sample_weight=rng.integers(0, 3, n).astype(float) + (np.arange(n) == 0))


def test_max_error(rng):
    for t, p in regression_cases(rng):
        check("max_error", t, p)


@pytest.mark.parametrize("name", REGRESSION + ["max_error"])
@pytest.mark.parametrize("args", [
    ([], []),
    ([1.0, 2.0], [1.0]),
    ([1.0, np.nan], [1.0, 2.0]),
    ([1.0, 2.0], [1.0, np.inf]),
    ([[1.0, 2.0]], [[1.0]]),
    ([-2.0, 3.0], [1.0, 2.0]),
    ([3.0], [2.0]),
    ([0.0, 0.0, 1.0], [0.1, 0.0, 1.0]),
])
def test_regression_edge_cases(name, args):
    check(name, *args)


def test_regression_weight_errors():
    for name in REGRESSION:
        check(name, [1.0, 2.0, 3.0], [1.0, 2.0, 2.5], sample_weight=[0.0, 0.0, 0.0])
        check(name, [1.0, 2.0, 3.0], [1.0, 2.0, 2.5], sample_weight=[1.0, 2.0])
        check(name, [1.0, 2.0, 3.0], [1.0, 2.0, 2.5], sample_weight=[1.0, np.nan, 2.0])
        check(name, [[1.0, 2.0]] * 3, [[1.0, 2.5]] * 3, multioutput=[1.0])


small = st.lists(st.floats(-5, 5, allow_nan=False).map(lambda v: round(v, 1)), min_size=0, max_size=8)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_property_regression(data):
    t = data.draw(small)
    p = data.draw(st.lists(st.floats(-5, 5).map(lambda v: round(v, 1)), min_size=len(t), max_size=len(t)))
    w = data.draw(st.none() | st.lists(st.integers(0, 3), min_size=len(t), max_size=len(t)).map(np.array))
    for name in REGRESSION:
        check(name, t, p, sample_weight=w)


def probabilities(rng, n, k):
    p = rng.random((n, k))
    return p / p.sum(axis=1, keepdims=True)


def test_log_loss_and_brier(rng):
    for n in (4, 30, 500):
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        p = rng.random(n)
        w = rng.random(n)
        for name in ("log_loss", "brier_score_loss"):
            check(name, y, p)
            check(name, y, p, sample_weight=w)
            check(name, np.array(["no", "yes"])[y], p)
            check(name, y, np.round(p, 1).astype(np.float32))
        check("log_loss", y, p, normalize=False)
        check("log_loss", y, p, normalize=False, sample_weight=w)
        check("log_loss", y, np.round(p))  # probabilities 0 and 1 are clipped
        check("brier_score_loss", y, p, pos_label=0)
        check("brier_score_loss", y * 3 + 2, p)
        check("brier_score_loss", np.array(["no", "yes"])[y], p, pos_label="yes")
        check("brier_score_loss", np.array(["no", "yes"])[y], p)
        for k in (3, 4):
            y = rng.integers(0, k, n)
            y[:k] = np.arange(k)
            q = probabilities(rng, n, k)
            for name in ("log_loss", "brier_score_loss"):
                check(name, y, q)
                check(name, y, q, sample_weight=w)
                check(name, y, q, labels=list(range(k)))
                check(name, y, q[:, :-1])
                check(name, y, rng.random((n, k)))
            check("brier_score_loss", y, q, scale_by_half=True)
            check("log_loss", y[y < 2], q[y < 2], labels=list(range(k)))


@pytest.mark.parametrize("name", ["log_loss", "brier_score_loss"])
@pytest.mark.parametrize("args", [
    ([1, 1, 1], [0.2, 0.3, 0.9]),
    ([0, 1, 2], [0.2, 0.3, 0.9]),
    ([0, 1], [0.2, 1.3]),
    ([0, 1], [-0.2, 0.3]),
    ([0, 1], [0.2, np.nan]),
    ([0, 1, 1], [0.2, 0.3]),
    ([], []),
    ([0, 1], [[0.2, 0.8], [0.6, 0.4]]),
])
def test_probability_edge_cases(name, args):
    check(name, *args)
