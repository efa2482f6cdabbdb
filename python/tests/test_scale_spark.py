"""assay.spark.evaluate on a local Spark (local[2,2]: 2 cores, a failed task is retried once): the report
equals assay.report on all rows in one process, whatever the partitioning; Spark's own exact
BinaryClassificationMetrics gives the same ROC AUC; a task that fails once and is retried changes
nothing."""

import os
import shutil
import sys

import numpy as np
import pyarrow as pa
import pytest

from scale_data import binary_table, reference, sliced_reference, sliced_table

if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs Java (17): no java on PATH and no JAVA_HOME", allow_module_level=True)

pyspark = pytest.importorskip("pyspark")

import assay.spark  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    s = (SparkSession.builder.master("local[2,2]").appName("assay-tests")
         .config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "4")
         .config("spark.sql.execution.arrow.maxRecordsPerBatch", "500")
         .config("spark.sql.execution.arrow.pyspark.enabled", "true")
         .config("spark.driver.memory", "1g")
         .getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def data(spark):
    rng = np.random.default_rng(16)
    t = binary_table(rng, 4000)
    return t, spark.createDataFrame(t.to_pandas())


def _failing_once(df):
    """df whose partition 0 fails in its first attempt, after its first batch: Spark retries the task."""
    from pyspark import TaskContext

    def fail_first_attempt(batches):
        ctx = TaskContext.get()
        for i, b in enumerate(batches):
            if i == 1 and ctx.partitionId() == 0 and ctx.attemptNumber() == 0:
                raise RuntimeError("failing the first attempt on purpose")
            yield b

    return df.mapInArrow(fail_first_attempt, df.schema)


@pytest.mark.parametrize("k", [1, 2, 3, 17])
def test_partitions_give_the_single_process_report(data, k):
    t, df = data
    d = df.repartition(k)
    assert d.rdd.getNumPartitions() == k
    got = assay.spark.evaluate(d, label="y", score="p", weight="w", pos_label="spam").to_dict()
    assert got == reference(t, score="p", weight="w", pos_label="spam", source="spark")
    got = assay.spark.evaluate(d, label="y", pred="c", pos_label="spam").to_dict()
    assert got == reference(t, pred="c", pos_label="spam", source="spark")


def test_roc_auc_equals_spark_mllib_exact(spark, data):
    from pyspark.mllib.evaluation import BinaryClassificationMetrics

    t, df = data
    d = df.repartition(3)
    ours = assay.spark.evaluate(d, label="y", score="p", pos_label="spam").to_dict()
    ours_w = assay.spark.evaluate(d, label="y", score="p", weight="w", pos_label="spam").to_dict()
    lab = d.selectExpr("p", "CAST(CASE WHEN y = 'spam' THEN 1 ELSE 0 END AS DOUBLE) AS l", "w")
    # BinaryClassificationMetrics' default numBins is 0: exact (one point per distinct score)
    spark_auc = BinaryClassificationMetrics(lab.select("p", "l").rdd.map(tuple)).areaUnderROC
    spark_auc_w = BinaryClassificationMetrics(lab.rdd.map(tuple)).areaUnderROC
    assert abs(ours["roc_auc"] - spark_auc) <= 1e-12
    assert abs(ours_w["roc_auc"] - spark_auc_w) <= 1e-12
    assert abs(ours["roc_auc"] - ours_w["roc_auc"]) > 1e-6  # the weights matter on this data


def test_a_retried_task_changes_nothing(spark, data):
    t, df = data
    flaky = _failing_once(df.repartition(3))
    got = assay.spark.evaluate(flaky, label="y", score="p", weight="w", pos_label="spam").to_dict()
    assert got == reference(t, score="p", weight="w", pos_label="spam", source="spark")


def test_bad_input(spark):
    rng = np.random.default_rng(7)
    t = binary_table(rng, 600)
    y = t.column("y").to_pylist()
    y[5] = None
    tn = t.set_column(0, "y", pa.array(y))
    df = spark.createDataFrame(tn.to_pandas()).repartition(3)
    with pytest.raises(ValueError, match=r"assay.spark.evaluate: 1 row\(s\) have a missing"):
        assay.spark.evaluate(df, label="y", score="p", pos_label="spam")
    r = assay.spark.evaluate(df, label="y", score="p", pos_label="spam", drop_missing=True)
    assert r.missing == 1
    with pytest.raises(ValueError, match=r"assay.spark.evaluate: by is \['c', 'c'\]; it must name|by names the "
                                         r"column 'c' twice"):
        assay.spark.evaluate(df, label="y", score="p", pos_label="spam", by=["c", "c"])
    keep = t.filter(pa.array([i != 5 for i in range(t.num_rows)]))
    d = r.to_dict()
    assert d.pop("missing") == 1
    assert d == reference(keep, score="p", pos_label="spam", source="spark")
    # empty partitions: 17 partitions of 10 rows
    small = t.slice(0, 10)
    d = spark.createDataFrame(small.to_pandas()).repartition(17)
    assert assay.spark.evaluate(d, label="y", score="p", pos_label="spam").to_dict() == \
        reference(small, score="p", pos_label="spam", source="spark")
    # `1` in one partition and `1.0` in another: one class (numeric spellings unified), however split
    n = 400
    y01 = rng.random(n) < 0.4
    lab = np.where(y01, "1", "0").astype(object)
    lab[200:] = np.where(y01[200:], "1.0", "0")
    p = np.round(rng.random(n), 1)
    import pandas as pd

    pdf = pd.DataFrame({"i": np.arange(n), "y": lab.tolist(), "p": p})
    expected = assay.report(y01.astype(float), y_score=p, keep_curves=False).to_dict()
    expected["source"] = "spark"
    for k in (1, 2, 5):
        d = spark.createDataFrame(pdf).repartitionByRange(k, "i")
        assert assay.spark.evaluate(d, label="y", score="p").to_dict() == expected
    with pytest.raises(ValueError, match=r"column\(s\) \['q'\] not in the data"):
        assay.spark.evaluate(d, label="y", score="q")


def test_resampled_intervals_and_regression_on_row_indices(spark, data):
    # Weights (Poisson bootstrap on each row's index among all rows) and regression (MAPE names the
    # first zero target by its index): a first job counts each partition's rows. The DataFrame keeps
    # the table's order (no repartition), so the report is assay.report's on all rows.
    t, df = data
    ci = dict(ci=0.9, replicates=100, random_state=5)
    for d in (df, df.coalesce(1)):
        got = assay.spark.evaluate(d, label="y", score="p", weight="w", pos_label="spam", **ci).to_dict()
        assert got == reference(t, score="p", weight="w", pos_label="spam", source="spark", **ci)
        assert "poisson bootstrap" in got["roc_auc_ci_method"]
    rng = np.random.default_rng(17)
    n = 1500
    y = np.round(rng.normal(0, 20, n), 1)
    yhat = y + np.round(rng.normal(0, 3, n), 2)
    w = rng.integers(0, 5, n) / 4.0
    import pandas as pd

    rdf = spark.createDataFrame(pd.DataFrame({"y": y, "p": yhat, "w": w}))
    for kw in ({}, ci):  # regression's intervals: from the rows the states keep
        got = assay.spark.evaluate(rdf, label="y", pred="p", weight="w", task="regression", **kw).to_dict()
        want = assay.report(y, y_pred=yhat, sample_weight=w, task="regression", **kw).to_dict()
        want["source"] = "spark"
        assert got == want


def test_class_probabilities(spark):
    # Columns named after the classes in another order than theirs, weights with zeros, ties; 3
    # partitions (a first job counts their rows: the first row off 1 would be named by its index).
    from scale_data import proba_reference, proba_table

    t = proba_table(np.random.default_rng(18), 2000)
    df = spark.createDataFrame(t.to_pandas()).coalesce(3)
    got = assay.spark.evaluate(df, label="y", proba=["c", "a", "b"], weight="w").to_dict()
    assert got == proba_reference(t, ["c", "a", "b"], weight="w", source="spark")


# ---- pre-aggregation in the JVM (aggregate=): groups of identical rows with their counts -------------

def _three_ways(d, **kw):
    """The reports of the grouped path, the row path and aggregate='auto', as dicts."""
    return [assay.spark.evaluate(d, aggregate=a, **kw).to_dict() for a in (True, False, "auto")]


@pytest.mark.parametrize("k", [1, 2, 3, 17])
def test_grouped_rows_give_the_row_path_and_single_process_report(data, k):
    # Ties (scores of 2 decimals, weights in quarters), string labels: the groups fold many rows.
    t, df = data
    d = df.repartition(k)
    for kw in (dict(score="p", weight="w"), dict(score="p"), dict(pred="c"), dict(pred="c", weight="w")):
        want = reference(t, **kw, pos_label="spam", source="spark")
        grouped, rows, auto = _three_ways(d, label="y", pos_label="spam", **kw)
        assert grouped == want, kw
        assert rows == want, kw
        assert auto == want, kw
    # Unweighted analytic intervals and the DeLong variance come from counts and runs: grouped too.
    ci = dict(ci=0.9, method="wilson")
    want = reference(t, score="p", pos_label="spam", source="spark", **ci)
    assert all(r == want for r in _three_ways(d, label="y", score="p", pos_label="spam", **ci))


def test_grouped_random_data_with_numeric_spellings_and_missing_values(spark):
    # Labels "1" and "1.0" (one class: numeric spellings unified), scores with ties and a few distinct,
    # weights with zeros, null labels and NaN scores: refused with the same count, or dropped.
    import pandas as pd

    rng = np.random.default_rng(1616)
    n = 3000
    y01 = rng.random(n) < 0.35
    lab = np.where(y01, np.where(rng.random(n) < 0.5, "1", "1.0"), np.where(rng.random(n) < 0.5, "0", "0.0"))
    lab = lab.astype(object)
    p = np.where(rng.random(n) < 0.8, np.round(rng.random(n) * 0.7 + 0.3 * y01, 2), rng.random(n))
    w = rng.integers(0, 6, n) / 10.0
    drop = rng.choice(n, 40, replace=False)
    lab_m, p_m = lab.copy(), p.copy()
    lab_m[drop[:15]] = None
    p_m[drop[15:]] = np.nan
    pdf = pd.DataFrame({"i": np.arange(n), "y": lab_m.tolist(), "p": p_m, "w": w})
    keep = np.setdiff1d(np.arange(n), drop)
    for weighted in (False, True):
        want = assay.report(y01[keep].astype(float), y_score=p[keep], sample_weight=w[keep] if weighted else None,
                            keep_curves=False).to_dict()
        want["source"] = "spark"
        want["missing"] = 40
        for k in (1, 3, 17):
            d = spark.createDataFrame(pdf).repartitionByRange(k, "i")
            kw = dict(label="y", score="p", weight="w" if weighted else None)
            for a in (True, False):
                with pytest.raises(ValueError, match=r"assay.spark.evaluate: 40 row\(s\) have a missing"):
                    assay.spark.evaluate(d, aggregate=a, **kw)
                r = assay.spark.evaluate(d, aggregate=a, drop_missing=True, **kw)
                assert r.missing == 40
                assert r.to_dict() == want, (weighted, k, a)


def test_grouped_path_survives_a_retried_task(spark, data):
    t, df = data

    flaky = _failing_once(df.repartition(3))
    got = assay.spark.evaluate(flaky, label="y", score="p", weight="w", pos_label="spam", aggregate=True).to_dict()
    assert got == reference(t, score="p", weight="w", pos_label="spam", source="spark")


def test_aggregate_choice_and_refusals(spark, data):
    from assay.spark import _groups_pay

    t, df = data
    # 'auto': groups when the first rows repeat (2-decimal scores), rows when they are distinct.
    assert _groups_pay(df.select("y", "p", "w"), ["y", "p", "w"])
    rng = np.random.default_rng(3)
    import pandas as pd

    distinct = spark.createDataFrame(pd.DataFrame({"y": (rng.random(3000) < 0.5).astype(float),
                                                   "p": rng.random(3000)}))
    assert not _groups_pay(distinct, ["y", "p"])
    assert not _groups_pay(distinct.limit(0), ["y", "p"])
    with pytest.raises(ValueError, match=r"aggregate is 'yes'; it must be 'auto', True or False"):
        assay.spark.evaluate(df, label="y", score="p", aggregate="yes")
    with pytest.raises(ValueError, match=r"aggregate=True cannot be used here: intervals with sample weights"):
        assay.spark.evaluate(df, label="y", score="p", weight="w", ci=0.9, aggregate=True)
    # where a row index is needed, 'auto' keeps the row path (weighted bootstrap on row indices)
    ci = dict(ci=0.9, replicates=50, random_state=3)
    got = assay.spark.evaluate(df, label="y", score="p", weight="w", pos_label="spam", **ci).to_dict()
    assert got == reference(t, score="p", weight="w", pos_label="spam", source="spark", **ci)


def test_distinct_estimate_of_aggregate_auto():
    # The occupancy estimator behind aggregate='auto': from 65536 draws of D equally likely values,
    # within 10% of D for D up to 10^6 (its standard error there is about 2%: a 5-sigma margin), and
    # infinite when no draw repeats.
    from assay.spark import _distinct_estimate

    rng = np.random.default_rng(19)
    for D in (500, 12002, 100_000, 1_000_000):
        d = np.unique(rng.integers(0, D, 65536)).size
        assert abs(_distinct_estimate(65536, d) / D - 1) < 0.1, D
    assert _distinct_estimate(65536, 65536) == float("inf")


# ---- the JVM pass of the grouped path (python/assay/java/GroupRows.java) ------------------------------

def _jvm_expected():
    """The JVM pass must be available where a Java compiler is (CI installs the JDK): else skip."""
    from assay import _spark_jvm

    if os.environ.get("ASSAY_SPARK_JVM") == "0":
        pytest.skip("ASSAY_SPARK_JVM=0 turns the JVM pass off")
    if shutil.which("javac") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no Java compiler: the JVM pass is not available (the grouped path uses Spark SQL)")
    return _spark_jvm


def _value_key(v):
    """A row value as compared by the JVM pass: floats by their bits (-0.0 and 0.0 differ), NaN as one."""
    import struct

    if isinstance(v, float):
        return "nan" if v != v else struct.pack("<d", v)
    return v


def _typed_frame(spark, rng, n):
    """Numeric columns of every type the JVM pass reads, with ties, nulls, NaN, -0.0 and 0.0."""
    import pandas as pd
    from pyspark.sql import functions as F

    y = rng.random(n) < 0.4
    p = np.round(rng.random(n) * 0.6 + 0.4 * y, 2)
    p[rng.random(n) < 0.05] = -0.0
    p[rng.random(n) < 0.05] = 0.0
    pdf = pd.DataFrame({"i": np.arange(n), "y": y.astype(np.int64), "p": p, "w": rng.integers(0, 4, n) / 2.0})
    df = spark.createDataFrame(pdf)
    null, nan = F.rand(5) < 0.01, F.rand(6) < 0.01
    return df.select(
        "i", F.when(null, None).when(nan, F.lit(float("nan"))).otherwise(F.col("p")).alias("p"), "w",
        F.col("y").cast("double").alias("y_double"), F.col("y").cast("float").alias("y_float"),
        F.col("y").alias("y_long"), F.col("y").cast("int").alias("y_int"), F.col("y").cast("smallint").alias("y_short"),
        F.col("y").cast("tinyint").alias("y_byte"), F.col("y").cast("boolean").alias("y_bool"),
        F.col("p").cast("float").alias("p_float"),
        # strings: labels with a null and a non-ASCII spelling, and one of 1500 distinct ids
        F.when(F.rand(8) < 0.01, None).when(F.col("y") == 1, "spam").otherwise(
            F.when(F.rand(9) < 0.5, "ham").otherwise("h\u00e4m")).alias("y_str"),
        (F.col("i") % 1500).cast("string").alias("id"))


def test_jvm_groups_count_each_partitions_distinct_rows(spark, tmp_path):
    from collections import Counter

    from pyspark.sql import functions as F

    jvm = _jvm_expected()
    df = _typed_frame(spark, np.random.default_rng(1601), 3000)
    cols = ["p", "w", "y_double", "y_float", "y_long", "y_int", "y_short", "y_byte", "y_bool", "p_float", "y_str"]
    want = Counter(tuple(_value_key(v) for v in r) for r in df.select(*cols).collect())
    assert ("nan",) == tuple(_value_key(v) for v in [float("nan")])
    assert any(k[0] is None for k in want) and any(k[0] == "nan" for k in want)  # nulls and NaN among the scores
    assert any(k[-1] is None for k in want) and any(k[-1] == "h\u00e4m" for k in want)
    for parts in (1, 3):
        base = df.repartition(parts) if parts > 1 else df.coalesce(1)
        path = str(tmp_path / f"t{parts}.parquet")
        base.write.parquet(path)
        parquet = spark.read.parquet(path)
        # Cached with one more column: a cached plan also serves every query over the same plan (the
        # row source below would read the cache too).
        # (The cache gives column batches when it holds numbers and booleans only: no strings there.)
        whole = base.select(*cols[:-1]).withColumn("extra", F.lit(0)).cache()
        cached = whole.select(*cols[:-1])
        sources = {  # name: (DataFrame, whether its column batches are read)
            "rows (a local relation)": (base.select(*cols), False),
            "cached": (cached, True),
            "parquet, columns reordered": (parquet.select(*reversed(cols)), True),
            "parquet, a computed column": (parquet.select(*cols[:-1], (parquet.p_float * 1).alias("p_float")), False),
        }
        for name, (d, batches) in sources.items():
            assert jvm.reads_batches(d) is batches, name
            expect = Counter(tuple(_value_key(v) for v in r) for r in d.collect())
            assert sum(expect.values()) == 3000
            for limit in (1 << 20, 1024):  # 1024: the table (512 groups) and the strings' dictionary fill
                g = jvm.groups(d, "n", max_entries=limit)
                assert g is not None, name
                assert g.dtypes == d.dtypes + [("n", "bigint")], name
                got = Counter()
                groups = g.collect()
                for r in groups:
                    got[tuple(_value_key(v) for v in r[:-1])] += r[-1]
                assert got == expect, (name, parts, limit)  # every row counted once, its values exact
                # One partition and a table that never filled (it holds limit / 2 groups): a group a value.
                if parts == 1 and 2 * len(expect) < limit:
                    assert len(groups) == len(expect), name
                else:
                    assert len(groups) >= len(expect), name
        whole.unpersist()


def test_jvm_groups_bound_their_dictionary_of_strings(spark, tmp_path):
    # 1500 distinct strings against a table of at most 1024 entries: the table and the dictionary are
    # emitted and started afresh between batches (Parquet's) or rows; the counts stay exact.
    from collections import Counter

    jvm = _jvm_expected()
    df = _typed_frame(spark, np.random.default_rng(1605), 6000).select("id", "y_str", "y_long").repartition(2)
    df.write.parquet(str(tmp_path / "s.parquet"))
    for d, batches in ((df, False), (spark.read.parquet(str(tmp_path / "s.parquet")), True)):
        assert jvm.reads_batches(d) is batches
        want = Counter(tuple(r) for r in d.collect())
        got = Counter()
        for r in jvm.groups(d, "n", max_entries=1024).collect():
            got[tuple(r[:-1])] += r[-1]
        assert got == want, batches


@pytest.mark.parametrize("k", [1, 2, 3, 17])
def test_jvm_pass_gives_the_report_of_the_rows(spark, k, monkeypatch):
    from pyspark.sql import functions as F

    jvm = _jvm_expected()
    used = []
    real = jvm.groups

    def spy(df, count, **kw):
        g = real(df, count, **kw)
        used.append(g is not None)
        return g

    monkeypatch.setattr(jvm, "groups", spy)
    rng = np.random.default_rng(1602 + k)
    t = binary_table(rng, 3000, labels="int")
    df = spark.createDataFrame(t.to_pandas()).repartition(k)
    whole = df.withColumn("extra", F.lit(0)).cache()  # see test_jvm_groups_count_each_partitions_distinct_rows
    cached = whole.select(*df.columns)
    assert not jvm.reads_batches(df.select("p", "y")) and jvm.reads_batches(cached.select("p", "y"))
    for d in (df, cached):
        for kw in (dict(score="p", weight="w"), dict(score="p"), dict(pred="c", weight="w")):
            want = reference(t, **kw, pos_label=1, source="spark")
            used.clear()
            got = assay.spark.evaluate(d, label="y", pos_label=1, aggregate=True, **kw).to_dict()
            assert used == [True], kw
            assert got == want, kw
            with monkeypatch.context() as m:
                m.setenv("ASSAY_SPARK_JVM", "0")
                m.setattr(jvm, "_classes", {})
                assert assay.spark.evaluate(d, label="y", pos_label=1, aggregate=True, **kw).to_dict() == want, kw
    whole.unpersist()


def test_jvm_pass_with_missing_values_and_a_retried_task(spark):
    _jvm_expected()
    df = _typed_frame(spark, np.random.default_rng(1603), 4000).repartition(3, "i")
    pdf = df.toPandas()
    missing = int(pdf.p.isna().sum())
    assert missing > 0
    keep = pdf.p.notna().to_numpy()
    want = assay.report(pdf.y_long.to_numpy()[keep], y_score=pdf.p.to_numpy()[keep],
                        sample_weight=pdf.w.to_numpy()[keep], keep_curves=False).to_dict()
    want["source"], want["missing"] = "spark", missing

    flaky = _failing_once(df)
    for label in ("y_long", "y_double", "y_bool", "y_byte"):
        for d in (df, flaky):
            with pytest.raises(ValueError, match=rf"assay.spark.evaluate: {missing} row\(s\) have a missing"):
                assay.spark.evaluate(d, label=label, score="p", weight="w", aggregate=True)
            got = assay.spark.evaluate(d, label=label, score="p", weight="w", aggregate=True, drop_missing=True)
            if label == "y_bool":  # classes False/True: the positive class is True, the same rows
                assert got.to_dict()["roc_auc"] == want["roc_auc"], label
            else:
                assert got.to_dict() == want, label


def test_jvm_pass_falls_back_to_spark_sql(spark, data, monkeypatch):
    from assay import _spark_jvm

    t, df = data
    # Decimals: not read by the JVM pass (GroupRows.supports says so: None); the grouped path still works.
    from pyspark.sql import functions as F

    dec = df.select(F.col("p").cast("decimal(10,2)").alias("p"), "y")
    assert _spark_jvm.groups(dec, "n") is None
    assert assay.spark.evaluate(dec, label="y", score="p", pos_label="spam", aggregate=True).to_dict() == \
        reference(t, score="p", pos_label="spam", source="spark")
    # A jar that cannot be loaded: one warning saying why, then Spark SQL's grouping, the same report.
    monkeypatch.setattr(_spark_jvm, "_classes", {})
    monkeypatch.setenv("ASSAY_SPARK_JAR", "/nonexistent/assay.jar")
    num = spark.createDataFrame(binary_table(np.random.default_rng(1604), 500, labels="int").to_pandas())
    with pytest.warns(RuntimeWarning, match=r"the JVM grouping pass is unavailable \(ASSAY_SPARK_JAR is "
                                            r"'/nonexistent/assay.jar', which does not exist\)"):
        got = assay.spark.evaluate(num, label="y", score="p", pos_label=1, aggregate=True).to_dict()
    assert got == reference(binary_table(np.random.default_rng(1604), 500, labels="int"), score="p", pos_label=1,
                            source="spark")
    assert _spark_jvm._classes and all(c is None for c in _spark_jvm._classes.values())


def test_jvm_pass_is_skipped_without_a_jvm():
    # Spark Connect: the session has no SparkContext (accessing it raises) and DataFrames no _jdf; the
    # JVM pass is then not available (None), and assay.spark.evaluate groups with Spark SQL.
    from assay import _spark_jvm

    class ConnectSession:
        @property
        def sparkContext(self):
            raise RuntimeError("[JVM_ATTRIBUTE_NOT_SUPPORTED] sparkContext is not supported in Spark Connect")

    class ConnectFrame:
        dtypes, columns, sparkSession = [("p", "double"), ("y", "bigint")], ["p", "y"], ConnectSession()

    assert _spark_jvm._class(ConnectSession()) is None
    assert _spark_jvm.groups(ConnectFrame(), "n") is None
    assert _spark_jvm.reads_batches(ConnectFrame()) is None


@pytest.fixture(scope="module")
def sliced(spark):
    rng = np.random.default_rng(24)
    t = sliced_table(rng, 3000)
    return t, spark.createDataFrame(t.to_pandas())


@pytest.mark.parametrize("k", [1, 2, 3, 17])
def test_sliced_reports_on_any_partitioning_grouped_or_not(sliced, k):
    # by=: one sliced state per task, merged; the JVM pass groups by the slice columns too. Every
    # slice's report and the headline tables' tests equal assay.report(by=...) in one process.
    t, df = sliced
    d = df.repartition(k)
    for kw in (dict(score="p", by=["region"]), dict(score="p", weight="w", by=["region", "tier"]),
               dict(pred="c", by=["tier"])):
        by = kw.pop("by")
        want = sliced_reference(t, by, pos_label="spam", source="spark", **kw)
        for aggregate in (True, False, "auto"):
            got = assay.spark.evaluate(d, label="y", pos_label="spam", by=by if len(by) > 1 else by[0],
                                       aggregate=aggregate, **kw)
            assert got.to_dict() == want, (kw, by, aggregate)


def test_sliced_intervals_missing_keys_and_a_retried_task(spark):
    rng = np.random.default_rng(25)
    t = sliced_table(rng, 1500, null_keys=5)
    df = spark.createDataFrame(t.to_pandas()).repartition(3).cache()
    with pytest.raises(ValueError, match=r"assay.spark.evaluate: 5 row\(s\) have a missing"):
        assay.spark.evaluate(df, label="y", score="p", pos_label="spam", by="region")
    rows = pa.Table.from_pandas(df.toPandas(), preserve_index=False)  # the DataFrame's row order
    got = assay.spark.evaluate(df, label="y", score="p", pos_label="spam", by="region", drop_missing=True).to_dict()
    assert got["overall"].pop("missing") == 5
    assert got == sliced_reference(rows, ["region"], score="p", pos_label="spam", source="spark")
    # Weighted intervals resample each slice's rows by their index within the slice (row ids of the
    # rows in the DataFrame's order); a task that fails once and is retried changes nothing.
    full = df.dropna(subset=["region"]).cache()
    rows = pa.Table.from_pandas(full.toPandas(), preserve_index=False)
    ci = dict(ci=0.9, replicates=40)
    want = sliced_reference(rows, ["region", "tier"], score="p", weight="w", pos_label="spam", source="spark", **ci)
    for d in (full, _failing_once(full)):
        got = assay.spark.evaluate(d, label="y", score="p", weight="w", pos_label="spam", by=["region", "tier"], **ci)
        assert got.to_dict() == want


def test_operating_points_under_constraints(data):
    # The in-memory report's operating points (the umbrella threshold from the merged runs' negatives),
    # grouped or not.
    t, df = data
    c = dict(max_fpr=0.1, confidence=0.9, min_tpr=0.8, min_precision=0.6, min_recall=0.5)
    want = reference(t, score="p", pos_label="spam", source="spark", **c)
    for aggregate in (True, False):
        got = assay.spark.evaluate(df.repartition(3), label="y", score="p", pos_label="spam", aggregate=aggregate, **c)
        assert got.to_dict() == want


_NO_ASSAY = """import sys


class _NoAssay:
    # the Python of an executor where assay is not installed
    def find_spec(self, name, path=None, target=None):
        if name == "assay" or name.startswith("assay."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NoAssay())
"""


def test_executors_without_assay_name_the_cause(spark, tmp_path):
    # What a new user meets when the executors start another Python than the driver's: Debian's
    # python3 (no pyarrow: Spark's worker fails before assay's function runs), and this Python with a
    # sitecustomize that refuses assay (assay's function runs and says so). Either way, one message
    # that names the executors' Python and PYSPARK_PYTHON, not a ModuleNotFoundError in a traceback.
    (tmp_path / "sitecustomize.py").write_text(_NO_ASSAY)
    wrapper = tmp_path / "python-without-assay"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH={tmp_path}${{PYTHONPATH:+:$PYTHONPATH}} exec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    df = spark.createDataFrame([(0, 0.1), (1, 0.8), (1, 0.4), (0, 0.3)], "y long, p double").coalesce(1)
    sc = spark.sparkContext
    before = sc.pythonExec
    cases = [(str(wrapper), r"cannot import assay: the worker runs the Python .*No module named 'assay'")]
    if os.path.exists("/usr/bin/python3") and os.path.realpath("/usr/bin/python3") != os.path.realpath(sys.executable):
        cases.append(("/usr/bin/python3", r"cannot import \w+: the workers run the Python /usr/bin/python3"))
    try:
        for python, what in cases:
            sc.pythonExec = python  # the Python of the UDFs defined from now on
            with pytest.raises(RuntimeError, match=r"^assay.spark.evaluate: a worker " + what) as e:
                assay.spark.evaluate(df, label="y", score="p", aggregate=False)
            assert "PYSPARK_PYTHON" in str(e.value) and "spark.archives" in str(e.value)
            assert "Traceback" not in str(e.value)
    finally:
        sc.pythonExec = before
