"""assay on Dask: the exact report of a dask DataFrame, computed on the workers.

``assay.dask.evaluate(ddf, label="y", score="p")`` turns each partition into one mergeable evaluation
state (the C++ core's, include/assay/scale/state.hpp: the partition goes to Arrow, then into the state
without a Python loop per row), serialised to bytes; the blobs are merged on the workers in a tree
(``split_every`` at a time) and the driver finishes the :class:`~assay.Report` that ``assay.report``
gives on all rows in one process. Merge is associative and commutative and the state canonical, so
the partitioning and the shape of the tree do not change a bit of the result.
"""

from __future__ import annotations

from assay import _scale

__all__ = ["evaluate"]


def _partition_function(spec):
    """The state of one partition (a pandas DataFrame whose first row has the given index among all
    rows): (blob, missing rows). Shipped by value with the spec as bytes (_scale.on_worker): a
    worker whose Python lacks assay fails with an error that names that Python."""
    opened = _scale.on_worker(spec, "dask")

    def partition_state(pdf, first_row=0):
        scale, s = opened()
        import pyarrow as pa

        batch = pa.RecordBatch.from_pandas(pdf[s.columns], preserve_index=False)
        return scale.state_of_batches([batch], s, first_row)

    return partition_state


def _combine_function(spec):
    """(blob, missing) pairs merged into one (the tree's inner nodes)."""
    opened = _scale.on_worker(spec, "dask")

    def combine(parts):
        scale, s = opened()
        blob = scale.tree_merge([b for b, _ in parts], s, fanout=len(parts) or 1)
        return blob, sum(m for _, m in parts)

    return combine


def evaluate(ddf, *, label, score=None, pred=None, proba=None, weight=None, pos_label=None, threshold=0.5, task="auto",
             ci=None, method="auto", replicates=2000, random_state=0, drop_missing=False, beta=None, top_k=2,
             zero_division=0, keep_curves=False, split_every=8, by=None, max_fpr=None, min_tpr=None, min_precision=None,
             min_recall=None, confidence=0.95):
    """The exact report of a dask DataFrame (the report of ``assay.report`` on all its rows).

    Arguments as :func:`assay.spark.evaluate`; ``split_every`` is the fan-in of the tree of merges.
    Intervals with sample weights or ``method='bootstrap'``, ``task='regression'`` (``pred`` the
    predicted values) and ``proba`` (class-probability columns) need each row's index among all rows:
    a first pass counts each partition's rows.
    Computes with the current dask scheduler (e.g. a ``distributed.Client``). ``by`` (one or two slice
    column names) gives the sliced report, as :func:`assay.spark.evaluate`."""
    import dask

    spec = _scale.Spec("assay.dask.evaluate", label=label, score=score, pred=pred, proba=proba, weight=weight,
                       pos_label=pos_label, threshold=threshold, task=task, drop_missing=drop_missing, ci=ci,
                       method=method, replicates=replicates, random_state=random_state, beta=beta, top_k=top_k,
                       zero_division=zero_division, keep_curves=keep_curves, by=by, max_fpr=max_fpr, min_tpr=min_tpr,
                       min_precision=min_precision, min_recall=min_recall, confidence=confidence)
    _scale.check_columns(list(ddf.columns), spec)
    if int(split_every) < 2:
        raise ValueError(f"assay.dask.evaluate: split_every is {split_every!r}; it must be at least 2")
    delayed = ddf[spec.columns].to_delayed()
    first = [0] * len(delayed)
    if spec.needs_row_ids:
        # Intervals that resample rows and regression need each row's index among all rows: one pass
        # counts the rows of each partition.
        lengths = ddf.map_partitions(len).compute()
        for i in range(1, len(delayed)):
            first[i] = first[i - 1] + int(lengths.iloc[i - 1])
    state, combine = dask.delayed(_partition_function(spec)), dask.delayed(_combine_function(spec))
    parts = _scale.merge_levels([state(d, f) for d, f in zip(delayed, first)], combine, int(split_every))
    with _scale.worker_failures(spec.where, "dask"):
        (blob, missing), = dask.compute(parts[0]) if parts else ((spec.new_state().serialize(), 0),)
    return _scale.finish([(blob, missing)], spec)
