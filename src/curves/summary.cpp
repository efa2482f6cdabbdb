#include "assay/curves/summary.hpp"

#include <algorithm>


#include "assay/detail/parallel.hpp"
#include "assay/curves/accumulate.hpp"
#include "assay/curves/class_sort.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/detail/radix.hpp"

namespace assay::curves {

ranking_summary summarize_sorted(std::span<const double> pos, std::span<const double> neg) {
  const auto P = static_cast<double>(pos.size()), N = static_cast<double>(neg.size());
  auc_sum auc;
  ap_step_sum ap;
  best_threshold<bool (*)(double, double)> youden{[](double a, double b) { return a > b; }};
  best_threshold<bool (*)(double, double)> f1{[](double a, double b) { return a > b; }};
  const double inf = std::numeric_limits<double>::infinity();
  if (P > 0 && N > 0) youden.consider(inf, 0, 0, youden_j(0, 0, P, N));
  if (P > 0) f1.consider(inf, 0, 0, 0.0);
  walk_sorted_classes(pos, neg, [&](double t, double tp, double fp) {
    auc.add(tp, fp);
    if (P > 0) {
      ap.add(tp, fp, P);
      // F1 with fbeta's arithmetic for beta = 1, (2 TP) / ((2 TP + FN) + FP), inline: no per-threshold
      // argument checks. Equal bit for bit to best_fbeta(sw, 1) (tests/curves/summary_test.cpp).
      f1.consider(t, tp, fp, 2 * tp / (2 * tp + (P - tp) + fp));
    }
    if (P > 0 && N > 0) youden.consider(t, tp, fp, youden_j(tp, fp, P, N));
  });
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

ranking_summary summarize_in_place(std::span<std::int32_t> y, std::span<double> score) {
  // Positives to the front (two-pointer partition of both arrays together).
  // Scores are moved, not swapped: only the class of each slot matters afterwards, so y is rewritten
  // as a block of 1s then 0s. Adding 0.0 turns -0.0 into +0.0 (one threshold).
  std::size_t lo = 0, hi = y.size();
  while (lo < hi) {
    if (y[lo] == 1) {
      score[lo] += 0.0;
      ++lo;
    } else {
      --hi;
      std::swap(y[lo], y[hi]);
      std::swap(score[lo], score[hi]);
      score[hi] += 0.0;
    }
  }
  const sorted_runs sorted = sort_runs(score, lo);
  return summarize_sorted(sorted.first, sorted.second);
}

ranking_summary summarize_complement_sorted(std::span<double> score, std::size_t positives) {
  // [pos ascending | neg ascending] -> reversed and negated: [-neg ascending | -pos ascending].
  std::reverse(score.begin(), score.end());
  for (auto& x : score) x = -x + 0.0;
  const std::size_t negatives = score.size() - positives;
  return summarize_sorted(score.subspan(0, negatives), score.subspan(negatives));
}

}  // namespace assay::curves
