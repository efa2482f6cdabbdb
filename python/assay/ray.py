"""assay on Ray Data: the exact report of a Ray Dataset, computed on the Ray workers.

``assay.ray.evaluate(ds, label="y", score="p")`` turns each block of the dataset into one mergeable
evaluation state (the C++ core's, include/assay/scale/state.hpp: the block's Arrow batches go into
the state without a Python loop per row), serialised to bytes; the blobs are merged by Ray tasks in
a tree (``split_every`` at a time) and the driver finishes the :class:`~assay.Report` that
``assay.report`` gives on all rows in one process. Merge is associative and commutative and the
state canonical, so neither the blocks nor the shape of the tree change a bit of the result.

A task that Ray retries (a worker that died, ``max_retries``) contributes exactly one state: a task's
output is its block's state, returned only after the whole block was read, so a retried attempt
replaces the failed one and nothing is counted twice.
"""

from __future__ import annotations

from assay import _scale

__all__ = ["evaluate"]


def _block_function(spec):
    """The state of one block (an Arrow table), as a one-row table (state, missing): what
    ``map_batches`` runs on each block, and the tasks of the row-numbered path with its first row's
    index among all rows."""
    opened = _scale.on_worker(spec, "ray")

    def block_state(table, first_row=0):
        scale, s = opened()
        import pyarrow as pa

        # (an empty block may have no columns at all)
        batches = table.select(s.columns).to_batches() if table.num_rows else []
        blob, missing = scale.state_of_batches(batches, s, first_row)
        return pa.table({"state": pa.array([blob], pa.binary()), "missing": pa.array([missing], pa.int64())})

    return block_state


def _merge_function(spec):
    """The merge of tables of (state, missing) rows into one such row (the tree's inner nodes)."""
    opened = _scale.on_worker(spec, "ray")

    def merge(*tables):
        scale, s = opened()
        import pyarrow as pa

        tables = [t for t in tables if t.num_rows]  # (the blocks of no task: no columns either)
        blobs = [b for t in tables for b in t.column("state").to_pylist()]
        missing = sum(m for t in tables for m in t.column("missing").to_pylist())
        if not blobs:
            blobs = [s.new_state().serialize()]
        blob = scale.tree_merge(blobs, s, fanout=max(1, len(blobs)))
        return pa.table({"state": pa.array([blob], pa.binary()), "missing": pa.array([missing], pa.int64())})

    return merge


def _states(dataset, spec, remote_args):
    """References to tables of (state, missing) rows, one row per block of `dataset`."""
    import ray

    if not spec.needs_row_ids:
        # Streamed: each block becomes one state where it is (fused with the dataset's own last step).
        states = dataset.select_columns(spec.columns).map_batches(
            _block_function(spec), batch_format="pyarrow", batch_size=None, zero_copy_batch=True, **remote_args)
        return states.to_arrow_refs()
    # Each row's index among all rows: the blocks in the dataset's order (to_arrow_refs), a first
    # round of tasks counting their rows, then one state task per block given its first row's index.
    blocks = dataset.to_arrow_refs()
    # (a function defined here is shipped by value: a worker without assay can run it)
    count = ray.remote(lambda table: table.num_rows).options(**remote_args)
    rows = ray.get([count.remote(b) for b in blocks])
    task = ray.remote(_block_function(spec)).options(**remote_args)
    refs, first = [], 0
    for b, n in zip(blocks, rows):
        refs.append(task.remote(b, first))
        first += int(n)
    return refs


def evaluate(dataset, *, label, score=None, pred=None, proba=None, weight=None, pos_label=None, threshold=0.5,
             task="auto", ci=None, method="auto", replicates=2000, random_state=0, drop_missing=False, beta=None,
             top_k=2, zero_division=0, keep_curves=False, split_every=8, by=None, max_fpr=None, min_tpr=None,
             min_precision=None, min_recall=None, confidence=0.95, ray_remote_args=None):
    """The exact report of a Ray Dataset (the report of ``assay.report`` on all its rows).

    Arguments as :func:`assay.dask.evaluate`: ``split_every`` is the fan-in of the tree of merges.
    Each block becomes one state, in the task that produced it (``map_batches`` on whole blocks,
    Arrow batches). Intervals with sample weights or ``method='bootstrap'``, ``task='regression'``
    (``pred`` the predicted values) and ``proba`` (class-probability columns) need each row's index
    among all rows: then the dataset is executed first (``to_arrow_refs``, its blocks held in Ray's
    object store, every column of it: select the evaluated ones first in a wide dataset), the rows
    are numbered in the order of its blocks (deterministic for a materialized dataset or with
    ``DataContext.execution_options.preserve_order``) and one task per block builds its state. ``ray_remote_args`` (a dict, e.g. ``{"num_cpus": 1, "max_retries": 3,
    "runtime_env": {...}}``) goes to every task this starts. Runs on the Ray cluster the driver is
    connected to (``ray.init``); its workers' Python must import assay (docs/scaling.md, "Where the
    workers get assay"): a worker without it fails with a RuntimeError that names its Python and
    the fix."""
    import ray

    spec = _scale.Spec("assay.ray.evaluate", label=label, score=score, pred=pred, proba=proba, weight=weight,
                       pos_label=pos_label, threshold=threshold, task=task, drop_missing=drop_missing, ci=ci,
                       method=method, replicates=replicates, random_state=random_state, beta=beta, top_k=top_k,
                       zero_division=zero_division, keep_curves=keep_curves, by=by, max_fpr=max_fpr, min_tpr=min_tpr,
                       min_precision=min_precision, min_recall=min_recall, confidence=confidence)
    if not isinstance(split_every, int) or split_every < 2:
        raise ValueError(f"assay.ray.evaluate: split_every is {split_every!r}; it must be an integer of at least 2")
    if ray_remote_args is not None and not isinstance(ray_remote_args, dict):
        raise ValueError(f"assay.ray.evaluate: ray_remote_args is {ray_remote_args!r}; it must be a dict of "
                         "ray.remote options")
    remote_args = dict(ray_remote_args or {})
    names = dataset.columns(fetch_if_missing=False)
    if names is not None:
        _scale.check_columns(names, spec)
    with _scale.worker_failures(spec.where, "ray"):
        merge = ray.remote(_merge_function(spec)).options(**remote_args)
        # (a task's arguments are given one by one: Ray passes a reference given so as its value)
        refs = _scale.merge_levels(_states(dataset, spec, remote_args), lambda group: merge.remote(*group),
                                   split_every)
        tables = ray.get(refs)
    blobs = [(b, m) for t in tables if t.num_rows
             for b, m in zip(t.column("state").to_pylist(), t.column("missing").to_pylist())]
    return _scale.finish(blobs, spec)
