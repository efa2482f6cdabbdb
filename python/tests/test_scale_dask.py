"""assay.dask.evaluate on a distributed.LocalCluster with 2 worker processes: the report equals
assay.report on all rows in one process, whatever the partitioning and the shape of the merge tree."""

import numpy as np
import pandas as pd
import pytest

from scale_data import (binary_table, multiclass_table, proba_reference, proba_table, reference, sliced_reference,
                        sliced_table)

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

import assay.dask  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.mark.parametrize("k", [1, 2, 3, 17])
def test_partitions_give_the_single_process_report(client, k):
    rng = np.random.default_rng(100 + k)
    t = binary_table(rng, 3000)
    ddf = dd.from_pandas(t.to_pandas(), npartitions=k, sort=False)
    for split_every in (2, 8):
        got = assay.dask.evaluate(ddf, label="y", score="p", weight="w", pos_label="spam",
                                  split_every=split_every).to_dict()
        assert got == reference(t, score="p", weight="w", pos_label="spam", source="dask")
    m = multiclass_table(rng, 2000)
    mdf = dd.from_pandas(m.to_pandas(), npartitions=k, sort=False)
    assert assay.dask.evaluate(mdf, label="y", pred="c", weight="w").to_dict() == \
        reference(m, pred="c", weight="w", source="dask")


def test_bad_input(client):
    rng = np.random.default_rng(3)
    t = binary_table(rng, 500, missing=4)
    ddf = dd.from_pandas(t.to_pandas(), npartitions=3, sort=False)
    with pytest.raises(ValueError, match=r"assay.dask.evaluate: 4 row\(s\) have a missing"):
        assay.dask.evaluate(ddf, label="y", score="p", pos_label="spam")
    r = assay.dask.evaluate(ddf, label="y", score="p", pos_label="spam", drop_missing=True)
    assert r.missing == 4
    with pytest.raises(ValueError, match=r"assay.dask.evaluate: by is 3; it must name 1 or 2 slice columns"):
        assay.dask.evaluate(ddf, label="y", score="p", pos_label="spam", by=3)
    # empty partitions
    pdf = t.to_pandas().dropna()
    parts = [pdf.iloc[:0], pdf.iloc[:100], pdf.iloc[:0], pdf.iloc[100:]]
    ddf = dd.from_delayed([__import__("dask").delayed(p) for p in parts], meta=pdf.iloc[:0])
    import pyarrow as pa

    expected = reference(pa.Table.from_pandas(pdf, preserve_index=False), score="p", pos_label="spam", source="dask")
    got = r.to_dict()
    assert got.pop("missing") == 4  # the rows skipped, as `assay report --drop-missing` (docs/report-json.md)
    assert got == expected
    assert assay.dask.evaluate(ddf, label="y", score="p", pos_label="spam").to_dict() == expected
    with pytest.raises(ValueError, match="split_every"):
        assay.dask.evaluate(ddf, label="y", score="p", split_every=1)


def test_intervals_without_weights(client):
    # Analytic intervals (Wilson, multinomial bootstrap, DeLong, normal, logit) from the merged blobs.
    rng = np.random.default_rng(7)
    t = binary_table(rng, 2000)
    ddf = dd.from_pandas(t.to_pandas(), npartitions=5, sort=False)
    ci = dict(ci=0.9, replicates=200, random_state=3)
    got = assay.dask.evaluate(ddf, label="y", score="p", pos_label="spam", **ci).to_dict()
    assert got == reference(t, score="p", pos_label="spam", source="dask", **ci)
    assert got["roc_auc_ci_method"] == "delong"


def test_regression(client):
    rng = np.random.default_rng(8)
    n = 1500
    y = np.round(rng.normal(0, 20, n), 1)
    yhat = y + np.round(rng.normal(0, 3, n), 2)
    w = rng.integers(0, 5, n) / 4.0
    ddf = dd.from_pandas(pd.DataFrame({"y": y, "p": yhat, "w": w}), npartitions=4, sort=False)
    got = assay.dask.evaluate(ddf, label="y", pred="p", weight="w", task="regression").to_dict()
    want = assay.report(y, y_pred=yhat, sample_weight=w, task="regression").to_dict()
    want["source"] = "dask"
    assert got == want


def test_resampled_intervals_on_row_indices(client):
    # Weights: the Poisson bootstrap draws each row's weight on its index among all rows, which the
    # partitions get from a first pass counting their rows.
    rng = np.random.default_rng(9)
    t = binary_table(rng, 1500)
    ddf = dd.from_pandas(t.to_pandas(), npartitions=4, sort=False)
    ci = dict(ci=0.9, replicates=100, random_state=5)
    got = assay.dask.evaluate(ddf, label="y", score="p", weight="w", pos_label="spam", **ci).to_dict()
    assert got == reference(t, score="p", weight="w", pos_label="spam", source="dask", **ci)
    assert "poisson bootstrap" in got["roc_auc_ci_method"]


def test_intervals_of_class_probabilities_and_regression(client):
    # Every interval of class probabilities and of regression reads every row: the states keep them,
    # each partition numbering its rows from its first row's index among all rows.
    rng = np.random.default_rng(11)
    ci = dict(ci=0.9, replicates=60, random_state=7)
    t = proba_table(rng, 1200)
    ddf = dd.from_pandas(t.to_pandas(), npartitions=3, sort=False)
    for weight in (None, "w"):
        got = assay.dask.evaluate(ddf, label="y", proba=["c", "a", "b"], weight=weight, **ci).to_dict()
        assert got == proba_reference(t, ["c", "a", "b"], weight=weight, source="dask", **ci)
        assert "normal, from the variance" in str(got) and "poisson bootstrap" in str(got)
    y = np.round(rng.normal(0, 20, 1500), 1)
    frame = pd.DataFrame({"y": y, "p": y + np.round(rng.normal(0, 3, 1500), 2), "w": rng.integers(0, 5, 1500) / 4.0})
    got = assay.dask.evaluate(dd.from_pandas(frame, npartitions=4, sort=False), label="y", pred="p", weight="w",
                              task="regression", **ci).to_dict()
    want = assay.report(frame["y"].to_numpy(), y_pred=frame["p"].to_numpy(), sample_weight=frame["w"].to_numpy(),
                        task="regression", **ci).to_dict()
    want["source"] = "dask"
    assert got == want


@pytest.mark.parametrize("k", [1, 3, 17])
def test_class_probabilities(client, k):
    # Columns named after the classes in another order than theirs, weights with zeros, ties.
    rng = np.random.default_rng(200 + k)
    t = proba_table(rng, 2000)
    ddf = dd.from_pandas(t.to_pandas(), npartitions=k, sort=False)
    for weight in (None, "w"):
        got = assay.dask.evaluate(ddf, label="y", proba=["c", "a", "b"], weight=weight, top_k=1,
                                  split_every=2).to_dict()
        assert got == proba_reference(t, ["c", "a", "b"], weight=weight, top_k=1, source="dask")


@pytest.mark.parametrize("k", [1, 2, 3, 17])
def test_sliced_reports_on_any_partitioning(client, k):
    # by=: one sliced state per partition, merged in a tree: assay.report(by=...) in one process, also
    # with weighted intervals (each slice's rows resampled by their index within the slice).
    rng = np.random.default_rng(200 + k)
    t = sliced_table(rng, 2000)
    ddf = dd.from_pandas(t.to_pandas(), npartitions=k, sort=False)
    for kw in (dict(score="p", by=["region", "tier"]), dict(pred="c", weight="w", by=["tier"]),
               dict(score="p", weight="w", by=["region"], ci=0.9, replicates=30)):
        by = kw.pop("by")
        got = assay.dask.evaluate(ddf, label="y", pos_label="spam", by=by, split_every=2, **kw).to_dict()
        assert got == sliced_reference(t, by, pos_label="spam", source="dask", **kw)


def test_operating_points_under_constraints(client):
    rng = np.random.default_rng(300)
    t = binary_table(rng, 2000)
    ddf = dd.from_pandas(t.to_pandas(), npartitions=3, sort=False)
    c = dict(max_fpr=0.1, min_recall=0.5)
    got = assay.dask.evaluate(ddf, label="y", score="p", weight="w", pos_label="spam", **c).to_dict()
    assert got == reference(t, score="p", weight="w", pos_label="spam", source="dask", **c)
