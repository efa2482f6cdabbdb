// One-vs-rest and top-label reductions of multiclass probabilities; see
// include/assay/curves/multiclass.hpp.
#include "assay/curves/multiclass.hpp"

#include <fmt/format.h>

#include <cmath>

#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/error.hpp"

namespace assay::curves {

void check_multiclass_input(std::string_view caller, std::span<const std::int32_t> y, proba_view p,
                            std::span<const double> weight) {
  if (p.rows != y.size())
    throw_data(fmt::format("{}: y has {} values but the probabilities {} rows", caller, y.size(), p.rows));
  if (p.cols < 2) throw_data(fmt::format("{}: needs at least 2 classes, got {} probability columns", caller, p.cols));
  if (!weight.empty() && weight.size() != y.size()) {
    throw_data(fmt::format("{}: y has {} values but weight has {}", caller, y.size(), weight.size()));
  }
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] < 0 || static_cast<std::size_t>(y[i]) >= p.cols) {
      throw_data(fmt::format("{}: y[{}] = {} is not a class index in 0..{}", caller, i, y[i], p.cols - 1));
    }
    for (std::size_t k = 0; k < p.cols; ++k) {
      if (!(p(i, k) >= 0 && p(i, k) <= 1)) {
        throw_data(fmt::format("{}: probability [{}, {}] = {} is not in [0, 1]", caller, i, k, p(i, k)));
      }
    }
    if (!weight.empty() && !(weight[i] >= 0 && std::isfinite(weight[i]))) {
      throw_data(fmt::format("{}: weight[{}] = {} is not a finite number >= 0", caller, i, weight[i]));
    }
  }
  check_rows_sum_to_one(caller, p);
}

namespace {

binary_problem ovr_unchecked(std::span<const std::int32_t> y, proba_view p, std::size_t k) {
  binary_problem b{std::vector<std::int32_t>(y.size()), std::vector<double>(y.size())};
  for (std::size_t i = 0; i < y.size(); ++i) {
    b.y[i] = y[i] == static_cast<std::int32_t>(k);
    b.score[i] = p(i, k);
  }
  return b;
}

}  // namespace

binary_problem one_vs_rest(std::span<const std::int32_t> y, proba_view p, std::size_t k) {
  check_multiclass_input("one_vs_rest", y, p);
  if (k >= p.cols) throw_usage(fmt::format("one_vs_rest: class index {} is not in 0..{}", k, p.cols - 1));
  return ovr_unchecked(y, p, k);
}

std::vector<score_sweep> sweep_one_vs_rest(std::span<const std::int32_t> y, proba_view p,
                                           std::span<const double> weight) {
  check_multiclass_input("sweep_one_vs_rest", y, p, weight);
  std::vector<score_sweep> out;
  for (std::size_t k = 0; k < p.cols; ++k) {
    const binary_problem b = ovr_unchecked(y, p, k);
    out.push_back(sweep_scores("sweep_one_vs_rest", b.y, b.score, weight));
  }
  return out;
}

std::vector<class_areas> areas_one_vs_rest(std::span<const std::int32_t> y, proba_view p,
                                           std::span<const double> weight) {
  constexpr std::string_view caller = "areas_one_vs_rest";
  if (p.rows != y.size())
    throw_data(fmt::format("{}: y has {} values but the scores {} rows", caller, y.size(), p.rows));
  if (p.cols < 2) throw_data(fmt::format("{}: needs at least 2 classes, got {} score columns", caller, p.cols));
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] < 0 || static_cast<std::size_t>(y[i]) >= p.cols) {
      throw_data(fmt::format("{}: y[{}] = {} is not a class index in 0..{}", caller, i, y[i], p.cols - 1));
    }
  }
  std::vector<class_areas> out;
  out.reserve(p.cols);
  if (p.binary_score) {  // one sweep of (y == 1, score); class 0 is its complement (-score)
    std::vector<std::int32_t> y1(y.begin(), y.end());
    const score_sweep sw = sweep_scores(caller, y1, std::span<const double>(p.data, p.rows), weight);
    const score_sweep neg = complement(sw);
    out.push_back({roc_auc(neg), average_precision(neg)});
    out.push_back({roc_auc(sw), average_precision(sw)});
    return out;
  }
  for (std::size_t k = 0; k < p.cols; ++k) {
    const binary_problem b = ovr_unchecked(y, p, k);
    const score_sweep sw = sweep_scores(caller, b.y, b.score, weight);
    out.push_back({roc_auc(sw), average_precision(sw)});
  }
  return out;
}

namespace {

binary_problem top_label_unchecked(std::span<const std::int32_t> y, proba_view p) {
  binary_problem b{std::vector<std::int32_t>(y.size()), std::vector<double>(y.size())};
  for (std::size_t i = 0; i < y.size(); ++i) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < p.cols; ++k)
      if (p(i, k) > p(i, best)) best = k;
    b.y[i] = y[i] == static_cast<std::int32_t>(best);
    b.score[i] = p(i, best);
  }
  return b;
}

}  // namespace

binary_problem top_label(std::span<const std::int32_t> y, proba_view p) {
  check_multiclass_input("top_label", y, p);
  return top_label_unchecked(y, p);
}

reliability_result top_label_reliability_curve(std::span<const std::int32_t> y, proba_view p,
                                               std::span<const double> weight, std::size_t n_bins,
                                               bin_strategy strategy) {
  check_multiclass_input("top_label_reliability_curve", y, p, weight);
  const binary_problem b = top_label_unchecked(y, p);
  return reliability_curve(b.y, b.score, weight, n_bins, strategy);
}

value top_label_calibration_error(std::span<const std::int32_t> y, proba_view p, std::span<const double> weight,
                                  std::size_t n_bins, bin_strategy strategy) {
  check_multiclass_input("top_label_calibration_error", y, p, weight);
  const binary_problem b = top_label_unchecked(y, p);
  return expected_calibration_error(b.y, b.score, weight, n_bins, strategy);
}

}  // namespace assay::curves
