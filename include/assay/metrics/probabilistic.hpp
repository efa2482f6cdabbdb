// assay: metrics of predicted class probabilities.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "assay/value.hpp"

namespace assay {

/// Read-only view of an n x K matrix of class probabilities, row-major, or of a binary score column
/// (K = 2, P(class 1) = score, P(class 0) = 1 - score).
struct proba_view {
  const double* data = nullptr;
  std::size_t rows = 0;
  std::size_t cols = 0;
  bool binary_score = false;

  static proba_view matrix(std::span<const double> d, std::size_t k) { return {d.data(), d.size() / k, k, false}; }
  static proba_view scores(std::span<const double> s) { return {s.data(), s.size(), 2, true}; }
  [[nodiscard]] double operator()(std::size_t i, std::size_t k) const {
    if (binary_score) return k == 1 ? data[i] : 1.0 - data[i];
    return data[i * cols + k];
  }
};

/// The log-loss term of a binary score column's case of score x and true class k (0 or 1): as
/// log_loss_term below for a score view (the two clipped probabilities summed class 0 first).
inline double binary_log_loss_term(double x, std::size_t k) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const double p1 = std::clamp(x, eps, 1 - eps), p0 = std::clamp(1.0 - x, eps, 1 - eps);
  return -std::log((k == 1 ? p1 : p0) / (p0 + p1));
}

/// The log-loss term of case i of true class k: -log of p(i, k) clipped to [eps, 1 - eps] (eps =
/// 2^-52) over the row's clipped sum. One definition for log_loss and the mergeable state
/// (scale/state.hpp), which needs the term of both classes before it knows which is positive.
inline double log_loss_term(const proba_view& p, std::size_t i, std::size_t k) {
  if (p.binary_score) return binary_log_loss_term(p.data[i], k);
  constexpr double eps = std::numeric_limits<double>::epsilon();
  double row = 0;
  for (std::size_t c = 0; c < p.cols; ++c) row += std::clamp(p(i, c), eps, 1 - eps);
  return -std::log(std::clamp(p(i, k), eps, 1 - eps) / row);
}

/// The Brier term of a binary case of probability x of class 1 and true class k: (x - [k = 1])^2.
inline double binary_brier_term(double x, std::size_t k) {
  const double d = x - (k == 1 ? 1.0 : 0.0);
  return d * d;
}

/// The Brier term of case i of true class k (binary: (p(i, 1) - [k = 1])^2; else the sum over classes).
inline double brier_term(const proba_view& p, std::size_t i, std::size_t k) {
  if (p.cols == 2) return binary_brier_term(p(i, 1), k);
  double loss = 0;
  for (std::size_t c = 0; c < p.cols; ++c) {
    const double d = p(i, c) - (k == c ? 1.0 : 0.0);
    loss += d * d;
  }
  return loss;
}

/// Cross-entropy -(1/W) sum_i w_i log p_i[y_i] (natural log). As scikit-learn 1.2, probabilities are
/// clipped to [eps, 1 - eps] with eps = 2^-52 (double machine epsilon) and each row is
/// renormalised to sum to 1 before the logarithm.
value log_loss(std::span<const std::int32_t> y, proba_view p, std::span<const double> w = {});

/// Binary: scikit-learn's brier_score_loss, (1/W) sum_i w_i (p_i - y_i)^2 with p the probability of
/// class 1. Multiclass (K > 2): Brier's original score (1/W) sum_i w_i sum_k (p_ik - [y_i = k])^2,
/// which for K = 2 is twice the binary value. Brier (1950), Monthly Weather Review 78(1).
value brier_score(std::span<const std::int32_t> y, proba_view p, std::span<const double> w = {});

/// log_loss and brier_score of the same cases, the same two values, in one pass over the cases.
std::pair<value, value> log_loss_and_brier_score(std::span<const std::int32_t> y, proba_view p,
                                                 std::span<const double> w = {});

/// The per-row losses whose weighted means are log_loss and brier_score (same clipping, same
/// renormalisation, same binary/multiclass rule): out[i] = loss of row i, weights not applied. For
/// intervals of the mean (the normal interval, the Poisson bootstrap). Same shape checks.
std::vector<double> log_loss_per_row(std::span<const std::int32_t> y, proba_view p);
std::vector<double> brier_score_per_row(std::span<const std::int32_t> y, proba_view p);

/// Share (weighted) of cases whose true class is among the k highest probabilities. Ties are broken
/// as scikit-learn's top_k_accuracy_score does for multiclass input: among equal probabilities the
/// higher class index ranks first. For K = 2 and k = 1 this is the accuracy at threshold 0.5 with
/// P = 0.5 going to class 1 (sklearn's binary path sends 0.5 to class 0; see
/// docs/definitions/classification.md).
value top_k_accuracy(std::span<const std::int32_t> y, proba_view p, std::size_t k, std::span<const double> w = {});

}  // namespace assay
