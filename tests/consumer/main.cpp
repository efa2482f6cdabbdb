// A program outside the assay tree that uses the library, built three ways by tests/consumer/run.sh
// (find_package after install, add_subdirectory, FetchContent). Exit 0 only if the numbers are right.
#include <assay/metrics/classification.hpp>
#include <cstdio>

int main() {
  // Lecture notes (seed 002): 12 patients, TP 6, FP 1, FN 2, TN 3.
  std::vector<std::int32_t> actual{1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0};
  std::vector<std::int32_t> predicted{0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0};
  auto cm = assay::confusion_matrix::from_labels(actual, predicted, 2);
  auto c = assay::binary_counts::one_vs_rest(cm, 1);
  const double p = assay::precision(c).v, f = assay::f1(c).v;
  std::printf("precision %.6f f1 %.6f\n", p, f);
  return (p == 6.0 / 7 && f == 0.8) ? 0 : 1;
}
