"""A sliced report on Spark: assay.spark.evaluate(df, ..., by=SLICE) against what Spark MLlib offers
for it, BinaryClassificationEvaluator(metricName='areaUnderROC') run once per slice on
df.filter(slice == k), on the same cached DataFrame, in the same run, on Spark local[2].

    .venv/bin/python bench/spark_sliced.py --rows 10000000 --slices 10 --repeats 3 [--decimals 4]

MLlib gives one binned AUC per slice (K jobs, each a scan of the whole DataFrame); assay gives, in one
job, every slice's whole report exactly and each headline metric's test of a slice against the rest
(two-proportion z, chi-square, DeLong). Prints the medians and the ratio, and checks that the slices'
AUCs agree with MLlib's to its binning's precision. --warmup runs each first, untimed (the JIT, the
Python workers' start, the JVM pass's one compilation).
"""

import argparse
import os
import statistics
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--slices", type=int, default=10)
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--decimals", type=int, default=4)
    ap.add_argument("--driver-memory", default="4g")
    ap.add_argument("--warmup", type=int, default=1)
    a = ap.parse_args()

    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    import assay.spark

    spark = (SparkSession.builder.master("local[2]").appName("assay-bench-sliced")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", a.driver_memory)
             .config("spark.sql.execution.arrow.maxRecordsPerBatch", "100000").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.range(a.rows, numPartitions=a.partitions).select(
        (F.rand(7) < 0.3).cast("double").alias("label"), F.rand(11).alias("s0"),
        (F.rand(13) * a.slices).cast("int").alias("slice"))
    s = F.col("s0") * 0.6 + F.col("label") * 0.4
    if a.decimals > 0:
        s = F.round(s, a.decimals)
    df = df.select("label", s.alias("score"), "slice").cache()
    n = df.count()

    ev = BinaryClassificationEvaluator(rawPredictionCol="score", labelCol="label", metricName="areaUnderROC")

    def mllib():
        return [ev.evaluate(df.filter(F.col("slice") == k)) for k in range(a.slices)]

    def ours():
        return assay.spark.evaluate(df, label="label", score="score", pos_label=1, by="slice")

    for _ in range(a.warmup):
        mllib()
        ours()
    t_ml, t_as = [], []
    for _ in range(a.repeats):
        t0 = time.perf_counter()
        ml = mllib()
        t1 = time.perf_counter()
        r = ours()
        t2 = time.perf_counter()
        t_ml.append(t1 - t0)
        t_as.append(t2 - t1)
    ml_t, as_t = statistics.median(t_ml), statistics.median(t_as)
    table = r.slice_table("roc_auc")
    ours_auc = [row["value"] for row in table]
    worst = max(abs(x - y) for x, y in zip(ours_auc, ml))
    tested = sum(1 for row in table if row.get("p_value") is not None)
    print(f"rows {n}, slices {a.slices}, decimals {a.decimals}, partitions {a.partitions}, repeats {a.repeats}")
    print(f"MLlib BinaryClassificationEvaluator per slice (df.filter): median {ml_t:.3f} s  {sorted(t_ml)}")
    print(f"assay.spark.evaluate(by=...): median {as_t:.3f} s  {sorted(t_as)}")
    print(f"ratio {ml_t / as_t:.2f}x; slices' AUC |assay - MLlib| <= {worst:.2e} (MLlib bins the scores); "
          f"{tested} of {len(table)} slices tested against the rest (DeLong)")
    spark.stop()


if __name__ == "__main__":
    main()
