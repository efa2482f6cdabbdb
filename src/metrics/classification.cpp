#include "assay/metrics/classification.hpp"

#include <cmath>
#include <fmt/format.h>

#include "assay/error.hpp"

namespace assay {

// ---- binary ---------------------------------------------------------------------------------

value accuracy(const binary_counts& c) { return ratio(c.tp + c.tn, c.total(), "no cases"); }
value error_rate(const binary_counts& c) { return ratio(c.fp + c.fn, c.total(), "no cases"); }
value recall(const binary_counts& c) { return ratio(c.tp, c.tp + c.fn, "no actual positives"); }
value specificity(const binary_counts& c) { return ratio(c.tn, c.tn + c.fp, "no actual negatives"); }
value fpr(const binary_counts& c) { return ratio(c.fp, c.fp + c.tn, "no actual negatives"); }
value fnr(const binary_counts& c) { return ratio(c.fn, c.fn + c.tp, "no actual positives"); }
value precision(const binary_counts& c) { return ratio(c.tp, c.tp + c.fp, "no predicted positives"); }
value npv(const binary_counts& c) { return ratio(c.tn, c.tn + c.fn, "no predicted negatives"); }
value prevalence(const binary_counts& c) { return ratio(c.tp + c.fn, c.total(), "no cases"); }

value fbeta(const binary_counts& c, double beta) {
  if (!(beta > 0) || !std::isfinite(beta)) throw_usage(fmt::format("fbeta: beta is {}, but must be > 0 and finite", beta));
  const double b2 = beta * beta;
  return ratio((1 + b2) * c.tp, (1 + b2) * c.tp + b2 * c.fn + c.fp, "no actual and no predicted positives");
}
value f1(const binary_counts& c) { return ratio(2 * c.tp, 2 * c.tp + c.fn + c.fp, "no actual and no predicted positives"); }

value balanced_accuracy(const binary_counts& c) {
  const double pos = c.tp + c.fn, neg = c.tn + c.fp;
  if (pos > 0 && neg > 0) return (c.tp / pos + c.tn / neg) / 2;
  if (pos > 0) return c.tp / pos;
  if (neg > 0) return c.tn / neg;
  return value::undefined("no cases");
}

namespace {

// Gorodkin's R_K and Cohen's kappa from the margins, arranged as scikit-learn arranges them so that
// the two agree to the last bits: s = total, c = trace, t = row sums, p = column sums.
value mcc_from_margins(double s, double c, double pt, double pp, double tt) {
  const double cov_pp = s * s - pp, cov_tt = s * s - tt;
  if (!(cov_pp * cov_tt > 0)) return value::undefined("all cases are in one actual or one predicted class");
  return (c * s - pt) / std::sqrt(cov_tt * cov_pp);
}

value kappa_from_margins(double s, double c, double pt) {
  if (s == 0) return value::undefined("no cases");
  // Off-diagonal weight expected by chance, times s. Written as s^2 - pt (not s - pt / s) so that it
  // is exactly 0 when every case is in one class: then pt = s * s bit for bit, whereas
  // fl(fl(s * s) / s) differs from s for about 8% of weighted totals and turned 0/0 into kappa = 1.
  const double expected_off = s * s - pt;
  if (expected_off == 0) return value::undefined("chance agreement is 1 (one class only)");
  return 1 - (s - c) * s / expected_off;
}

}  // namespace

value matthews_corrcoef(const binary_counts& c) {
  const double t1 = c.tp + c.fn, t0 = c.tn + c.fp, p1 = c.tp + c.fp, p0 = c.tn + c.fn;
  return mcc_from_margins(c.total(), c.tp + c.tn, t0 * p0 + t1 * p1, p0 * p0 + p1 * p1, t0 * t0 + t1 * t1);
}

value cohen_kappa(const binary_counts& c) {
  const double t1 = c.tp + c.fn, t0 = c.tn + c.fp, p1 = c.tp + c.fp, p0 = c.tn + c.fn;
  return kappa_from_margins(c.total(), c.tp + c.tn, t0 * p0 + t1 * p1);
}

// ---- multiclass -----------------------------------------------------------------------------

value accuracy(const confusion_matrix& cm) { return ratio(cm.trace(), cm.total(), "no cases"); }
value error_rate(const confusion_matrix& cm) { return ratio(cm.total() - cm.trace(), cm.total(), "no cases"); }

value balanced_accuracy(const confusion_matrix& cm) {
  double sum = 0;
  std::size_t present = 0;
  for (std::size_t k = 0; k < cm.classes(); ++k) {
    double s = cm.row_sum(k);
    if (s > 0) {
      sum += cm(k, k) / s;
      ++present;
    }
  }
  if (present == 0) return value::undefined("no cases");
  return sum / static_cast<double>(present);
}

value matthews_corrcoef(const confusion_matrix& cm) {
  double pt = 0, pp = 0, tt = 0;
  for (std::size_t i = 0; i < cm.classes(); ++i) {
    const double t = cm.row_sum(i), p = cm.col_sum(i);
    pt += t * p;
    pp += p * p;
    tt += t * t;
  }
  return mcc_from_margins(cm.total(), cm.trace(), pt, pp, tt);
}

value cohen_kappa(const confusion_matrix& cm) {
  double pt = 0;
  for (std::size_t i = 0; i < cm.classes(); ++i) pt += cm.row_sum(i) * cm.col_sum(i);
  return kappa_from_margins(cm.total(), cm.trace(), pt);
}

std::vector<class_stats> per_class(const confusion_matrix& cm) {
  std::vector<class_stats> out(cm.classes());
  for (std::size_t k = 0; k < cm.classes(); ++k) {
    auto c = binary_counts::one_vs_rest(cm, k);
    auto& s = out[k];
    s.support = c.tp + c.fn;
    s.recall = recall(c);
    s.tp_rate = s.recall;
    s.fp_rate = fpr(c);
    s.precision = precision(c);
    s.f1 = f1(c);
    s.mcc = matthews_corrcoef(c);
  }
  return out;
}

averaged micro_average(const confusion_matrix& cm) {
  binary_counts sum;
  for (std::size_t k = 0; k < cm.classes(); ++k) {
    auto c = binary_counts::one_vs_rest(cm, k);
    sum.tp += c.tp;
    sum.fp += c.fp;
    sum.fn += c.fn;
    sum.tn += c.tn;
  }
  return {precision(sum), recall(sum), f1(sum), fpr(sum)};
}

namespace {

// Mean of one per-class value with weights, applying the zero-division policy.
value average_of(const std::vector<class_stats>& s, value class_stats::*field, bool by_support, zero_division zd) {
  double num = 0, den = 0;
  std::size_t skipped = 0;
  for (const auto& c : s) {
    const double w = by_support ? c.support : 1.0;
    const value& v = c.*field;
    if (v.defined()) {
      num += w * v.v;
      den += w;
    } else if (zd == zero_division::skip) {
      ++skipped;
    } else {
      num += w * (zd == zero_division::one ? 1.0 : 0.0);
      den += w;
    }
  }
  if (den == 0) return value::undefined(by_support ? "no cases" : "every class is undefined");
  return num / den;
}

averaged average(const confusion_matrix& cm, bool by_support, zero_division zd) {
  auto s = per_class(cm);
  return {average_of(s, &class_stats::precision, by_support, zd), average_of(s, &class_stats::recall, by_support, zd),
          average_of(s, &class_stats::f1, by_support, zd), average_of(s, &class_stats::fp_rate, by_support, zd)};
}

}  // namespace

averaged macro_average(const confusion_matrix& cm, zero_division zd) { return average(cm, false, zd); }
averaged weighted_average(const confusion_matrix& cm, zero_division zd) { return average(cm, true, zd); }

}  // namespace assay
