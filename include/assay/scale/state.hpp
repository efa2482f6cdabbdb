// assay: a mergeable evaluation state: the report of `evaluate` computed from batches of rows that
// may live on different machines, in different processes or in pieces of a file larger than memory.
//
// Shape (torchmetrics' update / merge / compute; Spark MLlib's exact BinaryClassificationMetrics,
// which counts per distinct score and then scans): a state is
//   - updated with batches of rows (columnar spans, no per-row Python or string work),
//   - merged with another state: merge is associative and commutative, and the state is canonical,
//     so any partitioning and any merge order give the same bytes from serialize() and the same
//     report from finish(),
//   - serialised to bytes and read back (portable little-endian format, versioned, checksummed: a
//     corrupt or foreign blob is an assay::error naming what is wrong, never a wrong answer),
//   - finished into the assay::report that evaluate() gives on all the rows at once, number for number
//     (bit for bit; tests compare the JSON byte for byte).
//
// What a state holds (docs/scaling.md has the cost model):
//   - the class dictionary: every distinct label spelling seen, sorted by bytes. The class rules of
//     data/predictions.hpp (numeric spellings unified: "1" == "1.0" when every class is a number,
//     numeric or byte order, the positive class) are applied once, in finish(), to the union of the
//     spellings, so a label written `1` in one batch and `1.0` in another is one class exactly when it
//     would be for evaluate() on all rows, whatever the partitioning;
//   - per (true spelling, predicted spelling or score side of the threshold): a row count and the
//     exact sum of the weights (every weight sum is exact: an integer fixed-point accumulator of the
//     doubles' exact values, rounded once when read; evaluate() rounds its sums the same way);
//   - exact sums of the per-row log-loss and Brier terms (binary scores in [0, 1]);
//   - binary scores: a sorted run-length list of (order-preserving uint64 key of the score, true
//     spelling, row count, exact weight sum). Merging two states is a sorted merge; memory and bytes
//     are O(distinct (score, class) pairs), at most O(rows). ROC AUC, average precision and the best
//     thresholds are read off one walk of this list in descending score order, with the same running
//     sums as evaluate's sweep (curves/accumulate.hpp).
//
//   - with state_options::row_ids, every row's stable id, classes, score and weight (for the
//     intervals that resample rows).
//
//   - regression (prediction_kind::values): the rows counted by (target, weight) and by (residual
//     y - yhat, weight), keyed by the values' order-preserving keys: O(distinct pairs), exact sums of
//     the percentage errors, the first row id of a zero target. Every regression number of
//     evaluate (MAE, MSE, RMSE, MAPE, MSPE, RMSPE, R^2, explained variance, median absolute error,
//     max error) is read off them exactly, the median too.
//   - scores in [0, 1]: the reliability curve's sums per uniform bin (count and exact weight per true
//     spelling, exact sum of w_i s_i), for the kept curves.
//   - class probabilities (prediction_kind::proba): per column a sorted run list of (key of the
//     probability, true spelling, count, exact weight) for the per-class, one-vs-rest and one-vs-one
//     areas; and, for each order in which the columns may turn out to be the classes (as given, or
//     sorted by name: predictions_from_proba's rule is decided on all the classes, in finish()), the
//     argmax cells, per true spelling and candidate class the exact log-loss and Brier sums and the
//     rank counts of top-k accuracy, the top-label reliability sums and the first row whose
//     probabilities do not sum to 1. O(K^2) work per row; O(K x distinct probabilities) memory.
//
// Supported today: binary scores (`assay report --score`), predicted classes, binary or multiclass
// (`--pred`), class probabilities (`--proba`), regression, weighted or not; intervals
// (evaluate_options::ci_level): of scores and predicted classes without weights and with an analytic
// method from the counts and runs, else from the kept rows (state_options::row_ids); of regression and
// class probabilities always from the kept rows (their normal intervals read each row's loss, the rest
// is the Poisson bootstrap); kept curves (evaluate_options::keep_curves); the operating points under
// constraints of binary scores (evaluate_options::constraints: from the sweep of the runs, the
// umbrella threshold of max_fpr from the negatives' scores expanded from them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/curves/sweep.hpp"
#include "assay/data/predictions.hpp"
#include "assay/report/report.hpp"

namespace assay::scale {

/// The format version written by serialize(); read_state refuses any other.
/// Version 2: state_options::row_ids and the kept rows; 3: the reliability curve's per-bin sums;
/// 4: regression (prediction_kind::values); 5: class probabilities (prediction_kind::proba); 6: the
/// word-wise four-lane checksum instead of byte-wise FNV-1a; 7: kept rows (row_ids) of regression
/// (target, predicted value) and of class probabilities (spelling, probabilities), for their intervals;
/// 8: one exact sum (and first row outside the domain) per row term of the registry's regression
/// means of row terms, named in the blob, instead of two fixed sums of percentage errors.
inline constexpr std::uint32_t state_format_version = 8;

/// What the rows predict.
enum class prediction_kind {
  scores,  ///< a binary score of the positive class per row (positive when score >= threshold)
  labels,  ///< a predicted class per row
  values,  ///< regression: a predicted value per row (task regression; the true values are numbers)
  /// class probabilities: one column per class (state_options::proba_names), the predicted class the
  /// argmax of the row (as evaluate: the first of equal maxima in class order)
  proba,
};

/// What a state evaluates. Every field except `source` is part of the state's fingerprint: two states
/// merge only when their options are equal, and a blob is read back only into the same options.
struct state_options {
  prediction_kind kind = prediction_kind::scores;
  /// binary, multiclass or automatic (decided in finish() from all the classes, as evaluate does:
  /// binary for at most two classes). scores need a binary task; values need regression.
  task_kind task = task_kind::automatic;
  std::optional<std::string> pos_label;  ///< the positive class, as prediction_options::pos_label
  double threshold = 0.5;                ///< scores: a row is predicted positive when score >= threshold
  bool weighted = false;                 ///< every batch then carries sample weights (finite, >= 0)
  /// Rows with a missing value (NaN score, NaN numeric label, NaN weight) are counted
  /// (evaluation_state::missing) and skipped; without it update() refuses them.
  bool drop_missing = false;
  /// Keep each row's stable id (row_batch::first_row_id + its index in the batch), its classes, score
  /// and weight, so that finish() can give the intervals that resample rows (the Poisson bootstrap:
  /// any interval with weights, or evaluate_options::ci_method bootstrap) exactly as evaluate() on the
  /// rows in id order: memory and bytes then grow by about 20 bytes a row (28 weighted). Not needed
  /// for unweighted intervals of scores and predicted classes with the other methods (they come from
  /// the counts and the score runs). Needed for every interval of regression (the target and the
  /// predicted value are kept: 24 bytes a row) and of class probabilities (the true spelling and the
  /// K probabilities: 12 + 8K bytes a row), 8 more bytes a row when weighted.
  bool row_ids = false;
  std::string label_name = "y_true";     ///< shown in the report's header (report::label_column)
  std::string prediction_name;           ///< report::prediction_column; empty: "y_score" or "y_pred"
  std::string source = "evaluation_state";  ///< report::source; not part of the fingerprint
  /// prediction_kind::proba: the probability columns' names, in the order of row_batch::y_proba. As
  /// for predictions_from_proba's `classes`: they are the classes when every true class is one of
  /// them (numeric spellings unified as for labels), else they are taken in sorted class order (then
  /// there must be one per class); which of the two is decided in finish(), on all the classes.
  std::vector<std::string> proba_names;
};

/// A column of class labels of one batch: numbers, strings, or codes into a dictionary (e.g. an Arrow
/// dictionary array: the dictionary is resolved once per batch, not per row). A view: the data must
/// outlive the update() call. Numbers are classes by value (canonical_number: 1.0 is "1"); strings and
/// dictionary entries are spellings, unified in finish() by the class rules.
struct label_column {
  std::span<const double> numbers;
  std::span<const std::string> text;
  std::span<const std::int32_t> codes;          ///< with `dictionary`: indices into it
  std::span<const std::string> dictionary;
  enum class form { none, numbers, text, coded } kind = form::none;

  static label_column of_numbers(std::span<const double> v) { return {v, {}, {}, {}, form::numbers}; }
  static label_column of_text(std::span<const std::string> v) { return {{}, v, {}, {}, form::text}; }
  static label_column of_codes(std::span<const std::int32_t> c, std::span<const std::string> d) {
    return {{}, {}, c, d, form::coded};
  }
  [[nodiscard]] std::size_t size() const {
    return kind == form::numbers ? numbers.size() : kind == form::text ? text.size() : codes.size();
  }
};

/// One batch of rows, columnar. All columns have the same length.
struct row_batch {
  label_column y_true;
  std::span<const double> y_score;        ///< prediction_kind::scores
  label_column y_pred;                    ///< prediction_kind::labels
  std::span<const double> sample_weight;  ///< state_options::weighted: one per row; else empty
  /// The stable id of the batch's first row (rows get first_row_id, first_row_id + 1, ...), e.g. its
  /// index in the file or data set: with state_options::row_ids, a row's Poisson bootstrap weight is
  /// drawn from a counter-based generator keyed on (seed, replicate, row id)
  /// (stats::poisson1), so the intervals do not depend on the partitioning, and equal evaluate()'s
  /// on all rows when the ids are the rows' indices 0..n-1 there. Ids must be unique over the rows
  /// of the merged states (finish() refuses a repeated id).
  std::uint64_t first_row_id = 0;
  /// prediction_kind::values (regression): the predicted value of each row (y_true: numbers). Last,
  /// so that batches written as aggregates before it existed still compile.
  std::span<const double> y_value;
  /// prediction_kind::proba: one column of probabilities (in [0, 1]) per state_options::proba_names,
  /// each with one entry per row.
  std::span<const std::span<const double>> y_proba;
  /// Rows with multiplicities: when not empty, one count (>= 1) per row, and row i stands for
  /// counts[i] identical rows (e.g. the groups of a `GROUP BY` over every evaluated column: Spark's
  /// pre-aggregation in assay.spark.evaluate). The state is then bit for bit the one updated with
  /// each row repeated counts[i] times: counts and exact weight and loss sums are multiplied exactly
  /// (exact_sum::add_times), a missing row skips counts[i] rows. For prediction_kind::scores and
  /// labels without state_options::row_ids only (a repeated row would need an id per copy); update()
  /// throws assay::error (usage) otherwise, and for a count of 0.
  std::span<const std::uint64_t> counts;
  /// When not empty, one id per row, used instead of first_row_id + i: rows whose ids are not
  /// consecutive (e.g. the rows of one slice of a batch, scale/sliced_state.hpp). Same rules as
  /// first_row_id (unique over the rows of the merged states).
  std::span<const std::uint64_t> row_ids;

  /// The id of row i: row_ids[i] when given, else first_row_id + i.
  [[nodiscard]] std::uint64_t id(std::size_t i) const { return row_ids.empty() ? first_row_id + i : row_ids[i]; }
};

namespace detail {
struct state_access;  // the library's out-of-core reader (src/scale)
}  // namespace detail

/// The mergeable state. Copyable and movable; not thread-safe (one state per thread or task, merged).
class evaluation_state {
 public:
  /// Throws assay::error (usage) for options the state does not support (naming the field).
  explicit evaluation_state(const state_options& options);
  ~evaluation_state();
  evaluation_state(const evaluation_state&);
  evaluation_state& operator=(const evaluation_state&);
  evaluation_state(evaluation_state&&) noexcept;
  evaluation_state& operator=(evaluation_state&&) noexcept;

  /// Adds the rows of `b`. An empty batch is allowed. Throws assay::error naming the function, the
  /// column and the row (index within the batch), e.g. `evaluation_state::update: y_score[3] is nan;
  /// scores must be finite (or set drop_missing)`; the state is unchanged when it throws.
  void update(const row_batch& b);

  /// Throws what update(b) would throw, and changes nothing: for a caller that must check a whole
  /// batch before it hands parts of it to several states (scale/sliced_state.hpp).
  void check(const row_batch& b) const;

  /// Adds the rows of `other` (same options, else assay::error naming the first field that differs).
  void merge(const evaluation_state& other);
  /// As merge(const evaluation_state&), taking `other`'s score runs instead of copying them (a merge
  /// of large states, e.g. one just read with read_state); `other` is left valid but unspecified.
  void merge(evaluation_state&& other);

  /// Merges what the state keeps apart for speed (rows not yet sorted into its run list, the runs of
  /// its last compaction or of a state merged in) into one sorted run list now; merge, serialize and
  /// finish would do it when they need it. Changes no result and no byte: for a caller that is idle
  /// now and busy later, e.g. an MPI rank waiting for another rank's state to merge.
  void compact();

  /// The state as bytes: magic "ASSAYST\0", format version, assay version, options fingerprint, the
  /// content, and a 64-bit checksum of everything before it. Canonical: equal states give equal bytes.
  [[nodiscard]] std::string serialize() const;

  /// The report evaluate() gives on all the rows added, with the same options (`options.threshold`
  /// must equal state_options::threshold). Intervals (options.ci_level) with weights or ci_method
  /// bootstrap, and every interval of regression or class probabilities, need state_options::row_ids;
  /// they are evaluate()'s on the rows in id order. Kept
  /// curves (options.keep_curves) are evaluate()'s too. Throws assay::error (usage) for intervals
  /// that need row ids the state did not keep, a repeated row id, and what evaluate refuses (no
  /// rows, classes evaluate cannot decide), with evaluate's rules.
  [[nodiscard]] report finish(const evaluate_options& options = {}) const;

  [[nodiscard]] const state_options& options() const;
  [[nodiscard]] std::uint64_t rows() const;     ///< rows added (missing rows not counted)
  [[nodiscard]] std::uint64_t missing() const;  ///< rows skipped by drop_missing
  /// Approximate heap bytes held (what --max-memory counts for the state).
  [[nodiscard]] std::size_t memory_bytes() const;

  /// Adds `by` to the id of every row the state holds (kept rows, the first zero target, the first
  /// row of probabilities that do not sum to 1): for a part of the data whose rows were given ids
  /// from 0 before the index of its first row among all rows was known (an MPI rank's part of a file:
  /// the ranks' row counts summed over the ranks before it). Throws assay::error (usage) when an id
  /// would overflow 64 bits.
  void offset_row_ids(std::uint64_t by);

  /// prediction_kind::scores: the two classes finish() decides, the positive one and the sweep of the
  /// scores (curves::sweep_scores on every row added, with their weights: distinct scores descending,
  /// running positive and negative weights), bit for bit; with `negatives`, also every negative
  /// row's score (ascending; O(rows) memory). For curves made from merged states
  /// (curves::write_curve_of_sweeps). Throws assay::error (usage) for another kind, no rows, or
  /// classes evaluate cannot decide.
  struct scores_swept {
    std::vector<std::string> classes;
    std::size_t positive = 1;
    curves::score_sweep sweep;
    std::vector<double> negatives;
  };
  [[nodiscard]] scores_swept sweep_of_scores(bool negatives = false) const;

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
  friend struct detail::state_access;
  friend evaluation_state read_state(std::string_view blob, const std::optional<state_options>& expect);
};

/// Reads a blob written by evaluation_state::serialize. Throws assay::error (data) naming what is
/// wrong: not a state (magic), another format version, another assay version, a checksum mismatch
/// (corrupt), a truncated or malformed content. With `expect`, also refuses a state whose options
/// differ (another task, threshold, ...), naming the field.
evaluation_state read_state(std::string_view blob, const std::optional<state_options>& expect = std::nullopt);

}  // namespace assay::scale
