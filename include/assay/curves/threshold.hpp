// assay: choosing a decision threshold for a score. Every binary metric as a function of the
// threshold, the best threshold by several criteria, expected cost, Drummond-Holte cost curves and
// rejection curves. All are read off one score_sweep (include/assay/curves/sweep.hpp).
//
// References: Youden, Cancer 3 (1950) (J = TPR - FPR); Fawcett (2006) (iso-performance lines and
// expected cost); Drummond & Holte, Machine Learning 65 (2006) (cost curves); Elkan, IJCAI 2001 (cost
// matrices); Chow, IRE Trans. EC-6 (1957) and Nadeem et al., JMLR W&CP 8 (2010) (reject option and
// accuracy-rejection curves); Lipton, Elkan & Naryanaswamy, ECML PKDD 2014 (F1 against the threshold);
// Neyman & Pearson (1933) and Tong, Feng & Li, Science Advances 4 (2018) (operating points under a
// constraint, the NP umbrella threshold).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/curves/sweep.hpp"
#include "assay/metrics/confusion.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/metrics/registry.hpp"
#include "assay/value.hpp"

namespace assay::curves {

/// The confusion counts of every candidate threshold, highest first: entry 0 is "positive when
/// score >= +inf" (nothing positive), entry k + 1 is "positive when score >= sw.thresholds[k]".
struct threshold_table {
  std::vector<double> thresholds;
  std::vector<binary_counts> counts;
};
threshold_table threshold_counts(const score_sweep& sw);

/// One registered binary metric (metric_kind::binary, e.g. "f1", "precision", "matthews_corrcoef")
/// evaluated at every threshold of threshold_counts: e.g. the F1-against-threshold curve (Lipton et al. 2014).
/// Throws kind usage for a name that is not a registered binary metric.
std::vector<value> metric_vs_threshold(const threshold_table& t, std::string_view metric, const metric_params& params = {});

/// An operating point: a threshold with its ROC coordinates and the criterion's value there.
struct operating_point {
  value criterion;             ///< the optimised quantity (J, distance, F-beta or expected cost)
  double threshold = 0;        ///< positive when score >= threshold (+inf = nothing positive)
  double fpr = 0, tpr = 0;     ///< the matching point of the ROC curve
  binary_counts counts;
};

/// Youden's J = TPR - FPR, maximised. Ties go to the highest threshold. Undefined without both classes.
operating_point best_youden(const score_sweep& sw);
/// The point nearest (FPR, TPR) = (0, 1): sqrt(FPR^2 + (1 - TPR)^2) minimised.
operating_point best_closest_to_corner(const score_sweep& sw);
/// The highest F-beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP). Undefined without positives.
operating_point best_fbeta(const score_sweep& sw, double beta = 1.0);

/// Operating points under a constraint (the Neyman-Pearson view of a classifier: the most powerful
/// test of size alpha is the threshold with the highest TPR among those with FPR <= alpha; Neyman &
/// Pearson, Phil. Trans. R. Soc. A 231 (1933)), and its mirrors:
/// - max_fpr A:       highest TPR (recall, sensitivity) among the thresholds with FPR <= A;
/// - min_tpr T:       highest specificity (lowest FPR) among those with TPR >= T;
/// - min_precision P: highest recall among those with precision >= P;
/// - min_recall R:    highest precision among those with recall (TPR) >= R.
/// Candidates are the thresholds of threshold_counts: "nothing positive" (threshold +inf) and every
/// distinct score; rates are weighted when the sweep is. Precision is undefined (0/0) where nothing is
/// predicted positive, so that candidate never meets a precision constraint nor wins on precision.
/// Ties: among candidates with the best objective, the one with the best constrained quantity wins
/// (a point that is as good on the objective and better on the constraint dominates), then the
/// highest threshold. Concretely: max_fpr and min_precision take the highest threshold of the best
/// TPR (the lowest FPR / highest precision for it); min_tpr and min_recall take the lowest threshold of
/// the best specificity / precision (the highest TPR for it).
enum class constraint_kind { max_fpr, min_tpr, min_precision, min_recall };

/// "max_fpr", "min_tpr", "min_precision", "min_recall".
std::string_view to_string(constraint_kind k);

/// A constrained operating point. `point.criterion` is the objective (TPR, specificity, recall or
/// precision) at the chosen threshold, undefined with the reason when no threshold meets the
/// constraint or a class is missing; `constrained` is the constrained quantity there (FPR, TPR,
/// precision or recall).
struct constrained_point {
  constraint_kind kind = constraint_kind::max_fpr;
  double bound = 0;
  operating_point point;
  value constrained;
};

/// The point of `kind` at `bound` (in [0, 1]) over the sweep, O(number of thresholds). Throws kind
/// usage naming the function, the constraint and the value for a bound outside [0, 1] or NaN.
constrained_point constrained_threshold(const score_sweep& sw, constraint_kind kind, double bound);

/// The Neyman-Pearson umbrella threshold (Tong, Feng & Li, "Neyman-Pearson classification algorithms
/// and NP receiver operating characteristics", Science Advances 4(2) eaao1659 (2018), Proposition 1):
/// with t(1) <= ... <= t(n) the scores of n negatives held out from training, the classifier
/// "positive when score > t(k)" has population false-positive rate R0 = P(S > t(k) | negative) with
///   P(R0 > alpha) <= v(k) = sum_{j=k}^{n} C(n, j) (1 - alpha)^j alpha^(n - j) = P(Bin(n, 1 - alpha) >= k),
/// for any score distribution (ties included: "> t(k)" is the conservative side). The umbrella
/// threshold takes the smallest k with v(k) <= delta (the most powerful of these). It exists iff
/// v(n) = (1 - alpha)^n <= delta, i.e. n >= log(delta) / log(1 - alpha) negatives (59 for alpha = 0.05,
/// delta = 0.05; 29 for alpha = 0.1). The FPR measured on the test set at the empirical max_fpr
/// point, by contrast, exceeds alpha on new data about half the time.
struct np_umbrella_result {
  double alpha = 0.05, delta = 0.05;
  std::size_t negatives = 0;      ///< n
  std::size_t min_negatives = 0;  ///< the smallest n for which k exists
  value order_statistic;          ///< t(k); undefined with the reason when k does not exist
  std::size_t k = 0;              ///< 1-based rank among the negatives' scores, ascending (0: none)
  value violation_bound;          ///< v(k) <= delta
  /// "positive when score >= threshold" with threshold = the next double above t(k), i.e. score > t(k);
  /// NaN when undefined. The counts and rates on the data at that threshold follow.
  operating_point point;
};

/// The umbrella threshold from the negatives' scores (any order, finite; the positives only matter
/// for the counts: pass the sweep of all cases, unweighted, as `sw`). Throws kind usage naming the
/// function for alpha or delta outside (0, 1) and kind data for a non-finite score.
np_umbrella_result np_umbrella_threshold(std::span<const double> negative_scores, const score_sweep& sw,
                                         double alpha, double delta = 0.05);

/// The constrained operating points a caller asks for (any subset), and the confidence 1 - delta of
/// the umbrella threshold that accompanies max_fpr. Bounds: max_fpr in (0, 1) (it is also the
/// umbrella's alpha), the others in [0, 1]; confidence in (0, 1). `assay curve threshold` and
/// `assay report` take the same set.
struct operating_constraints {
  std::optional<double> max_fpr, min_tpr, min_precision, min_recall;
  double confidence = 0.95;
  bool any() const { return max_fpr || min_tpr || min_precision || min_recall; }
};

/// What operating_constraints give on one sweep: the constrained points in the order max_fpr,
/// min_tpr, min_precision, min_recall (those asked for), and with max_fpr the umbrella threshold.
struct constrained_points {
  std::vector<constrained_point> points;
  std::optional<np_umbrella_result> umbrella;    ///< with max_fpr on unweighted data
  std::optional<std::string> umbrella_undefined;  ///< with max_fpr on weighted data: why there is none
};

/// Every point `c` asks for over `sw`. The umbrella threshold is an order statistic of unweighted
/// negatives: pass their scores as `negative_scores` (any order); with `weighted` it is undefined
/// with the reason in umbrella_undefined. Throws kind usage naming `function` and the parameter (max_fpr, ..., confidence)
/// for a bound outside its range or NaN.
constrained_points constrained_thresholds(std::string_view function, const score_sweep& sw,
                                          const operating_constraints& c, std::span<const double> negative_scores,
                                          bool weighted);

/// Checks the bounds of `c` as constrained_thresholds does, without a sweep (e.g. before reading data).
void check_constraints(std::string_view function, const operating_constraints& c);

/// The smallest number of negatives for which the umbrella threshold exists: the least n with
/// (1 - alpha)^n <= delta. alpha, delta in (0, 1).
std::size_t np_min_negatives(double alpha, double delta);

/// A cost model: the cost of each outcome and the prevalence expected in deployment. cost(FP) and
/// cost(FN) must be >= 0; cost(TP) and cost(TN) may be negative (a benefit, as in Elkan 2001's cost matrices).
struct cost_model {
  double fp = 1, fn = 1, tp = 0, tn = 0;
  /// P(positive) in deployment; nullopt = the (weighted) prevalence of the data.
  std::optional<double> prior;
};

/// Expected cost per case at a point: pi (FNR c_FN + TPR c_TP) + (1 - pi) (FPR c_FP + TNR c_TN), with pi
/// the prior (Elkan 2001; Fawcett 2006, section 6). Minimised over the thresholds; ties go to the highest.
/// With pi the data's prevalence this is the average cost per case of the data (the expected total
/// cost divided by the number of cases). Throws kind usage for a negative cost(FP) or cost(FN), a
/// non-finite cost, or a prior outside [0, 1]; undefined without both classes.
operating_point min_expected_cost(const score_sweep& sw, const cost_model& cost);

/// Drummond & Holte's cost curve. For a ROC point (FPR, TPR) the normalised expected cost is
/// NE(pc) = (1 - TPR) pc + FPR (1 - pc), a line over the probability-cost value
/// pc = pi c_FN / (pi c_FN + (1 - pi) c_FP) in [0, 1]. `lines` holds (FPR, TPR) of every ROC point
/// (each a line); `envelope` is their lower envelope, a polyline from (0, 0) to (1, 0) whose vertices
/// come from the ROC convex hull.
struct cost_curve_result {
  std::vector<double> line_fpr, line_tpr, line_threshold;
  std::vector<double> envelope_pc, envelope_cost;
  std::string undefined;
};
cost_curve_result cost_curve(const score_sweep& sw);

/// Accuracy-rejection curve: the cases with the lowest confidence are rejected first. Point k rejects
/// every case whose confidence is < confidence[k] (k = 0 rejects none), reporting the rejected
/// fraction of the weight and the accuracy of the accepted cases. Ties in confidence are rejected
/// together. The point with everything rejected (accuracy undefined) is not listed.
struct rejection_curve_result {
  std::vector<double> rejected, accuracy, confidence;
};
/// Binary: prediction "positive when score >= threshold", confidence |score - threshold|
/// (the distance to the threshold; Chow 1957).
rejection_curve_result rejection_curve(std::span<const std::int32_t> y, std::span<const double> score,
                                       std::span<const double> weight = {}, double threshold = 0.5);
/// Multiclass: prediction the argmax (first of equal maxima), confidence the margin between the two
/// highest class probabilities. `y` holds class indices.
rejection_curve_result rejection_curve_multiclass(std::span<const std::int32_t> y, proba_view p,
                                                  std::span<const double> weight = {});

}  // namespace assay::curves
