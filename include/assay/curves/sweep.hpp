// assay: the shared sorted-score kernel of every curve. The scores are sorted once (descending) and
// swept once; ROC, PR, threshold, cost and rejection curves are all read off the result.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

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
  std::size_t ip = pos.size(), in = neg.size();
  double tp = 0, fp = 0;
  while (ip > 0 || in > 0) {
    const double t = ip == 0 ? neg[in - 1] : in == 0 ? pos[ip - 1] : (pos[ip - 1] > neg[in - 1] ? pos[ip - 1] : neg[in - 1]);
    const std::size_t ip0 = ip, in0 = in;
    while (ip > 0 && pos[ip - 1] == t) --ip;
    while (in > 0 && neg[in - 1] == t) --in;
    tp += static_cast<double>(ip0 - ip);
    fp += static_cast<double>(in0 - in);
    f(t + 0.0, tp, fp);
  }
}

/// Checks the arguments of a scored binary problem as sweep_scores does, without sweeping.
void check_binary_input(std::string_view caller, std::span<const std::int32_t> y, std::span<const double> score,
                        std::span<const double> weight);

}  // namespace assay::curves
