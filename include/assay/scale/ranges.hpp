// assay: the ranking metrics of a binary score computed range by range: the rows are split by
// ranges of the score axis (range 0 the highest scores), each range is sorted and walked where it
// lies (an MPI rank, a worker), and the walks are chained: a range's walk starts from the running
// state the range above it (descending walk) or below it (ascending walk) ended with. Every sum is
// then made of the same terms added in the same order as one walk over all rows, so the ROC AUC,
// average precision, best thresholds and the other class's areas are those of one process to the
// bit (docs/scaling.md, section "MPI", "the range-partitioned report"). What crosses between ranges is a few
// dozen bytes per range and direction; the rows cross once, to their range.
//
// The rest of the report (confusion matrix, losses, counts) comes from an evaluation state that
// keeps no score runs (ranked_part_of_file, fill_and_split), merged as usual, and finished with the
// ranges' results (finish_with_ranking). MPI-free: the caller moves the bytes (cli/mpi_report.cpp,
// report_by_ranges).
//
// The protocol, for R ranges (rank r holds range r):
//  1. each part is read (ranked_part_of_file), its true spellings shared; every rank decides which
//     spellings are positive on all of them (positive_spellings);
//  2. a sample of every part's score keys (sample_keys) is pooled and cut into R ranges
//     (range_splitters); each part's rows go into its state and are split by range and class into
//     bytes (fill_and_split), sent to their ranges, and every range sorts what it received
//     (score_range::of_bytes);
//  3. running sums, chained from range 0 down: range r gets the positive and negative weight above
//     it and passes on its own end (score_range::running_sums); the last range's end is (P, N);
//  4. the descending walk (curves::summary_walker) chained from range 0 down to R - 1, and the
//     ascending walk of the other class (curves::areas_walker) from R - 1 up to 0
//     (score_range::walk_down, walk_up); the walkers are trivially copyable (bytes_of / walker_of);
//  5. the states merged, finished with given_ranking{P, N, down.result(), up.result()}.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "assay/buffer_ptr.hpp"
#include "assay/curves/class_sort.hpp"
#include "assay/curves/summary.hpp"
#include "assay/error.hpp"
#include "assay/report/report.hpp"
#include "assay/scale/file_parts.hpp"
#include "assay/scale/state.hpp"

namespace assay::scale {

/// A part of a prediction file of binary scores read for the range-partitioned report.
struct ranked_part {
  /// The part's rows in an evaluation state that keeps no score runs (counts, cells, losses, total
  /// weight; after fill_ranked_state): merged over the parts and finished with finish_with_ranking.
  evaluation_state state;
  std::vector<std::string> spellings;  ///< the part's true spellings, in order of first appearance
  std::vector<double> scores;          ///< one per row read
  std::vector<std::int32_t> codes;     ///< one per row: its index in `spellings`
  std::vector<double> weights;         ///< one per row when weighted, else empty
};

/// Reads the rows of `part` into a ranked_part whose state has no rows yet (fill_ranked_state adds
/// them once every part's spellings are known): the columns io::read_table gives, read by one reader
/// over the file's bytes of the part (csv_reader::restrict_to: no piece copied). Rows with an empty
/// cell are counted with drop_missing, else refused. A file with a quote character is refused (a cut
/// at a line end need not be a record boundary). The messages of a part that fails are not
/// state_of_file_part's (its line numbers count from the part): a caller that names bad rows reads
/// the part again with state_of_file_part, as cli/mpi_report.cpp does. Binary scores only
/// (request.score), without intervals, kept curves or constraints: else assay::error (usage).
/// `go_on` is called once, first, with the scores of about the part's first `sample_bytes` bytes
/// (empty when the part has no rows): when it returns false the part is not read and the result is
/// empty (the caller takes another path; e.g. scores with few distinct values, which a state's runs
/// hold in little memory).
std::optional<ranked_part> ranked_part_of_file(const report_request& request, const file_part& part,
                                               const std::function<bool(std::span<const double>)>& go_on,
                                               std::size_t sample_bytes = std::size_t{1} << 20);

/// Adds the part's rows to its state (the checks and messages of evaluation_state::update), each row
/// summing the loss terms of its class only, the classes being decided on `spellings`: every part's
/// true spellings. Throws what update throws, or assay::error (usage) when the state is not the
/// fresh one of ranked_part_of_file.
void fill_ranked_state(ranked_part& part, const std::vector<std::string>& spellings);

/// Which of `spellings` (every part's true spellings) is the positive class, by the rules finish()
/// applies to all the classes (data/predictions.hpp: pos_label, numeric spellings unified): one flag
/// per spelling. Throws what evaluate throws for classes it cannot decide (more than two, ...).
std::vector<std::uint8_t> positive_spellings(const std::vector<std::string>& spellings, const state_options& options);

/// Whether most of `scores` (a sample of up to 2^16 of them, evenly spaced) are distinct: the case the
/// ranges are for. Scores with few distinct values make small states, which a merge of states serves
/// better (scale/state.hpp: a run per distinct score).
bool mostly_distinct(std::span<const double> scores);

/// About `count` keys (detail::order_key) of scores taken evenly from `scores`, for the splitters.
std::vector<std::uint64_t> sample_keys(std::span<const double> scores, std::size_t count = 1024);

/// `ranges - 1` keys cutting the pooled sample (any order) into `ranges` ranges of about equal size,
/// ascending. Any splitters give the same results; these balance the ranges' rows.
std::vector<std::uint64_t> range_splitters(std::vector<std::uint64_t> pooled, std::size_t ranges);

/// The range of a score among splitters.size() + 1 ranges: 0 for the highest scores. A key equal to
/// a splitter belongs to the range above the cut, so equal scores always share a range.
std::size_t range_of(double score, std::span<const std::uint64_t> splitters);

/// Rows of one range, by class: the scores (+0.0 for -0.0) and, weighted, their weights.
struct range_rows {
  std::vector<double> pos, neg, pos_w, neg_w;
  /// Bytes to move to the range's rank (counts, then the arrays; the sender's byte order: the ranks
  /// of one job share it). from_bytes checks the lengths and throws assay::error (data) on a mismatch.
  [[nodiscard]] std::string to_bytes() const;
  static range_rows from_bytes(std::string_view bytes);
  /// Appends `more`'s rows.
  void append(const range_rows& more);
};

/// Splits rows into splitters.size() + 1 ranges (range_of): `positive[i]` says whether row i is of
/// the positive class; `weights` is empty or one per row. Weighted, rows of weight 0 are left out, as
/// curves::sweep_scores leaves them out.
std::vector<range_rows> split_into_ranges(std::span<const double> scores, std::span<const std::uint8_t> positive,
                                          std::span<const double> weights, std::span<const std::uint64_t> splitters);

/// Bytes in a heap buffer that is not zero-filled first: a part's rows on their way to a range are
/// written once and read once, and at 10^8 rows a std::string's zero fill is a pass over 400 MB a
/// rank for nothing.
struct range_bytes {
  assay::detail::buffer_ptr<char> data;
  std::size_t size = 0;
  [[nodiscard]] std::string_view view() const { return {data.get(), size}; }
  /// size uninitialised bytes.
  static range_bytes of_size(std::size_t size);
};

/// split_into_ranges(scores, positive, weights, splitters)[r].to_bytes() for every range r, where row
/// i's class flag is positive_of_code[codes[i]] (e.g. a part's label codes and positive_spellings'
/// flags), written straight into the bytes: what a part sends to each range. Throws assay::error
/// (usage) for columns of other lengths or a code without a flag.
std::vector<range_bytes> split_into_range_bytes(std::span<const double> scores, std::span<const std::int32_t> codes,
                                                std::span<const std::uint8_t> positive_of_code,
                                                std::span<const double> weights,
                                                std::span<const std::uint64_t> splitters);

/// fill_ranked_state(part, spellings), then split_into_range_bytes(part's columns, positive_of_code,
/// splitters), in fewer reads of the part's columns: each batch of rows is counted by range while the
/// state takes it. Throws what either throws.
std::vector<range_bytes> fill_and_split(ranked_part& part, const std::vector<std::string>& spellings,
                                        std::span<const std::uint8_t> positive_of_code,
                                        std::span<const std::uint64_t> splitters);

/// The running positive and negative weight at a range's edge.
struct running_edge {
  double tp = 0, fp = 0;
};

/// One range's rows sorted into tie groups, walked as its slice of the sweep of all rows.
class score_range {
 public:
  score_range(range_rows rows, bool weighted);
  /// The range of the rows in `pieces`, each range_rows::to_bytes's bytes (e.g. from every part:
  /// split_into_range_bytes), copied once into the sort's input; each piece is freed once read, before
  /// the sort allocates. Throws assay::error (data) for malformed pieces or weights that do not match
  /// `weighted`.
  static score_range of_bytes(std::vector<range_bytes>&& pieces, bool weighted);
  /// Sets the positive and negative weight scoring above the range (the previous range's end; zero
  /// for range 0) and returns the running sums at the range's lowest score: counts unweighted, and
  /// weighted the running sums of the tie groups' exact sums in descending order (sweep_scores'
  /// sums). Call before the walks.
  running_edge running_sums(running_edge above);
  /// Feeds the range's distinct scores, highest first, to `w` (whose P and N are the totals).
  void walk_down(curves::summary_walker<true>& w) const;
  /// Feeds the other class's walk (the complement of the sweep: curves::complement, ranked by
  /// -score), lowest score first, to `w`, whose P and N are the negatives' and positives' totals.
  void walk_up(curves::areas_walker& w) const;
  [[nodiscard]] std::size_t rows() const { return rows_; }

  /// A weighted row: the order key of the negated score (ascending = highest score first) and the
  /// weight signed by the class (+ positive, - negative), as curves::sweep_scores sorts them.
  struct signed_record {
    std::uint64_t key;
    double signed_weight;
  };

 private:
  void group(std::vector<signed_record> recs);  // sorts and sums the weighted rows' tie groups
  void walk_up_into(curves::areas_walker& w) const;
  bool weighted_;
  std::size_t rows_ = 0;
  running_edge above_;
  assay::detail::buffer_ptr<double> data_;                // unweighted: the rows' scores, positives first (rows_ of them)
  curves::sorted_runs sorted_;             // unweighted: each class sorted ascending (in data_ or its buffer)
  std::vector<double> t_, tp_, fp_;        // weighted: tie groups, descending; running sums
  std::vector<double> gp_, gn_;            // weighted: the groups' rounded exact sums
};

/// The ranking metrics of a binary score computed outside the state (range by range).
struct given_ranking {
  double P = 0, N = 0;  ///< the positive and negative weight (counts unweighted)
  curves::ranking_summary positive;  ///< ROC AUC, average precision, best thresholds of the positive class
  curves::ranking_areas negative;    ///< the other class's areas
};

/// state.finish(options) with the ranking metrics `ranking` in place of those of the state's runs,
/// which it does not keep (ranked_part::state). For reports without intervals, kept curves or
/// constraints, of both classes (P > 0 and N > 0): else assay::error (usage).
report finish_with_ranking(const evaluation_state& state, const evaluate_options& options,
                           const given_ranking& ranking);

/// A walker (or a running_edge) as bytes and back: trivially copyable, and the ranks of one job
/// share the layout. walker_of throws assay::error (data) for bytes of another size.
template <class Walker>
std::string bytes_of(const Walker& w) {
  static_assert(std::is_trivially_copyable_v<Walker>);
  return std::string(reinterpret_cast<const char*>(&w), sizeof(Walker));
}
template <class Walker>
Walker walker_of(std::string_view bytes) {
  static_assert(std::is_trivially_copyable_v<Walker>);
  if (bytes.size() != sizeof(Walker)) {
    throw_data(fmt::format("walker_of: {} bytes, but a walker has {}", bytes.size(), sizeof(Walker)));
  }
  Walker w;
  std::memcpy(&w, bytes.data(), sizeof(Walker));
  return w;
}

}  // namespace assay::scale
