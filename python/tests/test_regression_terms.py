"""Regression metrics that are means of row terms (metrics/regression.hpp, row_term), through every
engine: assay.<name>, assay.report, the mergeable state on any partitioning. The mean Poisson and Gamma
deviances were each added by a registry entry alone; their numbers are checked against scikit-learn."""
import numpy as np
import pyarrow as pa
import pytest
import sklearn.metrics as skm

import assay
from assay import _scale
from scale_data import split


def _positive(rng, n):
    y = rng.poisson(3.0, n).astype(float)  # counts, zeros included (0 log 0 = 0)
    yhat = np.round(rng.gamma(3.0, 1.0, n), 3) + 0.001
    return y, yhat


DEVIANCES = ["mean_poisson_deviance", "mean_gamma_deviance"]


@pytest.mark.parametrize("name", DEVIANCES)
@pytest.mark.parametrize("weighted", [False, True])
def test_mean_deviance_equals_scikit_learn(rng, weighted, name):
    y, yhat = _positive(rng, 5000)
    y += 0.25  # the Gamma deviance needs positive targets
    w = rng.integers(0, 4, y.size) / 2.0 if weighted else None
    want = getattr(skm, name)(y, yhat, sample_weight=w)
    got = getattr(assay, name)(y, yhat, sample_weight=w)
    assert got == pytest.approx(want, rel=1e-12)
    r = assay.report(y, y_pred=yhat, task="regression", sample_weight=w).to_dict()
    assert r[name] == float(got)


def test_gamma_deviance_outside_its_domain_is_undefined_with_the_row(rng):
    y, yhat = _positive(rng, 50)
    y += 1.0
    y[4] = 0.0
    got = assay.mean_gamma_deviance(y, yhat)
    assert np.isnan(got) and got.reason == "the target is not positive in case 5"
    with pytest.raises(ValueError):
        skm.mean_gamma_deviance(y, yhat)
    y[4] = 2.0
    yhat[9] = -0.5
    assert assay.mean_gamma_deviance(y, yhat).reason == "the prediction is not positive in case 10"


def test_gamma_interval_is_the_normal_interval_of_the_mean_deviance(rng):
    y, yhat = _positive(rng, 4000)
    y += 0.5
    e = assay.mean_gamma_deviance(y, yhat, ci=0.95)
    d = 2 * (np.log(yhat / y) + y / yhat - 1)  # naive, by hand
    half = 1.959963984540054 * d.std(ddof=1) / np.sqrt(d.size)
    assert e.ci == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)


def test_outside_the_domain_is_undefined_with_the_row(rng):
    y, yhat = _positive(rng, 50)
    y[7] = -1.0
    got = assay.mean_poisson_deviance(y, yhat)
    assert np.isnan(got) and got.reason == "the target is negative in case 8"
    y[7] = 1.0
    yhat[3] = 0.0
    assert assay.mean_poisson_deviance(y, yhat).reason == "the prediction is not positive in case 4"
    with pytest.raises(ValueError):  # scikit-learn raises where assay reports the value undefined
        skm.mean_poisson_deviance(y, yhat)


def test_interval_is_the_normal_interval_of_the_mean_deviance(rng):
    y, yhat = _positive(rng, 4000)
    e = assay.mean_poisson_deviance(y, yhat, ci=0.95)
    assert e.method == "normal, from the variance of the per-row losses"
    d = 2 * (np.where(y > 0, y * np.log(np.where(y > 0, y, 1) / yhat), 0.0) - y + yhat)  # naive, by hand
    half = 1.959963984540054 * d.std(ddof=1) / np.sqrt(d.size)
    assert e.ci[0] == pytest.approx(d.mean() - half, rel=1e-9)
    assert e.ci[1] == pytest.approx(d.mean() + half, rel=1e-9)


@pytest.mark.parametrize("weighted", [False, True])
def test_the_state_gives_the_same_bits_on_any_partitioning(rng, weighted):
    y, yhat = _positive(rng, 3000)
    y += 0.5
    w = rng.integers(0, 5, y.size) / 4.0
    t = pa.table({"y": y, "p": yhat, "w": w})
    kw = dict(sample_weight=w) if weighted else {}
    expected = assay.report(y, y_pred=yhat, task="regression", **kw).to_dict()
    expected["source"] = "arrow"
    assert "mean_poisson_deviance_undefined" not in expected
    assert "mean_gamma_deviance_undefined" not in expected
    spec = _scale.Spec("report", label="y", pred="p", weight="w" if weighted else None, task="regression")
    for k in (1, 3, 17):
        pieces = split(t, k, rng)
        offsets = np.cumsum([0] + [p.num_rows for p in pieces])
        parts = [_scale.state_of_batches(p.to_batches(), spec, int(o)) for p, o in zip(pieces, offsets)]
        order = rng.permutation(len(parts))
        assert _scale.finish([parts[i] for i in order], spec).to_dict() == expected


def test_every_regression_metric_of_the_registry_is_a_function():
    for name, _ in assay._core.regression_metrics():
        assert callable(getattr(assay, name)) and name in assay.__all__
