"""Exact evaluation at scale, the part shared by the engines (Arrow streams, Spark, Dask): Arrow
record batches into the core's mergeable evaluation state (include/assay/scale/state.hpp), state
blobs merged in any order, and the finished :class:`~assay.Report`.

A state is updated batch by batch (each column converted by the package's one Arrow conversion,
python/src/arrow.cpp, which the label arrays of assay.metrics use too: numeric columns reach the
core without a copy; string labels are dictionary-encoded by Arrow's C++ kernels first, so no Python
loop per row), serialised to bytes on the
workers, merged on the driver (merge is associative and commutative and the state canonical, so the
partitioning and the merge order do not change a bit of the report) and finished into the report
``assay.report`` gives on all the rows at once.

Missing values (a null label, score, prediction or weight, or a NaN in a float column) are counted on
the workers; the driver refuses them unless ``drop_missing=True``, which skips those rows.
"""

from __future__ import annotations

import contextlib
import math
import re

import numpy as np

from assay import _core, _inputs
from assay._report import Report, SlicedReport, _label_text

_ZD = {0: "0", 1: "1"}


class Spec:
    """What to evaluate: column names and the state's options (picklable, sent to the workers)."""

    def __init__(self, where, *, label, score=None, pred=None, proba=None, weight=None, pos_label=None, threshold=0.5,
                 task="auto", drop_missing=False, ci=None, method="auto", replicates=2000, random_state=0, beta=None,
                 top_k=2, zero_division=0, keep_curves=False, by=None, max_fpr=None, min_tpr=None, min_precision=None,
                 min_recall=None, confidence=0.95, **unknown):
        if unknown:
            raise TypeError(f"{where}: unexpected argument(s) {', '.join(sorted(unknown))}")
        if by is not None:
            by = [by] if isinstance(by, str) else list(by) if isinstance(by, (list, tuple)) else by
            if not isinstance(by, list) or not 1 <= len(by) <= 2 or not all(isinstance(c, str) for c in by):
                raise ValueError(f"{where}: by is {by!r}; it must name 1 or 2 slice columns (a str or a list of str)")
            if len(by) == 2 and by[0] == by[1]:
                raise ValueError(f"{where}: by names the column {by[0]!r} twice; give two different columns")
        if ci is not None and not (isinstance(ci, (int, float)) and 0 < ci < 1):
            raise ValueError(f"{where}: ci is {ci!r}; it must be a confidence level in (0, 1)")
        if method not in ("auto", "wilson", "normal", "agresti_coull", "clopper_pearson", "bootstrap"):
            raise ValueError(f"{where}: method is {method!r}; it must be one of auto, wilson, normal, agresti_coull, "
                             "clopper_pearson, bootstrap")
        # Intervals that resample rows (with weights, or method='bootstrap') draw each row's Poisson
        # weight on its index among all rows: the state keeps every row (row_ids), and each partition
        # must be given its first row's index (the Arrow reader counts its stream's rows; Spark and
        # Dask count each partition's rows in a first pass).
        resample = ci is not None and (weight is not None or method == "bootstrap")
        given = [n for n, v in (("score", score), ("pred", pred), ("proba", proba)) if v is not None]
        if len(given) != 1:
            raise ValueError(f"{where}: give exactly one of score, pred (a column name) or proba (a list of column "
                             f"names); got {given or 'none'}")
        for name, v in (("label", label), ("score", score), ("pred", pred), ("weight", weight)):
            if v is not None and not isinstance(v, str):
                raise ValueError(f"{where}: {name} is {v!r}; it must be a column name (str)")
        if proba is not None:
            if isinstance(proba, str) or not all(isinstance(c, str) for c in proba) or len(proba) < 2:
                raise ValueError(f"{where}: proba is {proba!r}; it must be a list of at least 2 column names (one "
                                 "per class: named after the classes, or in sorted class order)")
            proba = list(proba)
        if task not in ("auto", "binary", "multiclass", "regression"):
            raise ValueError(f"{where}: task is {task!r}; it must be 'auto', 'binary', 'multiclass' or 'regression'")
        self.regression = task == "regression"
        if self.regression and pred is None:
            raise ValueError(f"{where}: task='regression' needs pred (the predicted values) and no score")
        # Every interval of regression and of class probabilities reads every row (the per-row losses of
        # the normal intervals, the Poisson bootstrap of the rest): the state keeps them too.
        resample = resample or (ci is not None and (self.regression or proba is not None))
        zd = _ZD.get(zero_division, "nan" if isinstance(zero_division, float) and math.isnan(zero_division)
                     else None)
        if zd is None:
            raise ValueError(f"{where}: zero_division is {zero_division!r}; it must be 0, 1 or nan")
        self.where = where
        # the report's "source": which engine read the rows (not part of the state's fingerprint)
        self.source = {"report": "arrow", "assay.spark.evaluate": "spark", "assay.dask.evaluate": "dask",
                       "assay.ray.evaluate": "ray"}.get(
            where, where)
        self.label, self.score, self.pred, self.weight, self.proba = label, score, pred, weight, proba
        self.columns = [c for c in (label, score, pred, weight) if c is not None] + (proba or [])
        if len(set(self.columns)) != len(self.columns):
            raise ValueError(f"{where}: the columns {self.columns} must be distinct")
        # Sliced reports (by=): the slice columns are read too (a null key is a missing row); the state
        # is the core's sliced state (include/assay/scale/sliced_state.hpp).
        self.by = by
        self.columns += [c for c in (by or []) if c not in self.columns]
        self.drop_missing = bool(drop_missing)
        # Rows carry their index among all rows: the Poisson bootstrap draws on it, regression's
        # percentage errors name the first zero target by it, class probabilities the first row that
        # does not sum to 1.
        self.needs_row_ids = resample or self.regression or proba is not None
        self.state_kw = dict(scores=score is not None, task=str(task),
                             pos_label=None if pos_label is None else _label_text(pos_label),
                             threshold=float(threshold), weighted=weight is not None,
                             drop_missing=self.drop_missing, label_name="y_true", prediction_name="",
                             row_ids=resample, values=self.regression, proba_names=proba)
        seed = int(random_state) if random_state is not None else None
        if ci is not None and seed is None:
            import random

            seed = random.randrange(2**31 - 1)
        self.finish_kw = dict(threshold=float(threshold), beta=None if beta is None else float(beta),
                              top_k=int(top_k), zero_division=zd, ci_level=None if ci is None else float(ci),
                              ci_method=str(method), replicates=int(replicates), seed=seed or 0,
                              keep_curves=bool(keep_curves) and by is None,
                              max_fpr=None if max_fpr is None else float(max_fpr),
                              min_tpr=None if min_tpr is None else float(min_tpr),
                              min_precision=None if min_precision is None else float(min_precision),
                              min_recall=None if min_recall is None else float(min_recall), confidence=float(confidence))

    def new_state(self):
        if self.by:
            return _core.SlicedState(**self.state_kw, source=self.source, by=self.by)
        return _core.EvaluationState(**self.state_kw, source=self.source)


def _pa():
    import pyarrow

    return pyarrow


def _chunk(col, name, where):
    """The one conversion of an Arrow array (python/src/arrow.cpp, through the Arrow PyCapsule
    interface): the same the label arrays of assay.metrics and assay.report go through
    (_inputs.from_arrow). A numeric array without nulls comes back as a NumPy view of its buffer;
    otherwise ("bool", uint8), ("strings", [str]) or ("dictionary", indices, values)."""
    return _inputs.arrow_chunks(col, where, repr(name))[0]


def _numbers(col, name, where):
    """A float64 NumPy view of an Arrow array without nulls (a copy only when the type is not float64)."""
    pa = _pa()
    t = col.type
    if pa.types.is_dictionary(t):
        col = col.dictionary_decode()
        t = col.type
    if not (pa.types.is_floating(t) or pa.types.is_integer(t) or pa.types.is_boolean(t) or pa.types.is_decimal(t)):
        raise ValueError(f"{where}: column {name!r} has type {t}; it must be numeric")
    if t != pa.float64():
        col = col.cast(pa.float64())
    return _chunk(col, name, where)


def _labels(col, name, where):
    """Keyword arguments of a label column: numbers (float64) or dictionary codes (int32) + spellings."""
    pa = _pa()
    import pyarrow.compute as pc

    t = col.type
    if pa.types.is_dictionary(t):
        vt = t.value_type
        if not (pa.types.is_string(vt) or pa.types.is_large_string(vt)):
            return {"num": _numbers(col, name, where)}
    elif pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        col = pc.dictionary_encode(col)  # Arrow's C++ kernel: no Python loop per row
    else:
        return {"num": _numbers(col, name, where)}
    _, codes, values = _chunk(col, name, where)
    return {"codes": np.ascontiguousarray(codes, dtype=np.int32), "dict": values[1]}


def _missing_mask(batch, spec):
    """The rows with a missing value in any evaluated column (null, or NaN in a float column)."""
    import pyarrow.compute as pc

    mask = None
    for c in spec.columns:
        col = batch.column(c)
        if col.null_count == 0 and not _pa().types.is_floating(col.type):
            continue
        m = pc.is_null(col, nan_is_null=True)
        mask = m if mask is None else pc.or_(mask, m)
    return mask


def update(state, batch, spec, first_row_id=0, counts=None):
    """Adds one Arrow RecordBatch, whose first row has index `first_row_id` among all rows, to `state`;
    returns the number of rows skipped as missing. With `counts` (the name of an integer column, each
    value >= 1), row i of the batch stands for counts[i] identical rows (the groups of a GROUP BY over
    every evaluated column): the state is the one of the rows repeated, and a missing group skips
    counts[i] rows."""
    missing = 0
    mask = _missing_mask(batch, spec)
    if mask is not None:
        import pyarrow.compute as pc

        if counts is not None:
            missing = int(pc.sum(pc.if_else(mask, batch.column(counts), 0)).as_py() or 0)
            if missing:
                batch = batch.filter(pc.invert(mask))
            _update_rows(state, batch, spec, first_row_id, counts)
            return missing
        missing = int(pc.sum(mask).as_py() or 0)
        if missing and spec.needs_row_ids:
            # The rows left keep their indices: each run of consecutive rows goes in with its own.
            import numpy as np

            keep = np.flatnonzero(~mask.to_numpy(zero_copy_only=False))
            for run in np.split(keep, np.flatnonzero(np.diff(keep) != 1) + 1) if keep.size else []:
                _update_rows(state, batch.slice(int(run[0]), int(run.size)), spec, first_row_id + int(run[0]))
            return missing
        if missing:
            batch = batch.filter(pc.invert(mask))
    _update_rows(state, batch, spec, first_row_id, counts)
    return missing


def _update_rows(state, batch, spec, first_row_id, counts=None):
    """Adds a batch without missing values (with `counts`: rows with multiplicities, see update)."""
    where = spec.where
    y = {"num": _numbers(batch.column(spec.label), spec.label, where)} if spec.regression else \
        _labels(batch.column(spec.label), spec.label, where)
    kw = dict(y_num=y.get("num"), y_text=None, y_codes=y.get("codes"), y_dict=y.get("dict"), score=None,
              p_num=None, p_text=None, p_codes=None, p_dict=None, weight=None, first_row_id=first_row_id)
    if spec.regression:
        kw["value"] = _numbers(batch.column(spec.pred), spec.pred, where)
    elif spec.score is not None:
        kw["score"] = _numbers(batch.column(spec.score), spec.score, where)
    elif spec.proba is not None:
        kw["proba"] = [_numbers(batch.column(c), c, where) for c in spec.proba]
    else:
        p = _labels(batch.column(spec.pred), spec.pred, where)
        kw.update(p_num=p.get("num"), p_codes=p.get("codes"), p_dict=p.get("dict"))
    if spec.weight is not None:
        kw["weight"] = _numbers(batch.column(spec.weight), spec.weight, where)
    if spec.by:
        keys = [_labels(batch.column(c), c, where) for c in spec.by]
        kw.update(by_num=[k.get("num") for k in keys], by_codes=[k.get("codes") for k in keys],
                  by_dict=[k.get("dict") for k in keys])
    if counts is not None:
        c = batch.column(counts)
        if c.null_count or not _pa().types.is_integer(c.type):
            raise ValueError(f"{where}: the row counts {counts!r} must be integers without nulls; got {c.type}")
        kw["counts"] = np.ascontiguousarray(c.to_numpy(zero_copy_only=False), dtype=np.int64).view(np.uint64)
    state.update(**kw)


def check_columns(names, spec):
    absent = [c for c in spec.columns if c not in names]
    if absent:
        raise ValueError(f"{spec.where}: column(s) {absent} not in the data (columns: {list(names)})")


def state_of_batches(batches, spec, first_row=0, counts=None):
    """(blob, missing rows) of an iterable of Arrow RecordBatches: one worker's partition, whose first
    row has index `first_row` among all rows (when known); with `counts`, the name of the column of
    each row's multiplicity (see update)."""
    state = spec.new_state()
    missing = 0
    row = first_row
    for b in batches:
        check_columns(b.schema.names, spec)
        missing += update(state, b, spec, row, counts)
        row += b.num_rows
    return state.serialize(), missing


def read(blob, spec):
    """The state of a blob; refuses a blob that is not a state, is corrupt or was built for other
    options (another task, threshold, ...), naming what differs."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise ValueError(f"{spec.where}: a state blob must be bytes; got {type(blob).__name__}")
    try:
        if spec.by:
            return _core.read_sliced_state(bytes(blob), spec.new_state())
        return _core.read_state(bytes(blob), spec.new_state())
    except ValueError as e:
        raise ValueError(f"{spec.where}: cannot merge a partition's state: {e}") from None


def merge_blobs(a, b, spec):
    """The blob of the merge of two blobs (for tree reductions on the workers)."""
    s = read(a, spec)
    s.merge(read(b, spec))
    return s.serialize()


def finish(blobs_and_missing, spec):
    """The Report of the partitions' (blob, missing) pairs, merged in the order given."""
    state = spec.new_state()
    missing = 0
    for blob, m in blobs_and_missing:
        state.merge(read(blob, spec))
        missing += int(m)
    return _report(state, missing, spec)


def _report(state, missing, spec):
    if missing and not spec.drop_missing:
        what = "label, prediction, weight or slice key" if spec.by else "label, prediction or weight"
        raise ValueError(f"{spec.where}: {missing} row(s) have a missing {what} (null or NaN); clean them or pass "
                         "drop_missing=True to skip them")
    if spec.by:
        r = SlicedReport(state.finish(**spec.finish_kw, missing=missing if spec.drop_missing else None))
        r.missing = missing
        return r
    core = state.finish(**spec.finish_kw)
    if spec.drop_missing:
        core.missing = missing  # the JSON's "missing" (to_dict()["missing"]), as `assay report --drop-missing`
    r = Report(core)
    r.missing = missing
    return r


def is_arrow(x, label=None):
    """True for a pyarrow Table, RecordBatch or RecordBatchReader, or, when a label column is named,
    anything with __arrow_c_stream__ (a one-column stream such as a polars Series or a pyarrow
    ChunkedArray given without label= stays an array of labels)."""
    if type(x).__name__ in ("Table", "RecordBatch", "RecordBatchReader") and type(x).__module__.startswith("pyarrow"):
        return True
    return label is not None and hasattr(x, "__arrow_c_stream__")


def batches_of(source):
    """The record batches of an Arrow source, one at a time (constant memory for streams)."""
    pa = _pa()
    if isinstance(source, pa.RecordBatch):
        return [source]
    if isinstance(source, pa.Table):
        return source.to_batches()
    if isinstance(source, pa.RecordBatchReader):
        return source
    if hasattr(source, "__arrow_c_stream__"):
        return pa.RecordBatchReader.from_stream(source)
    raise ValueError(f"assay.report: {type(source).__name__} is not an Arrow table or record batch stream")


def evaluate_arrow(source, spec):
    """The report of an Arrow source, in this process, batch by batch into one state."""
    state = spec.new_state()
    missing = 0
    row = 0
    for b in batches_of(source):
        check_columns(b.schema.names, spec)
        missing += update(state, b, spec, row)
        row += b.num_rows
    return _report(state, missing, spec)


def merge_levels(parts, combine, fan_in):
    """`parts` combined `fan_in` at a time, level by level, until at most one is left (the shape of a
    distributed tree reduce: `combine` of a list of parts is a merge here, or an engine's task that
    merges on a worker)."""
    parts, fan_in = list(parts), max(2, int(fan_in))
    while len(parts) > 1:
        parts = [combine(parts[i:i + fan_in]) for i in range(0, len(parts), fan_in)]
    return parts


def tree_merge(blobs, spec, fanout=8):
    """Merges blobs level by level, `fanout` at a time (the shape of a distributed tree reduce)."""

    def merged(group):
        s = read(group[0], spec)
        for b in group[1:]:
            s.merge(read(b, spec))
        return s.serialize()

    return (merge_levels(blobs, merged, fanout) or [spec.new_state().serialize()])[0]


# What a worker that cannot import assay says, and what the driver looks for in an engine's error.
_NO_ASSAY = "a worker cannot import assay"

# How each engine's workers get assay (docs/scaling.md, "Where the workers get assay").
_FIX = {
    "spark": "Spark's executors start the Python named by PYSPARK_PYTHON (default: the python3 on PATH), "
             "not the driver's. Locally, set PYSPARK_PYTHON to the Python that has assay (e.g. "
             "PYSPARK_PYTHON=$VIRTUAL_ENV/bin/python) before the SparkSession starts; on a cluster, ship a "
             "packed environment (venv-pack or conda-pack) with spark.archives and point PYSPARK_PYTHON into it",
    "dask": "install assay (and pyarrow) in the Python the dask workers run, the same version as the client's",
    "ray": "Ray's workers run the Python of the cluster's nodes (locally: the one that started Ray). Install "
           "assay there, or give the job a runtime_env that brings it (ray.init(runtime_env={'pip': "
           "['assay']}), or 'py_executable' naming a Python that has it, or a packed environment)",
}


def on_worker(spec, engine):
    """A function that gives ``(the _scale module, spec)`` on an engine's worker, for the functions
    the engines ship to their workers.

    The function carries `spec` as pickled bytes and refers to nothing of assay by name, so that it
    unpickles on a worker without assay (a nested function is pickled by value: its code, not a
    reference to its module); there, its call fails with an error that says which Python the worker
    ran and how to give it assay, instead of a ModuleNotFoundError deep in the engine's traceback."""
    import pickle

    payload = pickle.dumps(spec)
    where, fix, cause = spec.where, _FIX[engine], _NO_ASSAY

    def opened():
        try:
            import pickle

            import pyarrow  # noqa: F401  (the workers read Arrow batches)

            from assay import _scale as scale

            return scale, pickle.loads(payload)
        except ImportError as e:
            import sys

            raise RuntimeError(f"{where}: {cause}: the worker runs the Python {sys.executable} "
                               f"({sys.version.split()[0]}), where importing failed ({type(e).__name__}: {e}). "
                               f"{fix}; see docs/scaling.md, 'Where the workers get assay'") from None

    return opened


@contextlib.contextmanager
def worker_failures(where, engine, python=None):
    """Runs an engine's job; an error of a worker that could not import assay (see on_worker) becomes
    the worker's one-line message, out of the engine's traceback, and assay's ValueError on a
    worker the same ValueError on the driver. Spark's worker imports pyarrow
    before it calls assay's function: a ModuleNotFoundError thrown from a Spark Python worker becomes
    a message that names the module, the workers' Python (`python`, as the driver knows it) and the
    fix."""
    try:
        yield
    except Exception as e:
        text = str(e)
        m = re.search(re.escape(where) + ": " + _NO_ASSAY + r"[^\n]*", text)
        if m is not None:
            raise RuntimeError(m.group(0)) from None
        # assay's own refusal of a worker's data (a column's type, ...): the ValueError it is in one
        # process, not the engine's wrapper around it
        m = re.search(r"ValueError: (" + re.escape(where) + r": [^\n]*)", text)
        if m is not None and type(e) is not ValueError:
            raise ValueError(m.group(1)) from None
        m = re.search(r"ModuleNotFoundError: No module named '([\w.]+)'", text)
        if engine != "spark" or m is None or "from the Python worker" not in text:
            raise
        raise RuntimeError(f"{where}: a worker cannot import {m.group(1)}: the workers run the Python "
                           f"{python or '(unknown)'}, where it is not installed. {_FIX[engine]}; see "
                           "docs/scaling.md, 'Where the workers get assay'") from None
