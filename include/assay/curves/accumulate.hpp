// assay: the running sums behind ROC AUC, step AP and best operating points, fed one tie group at a
// time (highest score first). The sweep-based functions (roc.cpp, pr.cpp, threshold.cpp) and the
// streaming summary (summary.hpp) both use these, so each formula is written once.
#pragma once

#include <cmath>
#include <limits>

namespace assay::curves {

/// Twice the area under the ROC curve in count units: sum of trapezoids (fp - fp0) (tp + tp0).
/// For integer weights every term is an integer, so the sum is exact below 2^53.
struct auc_sum {
  double twice_area = 0, fp0 = 0, tp0 = 0;
  void add(double tp, double fp) {
    twice_area += (fp - fp0) * (tp + tp0);
    fp0 = fp;
    tp0 = tp;
  }
  [[nodiscard]] double auc(double positives, double negatives) const { return twice_area / 2 / positives / negatives; }
};

/// Average precision as the step sum sum_k (R_k - R_{k-1}) P_k (scikit-learn's definition).
struct ap_step_sum {
  double sum = 0, r0 = 0;
  void add(double tp, double fp, double positives) {
    const double r = tp / positives;
    sum += (r - r0) * (tp / (tp + fp));
    r0 = r;
  }
};

/// The best value of a criterion over thresholds; `better(a, b)` says a beats b, so ties keep the
/// first (highest) threshold seen. NaN criteria are skipped.
template <typename Better>
struct best_threshold {
  Better better;
  bool found = false;
  double value = 0, threshold = std::numeric_limits<double>::quiet_NaN(), tp = 0, fp = 0;
  void consider(double t, double tp_at, double fp_at, double v) {
    if (std::isnan(v)) return;
    if (!found || better(v, value)) {
      found = true;
      value = v;
      threshold = t;
      tp = tp_at;
      fp = fp_at;
    }
  }
};

/// Youden's J = TPR - FPR.
inline double youden_j(double tp, double fp, double positives, double negatives) {
  return tp / positives - fp / negatives;
}

}  // namespace assay::curves
