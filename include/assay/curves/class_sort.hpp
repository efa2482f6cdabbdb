// assay: the one sort behind every unweighted curve. The scores of a binary problem are split by
// class and each class is sorted ascending by a parallel radix sort on order-preserving 64-bit keys
// (MSD first from 2^16 cases, LSD below); the merge walk of sweep.hpp (walk_sorted_classes) then reads ROC, PR, AUC, AP and the best
// thresholds off the two sorted runs (sweep_scores, summarize_*, the streaming `assay curve`).
#pragma once

#include <cstdint>
#include <bit>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "assay/buffer_ptr.hpp"

namespace assay::curves {

/// The scores of each class, sorted ascending, -0.0 stored as +0.0 (one threshold). Move-only; owns
/// the sort's two buffers.
class class_sorted {
 public:
  class_sorted() = default;
  [[nodiscard]] std::span<const double> pos() const noexcept { return {sorted_, positives_}; }
  [[nodiscard]] std::span<const double> neg() const noexcept { return {sorted_ + positives_, n_ - positives_}; }
  [[nodiscard]] std::size_t size() const noexcept { return n_; }

 private:
  friend class_sorted sort_by_class(std::span<const std::int32_t>, std::span<const double>, std::vector<double>,
                                    unsigned, std::string_view);
  assay::detail::buffer_ptr<double> own_;  // a buffer of n scores (uninitialised, huge pages: detail/buffer.hpp, internal)
  std::vector<double> reused_;     // the caller's scratch vector, when given
  const double* sorted_ = nullptr;
  std::size_t n_ = 0, positives_ = 0;
};

/// Splits `score` by class (y[i] == 1 positive, 0 negative) and sorts each class ascending.
/// Preconditions (checked by callers, e.g. with check_binary_input): y holds only 0 and 1, no score is
/// NaN. `scratch`, when it holds at least y.size() doubles, is used as the sort's second buffer
/// instead of a new allocation; it may be the very vector `score` views (a caller that no longer
/// needs its scores moves them in), as the scores are read in full before the buffer is written.
/// `threads`: 0 = one per hardware thread (at most 8; one below 2^16 cases).
///
/// Method: each thread copies its share of the input to the class's run (positives first), keeping the OR and AND of
/// the keys; bits that are equal in every key are skipped. The key of x is its IEEE 754 bit pattern with the sign bit
/// set for x >= 0 and all bits flipped for x < 0, which orders as the doubles do. From 2^16 cases (and more than 12
/// varying bits) the sort is MSD first: one parallel read counts the cases per (class, top 16 varying bits, fewer below
/// 2^20 cases);
/// neighbouring cells are grouped into buckets of similar size, about max(n / 4096, 4096) cases each (doubles crowd
/// into few exponents, so fixed digits would not balance), one parallel pass scatters the cases into their buckets, and
/// the threads finish the buckets, largest first, each in its cache (again by a top digit above 2^16 cases, then LSD
/// counting passes of at most 11 bits). Below that, stable LSD counting passes of at most 13 bits over both classes at
/// once (Knuth TAOCP vol. 3, 5.2.5; the shared kernel assay/detail/radix.hpp). The result (sorted doubles) does not
/// depend on the thread count. Cost: O(n) time, 2 x 8 bytes per case (one when `scratch` is given). Beyond 2^32 - 1
/// cases each class is sorted in place by boost's spreadsort on the order keys instead (detail::sort_doubles_in_place).
///
/// With `check_as` given, the input is checked in the passes above instead of by the caller (one read
/// of the data fewer): labels other than 0 and 1 or a score that is not finite throw as
/// check_binary_input(check_as, y, score, {}) does. y and score must have the same length.
class_sorted sort_by_class(std::span<const std::int32_t> y, std::span<const double> score,
                           std::vector<double> scratch = {}, unsigned threads = 0, std::string_view check_as = {});

/// One distinct score of a binary problem and its cases: `key` is the score's order key
/// (detail::order_key of score + 0.0, so both zeros are one group), `positives` and `negatives` its
/// cases of each class.
struct score_group {
  std::uint64_t key;
  std::uint32_t positives, negatives;
};

/// The cases of a binary problem sorted by score, in one of two forms:
/// - grouped (grouped() true, when the scores take few distinct values): groups() holds one
///   score_group per distinct score, ascending; keys() is empty;
/// - keys: one ascending run of 64-bit labelled keys: the score's order key
/// (detail::order_bits of score + 0.0) made to fit in 63 bits without changing the order (the sign
/// bit taken out when the scores have one sign; else minus the smallest key when the keys span less
/// than 2^63, as they do for a moderate range; else with a bit that is the same in every key taken out), shifted left by one,
/// and the class in the lowest bit (1 = positive). The run is ascending in key >> 1 (the score):
/// the keys of equal scores are neighbours, their classes in no particular order (the walk counts
/// them; not ordering them spares the sort the work of heavy ties). A walk over this one run needs no merge of two runs
/// (walk_labelled in sweep.hpp reads either form). Move-only.
class labelled_sorted {
 public:
  labelled_sorted() = default;
  [[nodiscard]] bool grouped() const noexcept { return grouped_; }
  /// The distinct scores and their counts, ascending (grouped form; empty otherwise).
  [[nodiscard]] std::span<const score_group> groups() const noexcept { return groups_; }
  /// The labelled keys, ascending by score (keys form; empty when grouped).
  [[nodiscard]] std::span<const std::uint64_t> keys() const noexcept { return {sorted_, grouped_ ? 0 : n_}; }
  [[nodiscard]] std::size_t positives() const noexcept { return positives_; }
  [[nodiscard]] std::size_t size() const noexcept { return n_; }
  /// The sort's second buffer of size() keys (uninitialised; the sorted keys are not in it), handed
  /// over once for a caller's own scratch, which then costs no fresh pages; empty after the first call,
  /// for inputs of fewer than two cases and in the grouped form.
  [[nodiscard]] assay::detail::buffer_ptr<std::uint64_t> take_scratch() noexcept { return std::move(spare_); }
  /// The score of a labelled key (+0.0 for either zero).
  [[nodiscard]] double score(std::uint64_t key) const noexcept {
    std::uint64_t k = key >> 1;
    if (gap_ > 63) {
      k += offset_;
    } else {
      const std::uint64_t low = k & ((std::uint64_t{1} << gap_) - 1);
      const std::uint64_t high = gap_ == 63 ? 0 : (k >> gap_) << (gap_ + 1);
      k = high | (gap_value_ << gap_) | low;
    }
    return std::bit_cast<double>((k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFULL) : ~k);
  }
  /// The score of a group (+0.0 for either zero).
  [[nodiscard]] static double score(const score_group& g) noexcept {
    return std::bit_cast<double>((g.key >> 63) ? (g.key & 0x7FFFFFFFFFFFFFFFULL) : ~g.key);
  }

 private:
  friend std::optional<labelled_sorted> sort_labelled(std::span<const std::int32_t>, std::span<const double>,
                                                      unsigned, std::string_view, std::size_t);
  assay::detail::buffer_ptr<std::uint64_t> own_;  // the sort's result buffer
  assay::detail::buffer_ptr<std::uint64_t> spare_;  // its other buffer (take_scratch)
  std::vector<score_group> groups_;               // the grouped form
  bool grouped_ = false;
  const std::uint64_t* sorted_ = nullptr;
  std::size_t n_ = 0, positives_ = 0;
  unsigned gap_ = 64;             // the order-key bit taken out; 64: none, offset_ subtracted instead
  std::uint64_t gap_value_ = 0;   // its value in every key
  std::uint64_t offset_ = 0;      // the smallest order key
};

/// The most distinct scores sort_labelled groups by default (see there).
inline constexpr std::size_t kMaxScoreGroups = std::size_t{1} << 15;

/// Sorts the cases of a binary problem by score (labelled_sorted above): grouped when the scores take
/// at most `max_groups` distinct values (0: never), else as labelled keys; nullopt when they are not
/// grouped and the order keys span 2^63 or more and every one of their 64 bits differs between some
/// two cases (scores of both signs reaching beyond about +-2 with values near 0 among them, e.g.
/// logits): there is no room for the class, and sort_by_class serves. Preconditions as sort_by_class.
/// `threads`: 0 = one per hardware thread (at most 8; one below 2^16 cases). Either form gives the
/// same groups of equal scores with the same counts, so every walk of it the same numbers.
///
/// Grouping (counting per distinct score, as Spark MLlib's exact BinaryClassificationMetrics counts
/// per distinct score before its prefix scan): in the first read each thread counts its share's cases
/// per order key in an open-addressing hash table (linear probing, at most half full, growing by
/// doubling) and gives up, for every thread, as soon as one thread holds more than min(max_groups,
/// max(1024, its share / 32)) keys (a distinct score costs about what 30 cases cost the key sort),
/// holds more keys than 15/16 of the cases it has read once it has read 8192 (so distinct scores
/// cost the hashing of about 8192 cases per thread), or probes more than 64 slots for one key (keys
/// built to collide). Then the tables are merged and the distinct keys sorted (std::sort): O(n + D
/// log D) for D distinct scores, and one read of the input instead of three passes. A late give-up
/// (few distinct scores at first, many later) costs at most one more read of the input. The bound
/// holds per thread: up to `threads` times as many distinct scores may be grouped in all.
///
/// Keys: one parallel read takes the smallest and largest order key, their OR and AND (so the bits
/// that vary), counts the positives and writes the labelled keys as if the scores had one sign; when
/// they have both, one more parallel pass writes the labelled keys; then sort_by_class's sort of one
/// run by key >> 1 (MSD first from 2^16 cases, LSD counting passes below). Which class comes first
/// within a group of equal scores may depend on the thread count; the groups and their counts, all
/// that walk_labelled reads, do not. Cost: O(n) time, 2 x 8
/// bytes per case (grouped: 16 bytes per distinct score per thread; the keys' buffer is allocated
/// but its pages are never touched).
///
/// With `check_as` given, the input is checked in the first read instead of by the caller (one read
/// of the data fewer): labels other than 0 and 1 or a score that is not finite throw as
/// check_binary_input(check_as, y, score, {}) does. y and score must have the same length.
std::optional<labelled_sorted> sort_labelled(std::span<const std::int32_t> y, std::span<const double> score,
                                             unsigned threads = 0, std::string_view check_as = {},
                                             std::size_t max_groups = kMaxScoreGroups);

/// The two runs of sort_runs, each sorted ascending; each lies either in the input or in `buffer`.
struct sorted_runs {
  assay::detail::buffer_ptr<double> buffer;  // huge-page backed where the system allows (detail/buffer.hpp)
  std::span<const double> first, second;
};

/// Sorts the two runs v[0, P) and v[P, v.size()) ascending with one buffer of the larger run's size
/// instead of one of the whole input (sort_by_class): the sort of `assay report`'s lean path, whose
/// memory stays within twice its columns. `v` is used as scratch (its order is lost). Preconditions:
/// no NaN, no -0.0 (adding 0.0 turns it into +0.0). `threads`: 0 = one per hardware thread (at most
/// 8). The result does not depend on the thread count (sorted doubles are unique).
///
/// Method: sort_by_class's MSD-first sort (one parallel pass into buckets of similar size by the top
/// 16 varying bits of the keys, then each bucket in a core's cache), one run after the other, the
/// larger into the buffer, the smaller into the larger's place. Below 2^16 cases, with at most 12
/// varying bits, or beyond 2^32 - 1 cases: boost's spreadsort in place per run
/// (detail::sort_doubles_in_place). An in-place MSD permutation (American flag sort) was measured
/// 3x slower than spreadsort here: its chain of swaps waits on one cache miss after another.
sorted_runs sort_runs(std::span<double> v, std::size_t P, unsigned threads = 0);

}  // namespace assay::curves
