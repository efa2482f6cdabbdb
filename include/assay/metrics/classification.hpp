// assay: metrics of hard predictions, from a binary_counts (one class called positive) or a full
// confusion_matrix. Names follow scikit-learn where the definition is the same. Every function
// returns an assay::value, undefined with a reason where the formula divides 0 by 0; the choices
// where peers differ are in docs/definitions.md.
//
// References: Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27 (2006);
// Sokolova & Lapalme, "A systematic analysis of performance measures for classification tasks",
// Information Processing & Management 45 (2009); Mitchell, Machine Learning (1997), ch. 5.
#pragma once

#include <vector>

#include "assay/metrics/confusion.hpp"
#include "assay/value.hpp"

namespace assay {

// ---- binary, from TP, FP, FN, TN ------------------------------------------------------------

/// (TP + TN) / (TP + FP + FN + TN).
value accuracy(const binary_counts& c);
/// (FP + FN) / (TP + FP + FN + TN) = 1 - accuracy.
value error_rate(const binary_counts& c);
/// TP / (TP + FN): recall, sensitivity, true-positive rate, hit rate.
value recall(const binary_counts& c);
/// TN / (TN + FP): specificity, true-negative rate.
value specificity(const binary_counts& c);
/// FP / (FP + TN): false-positive rate, fall-out = 1 - specificity.
value fpr(const binary_counts& c);
/// FN / (FN + TP): false-negative rate, miss rate = 1 - recall.
value fnr(const binary_counts& c);
/// TP / (TP + FP): precision, positive predictive value.
value precision(const binary_counts& c);
/// TN / (TN + FN): negative predictive value.
value npv(const binary_counts& c);
/// F-beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP), the weighted harmonic mean of precision and
/// recall (van Rijsbergen 1979). Written on counts it stays defined (as 0) when precision alone
/// is 0/0 but recall is 0; it is undefined only when TP + FP + FN = 0. beta must be > 0.
value fbeta(const binary_counts& c, double beta);
/// F1 = 2 TP / (2 TP + FP + FN).
value f1(const binary_counts& c);
/// (TPR + TNR) / 2 (Brodersen et al. 2010); when one class is absent, the recall of the other
/// (as scikit-learn: the mean over the classes that occur).
value balanced_accuracy(const binary_counts& c);
/// (TP TN - FP FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN)) (Matthews 1975); undefined when a
/// factor is 0 (scikit-learn returns 0 there).
value matthews_corrcoef(const binary_counts& c);
/// (p_o - p_e) / (1 - p_e) (Cohen 1960), p_o the accuracy and p_e the agreement expected by chance
/// from the margins; undefined when p_e = 1.
value cohen_kappa(const binary_counts& c);
/// (TP + FN) / total: the share of actual positives.
value prevalence(const binary_counts& c);

// ---- multiclass, from a K x K confusion matrix ----------------------------------------------

/// trace / total.
value accuracy(const confusion_matrix& cm);
value error_rate(const confusion_matrix& cm);
/// Mean recall over the classes that occur (rows with support > 0), as scikit-learn.
value balanced_accuracy(const confusion_matrix& cm);
/// Gorodkin's R_K (2004), the multiclass MCC: (c s - sum_k p_k t_k) / sqrt((s^2 - sum p_k^2)(s^2 - sum t_k^2)),
/// c = trace, s = total, t_k = row sums, p_k = column sums.
value matthews_corrcoef(const confusion_matrix& cm);
/// Cohen's kappa with p_e = sum_k t_k p_k / s^2.
value cohen_kappa(const confusion_matrix& cm);

/// What a macro or weighted average does with a class whose value is undefined (0/0).
enum class zero_division {
  zero,  ///< counts it as 0, as scikit-learn's default (zero_division="warn" / 0)
  one,   ///< counts it as 1 (scikit-learn's zero_division=1)
  skip,  ///< leaves it out of the average (scikit-learn 1.3's zero_division=np.nan)
};

/// Per-class statistics, one-vs-rest, as in WEKA's "Detailed Accuracy By Class".
struct class_stats {
  double support = 0;  ///< weight of the cases of this class (row sum)
  value tp_rate;       ///< = recall
  value fp_rate;       ///< FP / (FP + TN)
  value precision;
  value recall;
  value f1;
  value mcc;           ///< one-vs-rest Matthews correlation
};
std::vector<class_stats> per_class(const confusion_matrix& cm);

/// An average of per-class precision, recall and F1.
struct averaged {
  value precision, recall, f1, fp_rate;
};
/// Micro average: pool TP, FP, FN over classes. For single-label data micro precision = micro
/// recall = micro F1 = accuracy.
averaged micro_average(const confusion_matrix& cm);
/// Macro average: unweighted mean over all K classes (labels in the truth or the predictions).
/// Macro F1 is the mean of per-class F1 (scikit-learn), not the F1 of the macro P and R.
averaged macro_average(const confusion_matrix& cm, zero_division zd = zero_division::zero);
/// Weighted average: mean weighted by support (scikit-learn's average="weighted", WEKA's
/// "Weighted Avg.").
averaged weighted_average(const confusion_matrix& cm, zero_division zd = zero_division::zero);

}  // namespace assay
