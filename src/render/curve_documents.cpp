// assay curve: the six kinds of curve as whole documents (CSV, JSON and the chart's data), from the
// curves the kernels return; see curve_writers.hpp.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "curve_top_label.hpp"
#include "operating_json.hpp"
#include "assay/curves/accumulate.hpp"
#include "assay/curves/roc.hpp"
#include "assay/error.hpp"
#include "curve_writers.hpp"

namespace assay::curves::detail {

json header(const loaded& d, const char* kind) {
  json j;
  j["kind"] = kind;
  j["source"] = d.source;
  j["label_column"] = d.label_column;
  j["classes"] = d.labels;
  if (!d.multiclass) j["positive"] = d.positive;
  else j["one_vs_rest"] = true;
  j["weighted"] = d.weighted;
  if (d.missing) j["missing"] = *d.missing;
  return j;
}

// ---- parts shared by the document (roc, pr) and streamed (stream_roc, stream_pr) paths ------------

json roc_header(const loaded& d) {
  json j = header(d, "roc");
  j["first_threshold"] = "the first point (0, 0) has threshold +inf, written null in JSON and inf in CSV";
  return j;
}

json pr_header(const loaded& d) {
  json j = header(d, "pr");
  j["last_point"] = "precision and recall have one more entry than thresholds: the end point (recall 0, precision 1)";
  return j;
}

// The partial AUCs a request asks for (--partial-fpr, --partial-tpr), plain and McClish-standardised.
void put_partial_aucs(json& o, const score_sweep& sw, const curve_options& q) {
  if (q.partial_fpr.size() == 2) {
    const double lo = q.partial_fpr[0], hi = q.partial_fpr[1];
    o["partial_auc_fpr"] = {{"lo", lo}, {"hi", hi}};
    put(o["partial_auc_fpr"], "area", partial_auc_fpr(sw, lo, hi, false));
    put(o["partial_auc_fpr"], "mcclish", partial_auc_fpr(sw, lo, hi, true));
  }
  if (q.partial_tpr.size() == 2) {
    const double lo = q.partial_tpr[0], hi = q.partial_tpr[1];
    o["partial_auc_tpr"] = {{"lo", lo}, {"hi", hi}};
    put(o["partial_auc_tpr"], "area", partial_auc_tpr(sw, lo, hi, false));
    put(o["partial_auc_tpr"], "mcclish", partial_auc_tpr(sw, lo, hi, true));
  }
}

// The one-vs-rest and one-vs-one multiclass ROC AUCs (macro and weighted); nothing for binary input.
void put_multiclass_roc_aucs(json& j, const loaded& d) {
  if (!d.multiclass) return;
  const proba_view pv = proba_view::matrix(d.proba, d.labels.size());
  put(j, "roc_auc_ovr_macro", roc_auc_ovr(d.y_class, pv, d.weight, multiclass_average::macro));
  put(j, "roc_auc_ovr_weighted", roc_auc_ovr(d.y_class, pv, d.weight, multiclass_average::weighted));
  put(j, "roc_auc_ovo_macro", roc_auc_ovo(d.y_class, pv, d.weight, multiclass_average::macro));
  put(j, "roc_auc_ovo_weighted", roc_auc_ovo(d.y_class, pv, d.weight, multiclass_average::weighted));
}

// One model's PR summary: average precision (step and the interpolated variants), break-even point and
// prevalence P / (P + N) (NaN, written null, without cases). Returns the step AP and the prevalence.
pr_summary put_pr_summary(json& o, const score_sweep& sw) {
  const value ap = average_precision(sw);
  put(o, "average_precision", ap);
  for (auto v : {ap_variant::all_point, ap_variant::voc11, ap_variant::coco101}) {
    put(o, std::string("average_precision_") + ap_variant_name(v), average_precision(sw, v));
  }
  put(o, "break_even_point", break_even_point(sw));
  const double total = sw.positives + sw.negatives;
  const double prevalence = total > 0 ? sw.positives / total : std::nan("");
  o["prevalence"] = jnum(prevalence);
  return {ap, prevalence};
}

// ---- the kinds ----------------------------------------------------------------------------------

curve_document roc_document(const loaded& d, const curve_options& q) {
  curve_document doc;
  json j = roc_header(d);
  doc.csv = roc_csv_header;
  doc.chart = make_chart("ROC curve", "false-positive rate (1 - specificity)", "true-positive rate (recall)");
  doc.chart.lines.push_back(line("chance", {0, 1}, {0, 1}, true));
  for (const auto& m : d.models) {
    const score_sweep sw = sweep_scores("assay curve roc", m.y, m.score, d.weight);
    const roc_curve_result r = roc_curve(sw, {q.drop_intermediate, first_threshold::infinity});
    const std::string field = csv_field(m.name);
    doc.csv.reserve(doc.csv.size() + r.fpr.size() * (field.size() + 100));
    const value auc = roc_auc(sw);
    for (std::size_t k = 0; k < r.fpr.size(); ++k) {
      csv_row(doc.csv, field, {r.thresholds[k], r.fpr[k], r.tpr[k], r.tps[k], r.fps[k]});
    }
    json o;
    o["model"] = m.name;
    o["thresholds"] = jvec(r.thresholds);
    o["fpr"] = jvec(r.fpr);
    o["tpr"] = jvec(r.tpr);
    if (!r.undefined.empty()) o["curve_undefined"] = r.undefined;
    put(o, "roc_auc", auc);
    put_partial_aucs(o, sw, q);
    j["models"].push_back(o);
    doc.chart.lines.push_back(line(fmt::format("{} (AUC {})", m.name, short_value(auc)), r.fpr, r.tpr));
  }
  put_multiclass_roc_aucs(j, d);
  doc.json = finish_json(j);
  return doc;
}

curve_document pr_document(const loaded& d, const curve_options&) {
  curve_document doc;
  json j = pr_header(d);
  doc.csv = pr_csv_header;
  doc.chart = make_chart("Precision-recall curve", "recall", "precision");
  std::vector<double> prevalences;
  for (const auto& m : d.models) {
    const score_sweep sw = sweep_scores("assay curve pr", m.y, m.score, d.weight);
    const pr_curve_result r = precision_recall_curve(sw);
    const std::string field = csv_field(m.name);
    doc.csv.reserve(doc.csv.size() + r.precision.size() * (field.size() + 64));
    for (std::size_t k = 0; k < r.precision.size(); ++k) {
      csv_row(doc.csv, field, {k < r.thresholds.size() ? r.thresholds[k] : std::nan(""), r.precision[k], r.recall[k]});
    }
    json o;
    o["model"] = m.name;
    o["thresholds"] = jvec(r.thresholds);
    o["precision"] = jvec(r.precision);
    o["recall"] = jvec(r.recall);
    if (!r.undefined.empty()) o["curve_undefined"] = r.undefined;
    const auto [ap, prevalence] = put_pr_summary(o, sw);
    prevalences.push_back(prevalence);
    j["models"].push_back(o);
    doc.chart.lines.push_back(line(fmt::format("{} (AP {})", m.name, short_value(ap)), r.recall, r.precision));
  }
  if (!d.multiclass && !prevalences.empty()) {
    doc.chart.lines.push_back(line(fmt::format("prevalence {:.3f}", prevalences[0]), {0, 1}, {prevalences[0], prevalences[0]}, true));
  }
  doc.json = finish_json(j);
  return doc;
}

constexpr const char* threshold_metrics[] = {"accuracy", "error_rate", "precision", "recall", "specificity",
                                             "npv", "fpr", "fnr", "f1", "balanced_accuracy",
                                             "matthews_corrcoef", "cohen_kappa"};

curve_document threshold_document(const loaded& d, const curve_options& q) {
  curve_document doc;
  json j = header(d, "threshold");
  j["rule"] = "positive when score >= threshold; the first row (threshold +inf, null in JSON) predicts nothing positive";
  const bool fbeta_col = q.beta != 1;
  doc.csv = "model,threshold,tp,fp,fn,tn";
  for (auto name : threshold_metrics) doc.csv += fmt::format(",{}", name);
  if (fbeta_col) doc.csv += ",fbeta";
  doc.csv += "\n";
  doc.chart = make_chart("Metrics vs threshold", "threshold (positive when score >= threshold)", "value");
  doc.chart.square = false;
  double lo = inf, hi = -inf;
  metric_params params;
  params.beta = q.beta;
  for (const auto& m : d.models) {
    const score_sweep sw = m.swept ? *m.swept : sweep_scores("assay curve threshold", m.y, m.score, d.weight);
    const threshold_table t = threshold_counts(sw);
    const std::string field = csv_field(m.name);
    std::vector<std::vector<value>> cols;
    for (auto name : threshold_metrics) cols.push_back(metric_vs_threshold(t, name, params));
    if (fbeta_col) cols.push_back(metric_vs_threshold(t, "fbeta", params));
    json o;
    o["model"] = m.name;
    o["thresholds"] = jvec(t.thresholds);
    std::vector<double> tp(t.counts.size()), fp(t.counts.size()), fn(t.counts.size()), tn(t.counts.size());
    for (std::size_t k = 0; k < t.counts.size(); ++k) {
      const auto& c = t.counts[k];
      doc.csv += field;
      for (double x : {t.thresholds[k], c.tp, c.fp, c.fn, c.tn}) {
        doc.csv += ',';
        csv_cell(doc.csv, x);
      }
      for (const auto& col : cols) {
        doc.csv += ',';
        if (col[k].defined()) csv_cell(doc.csv, col[k].v);
      }
      doc.csv += '\n';
      tp[k] = c.tp, fp[k] = c.fp, fn[k] = c.fn, tn[k] = c.tn;
    }
    o["tp"] = jvec(tp), o["fp"] = jvec(fp), o["fn"] = jvec(fn), o["tn"] = jvec(tn);
    std::size_t ci = 0;
    for (auto name : threshold_metrics) o[name] = jvec(cols[ci++]);
    if (fbeta_col) o["fbeta"] = jvec(cols.back());
    json best;
    best["youden"] = detail::point_json<json>(best_youden(sw));
    best["closest_to_corner"] = detail::point_json<json>(best_closest_to_corner(sw));
    best["max_fbeta"] = detail::point_json<json>(best_fbeta(sw, q.beta));
    best["max_fbeta"]["beta"] = q.beta;
    if (q.cost) {
      const operating_point c = min_expected_cost(sw, *q.cost);
      best["min_expected_cost"] = detail::point_json<json>(c);
      best["min_expected_cost"]["costs"] = {{"fp", q.cost->fp}, {"fn", q.cost->fn}, {"tp", q.cost->tp}, {"tn", q.cost->tn}};
      if (q.cost->prior) best["min_expected_cost"]["prior"] = *q.cost->prior;
    }
    std::vector<double> neg;
    if (q.max_fpr && !d.weighted) {
      if (m.swept) neg = m.negatives;
      for (std::size_t i = 0; i < m.y.size(); ++i)
        if (m.y[i] == 0) neg.push_back(m.score[i]);
    }
    const constrained_points cp = constrained_thresholds("make_curve", sw, q, neg, d.weighted);
    detail::add_constrained_json(best, cp);
    o["best"] = best;
    j["models"].push_back(o);
    // Chart: F1 per model; with one model also precision and recall.
    std::vector<double> x(t.thresholds.begin() + 1, t.thresholds.end());
    for (double v : x) lo = std::min(lo, v), hi = std::max(hi, v);
    auto ys = [&](std::size_t col) {
      std::vector<double> y;
      for (std::size_t k = 1; k < cols[col].size(); ++k) y.push_back(cols[col][k].defined() ? cols[col][k].v : std::nan(""));
      return y;
    };
    const std::string prefix = d.models.size() > 1 ? m.name + ": " : "";
    // Column indices follow threshold_metrics: 0 accuracy, 2 precision, 3 recall, 8 f1.
    doc.chart.lines.push_back(line(prefix + "F1", x, ys(8)));
    if (d.models.size() == 1) {
      doc.chart.lines.push_back(line("precision", x, ys(2)));
      doc.chart.lines.push_back(line("recall", x, ys(3)));
      doc.chart.lines.push_back(line("accuracy", x, ys(0)));
      const operating_point bf = best_fbeta(sw, 1);
      if (bf.criterion.defined()) doc.chart.markers.push_back({bf.threshold, bf.criterion.v, fmt::format("max F1 at {:.4g}", bf.threshold)});
    }
  }
  if (lo >= 0 && hi <= 1) doc.chart.x_min = 0, doc.chart.x_max = 1;  // probabilities: the whole unit range
  else if (lo < hi) doc.chart.x_min = lo, doc.chart.x_max = hi;
  else if (lo == hi) doc.chart.x_min = lo - 0.5, doc.chart.x_max = lo + 0.5;
  doc.json = finish_json(j);
  return doc;
}

curve_document rejection_document(const loaded& d, const curve_options& q) {
  curve_document doc;
  json j = header(d, "rejection");
  doc.csv = "model,confidence,rejected,accuracy\n";
  doc.chart = make_chart("Accuracy-rejection curve", "fraction rejected", "accuracy of the accepted cases");
  std::vector<std::pair<std::string, rejection_curve_result>> curves;
  if (d.multiclass) {
    j["confidence"] = "margin between the two highest class probabilities";
    curves.emplace_back("argmax", rejection_curve_multiclass(d.y_class, proba_view::matrix(d.proba, d.labels.size()), d.weight));
  } else {
    j["confidence"] = fmt::format("|score - {}|, prediction positive when score >= {}", q.threshold, q.threshold);
    for (const auto& m : d.models) curves.emplace_back(m.name, rejection_curve(m.y, m.score, d.weight, q.threshold));
  }
  double lowest = 1;
  for (const auto& [name, r] : curves) {
    for (std::size_t k = 0; k < r.rejected.size(); ++k) {
      csv_row(doc.csv, csv_field(name), {r.confidence[k], r.rejected[k], r.accuracy[k]});
      lowest = std::min(lowest, r.accuracy[k]);
    }
    json o;
    o["model"] = name;
    o["confidence"] = jvec(r.confidence);
    o["rejected"] = jvec(r.rejected);
    o["accuracy"] = jvec(r.accuracy);
    j["models"].push_back(o);
    doc.chart.lines.push_back(line(name, r.rejected, r.accuracy));
  }
  doc.chart.y_min = std::floor(lowest * 10) / 10;
  if (doc.chart.y_min >= 1) doc.chart.y_min = 0.9;
  doc.json = finish_json(j);
  return doc;
}

curve_document cost_document(const loaded& d, const curve_options& q) {
  curve_document doc;
  json j = header(d, "cost");
  j["axes"] = "pc = pi c(FN) / (pi c(FN) + (1 - pi) c(FP)); normalised expected cost = (1 - TPR) pc + FPR (1 - pc)";
  doc.csv = "model,pc,normalized_cost\n";
  doc.chart = make_chart("Cost curve (Drummond & Holte)", "probability cost PC(+)", "normalised expected cost");
  doc.chart.lines.push_back(line("trivial classifiers", {0, 0.5, 1}, {0, 0.5, 0}, true));
  doc.chart.y_max = 0.5;
  for (const auto& m : d.models) {
    const score_sweep sw = m.swept ? *m.swept : sweep_scores("assay curve cost", m.y, m.score, d.weight);
    const cost_curve_result r = cost_curve(sw);
    for (std::size_t k = 0; k < r.envelope_pc.size(); ++k) {
      csv_row(doc.csv, csv_field(m.name), {r.envelope_pc[k], r.envelope_cost[k]});
    }
    json o;
    o["model"] = m.name;
    o["pc"] = jvec(r.envelope_pc);
    o["normalized_cost"] = jvec(r.envelope_cost);
    o["lines"] = {{"fpr", jvec(r.line_fpr)}, {"tpr", jvec(r.line_tpr)}, {"thresholds", jvec(r.line_threshold)}};
    if (!r.undefined.empty()) o["curve_undefined"] = r.undefined;
    if (q.cost) {
      o["min_expected_cost"] = detail::point_json<json>(min_expected_cost(sw, *q.cost));
      const double pi = q.cost->prior ? *q.cost->prior : sw.positives / (sw.positives + sw.negatives);
      const double den = pi * q.cost->fn + (1 - pi) * q.cost->fp;
      if (den > 0) o["min_expected_cost"]["pc"] = pi * q.cost->fn / den;
    }
    j["models"].push_back(o);
    doc.chart.lines.push_back(line(m.name, r.envelope_pc, r.envelope_cost));
  }
  doc.json = finish_json(j);
  return doc;
}

curve_document calibration_document(const loaded& d, const curve_options& q) {
  curve_document doc;
  json j = header(d, "calibration");
  j["bins"] = q.bins;
  j["strategy"] = q.strategy == bin_strategy::uniform ? "uniform" : "quantile";
  doc.csv = "model,prob_pred,prob_true,weight\n";
  doc.chart = make_chart("Reliability diagram", "mean predicted probability", "observed frequency of positives");
  doc.chart.lines.push_back(line("perfectly calibrated", {0, 1}, {0, 1}, true));
  for (const auto& m : d.models) {
    for (std::size_t i = 0; i < m.score.size(); ++i) {
      if (!(m.score[i] >= 0 && m.score[i] <= 1)) {
        throw_data(fmt::format("{}: data row {}: column '{}': {} is not a probability in [0, 1] (calibration needs "
                               "probabilities)", d.source, i + 1, m.name, m.score[i]));
      }
    }
    const reliability_result r = reliability_curve(m.y, m.score, d.weight, q.bins, q.strategy);
    for (std::size_t k = 0; k < r.prob_true.size(); ++k) {
      csv_row(doc.csv, csv_field(m.name), {r.prob_pred[k], r.prob_true[k], r.weight[k]});
    }
    json o;
    o["model"] = m.name;
    o["prob_pred"] = jvec(r.prob_pred);
    o["prob_true"] = jvec(r.prob_true);
    o["weight"] = jvec(r.weight);
    o["edges"] = jvec(r.edges);
    const value ece = expected_calibration_error(m.y, m.score, d.weight, q.bins, q.strategy);
    put(o, "expected_calibration_error", ece);
    const brier_decomposition b = brier_decompose(m.y, m.score, d.weight);
    put(o, "brier_score", b.brier);
    put(o, "brier_reliability", b.reliability);
    put(o, "brier_resolution", b.resolution);
    put(o, "brier_uncertainty", b.uncertainty);
    j["models"].push_back(o);
    plot::series s = line(fmt::format("{} (ECE {})", m.name, short_value(ece)), r.prob_pred, r.prob_true);
    s.markers = true;
    doc.chart.lines.push_back(s);
  }
  if (d.multiclass) detail::add_top_label_calibration({d.y_class, d.proba, d.weight, &d.labels}, q, j, doc.csv, doc.chart);
  doc.json = finish_json(j);
  return doc;
}

}  // namespace assay::curves::detail
