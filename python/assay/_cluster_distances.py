"""assay.metrics.cluster: the scores of one clustering that need distances between the samples
(silhouette, Davies-Bouldin).

Same names, signatures, defaults, return types, warnings and numbers as sklearn.metrics. The
distances are scikit-learn's (assay forwards pairwise distances, see assay._pairwise), computed a
block of rows at a time as scikit-learn's pairwise_distances_chunked does (bounded memory); what
assay computes is the rest, vectorised with numpy: the sums of distances per (sample, cluster) of
a block in one np.bincount (each sum in the samples' order, as scikit-learn's per-row bincount), the
mean intra- and nearest-cluster distances and the silhouettes. Without scikit-learn, the Euclidean
distances (and precomputed ones) are computed by assay with scikit-learn's formula (float64).
"""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np

from assay._cluster import _check_number_of_labels, _samples_and_labels
from assay._params import ARRAY, NONE, SPARSE, Interval, Str, validate

__all__ = ["consensus_score", "davies_bouldin_score", "silhouette_samples", "silhouette_score"]

try:
    from sklearn.metrics.pairwise import _VALID_METRICS
    from sklearn.metrics.pairwise import pairwise_distances as _sk_pairwise_distances
    from sklearn.metrics.pairwise import pairwise_distances_chunked as _sk_chunked
except ImportError:  # pragma: no cover - exercised only without scikit-learn
    _VALID_METRICS, _sk_pairwise_distances, _sk_chunked = ["euclidean"], None, None


class _Callable:
    def ok(self, v):
        return callable(v)

    def __str__(self):
        return "a callable"


class _RandomState:
    def ok(self, v):
        return v is None or isinstance(v, np.random.RandomState) or (
            isinstance(v, Integral) and 0 <= v <= 2**32 - 1)

    def __str__(self):
        return ("an int in the range [0, 4294967295], an instance of 'numpy.random.mtrand.RandomState' or "
                "None")


def _metric_options():
    return [Str(set(_VALID_METRICS) | {"precomputed"}), _Callable()]


def _euclidean(X, Y):
    """scikit-learn's Euclidean distances of float64 rows: sqrt(max(|x|^2 - 2 x.y + |y|^2, 0)), 0 on
    the diagonal of X against itself."""
    X = np.asarray(X, dtype=np.float64)
    Y = np.asarray(Y, dtype=np.float64)
    xx = np.einsum("ij,ij->i", X, X)[:, np.newaxis]
    yy = xx.T if Y is X else np.einsum("ij,ij->i", Y, Y)[np.newaxis, :]
    d = -2 * (X @ Y.T)
    d += xx
    d += yy
    np.maximum(d, 0, out=d)
    if Y is X:
        np.fill_diagonal(d, 0)
    return np.sqrt(d, out=d)


def _pairwise(X, Y=None, metric="euclidean", **kwds):
    if _sk_pairwise_distances is not None:
        return _sk_pairwise_distances(X, Y, metric=metric, **kwds)
    if metric != "euclidean" or kwds:
        raise ImportError(f"metric={metric!r} needs scikit-learn's pairwise distances: install scikit-learn")
    return _euclidean(X, X if Y is None else Y)


def _blocks(X, metric, reduce, **kwds):
    """reduce(distances of a block of rows to all rows, first row of the block) for every block."""
    if _sk_chunked is not None:
        yield from _sk_chunked(X, reduce_func=reduce, metric=metric, **kwds)
        return
    if metric == "precomputed":
        yield reduce(X, 0)
        return
    if metric != "euclidean" or kwds:
        raise ImportError(f"metric={metric!r} needs scikit-learn's pairwise distances: install scikit-learn")
    n = X.shape[0]
    rows = max(1, min(n, (1024 * 2**20) // (8 * n)))
    for start in range(0, n, rows):
        d = _euclidean(X, X) if rows >= n else _euclidean(X[start:start + rows], X)
        d.flat[start::n + 1][: d.shape[0]] = 0
        yield reduce(d, start)


def _silhouette_block(codes, sizes):
    k = sizes.shape[0]

    rows = 256  # rows of the block summed by one np.bincount (its keys: rows x samples int64)
    keys = (np.arange(rows)[:, np.newaxis] * k + codes[np.newaxis, :]).ravel()

    def reduce(d, start):
        n_rows = d.shape[0]
        if type(d).__module__.startswith("scipy.sparse"):
            d = d.toarray()
        d = np.asarray(d)
        per_cluster = np.zeros((n_rows, k), dtype=d.dtype)
        for r in range(0, n_rows, rows):
            part = d[r:r + rows]
            m = part.shape[0]
            per_cluster[r:r + m] += np.bincount(keys[:m * part.shape[1]], weights=part.ravel(),
                                                minlength=m * k).reshape(m, k)
        own = (np.arange(n_rows), codes[start:start + n_rows])
        intra = per_cluster[own]
        per_cluster[own] = np.inf
        per_cluster /= sizes
        return intra, per_cluster.min(axis=1)

    return reduce


def silhouette_samples(X, labels, *, metric="euclidean", **kwds):
    """Silhouette of each sample: (b - a) / max(a, b), a its mean distance to its own cluster, b to
    the nearest other cluster. Same as sklearn.metrics.silhouette_samples."""
    validate("silhouette_samples", X=(X, [ARRAY, SPARSE]), labels=(labels, [ARRAY]),
             metric=(metric, _metric_options()))
    return _silhouettes(X, labels, metric, kwds)


def _silhouettes(X, labels, metric, kwds):
    if type(X).__module__.startswith("scipy.sparse"):
        labels = np.asarray(labels)
    else:
        X, labels = _samples_and_labels(X, labels)
    if metric == "precomputed":
        refused = ValueError("The precomputed distance matrix contains non-zero elements on the diagonal. Use "
                             "np.fill_diagonal(X, 0).")
        if X.dtype.kind == "f":
            if np.any(np.abs(X.diagonal()) > np.finfo(X.dtype).eps * 100):
                raise refused
        elif np.any(X.diagonal() != 0):
            raise refused
    classes, codes = np.unique(labels, return_inverse=True)
    codes = codes.ravel()
    n = codes.shape[0]
    sizes = np.bincount(codes)
    _check_number_of_labels(classes.shape[0], n)
    parts = list(_blocks(X, metric, _silhouette_block(codes, sizes), **kwds))
    intra = np.concatenate([p[0] for p in parts])
    inter = np.concatenate([p[1] for p in parts])
    with np.errstate(divide="ignore", invalid="ignore"):
        intra /= (sizes - 1).take(codes, mode="clip")
    scores = inter - intra
    with np.errstate(divide="ignore", invalid="ignore"):
        scores /= np.maximum(intra, inter)
    return np.nan_to_num(scores)


def silhouette_score(X, labels, *, metric="euclidean", sample_size=None, random_state=None, **kwds):
    """Mean silhouette of the samples (of a random subset of sample_size of them). Same as
    sklearn.metrics.silhouette_score."""
    validate("silhouette_score", X=(X, [ARRAY, SPARSE]), labels=(labels, [ARRAY]),
             metric=(metric, _metric_options()),
             sample_size=(sample_size, [Interval(Integral, 1, None, closed="left"), NONE]),
             random_state=(random_state, [_RandomState()]))
    if sample_size is not None:
        if not type(X).__module__.startswith("scipy.sparse"):
            X, labels = _samples_and_labels(X, labels)
        if random_state is None or random_state is np.random:
            random_state = np.random.mtrand._rand
        elif not isinstance(random_state, np.random.RandomState):
            random_state = np.random.RandomState(random_state)
        chosen = random_state.permutation(X.shape[0])[:sample_size]
        if metric == "precomputed":
            X, labels = X[chosen].T[chosen].T, labels[chosen]
        else:
            X, labels = X[chosen], labels[chosen]
    validate("silhouette_samples", X=(X, [ARRAY, SPARSE]), labels=(labels, [ARRAY]),
             metric=(metric, _metric_options()))
    return float(np.mean(_silhouettes(X, labels, metric, kwds)))


def davies_bouldin_score(X, labels):
    """Mean over the clusters of the largest (spread_i + spread_j) / distance of the centroids i, j.
    Same as sklearn.metrics.davies_bouldin_score."""
    validate("davies_bouldin_score", X=(X, [ARRAY]), labels=(labels, [ARRAY]))
    X, labels = _samples_and_labels(X, labels)
    codes = np.unique(labels, return_inverse=True)[1].ravel()
    n_labels = int(codes.max()) + 1
    _check_number_of_labels(n_labels, X.shape[0])
    spread = np.zeros(n_labels, dtype=np.float64)
    centroids = np.zeros((n_labels, X.shape[1]), dtype=np.float64)
    # Euclidean distances of anything but float32 are computed in float64 by scikit-learn's formula,
    # here directly (scikit-learn's pairwise_distances would check and convert its arguments again
    # for every cluster, the cost that dominates small inputs); float32 keeps its own path.
    distances = _pairwise if X.dtype == np.float32 else _euclidean
    # one cluster at a time: its centroid and mean distance to it (a pass over its members)
    for k in range(n_labels):
        members = X[np.flatnonzero(codes == k)]
        centroid = np.average(members, axis=0)
        centroids[k, ...] = centroid
        spread[k] = np.average(distances(members, np.stack([centroid])))
    between = _euclidean(centroids, centroids)
    if np.all(np.isclose(spread, 0.0)) or np.all(np.isclose(between, 0.0)):
        return 0.0
    between[between == 0] = np.inf
    return float(np.average(np.max((spread[:, None] + spread) / between, axis=1)))


# ----------------------------------------------------------------------------------------------
# Biclusters


def _indicator(x):
    """check_array(ensure_2d=False) of a bicluster indicator matrix."""
    from assay._rank_lists import _numeric_2d

    return _numeric_2d(x, "")


def _jaccard_matrix(a_rows, a_cols, b_rows, b_cols):
    """Jaccard index of every pair of biclusters, as scikit-learn's _jaccard gives it pair by pair:
    integer (and boolean) indicators through exact integer matrix products, others pair by pair."""
    exact = all(x.dtype.kind in "biu" and x.ndim == 2 for x in (a_rows, a_cols, b_rows, b_cols)) and \
        a_rows.shape[1] == b_rows.shape[1] and a_cols.shape[1] == b_cols.shape[1]
    if exact:
        inter = (a_rows.astype(np.int64) @ b_rows.astype(np.int64).T) * \
            (a_cols.astype(np.int64) @ b_cols.astype(np.int64).T)
        a_size = (a_rows.sum(axis=1, dtype=np.int64) * a_cols.sum(axis=1, dtype=np.int64))[:, np.newaxis]
        b_size = (b_rows.sum(axis=1, dtype=np.int64) * b_cols.sum(axis=1, dtype=np.int64))[np.newaxis, :]
        denominator = a_size + b_size - inter
        undefined = int(np.count_nonzero((denominator == 0) & (inter == 0)))
        by_zero = int(np.count_nonzero((denominator == 0) & (inter != 0)))
        with np.errstate(divide="ignore", invalid="ignore"):
            result = inter / denominator
        # numpy warns once per pair scikit-learn divides one at a time
        for _ in range(by_zero):
            warnings.warn("divide by zero encountered in scalar divide", RuntimeWarning, stacklevel=4)
        for _ in range(undefined):
            warnings.warn("invalid value encountered in scalar divide", RuntimeWarning, stacklevel=4)
        return result
    return _pairwise_matrix(a_rows, a_cols, b_rows, b_cols, _jaccard)


def _jaccard(a_rows, a_cols, b_rows, b_cols):
    inter = (a_rows * b_rows).sum() * (a_cols * b_cols).sum()
    return inter / (a_rows.sum() * a_cols.sum() + b_rows.sum() * b_cols.sum() - inter)


def _pairwise_matrix(a_rows, a_cols, b_rows, b_cols, similarity):
    return np.array([[similarity(a_rows[i], a_cols[i], b_rows[j], b_cols[j]) for j in range(b_rows.shape[0])]
                     for i in range(a_rows.shape[0])])


class _TupleOnly:
    def ok(self, v):
        return isinstance(v, tuple)

    def __str__(self):
        return "an instance of 'tuple'"


def consensus_score(a, b, *, similarity="jaccard"):
    """Similarity of two sets of biclusters (rows, columns): the best one-to-one matching of their
    pairwise similarities (Jaccard by default), summed and divided by the larger number. Same as
    sklearn.metrics.consensus_score (needs scipy's linear_sum_assignment)."""
    validate("consensus_score", a=(a, [_TupleOnly()]), b=(b, [_TupleOnly()]),
             similarity=(similarity, [_Callable(), Str({"jaccard"})]))
    from assay._scores_more import samples_of

    samples_of(*a)
    samples_of(*b)
    a_rows, a_cols = (_indicator(x) for x in a)
    b_rows, b_cols = (_indicator(x) for x in b)
    if isinstance(similarity, str):
        matrix = _jaccard_matrix(a_rows, a_cols, b_rows, b_cols)
    else:
        matrix = _pairwise_matrix(a_rows, a_cols, b_rows, b_cols, similarity)
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(1.0 - matrix)
    return float(matrix[rows, cols].sum() / max(len(a[0]), len(b[0])))
