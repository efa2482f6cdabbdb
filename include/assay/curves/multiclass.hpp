// assay: multiclass probabilities reduced to binary problems for the threshold, cost and calibration
// curves: one-vs-rest per class, and the top-label (confidence) problem of Guo et al. (2017).
//
// References: Provost & Domingos (2000) and Fawcett (2006), section 10 (one-vs-rest class reference
// formulation); Guo, Pleiss, Sun & Weinberger, "On Calibration of Modern Neural Networks", ICML 2017
// (confidence reliability diagrams and ECE); Kull et al., NeurIPS 2019 (classwise calibration).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "assay/curves/calibration.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/value.hpp"

namespace assay::curves {

/// Checks a multiclass problem: `p` has y.size() rows and >= 2 columns, every y[i] is a class index
/// 0..K-1, every probability is finite and in [0, 1], each row sums to 1 by the rule of the
/// multiclass AUCs (|sum - 1| <= 1e-8 + 1e-5 |sum|, numpy.allclose), and `weight` is empty or one
/// finite weight >= 0 per row. Throws kind data naming `caller`, the row and the value.
void check_multiclass_input(std::string_view caller, std::span<const std::int32_t> y, proba_view p,
                            std::span<const double> weight = {});

/// A binary problem: labels 0/1 and a score (higher = more positive).
struct binary_problem {
  std::vector<std::int32_t> y;
  std::vector<double> score;
};

/// Class k against the rest: y_i = [y_i == k], score_i = p(i, k) (scikit-learn's label_binarize
/// column k with predict_proba column k). Throws as check_multiclass_input, and kind usage for
/// k >= K.
binary_problem one_vs_rest(std::span<const std::int32_t> y, proba_view p, std::size_t k);

/// One sweep per class of one_vs_rest(y, p, k), k = 0..K-1, for threshold_counts, best_*,
/// min_expected_cost and cost_curve of each class.
std::vector<score_sweep> sweep_one_vs_rest(std::span<const std::int32_t> y, proba_view p,
                                           std::span<const double> weight = {});

/// The ranking areas of one class against the rest.
struct class_areas {
  value roc_auc;            ///< roc_auc of the sweep: undefined when the class has no cases or all of them
  value average_precision;  ///< step AP of the sweep: undefined when the class has no cases
};

/// ROC AUC and average precision of every class k against the rest, ranked by p(., k): the columns
/// of scikit-learn's roc_auc_score(label_binarize(y), p, average=None) and
/// average_precision_score(..., average=None), and WEKA's "ROC Area" and "PRC Area" columns
/// (ours is scikit-learn's step AP; WEKA's PRC area is an area under its PR curve points, which can
/// differ slightly: docs/definitions/classification.md). One
/// class at a time (memory of one sweep). Unlike the multiclass AUCs the rows need not sum to 1, and
/// scores need not lie in [0, 1]: only their order matters. For a binary score view
/// (proba_view::scores), class 0 is ranked by -score (the order of 1 - score without its rounding).
/// Throws kind data naming the function for a size mismatch, a class index outside 0..K-1, a
/// non-finite score or a bad weight.
std::vector<class_areas> areas_one_vs_rest(std::span<const std::int32_t> y, proba_view p,
                                           std::span<const double> weight = {});

/// The top-label (confidence) problem of Guo et al. (2017): the prediction is the argmax (the first
/// of equal maxima, as numpy.argmax), score_i = max_k p(i, k) its confidence, y_i = [argmax == y_i]
/// whether it is right. Its reliability curve is the "reliability diagram" of that paper and its
/// expected calibration error their ECE. Throws as check_multiclass_input.
binary_problem top_label(std::span<const std::int32_t> y, proba_view p);

/// Reliability curve of the top-label problem: per bin of confidence, accuracy (prob_true) against
/// mean confidence (prob_pred). Bins as reliability_curve. Confidences lie in [1/K, 1], so the low
/// uniform bins are empty.
reliability_result top_label_reliability_curve(std::span<const std::int32_t> y, proba_view p,
                                               std::span<const double> weight = {}, std::size_t n_bins = 10,
                                               bin_strategy strategy = bin_strategy::uniform);

/// Top-label ECE (Guo et al. 2017, eq. 3): sum_b (W_b / W) |acc_b - conf_b| over the bins of
/// top_label_reliability_curve. Guo et al. use 15 uniform bins; assay's default is 10 as for the
/// binary ECE (give n_bins = 15 to reproduce their tables). Undefined when W = 0.
value top_label_calibration_error(std::span<const std::int32_t> y, proba_view p, std::span<const double> weight = {},
                                  std::size_t n_bins = 10, bin_strategy strategy = bin_strategy::uniform);

}  // namespace assay::curves
