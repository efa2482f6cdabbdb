"""assay.metrics.cluster (the scores of two clusterings, from one contingency table) against the
installed scikit-learn: both libraries called on the same random labelings (hypothesis), the same
value to the bit with its type and dtype, or the same exception and message, and the same warnings."""

import os

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import cluster as skc
from sklearn.metrics import pairwise_distances

from assay.metrics import cluster as amc
from parity import assert_same_value, check, outcome

# ASSAY_PARITY_EXAMPLES: more random cases per test (a longer fuzzing run, e.g. in CI)
FAST = settings(max_examples=int(os.environ.get("ASSAY_PARITY_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

PAIRS = ["adjusted_mutual_info_score", "adjusted_rand_score", "completeness_score", "fowlkes_mallows_score",
         "homogeneity_completeness_v_measure", "homogeneity_score", "mutual_info_score",
         "normalized_mutual_info_score", "pair_confusion_matrix", "rand_score", "v_measure_score"]


def check_cluster(name, *args, **kwargs):
    """check() for the names of sklearn.metrics.cluster only."""
    ours, our_warnings = outcome(getattr(amc, name), *args, **kwargs)
    theirs, their_warnings = outcome(getattr(skc, name), *args, **kwargs)
    assert ours[0] == theirs[0], (name, ours, theirs)
    if theirs[0] == "value":
        if sp.issparse(theirs[1]):
            assert type(ours[1]) is type(theirs[1]) and ours[1].dtype == theirs[1].dtype
            np.testing.assert_array_equal(ours[1].toarray(), theirs[1].toarray(), strict=True)
        else:
            assert_same_value(ours[1], theirs[1])
    else:
        assert issubclass(ours[1], theirs[1]) or issubclass(theirs[1], ours[1]), (ours, theirs)
        assert ours[2] == theirs[2], (ours[2], theirs[2])
    assert our_warnings == their_warnings, (our_warnings, their_warnings)


@st.composite
def labeling(draw, n):
    kind = draw(st.sampled_from(["int", "int", "str", "bool", "float", "halves", "list", "uint8"]))
    k = draw(st.integers(1, 8))
    codes = np.asarray(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int64)
    if kind == "int":
        return codes * 7 - 3
    if kind == "uint8":
        return codes.astype(np.uint8)
    if kind == "str":
        return np.array([f"c{c}" for c in codes], dtype=str) if n else np.array([], dtype=str)
    if kind == "bool":
        return (codes % 2).astype(bool)
    if kind == "float":
        return codes.astype(np.float64)
    if kind == "halves":
        return codes / 2.0
    return codes.tolist()


@FAST
@given(st.data())
def test_pair_scores(data):
    n = data.draw(st.integers(0, 40))
    a = data.draw(labeling(n))
    b = data.draw(labeling(n if data.draw(st.integers(0, 15)) else max(n - 1, 0)))
    if data.draw(st.integers(0, 5)) == 0:
        b = a
    name = data.draw(st.sampled_from(PAIRS))
    kwargs = {}
    if name in ("adjusted_mutual_info_score", "normalized_mutual_info_score"):
        kwargs["average_method"] = data.draw(st.sampled_from(["arithmetic", "max", "min", "geometric", "mean"]))
    if name in ("v_measure_score", "homogeneity_completeness_v_measure"):
        kwargs["beta"] = data.draw(st.sampled_from([1.0, 0.5, 2, 0, -1]))
    check(name, a, b, **kwargs)


@FAST
@given(st.data())
def test_contingency_matrix(data):
    n = data.draw(st.integers(0, 30))
    a, b = data.draw(labeling(n)), data.draw(labeling(n))
    eps = data.draw(st.sampled_from([None, None, 0.5, -1.0]))
    sparse = data.draw(st.sampled_from([False, False, True, 1]))
    dtype = data.draw(st.sampled_from([np.int64, np.float64, np.int32]))
    check_cluster("contingency_matrix", a, b, eps=eps, sparse=sparse, dtype=dtype)
    if n:
        table = skc.contingency_matrix(a, b)
        for given_table in (table, sp.csr_matrix(table), table.astype(np.float64)):
            check("mutual_info_score", None, None, contingency=given_table)
        check_cluster("expected_mutual_information", table, n)


def test_sizes(rng):
    """Many samples and clusters: numpy's pairwise sums over many cells, a long expected mutual
    information sum (in chunks), near-unique labels."""
    for n, k1, k2 in ((1000, 3, 5), (3000, 40, 25), (500, 400, 300), (2000, 2, 2000)):
        a = rng.integers(0, k1, n)
        b = np.where(rng.random(n) < 0.5, a, rng.integers(0, k2, n))
        for name in PAIRS:
            check(name, a, b)
        check("adjusted_mutual_info_score", a, b, average_method="geometric")
    a = rng.integers(0, 30, 4000)
    b = rng.integers(0, 30, 4000)
    table = skc.contingency_matrix(a, b)
    assert amc._emi(table.sum(axis=1), table.sum(axis=0), 4000, chunk=1000) == \
        skc.expected_mutual_information(table, 4000)


def test_edges():
    check("rand_score", [], [])
    check("adjusted_rand_score", [0, 0], [1, 1])
    check("adjusted_mutual_info_score", [0.5, 1.5], [1, 1])
    check("adjusted_rand_score", [[0, 1], [1, 0]], [0, 1])
    check("adjusted_rand_score", [0, 1], [[0, 1], [1, 0]])
    check("adjusted_rand_score", [0, np.nan], [0, 1])
    check("adjusted_rand_score", np.array(["a", np.nan], dtype=object), [0, 1])
    check("adjusted_rand_score", np.array([None, 1], dtype=object), [0, 1])
    check("adjusted_rand_score", 3, [0, 1])
    check("mutual_info_score", [0, 1], [1, 1], contingency=3)
    check("mutual_info_score", [0, 1, 1], [1, 1])
    check("fowlkes_mallows_score", [0, 0, 0], [0, 1, 2])
    check_cluster("contingency_matrix", [0, 1], [1, 1], eps=1.0, sparse=True)
    for a, b in (([0, 1, 1], [0, 1]), ([0, 1], [[0, 1], [1, 0]]), ([], []), ([[0], [1]], [0, 1]), (None, None)):
        check_cluster("contingency_matrix", a, b)


@FAST
@given(st.data())
def test_calinski_harabasz(data):
    n = data.draw(st.integers(1, 30))
    d = data.draw(st.integers(1, 4))
    values = data.draw(st.lists(st.floats(-5, 5, allow_nan=False, width=32), min_size=n * d, max_size=n * d))
    X = np.asarray(values).reshape(n, d).astype(data.draw(st.sampled_from([np.float64, np.float32, np.int64])))
    labels = data.draw(labeling(n))
    if data.draw(st.integers(0, 5)) == 0:
        X = X.tolist()
    elif data.draw(st.integers(0, 5)) == 0:
        labels = np.asarray(labels).reshape(-1, 1)
    check("calinski_harabasz_score", X, labels)


def test_calinski_harabasz_sizes(rng):
    for n, d, k in ((1000, 3, 4), (5000, 10, 30), (300, 1, 299)):
        X = rng.standard_normal((n, d)) * 10
        labels = rng.integers(0, k, n)
        check("calinski_harabasz_score", X, labels)
        check("calinski_harabasz_score", X.astype(np.float32), labels)
    check("calinski_harabasz_score", [[0.0], [1.0]], [0, 1])
    check("calinski_harabasz_score", [0.0, 1.0, 2.0], [0, 1, 1])
    check("calinski_harabasz_score", [[0.0], [1.0], [np.nan]], [0, 1, 1])
    check("calinski_harabasz_score", [["a"], ["b"], ["c"]], [0, 1, 1])


@FAST
@given(st.data())
def test_silhouette_and_davies_bouldin(data):
    n = data.draw(st.integers(1, 25))
    d = data.draw(st.integers(1, 3))
    values = data.draw(st.lists(st.integers(-3, 3) if data.draw(st.booleans()) else
                                st.floats(-5, 5, allow_nan=False, width=32), min_size=n * d, max_size=n * d))
    X = np.asarray(values, dtype=np.float64).reshape(n, d)
    X = X.astype(data.draw(st.sampled_from([np.float64, np.float64, np.float32, np.int64])))
    labels = data.draw(labeling(n))
    check("davies_bouldin_score", X, labels)
    metric = data.draw(st.sampled_from(["euclidean", "manhattan", "cosine", "precomputed", "nope"]))
    given_x = X
    if metric == "precomputed":
        given_x = pairwise_distances(X)
        if data.draw(st.integers(0, 4)) == 0:
            given_x = given_x + 1
    check("silhouette_samples", given_x, labels, metric=metric)
    sample_size = data.draw(st.sampled_from([None, None, 3, n, 0]))
    check("silhouette_score", given_x, labels, metric=metric, sample_size=sample_size, random_state=0)


def test_silhouette_sizes(rng):
    for n, d, k in ((1000, 3, 4), (2000, 8, 40), (300, 2, 299)):
        X = rng.standard_normal((n, d)) * 3
        labels = rng.integers(0, k, n)
        check("silhouette_samples", X, labels)
        check("silhouette_score", X, labels, sample_size=n // 2, random_state=1)
        check("silhouette_samples", X.astype(np.float32), labels, metric="manhattan")
        check("davies_bouldin_score", X, labels)
        check("davies_bouldin_score", X.astype(np.float32), labels)
    from sklearn import config_context

    X = rng.standard_normal((3000, 4))
    labels = rng.integers(0, 7, 3000)
    with config_context(working_memory=4):  # several blocks of rows
        check("silhouette_samples", X, labels)


def test_silhouette_without_scikit_learn_distances(rng, monkeypatch):
    """Without scikit-learn, assay's own Euclidean distances (scikit-learn's formula) in blocks."""
    from assay import _cluster_distances as cd

    monkeypatch.setattr(cd, "_sk_chunked", None)
    monkeypatch.setattr(cd, "_sk_pairwise_distances", None)
    X = rng.standard_normal((500, 3))
    labels = rng.integers(0, 6, 500)
    assert_same_value(amc.silhouette_samples(X, labels), skc.silhouette_samples(X, labels))
    assert_same_value(amc.davies_bouldin_score(X, labels), skc.davies_bouldin_score(X, labels))
    D = pairwise_distances(X)
    assert_same_value(amc.silhouette_score(D, labels, metric="precomputed"),
                      skc.silhouette_score(D, labels, metric="precomputed"))
    with pytest.raises(ImportError, match="install scikit-learn"):
        amc.silhouette_samples(X, labels, metric="manhattan")


@FAST
@given(st.data())
def test_consensus_score(data):
    def biclusters():
        k = data.draw(st.integers(0, 4))
        n_rows, n_cols = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 5))
        dtype = data.draw(st.sampled_from([bool, bool, np.int64, np.float64]))
        rows = np.asarray(data.draw(st.lists(st.booleans(), min_size=k * n_rows, max_size=k * n_rows)))
        cols = np.asarray(data.draw(st.lists(st.booleans(), min_size=k * n_cols, max_size=k * n_cols)))
        return rows.reshape(k, n_rows).astype(dtype), cols.reshape(k, n_cols).astype(dtype)

    a, b = biclusters(), biclusters()
    if a[0].shape[1] != b[0].shape[1] or a[1].shape[1] != b[1].shape[1]:
        b = (b[0][:, :0], b[1][:, :0]) if data.draw(st.booleans()) else b
    similarity = data.draw(st.sampled_from(["jaccard", "jaccard", "dice", _overlap]))
    if data.draw(st.integers(0, 9)) == 0:
        a = list(a)
    check("consensus_score", a, b, similarity=similarity)


def _overlap(a_rows, a_cols, b_rows, b_cols):
    return float(np.sum(a_rows == b_rows) + np.sum(a_cols == b_cols))


def test_consensus_score_examples(rng):
    a = (rng.random((5, 40)) < 0.3, rng.random((5, 30)) < 0.4)
    b = (rng.random((7, 40)) < 0.3, rng.random((7, 30)) < 0.4)
    check("consensus_score", a, b)
    check("consensus_score", a, a)
    check("consensus_score", (a[0].astype(float), a[1].astype(float)), b)


def test_table_paths(rng):
    """The contingency table is counted in a grid for integer labels of small ranges and from
    sorted codes otherwise (wide ranges, large products of ranges, strings): every path agrees
    with scikit-learn to the bit, and the caller's label arrays are not written."""
    n = 600
    cases = [
        (rng.integers(0, 4, n), rng.integers(0, 5, n)),                            # one grid
        (rng.integers(-3, 3, n).astype(np.int8), rng.integers(0, 2, n).astype(bool)),
        (rng.integers(0, 3, n).astype(np.uint64) + 2**40, rng.integers(0, 3, n)),  # offset by the minimum
        (rng.integers(0, 300, n), rng.integers(0, 300, n)),                         # grid too large: sorted cells
        (rng.integers(0, 3, n) * 10**6, rng.integers(0, 3, n)),                     # range too wide: np.unique
        (np.array([f"c{v}" for v in rng.integers(0, 3, n)]), rng.integers(0, 3, n)),
        (rng.integers(0, 3, n).astype(np.uint64) + 2**63, rng.integers(0, 3, n)),   # beyond int64
    ]
    for labels_true, labels_pred in cases:
        before = labels_true.copy(), labels_pred.copy()
        for name in PAIRS:
            check_cluster(name, labels_true, labels_pred)
        np.testing.assert_array_equal(labels_true, before[0], strict=True)
        np.testing.assert_array_equal(labels_pred, before[1], strict=True)
