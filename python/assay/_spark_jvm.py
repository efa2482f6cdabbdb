"""The JVM half of assay.spark.evaluate's grouped path: java/GroupRows.java counts each partition's
distinct rows in the executors' JVM, reading cached or Parquet column batches directly, instead of
Spark SQL's ``groupBy(...).count()`` (2-3x faster at 10^8 rounded scores, and no shuffle).

No binary is shipped: the source is compiled once, on the driver, by the Java compiler of the JVM that
runs Spark (or ``$JAVA_HOME/bin/javac``, or ``javac`` on the PATH), against that JVM's class path,
so the classes match the running Spark; the jar is cached in ``$ASSAY_CACHE_DIR`` (default
``$XDG_CACHE_HOME/assay`` or ``~/.cache/assay``) under a name that hashes the source, the Spark version
and the Java version, and added to the session (``ADD JAR``, which ships it to the executors).

``ASSAY_SPARK_JAR=/path/to.jar`` uses a jar built beforehand (e.g. the cached one, copied to a
cluster whose driver has no Java compiler); ``ASSAY_SPARK_JVM=0`` turns the JVM pass off. Without
it (no compiler, Spark Connect, a column type it does not read) the grouped path uses Spark SQL's
grouping: the same report, slower.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
import warnings
import zipfile
from importlib import resources

_CLASS = "assay.spark.GroupRows"
_SOURCE = "GroupRows.java"
_lock = threading.Lock()
_classes = {}  # the JVM SparkContext's identity -> the class GroupRows (a java.lang.Class), or None


def _cache_dir():
    d = os.environ.get("ASSAY_CACHE_DIR")
    if not d:
        d = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "assay")
    return d


def _javac(jvm):
    homes = [jvm.java.lang.System.getProperty("java.home"), os.environ.get("JAVA_HOME")]
    for home in homes:
        if home:
            p = os.path.join(home, "bin", "javac")
            if os.access(p, os.X_OK):
                return p
    return shutil.which("javac")


def _compile(jvm, spark_version):
    """The path of the jar of GroupRows for this JVM and Spark (compiled and cached when missing)."""
    source = resources.files("assay").joinpath("java", _SOURCE).read_bytes()
    release = str(jvm.java.lang.System.getProperty("java.specification.version"))
    digest = hashlib.sha256(source + f"\0{spark_version}\0{release}".encode()).hexdigest()[:20]
    jar = os.path.join(_cache_dir(), f"assay-group-rows-{digest}.jar")
    if os.path.exists(jar):
        return jar
    javac = _javac(jvm)
    if javac is None:
        raise RuntimeError("no Java compiler (javac) next to the JVM running Spark, in $JAVA_HOME or on the PATH")
    classpath = str(jvm.java.lang.System.getProperty("java.class.path"))
    os.makedirs(os.path.dirname(jar), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="assay-javac-") as tmp:
        src = os.path.join(tmp, _SOURCE)
        with open(src, "wb") as f:
            f.write(source)
        out = os.path.join(tmp, "classes")
        r = subprocess.run([javac, "-nowarn", "-Xlint:-path", "--release", release, "-cp", classpath, "-d", out, src],
                           capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise RuntimeError(f"{javac} failed (exit {r.returncode}): {r.stderr.strip()[:2000]}")
        # A jar is a zip of the class files; written beside the cache's jar, then renamed into place, so
        # a concurrent reader sees the whole jar or none.
        fd, part = tempfile.mkstemp(prefix=".assay-group-rows-", suffix=".jar", dir=os.path.dirname(jar))
        os.close(fd)
        try:
            with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as z:
                for root, _, files in os.walk(out):
                    for name in sorted(files):
                        p = os.path.join(root, name)
                        z.write(p, os.path.relpath(p, out))
            os.replace(part, jar)
        except BaseException:
            os.unlink(part)
            raise
    return jar


def _class(spark):
    """The class GroupRows loaded into `spark`'s session, or None (with a warning, once per
    SparkContext, saying why)."""
    if os.environ.get("ASSAY_SPARK_JVM", "1") == "0":
        return None
    try:
        jsc = spark.sparkContext._jsc
    except Exception:  # noqa: BLE001 - Spark Connect: no SparkContext, no JVM in this process
        return None
    if jsc is None or getattr(spark, "_jsparkSession", None) is None:
        return None
    key = jsc.sc().hashCode()
    with _lock:
        if key in _classes:
            return _classes[key]
        cls = None
        try:
            jvm = spark.sparkContext._jvm
            jar = os.environ.get("ASSAY_SPARK_JAR") or _compile(jvm, spark.version)
            if not os.path.exists(jar):
                raise RuntimeError(f"ASSAY_SPARK_JAR is {jar!r}, which does not exist")
            spark.sql("ADD JAR '{}'".format(jar.replace("\\", "\\\\").replace("'", "\\'")))
            # Loaded through the session's jar class loader: ADD JAR makes the class visible to the
            # calling JVM thread only (py4j gives each Python thread its own), this loader to all.
            cls = spark._jsparkSession.sharedState().jarClassLoader().loadClass(_CLASS)
        except Exception as e:  # noqa: BLE001 - any failure means: group with Spark SQL instead
            warnings.warn(f"assay.spark.evaluate: the JVM grouping pass is unavailable ({e}); grouping with Spark "
                          "SQL's groupBy instead (the same report, slower). Set ASSAY_SPARK_JVM=0 to silence this.",
                          RuntimeWarning, stacklevel=4)
        _classes[key] = cls
        return cls


def _call(spark, cls, name, *args):
    """The static method `name` of the Java class `cls` called with `args` (through reflection: the
    class is not on the class path py4j looks classes up in)."""
    method = next(m for m in cls.getMethods() if m.getName() == name)
    gateway = spark.sparkContext._gateway
    a = gateway.new_array(gateway.jvm.java.lang.Object, len(args))
    for i, v in enumerate(args):
        a[i] = v
    return method.invoke(None, a)


def _group_rows(df):
    """GroupRows when the JVM pass is available and reads every column type of df (the types are
    GroupRows.supports' to decide: numbers, booleans and strings of the default collation), else None."""
    if getattr(df, "_jdf", None) is None:  # a Spark Connect DataFrame: no JVM object here
        return None
    cls = _class(df.sparkSession)
    if cls is None or not _call(df.sparkSession, cls, "supports", df._jdf.schema()):
        return None
    return cls


def reads_batches(df):
    """Whether groups(df, ...) reads column batches (a cached DataFrame, a Parquet scan) rather than
    rows; None when the JVM pass is not available for df."""
    cls = _group_rows(df)
    return None if cls is None else bool(_call(df.sparkSession, cls, "readsBatches", df._jdf))


def groups(df, count, max_entries=1 << 20):
    """The distinct rows of each partition of `df` (all its columns), with their row counts in a column
    named `count` (a long): a DataFrame, or None when the JVM pass is not available for it."""
    cls = _group_rows(df)
    if cls is None:
        return None
    from pyspark.sql import DataFrame

    spark = df.sparkSession
    return DataFrame(_call(spark, cls, "groups", df._jdf, count, int(max_entries)), spark)
