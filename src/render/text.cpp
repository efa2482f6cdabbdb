// The human-readable report.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/report/report.hpp"

namespace assay {

namespace {

std::string number(double x) {
  if (x == std::floor(x) && std::abs(x) < 1e15) return fmt::format("{:.0f}", x);
  return fmt::format("{:.6g}", x);
}

std::string show(const value& v) { return v.defined() ? number(v.v) : fmt::format("undefined ({})", v.reason); }

std::string cell3(const value& v) { return v.defined() ? fmt::format("{:.3f}", v.v) : std::string("  ?  "); }

std::string clip(const std::string& s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n - 1) + "~"; }

void confusion_block(std::string& out, const report& r) {
  const std::size_t K = r.labels.size();
  out += "Confusion matrix (rows = actual class, columns = predicted class)\n";
  if (K > 30) {
    out += fmt::format("  ({} classes: too many to print; the JSON report has the matrix)\n\n", K);
    return;
  }
  std::size_t w = 6;
  for (const auto& l : r.labels) w = std::max(w, std::min<std::size_t>(l.size(), 16) + 1);
  for (std::size_t i = 0; i < K; ++i)
    for (std::size_t j = 0; j < K; ++j) w = std::max(w, number(r.cm(i, j)).size() + 2);
  out += fmt::format("  {:>{}}", "", w);
  for (const auto& l : r.labels) out += fmt::format("{:>{}}", clip(l, 16), w);
  out += "\n";
  for (std::size_t i = 0; i < K; ++i) {
    out += fmt::format("  {:>{}}", clip(r.labels[i], 16), w);
    for (std::size_t j = 0; j < K; ++j) out += fmt::format("{:>{}}", number(r.cm(i, j)), w);
    out += "\n";
  }
  out += "\n";
}

// WEKA's "Detailed Accuracy By Class", with its ROC Area and PRC Area columns.
void per_class_block(std::string& out, const report& r) {
  out += "Detailed accuracy by class\n";
  out += fmt::format("  {:>8} {:>8} {:>9} {:>8} {:>9} {:>8} {:>8} {:>8} {:>9}  {}\n", "TP rate", "FP rate",
                     "Precision", "Recall", "F-measure", "MCC", "ROC area", "PRC area", "Support", "Class");
  for (std::size_t k = 0; k < r.per_class.size(); ++k) {
    const auto& c = r.per_class[k];
    const auto& d = r.by_class[k];
    out += fmt::format("  {:>8} {:>8} {:>9} {:>8} {:>9} {:>8} {:>8} {:>8} {:>9}  {}\n", cell3(c.tp_rate),
                       cell3(c.fp_rate), cell3(c.precision), cell3(c.recall), cell3(c.f1), cell3(c.mcc),
                       cell3(d.roc_auc), cell3(d.average_precision), number(c.support), r.labels[k]);
  }
  auto avg_line = [&](const char* name, const averaged& a, const ranking_average* ra) {
    out += fmt::format("  {:>8} {:>8} {:>9} {:>8} {:>9} {:>8} {:>8} {:>8} {:>9}  {}\n", cell3(a.recall),
                       cell3(a.fp_rate), cell3(a.precision), cell3(a.recall), cell3(a.f1), "",
                       ra ? cell3(ra->roc_auc) : "", ra ? cell3(ra->average_precision) : "", number(r.total_weight),
                       name);
  };
  avg_line("Weighted avg.", r.weighted_avg, &r.weighted_ranking);
  avg_line("Macro avg.", r.macro, &r.macro_ranking);
  avg_line("Micro avg.", r.micro, nullptr);
  out += "  (? = undefined: 0/0, e.g. precision of a class that is never predicted)\n";
  if (!r.by_class.empty() && !r.by_class[0].roc_auc && !r.by_class[0].average_precision &&
      r.by_class[0].roc_auc.reason == r.by_class[0].average_precision.reason) {
    out += fmt::format("  (ROC and PRC areas: {})\n", r.by_class[0].roc_auc.reason);
  }
  out += "  (ROC area: ROC AUC of the class against the rest; PRC area: its average precision)\n";
  // With intervals: those of the areas, a line per class (the table has no room for them).
  const bool any_ci = std::any_of(r.by_class.begin(), r.by_class.end(),
                                  [](const class_detail& d) { return d.roc_auc_ci || d.average_precision_ci; });
  if (!r.ci_level || !any_ci) return;
  auto span = [](const std::optional<confidence_interval>& ci) {
    if (!ci) return std::string("-");
    if (!ci->lower.defined() || !ci->upper.defined()) return std::string("undefined");
    return fmt::format("[{:.3f}, {:.3f}]", ci->lower.v, ci->upper.v);
  };
  out += fmt::format("  {:g}% intervals of the areas:\n", *r.ci_level * 100);
  std::string roc_method, pr_method;
  for (std::size_t k = 0; k < r.by_class.size(); ++k) {
    const auto& d = r.by_class[k];
    out += fmt::format("    ROC area {:<16}  PRC area {:<16}  {}\n", span(d.roc_auc_ci), span(d.average_precision_ci),
                       r.labels[k]);
    if (d.roc_auc_ci && roc_method.empty()) roc_method = d.roc_auc_ci->method;
    if (d.average_precision_ci && pr_method.empty()) pr_method = d.average_precision_ci->method;
  }
  out += fmt::format("  (methods: ROC area {}; PRC area {}; the averages have no interval)\n",
                     roc_method.empty() ? "-" : roc_method, pr_method.empty() ? "-" : pr_method);
}

// R caret's confusionMatrix statistics by class, one class against the rest.
void caret_block(std::string& out, const report& r) {
  out += "\nStatistics by class (one against the rest, as R's caret)\n";
  out += fmt::format("  {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}  {}\n", "Sens.", "Spec.", "PPV", "NPV",
                     "F1", "Prev.", "Det.rate", "Det.prev", "Bal.acc.", "Class");
  for (std::size_t k = 0; k < r.by_class.size(); ++k) {
    const auto& d = r.by_class[k];
    out += fmt::format("  {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}  {}\n", cell3(d.sensitivity),
                       cell3(d.specificity), cell3(d.ppv), cell3(d.npv), cell3(r.per_class[k].f1),
                       cell3(d.prevalence), cell3(d.detection_rate), cell3(d.detection_prevalence),
                       cell3(d.balanced_accuracy), r.labels[k]);
  }
}

// The constrained operating points: one row per constraint with its threshold, counts and rates, then
// the umbrella threshold with its order statistic.
void operating_points_block(std::string& out, const curves::constrained_points& op) {
  out += "\nOperating points under a constraint (positive when score >= threshold)\n";
  out += fmt::format("  {:<20} {:>12} {:>10} {:>10} {:>10} {:>10} {:>8} {:>8} {:>9}\n", "constraint", "threshold", "TP", "FP",
                     "FN", "TN", "TPR", "FPR", "precision");
  // `shown`: the threshold as printed (the umbrella's is "> t(k)", the exact rule).
  auto row = [&](const std::string& name, const curves::operating_point& p, std::string shown = {}) {
    if (!p.criterion.defined()) {
      out += fmt::format("  {:<20} undefined ({})\n", name, p.criterion.reason);
      return;
    }
    const auto& c = p.counts;
    const std::string precision = c.tp + c.fp > 0 ? fmt::format("{:.4f}", c.tp / (c.tp + c.fp)) : std::string("?");
    out += fmt::format("  {:<20} {:>12} {:>10} {:>10} {:>10} {:>10} {:>8.4f} {:>8.4f} {:>9}\n", name,
                       !shown.empty() ? shown : std::isinf(p.threshold) ? std::string("+inf") : number(p.threshold),
                       number(c.tp), number(c.fp),
                       number(c.fn), number(c.tn), p.tpr, p.fpr, precision);
  };
  static constexpr const char* constrained[] = {"FPR <=", "TPR >=", "precision >=", "recall >="};
  for (const auto& c : op.points) row(fmt::format("{} {}", constrained[static_cast<int>(c.kind)], number(c.bound)), c.point);
  if (op.umbrella) {
    const auto& u = *op.umbrella;
    row("NP umbrella", u.point, u.order_statistic.defined() ? "> " + number(u.order_statistic.v) : std::string());
    if (u.order_statistic.defined()) {
      out += fmt::format("  (NP umbrella: positive when score > t(k), the k-th smallest negative score: t({}) = {} of {} "
                         "negatives; P(population FPR > {}) <= {})\n",
                         u.k, number(u.order_statistic.v), u.negatives, number(u.alpha), number(u.violation_bound.v));
    }
  } else if (op.umbrella_undefined) {
    out += fmt::format("  {:<20} undefined ({})\n", "NP umbrella", *op.umbrella_undefined);
  }
}

}  // namespace

std::string to_text(const report& r) {
  std::string out;
  out += fmt::format("assay report: {} ({} rows{}{})\n", r.source, r.rows,
                     r.weighted ? fmt::format(", total weight {}", number(r.total_weight)) : "",
                     r.missing ? fmt::format("; {} skipped for a missing value", *r.missing) : "");
  if (r.task == task_kind::regression) {
    out += fmt::format("task: regression; target '{}', prediction '{}'\n\n", r.label_column, r.prediction_column);
  } else {
    out += fmt::format("task: {}, {} classes; actual '{}', predicted '{}'", task_name(r.task), r.labels.size(),
                       r.label_column, r.prediction_column);
    if (r.threshold) out += fmt::format(" >= {}", number(*r.threshold));
    if (r.positive) out += fmt::format("; positive class \"{}\"", r.labels[*r.positive]);
    out += "\n\n";
    confusion_block(out, r);
  }
  out += "Metrics\n";
  std::size_t w = 0;
  for (const auto& m : r.metrics) w = std::max(w, m.title.size());
  if (r.ci_level) out += fmt::format("  ({}% confidence intervals; the method follows each)\n", number(*r.ci_level * 100));
  for (const auto& m : r.metrics) {
    std::string ci;
    if (m.ci) {
      ci = m.ci->lower.defined() && m.ci->upper.defined()
               ? fmt::format("  [{}, {}] {}", number(m.ci->lower.v), number(m.ci->upper.v), m.ci->method)
               : fmt::format("  no interval ({})", m.ci->lower.defined() ? m.ci->upper.reason : m.ci->lower.reason);
    }
    out += fmt::format("  {:<{}}  {}{}\n", m.title, w, show(m.v), ci);
  }
  if (r.operating_points) operating_points_block(out, *r.operating_points);
  if (r.task != task_kind::regression) {
    out += "\n";
    per_class_block(out, r);
    caret_block(out, r);
  }
  for (const auto& n : r.notes) out += fmt::format("note: {}\n", n);
  return out;
}

}  // namespace assay
