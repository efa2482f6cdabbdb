"""assay on Apache Spark: the exact report of a PySpark DataFrame, computed where the data lives.

``assay.spark.evaluate(df, label="y", score="p")`` runs one task per partition
(``DataFrame.mapInArrow``): each task streams its Arrow record batches into one mergeable evaluation
state (the C++ core's, include/assay/scale/state.hpp; no Python loop per row) and yields the state's
bytes. The blobs are merged (by the executors in a tree when there are more than 8, then by the
driver; merge is associative and commutative and the state canonical, so neither the partitioning nor
the order of the merges changes a bit of the result) and the driver finishes the
:class:`~assay.Report` that ``assay.report`` gives on all rows in one process.

Rows that repeat (rounded scores, predicted classes) are first counted in the JVM, and only the
distinct rows cross to Python, each with its row count; the state counts a group of c rows as c rows,
exactly, so the report is byte for byte the one of the rows (``aggregate=``; see :func:`evaluate` and
docs/scaling.md, "Engines"). The counting is assay's own JVM pass (``java/GroupRows.java``, compiled
on the driver at first use: :mod:`assay._spark_jvm`) where the columns are numbers, booleans or
strings, else Spark SQL's ``groupBy(<every evaluated column>).count()``.

A task that fails and is retried by Spark contributes exactly one state: a task's output is its
single blob, emitted only after the whole partition was read, so a retried attempt replaces the failed
one and nothing is counted twice.

Spark MLlib's ``BinaryClassificationEvaluator`` bins the scores (1000 bins by default) and gives ROC
AUC and PR AUC only; ``BinaryClassificationMetrics`` with ``numBins=0`` is exact but gives only the
areas and curves. This gives the whole report, exactly.
"""

from __future__ import annotations

from assay import _scale, _spark_jvm

__all__ = ["evaluate"]


def _partition_function(spec, first_rows=None, counts=None):
    """The task of one partition: its Arrow batches into one state, yielded as one row (state bytes,
    missing rows). Shipped by value with the spec as bytes (_scale.on_worker): an executor whose
    Python lacks assay fails with an error that names that Python and the fix."""
    opened = _scale.on_worker(spec, "spark")

    def run(batches):
        scale, s = opened()
        import pyarrow as pa

        first = 0
        if first_rows is not None:  # the index of the partition's first row among all rows
            from pyspark import TaskContext

            first = first_rows.get(TaskContext.get().partitionId(), 0)
        blob, missing = scale.state_of_batches(batches, s, first, counts)
        yield pa.RecordBatch.from_arrays([pa.array([blob], pa.binary()), pa.array([missing], pa.int64())],
                                         names=["state", "missing"])

    return run


# The driver merges at most this many tasks' blobs itself; more are merged by the executors first,
# in a tree of about this fan-in (RDD.treeReduce), so that the driver receives a few blobs, not one
# per partition (at 10^10 rows and thousands of partitions, tens of GB with many distinct scores).
_FAN_IN = 8


def _merge_function(spec):
    """Two (blob, missing) pairs merged into one (on an executor: the tree's inner nodes); shipped by
    value as _partition_function is."""
    opened = _scale.on_worker(spec, "spark")

    def merge_pairs(a, b):
        scale, s = opened()
        return scale.merge_blobs(a[0], b[0], s), a[1] + b[1]

    return merge_pairs


def _merged(states, spec):
    """The (blob, missing) pairs of `states` (one row per task: its state's bytes and missing rows),
    merged on the executors in a tree when there are more than _FAN_IN of them. Merging is
    associative, commutative and canonical, so the tree's shape changes no bit of the report."""
    import math

    pairs = states.rdd.map(lambda r: (bytes(r["state"]), int(r["missing"])))
    n = pairs.getNumPartitions()
    if n <= _FAN_IN:
        return pairs.collect()
    depth = max(2, math.ceil(math.log(n) / math.log(_FAN_IN)))
    return [pairs.treeReduce(_merge_function(spec), depth=depth)]


def _count_rows(spec):
    """The task that gives (partition, rows): the first pass that gives each partition its first row's
    index (shipped by value as _partition_function is)."""
    opened = _scale.on_worker(spec, "spark")

    def count(batches):
        opened()
        import pyarrow as pa
        from pyspark import TaskContext

        n = sum(b.num_rows for b in batches)
        yield pa.RecordBatch.from_arrays([pa.array([TaskContext.get().partitionId()], pa.int64()),
                                          pa.array([n], pa.int64())], names=["partition", "rows"])

    return count


# aggregate='auto' looks at the first _SAMPLE_ROWS rows and groups when they repeat enough to put
# the number of distinct rows of the DataFrame at most _MAX_GROUPS (estimated from the sample).
_SAMPLE_ROWS = 1 << 16
_MAX_GROUPS = 1 << 19


def _distinct_estimate(m, d):
    """The number D of equally likely distinct values for which m draws show d distinct ones on
    average, D (1 - exp(-m / D)) = d (the occupancy estimator; Good (1953), "The population
    frequencies of species and the estimation of population parameters", Biometrika 40): infinite
    when every draw is distinct."""
    import math

    if d >= m:
        return math.inf
    lo, hi = float(d), float(d)
    while hi * -math.expm1(-m / hi) < d:
        hi *= 2
    for _ in range(100):  # bisection: the left side grows with D
        mid = (lo + hi) / 2
        if mid * -math.expm1(-m / mid) < d:
            lo = mid
        else:
            hi = mid
    return hi


def _groups_pay(selected, columns):
    """aggregate='auto': whether the JVM should group the rows first. The first _SAMPLE_ROWS rows are
    collected and their distinct rows (tuples of the evaluated columns) counted: a DataFrame that has
    fewer rows is grouped when at most half of them are distinct; else when the estimated number of
    distinct rows of the whole DataFrame is at most _MAX_GROUPS (then the shuffle of the groups is
    cheap whatever the number of rows, and it replaces moving every row to Python). A heuristic of
    speed only: both paths give the same report. The first rows stand for all of them: a DataFrame
    sorted by score can fool it (pass aggregate=False or True)."""
    import pyarrow as pa

    sample = selected.limit(_SAMPLE_ROWS)
    t = sample.toArrow() if hasattr(sample, "toArrow") else pa.Table.from_batches(sample._collect_as_arrow())
    if t.num_rows == 0:
        return False
    d = t.group_by(columns).aggregate([]).num_rows
    if t.num_rows < _SAMPLE_ROWS:
        return 2 * d <= t.num_rows
    return _distinct_estimate(t.num_rows, d) <= _MAX_GROUPS


def _count_column(columns):
    name = "__assay_rows"
    while name in columns:
        name += "_"
    return name


def evaluate(df, *, label, score=None, pred=None, proba=None, weight=None, pos_label=None, threshold=0.5, task="auto",
             ci=None, method="auto", replicates=2000, random_state=0, drop_missing=False, beta=None, top_k=2,
             zero_division=0, keep_curves=False, aggregate="auto", by=None, max_fpr=None, min_tpr=None, min_precision=None,
             min_recall=None, confidence=0.95):
    """The exact report of a PySpark DataFrame (the report of ``assay.report`` on all its rows).

    ``label`` names the label column (numbers, strings or booleans), and exactly one of ``score``
    (binary: the score of the positive class, positive when score >= ``threshold``), ``pred``
    (predicted classes) or ``proba`` (a list of class-probability columns, one per class: named after
    the classes, or in sorted class order; the predicted class is the argmax) names the prediction;
    ``weight`` optionally names a sample-weight column. ``pos_label``, ``task`` ('auto', 'binary', 'multiclass'), ``beta``, ``top_k`` and
    ``zero_division`` are as in :func:`assay.report`. Rows with a null or NaN label, prediction or
    weight are refused (the error gives their count) unless ``drop_missing=True`` skips them
    (``report.missing`` is the count). Labels are classes by the rules of ``assay report``: numeric
    spellings are unified when every class is a number (``1`` and ``1.0`` are one class), whatever the
    partitioning. ``ci`` (a level), ``method``, ``replicates`` and ``random_state`` ask for intervals as in
    :func:`assay.report`. With sample weights or ``method='bootstrap'`` they resample rows by their
    index among all rows, ``task='regression'`` (``pred`` the predicted values) names the first
    zero target by it and ``proba`` the first row whose probabilities do not sum to 1: a first job
    counts the rows of each partition (their Arrow batches cross to
    Python once more), and the DataFrame must give the same rows in the same order twice (cache a
    DataFrame built by a random repartition).
    ``keep_curves=True`` keeps the ROC, PR, threshold and reliability curves for ``save_html``.
    ``max_fpr``, ``min_tpr``, ``min_precision``, ``min_recall`` and ``confidence`` add the operating
    points under a constraint, as in :func:`assay.report` (binary ``score`` only).
    Intervals of class probabilities and of regression keep every row in the states (as with weights).
    ``aggregate`` chooses how the rows reach the states. ``True``: each partition's rows are first
    counted by every evaluated column in the JVM (assay's JVM pass, no shuffle; or, for column types
    it does not read, without a Java compiler or on Spark Connect, ``groupBy(...).count()``) and only
    the distinct rows, each with its row count, cross to the Python workers (a group of c identical
    rows counts as c rows, exactly: the report is byte for byte the one of the rows).
    ``ASSAY_SPARK_JVM=0`` turns the JVM pass off; ``ASSAY_SPARK_JAR`` names a jar built beforehand. ``False``: every row crosses to Python. ``'auto'`` (default):
    groups when the report needs no row index (no weighted or ``'bootstrap'`` intervals, no
    regression, no ``proba``) and the first 65536 rows repeat enough to estimate at most 2^19
    distinct rows in the DataFrame (e.g. rounded scores); otherwise rows. ``True`` where a row index is needed is an error.
    ``by`` (a slice column's name, or a list of two) gives the :class:`~assay.SlicedReport` of
    ``assay.report(..., by=...)`` on all rows: each task keeps one state per slice key (the core's
    sliced state), and the grouped path groups by the slice columns too. A null key is a missing row.
    The executors' Python must import assay and pyarrow: set ``PYSPARK_PYTHON`` (locally, to the
    driver's Python, e.g. a venv's) before the SparkSession starts, or ship a packed environment
    (docs/scaling.md, "Where the workers get assay"); an executor without them fails with a
    RuntimeError that names its Python and the fix.
    """
    spec = _scale.Spec("assay.spark.evaluate", label=label, score=score, pred=pred, proba=proba, weight=weight,
                       pos_label=pos_label, threshold=threshold, task=task, drop_missing=drop_missing, ci=ci,
                       method=method, replicates=replicates, random_state=random_state, beta=beta, top_k=top_k,
                       zero_division=zero_division, keep_curves=keep_curves, by=by, max_fpr=max_fpr, min_tpr=min_tpr,
                       min_precision=min_precision, min_recall=min_recall, confidence=confidence)
    with _scale.worker_failures(spec.where, "spark", _executor_python(df)):
        return _evaluate(df, spec, aggregate)


def _executor_python(df):
    """The Python the executors start (PYSPARK_PYTHON when the context started), None where the
    driver does not know it (Spark Connect: no SparkContext here)."""
    try:
        return df.sparkSession.sparkContext.pythonExec
    except Exception:  # noqa: BLE001 - Spark Connect
        return None


def _evaluate(df, spec, aggregate):
    """evaluate's work once its arguments are a Spec."""
    _scale.check_columns(df.columns, spec)
    if aggregate not in ("auto", True, False):
        raise ValueError(f"assay.spark.evaluate: aggregate is {aggregate!r}; it must be 'auto', True or False")
    if aggregate is True and spec.needs_row_ids:
        raise ValueError("assay.spark.evaluate: aggregate=True cannot be used here: intervals with sample weights or "
                         "method='bootstrap', task='regression' and proba need each row's index among all rows, "
                         "which groups of rows do not have")
    selected = df.select(*spec.columns)
    if aggregate is not False and not spec.needs_row_ids and (aggregate is True or _groups_pay(selected, spec.columns)):
        # Pre-aggregated in the JVM: the most distinct column first (Spark's hash aggregation is
        # faster so on rounded scores), then the label and weight.
        from pyspark.sql import functions as F

        keys = [c for c in (spec.score, spec.pred) if c is not None] + [c for c in spec.columns
                                                                        if c not in (spec.score, spec.pred)]
        count = _count_column(spec.columns)
        # Each partition's distinct rows counted in the JVM (java/GroupRows.java: no shuffle, column
        # batches read directly) where it is available for these column types; else Spark SQL's
        # grouping. Either gives the same report: only identical rows are grouped.
        groups = _spark_jvm.groups(selected.select(*keys), count)
        if groups is None:
            groups = selected.groupBy(*keys).agg(F.count(F.lit(1)).alias(count))
        states = groups.mapInArrow(_partition_function(spec, None, count), "state binary, missing long")
        return _scale.finish(_merged(states, spec), spec)
    first_rows = None
    if spec.needs_row_ids:
        # Counted by the same plan as the states (mapInArrow), so the partitions are the same ones:
        # spark_partition_id() in an aggregate may see another partitioning (a local relation is
        # aggregated as one partition).
        counts = {r["partition"]: r["rows"] for r in
                  selected.mapInArrow(_count_rows(spec), "partition long, rows long").collect()}
        first_rows, at = {}, 0
        for p in sorted(counts):
            first_rows[p] = at
            at += int(counts[p])
    states = selected.mapInArrow(_partition_function(spec, first_rows), "state binary, missing long")
    return _scale.finish(_merged(states, spec), spec)
