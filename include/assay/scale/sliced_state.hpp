// assay: a mergeable state of a sliced report: what evaluate_slices (report/slices.hpp, `assay report
// --by`) gives on all the rows, computed from batches that may live on different machines, in
// different processes or in pieces of a file, like scale::evaluation_state (state.hpp) for one report.
//
// Scheme: one evaluation_state per slice key (one spelling per slice column, one or two columns).
//   - update() checks the whole batch first (evaluation_state::check: the messages name the batch's
//     rows), resolves the slice columns to spellings, groups the rows by key with one counting sort
//     and hands each key's rows to its state with their own row ids.
//   - merge() merges the states of equal keys; any partitioning and merge order give the same bytes.
//   - serialize(): magic "ASSAYSL\0", format version, assay version, the slice columns' names, then
//     per key (in byte order) the key and its state's blob (evaluation_state::serialize, itself
//     checksummed), and a checksum of the whole.
//   - finish() gives evaluate_slices' sliced report bit for bit:
//       * the slices' order: evaluate_slices' rule (numerically when every key of a column is a
//         number, else by bytes) on the union of the keys;
//       * the overall report: the slices' states merged (the state of every row) and finished;
//       * each slice's report: its state finished with the classes of all the slices (evaluate_slices
//         evaluates a slice with the whole table's classes) and, when the state keeps row ids, its
//         rows numbered 0, 1, ... in id order (a slice is evaluated as a table of its own rows: the
//         Poisson bootstrap, the first zero target and the first row of probabilities that do not sum
//         to 1 count rows within the slice);
//       * the headline tables from those reports' counts (two-proportion z and chi-square tests), and
//         the DeLong test of each slice against the rest from one walk of the slices' score runs in
//         ascending score order: its groups of equal keys, with each slice's class counts, are the tie
//         groups stats::delong_slices_vs_rest takes (Spark MLlib's exact BinaryClassificationMetrics
//         counts per distinct score the same way).
//   Bytes: one run per distinct (score, true spelling, slice): at most the rows, and the slices'
//   other tallies (a few per spelling) per slice.
//
// Regression and class probabilities keep every row's id (state_options::row_ids is set for them):
// a slice names its first zero target, or its first row of probabilities that do not sum to 1, by
// the row's index within the slice, which needs the slice's ids. That is 24 bytes a row for
// regression and 12 + 8K for K class probabilities.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/report/slices.hpp"
#include "assay/scale/state.hpp"

namespace assay::scale {

/// The format version written by sliced_state::serialize; read_sliced_state refuses any other.
inline constexpr std::uint32_t sliced_state_format_version = 1;

class sliced_state {
 public:
  /// `by`: the slice columns' names (1 or 2, distinct), shown in the report. Throws assay::error
  /// (usage) naming sliced_state for another count or a repeated name, and what evaluation_state
  /// refuses in `options`.
  sliced_state(const state_options& options, std::vector<std::string> by);

  /// Adds the rows of `b`; `by[c]` is the key column of slice column c (numbers, text or codes into a
  /// dictionary, one per row). A row whose key is missing (a NaN number) is refused, naming the
  /// column and the row, unless state_options::drop_missing (then it is counted in missing()). The
  /// state is unchanged when it throws.
  void update(const row_batch& b, std::span<const label_column> by);

  /// Adds the rows of `other` (same options and slice columns, else assay::error naming what differs).
  void merge(const sliced_state& other);

  [[nodiscard]] std::string serialize() const;

  /// evaluate_slices' sliced report on all the rows added (see the scheme above). Throws assay::error
  /// (usage) for no rows, and what evaluation_state::finish throws for the overall report; a slice
  /// whose report cannot be made gets the reason, as in evaluate_slices.
  [[nodiscard]] sliced_report finish(const evaluate_options& options = {}, const slice_options& slicing = {}) const;

  [[nodiscard]] const state_options& options() const { return options_; }
  [[nodiscard]] const std::vector<std::string>& by() const { return by_; }
  [[nodiscard]] std::uint64_t rows() const;     ///< rows added (missing rows not counted)
  [[nodiscard]] std::uint64_t missing() const;  ///< rows skipped by drop_missing
  [[nodiscard]] std::size_t slices() const { return parts_.size(); }
  [[nodiscard]] std::size_t memory_bytes() const;
  /// Counts `n` rows skipped before they reached update() (a reader's rows with an empty cell, under
  /// drop_missing: scale::sliced_state_of_file_part) in missing(), merged and serialised with the rows
  /// skipped for a missing key.
  void add_missing(std::uint64_t n) { missing_keys_ += n; }
  /// evaluation_state::offset_row_ids on every slice's state.
  void offset_row_ids(std::uint64_t by);

 private:
  friend sliced_state read_sliced_state(std::string_view, const std::optional<state_options>&,
                                        const std::optional<std::vector<std::string>>&);
  state_options options_;  // as given; the slices' states may also keep row ids (see above)
  std::vector<std::string> by_;
  std::uint64_t missing_keys_ = 0;  // rows skipped for a missing key
  // Key (one spelling per slice column) -> the state of its rows. The states are compacted by
  // finish() (which changes no result and no byte), hence mutable.
  mutable std::map<std::vector<std::string>, evaluation_state> parts_;
};

/// Reads a blob written by sliced_state::serialize. Throws assay::error (data) naming what is wrong,
/// as read_state: not a sliced state, another format or assay version, corrupt, truncated; with
/// `expect` / `expect_by`, options or slice columns that differ.
sliced_state read_sliced_state(std::string_view blob, const std::optional<state_options>& expect = std::nullopt,
                               const std::optional<std::vector<std::string>>& expect_by = std::nullopt);

}  // namespace assay::scale
