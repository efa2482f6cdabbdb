// assay: the shared sorted-score kernel of every curve. The scores are sorted once (descending) and
// swept once; ROC, PR, threshold, cost and rejection curves are all read off the result.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "assay/curves/class_sort.hpp"

namespace assay::curves {

/// Cumulative weights of positives and negatives at every distinct score, highest score first.
/// Entry k describes the classifier "positive when score >= thresholds[k]":
///   tp[k] = sum of w_i over positives with s_i >= thresholds[k],
///   fp[k] = sum of w_i over negatives with s_i >= thresholds[k].
/// Cases of weight 0 are left out entirely (their scores are not thresholds), as scikit-learn's
/// _binary_clf_curve does. Tied scores form one entry, so the curve through consecutive entries is
/// the expected curve under random tie-breaking (Fawcett 2006, section 5).
struct score_sweep {
  std::vector<double> thresholds;  ///< distinct scores, strictly decreasing
  std::vector<double> tp;          ///< cumulative positive weight, non-decreasing
  std::vector<double> fp;          ///< cumulative negative weight, non-decreasing
  double positives = 0;            ///< total positive weight (= tp.back(), 0 when empty)
  double negatives = 0;            ///< total negative weight
  [[nodiscard]] std::size_t size() const noexcept { return thresholds.size(); }
  [[nodiscard]] bool empty() const noexcept { return thresholds.empty(); }
};

/// Validates and sweeps binary scored data. `y` holds 0 (negative) or 1 (positive); `score` any
/// finite real (higher = more positive); `weight` is empty (every case weighs 1) or one finite
/// weight >= 0 per case. Throws assay::error (kind data) naming `caller`, the argument, the index and
/// the value for: size mismatch, y not 0/1, a NaN or infinite score, a negative or non-finite weight.
/// Cost: unweighted, one parallel radix sort of the scores by class (class_sort.hpp) and one merge
/// walk; weighted, one stable radix sort of 16-byte (score key, signed weight) records (the shared
/// kernel, assay/detail/radix.hpp) and one pass: tied weights are summed in input order.
score_sweep sweep_scores(std::string_view caller, std::span<const std::int32_t> y, std::span<const double> score,
                         std::span<const double> weight = {});

/// The sweep of the complementary problem: the negatives as the positive class, ranked by -score
/// (higher -score = more "negative"; the same ranking as 1 - score for probabilities, without its
/// rounding), from the sweep of (y, score) in O(distinct scores), with no second sort. Entry k' of
/// the result is the classifier "negative when score <= t" for the k'-th lowest distinct score t
/// (threshold -t): tp' = N - (negative weight above t), fp' = P - (positive weight above t). Equal to
/// sweep_scores(1 - y, -score, weight) exactly for integer weights (up to the rounding of the
/// subtraction otherwise). Used for the per-class areas of a binary score (class 0 against class 1).
score_sweep complement(const score_sweep& sw);

/// The tie-group walk of unweighted scores: `pos` and `neg` hold each class's scores sorted
/// ascending; f(threshold, tp, fp) is called for each distinct score, highest first, with the
/// cumulative counts of positives and negatives scoring >= threshold. The kernel of sweep_scores
/// (unweighted) and of summarize_sorted.
template <typename F>
void walk_sorted_classes(std::span<const double> pos, std::span<const double> neg, F&& f) {
  // One case per step, from whichever run has the higher head (the positives' on a tie), with no
  // branch on the data but "is the next head below this threshold": the two runs interleave at
  // random in a typical problem, and a walk that branches on which run is higher mispredicts about
  // every other case. The counts are exact integers, as the group-at-a-time walk's.
  std::size_t ip = pos.size(), in = neg.size();
  const double none = 0.0;  // read in place of an empty run's head, never taken
  const double* const p = ip > 0 ? pos.data() : &none;
  const double* const q = in > 0 ? neg.data() : &none;
  double tp = 0, fp = 0;
  // An exhausted run's head is never taken (the conditions below test ip / in with it).
  double hp = p[ip > 0 ? ip - 1 : 0], hn = q[in > 0 ? in - 1 : 0];
  while (ip + in > 0) {
    const bool take_pos = (ip > 0) & ((in == 0) | (hp >= hn));
    const double t = take_pos ? hp : hn;
    ip -= take_pos;
    in -= !take_pos;
    tp += static_cast<double>(take_pos);
    fp += static_cast<double>(!take_pos);
    hp = p[ip > 0 ? ip - 1 : 0];
    hn = q[in > 0 ? in - 1 : 0];
    const bool more = ((ip > 0) & (hp == t)) | ((in > 0) & (hn == t));
    if (!more) f(t + 0.0, tp, fp);
  }
}

/// The mirror of walk_sorted_classes: the same two ascending runs walked from the lowest score up.
/// f(threshold, a, b) is called for each distinct score, lowest first, with the cumulative counts of
/// `first` and of `second` scoring <= threshold. With first = the negatives and second = the
/// positives it is the walk of the complementary problem (the negatives as the positive class,
/// ranked by -score: pass -threshold + 0.0 on) over the runs as they lie, with no reversed and
/// negated copy.
template <typename F>
void walk_sorted_classes_up(std::span<const double> first, std::span<const double> second, F&& f) {
  const std::size_t na = first.size(), nb = second.size();
  std::size_t ia = 0, ib = 0;
  const double none = 0.0;  // read in place of an exhausted run's head, never taken
  const double* const a = na > 0 ? first.data() : &none;
  const double* const b = nb > 0 ? second.data() : &none;
  double ca = 0, cb = 0;
  double ha = a[0], hb = b[0];
  while (ia < na || ib < nb) {
    const bool take_a = (ia < na) & ((ib == nb) | (ha <= hb));
    const double t = take_a ? ha : hb;
    ia += take_a;
    ib += !take_a;
    ca += static_cast<double>(take_a);
    cb += static_cast<double>(!take_a);
    ha = a[ia < na ? ia : 0];
    hb = b[ib < nb ? ib : 0];
    const bool more = ((ia < na) & (ha == t)) | ((ib < nb) & (hb == t));
    if (!more) f(t, ca, cb);
  }
}

/// The tie-group walk of labelled keys (sort_labelled, class_sort.hpp): the same calls as
/// walk_sorted_classes on the same cases, f(threshold, tp, fp) for each distinct score, highest
/// first. Grouped: one step per group. Keys: one read of one run from the top: a group of equal
/// scores ends where the next key, without its class bit, differs; no merge of two runs, whose
/// compare-and-advance chains one step to the next.
template <typename F>
void walk_labelled(const labelled_sorted& sorted, F&& f) {
  if (sorted.grouped()) {
    const auto groups = sorted.groups();
    std::uint64_t tp = 0, fp = 0;
    for (std::size_t g = groups.size(); g-- > 0;) {
      tp += groups[g].positives;
      fp += groups[g].negatives;
      f(labelled_sorted::score(groups[g]) + 0.0, static_cast<double>(tp), static_cast<double>(fp));
    }
    return;
  }
  const std::uint64_t* const k = sorted.keys().data();
  std::size_t i = sorted.size();
  std::uint64_t tp = 0, fp = 0;
  while (i > 0) {
    const std::uint64_t key = k[--i];
    tp += key & 1u;
    fp += ~key & 1u;
    if (i == 0 || (k[i - 1] >> 1) != (key >> 1)) {
      f(sorted.score(key) + 0.0, static_cast<double>(tp), static_cast<double>(fp));
    }
  }
}

/// Checks the arguments of a scored binary problem as sweep_scores does, without sweeping.
void check_binary_input(std::string_view caller, std::span<const std::int32_t> y, std::span<const double> score,
                        std::span<const double> weight);

}  // namespace assay::curves
