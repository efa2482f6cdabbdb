"""assay.metrics.cluster: scores comparing two clusterings of the same samples (Rand index and its
adjusted form, mutual information and its adjusted and normalised forms, homogeneity,
completeness, V-measure, Fowlkes-Mallows, the pair confusion matrix and the contingency matrix).

Same names, signatures, defaults, return types, warnings and numbers as sklearn.metrics.cluster.
Every score comes from one contingency table: both label arrays coded (integer labels of a small
range by a count table, others by numpy's sort) and the non-empty cells counted from the codes,
in row-major order. These are numpy implementations today (a C++ kernel for the table comes
later). The expected mutual information
of adjusted_mutual_info_score is summed term by term in scikit-learn's order with the C library's
exp and lgamma (and scipy's gammaln where scikit-learn uses it), so it agrees to the bit when scipy
is installed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import warnings
from numbers import Real

import numpy as np

from assay._params import ARRAY, BOOL, NONE, SPARSE, Interval, Str, validate
from assay._ranking import _assert_finite, check_samples_2d
from assay._targets import _small_range, as_array, check_consistent_length, label_codes_1d, type_of_target

__all__ = [
    "adjusted_mutual_info_score",
    "adjusted_rand_score",
    "calinski_harabasz_score",
    "completeness_score",
    "contingency_matrix",
    "expected_mutual_information",
    "fowlkes_mallows_score",
    "homogeneity_completeness_v_measure",
    "homogeneity_score",
    "mutual_info_score",
    "normalized_mutual_info_score",
    "pair_confusion_matrix",
    "rand_score",
    "v_measure_score",
]

def _average_options(function):
    from assay._scores_more import str_options

    return [Str(str_options(function, "average_method", {"arithmetic", "max", "min", "geometric"}))]
_BETA = [Interval(Real, 0, None, closed="left")]


# ----------------------------------------------------------------------------------------------
# The labels and the one contingency table


def _labels(y):
    """check_array(ensure_2d=False, ensure_min_samples=0, dtype=None) of a label array."""
    a = as_array(y)
    if a.ndim == 0:
        raise ValueError(f"Expected 2D array, got scalar array instead:\narray={a}.\nReshape your data either using "
                         "array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) if it "
                         "contains a single sample.")
    if a.ndim > 2:
        raise ValueError(f"Found array with dim {a.ndim}, while dim <= 2 is required.")
    if a.ndim == 2 and a.shape[1] == 0:
        raise ValueError(f"Found array with 0 feature(s) (shape={a.shape}) while a minimum of 1 is required.")
    _assert_finite(a)
    if a.dtype.kind == "O" and np.any(a != a):  # a NaN among objects
        raise ValueError("Input contains NaN")
    return a


def check_clusterings(labels_true, labels_pred):
    """Both label arrays, 1-D and of one length (a UserWarning for continuous values)."""
    labels_true = _labels(labels_true)
    labels_pred = _labels(labels_pred)
    # Only "continuous" matters here: the classes are counted only for the warning's text.
    kinds = (type_of_target(labels_true, count_classes=False), type_of_target(labels_pred, count_classes=False))
    if "continuous" in kinds:
        kind_true, kind_pred = type_of_target(labels_true), type_of_target(labels_pred)
        warnings.warn(f"Clustering metrics expects discrete values but received {kind_true} values for label, and "
                      f"{kind_pred} values for target", UserWarning, stacklevel=3)
    if labels_true.ndim != 1:
        raise ValueError(f"labels_true must be 1D: shape is {labels_true.shape!r}")
    if labels_pred.ndim != 1:
        raise ValueError(f"labels_pred must be 1D: shape is {labels_pred.shape!r}")
    check_consistent_length(labels_true, labels_pred)
    return labels_true, labels_pred


class Table:
    """The contingency table of two labelings: its non-empty cells in row-major order (rows, cols,
    counts, int64) and the row and column totals (class sizes, cluster sizes)."""

    __slots__ = ("n", "rows", "cols", "counts", "row_totals", "col_totals")

    @property
    def shape(self):
        return self.row_totals.shape[0], self.col_totals.shape[0]


def table(labels_true, labels_pred):
    """The contingency table of two 1-D label arrays of one length, from their codes."""
    t = Table()
    t.n = int(labels_true.shape[0])
    if not t.n:
        t.rows = t.cols = t.counts = t.row_totals = t.col_totals = np.zeros(0, dtype=np.int64)
        return t
    if _table_of_small_ranges(t, labels_true, labels_pred):
        return t
    _, class_code, t.row_totals = label_codes_1d(labels_true)
    _, cluster_code, t.col_totals = label_codes_1d(labels_pred)
    k = t.col_totals.shape[0]
    cells = class_code.astype(np.int64) * k + cluster_code
    if t.row_totals.shape[0] * k <= max(t.n, 1 << 16):  # the table's cells counted in place
        counts = np.bincount(cells)
        cells = np.flatnonzero(counts)
        counts = counts[cells]
    else:  # only the non-empty cells, by a sort
        cells, counts = np.unique(cells, return_counts=True)
    t.rows, t.cols = cells // k, cells % k
    t.counts = counts.astype(np.int64)
    return t


def _table_of_small_ranges(t, labels_true, labels_pred):
    """Fills t when both labelings are integers of small ranges (see _small_range) whose product
    of ranges is small too: one count per (true, predicted) pair of values, the empty rows and
    columns dropped; False (t untouched) otherwise."""
    small_true, small_pred = _small_range(labels_true), _small_range(labels_pred)
    if small_true is None or small_pred is None:
        return False
    (offset_true, _), (offset_pred, _) = small_true, small_pred
    width = int(offset_pred.max()) + 1
    height = int(offset_true.max()) + 1
    if height * width > max(t.n, 1 << 16):
        return False
    cells = offset_true * width  # (offset_true may be the caller's own int64 array: not written)
    cells += offset_pred
    grid = np.bincount(cells, minlength=height * width).reshape(height, width)
    row_totals, col_totals = grid.sum(axis=1), grid.sum(axis=0)
    grid = grid[row_totals > 0][:, col_totals > 0]
    t.rows, t.cols = np.nonzero(grid)
    t.counts = grid[t.rows, t.cols].astype(np.int64)
    t.row_totals = row_totals[row_totals > 0].astype(np.int64)
    t.col_totals = col_totals[col_totals > 0].astype(np.int64)
    return True


def _table_of_matrix(contingency):
    """A Table of a contingency matrix given by the caller (dense or scipy sparse), cast to an
    integer dtype as scikit-learn's check_array(dtype=[int, int32, int64]) does."""
    if type(contingency).__module__.startswith("scipy.sparse"):
        from scipy import sparse

        m = sparse.csr_matrix(contingency)
        if m.dtype not in (np.int32, np.int64):
            m = m.astype(np.int64)
        rows, cols, counts = sparse.find(m)
        row_totals = np.ravel(m.sum(axis=1))
        col_totals = np.ravel(m.sum(axis=0))
        total = m.sum()
    else:
        m = as_array(contingency, "contingency")
        if m.ndim != 2:
            raise ValueError(f"Expected 2D array, got {m.ndim}D array instead:\narray={m}.\nReshape your data either "
                             "using array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) if "
                             "it contains a single sample.")
        _assert_finite(m)
        if m.dtype not in (np.int32, np.int64):
            m = m.astype(np.int64)
        rows, cols = np.nonzero(m)
        counts = m[rows, cols]
        row_totals = np.ravel(m.sum(axis=1))
        col_totals = np.ravel(m.sum(axis=0))
        total = m.sum()
    t = Table()
    t.n, t.rows, t.cols, t.counts = total, rows, cols, counts
    t.row_totals, t.col_totals = row_totals, col_totals
    return t


def _sparse_interface():
    try:
        import sklearn

        return sklearn.get_config().get("sparse_interface", "spmatrix")
    except ImportError:  # pragma: no cover - exercised only without scikit-learn
        return "spmatrix"


def contingency_matrix(labels_true, labels_pred, *, eps=None, sparse=False, dtype=np.int64):
    """Counts of the samples in each (class, cluster) pair: classes as rows, clusters as columns,
    both in sorted order. Same as sklearn.metrics.cluster.contingency_matrix (sparse=True needs scipy)."""
    validate("contingency_matrix", labels_true=(labels_true, [ARRAY, NONE]), labels_pred=(labels_pred, [ARRAY, NONE]),
             eps=(eps, [Interval(Real, 0, None, closed="left"), NONE]), sparse=(sparse, [BOOL]))
    if eps is not None and sparse:
        raise ValueError("Cannot set 'eps' when sparse=True")
    labels_true, labels_pred = np.asarray(labels_true), np.asarray(labels_pred)
    # contingency_matrix does not check its labels: scipy's coo_array refuses what does not fit
    if labels_true.ndim > 1 or labels_pred.ndim > 1:
        raise ValueError("coordinates and data arrays must be 1-D")
    if labels_true.ndim == labels_pred.ndim == 1 and labels_true.shape != labels_pred.shape:
        raise ValueError("all index and data arrays must have the same length")
    t = table(labels_true, labels_pred)
    shape = t.shape
    if sparse:
        from scipy import sparse as sp

        kind = sp.csr_array if _sparse_interface() == "sparray" else sp.csr_matrix
        return kind((t.counts.astype(dtype), (t.rows, t.cols)), shape=shape, dtype=dtype)
    out = np.zeros(shape, dtype=dtype)
    out[t.rows, t.cols] = t.counts
    if eps is not None:
        out = out + eps
    return out


# ----------------------------------------------------------------------------------------------
# Pair counting


def _pairs(t):
    n = np.int64(t.n)
    squares = np.sum(t.counts ** 2)
    out = np.empty((2, 2), dtype=np.int64)
    out[1, 1] = squares - n
    out[0, 1] = np.sum(t.counts * t.col_totals[t.cols]) - squares
    out[1, 0] = np.sum(t.counts * t.row_totals[t.rows]) - squares
    out[0, 0] = n ** 2 - out[0, 1] - out[1, 0] - squares
    return out


def pair_confusion_matrix(labels_true, labels_pred):
    """2 x 2 counts of ordered sample pairs: [[apart in both, together only in the prediction],
    [together only in the truth, together in both]]. Same as sklearn.metrics.cluster.pair_confusion_matrix."""
    validate("pair_confusion_matrix", labels_true=(labels_true, [ARRAY]), labels_pred=(labels_pred, [ARRAY]))
    return _pairs(table(*check_clusterings(labels_true, labels_pred)))


def rand_score(labels_true, labels_pred):
    """Fraction of sample pairs on which both clusterings agree. Same as sklearn.metrics.rand_score."""
    validate("rand_score", labels_true=(labels_true, [ARRAY]), labels_pred=(labels_pred, [ARRAY]))
    pairs = _pairs(table(*check_clusterings(labels_true, labels_pred)))
    agree, total = pairs.diagonal().sum(), pairs.sum()
    if agree == total or total == 0:
        return 1.0
    return float(agree / total)


def adjusted_rand_score(labels_true, labels_pred):
    """Rand index adjusted for chance (Hubert and Arabie). Same as sklearn.metrics.adjusted_rand_score."""
    validate("adjusted_rand_score", labels_true=(labels_true, [ARRAY]), labels_pred=(labels_pred, [ARRAY]))
    (tn, fp), (fn, tp) = _pairs(table(*check_clusterings(labels_true, labels_pred)))
    tn, fp, fn, tp = int(tn), int(fp), int(fn), int(tp)  # Python integers: no overflow
    if fn == 0 and fp == 0:
        return 1.0
    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))


def fowlkes_mallows_score(labels_true, labels_pred):
    """Geometric mean of the pairwise precision and recall. Same as sklearn.metrics.fowlkes_mallows_score."""
    validate("fowlkes_mallows_score", labels_true=(labels_true, [ARRAY]), labels_pred=(labels_pred, [ARRAY]))
    t = table(*check_clusterings(labels_true, labels_pred))
    n = t.n
    tk = np.dot(t.counts, t.counts) - n
    pk = np.sum(t.col_totals ** 2) - n
    qk = np.sum(t.row_totals ** 2) - n
    return float(np.sqrt(tk / pk) * np.sqrt(tk / qk)) if tk != 0.0 else 0.0


# ----------------------------------------------------------------------------------------------
# Information


def _entropy(sizes):
    """Entropy (natural log) of a labeling given its classes' sizes (in increasing class order)."""
    if sizes.shape[0] == 0:
        return 1.0
    counts = sizes.astype(np.float64)
    if counts.size == 1:
        return 0.0
    total = np.sum(counts)
    return float(-np.sum((counts / total) * (np.log(counts) - math.log(total))))


def _mutual_info(t):
    rows, cols, counts = t.rows, t.cols, t.counts
    total = t.n
    pi, pj = t.row_totals, t.col_totals
    if pi.size == 1 or pj.size == 1:
        return 0.0
    log_counts = np.log(counts)
    share = counts / total
    outer = pi.take(rows).astype(np.int64, copy=False) * pj.take(cols).astype(np.int64, copy=False)
    log_outer = -np.log(outer) + math.log(pi.sum()) + math.log(pj.sum())
    mi = share * (log_counts - math.log(total)) + share * log_outer
    mi = np.where(np.abs(mi) < np.finfo(mi.dtype).eps, 0.0, mi)
    return float(np.clip(mi.sum(), 0.0, None))


def mutual_info_score(labels_true, labels_pred, *, contingency=None):
    """Mutual information (natural log) of two clusterings, or of a given contingency matrix. Same
    as sklearn.metrics.mutual_info_score."""
    validate("mutual_info_score", labels_true=(labels_true, [ARRAY, NONE]), labels_pred=(labels_pred, [ARRAY, NONE]),
             contingency=(contingency, [ARRAY, SPARSE, NONE]))
    if contingency is None:
        t = table(*check_clusterings(labels_true, labels_pred))
        t.n = t.counts.sum()
    else:
        t = _table_of_matrix(contingency)
    return _mutual_info(t)


def homogeneity_completeness_v_measure(labels_true, labels_pred, *, beta=1.0):
    """(homogeneity, completeness, V-measure) of a clustering against the true classes. Same as
    sklearn.metrics.homogeneity_completeness_v_measure."""
    validate("homogeneity_completeness_v_measure", labels_true=(labels_true, [ARRAY]),
             labels_pred=(labels_pred, [ARRAY]), beta=(beta, _BETA))
    return _hcv(labels_true, labels_pred, beta)


def _hcv(labels_true, labels_pred, beta=1.0):
    labels_true, labels_pred = check_clusterings(labels_true, labels_pred)
    if len(labels_true) == 0:
        return 1.0, 1.0, 1.0
    t = table(labels_true, labels_pred)
    h_true, h_pred = _entropy(t.row_totals), _entropy(t.col_totals)
    t.n = t.counts.sum()
    mi = _mutual_info(t)
    homogeneity = mi / h_true if h_true else 1.0
    completeness = mi / h_pred if h_pred else 1.0
    if homogeneity + completeness == 0.0:
        v = 0.0
    else:
        v = (1 + beta) * homogeneity * completeness / (beta * homogeneity + completeness)
    return float(homogeneity), float(completeness), float(v)


def homogeneity_score(labels_true, labels_pred):
    """Whether each cluster holds only members of one class (1 = yes). Same as sklearn.metrics.homogeneity_score."""
    validate("homogeneity_score", labels_true=(labels_true, [ARRAY]), labels_pred=(labels_pred, [ARRAY]))
    return _hcv(labels_true, labels_pred)[0]


def completeness_score(labels_true, labels_pred):
    """Whether all members of a class are in one cluster (1 = yes). Same as sklearn.metrics.completeness_score."""
    validate("completeness_score", labels_true=(labels_true, [ARRAY]), labels_pred=(labels_pred, [ARRAY]))
    return _hcv(labels_true, labels_pred)[1]


def v_measure_score(labels_true, labels_pred, *, beta=1.0):
    """Weighted harmonic mean of homogeneity and completeness. Same as sklearn.metrics.v_measure_score."""
    validate("v_measure_score", labels_true=(labels_true, [ARRAY]), labels_pred=(labels_pred, [ARRAY]),
             beta=(beta, _BETA))
    return _hcv(labels_true, labels_pred, beta)[2]


def _average(u, v, method):
    if method == "min":
        return min(u, v)
    if method == "geometric":
        return np.sqrt(u * v)
    if method == "arithmetic":
        return np.mean([u, v])
    return max(u, v)


# The C library's lgamma and exp (those of scikit-learn's compiled expected mutual information;
# numpy's own exp differs from them in the last bit); math.lgamma is Python's own.
try:
    _libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    _libm.lgamma.restype = ctypes.c_double
    _libm.lgamma.argtypes = [ctypes.c_double]
    _c_lgamma = _libm.lgamma
except (OSError, AttributeError):  # pragma: no cover - no C library to load
    _c_lgamma = math.lgamma

try:
    from scipy.special import gammaln as _gammaln
except ImportError:  # pragma: no cover - exercised only without scipy
    def _gammaln(x):
        return np.array([_c_lgamma(v) for v in np.ravel(x).tolist()]).reshape(np.shape(x))


class _LgammaTable:
    """The C library's lgamma of the integers 0, 1, ..., n, indexed by integer arrays and computed
    on first use (the sum reads a few of the n + 1 values; computing all of them one C call at a
    time would cost more than the rest of adjusted_mutual_info_score for large n)."""

    def __init__(self, n):
        self.values = np.full(n + 1, np.nan)
        self.values[0] = np.inf

    def __getitem__(self, k):
        v = self.values[k]
        missing = np.isnan(v)
        if np.any(missing):
            needed = np.unique(np.asarray(k)[missing])
            self.values[needed] = [_c_lgamma(float(x)) for x in needed.tolist()]
            v = self.values[k]
        return v


_DEAD = -746.0  # exp of less is 0.0 (the smallest subnormal is exp(-745.13...))


def _alive_range(a, b, n, ii, jj, start, end, gln_a, gln_b, gln_na, gln_nb, gln_nnij, lgamma):
    """For each pair (i, j): the nij of [start, end) whose term is not 0. gln is the log of the
    hypergeometric probability of nij, concave in nij: the terms whose exp does not underflow form
    one interval around the mode (whose probability is at least 1 / n); two bisections find it.
    The terms outside are zeros in scikit-learn's sum, which leave it as it is."""
    ai, bj = a[ii], b[jj]
    fixed = gln_a[ii] + gln_b[jj] + gln_na[ii] + gln_nb[jj]

    def alive(k):
        gln = fixed - gln_nnij[k] - lgamma[ai - k + 1] - lgamma[bj - k + 1] - lgamma[n - ai - bj + k + 1]
        return gln > _DEAD

    last = end - 1
    nonempty = last >= start
    mode = np.clip((ai + 1) * (bj + 1) // (n + 2), start, np.maximum(last, start))
    lo, hi = start.copy(), mode.copy()  # the first alive nij in [start, mode]
    while np.any(lo < hi):
        mid = (lo + hi) // 2
        up = alive(np.where(nonempty, mid, 1)) & (lo < hi)
        hi = np.where(up, mid, hi)
        lo = np.where(~up & (lo < hi), mid + 1, lo)
    first = lo
    lo, hi = mode.copy(), np.maximum(last, mode)  # the last alive nij in [mode, end - 1]
    while np.any(lo < hi):
        mid = (lo + hi + 1) // 2
        up = alive(np.where(nonempty, mid, 1)) & (lo < hi)
        lo = np.where(up, mid, lo)
        hi = np.where(~up & (lo < hi), mid - 1, hi)
    return np.where(nonempty, first, start), np.where(nonempty, lo + 1, end)


def _emi(row_totals, col_totals, n, chunk=1 << 20):
    a = np.ravel(row_totals).astype(np.int64, copy=False)
    b = np.ravel(col_totals).astype(np.int64, copy=False)
    if a.size == 1 or b.size == 1:
        return 0.0
    nijs = np.arange(0, max(np.max(a), np.max(b)) + 1, dtype="float")
    nijs[0] = 1
    term1 = nijs / n
    log_a, log_b = np.log(a), np.log(b)
    log_nnij = np.log(n) + np.log(nijs)
    gln_a, gln_b = _gammaln(a + 1), _gammaln(b + 1)
    gln_na, gln_nb = _gammaln(n - a + 1), _gammaln(n - b + 1)
    gln_nnij = _gammaln(nijs + 1) + _gammaln(n + 1)
    lgamma = _LgammaTable(n + 1)
    # every (i, j, nij) in scikit-learn's loop order, a chunk of pairs (i, j) at a time
    ii, jj = np.divmod(np.arange(a.size * b.size, dtype=np.int64), b.size)
    start = np.maximum(1, a[ii] - n + b[jj])
    end = np.minimum(a[ii], b[jj]) + 1
    start, end = _alive_range(a, b, n, ii, jj, start, end, gln_a, gln_b, gln_na, gln_nb, gln_nnij, lgamma)
    length = np.maximum(end - start, 0)
    emi = 0.0
    cum = np.cumsum(length)
    cuts = np.searchsorted(cum, np.arange(chunk, int(cum[-1]), chunk), side="right")
    edges = np.unique(np.concatenate(([0], cuts, [length.size])))
    for lo, hi in zip(edges[:-1].tolist(), edges[1:].tolist()):
        lens = length[lo:hi]
        i = np.repeat(ii[lo:hi], lens)
        j = np.repeat(jj[lo:hi], lens)
        offsets = np.arange(lens.sum()) - np.repeat(np.cumsum(lens) - lens, lens)
        nij = np.repeat(start[lo:hi], lens) + offsets
        if nij.size == 0:
            continue
        term2 = log_nnij[nij] - log_a[i] - log_b[j]
        gln = (gln_a[i] + gln_b[j] + gln_na[i] + gln_nb[j] - gln_nnij[nij] - lgamma[a[i] - nij + 1]
               - lgamma[b[j] - nij + 1] - lgamma[n - a[i] - b[j] + nij + 1])
        # The C library's exp (numpy's own differs in the last bit), called only where it does not
        # underflow to 0: those terms are zeros, which leave the running sum as it is.
        term3 = np.zeros(gln.shape[0], dtype=np.float64)
        alive = np.flatnonzero(gln > _DEAD)
        term3[alive] = list(map(math.exp, gln[alive].tolist()))
        terms = term1[nij[alive]] * term2[alive] * term3[alive]
        emi = float(np.cumsum(np.concatenate(([emi], terms)))[-1])  # added one after the other, as a loop does
    return emi


def expected_mutual_information(contingency, n_samples):
    """Expected mutual information of two labelings with the margins of the contingency matrix,
    under the hypergeometric model of chance. Same as
    sklearn.metrics.cluster.expected_mutual_information."""
    row_totals = np.ravel(contingency.sum(axis=1))
    col_totals = np.ravel(contingency.sum(axis=0))
    return _emi(row_totals, col_totals, int(n_samples))


def adjusted_mutual_info_score(labels_true, labels_pred, *, average_method="arithmetic"):
    """Mutual information adjusted for chance, normalised by a mean of the two entropies. Same as
    sklearn.metrics.adjusted_mutual_info_score."""
    validate("adjusted_mutual_info_score", labels_true=(labels_true, [ARRAY]), labels_pred=(labels_pred, [ARRAY]),
             average_method=(average_method, _average_options("adjusted_mutual_info_score")))
    labels_true, labels_pred = check_clusterings(labels_true, labels_pred)
    n = labels_true.shape[0]
    t = table(labels_true, labels_pred)
    n_classes, n_clusters = t.shape
    if n_classes == n_clusters == 1 or n_classes == n_clusters == 0:
        return 1.0
    if n_classes == 1 or n_clusters == 1:
        return 0.0
    t.n = t.counts.sum()
    mi = _mutual_info(t)
    emi = _emi(t.row_totals, t.col_totals, n)
    normalizer = _average(_entropy(t.row_totals), _entropy(t.col_totals), average_method)
    eps = np.finfo("float64").eps
    denominator = normalizer - emi
    denominator = min(denominator, -eps) if denominator < 0 else max(denominator, eps)
    numerator = mi - emi
    numerator = min(numerator, -eps) if numerator < 0 else max(numerator, eps)
    return float(numerator / denominator)


def normalized_mutual_info_score(labels_true, labels_pred, *, average_method="arithmetic"):
    """Mutual information divided by a mean of the two entropies. Same as
    sklearn.metrics.normalized_mutual_info_score."""
    validate("normalized_mutual_info_score", labels_true=(labels_true, [ARRAY]),
             labels_pred=(labels_pred, [ARRAY]),
             average_method=(average_method, _average_options("normalized_mutual_info_score")))
    labels_true, labels_pred = check_clusterings(labels_true, labels_pred)
    t = table(labels_true, labels_pred)
    n_classes, n_clusters = t.shape
    if n_classes == n_clusters == 1 or n_classes == n_clusters == 0:
        return 1.0
    t.n = t.counts.sum()
    mi = _mutual_info(t)
    if mi == 0:
        return 0.0
    normalizer = _average(_entropy(t.row_totals), _entropy(t.col_totals), average_method)
    return float(mi / normalizer)


# ----------------------------------------------------------------------------------------------
# Scores of one clustering of feature vectors


def _samples_and_labels(X, labels):
    """check_X_y(X, labels): a 2-D numeric X (objects as float64) and 1-D labels of its length."""
    x = as_array(X, "X")
    if x.dtype.kind in "USV":
        raise ValueError("dtype='numeric' is not compatible with arrays of bytes/strings.Convert your data to "
                         "numeric values explicitly instead.")
    if x.dtype.kind == "O":
        x = x.astype(np.float64)
    check_samples_2d(x, "X", ensure_2d=True)
    y = as_array(labels, "labels")
    if y.ndim == 2 and y.shape[1] == 1:
        warnings.warn("A column-vector y was passed when a 1d array was expected. Please change the shape of y to "
                      "(n_samples, ), for example using ravel().", _data_conversion_warning(), stacklevel=3)
        y = y.ravel()
    elif y.ndim != 1:
        raise ValueError(f"y should be a 1d array, got an array of shape {y.shape} instead.")
    _assert_finite(y, "y")
    check_consistent_length(x, y)
    return x, y


def _data_conversion_warning():
    try:
        from sklearn.exceptions import DataConversionWarning
    except ImportError:  # pragma: no cover - exercised only without scikit-learn
        return UserWarning
    return DataConversionWarning


def _check_number_of_labels(n_labels, n_samples):
    if not 1 < n_labels < n_samples:
        raise ValueError(f"Number of labels is {n_labels}. Valid values are 2 to n_samples - 1 (inclusive)")


def calinski_harabasz_score(X, labels):
    """Ratio of the between-cluster to the within-cluster dispersion (variance ratio criterion).
    Same as sklearn.metrics.calinski_harabasz_score."""
    validate("calinski_harabasz_score", X=(X, [ARRAY]), labels=(labels, [ARRAY]))
    if isinstance(X, np.ndarray):
        X = X.astype(np.float64, copy=False)
    X, labels = _samples_and_labels(X, labels)
    codes = np.unique(labels, return_inverse=True)[1].ravel()
    n_samples = X.shape[0]
    n_labels = int(codes.max()) + 1
    _check_number_of_labels(n_labels, n_samples)
    between, within = 0.0, 0.0
    mean = np.mean(X, axis=0)
    # one cluster at a time, as scikit-learn adds them up
    for k in range(n_labels):
        members = X[codes == k]
        centre = np.mean(members, axis=0)
        between += members.shape[0] * np.sum((centre - mean) ** 2)
        within += np.sum((members - centre) ** 2)
    return float(1.0 if within == 0.0 else between * (n_samples - n_labels) / (within * (n_labels - 1.0)))


# The scores that need distances between the samples (silhouette, Davies-Bouldin).
from assay._cluster_distances import (  # noqa: E402
    consensus_score,
    davies_bouldin_score,
    silhouette_samples,
    silhouette_score,
)

__all__ += ["consensus_score", "davies_bouldin_score", "silhouette_samples", "silhouette_score"]
