"""The mergeable state from Python: Arrow tables, batch streams and Parquet files into one state, states
merged in any order, equal to assay.report on all rows (the whole JSON report, exactly)."""

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import assay
from assay import _scale
from scale_data import (binary_table, multiclass_table, proba_reference, proba_table, reference, sliced_reference,
                        sliced_table, split)

CASES = [
    dict(score="p", weight="w", pos_label="spam"),
    dict(score="p", weight=None, pos_label="spam"),
    dict(pred="c", weight="w", pos_label="spam"),
    dict(pred="c", weight=None, pos_label=None, task="multiclass"),
]


def _spec(**kw):
    return _scale.Spec("report", label="y", **kw)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("k", [1, 2, 3, 17])
def test_partitions_and_merge_orders_equal_the_single_process_report(rng, case, k):
    t = binary_table(rng, 3000)
    expected = reference(t, **case)
    spec = _spec(**case)
    parts = [_scale.state_of_batches(piece.to_batches(), spec) for piece in split(t, k, rng)]
    for _ in range(3):
        order = rng.permutation(len(parts))
        got = _scale.finish([parts[i] for i in order], spec).to_dict()
        assert got == expected
    # a tree of merges (fan-in 2) gives the same bytes as merging one by one
    assert _scale.tree_merge([b for b, _ in parts], spec, fanout=2) == \
        _scale.tree_merge([b for b, _ in parts], spec, fanout=len(parts) + 1)


def test_integer_labels_and_multiclass(rng):
    t = binary_table(rng, 2000, labels="int")
    assert assay.report(t, label="y", y_score="p", sample_weight="w").to_dict() == \
        reference(t, score="p", weight="w")
    m = multiclass_table(rng, 2000)
    for k in (1, 3, 17):
        batches = [b for piece in split(m, k, rng) for b in piece.to_batches()]
        reader = pa.RecordBatchReader.from_batches(m.schema, batches)
        assert assay.report(reader, label="y", y_pred="c", sample_weight="w").to_dict() == \
            reference(m, pred="c", weight="w")


def test_parquet_streams_batch_by_batch(tmp_path, rng):
    t = binary_table(rng, 5000)
    path = tmp_path / "preds.parquet"
    pq.write_table(t, path, row_group_size=700)
    f = pq.ParquetFile(path)
    reader = pa.RecordBatchReader.from_batches(f.schema_arrow, f.iter_batches(batch_size=512))
    got = assay.report(reader, label="y", y_score="p", sample_weight="w", pos_label="spam").to_dict()
    assert got == reference(t, score="p", weight="w", pos_label="spam")
    # dictionary-encoded string labels (read_dictionary) are the same classes
    d = pq.read_table(path, read_dictionary=["y"])
    assert pa.types.is_dictionary(d.schema.field("y").type)
    assert assay.report(d, label="y", y_score="p", sample_weight="w", pos_label="spam").to_dict() == got
    # anything with __arrow_c_stream__ (here a Table seen only through the protocol)

    class Stream:
        def __arrow_c_stream__(self, requested_schema=None):
            return t.__arrow_c_stream__(requested_schema)

    assert assay.report(Stream(), label="y", y_score="p", sample_weight="w", pos_label="spam").to_dict() == got


def test_missing_values_are_counted_refused_or_dropped(rng):
    t = binary_table(rng, 1000, missing=7)
    with pytest.raises(ValueError, match=r"7 row\(s\) have a missing"):
        assay.report(t, label="y", y_score="p", sample_weight="w", pos_label="spam")
    r = assay.report(t, label="y", y_score="p", sample_weight="w", pos_label="spam", drop_missing=True)
    assert r.missing == 7
    keep = t.filter(pc.invert(pc.is_nan(t.column("p"))))
    d = r.to_dict()
    assert d.pop("missing") == 7  # as `assay report --drop-missing` (docs/report-json.md)
    assert d == reference(keep, score="p", weight="w", pos_label="spam")
    assert "missing" not in assay.report(keep, label="y", y_score="p", sample_weight="w", pos_label="spam").to_dict()
    # a null string label too
    y = t.column("y").to_pylist()
    y[3] = None
    t2 = keep.set_column(0, "y", pa.array(y[:keep.num_rows]))
    with pytest.raises(ValueError, match=r"1 row\(s\) have a missing"):
        assay.report(t2, label="y", y_score="p", pos_label="spam")


def test_one_and_one_point_zero_are_one_class_whatever_the_partitioning(rng):
    # The rule of assay report (data/predictions.hpp): when every class spelling is a number, numeric
    # spellings are unified by value ("1" == "1.0"); it is applied once to the union of the
    # partitions' spellings, so it does not depend on where each spelling occurs.
    n = 600
    y01 = rng.random(n) < 0.4
    first = np.where(y01, "1", "0")
    second = np.where(y01, "1.0", "0")
    y = np.concatenate([first[:300], second[300:]])
    p = np.round(rng.random(n), 1)
    t = pa.table({"y": y.tolist(), "p": p})
    expected = assay.report(y01.astype(float), y_score=p, keep_curves=False).to_dict()
    expected["source"] = "arrow"
    spec = _spec(score="p")
    for k in (1, 2, 17):
        parts = [_scale.state_of_batches(piece.to_batches(), spec) for piece in split(t, k, rng)]
        assert _scale.finish(parts, spec).to_dict() == expected
    assert expected["n"] == n


def test_empty_partitions_and_foreign_or_corrupt_blobs(rng):
    t = binary_table(rng, 500)
    spec = _spec(score="p", weight="w", pos_label="spam")
    empty = _scale.state_of_batches([], spec)
    full = _scale.state_of_batches(t.to_batches(), spec)
    assert _scale.finish([empty, full, empty], spec).to_dict() == reference(t, score="p", weight="w",
                                                                                pos_label="spam")
    with pytest.raises(ValueError, match="no rows|empty|rows"):
        _scale.finish([empty], spec)
    # a state of another task (predicted classes, unweighted) is refused, naming the field
    other = _scale.state_of_batches(t.to_batches(), _spec(pred="c"))
    with pytest.raises(ValueError, match="cannot merge a partition's state"):
        _scale.finish([full, other], spec)
    # a corrupt blob (one byte flipped) and a blob that is not a state
    bad = bytearray(full[0])
    bad[len(bad) // 2] ^= 0x40
    with pytest.raises(ValueError, match="cannot merge"):
        _scale.finish([(bytes(bad), 0)], spec)
    with pytest.raises(ValueError, match="cannot merge"):
        _scale.finish([(b"not a state at all", 0)], spec)


def test_arguments_are_checked():
    t = pa.table({"y": [0, 1], "p": [0.2, 0.9]})
    with pytest.raises(ValueError, match="label= names the label column"):
        assay.report(t, y_score="p")
    with pytest.raises(ValueError, match=r"column\(s\) \['q'\] not in the data"):
        assay.report(t, label="y", y_score="q")
    with pytest.raises(ValueError, match="method is 'exact'"):
        assay.report(t, label="y", y_score="p", ci=0.95, method="exact")
    with pytest.raises(ValueError, match="must be numeric"):
        assay.report(pa.table({"y": [0, 1], "p": ["a", "b"]}), label="y", y_score="p")
    assert isinstance(_spec(score="p").new_state().serialize(), bytes)


def test_arrays_with_the_stream_protocol_are_still_label_arrays():
    # a ChunkedArray has __arrow_c_stream__ but, without label=, is an array of labels as before
    y = pa.chunked_array([[0, 1, 1], [0, 1]])
    s = np.array([0.1, 0.8, 0.6, 0.3, 0.9])
    assert assay.report(y, y_score=s).to_dict() == assay.report(np.array([0, 1, 1, 0, 1]), y_score=s).to_dict()


@pytest.mark.parametrize("case", [dict(score="p", weight=None, pos_label="spam"),
                                  dict(pred="c", weight=None, pos_label="spam")])
@pytest.mark.parametrize("method", ["auto", "clopper_pearson"])
def test_intervals_without_weights_from_any_partitioning(rng, case, method):
    # Wilson / Clopper-Pearson, the multinomial bootstrap, DeLong, the normal and logit intervals come
    # from the state's counts and runs: partitions need no global row index.
    t = binary_table(rng, 2500)
    ci = dict(ci=0.9, method=method, replicates=150, random_state=4)
    expected = reference(t, **case, **ci)
    assert any(k.endswith("_ci_method") for k in expected)
    spec = _spec(**case, **ci)
    for k in (1, 2, 3, 17):
        parts = [_scale.state_of_batches(piece.to_batches(), spec) for piece in split(t, k, rng)]
        order = rng.permutation(len(parts))
        assert _scale.finish([parts[i] for i in order], spec).to_dict() == expected


@pytest.mark.parametrize("case", [dict(score="p", weight="w", pos_label="spam", method="auto"),
                                  dict(score="p", weight=None, pos_label="spam", method="bootstrap"),
                                  dict(pred="c", weight="w", pos_label="spam", method="auto")])
def test_resampled_intervals_of_a_stream_equal_the_single_process_report(rng, case):
    # With weights or method='bootstrap' rows are resampled with Poisson weights drawn on their index
    # in the stream: the state keeps every row, and the report equals assay.report on all rows.
    t = binary_table(rng, 1500)
    ci = dict(ci=0.9, replicates=100, random_state=7)
    expected = reference(t, **case, **ci)
    assert "poisson bootstrap" in str(expected)
    batches = [b for piece in split(t, 5, rng) for b in piece.to_batches()]
    reader = pa.RecordBatchReader.from_batches(t.schema, batches)
    label_args = dict(y_score=case["score"]) if "score" in case else dict(y_pred=case["pred"])
    got = assay.report(reader, label="y", **label_args, sample_weight=case["weight"], pos_label="spam",
                       method=case["method"], **ci).to_dict()
    assert got == expected


@pytest.mark.parametrize("weight", [None, "w"])
def test_kept_curves_of_a_stream_give_the_same_html_page(rng, weight):
    # ROC, PR, threshold sweep and reliability curve from the state: the page equals the in-memory one.
    t = binary_table(rng, 3000)
    args = dict(y_score=t.column("p").to_numpy())
    if weight:
        args["sample_weight"] = t.column("w").to_numpy()
    y = t.column("y").to_numpy(zero_copy_only=False)
    want = assay.report(y, **args, pos_label="spam")._repr_html_()
    assert "reliability" in want.lower()
    batches = [b for piece in split(t, 4, rng) for b in piece.to_batches()]
    reader = pa.RecordBatchReader.from_batches(t.schema, batches)
    got = assay.report(reader, label="y", y_score="p", sample_weight=weight, pos_label="spam")
    assert got._repr_html_().replace("arrow", "predictions_from_scores") == want


@pytest.mark.parametrize("weighted", [False, True])
def test_regression_from_any_partitioning(rng, weighted):
    # Every regression number (MAE ... median absolute error, max error) from the state's maps of
    # (target, weight) and (residual, weight): equal to assay.report on all rows.
    n = 2000
    y = np.round(rng.normal(0, 20, n), 1)
    yhat = y + np.round(rng.normal(0, 3, n), 2)
    w = rng.integers(0, 5, n) / 4.0
    t = pa.table({"y": y, "p": yhat, "w": w})
    kw = dict(sample_weight=w) if weighted else {}
    expected = assay.report(y, y_pred=yhat, task="regression", **kw).to_dict()
    expected["source"] = "arrow"
    assert "median_absolute_error" in expected
    spec = _spec(pred="p", weight="w" if weighted else None, task="regression")
    assert expected["mean_absolute_percentage_error_undefined"].startswith("the target is 0 in case")
    for k in (1, 2, 3, 17):
        pieces = split(t, k, rng)
        offsets = np.cumsum([0] + [p.num_rows for p in pieces])  # the rows' indices among all rows
        parts = [_scale.state_of_batches(p.to_batches(), spec, int(o)) for p, o in zip(pieces, offsets)]
        order = rng.permutation(len(parts))
        assert _scale.finish([parts[i] for i in order], spec).to_dict() == expected
    got = assay.report(t, label="y", y_pred="p", sample_weight="w" if weighted else None, task="regression")
    assert got.to_dict() == expected


@pytest.mark.parametrize("method", ["auto", "bootstrap"])
def test_intervals_of_class_probabilities_and_regression(rng, method):
    # Every interval (the normal ones of the mean losses, DeLong per class, the Poisson bootstrap of
    # the rest) from the rows the states keep, drawn on their indices among all rows: the single-process
    # report's, from any partitioning and merge order, weighted or not.
    ci = dict(ci=0.9, method=method, replicates=60, random_state=4)
    t = proba_table(rng, 900)
    n = 900
    y = np.round(rng.normal(0, 20, n), 1)
    r = pa.table({"y": y, "p": y + np.round(rng.normal(0, 3, n), 2), "w": rng.integers(0, 5, n) / 4.0})
    for weight in (None, "w"):
        cases = ((t, dict(proba=["c", "a", "b"]), dict(y_proba=["c", "a", "b"])),
                 (r, dict(pred="p", task="regression"), dict(y_pred="p", task="regression")))
        for table, spec_kw, report_kw in cases:
            expected = assay.report(table, label="y", sample_weight=weight, **report_kw, **ci).to_dict()
            assert "poisson bootstrap" in str(expected)
            spec = _spec(weight=weight, **spec_kw, **ci)
            for k in (1, 2, 3, 17):
                pieces = split(table, k, rng)
                offsets = np.cumsum([0] + [p.num_rows for p in pieces])
                parts = [_scale.state_of_batches(p.to_batches(max_chunksize=100), spec, int(o))
                         for p, o in zip(pieces, offsets)]
                order = rng.permutation(len(parts))
                assert _scale.finish([parts[i] for i in order], spec).to_dict() == expected
    # ... and equal to the in-memory report on the columns as arrays
    kw = dict(sample_weight=r.column("w").to_numpy(), task="regression", **ci)
    want = assay.report(r.column("y").to_numpy(), y_pred=r.column("p").to_numpy(), **kw).to_dict()
    want["source"] = "arrow"
    assert assay.report(r, label="y", y_pred="p", sample_weight="w", task="regression", **ci).to_dict() == want


def test_dropped_rows_keep_the_indices_of_the_rows_left(rng):
    # With drop_missing, the rows left keep their indices among all rows (their Poisson weights do not
    # shift): the intervals do not depend on how the stream is cut into batches or partitions.
    t = binary_table(rng, 1200, missing=9)
    ci = dict(ci=0.9, method="auto", replicates=80, random_state=2)
    spec = _spec(score="p", weight="w", pos_label="spam", drop_missing=True, **ci)
    results = []
    for k in (1, 3, 17):
        pieces = split(t, k, rng)
        offsets = np.cumsum([0] + [p.num_rows for p in pieces])
        parts = [_scale.state_of_batches(p.to_batches(max_chunksize=50), spec, int(o))
                 for p, o in zip(pieces, offsets)]
        r = _scale.finish(parts, spec)
        assert r.missing == 9
        results.append(r.to_dict())
    assert results[0] == results[1] == results[2]
    assert "poisson bootstrap" in results[0]["roc_auc_ci_method"]


@pytest.mark.parametrize("case", CASES)
def test_chunked_arrays_and_table_columns_agree(rng, case):
    # The same columns through both Arrow routes, which share one conversion (python/src/arrow.cpp):
    # a table's columns into the mergeable state (assay.report(table, label=...)), and the table's
    # columns as pyarrow ChunkedArrays (several chunks) given as arrays (assay.report(y, y_score=...)).
    t = binary_table(rng, 2500)
    t = pa.concat_tables([t.slice(0, 700), t.slice(700, 1), t.slice(701)])  # three chunks per column
    assert t.column("y").num_chunks == 3
    names = {"score": "y_score", "pred": "y_pred", "weight": "sample_weight"}
    table_kw = {names[k]: v for k, v in case.items() if k in names and v is not None}
    array_kw = {names[k]: t.column(v) for k, v in case.items() if k in names and v is not None}
    other = {k: v for k, v in case.items() if k not in names}
    via_table = assay.report(t, label="y", **table_kw, **other).to_dict()
    via_arrays = assay.report(t.column("y"), **array_kw, **other, keep_curves=False).to_dict()
    assert via_arrays["source"] in ("predictions_from_scores", "predictions_from_labels")
    via_arrays["source"] = "arrow"
    assert via_table == via_arrays
    # and the same numbers as the NumPy columns
    assert via_table == reference(t, **case)


@pytest.mark.parametrize("k", [1, 2, 3, 17])
def test_class_probabilities_equal_the_single_process_report(rng, k):
    # Columns named after the classes in another order than theirs, weights with zeros, ties; any
    # partitioning and merge order; top-k; through a record batch stream.
    t = proba_table(rng, 2500)
    for weight, top_k in ((None, 2), ("w", 1)):
        expected = proba_reference(t, ["c", "a", "b"], weight=weight, top_k=top_k)
        assert "roc_auc_ovo_weighted" in expected and expected["log_loss"] > 0
        spec = _spec(proba=["c", "a", "b"], weight=weight, top_k=top_k)
        parts, first = [], 0
        for piece in split(t, k, rng):
            parts.append(_scale.state_of_batches(piece.to_batches(), spec, first))
            first += piece.num_rows
        order = rng.permutation(len(parts))
        assert _scale.finish([parts[i] for i in order], spec).to_dict() == expected
    batches = [b for piece in split(t, k, rng) for b in piece.to_batches()]
    reader = pa.RecordBatchReader.from_batches(t.schema, batches)
    assert assay.report(reader, label="y", y_proba=["c", "a", "b"], sample_weight="w").to_dict() == \
        proba_reference(t, ["c", "a", "b"], weight="w")


def test_class_probabilities_refusals(rng):
    t = proba_table(rng, 50)
    with pytest.raises(ValueError, match="proba is 'a'"):
        assay.report(t, label="y", y_proba="a")
    with pytest.raises(ValueError, match="leave classes out"):
        assay.report(t, label="y", y_proba=["a", "b", "c"], classes=["a", "b", "c"])


SLICED = [
    dict(score="p", weight=None, pos_label="spam", by=["region"]),
    dict(score="p", weight="w", pos_label="spam", by=["region", "tier"]),
    dict(pred="c", weight=None, pos_label=None, task="multiclass", by=["tier", "region"]),
    dict(pred="c", weight="w", pos_label="spam", by=["tier"]),
]


@pytest.mark.parametrize("case", SLICED)
@pytest.mark.parametrize("k", [1, 2, 3, 17])
def test_sliced_reports_from_partitions_equal_the_single_process_report(rng, case, k):
    # Every slice's report, the headline tables and their tests (z, chi-square, DeLong slice vs rest)
    # from states merged in any order: the in-memory sliced report, exactly.
    t = sliced_table(rng, 3000)
    by = case["by"]
    kw = {k_: v for k_, v in case.items() if k_ != "by"}
    expected = sliced_reference(t, by, **kw)
    assert "region" not in by or any("zz" in s["key"] for s in expected["slices"])
    spec = _spec(**kw, by=by if len(by) > 1 else by[0])
    parts = [_scale.state_of_batches(piece.to_batches(), spec) for piece in split(t, k, rng)]
    for _ in range(2):
        order = rng.permutation(len(parts))
        assert _scale.finish([parts[i] for i in order], spec).to_dict() == expected
    assert _scale.tree_merge([b for b, _ in parts], spec, fanout=2) == \
        _scale.tree_merge([b for b, _ in parts], spec, fanout=len(parts) + 1)
    # assay.report on the table (batch by batch) is the same report
    got = assay.report(t, label="y", y_score=kw.get("score"), y_pred=kw.get("pred"), sample_weight=kw.get("weight"),
                       pos_label=kw.get("pos_label"), task=kw.get("task", "auto"), by=by)
    assert isinstance(got, assay.SlicedReport)
    assert got.to_dict() == expected


def test_sliced_reports_with_intervals_missing_keys_and_bad_input(rng):
    t = sliced_table(rng, 2000, null_keys=7)
    # Null keys are missing rows: refused with their count, or dropped and counted.
    with pytest.raises(ValueError, match=r"report: 7 row\(s\) have a missing"):
        assay.report(t, label="y", y_score="p", pos_label="spam", by="region")
    got = assay.report(t, label="y", y_score="p", pos_label="spam", by="region", drop_missing=True)
    assert got.missing == 7
    d = got.to_dict()
    assert d["overall"].pop("missing") == 7
    assert d == sliced_reference(t, ["region"], score="p", pos_label="spam")
    # Intervals that resample rows (weights): each slice's rows numbered within the slice, as in memory.
    full = t.filter(pc.invert(pc.is_null(t.column("region"))))
    for piece_count in (1, 3):
        spec = _spec(score="p", weight="w", pos_label="spam", by="region", ci=0.9, replicates=40)
        row, parts = 0, []
        for piece in split(full, piece_count, rng):
            parts.append(_scale.state_of_batches(piece.to_batches(), spec, row))
            row += piece.num_rows
        assert _scale.finish(parts, spec).to_dict() == sliced_reference(full, ["region"], score="p", weight="w",
                                                                         pos_label="spam", ci=0.9, replicates=40)
    # A blob of another slicing or of an unsliced state is refused, naming what differs.
    sliced = _scale.state_of_batches(full.to_batches(), _spec(score="p", pos_label="spam", by="region"))
    with pytest.raises(ValueError, match=r"cannot merge a partition's state: read_sliced_state: the blob slices by "
                                         r"\(region\), not by \(tier\)"):
        _scale.finish([sliced], _spec(score="p", pos_label="spam", by="tier"))
    plain = _scale.state_of_batches(full.to_batches(), _spec(score="p", pos_label="spam"))
    with pytest.raises(ValueError, match="not an assay sliced state"):
        _scale.finish([plain], _spec(score="p", pos_label="spam", by="region"))
    for bad in (["region", "region"], [], ["region", "tier", "y"], 3):
        with pytest.raises(ValueError, match="report: by"):
            _spec(score="p", by=bad)
    with pytest.raises(ValueError, match=r"report: column\(s\) \['nope'\] not in the data"):
        assay.report(full, label="y", y_score="p", by="nope")


def test_sliced_regression_and_class_probabilities_name_rows_within_the_slice(rng):
    # A zero target's case number and a row of probabilities that do not sum to 1 are counted within
    # the slice, as assay.report(by=...) in memory.
    n = 1200
    y = np.round(rng.normal(5, 3, n))
    y[[50, 700]] = 0
    pred = y + np.round(rng.normal(0, 1, n), 1)
    key = rng.choice(np.array(["a", "b", "c"], dtype=object), n)
    t = pa.table({"y": y, "yhat": pred, "g": pa.array(key.tolist())})
    import pandas as pd

    want = assay.report(y, y_pred=pred, task="regression", by=pd.Series(key, name="g")).to_dict()
    got = assay.report(t, label="y", y_pred="yhat", task="regression", by="g").to_dict()
    want["overall"]["source"] = "arrow"
    for s in want["slices"]:
        s["report"]["source"] = "arrow"
    assert "the target is 0 in case" in str(want["slices"])
    assert got == want


@pytest.mark.parametrize("weight", [None, "w"])
@pytest.mark.parametrize("k", [1, 3])
def test_operating_points_under_constraints_from_partitions(rng, weight, k):
    # max_fpr (with the umbrella threshold, an order statistic of the negatives' scores, unweighted),
    # min_tpr, min_precision, min_recall: the in-memory report's operating points, from merged states.
    t = binary_table(rng, 3000)
    c = dict(max_fpr=0.1, confidence=0.9, min_tpr=0.8, min_precision=0.6, min_recall=0.5)
    expected = reference(t, score="p", weight=weight, pos_label="spam", **c)
    assert expected["operating_points"]["max_fpr"]["threshold"] is not None
    spec = _spec(score="p", weight=weight, pos_label="spam", **c)
    parts = [_scale.state_of_batches(piece.to_batches(), spec) for piece in split(t, k, rng)]
    assert _scale.finish(parts, spec).to_dict() == expected
    got = assay.report(t, label="y", y_score="p", sample_weight=weight, pos_label="spam", keep_curves=False, **c)
    assert got.to_dict() == expected
    # Sliced: every slice's operating points too.
    s = sliced_table(rng, 2000)
    want = sliced_reference(s, ["region"], score="p", pos_label="spam", max_fpr=0.1, min_recall=0.5)
    assert assay.report(s, label="y", y_score="p", pos_label="spam", by="region", max_fpr=0.1,
                        min_recall=0.5).to_dict() == want
    # Predicted classes: the in-memory refusal.
    with pytest.raises(ValueError, match="operating points under a constraint need a binary score"):
        assay.report(t, label="y", y_pred="c", pos_label="spam", max_fpr=0.1)
