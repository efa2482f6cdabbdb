"""assay.metrics: ranking metrics of several labels or documents per sample (DCG, NDCG, coverage
error, label ranking average precision, label ranking loss).

Same names, signatures, defaults, return types, warnings and numbers as sklearn.metrics. These are
numpy implementations today, without a loop over the samples: one sort of all the scores by (sample,
score), the tie groups and the counts of relevant labels from it; each sample's sum is numpy's sum
of that sample's terms in scikit-learn's order (rows of equal length summed together as one matrix,
which numpy sums row by row exactly as it sums one row), so the values agree to the bit.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from assay._params import ARRAY, BOOL, NONE, SPARSE, Interval, validate
from assay._scores_more import _numeric_2d, samples_of
from assay._inputs import as_numpy, on_host
from assay._targets import as_array, type_of_target

__all__ = [
    "coverage_error",
    "dcg_score",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "ndcg_score",
]


def _dense(y, name):
    """A scipy sparse matrix as a dense array (the metrics below read every cell)."""
    if type(y).__module__.startswith("scipy.sparse"):
        y = y.toarray()
    return _numeric_2d(y, name)


def _two_d(y, name):
    """check_array(ensure_2d=True) of numeric values."""
    a = as_array(y.toarray() if type(y).__module__.startswith("scipy.sparse") else y, name)
    if a.ndim == 1:
        raise ValueError(f"Expected 2D array, got 1D array instead:\narray={a}.\nReshape your data either using "
                         "array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) if it "
                         "contains a single sample.")
    return _dense(a, name)


def segment_sums(values, lengths):
    """The sum of each consecutive segment of values (of the given lengths, each > 0), as numpy sums
    each one alone: the segments of one length are the rows of one matrix summed along its rows."""
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.intp)
    out = np.empty(lengths.shape[0], dtype=values.dtype)
    for m in np.unique(lengths):
        rows = np.flatnonzero(lengths == m)
        out[rows] = values[starts[rows, None] + np.arange(m)].sum(axis=1)
    return out


def _groups(keys):
    """Sort the cells of a 2-D array of keys by (row, key): (the order, the row of each sorted cell,
    the index in sorted order of the last cell of each cell's tie group (same row, equal key), for
    the sorted cells)."""
    n, m = keys.shape
    rows = np.repeat(np.arange(n), m)
    flat = keys.ravel()
    order = np.lexsort((flat, rows))
    sorted_rows, sorted_keys = rows[order], flat[order]
    ends = np.ones(order.shape[0], dtype=bool)
    if order.shape[0] > 1:
        ends[:-1] = (sorted_rows[1:] != sorted_rows[:-1]) | (sorted_keys[1:] != sorted_keys[:-1])
    end_at = np.flatnonzero(ends)
    last = end_at[np.searchsorted(end_at, np.arange(order.shape[0]))]
    return order, sorted_rows, last, ends


def _relevant_below(relevant, order, sorted_rows, last, m):
    """For each sorted cell: how many relevant cells of its row have a key <= its key."""
    rel = relevant.ravel()[order].astype(np.int64)
    running = np.cumsum(rel)
    row_start = sorted_rows * m
    before_row = np.where(row_start > 0, running[np.maximum(row_start - 1, 0)], 0)
    return running[last] - before_row


def _targets(func, y_true, y_score, sample_weight):
    validate(func, y_true=(y_true, [ARRAY, SPARSE]), y_score=(y_score, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]))


def label_ranking_average_precision_score(y_true, y_score, *, sample_weight=None):
    """Mean over the samples of the average, over each relevant label, of the fraction of the labels
    ranked at or above it that are relevant. Same as sklearn.metrics.label_ranking_average_precision_score."""
    _targets("label_ranking_average_precision_score", y_true, y_score, sample_weight)
    samples_of(y_true, y_score, sample_weight)
    y_true = _dense(y_true, "y_true")
    y_score = _numeric_2d(y_score, "y_score")
    if y_true.shape != y_score.shape:
        raise ValueError("y_true and y_score have different shape")
    kind = type_of_target(y_true, "y_true")
    if kind != "multilabel-indicator" and not (kind == "binary" and y_true.ndim == 2):
        raise ValueError(f"{kind} format is not supported")
    neg = -y_score
    n, m = y_true.shape
    relevant = y_true != 0
    order, sorted_rows, last, _ = _groups(neg)
    rank = np.empty(n * m, dtype=np.int64)
    rank[order] = last - sorted_rows * m + 1
    among = np.empty(n * m, dtype=np.int64)
    among[order] = _relevant_below(relevant, order, sorted_rows, last, m)
    count = relevant.sum(axis=1)
    partial = (count > 0) & (count < m)
    aux = np.ones(n, dtype=np.float64)
    if np.any(partial):
        cells = relevant & partial[:, None]
        ratios = among.reshape(n, m)[cells] / rank.reshape(n, m)[cells]
        aux[partial] = segment_sums(ratios, count[partial]) / count[partial]
    if sample_weight is not None:
        aux = aux * as_numpy(sample_weight, "sample_weight")
    total = np.cumsum(aux)[-1] if n else 0.0
    total = total / (n if sample_weight is None else np.sum(sample_weight))
    return float(total)


def coverage_error(y_true, y_score, *, sample_weight=None):
    """Mean over the samples of how far down the ranking one must go to cover every relevant label.
    Same as sklearn.metrics.coverage_error."""
    validate("coverage_error", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]),
             sample_weight=(sample_weight, [ARRAY, NONE]))
    y_true = _two_d(y_true, "y_true")
    y_score = _two_d(y_score, "y_score")
    samples_of(y_true, y_score, sample_weight)
    kind = type_of_target(y_true, "y_true")
    if kind != "multilabel-indicator":
        raise ValueError(f"{kind} format is not supported")
    if y_true.shape != y_score.shape:
        raise ValueError("y_true and y_score have different shape")
    relevant = y_true != 0
    has = relevant.any(axis=1)
    lowest = np.where(has, np.min(np.where(relevant, y_score, np.max(y_score)), axis=1), 0)
    coverage = np.where(has, (y_score >= lowest[:, None]).sum(axis=1), 0)
    return float(np.average(coverage, weights=sample_weight))


def label_ranking_loss(y_true, y_score, *, sample_weight=None):
    """Mean over the samples of the fraction of (relevant, irrelevant) label pairs in the wrong order
    (ties count as wrong). Same as sklearn.metrics.label_ranking_loss."""
    _targets("label_ranking_loss", y_true, y_score, sample_weight)
    y_true = _dense(y_true, "y_true")
    y_score = _numeric_2d(y_score, "y_score")
    samples_of(y_true, y_score, sample_weight)
    kind = type_of_target(y_true, "y_true")
    if kind != "multilabel-indicator":
        raise ValueError(f"{kind} format is not supported")
    if y_true.shape != y_score.shape:
        raise ValueError("y_true and y_score have different shape")
    n, m = y_true.shape
    relevant = y_true != 0
    order, sorted_rows, last, _ = _groups(y_score)
    below = _relevant_below(relevant, order, sorted_rows, last, m)
    wrong = ~relevant.ravel()[order]
    loss = np.bincount(sorted_rows[wrong], weights=below[wrong], minlength=n).astype(np.float64)
    positives = relevant.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        loss /= (m - positives) * positives
    loss[(positives == 0) | (positives == m)] = 0.0
    return float(np.average(loss, weights=sample_weight))


def _check_dcg_target(y_true):
    kind = type_of_target(y_true, "y_true")
    formats = ("multilabel-indicator", "continuous-multioutput", "multiclass-multioutput")
    if kind not in formats:
        raise ValueError(f"Only {formats} formats are supported. Got {kind} instead")


def _dcg_per_sample(y_true, y_score, k=None, log_base=2, ignore_ties=False):
    n, m = y_true.shape
    discount = 1 / (np.log(np.arange(m) + 2) / np.log(log_base))
    if k is not None:
        discount[k:] = 0
    if ignore_ties:
        ranking = np.argsort(y_score)[:, ::-1]
        ranked = y_true[np.arange(ranking.shape[0])[:, np.newaxis], ranking]
        return discount.dot(ranked.T)
    # Ties share the mean gain of their group and the group's discounts.
    if y_score.shape[1] != m:  # scikit-learn's np.add.at of the gains to the tie groups refuses it
        raise ValueError("array is not broadcastable to correct shape")
    discount_cumsum = np.cumsum(discount)
    order, sorted_rows, last, ends = _groups(-y_score)
    group_of_sorted = np.concatenate(([0], np.cumsum(ends)[:-1]))  # the group of each sorted cell
    group = np.empty(n * m, dtype=np.int64)
    group[order] = group_of_sorted
    n_groups = int(np.count_nonzero(ends))
    gains = np.bincount(group, weights=y_true.ravel().astype(np.float64), minlength=n_groups)
    counts = np.bincount(group, minlength=n_groups)
    gains /= counts
    end_cells = np.flatnonzero(ends)
    position = end_cells - sorted_rows[end_cells] * m  # within the row, 0-based, of the group's last cell
    group_rows = sorted_rows[end_cells]
    first = np.ones(n_groups, dtype=bool)
    first[1:] = group_rows[1:] != group_rows[:-1]
    reached = discount_cumsum[position]
    sums = np.empty(n_groups)
    sums[first] = reached[first]
    rest = ~first
    sums[rest] = reached[rest] - reached[np.flatnonzero(rest) - 1]
    per_row = np.bincount(group_rows, minlength=n)
    return segment_sums(gains * sums, per_row)


def _dcg_inputs(y_true, y_score, sample_weight):
    y_true = _numeric_2d(y_true, "y_true")
    y_score = _numeric_2d(y_score, "y_score")
    samples_of(y_true, y_score, sample_weight)
    return y_true, y_score


def dcg_score(y_true, y_score, *, k=None, log_base=2, sample_weight=None, ignore_ties=False):
    """Discounted cumulative gain of the ranking y_score induces on the gains y_true (ties averaged
    unless ignore_ties). Same as sklearn.metrics.dcg_score."""
    validate("dcg_score", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]),
             k=(k, [Interval(Integral, 1, None, closed="left"), NONE]),
             log_base=(log_base, [Interval(Real, 0.0, None, closed="neither")]),
             sample_weight=(sample_weight, [ARRAY, NONE]), ignore_ties=(ignore_ties, [BOOL]))
    y_true, y_score = _dcg_inputs(y_true, y_score, sample_weight)
    sample_weight = on_host(sample_weight, "sample_weight")  # a device array: one host copy
    _check_dcg_target(y_true)
    return float(np.average(_dcg_per_sample(y_true, y_score, k=k, log_base=log_base, ignore_ties=ignore_ties),
                            weights=sample_weight))


def ndcg_score(y_true, y_score, *, k=None, sample_weight=None, ignore_ties=False):
    """DCG divided by the DCG of the ideal ranking (0 where every gain is 0). Same as
    sklearn.metrics.ndcg_score."""
    validate("ndcg_score", y_true=(y_true, [ARRAY]), y_score=(y_score, [ARRAY]),
             k=(k, [Interval(Integral, 1, None, closed="left"), NONE]),
             sample_weight=(sample_weight, [ARRAY, NONE]), ignore_ties=(ignore_ties, [BOOL]))
    y_true, y_score = _dcg_inputs(y_true, y_score, sample_weight)
    sample_weight = on_host(sample_weight, "sample_weight")  # a device array: one host copy
    if y_true.min() < 0:
        raise ValueError("ndcg_score should not be used on negative y_true values.")
    if y_true.ndim > 1 and y_true.shape[1] <= 1:
        raise ValueError("Computing NDCG is only meaningful when there is more than 1 document. "
                         f"Got {y_true.shape[1]} instead.")
    _check_dcg_target(y_true)
    gain = _dcg_per_sample(y_true, y_score, k, ignore_ties=ignore_ties)
    ideal = _dcg_per_sample(y_true, y_true, k, ignore_ties=True)
    none = ideal == 0
    gain[none] = 0
    gain[~none] /= ideal[~none]
    return float(np.average(gain, weights=sample_weight))

