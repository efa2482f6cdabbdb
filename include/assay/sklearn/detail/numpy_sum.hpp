// assay: numpy's summation order, reproduced so that a sum computed in C++ is bit-identical to
// numpy's `a.sum()` (np.add.reduce) of the same contiguous float64 array.
//
// numpy sums a contiguous float64 axis by pairwise summation (numpy/_core/src/umath/loops_utils.h,
// pairwise_sum): fewer than 8 numbers are added left to right from 0.0; up to 128 numbers go to 8
// running partial sums (element i to partial i mod 8, the tail past the last multiple of 8 added
// after the partials are combined as ((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7))); longer
// runs split at half the length rounded down to a multiple of 8 and add the two halves' sums. The
// reduction starts from the identity 0.0, so the result is 0.0 + pairwise_sum(a, n).
// Used where the Python package computes in C++ what scikit-learn computes with numpy (the
// trapezoid of roc_auc_score, the step sum of average_precision_score). The equality is tested
// against numpy itself on random arrays of many lengths (python/tests/test_ranking_parity.py).
// The compiler must not contract a * b + c into one fused operation here or in the terms (no
// -ffp-contract=fast with FMA instructions enabled): numpy rounds each operation.
#pragma once

#include <cstddef>

namespace assay::detail {

/// numpy's pairwise_sum of a[0..n) (see the file comment); a is contiguous.
inline double numpy_pairwise_sum(const double* a, std::size_t n) noexcept {
  if (n < 8) {
    double res = 0.0;
    for (std::size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return numpy_pairwise_sum(a, n2) + numpy_pairwise_sum(a + n2, n - n2);
}

/// What numpy's `a.sum()` returns for a contiguous float64 array of n numbers.
inline double numpy_sum(const double* a, std::size_t n) noexcept { return 0.0 + numpy_pairwise_sum(a, n); }

}  // namespace assay::detail
