// assay: the weighted confusion matrix, the one kernel every classification metric is computed from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace assay {

/// A K x K confusion matrix of (weighted) counts. Rows are the actual class, columns the predicted
/// class, as in scikit-learn's confusion_matrix and WEKA; entry (i, j) is the total weight of the
/// cases of class i predicted as j.
class confusion_matrix {
 public:
  confusion_matrix() = default;
  explicit confusion_matrix(std::size_t classes) : k_(classes), m_(classes * classes, 0.0) {}

  /// Counts pairs of class indices in [0, classes). `weight` is empty (every case weighs 1) or has
  /// one finite non-negative weight per case; a zero weight removes the case.
  static confusion_matrix from_labels(std::span<const std::int32_t> actual, std::span<const std::int32_t> predicted,
                                      std::size_t classes, std::span<const double> weight = {});

  /// The matrix of given cells (classes x classes, row-major, row = actual class), e.g. a
  /// label_tally's. Throws assay::error (usage) when their number is not classes^2.
  static confusion_matrix from_cells(std::size_t classes, std::vector<double> cells);

  void add(std::size_t actual, std::size_t predicted, double w = 1.0) { m_[actual * k_ + predicted] += w; }

  /// Adds `other` cell by cell: pooling the per-fold matrices of a cross-validation gives the matrix
  /// of all out-of-fold predictions (pooled accuracy = summed trace / summed total: five folds of
  /// 20 cases with 11, 17, 16, 13 and 16 correct pool to 73/100). Both must list the same classes in
  /// the same order; an empty (default-constructed) matrix takes the size of `other`. Throws
  /// assay::error (usage) when the sizes differ.
  confusion_matrix& operator+=(const confusion_matrix& other);

  [[nodiscard]] std::size_t classes() const noexcept { return k_; }
  [[nodiscard]] double operator()(std::size_t actual, std::size_t predicted) const { return m_[actual * k_ + predicted]; }
  [[nodiscard]] double total() const;
  [[nodiscard]] double trace() const;
  [[nodiscard]] double row_sum(std::size_t actual) const;      ///< support of the class
  [[nodiscard]] double col_sum(std::size_t predicted) const;   ///< how often it is predicted
  /// Row-normalised matrix (each row divided by its sum); rows of absent classes are all NaN.
  [[nodiscard]] std::vector<double> row_normalised() const;

 private:
  std::size_t k_ = 0;
  std::vector<double> m_;
};

/// The four cells of a binary problem, seen from one class called positive.
struct binary_counts {
  double tp = 0, fp = 0, fn = 0, tn = 0;

  /// One-vs-rest counts of class `positive` in a K x K matrix.
  static binary_counts one_vs_rest(const confusion_matrix& cm, std::size_t positive);
  [[nodiscard]] double total() const noexcept { return tp + fp + fn + tn; }
};

}  // namespace assay
