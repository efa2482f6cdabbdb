// assay: ROC AUC, average precision and the best thresholds of unweighted binary scores in one
// streaming pass, with no per-threshold arrays: what `assay report` needs for a large file, in
// O(1) memory beyond the scores. Equal to roc_auc / average_precision / best_youden / best_fbeta of
// the sweep (tests/curves/summary_test.cpp), as both use the same running sums (accumulate.hpp).
#pragma once

#include <cstdint>
#include <limits>
#include <span>

#include "assay/curves/accumulate.hpp"

#include "assay/value.hpp"

namespace assay::curves {

struct ranking_summary {
  value roc_auc;
  value average_precision;
  value best_threshold_youden;  ///< the threshold itself ("positive when score >= t")
  value best_threshold_f1;
};

/// The areas alone, ROC AUC and average precision.
struct ranking_areas {
  value roc_auc;
  value average_precision;
};

/// "a beats b" for best_threshold: the larger criterion, ties keeping the first threshold seen.
struct greater_criterion {
  bool operator()(double a, double b) const { return a > b; }
};

/// The running state of summarize_walk: fed the distinct thresholds highest first (add), read once
/// at the end (result). Trivially copyable, so that a walk cut into ranges of thresholds can be
/// carried from one range to the next, e.g. from one process to another (scale/ranges.hpp): the
/// same additions in the same order as one walk, so the same bits. P and N are the totals.
/// With `WithYouden` false the walker leaves best_threshold_youden undefined (summarize_in_place
/// finds it in its other walk).
template <bool WithYouden = true>
struct summary_walker {
  double P = 0, N = 0;
  auc_sum auc;
  ap_step_sum ap;
  best_threshold<greater_criterion> youden, f1;

  summary_walker() = default;
  summary_walker(double positives, double negatives) : P(positives), N(negatives) {
    const double inf = std::numeric_limits<double>::infinity();
    if (WithYouden && P > 0 && N > 0) youden.consider(inf, 0, 0, youden_j(0, 0, P, N));
    if (P > 0) f1.consider(inf, 0, 0, 0.0);
  }
  /// The distinct threshold t with the cumulative positive and negative weights tp, fp scoring >= t.
  void add(double t, double tp, double fp) {
    auc.add(tp, fp);
    if (P > 0) {
      ap.add(tp, fp, P);
      // F1 with fbeta's arithmetic for beta = 1, (2 TP) / ((2 TP + FN) + FP), inline: no per-threshold
      // argument checks. Equal bit for bit to best_fbeta(sw, 1) (tests/curves/summary_test.cpp).
      f1.consider(t, tp, fp, 2 * tp / (2 * tp + (P - tp) + fp));
    }
    if constexpr (WithYouden) {
      if (P > 0 && N > 0) youden.consider(t, tp, fp, youden_j(tp, fp, P, N));
    }
  }
  [[nodiscard]] ranking_summary result() const {
    ranking_summary s;
    const char* one_class = P == 0 ? "no positive cases: the ROC curve is undefined"
                                   : "no negative cases: the ROC curve is undefined";
    s.roc_auc = (P > 0 && N > 0) ? value(auc.auc(P, N)) : value::undefined(one_class);
    s.average_precision = P > 0 ? value(ap.sum) : value::undefined("no positive cases: recall is undefined");
    s.best_threshold_youden = youden.found ? value(youden.threshold) : value::undefined(one_class);
    s.best_threshold_f1 = f1.found ? value(f1.threshold)
                                   : value::undefined("no positive cases: F-beta is 0 or undefined everywhere");
    return s;
  }
};

/// The running state of areas_walk: summary_walker without the best thresholds.
struct areas_walker {
  double P = 0, N = 0;
  auc_sum auc;
  ap_step_sum ap;

  areas_walker() = default;
  areas_walker(double positives, double negatives) : P(positives), N(negatives) {}
  void add(double tp, double fp) {
    auc.add(tp, fp);
    if (P > 0) ap.add(tp, fp, P);
  }
  [[nodiscard]] ranking_areas result() const {
    ranking_areas a;
    a.roc_auc = (P > 0 && N > 0) ? value(auc.auc(P, N))
                                 : value::undefined(P == 0 ? "no positive cases: the ROC curve is undefined"
                                                           : "no negative cases: the ROC curve is undefined");
    a.average_precision = P > 0 ? value(ap.sum) : value::undefined("no positive cases: recall is undefined");
    return a;
  }
};

/// The summary from a walk over the distinct thresholds, highest first: `walk(f)` calls
/// f(t, tp, fp) once per distinct score t with the cumulative positive and negative weights scoring
/// >= t; P and N are the totals. The one body of summarize_sorted and of the mergeable state's
/// finish (scale/state.hpp), which walks its run-length list of scores instead of sorted arrays.
template <bool WithYouden = true, typename Walk>
ranking_summary summarize_walk(double P, double N, Walk&& walk) {
  summary_walker<WithYouden> w(P, N);
  walk([&w](double t, double tp, double fp) { w.add(t, tp, fp); });
  return w.result();
}

/// The areas of summarize_walk (the same sums, so the same bits) without the best thresholds, whose
/// divisions and comparisons cost about as much again: for a class whose thresholds nobody reads.
template <typename Walk>
ranking_areas areas_walk(double P, double N, Walk&& walk) {
  areas_walker w(P, N);
  walk([&w](double, double tp, double fp) { w.add(tp, fp); });
  return w.result();
}

/// `positives` and `negatives` are the scores of each class, each sorted ascending, -0.0 already
/// turned into +0.0 (adding 0.0 does it).
ranking_summary summarize_sorted(std::span<const double> positives, std::span<const double> negatives);

/// Both classes of a binary problem, each against the other: `positive` ranks class 1 by score (the
/// summary), `negative` ranks class 0 by -score (the complement of the sweep; its areas only).
struct class_summaries {
  ranking_summary positive;
  ranking_areas negative;
};

/// Splits `score` by class in place (y[i] == 1 is positive; y is only read),
/// sorts each class (two threads on large inputs) and summarises both classes: one walk down the
/// sorted runs for class 1 and one walk up the same runs for class 0, side by side on two threads
/// from 2^16 cases. Class 1's best Youden threshold is found in the walk up, which has fewer
/// divisions of its own (the same values and the same winner as summarize_sorted's). The inputs'
/// order is lost.
class_summaries summarize_in_place(std::span<const std::int32_t> y, std::span<double> score);

}  // namespace assay::curves
