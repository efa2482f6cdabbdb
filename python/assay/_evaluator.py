"""assay.Evaluator: the report of assay.report, computed batch by batch as the predictions arrive
(a training loop, a stream, several processes), exact, mergeable and serialisable.

It is the public face of the core's mergeable evaluation state (include/assay/scale/state.hpp, the
state behind assay.spark, assay.dask and `assay report --max-memory`): `update` adds a batch of rows
to the state, `merge` adds another Evaluator's rows, `bytes(ev)` / `Evaluator.from_bytes` carry it
between processes, `sync` merges every process's rows given an all-gather of bytes, and `report`
finishes it into the Report assay.report gives on all the rows at once (the same `to_dict()`, key
for key and number for number).

Memory: the state holds one entry per distinct (score, true class) pair (per distinct predicted and
true class for y_pred; per distinct (probability, true class) for each column of y_proba; per
distinct target and residual for regression), whatever the number of rows; intervals that resample
rows (weighted intervals, method='bootstrap', every interval of y_proba and of regression) keep every
row too (20 to 28 bytes a row, 12 + 8K for K probabilities).

Row order: rows are numbered in the order they were added (merge(other) puts other's rows after
this Evaluator's; sync puts the processes' rows in the all-gather's order). The numbers matter only
to the Poisson bootstrap, which draws each row's weight on its number: the report is assay.report on
the rows concatenated in that order.
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
import threading

import numpy as np

from assay import _core
from assay._report import Report, SlicedReport, _label_text
from assay._targets import as_array

_CI_METHODS = ("auto", "wilson", "normal", "agresti_coull", "clopper_pearson", "bootstrap")
_TASKS = ("auto", "binary", "multiclass", "regression")
_MAGIC = b"ASSAYEV\0"
_STATE_MAGIC = b"ASSAYST\0"
# Version of the bytes written by bytes(ev): 1, the first. The state inside carries its own version
# (scale::state_format_version), checked when it is read.
_FORMAT = 1
_DIGEST = 16  # bytes of the BLAKE2b checksum that ends a blob
_HEAD = struct.Struct("<8sII")  # magic, format version, length of the JSON header
_STATE_LEN = struct.Struct("<Q")
_SOURCE = {"score": "predictions_from_scores", "pred": "predictions_from_labels",
           "proba": "predictions_from_proba", "regression": "predictions_from_values"}


def _zero_division(v):
    if isinstance(v, str) and v in ("0", "1", "nan"):
        return v
    zd = {0: "0", 1: "1"}.get(v) if not isinstance(v, bool) else None
    if zd is None and isinstance(v, float) and math.isnan(v):
        zd = "nan"
    if zd is None:
        raise ValueError(f"Evaluator: zero_division is {v!r}; it must be 0, 1 or nan")
    return zd


def _optional_float(name, v):
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise ValueError(f"Evaluator: {name} is {v!r}; it must be a number or None")
    return float(v)


class Evaluator:
    """The report of ``assay.report`` on every row added, updated batch by batch.

    ``Evaluator(task='auto', pos_label=None, threshold=0.5, ci=None, method='auto', replicates=2000,
    random_state=0, beta=None, top_k=2, zero_division=0, classes=None, keep_curves=True, by=None,
    metrics=None, max_fpr=None, min_tpr=None, min_precision=None, min_recall=None, confidence=0.95)``
    takes the options of :func:`assay.report` that say what the report holds; ``by`` names one or two
    slice columns (their keys come with each batch), ``classes`` names the columns of ``y_proba`` (as
    in assay.report) or, with ``y_score`` or ``y_pred``, the only labels a batch may hold (a batch with
    another label is refused), ``metrics`` the headline numbers :meth:`compute` returns.

    Then ``update(y_true, y_score=... | y_pred=... | y_proba=..., sample_weight=None, by=None)`` per
    batch (any size, 0 rows too), ``merge(other)``, ``report()``, ``compute()``, ``reset()``;
    ``bytes(ev)`` / ``Evaluator.from_bytes(b)`` and pickle; ``sync(all_gather)`` across processes.

    Rules (a refused batch raises ValueError naming the parameter and the batch, and leaves the
    Evaluator as it was): the first batch with rows fixes which of y_score / y_pred / y_proba the
    batches give, whether they carry sample_weight, the number of y_proba columns, and whether labels
    are numbers or text (1 then "1" is refused: they would be one class in assay.report, which is
    rarely what a caller who changed types meant). NaN scores, probabilities, weights or labels are
    refused (assay.report refuses them too). A class first seen in a late batch is a class like any
    other: the classes, the positive class and the task are decided in report() on all the rows, as
    assay.report decides them.
    """

    def __init__(self, task="auto", *, pos_label=None, threshold=0.5, ci=None, method="auto", replicates=2000,
                 random_state=0, beta=None, top_k=2, zero_division=0, classes=None, keep_curves=True, by=None,
                 metrics=None, max_fpr=None, min_tpr=None, min_precision=None, min_recall=None, confidence=0.95):
        if task not in _TASKS:
            raise ValueError(f"Evaluator: task is {task!r}; it must be one of {', '.join(_TASKS)}")
        if ci is not None and (isinstance(ci, bool) or not isinstance(ci, (int, float)) or not 0 < ci < 1):
            raise ValueError(f"Evaluator: ci is {ci!r}; it must be a confidence level in (0, 1)")
        if method not in _CI_METHODS:
            raise ValueError(f"Evaluator: method is {method!r}; it must be one of {', '.join(_CI_METHODS)}")
        if isinstance(random_state, bool) or not isinstance(random_state, (int, np.integer)):
            raise ValueError(f"Evaluator: random_state is {random_state!r}; it must be an int (Evaluators that "
                             "merge must draw the same bootstrap, so the seed cannot be random)")
        if by is not None:
            by = [by] if isinstance(by, str) else list(by) if isinstance(by, (list, tuple)) else by
            if not isinstance(by, list) or not 1 <= len(by) <= 2 or not all(isinstance(c, str) for c in by) \
                    or len(set(by)) != len(by):
                raise ValueError(f"Evaluator: by is {by!r}; it must name 1 or 2 different slice columns (a str or a "
                                 "list of str)")
        if metrics is not None:
            metrics = [metrics] if isinstance(metrics, str) else list(metrics)
            if not metrics or not all(isinstance(m, str) for m in metrics):
                raise ValueError(f"Evaluator: metrics is {metrics!r}; it must be a list of headline names "
                                 "(e.g. ['roc_auc', 'accuracy'])")
        if classes is not None:
            if isinstance(classes, str) or len(classes) < 1:
                raise ValueError(f"Evaluator: classes is {classes!r}; it must be a list of class labels")
            classes = [_label_text(c) for c in classes]
            if len(set(classes)) != len(classes):
                raise ValueError(f"Evaluator: classes {classes} names a class twice")
        for name, v in (("threshold", threshold), ("confidence", confidence)):
            if v is None:
                raise ValueError(f"Evaluator: {name} is None; it must be a number")
            _optional_float(name, v)
        for name, v, least in (("replicates", replicates, 1), ("top_k", top_k, 1)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < least:
                raise ValueError(f"Evaluator: {name} is {v!r}; it must be an int >= {least}")
        self._options = dict(
            task=task, pos_label=None if pos_label is None else _label_text(pos_label), threshold=float(threshold),
            ci=None if ci is None else float(ci), method=method, replicates=int(replicates),
            random_state=int(random_state), beta=_optional_float("beta", beta), top_k=int(top_k),
            zero_division=_zero_division(zero_division), classes=classes, keep_curves=bool(keep_curves), by=by,
            metrics=metrics, max_fpr=_optional_float("max_fpr", max_fpr), min_tpr=_optional_float("min_tpr", min_tpr),
            min_precision=_optional_float("min_precision", min_precision),
            min_recall=_optional_float("min_recall", min_recall), confidence=float(confidence))
        # The core state is not thread-safe and its calls release the GIL: one call at a time per
        # Evaluator (threads updating one Evaluator take turns; separate Evaluators run in parallel).
        self._lock = threading.RLock()
        self.reset()

    # ----------------------------------------------------------------------------------------------
    # life cycle

    def reset(self):
        """Forgets every row (the options stay)."""
        with self._lock:
            self._forget()
        return self

    def _forget(self):
        self._state = None
        # What the first batch with rows fixed: prediction kind ("score", "pred", "proba",
        # "regression"), weighted, label form ("numbers" / "text"), number of probability columns.
        self._meta = {}
        self._calls = 0  # calls of update since the Evaluator was made or reset (the batch number)
        self._synced = False

    @property
    def rows(self):
        """Rows added so far (merged ones included)."""
        return 0 if self._state is None else int(self._state.rows)

    @property
    def memory_bytes(self):
        """Approximate heap bytes the state holds (what ``assay report --max-memory`` counts)."""
        return 0 if self._state is None else int(self._state.memory_bytes)

    @property
    def options(self):
        """The options given at construction, normalised (labels as assay spells them)."""
        return json.loads(json.dumps(self._options))

    def __repr__(self):
        kind = self._meta.get("kind", "no rows yet")
        return f"<assay.Evaluator {self._options['task']}, {kind}, {self.rows} rows>"

    # ----------------------------------------------------------------------------------------------
    # the state's options

    def _resamples(self, meta):
        """Whether the report's intervals resample rows, so the state must keep every row."""
        o = self._options
        if o["ci"] is None:
            return False
        return meta["weighted"] or o["method"] == "bootstrap" or meta["kind"] in ("proba", "regression")

    def _new_state(self, meta):
        o = self._options
        kind = meta["kind"]
        proba_names = None
        if kind == "proba":
            # Named by `classes`, or else by names no class can have: the core then takes the columns in
            # sorted class order, as assay.report does without classes.
            proba_names = o["classes"] or [f"\x00column {k}" for k in range(meta["columns"])]
        kw = dict(scores=kind == "score", task=o["task"], pos_label=o["pos_label"], threshold=o["threshold"],
                  weighted=meta["weighted"], drop_missing=False, label_name="y_true", prediction_name="",
                  source=_SOURCE[kind], row_ids=self._resamples(meta),
                  values=kind == "regression", proba_names=proba_names)
        if o["by"]:
            return _core.SlicedState(**kw, by=o["by"])
        return _core.EvaluationState(**kw)

    def _finish_kw(self):
        o = self._options
        return dict(threshold=o["threshold"], beta=o["beta"], top_k=o["top_k"], zero_division=o["zero_division"],
                    ci_level=o["ci"], ci_method=o["method"], replicates=o["replicates"], seed=o["random_state"],
                    keep_curves=o["keep_curves"] and not o["by"], max_fpr=o["max_fpr"], min_tpr=o["min_tpr"],
                    min_precision=o["min_precision"], min_recall=o["min_recall"], confidence=o["confidence"])

    # ----------------------------------------------------------------------------------------------
    # update

    def update(self, y_true, *, y_score=None, y_pred=None, y_proba=None, sample_weight=None, by=None):
        """Adds a batch of rows: true labels (or targets, for task='regression') and exactly one of
        ``y_score`` (binary scores of the positive class), ``y_pred`` (predicted classes, or predicted
        values for regression) or ``y_proba`` (n x K class probabilities); ``sample_weight`` (one per
        row); ``by``, the batch's slice keys when the Evaluator was built with ``by=`` (one array, a
        list of two, or a dict from slice name to array). Any number of rows, 0 too. A refused batch
        raises ValueError naming the parameter and the batch number (the n-th call of update since the
        Evaluator was made or reset) and changes nothing. Returns the Evaluator."""
        with self._lock:
            self._calls += 1
            where = f"Evaluator.update (batch {self._calls})"
            batch = _Batch(self, where, y_true, y_score, y_pred, y_proba, sample_weight, by)
            if batch.n == 0:
                return self
            meta = batch.meta
            state = self._state if self._state is not None else self._new_state(meta)
            try:
                state.update(**batch.core_kw(first_row_id=self.rows))
            except ValueError as e:  # the core checks every row first: the state is unchanged
                raise ValueError(f"{where}: {e}") from None
            self._state = state
            self._meta = meta
            return self

    # ----------------------------------------------------------------------------------------------
    # merge, sync

    def _check_compatible(self, other, where):
        if not isinstance(other, Evaluator):
            raise TypeError(f"{where}: other is a {type(other).__name__}; it must be an assay.Evaluator")
        for k, v in self._options.items():
            if other._options[k] != v:
                raise ValueError(f"{where}: the Evaluators were built with different options: {k} is {v!r} here and "
                                 f"{other._options[k]!r} in the other; only Evaluators with equal options merge")
        for k, v in other._meta.items():
            if k in self._meta and self._meta[k] != v:
                raise ValueError(f"{where}: the Evaluators' batches differ: {_meta_words(k, self._meta[k])} here, "
                                 f"{_meta_words(k, v)} in the other")

    def merge(self, other):
        """Adds the rows of another Evaluator built with the same options (its rows come after this
        one's); ``other`` is not changed. Returns the Evaluator."""
        if not isinstance(other, Evaluator):
            raise TypeError(f"Evaluator.merge: other is a {type(other).__name__}; it must be an assay.Evaluator")
        first, second = sorted((self, other), key=id)  # one order of taking the locks: no deadlock
        with first._lock, second._lock:
            self._check_compatible(other, "Evaluator.merge")
            return self._absorb(other, copy=True)

    def _absorb(self, other, copy):
        """Adds the rows of a compatible Evaluator; with copy=False, takes its state (other is then
        left unusable: for Evaluators read from bytes just for this)."""
        if other._state is None:
            return self
        incoming = other._state
        if copy and (self.rows or self._state is None):  # shifted or kept: work on a copy
            incoming = _read(incoming.serialize(), other._new_state(other._meta), "Evaluator.merge")
        if self.rows:  # other's rows are numbered after ours
            incoming.offset_row_ids(self.rows)
        if self._state is None:
            self._state = incoming
        else:
            try:
                self._state.merge(incoming)
            except ValueError as e:
                raise ValueError(f"Evaluator.merge: {e}") from None
        self._meta = {**self._meta, **other._meta}
        return self

    def sync(self, all_gather):
        """Replaces this process's rows by every process's rows: ``all_gather(b)`` is any collective
        that sends this process's bytes and returns every process's bytes in rank order (e.g.
        ``Evaluator.mpi_all_gather()`` or ``Evaluator.torch_all_gather()``). Every process then holds
        the same rows (in rank order) and gives the same report. Call it once (after the last
        update); a second sync would count the rows again and is refused until reset(). Returns
        the Evaluator."""
        with self._lock:
            return self._sync(all_gather)

    def _sync(self, all_gather):
        if self._synced:
            raise ValueError("Evaluator.sync: this Evaluator already holds every process's rows (it was synced); "
                             "call reset() before the next round of updates")
        blobs = list(all_gather(bytes(self)))
        merged = Evaluator(**self._options)
        for rank, blob in enumerate(blobs):
            try:
                part = Evaluator.from_bytes(blob)
            except ValueError as e:
                raise ValueError(f"Evaluator.sync: the bytes of process {rank}: {e}") from None
            try:
                merged._check_compatible(part, "Evaluator.merge")
                merged._absorb(part, copy=False)
            except ValueError as e:
                raise ValueError(f"Evaluator.sync: process {rank}: {e}") from None
        self._state, self._meta, self._synced = merged._state, merged._meta, True
        return self

    @staticmethod
    def mpi_all_gather(comm=None):
        """An all-gather of bytes over an mpi4py communicator (default ``MPI.COMM_WORLD``)."""
        if comm is None:
            from mpi4py import MPI

            comm = MPI.COMM_WORLD
        return comm.allgather

    @staticmethod
    def torch_all_gather(group=None):
        """An all-gather of bytes over ``torch.distributed`` (the process group must be initialised;
        ``group`` defaults to the world). Needs PyTorch, imported only when this is called."""
        try:
            import torch.distributed as dist
        except ImportError:
            raise ImportError("Evaluator.torch_all_gather needs PyTorch (torch.distributed); it is not installed. "
                              "Use Evaluator.mpi_all_gather() or pass any all-gather of bytes to sync") from None

        def gather(blob):
            out = [None] * dist.get_world_size(group)
            dist.all_gather_object(out, blob, group=group)
            return out

        return gather

    # ----------------------------------------------------------------------------------------------
    # results

    def report(self):
        """The Report of ``assay.report`` on every row added (a SlicedReport with ``by``)."""
        with self._lock:
            if self._state is None:
                raise ValueError("Evaluator.report: no rows yet; update() with at least one row first")
            try:
                core = self._state.finish(**self._finish_kw())
            except ValueError as e:
                raise ValueError(f"Evaluator.report: {e}") from None
        return SlicedReport(core) if self._options["by"] else Report(core)

    def compute(self):
        """The headline numbers as {name: Estimate}: those named by ``metrics=``, else every one of
        the report (``Report.keys()``)."""
        r = self.report()
        names = self._options["metrics"] or r.keys()
        absent = [m for m in names if m not in r.keys()]
        if absent:
            raise KeyError(f"Evaluator.compute: metrics {absent} are not in this report (its headline numbers: "
                           f"{', '.join(r.keys())})")
        return {m: r[m] for m in names}

    # ----------------------------------------------------------------------------------------------
    # bytes

    def __bytes__(self):
        with self._lock:
            header = json.dumps({"options": self._options, "meta": self._meta},
                                sort_keys=True, separators=(",", ":")).encode()
            state = b"" if self._state is None else self._state.serialize()
        body = _HEAD.pack(_MAGIC, _FORMAT, len(header)) + header + _STATE_LEN.pack(len(state)) + state
        return body + hashlib.blake2b(body, digest_size=_DIGEST).digest()

    @classmethod
    def from_bytes(cls, blob):
        """The Evaluator of ``bytes(ev)``. A blob that is not an Evaluator's, of another format
        version, truncated or corrupt (checksum) raises ValueError saying which."""
        where = "Evaluator.from_bytes"
        if not isinstance(blob, (bytes, bytearray, memoryview)):
            raise TypeError(f"{where}: blob is a {type(blob).__name__}; it must be bytes")
        blob = bytes(blob)
        if blob[:8] == _STATE_MAGIC:
            raise ValueError(f"{where}: the blob is a bare evaluation state (an engine's), not an Evaluator's bytes")
        if len(blob) < _HEAD.size or blob[:8] != _MAGIC:
            raise ValueError(f"{where}: the blob ({len(blob)} bytes, starting {blob[:8]!r}) is not an assay "
                             "Evaluator's bytes")
        _, version, header_len = _HEAD.unpack_from(blob)
        if version != _FORMAT:
            raise ValueError(f"{where}: the blob has format version {version}; this assay reads version {_FORMAT}")
        at = _HEAD.size + header_len
        if len(blob) < at + _STATE_LEN.size + _DIGEST:
            raise ValueError(f"{where}: the blob is truncated ({len(blob)} bytes; its header alone needs "
                             f"{at + _STATE_LEN.size + _DIGEST})")
        (state_len,) = _STATE_LEN.unpack_from(blob, at)
        end = at + _STATE_LEN.size + state_len
        if len(blob) != end + _DIGEST:
            raise ValueError(f"{where}: the blob is {len(blob)} bytes; its lengths say {end + _DIGEST} (truncated or "
                             "with bytes appended)")
        if hashlib.blake2b(blob[:end], digest_size=_DIGEST).digest() != blob[end:]:
            raise ValueError(f"{where}: the blob is corrupt (its checksum does not match its content)")
        try:
            header = json.loads(blob[_HEAD.size:at].decode())
            options, meta = header["options"], header["meta"]
            ev = cls(**options)
            like = ev._new_state(_checked_meta(meta, state_len)) if state_len else None
        except (ValueError, KeyError, TypeError, AttributeError) as e:  # a well-formed blob of a foreign writer
            raise ValueError(f"{where}: the blob's header is not an Evaluator's ({e})") from None
        if state_len:
            ev._state = _read(blob[at + _STATE_LEN.size:end], like, where)
        ev._meta = meta
        return ev

    def __reduce__(self):
        return (Evaluator.from_bytes, (bytes(self),))

    def __copy__(self):
        return Evaluator.from_bytes(bytes(self))

    def __deepcopy__(self, memo):
        return Evaluator.from_bytes(bytes(self))


def _read(blob, like, where):
    """The core state of a blob, refused unless its options are `like`'s."""
    read = _core.read_sliced_state if isinstance(like, _core.SlicedState) else _core.read_state
    try:
        return read(bytes(blob), like)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def _checked_meta(meta, state_len):
    """The batch-fixed facts of a blob's header, checked (a state needs its kind and weighting)."""
    ok = isinstance(meta, dict) and meta.get("kind") in _SOURCE and isinstance(meta.get("weighted"), bool) and \
        meta.get("labels", "numbers") in ("numbers", "text") and \
        (meta["kind"] != "proba" or (isinstance(meta.get("columns"), int) and meta["columns"] >= 2))
    if not ok:
        raise ValueError(f"its batch description {meta!r} is not valid for a state of {state_len} bytes")
    return meta


def _meta_words(key, value):
    return {"kind": f"the predictions are {value}", "weighted": "weighted" if value else "unweighted",
            "labels": f"the labels are {value}", "columns": f"{value} probability columns"}.get(key, f"{key}={value}")


def _first_nan(a, name, where):
    bad = np.flatnonzero(np.isnan(a))
    if bad.size:
        i = np.unravel_index(bad[0], a.shape) if a.ndim > 1 else (int(bad[0]),)
        raise ValueError(f"{where}: {name}[{', '.join(str(int(j)) for j in i)}] is nan; assay.report refuses NaN "
                         "too (drop or fill those rows before update)")


class _Batch:
    """One batch checked and converted for the core state (nothing of the Evaluator is changed)."""

    def __init__(self, ev, where, y_true, y_score, y_pred, y_proba, sample_weight, by):
        o = ev._options
        self.where = where
        given = [n for n, v in (("y_score", y_score), ("y_pred", y_pred), ("y_proba", y_proba)) if v is not None]
        if len(given) != 1:
            raise ValueError(f"{where}: give exactly one of y_score, y_pred or y_proba; got {given or 'none'}")
        regression = o["task"] == "regression"
        if regression and y_pred is None:
            raise ValueError(f"{where}: task='regression' needs y_pred (the predicted values); got {given[0]}")
        kind = "regression" if regression else {"y_score": "score", "y_pred": "pred", "y_proba": "proba"}[given[0]]
        y = self._array(y_true, "y_true", 1)
        self.n = n = len(y)
        meta = {"kind": kind, "weighted": sample_weight is not None}
        self.kw = dict(y_num=None, y_text=None, y_codes=None, y_dict=None, score=None, p_num=None, p_text=None,
                       p_codes=None, p_dict=None, weight=None)
        if kind == "regression":
            self.kw["y_num"] = self._numbers(y, "y_true")
            self.kw["value"] = self._numbers(self._array(y_pred, "y_pred", 1), "y_pred")
        elif kind == "score":
            self.kw["y_num"], self.kw["y_text"] = _labels(y, "y_true", where)
            self.kw["score"] = self._numbers(self._array(y_score, "y_score", 1), "y_score")
            meta["labels"] = "numbers" if self.kw["y_num"] is not None else "text"
        elif kind == "pred":
            p = self._array(y_pred, "y_pred", 1)
            yn, yt = _labels(y, "y_true", where)
            pn, pt = _labels(p, "y_pred", where)
            if (yn is None) != (pn is None):  # one side text: both compared as text, as assay.report does
                yn, yt, pn, pt = None, [_label_text(v) for v in y.tolist()], None, [_label_text(v) for v in p.tolist()]
            self.kw.update(y_num=yn, y_text=yt, p_num=pn, p_text=pt)
            meta["labels"] = "numbers" if yn is not None else "text"
        else:
            p = self._numbers(self._array(y_proba, "y_proba", 2), "y_proba")
            self.kw["y_num"], self.kw["y_text"] = _labels(y, "y_true", where)
            self.kw["proba"] = [np.ascontiguousarray(p[:, k]) for k in range(p.shape[1])]
            meta["labels"] = "numbers" if self.kw["y_num"] is not None else "text"
            meta["columns"] = int(p.shape[1])
            if o["classes"] is not None and len(o["classes"]) != p.shape[1]:
                raise ValueError(f"{where}: y_proba has {p.shape[1]} columns; classes names {len(o['classes'])}")
        if sample_weight is not None:
            self.kw["weight"] = self._numbers(self._array(sample_weight, "sample_weight", 1), "sample_weight")
        self.by = self._slices(by, o["by"], n) if o["by"] or by is not None else None
        if n == 0:
            meta.pop("labels", None)  # an empty batch has no label form of its own
        self._check_meta(ev._meta, meta)
        if n and o["classes"] is not None and kind in ("score", "pred"):
            self._check_classes(o["classes"])
        self.meta = {**ev._meta, **meta} if n else ev._meta

    def _array(self, x, name, ndim):
        try:
            a = as_array(x, name)
        except (ValueError, TypeError) as e:
            raise ValueError(f"{self.where}: {name}: {e}") from None
        if a.ndim != ndim:
            raise ValueError(f"{self.where}: {name} must be {ndim}-D; got an array of shape {a.shape}")
        if ndim == 2 and a.shape[1] < 2:
            raise ValueError(f"{self.where}: {name} has {a.shape[1]} column(s); give one per class (at least 2)")
        if hasattr(self, "n") and len(a) != self.n:
            raise ValueError(f"{self.where}: {name} has {len(a)} rows; y_true has {self.n}")
        return a

    def _numbers(self, a, name):
        if a.dtype.kind not in "biuf":
            raise ValueError(f"{self.where}: {name} must be numbers; got dtype {a.dtype}")
        a = np.ascontiguousarray(a, dtype=np.float64)
        _first_nan(a, name, self.where)
        return a

    def _slices(self, by, names, n):
        if not names:
            raise ValueError(f"{self.where}: by is given, but the Evaluator was built without by= (slice names)")
        if by is None:
            raise ValueError(f"{self.where}: by is missing; the Evaluator slices by {names}: give their keys")
        if isinstance(by, dict):
            if sorted(by) != sorted(names):
                raise ValueError(f"{self.where}: by has the slices {sorted(by)}; the Evaluator slices by {names}")
            columns = [by[k] for k in names]
        elif len(names) == 2:
            if not isinstance(by, (list, tuple)) or len(by) != 2:
                raise ValueError(f"{self.where}: by must be two arrays of keys (for {names}) or a dict")
            columns = list(by)
        else:
            columns = [by]
        codes, dicts = [], []
        for name, col in zip(names, columns):
            a = self._array(col, f"by[{name!r}]", 1)
            text = np.array([_label_text(v) for v in a.tolist()], dtype=object)
            values, inverse = np.unique(text, return_inverse=True) if n else (np.array([], dtype=object),
                                                                               np.array([], dtype=np.int32))
            codes.append(np.ascontiguousarray(inverse, dtype=np.int32))
            dicts.append([str(v) for v in values])
        return [None] * len(names), codes, dicts

    def _check_meta(self, have, meta):
        for k, v in meta.items():
            if k in have and have[k] != v:
                raise ValueError(f"{self.where}: {_meta_rule(k, have[k], v, meta['kind'])}; every batch must give the "
                                 "same (the first batch with rows fixed it)")

    def _check_classes(self, classes):
        allowed = set(classes)
        numeric = {}
        for c in classes:  # numbers by value: 1 and 1.0 are the class "1"
            try:
                numeric[float(c)] = c
            except ValueError:
                pass
        for name in ("y", "p"):
            nums, text = self.kw[f"{name}_num"], self.kw[f"{name}_text"]
            param = "y_true" if name == "y" else "y_pred"
            if nums is not None:
                bad = np.flatnonzero(~np.isin(nums, np.array(list(numeric), dtype=np.float64)))
                if bad.size:
                    raise ValueError(f"{self.where}: {param}[{bad[0]}] is {_label_text(nums[bad[0]])}, not one of the "
                                     f"classes {classes} given to the Evaluator")
            elif text is not None:
                for i, v in enumerate(text):
                    if v not in allowed:
                        raise ValueError(f"{self.where}: {param}[{i}] is {v!r}, not one of the classes {classes} given "
                                         "to the Evaluator")

    def core_kw(self, first_row_id):
        kw = dict(self.kw, first_row_id=int(first_row_id))
        if self.by is not None:
            kw.update(by_num=self.by[0], by_codes=self.by[1], by_dict=self.by[2])
        return kw


def _labels(a, name, where):
    """(numbers, text) of a label array, as assay.report reads it: numeric dtypes as float64 (bool
    too: True is 1), anything else as the str of each value."""
    if a.dtype.kind in "biuf":
        a = np.ascontiguousarray(a, dtype=np.float64)
        _first_nan(a, name, where)
        return a, None
    values = a.tolist()
    for i, v in enumerate(values):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            raise ValueError(f"{where}: {name}[{i}] is {v}, a missing label; drop those rows before update")
    return None, [str(v) for v in values]


def _meta_rule(key, had, got, kind=None):
    if key == "kind":
        return f"this batch gives {_KIND_PARAM[got]}; the earlier batches gave {_KIND_PARAM[had]}"
    if key == "weighted":
        return ("sample_weight is given; the earlier batches had none" if got else
                "sample_weight is None; the earlier batches were weighted")
    if key == "labels":
        return (f"the labels ({'y_true, y_pred' if kind == 'pred' else 'y_true'}) are {got}; the earlier batches' "
                f"labels were {had} (e.g. 1 then '1'; convert them to one type)")
    if key == "columns":
        return f"y_proba has {got} columns; the earlier batches had {had}"
    return f"{key} is {got!r}; it was {had!r}"


_KIND_PARAM = {"score": "y_score", "pred": "y_pred", "proba": "y_proba", "regression": "y_pred (regression)"}
