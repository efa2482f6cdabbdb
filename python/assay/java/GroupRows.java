// The JVM half of assay.spark.evaluate's grouped path (python/assay/spark.py, docs/scaling.md
// "Engines"): on each partition, the rows of the evaluated columns are counted by their values in an
// open-addressing hash table, and only the distinct rows (each with its count) leave the partition.
// It replaces Spark SQL's groupBy(...).count() there: no shuffle (the evaluation state merges the
// partitions' groups anyway, so rows need not be grouped across partitions), and where the plan
// gives column batches (a cached DataFrame, a Parquet scan) the values are read from the column
// vectors, without building a row per input row.
//
// Grouping is exact for any table size: a group of c rows stands for c identical rows, and two rows
// are put in one group only when every column has the same bits (or is null in both). A table that
// reaches its size limit is emitted and started again, which splits some groups in two; the state
// adds both, so memory stays bounded whatever the number of distinct rows.
//
// Compiled on the driver against the running Spark's own jars (python/assay/_spark_jvm.py), so no
// binary is shipped; with no Java compiler, assay.spark.evaluate uses Spark SQL's grouping instead.
package assay.spark;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.apache.spark.sql.execution.InputAdapter;
import org.apache.spark.sql.execution.ProjectExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.types.UTF8String;

public final class GroupRows {
  private GroupRows() {}

  // Column kinds the table reads (each value kept as 64 bits).
  private static final int DOUBLE = 0, FLOAT = 1, LONG = 2, INT = 3, SHORT = 4, BYTE = 5, BOOLEAN = 6, STRING = 7;

  /** Whether every column of `schema` has a type this class groups (numbers, booleans, strings). */
  public static boolean supports(StructType schema) {
    for (StructField f : schema.fields()) {
      if (kind(f.dataType()) < 0) return false;
    }
    return schema.fields().length > 0 && schema.fields().length <= 31;
  }

  /**
   * The distinct rows of `df` per partition, each with its number of rows in a last column named
   * `countName` (a long), the other columns as in `df`. `maxEntries` (a power of two) bounds the
   * table of one task.
   */
  public static Dataset<Row> groups(Dataset<Row> df, String countName, int maxEntries) {
    StructType schema = df.schema();
    if (!supports(schema)) throw new IllegalArgumentException("GroupRows.groups: unsupported columns " + schema.simpleString());
    if (maxEntries < 1024 || Integer.bitCount(maxEntries) != 1)
      throw new IllegalArgumentException("GroupRows.groups: maxEntries is " + maxEntries + "; it must be a power of two >= 1024");
    final int k = schema.fields().length;
    final int[] kinds = new int[k];
    for (int c = 0; c < k; c++) kinds[c] = kind(schema.fields()[c].dataType());
    SparkPlan plan = df.queryExecution().executedPlan();
    final int[] at = new int[k];
    SparkPlan columnar = columnarSource(plan, at);
    JavaRDD<Row> out;
    if (columnar != null) {
      out = columnar.executeColumnar().toJavaRDD().mapPartitions(batches -> {
        Table t = new Table(kinds, maxEntries);
        return t.groupsOf(batches, b -> t.addBatch(b, at));
      });
    } else {
      out = df.queryExecution().toRdd().toJavaRDD().mapPartitions(rows -> {
        Table t = new Table(kinds, maxEntries);
        return t.groupsOf(rows, t::addRow);
      });
    }
    StructType outSchema = schema.add(new StructField(countName, DataTypes.LongType, false, Metadata.empty()));
    return df.sparkSession().createDataFrame(out, outSchema);
  }

  /**
   * The scan under `plan` that gives column batches of its rows, when there is one with nothing but
   * a choice of columns between them (a cached DataFrame's scan is one itself, or sits under adaptive
   * execution's wrapper; a Parquet scan sits under a conversion to rows and a projection); `at[c]` is
   * then the position of `plan`'s column c in its batches. Null otherwise (the rows of `plan` are read).
   */
  private static SparkPlan columnarSource(SparkPlan plan, int[] at) {
    scala.collection.Seq<?> wanted = plan.output();
    SparkPlan p = plan;
    while (true) {
      if (p instanceof AdaptiveSparkPlanExec) {  // adaptive execution's wrapper: its current plan
        p = ((AdaptiveSparkPlanExec) p).executedPlan();
      } else if (p instanceof WholeStageCodegenExec) {
        p = ((WholeStageCodegenExec) p).child();
      } else if (p instanceof InputAdapter) {
        p = ((InputAdapter) p).child();
      } else if (p instanceof ColumnarToRowExec) {
        p = ((ColumnarToRowExec) p).child();
      } else if (p instanceof ProjectExec) {
        scala.collection.Seq<NamedExpression> list = ((ProjectExec) p).projectList();
        for (int i = 0; i < list.size(); i++) {
          if (!(list.apply(i) instanceof Attribute)) return null;  // a computed column
        }
        if (list.size() != wanted.size()) return null;
        // The projection's attributes stand for plan's columns (their ids are the ones looked up below).
        wanted = list;
        p = ((ProjectExec) p).child();
      } else {
        break;
      }
    }
    // Only a leaf (a scan of the cache or of files): a columnar operator above other operators would
    // be run here without what adaptive execution or the plan's other stages do around it.
    if (!p.supportsColumnar() || !p.children().isEmpty() || wanted.size() != at.length) return null;
    scala.collection.Seq<Attribute> have = p.output();
    for (int c = 0; c < at.length; c++) {
      at[c] = -1;
      ExprId id = ((Attribute) wanted.apply(c)).exprId();
      for (int j = 0; j < have.size(); j++) {
        if (have.apply(j).exprId().equals(id)) at[c] = j;
      }
      if (at[c] < 0) return null;
    }
    return p;
  }

  /** Whether groups(df, ...) reads column batches (else the rows of df's plan). */
  public static boolean readsBatches(Dataset<Row> df) {
    return columnarSource(df.queryExecution().executedPlan(), new int[df.schema().fields().length]) != null;
  }

  private static int kind(DataType t) {
    if (t.equals(DataTypes.DoubleType)) return DOUBLE;
    if (t.equals(DataTypes.FloatType)) return FLOAT;
    if (t.equals(DataTypes.LongType)) return LONG;
    if (t.equals(DataTypes.IntegerType)) return INT;
    if (t.equals(DataTypes.ShortType)) return SHORT;
    if (t.equals(DataTypes.ByteType)) return BYTE;
    if (t.equals(DataTypes.BooleanType)) return BOOLEAN;
    // Strings of the default collation, grouped by their bytes (a collation could equate others).
    if (t.equals(DataTypes.StringType)) return STRING;
    return -1;
  }

  /**
   * One task's counts: open addressing with linear probing, at most half full. A slot is k + 2 longs
   * in one array (its count, 0 for an empty slot; its null mask, bit c for a null in column c; its k
   * values), so a probe reads one or two cache lines. A string is kept as its number in the table's
   * dictionary of the strings seen.
   */
  static final class Table {
    private final int k, width, max;
    private final int[] kinds;
    private int cap = 1024, size;
    private long[] slots;
    private final long[] probe;
    private long[][] cols = new long[0][];
    private int[] masks = new int[0];
    private final ArrayDeque<Row> done = new ArrayDeque<>();  // emitted, not yet taken
    private final HashMap<UTF8String, Long> codes = new HashMap<>();
    private final List<UTF8String> strings = new ArrayList<>();

    Table(int[] kinds, int max) {
      this.kinds = kinds;
      this.k = kinds.length;
      this.width = k + 2;
      this.max = max;
      probe = new long[k];
      allocate();
    }

    private void allocate() {
      slots = new long[cap * width];
      size = 0;
    }

    // The number of string `u` in the dictionary (a copy is kept: a batch's bytes are reused).
    private long code(UTF8String u) {
      Long c = codes.get(u);
      if (c != null) return c;
      long next = strings.size();
      UTF8String copy = u.clone();
      codes.put(copy, next);
      strings.add(copy);
      return next;
    }

    /** A column batch: each column's values read into `cols` first (one loop per column), then counted. */
    void addBatch(ColumnarBatch b, int[] at) {
      boundStrings();
      final int n = b.numRows();
      if (masks.length < n) {
        cols = new long[k][n];
        masks = new int[n];
      }
      Arrays.fill(masks, 0, n, 0);
      for (int c = 0; c < k; c++) {
        ColumnVector v = b.column(at[c]);
        long[] x = cols[c];
        final boolean nulls = v.hasNull();
        switch (kinds[c]) {
          case DOUBLE: for (int j = 0; j < n; j++) x[j] = Double.doubleToRawLongBits(v.getDouble(j)); break;
          case FLOAT: for (int j = 0; j < n; j++) x[j] = Float.floatToRawIntBits(v.getFloat(j)); break;
          case LONG: for (int j = 0; j < n; j++) x[j] = v.getLong(j); break;
          case INT: for (int j = 0; j < n; j++) x[j] = v.getInt(j); break;
          case SHORT: for (int j = 0; j < n; j++) x[j] = v.getShort(j); break;
          case BYTE: for (int j = 0; j < n; j++) x[j] = v.getByte(j); break;
          case BOOLEAN: for (int j = 0; j < n; j++) x[j] = v.getBoolean(j) ? 1 : 0; break;
          default:  // STRING: a null's bytes are not read
            for (int j = 0; j < n; j++) x[j] = nulls && v.isNullAt(j) ? 0 : code(v.getUTF8String(j));
        }
        if (nulls) {
          for (int j = 0; j < n; j++) {
            if (v.isNullAt(j)) {
              masks[j] |= 1 << c;
              x[j] = 0;
            }
          }
        }
      }
      for (int j = 0; j < n; j++) {
        for (int c = 0; c < k; c++) probe[c] = cols[c][j];
        insert(masks[j]);
      }
    }

    /** A row of the plan's row output (plans without column batches). */
    void addRow(InternalRow r) {
      boundStrings();
      int mask = 0;
      for (int c = 0; c < k; c++) {
        if (r.isNullAt(c)) {
          mask |= 1 << c;
          probe[c] = 0;
          continue;
        }
        switch (kinds[c]) {
          case DOUBLE: probe[c] = Double.doubleToRawLongBits(r.getDouble(c)); break;
          case FLOAT: probe[c] = Float.floatToRawIntBits(r.getFloat(c)); break;
          case LONG: probe[c] = r.getLong(c); break;
          case INT: probe[c] = r.getInt(c); break;
          case SHORT: probe[c] = r.getShort(c); break;
          case BYTE: probe[c] = r.getByte(c); break;
          case BOOLEAN: probe[c] = r.getBoolean(c) ? 1 : 0; break;
          default: probe[c] = code(r.getUTF8String(c));
        }
      }
      insert(mask);
    }

    // A 64-bit mix of the values and the null mask (multiply-xorshift steps, as in MurmurHash3's
    // finaliser, Appleby 2008).
    private long hash(long[] v, int off, long mask) {
      long h = 0x9E3779B97F4A7C15L ^ mask;
      for (int c = 0; c < k; c++) {
        h = (h ^ v[off + c]) * 0xFF51AFD7ED558CCDL;
        h ^= h >>> 32;
      }
      h *= 0xC4CEB9FE1A85EC53L;
      return h ^ (h >>> 29);
    }

    private void insert(int mask) {
      final long[] t = slots;
      int i = (int) hash(probe, 0, mask) & (cap - 1);
      while (true) {
        final int o = i * width;
        if (t[o] == 0) {
          t[o] = 1;
          t[o + 1] = mask;
          System.arraycopy(probe, 0, t, o + 2, k);
          if (2 * ++size > cap) grow();
          return;
        }
        if (t[o + 1] == mask && same(t, o + 2)) {
          t[o]++;
          return;
        }
        i = (i + 1) & (cap - 1);
      }
    }

    private boolean same(long[] t, int o) {
      for (int c = 0; c < k; c++) {
        if (t[o + c] != probe[c]) return false;
      }
      return true;
    }

    // Doubles the table; at the limit, emits it (its groups stay exact, see the file comment) and
    // starts an empty one of the same size.
    private void grow() {
      if (2 * cap > max) {
        emit();
        allocate();
        return;
      }
      final long[] old = slots;
      final int oldCap = cap;
      cap *= 2;
      allocate();
      for (int s = 0; s < oldCap; s++) {
        final int from = s * width;
        if (old[from] == 0) continue;
        int i = (int) hash(old, from + 2, old[from + 1]) & (cap - 1);
        while (slots[i * width] != 0) i = (i + 1) & (cap - 1);
        System.arraycopy(old, from, slots, i * width, width);
        size++;
      }
    }

    private void emit() {
      for (int i = 0; i < cap; i++) {
        final int o = i * width;
        if (slots[o] == 0) continue;
        Object[] v = new Object[k + 1];
        for (int c = 0; c < k; c++) {
          if ((slots[o + 1] & (1L << c)) != 0) continue;  // null
          final long b = slots[o + 2 + c];
          switch (kinds[c]) {
            case DOUBLE: v[c] = Double.longBitsToDouble(b); break;
            case FLOAT: v[c] = Float.intBitsToFloat((int) b); break;
            case LONG: v[c] = b; break;
            case INT: v[c] = (int) b; break;
            case SHORT: v[c] = (short) b; break;
            case BYTE: v[c] = (byte) b; break;
            case BOOLEAN: v[c] = b != 0; break;
            default: v[c] = strings.get((int) b).toString();
          }
        }
        v[k] = slots[o];
        done.add(RowFactory.create(v));
      }
    }

    // Before a batch or a row (when no pending value holds a string's number): a dictionary grown to
    // the table's bound is started afresh, after the table is emitted, so it too stays bounded.
    private void boundStrings() {
      if (strings.size() < max) return;
      emit();
      allocate();
      codes.clear();
      strings.clear();
    }

    /**
     * The groups of the items of `in` (each given to `add`), read as they are asked for: the input is
     * consumed only until some groups are emitted, so a task holds at most one table's groups (not
     * every group of its partition, which with distinct rows would be every row).
     */
    <T> Iterator<Row> groupsOf(Iterator<T> in, Consumer<T> add) {
      return new Iterator<Row>() {
        private boolean ended;

        @Override
        public boolean hasNext() {
          while (done.isEmpty() && !ended) {
            if (in.hasNext()) {
              add.accept(in.next());
            } else {
              emit();
              ended = true;
            }
          }
          return !done.isEmpty();
        }

        @Override
        public Row next() {
          if (!hasNext()) throw new NoSuchElementException();
          return done.poll();
        }
      };
    }
  }
}
