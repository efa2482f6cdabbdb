"""Where the time of assay.spark.evaluate goes on Spark local[2] (docs/scaling.md, "Measured against
Spark MLlib"): on the DataFrame of bench/spark_vs_mllib.py, each step timed alone, interleaved, after
one warm-up of each; medians of 5.

    .venv/bin/python bench/spark_breakdown.py 10000000 4      # rows, decimals of the scores (0: none)
    DRIVER_MEMORY=12g .venv/bin/python bench/spark_breakdown.py 100000000 4
"""
import os, sys, time, statistics
os.environ["PYSPARK_PYTHON"] = sys.executable
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
import pyarrow as pa
import assay, assay.spark
from assay import _scale, _spark_jvm
from spark_vs_mllib import sql_grouped  # bench/ is the script's directory
rows = int(sys.argv[1]); dec = int(sys.argv[2])
spark = (SparkSession.builder.master("local[2]").appName("probe").config("spark.ui.enabled", "false")
         .config("spark.driver.memory", os.environ.get("DRIVER_MEMORY", "4g")).config("spark.sql.execution.arrow.maxRecordsPerBatch", "100000").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
df = spark.range(rows, numPartitions=4).select((F.rand(7) < 0.3).cast("double").alias("label"), F.rand(11).alias("s0"))
s = F.col("s0") * 0.6 + F.col("label") * 0.4
if dec > 0: s = F.round(s, dec)
df = df.select("label", s.alias("score")).cache(); df.count()
from pyspark.ml.evaluation import BinaryClassificationEvaluator
ev = BinaryClassificationEvaluator(rawPredictionCol="score", labelCol="label", metricName="areaUnderROC")
g = lambda: df.select("label", "score").groupBy("score", "label").agg(F.count(F.lit(1)).alias("__n"))
j = lambda: _spark_jvm.groups(df.select("score", "label"), "__n")  # assay's JVM pass (GroupRows.java)
def noop(it):
    for b in it: pass
    yield pa.RecordBatch.from_arrays([pa.array([0], pa.int64())], names=["n"])
fs = {
 "mllib": lambda: ev.evaluate(df),
 "scan (sum of both columns)": lambda: df.select(F.sum("score"), F.sum("label")).collect(),
 "auto probe (limit 65536 toArrow)": lambda: assay.spark._groups_pay(df.select("label", "score"), ["label", "score"]),
 "groupBy+count, JVM only": lambda: g().count(),
 "groupBy+count -> mapInArrow no-op": lambda: g().mapInArrow(noop, "n long").collect(),
 "JVM pass -> mapInArrow no-op": lambda: j().mapInArrow(noop, "n long").collect(),
 "evaluate aggregate=True, Spark SQL's groupBy": lambda: sql_grouped(df),
 "evaluate aggregate=True": lambda: assay.spark.evaluate(df, label="label", score="score", pos_label=1, aggregate=True),
 "evaluate aggregate=auto": lambda: assay.spark.evaluate(df, label="label", score="score", pos_label=1),
 "rows -> mapInArrow no-op": lambda: df.mapInArrow(noop, "n long").collect(),
}
res = {k: [] for k in fs}
for k, f in fs.items(): f()  # warm-up
for rep in range(5):
    for k, f in fs.items():
        t0 = time.perf_counter(); f(); res[k].append(time.perf_counter() - t0)
print("load", os.getloadavg())
for k, v in res.items(): print(f"{k}: median {statistics.median(v):.3f} runs {[round(x, 3) for x in v]}", flush=True)
spark.stop()
