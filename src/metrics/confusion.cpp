#include "assay/metrics/confusion.hpp"
#include "assay/detail/exact_sum.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "assay/error.hpp"
#include "assay/metrics/label_tally.hpp"

namespace assay {

confusion_matrix confusion_matrix::from_labels(std::span<const std::int32_t> actual,
                                               std::span<const std::int32_t> predicted, std::size_t classes,
                                               std::span<const double> weight) {
  if (actual.size() != predicted.size()) {
    throw_usage(fmt::format("confusion_matrix: {} actual labels but {} predicted", actual.size(), predicted.size()));
  }
  if (!weight.empty() && weight.size() != actual.size()) {
    throw_usage(fmt::format("confusion_matrix: {} labels but {} weights", actual.size(), weight.size()));
  }
  confusion_matrix cm;
  cm.k_ = classes;
  if (weight.empty()) {
    // The counting itself is the one label kernel (label_tally.hpp), which checks the indices as it
    // counts: exact integer counts.
    cm.m_ = tally_codes(actual, predicted, classes, weight, "confusion_matrix").cells;
    return cm;
  }
  const auto k = static_cast<std::uint32_t>(classes);
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (static_cast<std::uint32_t>(actual[i]) >= k || static_cast<std::uint32_t>(predicted[i]) >= k) {
      throw_usage(fmt::format("confusion_matrix: case {} has class index ({}, {}) outside [0, {})", i, actual[i],
                              predicted[i], classes));
    }
    if (!weight.empty() && (!(weight[i] >= 0) || !std::isfinite(weight[i]))) {
      throw_data(fmt::format("confusion_matrix: weight of case {} is {} (weights must be finite and >= 0)", i,
                             weight[i]));
    }
  }
  // Weighted cells are exact sums rounded once (detail/exact_sum.hpp), independent of the cases'
  // order, so that the mergeable state (scale/state.hpp) gives the same matrix from pieces.
  std::vector<assay::detail::exact_sum> cells(classes * classes);
  for (std::size_t i = 0; i < actual.size(); ++i) {
    cells[static_cast<std::size_t>(actual[i]) * classes + static_cast<std::size_t>(predicted[i])].add(weight[i]);
  }
  cm.m_.resize(cells.size());
  for (std::size_t c = 0; c < cells.size(); ++c) cm.m_[c] = cells[c].value();
  return cm;
}

confusion_matrix confusion_matrix::from_cells(std::size_t classes, std::vector<double> cells) {
  if (cells.size() != classes * classes) {
    throw_usage(fmt::format("confusion_matrix: {} cells for {} classes, need {}", cells.size(), classes,
                            classes * classes));
  }
  confusion_matrix cm;
  cm.k_ = classes;
  cm.m_ = std::move(cells);
  return cm;
}

confusion_matrix& confusion_matrix::operator+=(const confusion_matrix& other) {
  if (k_ == 0 && m_.empty()) {
    k_ = other.k_;
    m_.assign(other.m_.size(), 0.0);
  }
  if (other.k_ != k_) {
    throw_usage(fmt::format("confusion_matrix +=: cannot add a {0} x {0} matrix to a {1} x {1} one", other.k_, k_));
  }
  for (std::size_t i = 0; i < m_.size(); ++i) m_[i] += other.m_[i];
  return *this;
}

double confusion_matrix::total() const {
  double s = 0;
  for (double x : m_) s += x;
  return s;
}
double confusion_matrix::trace() const {
  double s = 0;
  for (std::size_t i = 0; i < k_; ++i) s += m_[i * k_ + i];
  return s;
}
double confusion_matrix::row_sum(std::size_t a) const {
  double s = 0;
  for (std::size_t j = 0; j < k_; ++j) s += m_[a * k_ + j];
  return s;
}
double confusion_matrix::col_sum(std::size_t p) const {
  double s = 0;
  for (std::size_t i = 0; i < k_; ++i) s += m_[i * k_ + p];
  return s;
}
std::vector<double> confusion_matrix::row_normalised() const {
  std::vector<double> r(m_.size());
  for (std::size_t i = 0; i < k_; ++i) {
    double s = row_sum(i);
    for (std::size_t j = 0; j < k_; ++j) {
      r[i * k_ + j] = s > 0 ? m_[i * k_ + j] / s : std::numeric_limits<double>::quiet_NaN();
    }
  }
  return r;
}

binary_counts binary_counts::one_vs_rest(const confusion_matrix& cm, std::size_t positive) {
  // Each cell summed directly (no total-minus-rest subtraction) so weighted counts stay exact.
  binary_counts c;
  const std::size_t k = cm.classes();
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      double x = cm(i, j);
      if (i == positive) (j == positive ? c.tp : c.fn) += x;
      else (j == positive ? c.fp : c.tn) += x;
    }
  }
  return c;
}

}  // namespace assay
