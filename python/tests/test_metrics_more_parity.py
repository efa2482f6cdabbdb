"""The names of sklearn.metrics added for issue 28 (auc, hinge loss, the D^2 scores, the deviances
and the pinball loss, DCG/NDCG and the multilabel ranking metrics) against the installed
scikit-learn: both libraries called on the same random inputs (hypothesis), the same value to the
bit with its type and dtype, or the same exception class and message, and the same warnings."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parity import check

# ASSAY_PARITY_EXAMPLES: more random cases per test (a longer fuzzing run, e.g. in CI)
FAST = settings(max_examples=int(os.environ.get("ASSAY_PARITY_EXAMPLES", "120")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def _labels(draw, n, kind, classes):
    codes = draw(st.lists(st.integers(0, classes - 1), min_size=n, max_size=n))
    codes = np.asarray(codes, dtype=np.int64)
    if kind == "int":
        return codes * 3 - 1
    if kind == "str":
        return np.array(["ab", "b", "c", "dd", "e", "f"])[codes]
    if kind == "bool":
        return (codes % 2).astype(bool)
    return codes.astype(np.float64) / 2


@st.composite
def weights(draw, n):
    kind = draw(st.sampled_from(["none", "none", "float", "int", "zeros", "short", "list"]))
    if kind == "none":
        return None
    if kind == "float":
        return np.asarray(draw(st.lists(st.floats(0, 5), min_size=n, max_size=n)))
    if kind == "int":
        return np.asarray(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))
    if kind == "zeros":
        return np.zeros(n)
    if kind == "short":
        return np.ones(max(n - 1, 0))
    return [1.0] * n


def _floats(draw, shape, lo=-5.0, hi=5.0, ties=False, dtype=np.float64):
    size = int(np.prod(shape))
    if ties:
        values = draw(st.lists(st.integers(int(lo), int(hi)), min_size=size, max_size=size))
        return np.asarray(values, dtype=dtype).reshape(shape)
    values = draw(st.lists(st.floats(lo, hi, allow_nan=False, width=32), min_size=size, max_size=size))
    return np.asarray(values, dtype=dtype).reshape(shape)


# ----------------------------------------------------------------------------------------------
# auc, hinge_loss, d2_log_loss_score, d2_brier_score


@FAST
@given(st.data())
def test_auc(data):
    n = data.draw(st.integers(0, 40))
    order = data.draw(st.sampled_from(["up", "down", "any", "const"]))
    dtype = data.draw(st.sampled_from([np.float64, np.float32, np.int64]))
    x = _floats(data.draw, (n,), ties=dtype is np.int64, dtype=dtype)
    if order == "up":
        x = np.sort(x)
    elif order == "down":
        x = np.sort(x)[::-1]
    elif order == "const":
        x = np.zeros(n, dtype=dtype)
    y = _floats(data.draw, (n,), 0, 1, dtype=data.draw(st.sampled_from([np.float64, np.float32, np.int64, bool])))
    if data.draw(st.booleans()):
        y = y[: max(n - 1, 0)]
    check("auc", x, y)
    check("auc", list(x), y.reshape(-1, 1) if len(y) == n else y)


def test_auc_edges():
    check("auc", [0, 1], [0, 1])
    check("auc", [1], [1])
    check("auc", [], [])
    check("auc", [[0, 1], [1, 2]], [0, 1])
    check("auc", 3, [0, 1])
    check("auc", "ab", [0, 1])
    check("auc", [0, np.nan], [0, 1])


@FAST
@given(st.data())
def test_hinge_loss(data):
    n = data.draw(st.integers(1, 30))
    classes = data.draw(st.integers(1, 4))
    kind = data.draw(st.sampled_from(["int", "str", "bool"]))
    y = _labels(data.draw, n, kind, classes)
    k = len(np.unique(y))
    shape = (n,) if k <= 2 and data.draw(st.booleans()) else (n, data.draw(st.integers(1, 5)))
    decision = _floats(data.draw, shape, ties=data.draw(st.booleans()),
                       dtype=data.draw(st.sampled_from([np.float64, np.float32, np.int64])))
    labels = None
    if data.draw(st.booleans()):
        labels = np.unique(_labels(data.draw, 6, kind, 6 if kind != "bool" else 2))
    check("hinge_loss", y, decision, labels=labels, sample_weight=data.draw(weights(n)))


def _probabilities(draw, n, k, dtype):
    p = _floats(draw, (n, k), 0, 1, dtype=np.float64) + 1e-3
    if draw(st.booleans()):
        p = p / p.sum(axis=1, keepdims=True)
    return p.astype(dtype)


@FAST
@given(st.data())
def test_d2_log_loss_and_brier(data):
    n = data.draw(st.integers(1, 30))
    classes = data.draw(st.integers(1, 4))
    kind = data.draw(st.sampled_from(["int", "str", "bool"]))
    y = _labels(data.draw, n, kind, classes)
    k = len(np.unique(y))
    dtype = data.draw(st.sampled_from([np.float64, np.float32]))
    binary = k <= 2 and data.draw(st.booleans())
    if binary:
        proba = _floats(data.draw, (n,), 0, 1, dtype=dtype)
    else:
        proba = _probabilities(data.draw, n, data.draw(st.sampled_from([k, k, 2, 3])), dtype)
    labels = None
    if data.draw(st.integers(0, 3)) == 0:
        labels = np.unique(_labels(data.draw, 8, kind, 4 if kind != "bool" else 2))
    w = data.draw(weights(n))
    check("d2_log_loss_score", y, proba, sample_weight=w, labels=labels)
    pos_label = data.draw(st.sampled_from([None, None, y[0], "zz"]))
    check("d2_brier_score", y, proba, sample_weight=w, labels=labels, pos_label=pos_label)


def test_d2_probabilistic_edges():
    check("d2_log_loss_score", [0, 1], y_pred=[0.2, 0.7])
    check("d2_log_loss_score", [0, 1], [0.2, 0.7], y_pred=[0.2, 0.7])
    check("d2_log_loss_score", [0, 1], None)
    check("d2_log_loss_score", [0, 1], 3)
    check("d2_brier_score", [0, 1], [0.2, 1.7])
    check("d2_brier_score", [0, 1], [0.2, 0.7], pos_label=[1])
    check("d2_brier_score", ["a", "b"], [0.2, 0.7])
    check("d2_brier_score", [1], [0.2])


# ----------------------------------------------------------------------------------------------
# Regression: deviances, pinball loss and the D^2 scores


REGRESSION = ["mean_poisson_deviance", "mean_gamma_deviance", "mean_tweedie_deviance", "mean_pinball_loss",
              "d2_absolute_error_score", "d2_pinball_score", "d2_tweedie_score"]


@FAST
@given(st.data())
def test_regression(data):
    name = data.draw(st.sampled_from(REGRESSION))
    n = data.draw(st.integers(1, 40))
    outputs = data.draw(st.sampled_from([None, None, 1, 2, 3]))
    shape = (n,) if outputs is None else (n, outputs)
    dtype = data.draw(st.sampled_from([np.float64, np.float64, np.float32, np.int64]))
    lo = data.draw(st.sampled_from([-3.0, 0.0, 0.5]))
    ties = data.draw(st.booleans()) or dtype is np.int64
    y_true = _floats(data.draw, shape, lo, 6, ties=ties, dtype=dtype)
    y_pred = _floats(data.draw, shape, lo, 6, ties=ties, dtype=data.draw(st.sampled_from([dtype, np.float64])))
    if data.draw(st.integers(0, 5)) == 0:
        y_pred = y_true.copy()
    kwargs = {"sample_weight": data.draw(weights(n))}
    if name in ("mean_tweedie_deviance", "d2_tweedie_score"):
        kwargs["power"] = data.draw(st.sampled_from([0, 1, 2, 3, 1.5, -1, -0.5, 0.5, "a", np.float64(1.0)]))
    if name in ("mean_pinball_loss", "d2_pinball_score"):
        kwargs["alpha"] = data.draw(st.sampled_from([0, 0.1, 0.5, 0.9, 1, 1.5, 0.25]))
    if name in ("mean_pinball_loss", "d2_pinball_score", "d2_absolute_error_score"):
        multi = ["uniform_average", "raw_values", "variance_weighted", None]
        if outputs:
            multi.append(np.arange(1.0, outputs + 1))
        kwargs["multioutput"] = data.draw(st.sampled_from(multi))
    check(name, y_true, y_pred, **kwargs)


def test_regression_sizes(rng):
    """Larger inputs: numpy's pairwise sums and the weighted quantile take other paths."""
    for n in (7, 8, 9, 127, 128, 129, 1000, 4099):
        t = np.abs(rng.standard_normal((n, 2))) + 0.1
        p = t * rng.uniform(0.5, 1.5, (n, 2))
        w = rng.random(n)
        for name in REGRESSION:
            for y_t, y_p in ((t[:, 0], p[:, 0]), (t, p)):
                check(name, y_t, y_p)
                check(name, y_t, y_p, sample_weight=w)
        for alpha in (0.1, 0.5, 0.75):
            check("d2_pinball_score", np.round(t, 1), np.round(p, 1), alpha=alpha, sample_weight=np.round(w, 1),
                  multioutput="raw_values")
        for power in (-1, 0, 1, 1.5, 2, 3):
            check("d2_tweedie_score", t[:, 0], p[:, 0], power=power, sample_weight=w)


# ----------------------------------------------------------------------------------------------
# DCG, NDCG, coverage error, label ranking average precision, label ranking loss


RANKING = ["dcg_score", "ndcg_score", "coverage_error", "label_ranking_average_precision_score",
           "label_ranking_loss"]


@FAST
@given(st.data())
def test_ranking(data):
    name = data.draw(st.sampled_from(RANKING))
    n = data.draw(st.integers(1, 12))
    m = data.draw(st.integers(1, 7))
    graded = name in ("dcg_score", "ndcg_score") and data.draw(st.booleans())
    if graded:
        y_true = _floats(data.draw, (n, m), -1 if data.draw(st.integers(0, 4)) == 0 else 0, 4, ties=True)
    else:
        y_true = np.asarray(data.draw(st.lists(st.integers(0, 1), min_size=n * m, max_size=n * m))).reshape(n, m)
    dtype = data.draw(st.sampled_from([np.float64, np.float32, np.int64]))
    y_score = _floats(data.draw, (n, m), -3, 3, ties=data.draw(st.booleans()) or dtype is np.int64, dtype=dtype)
    shape_change = data.draw(st.integers(0, 9))
    if shape_change == 0:
        y_score = y_score[:, :-1]
    elif shape_change == 1:
        y_true = y_true[:, 0]
    kwargs = {"sample_weight": data.draw(weights(n))}
    if name in ("dcg_score", "ndcg_score"):
        kwargs["k"] = data.draw(st.sampled_from([None, None, 1, 2, 5, 0]))
        kwargs["ignore_ties"] = data.draw(st.sampled_from([False, True]))
    if name == "dcg_score":
        kwargs["log_base"] = data.draw(st.sampled_from([2, 10, 1.5, 0]))
    check(name, y_true.astype(data.draw(st.sampled_from([np.int64, np.float64, bool]))) if not graded else y_true,
          y_score, **kwargs)


def test_ranking_sizes(rng):
    """Rows of many labels and ties (numpy's pairwise sums of 8 and of 128 terms and more)."""
    for n, m in ((50, 9), (20, 130), (300, 17), (3, 300)):
        y_true = (rng.random((n, m)) < 0.3).astype(int)
        y_true[0] = 0
        y_true[1] = 1
        for y_score in (rng.standard_normal((n, m)), rng.integers(0, 4, (n, m)).astype(float)):
            w = rng.random(n)
            for name in RANKING:
                check(name, y_true, y_score)
                check(name, y_true, y_score, sample_weight=w)
            graded = rng.integers(0, 5, (n, m))
            for name in ("dcg_score", "ndcg_score"):
                check(name, graded, y_score, k=5)
                check(name, graded, y_score, ignore_ties=True)


def test_ranking_edges():
    check("label_ranking_average_precision_score", [[1, 0]], [[1.0, 0.0]])
    check("label_ranking_average_precision_score", [[0], [1]], [[0.2], [0.3]])
    check("label_ranking_average_precision_score", [[1, 0], [0, 1]], [[True, False], [True, True]])
    check("label_ranking_loss", [[1, 0, 2]], [[0.1, 0.2, 0.3]])
    check("coverage_error", [1, 0], [0.5, 0.5])
    check("dcg_score", [1, 0], [0.5, 0.5])
    check("ndcg_score", [[1], [0]], [[0.5], [0.5]])
    check("dcg_score", [[1, 0]], [[0.5, 0.5]], k=1.5)
    check("ndcg_score", [[1, 0]], [[0.5, 0.5]], ignore_ties=1)
    check("label_ranking_loss", [[1, 0]], [["a", "b"]])


# ----------------------------------------------------------------------------------------------
# confusion_matrix_at_thresholds, metric_at_thresholds


def _hits(y_true, y_pred, sample_weight=None, shift=0.0):
    return float(np.average(np.asarray(y_true) == y_pred, weights=sample_weight)) + shift


def _pair(y_true, y_pred, sample_weight=None):
    return (float(np.sum(y_pred)), float(np.sum(np.asarray(y_true) == 1)))


@FAST
@given(st.data())
def test_at_thresholds(data):
    n = data.draw(st.integers(0, 30))
    kind = data.draw(st.sampled_from(["int", "str", "bool", "float"]))
    y = _labels(data.draw, n, kind, data.draw(st.integers(1, 3)))
    dtype = data.draw(st.sampled_from([np.float64, np.float32, np.int64]))
    score = _floats(data.draw, (n,), -3, 3, ties=data.draw(st.booleans()) or dtype is np.int64, dtype=dtype)
    w = data.draw(weights(n))
    pos_label = data.draw(st.sampled_from([None, None, y[0] if n else 1, "zz", [1]]))
    check("confusion_matrix_at_thresholds", y, score, pos_label=pos_label, sample_weight=w)
    if n and data.draw(st.booleans()):
        check("confusion_matrix_at_thresholds", y, score, pos_label)
    func = data.draw(st.sampled_from([_hits, _pair, "hits"]))
    params = data.draw(st.sampled_from([None, {"shift": 1.0}, [1]])) if func is _hits else None
    check("metric_at_thresholds", y, score, func, sample_weight=w, metric_params=params)


def test_containers(rng):
    """pandas Series and DataFrames, lists, categoricals and Arrow arrays as inputs."""
    pd = pytest.importorskip("pandas")
    t = pd.Series(np.abs(rng.standard_normal(50)) + 0.5)
    p = pd.Series(np.abs(rng.standard_normal(50)) + 0.5)
    for name in REGRESSION:
        check(name, t, p)
        check(name, t.to_frame(), p.to_frame())
        check(name, t.tolist(), p.tolist())
    for name in ("mean_pinball_loss", "d2_pinball_score", "d2_absolute_error_score"):
        check(name, pd.DataFrame({"a": t, "b": p}), pd.DataFrame({"a": p, "b": t}), multioutput="raw_values")
    a = pd.Series(rng.integers(0, 4, 60))
    b = pd.Series(rng.choice(list("xyz"), 60))
    for name in ("adjusted_rand_score", "adjusted_mutual_info_score", "v_measure_score", "fowlkes_mallows_score"):
        check(name, a, b)
        check(name, a.astype("category"), b.astype("category"))
        check(name, a.tolist(), b.tolist())
    y = pd.DataFrame((rng.random((20, 4)) < 0.4).astype(int))
    s = pd.DataFrame(rng.random((20, 4)))
    for name in RANKING:
        check(name, y, s)
        check(name, y.values.tolist(), s.values.tolist())
    check("auc", pd.Series([0, 1, 2.0]), pd.Series([0, 1, 0.0]))
    check("hinge_loss", pd.Series([0, 1, 1]), pd.Series([0.5, -1, 2.0]))
    check("d2_log_loss_score", pd.Series(["a", "b", "a"]), pd.DataFrame([[0.7, 0.3], [0.2, 0.8], [0.5, 0.5]]))
    check("d2_brier_score", pd.Series(["a", "b", "a"]), pd.Series([0.3, 0.8, 0.5]), pos_label="b")
    x = pd.DataFrame(rng.standard_normal((40, 2)))
    for name in ("calinski_harabasz_score", "davies_bouldin_score", "silhouette_score"):
        check(name, x, a[:40])
    pa = pytest.importorskip("pyarrow")
    check("adjusted_rand_score", pa.array(a.tolist()), pa.array(b.tolist()))
    check("mean_pinball_loss", pa.array(t.tolist()), pa.array(p.tolist()))
    check("confusion_matrix_at_thresholds", pa.array((a > 1).tolist()), pa.array(t[:60].tolist() + [0.5] * 10))


WEIGHTS = [None, [1, 2, 3, 4], [-1, 2, 3, 4], [np.nan, 1, 1, 1], [[1, 2, 3, 4]], 3, [0, 0, 0, 0], "ab", [1, 2, 3],
           np.array([1, 2, 3, 4], dtype=np.float32), [1 + 1j, 1, 1, 1], np.array([1 + 1j, 1, 1, 1])]
BAD_TARGETS = [([], []), ([[[1]]], [[[1]]]), (3, 3), (["1", "2"], ["1", "2"]), ([1, np.inf], [1, 2]), ([1, 2], [1]),
               ([[1, 2]], [[1, 2]]), (np.array([1, 2], dtype=object), [1, 2]), ([True, False], [True, True])]


def test_weights_and_targets_refused_as_scikit_learn():
    t, p = [1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.5, 5.0]
    for name in REGRESSION + ["hinge_loss", "auc", "d2_log_loss_score", "d2_brier_score"]:
        for w in WEIGHTS:
            if name == "auc":
                break
            if name == "hinge_loss":
                check(name, [0, 1, 1, 0], p, sample_weight=w)
            elif name.startswith("d2_") and name in ("d2_log_loss_score", "d2_brier_score"):
                check(name, [0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4], sample_weight=w)
            else:
                check(name, t, p, sample_weight=w)
        for y_t, y_p in BAD_TARGETS:
            check(name, y_t, y_p)
    y, s = [[1, 0, 1], [0, 1, 0]], [[0.5, 0.2, 0.5], [0.1, 0.9, 0.3]]
    for name in RANKING:
        for w in (None, [1, 2], [-1, 2], [np.nan, 1], [[1, 2]], 3, [0, 0], "ab", [1, 2, 3]):
            check(name, y, s, sample_weight=w)
        for y_t, y_s in (([], []), ([[]], [[]]), (y, [[1, 2, 3]]), ([[1, 2, 3]], [[1, 2, 3]]),
                         (y, [["a", "b", "c"], ["a", "b", "c"]]), (y, np.array(s, dtype=np.float32)),
                         (np.array(y, dtype=bool), s), ([[0, 0, 0], [1, 1, 1]], s), ([[2, 0, 1], [0, 1, 0]], s),
                         (y, [[np.nan, 0, 0], [0, 0, 0]])):
            check(name, y_t, y_s)
    for name in ("d2_log_loss_score", "d2_brier_score"):
        for y_t, y_p in (([0, 1], [[0.2, 0.8], [0.5, 0.5]]), ([0, 1, 2], [[0.2, 0.8], [0.5, 0.5], [0.1, 0.9]]),
                         ([0, 1], [1.2, 0.1]), (["a", "b"], [0.2, 0.4]), ([0, 0], [0.2, 0.4]),
                         ([0, 1], [[0.2, 0.3, 0.5], [0.5, 0.25, 0.25]])):
            check(name, y_t, y_p)
        check(name, [0, 1], [0.2, 0.4], labels=[0, 1, 2])
    check("hinge_loss", [0.5, 1.5], [0.1, 0.2])
    check("hinge_loss", np.array([1, 2], dtype=object), [0.1, 0.2])
