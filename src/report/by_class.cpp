// The per-class statistics of R's caret confusionMatrix, the per-class ROC and PR areas and the
// no-information rate tests of a report; see by_class.hpp.
//
// References: Kuhn, caret (R package), confusionMatrix: "byClass" statistics, the no-information
// rate and the one-sided binomial test of accuracy against it; McNemar (1947) and Bowker (1948) for
// the symmetry of the matrix (R's mcnemar.test); Provost & Domingos (2000) and Fawcett (2006) for
// one-vs-rest ROC areas; WEKA's "Detailed Accuracy By Class" (Witten, Frank & Hall, Data Mining,
// 3rd ed., 2011, section 5.7) for showing them per class.
#include "by_class.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/curves/multiclass.hpp"
#include "assay/metrics/classification.hpp"
#include "assay/stats/distributions.hpp"
#include "assay/stats/tests.hpp"

namespace assay::detail {

namespace {

value ratio(double num, double den, const char* why) { return den > 0 ? value(num / den) : value::undefined(why); }

}  // namespace

std::vector<class_detail> class_details(const confusion_matrix& cm, const std::string& no_ranking) {
  std::vector<class_detail> out;
  const double n = cm.total();
  for (std::size_t k = 0; k < cm.classes(); ++k) {
    const binary_counts c = binary_counts::one_vs_rest(cm, k);
    class_detail d;
    d.sensitivity = recall(c);
    d.specificity = specificity(c);
    d.ppv = precision(c);
    d.npv = npv(c);
    d.prevalence = ratio(c.tp + c.fn, n, "no cases (total weight 0)");
    d.detection_rate = ratio(c.tp, n, "no cases (total weight 0)");
    d.detection_prevalence = ratio(c.tp + c.fp, n, "no cases (total weight 0)");
    if (!d.sensitivity) d.balanced_accuracy = value::undefined("sensitivity is undefined: " + d.sensitivity.reason);
    else if (!d.specificity) d.balanced_accuracy = value::undefined("specificity is undefined: " + d.specificity.reason);
    else d.balanced_accuracy = value((d.sensitivity.v + d.specificity.v) / 2);
    d.roc_auc = value::undefined(no_ranking);
    d.average_precision = value::undefined(no_ranking);
    out.push_back(std::move(d));
  }
  return out;
}

void set_ranking_averages(report& r) {
  auto average = [&](value class_detail::*field, bool weighted) -> value {
    double sum = 0, total = 0;
    for (std::size_t k = 0; k < r.by_class.size(); ++k) {
      const value& v = r.by_class[k].*field;
      if (!v) return value::undefined(fmt::format("class \"{}\": {}", r.labels[k], v.reason));
      const double wk = weighted ? r.per_class[k].support : 1.0;
      sum += wk * v.v;
      total += wk;
    }
    return total > 0 ? value(sum / total) : value::undefined("no classes with support");
  };
  r.macro_ranking = {average(&class_detail::roc_auc, false), average(&class_detail::average_precision, false)};
  r.weighted_ranking = {average(&class_detail::roc_auc, true), average(&class_detail::average_precision, true)};
}

void set_class_areas(report& r, std::span<const std::int32_t> y, proba_view p, std::span<const double> w,
                     std::span<const std::size_t> view_class) {
  const auto areas = curves::areas_one_vs_rest(y, p, w);
  for (std::size_t k = 0; k < areas.size(); ++k) {
    r.by_class[view_class[k]].roc_auc = areas[k].roc_auc;
    r.by_class[view_class[k]].average_precision = areas[k].average_precision;
  }
  set_ranking_averages(r);
}

std::string not_counts_reason(std::optional<double> smallest_fractional_weight) {
  if (!smallest_fractional_weight) return {};
  return fmt::format("the weights are not all whole numbers (the smallest that is not: {}); the exact tests need "
                     "counts (whole-number weights are read as repeated rows)", *smallest_fractional_weight);
}

std::optional<double> smallest_fractional_weight(std::span<const double> weights) {
  std::optional<double> out;
  for (double w : weights) {
    if (w != std::floor(w) && (!out || w < *out)) out = w;
  }
  return out;
}

void insert_caret_overall(report& r, const std::string& not_counts) {
  const confusion_matrix& cm = r.cm;
  const std::size_t K = cm.classes();
  const double n = cm.total();
  double largest = 0;
  for (std::size_t k = 0; k < K; ++k) largest = std::max(largest, cm.row_sum(k));
  const value nir = ratio(largest, n, "no cases (total weight 0)");

  // The tests need counts: with weights, the weighted matrix is read as counts when every weight is a
  // whole number (frequency weights: a weight of 3 is a row seen 3 times), else they are undefined
  // (`not_counts` says why).
  value p_acc;
  if (!not_counts.empty()) p_acc = value::undefined(not_counts);
  else if (!nir) p_acc = value::undefined(nir.reason);
  else p_acc = value(stats::binom_upper_tail(std::llround(cm.trace()), std::llround(n), nir.v));

  value p_mcnemar;
  if (!not_counts.empty()) {
    p_mcnemar = value::undefined(not_counts);
  } else if (K < 2) {
    p_mcnemar = value::undefined("one class: no pair of classes to compare");
  } else {
    std::vector<double> table(K * K);
    for (std::size_t i = 0; i < K; ++i)
      for (std::size_t j = 0; j < K; ++j) table[i * K + j] = cm(i, j);
    const stats::test_result t = stats::table_symmetry_test(table, K);
    if (std::isnan(t.p_value)) {
      p_mcnemar = value::undefined(K == 2 ? "no errors (FP + FN = 0): the statistic is 0/0"
                                          : "a pair of classes is never confused either way: its term is 0/0");
    } else {
      p_mcnemar = value(t.p_value);
    }
  }
  auto at = std::find_if(r.metrics.begin(), r.metrics.end(), [](const metric_result& m) { return m.name == "accuracy"; });
  if (at != r.metrics.end()) ++at;
  at = r.metrics.insert(at, metric_result("no_information_rate", "no-information rate (largest class)", nir));
  at = r.metrics.insert(at + 1, metric_result("accuracy_p_value", "p-value, accuracy > no-information rate", p_acc));
  r.metrics.insert(at + 1, metric_result("mcnemar_p_value",
                                         K > 2 ? "McNemar-Bowker symmetry test p-value" : "McNemar's test p-value",
                                         p_mcnemar));
}

}  // namespace assay::detail
