"""Random predictions with ties, weights and string labels for the scale tests (Arrow, Spark, Dask),
and the reference: assay.report on all rows in one process (the in-memory evaluate)."""

import numpy as np
import pyarrow as pa

import assay


def binary_table(rng, n, *, labels="text", weighted=True, missing=0):
    """A table y (labels), p (scores rounded to 2 decimals: many ties), w (weights with ties),
    c (predicted classes, same spelling as y)."""
    y01 = rng.random(n) < 0.3
    p = np.round(np.clip(0.35 * y01 + rng.normal(0.4, 0.25, n), 0, 1), 2)
    w = rng.integers(1, 5, n) / 4.0
    c01 = rng.random(n) < np.where(y01, 0.7, 0.2)
    if labels == "text":
        y = np.where(y01, "spam", "ham").astype(object)
        c = np.where(c01, "spam", "ham").astype(object)
    else:
        y = y01.astype(np.int64)
        c = c01.astype(np.int64)
    cols = {"y": pa.array(y.tolist()), "p": pa.array(p), "c": pa.array(c.tolist())}
    if weighted:
        cols["w"] = pa.array(w)
    t = pa.table(cols)
    if missing:
        idx = rng.choice(n, missing, replace=False)
        pm = p.copy()
        pm[idx] = np.nan
        t = t.set_column(t.schema.get_field_index("p"), "p", pa.array(pm))
    return t


def multiclass_table(rng, n):
    classes = np.array(["a", "b", "c", "d"], dtype=object)
    y = classes[rng.integers(0, 4, n)]
    c = np.where(rng.random(n) < 0.6, y, classes[rng.integers(0, 4, n)])
    return pa.table({"y": pa.array(y.tolist()), "c": pa.array(c.tolist()), "w": pa.array(rng.integers(1, 4, n) / 2.0)})


def reference(table, *, score=None, pred=None, weight=None, pos_label=None, source="arrow", **kw):
    """assay.report on the table's columns as NumPy arrays / lists: the single-process report. Its
    "source" (predictions_from_scores / _labels: what built the table) is replaced by the engine's
    name (`source`), the one key that says where the rows came from; every other key must be equal."""
    y = table.column("y").to_numpy(zero_copy_only=False)
    args = {}
    if score is not None:
        args["y_score"] = table.column(score).to_numpy()
    else:
        args["y_pred"] = table.column(pred).to_numpy(zero_copy_only=False)
    if weight is not None:
        args["sample_weight"] = table.column(weight).to_numpy()
    d = assay.report(y, **args, pos_label=pos_label, keep_curves=False, **kw).to_dict()
    assert d["source"] == ("predictions_from_scores" if score is not None else "predictions_from_labels")
    d["source"] = source
    return d


def split(table, k, rng):
    """k pieces of random sizes (some may be empty), in order."""
    n = table.num_rows
    cuts = np.sort(rng.integers(0, n + 1, k - 1)) if k > 1 else np.array([], dtype=int)
    bounds = [0, *cuts.tolist(), n]
    return [table.slice(a, b - a) for a, b in zip(bounds[:-1], bounds[1:])]


def proba_table(rng, n, columns=("c", "a", "b")):
    """A table y (labels a, b, c), one probability column per class named after it (in the order
    `columns`: not the classes' order by default), with ties (small integers over their sum; rows sum
    to 1), and w (weights with ties and zeros)."""
    classes = np.array(["a", "b", "c"], dtype=object)
    c = rng.integers(0, 3, n)
    q = rng.integers(0, 6, (n, 3)).astype(float)
    q[np.arange(n), c] += 3
    p = q / q.sum(axis=1, keepdims=True)
    cols = {"y": pa.array(classes[c].tolist())}
    for name in columns:
        cols[name] = pa.array(p[:, "abc".index(name)])
    cols["w"] = pa.array(rng.integers(0, 5, n) / 4.0)
    return pa.table(cols)


def proba_reference(table, columns, *, weight=None, source="arrow", **kw):
    """assay.report on the table's probability columns as one matrix (columns in the order given,
    named by `classes`): the single-process report, its "source" replaced by the engine's name."""
    y = table.column("y").to_numpy(zero_copy_only=False)
    m = np.column_stack([table.column(c).to_numpy() for c in columns])
    w = table.column(weight).to_numpy() if weight is not None else None
    d = assay.report(y, y_proba=m, classes=list(columns), sample_weight=w, keep_curves=False, **kw).to_dict()
    d["source"] = source
    return d


def sliced_table(rng, n, *, weighted=True, null_keys=0):
    """binary_table with two slice columns: `region` (text, one rare level "zz" whose rows are all
    negatives: its AUC is undefined) and `tier` (integers: numeric order, 10 after 9); with
    `null_keys`, that many null regions."""
    t = binary_table(rng, n, weighted=weighted)
    y = np.asarray(t.column("y").to_pylist(), dtype=object)
    region = rng.choice(np.array(["north", "south", "east", "west"], dtype=object), n)
    region[(y == "ham") & (rng.random(n) < 0.01)] = "zz"
    region = region.tolist()
    if null_keys:
        for i in rng.choice(n, null_keys, replace=False):
            region[i] = None
    tier = rng.choice([1, 2, 9, 10], n)
    return t.append_column("region", pa.array(region, pa.string())).append_column("tier", pa.array(tier))


def sliced_reference(table, by, *, score=None, pred=None, weight=None, pos_label=None, source="arrow", **kw):
    """assay.report(..., by=...) on the table's columns as arrays (pandas Series named after the slice
    columns), in one process: "source" of the overall and every slice's report replaced by `source`.
    Rows with a null key are left out (as drop_missing)."""
    import pandas as pd

    keep = np.ones(table.num_rows, dtype=bool)
    for b in by:
        keep &= ~np.asarray(table.column(b).is_null().to_numpy(zero_copy_only=False))
    table = table.filter(pa.array(keep))
    y = table.column("y").to_numpy(zero_copy_only=False)
    args = {"y_score": table.column(score).to_numpy()} if score is not None else \
        {"y_pred": table.column(pred).to_numpy(zero_copy_only=False)}
    if weight is not None:
        args["sample_weight"] = table.column(weight).to_numpy()
    keys = [pd.Series(table.column(b).to_numpy(zero_copy_only=False), name=b) for b in by]
    d = assay.report(y, **args, pos_label=pos_label, by=keys[0] if len(keys) == 1 else keys, **kw).to_dict()
    d["overall"]["source"] = source
    for s in d["slices"]:
        if s.get("report"):
            s["report"]["source"] = source
    return d
