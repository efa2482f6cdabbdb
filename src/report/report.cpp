// Builds an assay::report from a prediction file; see include/assay/report/report.hpp.
#include "assay/report/report.hpp"

#include <algorithm>
#include <span>
#include <fmt/format.h>

#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/curves/summary.hpp"
#include "assay/curves/threshold.hpp"
#include "assay/error.hpp"
#include "intervals.hpp"
#include "kept_curves.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/metrics/registry.hpp"

namespace assay {

curve_sample curve_sample::thin(const std::vector<double>& x, const std::vector<double>& y) {
  curve_sample c;
  c.points = x.size();
  if (x.size() <= max_points) {
    c.x = x;
    c.y = y;
    return c;
  }
  c.x.reserve(max_points);
  c.y.reserve(max_points);
  for (std::size_t k = 0; k < max_points; ++k) {
    const std::size_t i = detail::thinned_index(k, x.size(), max_points);
    c.x.push_back(x[i]);
    c.y.push_back(y[i]);
  }
  return c;
}

const char* task_name(task_kind t) {
  switch (t) {
    case task_kind::automatic: return "auto";
    case task_kind::binary: return "binary";
    case task_kind::multiclass: return "multiclass";
    case task_kind::regression: return "regression";
  }
  return "?";
}

namespace {

void check_request(const report_request& q) {
  if (q.ci_level && !(*q.ci_level > 0 && *q.ci_level < 1)) {
    throw_usage(fmt::format("--ci: the level is {}, but must be between 0 and 1 (e.g. 0.95)", *q.ci_level));
  }
  if (q.bootstrap_replicates < 1 || q.bootstrap_replicates > 1000000) {
    throw_usage(fmt::format("--bootstrap-replicates: {} is outside [1, 1000000]", q.bootstrap_replicates));
  }
  const int sources = (q.score ? 1 : 0) + (q.pred ? 1 : 0) + (q.proba.empty() ? 0 : 1);
  if (sources == 0) throw_usage("give the predictions with --score COL, --pred COL or --proba COL...");
  if (q.score && q.pred) throw_usage("--score and --pred are alternatives: give one");
  if (q.score && !q.proba.empty()) throw_usage("--score and --proba are alternatives: give one");
  if (q.task == task_kind::regression && (q.score || !q.proba.empty() || !q.pred)) {
    throw_usage("--task regression needs --pred COL (the predicted value) and no --score or --proba");
  }
  if (q.task == task_kind::multiclass && q.score) throw_usage("--score needs a binary task, not --task multiclass");
  if (q.task == task_kind::regression && q.pos_label) throw_usage("--pos-label has no meaning for --task regression");
  if (!std::isfinite(q.threshold)) throw_usage(fmt::format("--threshold: {} is not a finite number", q.threshold));
  if (q.beta && !(*q.beta > 0 && std::isfinite(*q.beta))) {
    throw_usage(fmt::format("--beta: {} must be a finite number > 0", *q.beta));
  }
  if (q.top_k == 0) throw_usage("--top-k: 0 is not allowed: k must be >= 1");
}

void push(report& r, metric_kind kind, std::string_view name, const metric_params& params,
          const binary_counts* bc, const confusion_matrix* cm) {
  const metric_info* m = find_metric(name, kind);
  value v = kind == metric_kind::binary ? m->binary(*bc, params) : m->multiclass(*cm, params);
  r.metrics.push_back({std::string(name), std::string(m->title), std::move(v)});
}

void regression_report(report& r, const io::table& t, const report_request& q) {
  const auto& y = t.columns[0].numbers;
  const auto& yhat = t.columns[1].numbers;
  std::span<const double> w;
  if (q.weight) w = t.columns[2].numbers;
  r.task = task_kind::regression;
  for (const auto& m : metric_registry()) {
    if (m.kind != metric_kind::regression) continue;
    r.metrics.push_back({std::string(m.name), std::string(m.title), m.regression(y, yhat, w, {})});
  }
}

}  // namespace

report make_report(const report_request& request) {
  check_request(request);
  report_request q = request;  // labels below may be rewritten to their canonical form
  report r;
  r.zd = q.zd;
  const bool regression = q.task == task_kind::regression;

  // Which columns to read, in a fixed order: label, prediction (score | pred), weight, proba...
  std::vector<io::column_spec> specs;
  specs.push_back({q.label, regression ? io::column_type::number : io::column_type::label, "--label"});
  std::size_t pred_at = 0, weight_at = 0, proba_at = 0;
  if (q.score) pred_at = specs.size(), specs.push_back({*q.score, io::column_type::number, "--score"});
  if (q.pred) {
    pred_at = specs.size();
    specs.push_back({*q.pred, regression ? io::column_type::number : io::column_type::label, "--pred"});
  }
  if (q.weight) weight_at = specs.size(), specs.push_back({*q.weight, io::column_type::weight, "--weight"});
  proba_at = specs.size();
  for (const auto& p : q.proba) specs.push_back({p, io::column_type::probability, "--proba"});

  io::table t = io::read_table(q.path, specs, q.csv);
  r.source = t.source;
  r.rows = t.rows;
  r.label_column = t.columns[0].name;
  if (pred_at) r.prediction_column = t.columns[pred_at].name;
  else r.prediction_column = fmt::format("argmax of {} probability columns", q.proba.size());
  std::span<const double> w;
  if (q.weight) {
    w = t.columns[weight_at].numbers;
    r.weighted = true;
  }
  r.total_weight = 0;
  if (w.empty()) r.total_weight = static_cast<double>(t.rows);
  else for (double x : w) r.total_weight += x;
  if (r.total_weight == 0) throw_data(fmt::format("{}: every weight is 0: nothing to evaluate", r.source));

  if (regression) {
    if (q.weight) {  // regression_report expects the weight third
      std::swap(t.columns[2], t.columns[weight_at]);
    }
    regression_report(r, t, q);
    if (q.ci_level) {
      detail::report_rows rows;
      rows.w = w;
      rows.target = t.columns[0].numbers;
      rows.predicted = t.columns[1].numbers;
      detail::attach_intervals(r, q, rows);
    }
    return r;
  }

  // ---- classes ----
  {
    std::vector<std::vector<std::string>*> sets{&t.columns[0].levels};
    if (q.pred) sets.push_back(&t.columns[pred_at].levels);
    std::vector<std::string*> extra;
    for (std::size_t k = 0; k < q.proba.size(); ++k) extra.push_back(&t.columns[proba_at + k].name);
    if (q.pos_label) extra.push_back(&*q.pos_label);
    unify_numeric_labels(sets, extra);
  }
  const io::column& truth = t.columns[0];
  std::vector<std::string> names = truth.levels;
  if (q.pred) names.insert(names.end(), t.columns[pred_at].levels.begin(), t.columns[pred_at].levels.end());
  if (!q.proba.empty()) {
    // Probability columns named after classes define the class list; otherwise they follow the
    // sorted labels, and their number must match.
    std::vector<std::string> headers;
    for (std::size_t k = 0; k < q.proba.size(); ++k) headers.push_back(t.columns[proba_at + k].name);
    bool by_name = std::all_of(truth.levels.begin(), truth.levels.end(), [&](const std::string& l) {
      return std::find(headers.begin(), headers.end(), l) != headers.end();
    });
    if (by_name) names.insert(names.end(), headers.begin(), headers.end());
  }
  if (q.pos_label) names.push_back(*q.pos_label);  // a positive class may be absent from the data
  r.labels = sort_labels(names);
  if (q.pos_label && std::find(truth.levels.begin(), truth.levels.end(), *q.pos_label) == truth.levels.end() &&
      !(q.pred && std::find(t.columns[pred_at].levels.begin(), t.columns[pred_at].levels.end(), *q.pos_label) !=
                      t.columns[pred_at].levels.end()) &&
      truth.levels.size() >= 2) {
    throw_usage(fmt::format("--pos-label: class \"{}\" not found in column '{}' (classes: {})", *q.pos_label,
                            truth.name, join_labels(sort_labels(truth.levels))));
  }

  const bool binary_scores = q.score.has_value();
  if (binary_scores || q.task == task_kind::binary) {
    if (r.labels.size() > 2) {
      const std::string what = q.pred ? "columns '" + truth.name + "' and '" + t.columns[pred_at].name + "' have"
                                      : "column '" + truth.name + "' has";
      const char* fix = binary_scores ? "--score makes a binary task (use --pred or --proba for more than 2 classes)"
                                      : "--task binary allows at most 2 (use --task multiclass)";
      throw_usage(fmt::format("{}: {} {} classes ({}), but {}", r.source, what, r.labels.size(),
                              join_labels(r.labels), fix));
    }
  }
  if (r.labels.size() <= 2 && q.task != task_kind::multiclass) {
    if (!q.pos_label && !default_positive(r.labels)) {
      throw_usage(fmt::format("{}: cannot tell which class is positive among {}: name it with --pos-label{}", r.source,
                              join_labels(r.labels), binary_scores ? "" : " (or use --task multiclass)"));
    }
    const auto pos = std::optional<std::string>(require_positive(r.labels, q.pos_label, r.source));
    if (r.labels.size() == 1) {  // one class present: add the other so both rates have a row
      double x;
      const bool numeric_one = labels_are_numeric(r.labels) && io::parse_double(*pos, x) && x == 1;
      std::string other = (*pos == r.labels[0]) ? (numeric_one ? "0" : "not " + *pos) : *pos;
      r.labels.push_back(other);
      r.labels = sort_labels(r.labels);
    }
    r.positive = static_cast<std::size_t>(std::find(r.labels.begin(), r.labels.end(), *pos) - r.labels.begin());
  }
  r.task = r.positive ? task_kind::binary : task_kind::multiclass;
  const std::size_t K = r.labels.size();

  // Class codes in the order of r.labels; the column's own codes when they already are (no copy).
  std::vector<std::int32_t> y_recoded;
  std::span<const std::int32_t> y = truth.codes;
  const bool same_order = truth.levels.size() <= r.labels.size() &&
                          std::equal(truth.levels.begin(), truth.levels.end(), r.labels.begin());
  if (!same_order) {
    y_recoded = recode(truth.codes, truth.levels, r.labels);
    y = y_recoded;
  }
  std::vector<std::int32_t> yhat;
  std::vector<double> proba;  // n x K, class order of r.labels
  if (!q.proba.empty()) {
    std::vector<std::string> headers;
    for (std::size_t k = 0; k < q.proba.size(); ++k) headers.push_back(t.columns[proba_at + k].name);
    std::vector<std::size_t> col_of(K, static_cast<std::size_t>(-1));
    bool by_name = true;
    for (std::size_t c = 0; c < K; ++c) {
      auto it = std::find(headers.begin(), headers.end(), r.labels[c]);
      if (it == headers.end()) by_name = false;
      else col_of[c] = static_cast<std::size_t>(it - headers.begin());
    }
    if (!by_name) {
      if (q.proba.size() != K) {
        throw_usage(fmt::format("--proba: {} probability columns for {} classes ({}); give one per class, in sorted "
                                "class order or named after the classes", q.proba.size(), K, join_labels(r.labels)));
      }
      for (std::size_t c = 0; c < K; ++c) col_of[c] = c;
    } else if (q.proba.size() != K) {
      throw_usage(fmt::format("--proba: {} probability columns for {} classes ({})", q.proba.size(), K,
                              join_labels(r.labels)));
    }
    proba.resize(t.rows * K);
    for (std::size_t c = 0; c < K; ++c) {
      const auto& col = t.columns[proba_at + col_of[c]].numbers;
      for (std::size_t i = 0; i < t.rows; ++i) proba[i * K + c] = col[i];
    }
  }
  if (q.pred) {
    yhat = recode(t.columns[pred_at].codes, t.columns[pred_at].levels, r.labels);
  } else if (binary_scores) {
    const auto& s = t.columns[pred_at].numbers;
    const auto pos = static_cast<std::int32_t>(*r.positive), neg = 1 - pos;
    yhat.resize(t.rows);
    for (std::size_t i = 0; i < t.rows; ++i) yhat[i] = s[i] >= q.threshold ? pos : neg;
    r.threshold = q.threshold;
  } else {  // argmax of the probabilities; the first of equal maxima (numpy's argmax)
    yhat.resize(t.rows);
    for (std::size_t i = 0; i < t.rows; ++i) {
      const double* row = &proba[i * K];
      yhat[i] = static_cast<std::int32_t>(std::max_element(row, row + K) - row);
    }
  }

  r.cm = confusion_matrix::from_labels(y, yhat, K, w);
  r.per_class = per_class(r.cm);
  r.micro = micro_average(r.cm);
  r.macro = macro_average(r.cm, q.zd);
  r.weighted_avg = weighted_average(r.cm, q.zd);

  metric_params params;
  params.zd = q.zd;
  if (r.task == task_kind::binary) {
    const binary_counts bc = binary_counts::one_vs_rest(r.cm, *r.positive);
    for (auto name : {"tp", "fp", "fn", "tn", "accuracy", "error_rate", "precision", "recall", "specificity", "npv",
                      "fpr", "fnr", "f1"}) {
      push(r, metric_kind::binary, name, params, &bc, nullptr);
    }
    if (q.beta) {
      params.beta = *q.beta;
      push(r, metric_kind::binary, "fbeta", params, &bc, nullptr);
      r.metrics.back().title = fmt::format("F-beta (beta = {})", *q.beta);
    }
    for (auto name : {"balanced_accuracy", "matthews_corrcoef", "cohen_kappa", "prevalence"}) {
      push(r, metric_kind::binary, name, params, &bc, nullptr);
    }
  } else {
    for (auto name : {"accuracy", "error_rate", "balanced_accuracy", "matthews_corrcoef", "cohen_kappa"}) {
      push(r, metric_kind::multiclass, name, params, nullptr, &r.cm);
    }
  }

  // Probabilistic metrics, from --proba or from a score column that holds probabilities.
  std::optional<proba_view> kept_proba;
  std::vector<std::int32_t> kept_y01;
  std::span<const std::int32_t> kept_ys;
  std::span<const double> s;
  if (binary_scores) s = t.columns[pred_at].numbers;
  bool scores_are_probabilities =
      binary_scores && std::all_of(s.begin(), s.end(), [](double x) { return x >= 0 && x <= 1; });
  if (!proba.empty() || binary_scores) {
    proba_view pv = !proba.empty() ? proba_view::matrix(proba, K) : proba_view::scores(s);
    std::vector<std::int32_t> y01;
    std::span<const std::int32_t> ys = y;
    if (binary_scores && *r.positive == 0) {  // the score is P(labels[0]); make it class 1 of the view
      y01.resize(y.size());
      for (std::size_t i = 0; i < y.size(); ++i) y01[i] = 1 - y[i];
      ys = y01;
    }
    if (q.ci_level) {  // the views die with this block: keep what the intervals need
      kept_proba = pv;
      if (!y01.empty()) kept_y01 = std::move(y01), ys = kept_y01;
      kept_ys = ys;
    }
    for (auto name : {"log_loss", "brier_score_loss"}) {
      const metric_info* m = find_metric(name, metric_kind::probabilistic);
      value v = (binary_scores && !scores_are_probabilities)
                    ? value::undefined("the scores are not probabilities (some are outside [0, 1])")
                    : m->probabilistic(ys, pv, w, params);
      r.metrics.push_back({std::string(name), std::string(m->title), std::move(v)});
    }
    if (q.keep_curves && !proba.empty()) {  // needs rows that sum to 1, as the multiclass AUCs
      if (const auto bad = curves::first_row_not_summing_to_one(pv)) {
        r.notes.push_back(fmt::format("no reliability diagram: the --proba columns of data row {} sum to {}, not 1 "
                                      "(rule: |sum - 1| <= 1e-8 + 1e-5 |sum|)", bad->first + 1, bad->second));
      } else {
        r.calibration = detail::keep_top_label_calibration(y, pv, w);
      }
    }
    if (!proba.empty() && K > 2) {
      params.k = q.top_k;
      const metric_info* m = find_metric("top_k_accuracy", metric_kind::probabilistic);
      r.metrics.push_back(
          {"top_k_accuracy", fmt::format("top-{} accuracy", q.top_k), m->probabilistic(ys, pv, w, params)});
    }
  }

  // Ranking metrics and the best thresholds of a binary score (include/assay/curves/): one sweep of the
  // sorted scores serves them all.
  if (binary_scores && w.empty() && !q.ci_level && !q.keep_curves) {
    // Lean path for the common case: nothing later needs the rows in file order, so the score column
    // is sorted in place and summarised in one streaming pass (no per-threshold arrays): the report's
    // memory stays within twice its columns however many distinct scores there are.
    std::span<std::int32_t> labels01 = same_order ? std::span<std::int32_t>(t.columns[0].codes) : y_recoded;
    for (auto& v : labels01) v = v == static_cast<std::int32_t>(*r.positive) ? 1 : 0;
    const curves::ranking_summary sum = curves::summarize_in_place(labels01, t.columns[pred_at].numbers);
    r.metrics.push_back({"roc_auc", "ROC AUC", sum.roc_auc});
    r.metrics.push_back({"average_precision", "average precision", sum.average_precision});
    r.metrics.push_back({"best_threshold_youden", "best threshold, Youden's J", sum.best_threshold_youden});
    r.metrics.push_back({"best_threshold_f1", "best threshold, max F1", sum.best_threshold_f1});
  } else if (binary_scores) {
    std::vector<std::int32_t> ypos(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) ypos[i] = y[i] == static_cast<std::int32_t>(*r.positive);
    const curves::score_sweep sw = curves::sweep_scores("assay report", ypos, s, w);
    r.metrics.push_back({"roc_auc", "ROC AUC", curves::roc_auc(sw)});
    r.metrics.push_back({"average_precision", "average precision", curves::average_precision(sw)});
    auto threshold_of = [](const curves::operating_point& p) {
      return p.criterion.defined() ? value(p.threshold) : p.criterion;
    };
    r.metrics.push_back({"best_threshold_youden", "best threshold, Youden's J", threshold_of(curves::best_youden(sw))});
    r.metrics.push_back({"best_threshold_f1", "best threshold, max F1", threshold_of(curves::best_fbeta(sw, 1))});
    if (q.keep_curves) {
      // With --ci, pointwise bands at fixed thresholds by the report's proportion method (Wilson by
      // default; docs/definitions/intervals.md): TPR = TP / P on the ROC curve, whose point i > 0 is
      // sweep entry i - 1 (point 0 the origin); precision = TP / (TP + FP) on the PR curve, whose point
      // j < m is sweep entry m - 1 - j (point m the closing (0, 1), without counts).
      const auto band_method = detail::proportion_method_of(q.ci);
      const auto roc = curves::roc_curve(sw);
      if (roc.undefined.empty()) {
        r.roc = curve_sample::thin(roc.fpr, roc.tpr);
        if (q.ci_level)
          detail::set_proportion_band(*r.roc, [&](std::size_t i) { return std::pair{roc.tps[i], sw.positives}; },
                                      *q.ci_level, band_method);
      }
      const auto pr = curves::precision_recall_curve(sw);
      if (pr.undefined.empty()) {
        r.pr = curve_sample::thin(pr.recall, pr.precision);
        if (q.ci_level)
          detail::set_proportion_band(
              *r.pr,
              [&](std::size_t j) {
                if (j >= sw.size()) return std::pair{0.0, 0.0};
                const std::size_t k = sw.size() - 1 - j;
                return std::pair{sw.tp[k], sw.tp[k] + sw.fp[k]};
              },
              *q.ci_level, band_method);
      }
      r.thresholds = detail::keep_threshold_sweep(sw);
      if (scores_are_probabilities) r.calibration = detail::keep_calibration(ypos, s, w);
    }
  }

  // Say how undefined per-class values entered the averages.
  const char* how = q.zd == zero_division::zero ? "counted as 0 (as scikit-learn)"
                    : q.zd == zero_division::one ? "counted as 1"
                                                 : "left out";
  std::size_t never_predicted = 0, never_actual = 0, always_actual = 0;
  for (const auto& c : r.per_class) {
    never_predicted += c.precision.defined() ? 0 : 1;
    never_actual += c.recall.defined() ? 0 : 1;
    always_actual += c.fp_rate.defined() ? 0 : 1;
  }
  if (never_predicted > 0) {
    r.notes.push_back(fmt::format("{} class{} never predicted: precision undefined, {} in the macro and weighted "
                                  "averages", never_predicted, never_predicted == 1 ? " is" : "es are", how));
  }
  if (never_actual > 0) {
    r.notes.push_back(fmt::format("{} class{} no actual cases: recall (TP rate) undefined, {} in the macro average",
                                  never_actual, never_actual == 1 ? " has" : "es have", how));
  }
  if (always_actual > 0) {
    const char* is = always_actual == 1 ? " is the actual class of" : "es are the actual classes of";
    r.notes.push_back(fmt::format("{} class{} every case: FP rate undefined, {} in the macro and weighted averages",
                                  always_actual, is, how));
  }
  if (q.ci_level) {
    detail::report_rows rows;
    rows.y = y;
    rows.yhat = yhat;
    rows.w = w;
    rows.score = s;
    if (kept_proba) {
      rows.proba = &*kept_proba;
      rows.y_proba = kept_ys;
    }
    detail::attach_intervals(r, q, rows);
  }
  return r;
}

}  // namespace assay
