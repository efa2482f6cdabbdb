// Builds an assay::report from a prediction file; see include/assay/report/report.hpp.
#include "assay/report/report.hpp"

#include <algorithm>
#include <span>
#include <fmt/format.h>

#include "assay/curves/multiclass.hpp"
#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/curves/summary.hpp"
#include "assay/curves/threshold.hpp"
#include "assay/error.hpp"
#include "by_class.hpp"
#include "intervals.hpp"
#include "kept_curves.hpp"
#include "assemble.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/label_tally.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/metrics/registry.hpp"
#include "assay/data/predictions.hpp"
#include "assay/detail/buffer.hpp"
#include "assay/detail/parallel.hpp"

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

namespace {

// The request's checks, named by its fields (assay::param: the CLI shows them as its options).
void check_request(const report_request& q) {
  const std::string who = in_function("make_report");
  if (q.ci_level && !(*q.ci_level > 0 && *q.ci_level < 1)) {
    throw_usage(fmt::format("{}{}: the level is {}, but must be between 0 and 1 (e.g. 0.95)", who, param("ci_level"),
                            *q.ci_level));
  }
  if (q.bootstrap_replicates < 1 || q.bootstrap_replicates > 1000000) {
    throw_usage(fmt::format("{}{}: {} is outside [1, 1000000]", who, param("bootstrap_replicates"),
                            q.bootstrap_replicates));
  }
  const int sources = (q.score ? 1 : 0) + (q.pred ? 1 : 0) + (q.proba.empty() ? 0 : 1);
  if (sources == 0) {
    throw_usage(fmt::format("{}give the predictions with {} COL, {} COL or {} COL...", who, param("score"),
                            param("pred"), param("proba")));
  }
  if (q.score && q.pred) throw_usage(fmt::format("{}{} and {} are alternatives: give one", who, param("score"), param("pred")));
  if (q.score && !q.proba.empty()) {
    throw_usage(fmt::format("{}{} and {} are alternatives: give one", who, param("score"), param("proba")));
  }
  if (q.task == task_kind::regression && (q.score || !q.proba.empty() || !q.pred)) {
    throw_usage(fmt::format("{}{} regression needs {} COL (the predicted value) and no {} or {}", who, param("task"),
                            param("pred"), param("score"), param("proba")));
  }
  if (q.task == task_kind::multiclass && q.score) {
    throw_usage(fmt::format("{}{} needs a binary task, not {} multiclass", who, param("score"), param("task")));
  }
  if (q.task == task_kind::regression && q.pos_label) {
    throw_usage(fmt::format("{}{} has no meaning for {} regression", who, param("pos_label"), param("task")));
  }
  if (!std::isfinite(q.threshold)) {
    throw_usage(fmt::format("{}{}: {} is not a finite number", who, param("threshold"), q.threshold));
  }
  if (q.beta && !(*q.beta > 0 && std::isfinite(*q.beta))) {
    throw_usage(fmt::format("{}{}: {} must be a finite number > 0", who, param("beta"), *q.beta));
  }
  if (q.top_k == 0) throw_usage(fmt::format("{}{}: 0 is not allowed: k must be >= 1", who, param("top_k")));
}

void push(report& r, metric_kind kind, std::string_view name, const metric_params& params,
          const binary_counts* bc, const confusion_matrix* cm) {
  const metric_info* m = find_metric(name, kind);
  value v = kind == metric_kind::binary ? m->binary(*bc, params) : m->multiclass(*cm, params);
  r.metrics.push_back({std::string(name), std::string(m->title), std::move(v)});
}

// Whether the options ask for the row `name` (every row when they name none).
bool wanted(const evaluate_options& q, std::string_view name) {
  return q.metrics.empty() || std::find(q.metrics.begin(), q.metrics.end(), name) != q.metrics.end();
}

// Whether a part of the report that serves only rows satisfying `is` is computed: always when the
// options name no rows, or ask for intervals (the Poisson bootstrap passes the loss means and the
// ranking areas together, in an order that depends on which are present, so leaving a part out
// could change the last bit of another row's interval), else when a named row needs it.
template <class Pred>
bool part_wanted(const evaluate_options& q, Pred is) {
  return q.metrics.empty() || q.ci_level ||
         std::any_of(q.metrics.begin(), q.metrics.end(), [&](const std::string& n) { return is(n); });
}

// Keeps only the rows the options ask for (all when they name none).
void keep_wanted_rows(report& r, const evaluate_options& q) {
  if (q.metrics.empty()) return;
  std::erase_if(r.metrics, [&](const metric_result& m) { return !wanted(q, m.name); });
}

void regression_report(report& r, const prediction_table& t, const evaluate_options& q) {
  const auto& y = t.target;
  const auto& yhat = t.values[0].values;
  r.task = task_kind::regression;
  for (const auto& m : metric_registry()) {
    if (m.kind != metric_kind::regression || !part_wanted(q, [&](const std::string& n) { return n == m.name; })) continue;
    r.metrics.push_back({std::string(m.name), std::string(m.title), m.regression(y, yhat, t.weight, {})});
  }
}

// The option checks of evaluate(), named by parameter (make_report checked the request first, with
// the command line's names).
void check_options(const evaluate_options& o) {
  for (const std::string& name : o.metrics) {
    const bool caret = name == "no_information_rate" || name == "accuracy_p_value" || name == "mcnemar_p_value";
    if (!caret && find_report_metric(name, task_kind::binary) == nullptr &&
        find_report_metric(name, task_kind::multiclass) == nullptr &&
        find_report_metric(name, task_kind::regression) == nullptr) {
      throw_usage(fmt::format("evaluate: metrics names '{}', which is not a row of any report", name));
    }
  }
  if (!std::isfinite(o.threshold)) {
    throw_usage(fmt::format("evaluate: threshold is {}; it must be a finite number", o.threshold));
  }
  if (o.beta && !(*o.beta > 0 && std::isfinite(*o.beta))) {
    throw_usage(fmt::format("evaluate: beta is {}; it must be a finite number > 0", *o.beta));
  }
  if (o.top_k == 0) throw_usage("evaluate: top_k is 0; it must be >= 1");
  if (o.ci_level && !(*o.ci_level > 0 && *o.ci_level < 1)) {
    throw_usage(fmt::format("evaluate: ci_level is {}; it must be between 0 and 1 (e.g. 0.95)", *o.ci_level));
  }
  if (o.replicates < 1 || o.replicates > 1000000) {
    throw_usage(fmt::format("evaluate: replicates is {}; it must be in [1, 1000000]", o.replicates));
  }
  curves::check_constraints("evaluate", o.constraints);
}

}  // namespace


namespace detail {

void check_constraints_apply(const evaluate_options& q, bool binary_score, const char* what) {
  curves::check_constraints("evaluate", q.constraints);
  if (q.constraints.any() && !binary_score) {
    const auto& c = q.constraints;
    const char* name = c.max_fpr ? "max_fpr" : c.min_tpr ? "min_tpr" : c.min_precision ? "min_precision" : "min_recall";
    throw_usage(fmt::format("{}{}: operating points under a constraint need a binary score; the predictions are {}",
                            in_function("evaluate"), param(name), what));
  }
}

void add_confusion_metrics(report& r, const evaluate_options& q, const std::string& not_counts) {
  r.per_class = per_class(r.cm);
  r.micro = micro_average(r.cm);
  r.macro = macro_average(r.cm, q.zero_division);
  r.weighted_avg = weighted_average(r.cm, q.zero_division);
  r.by_class = class_details(r.cm, "hard predictions give no ranking: ROC and PR areas need scores or "
                                   "class probabilities");
  set_ranking_averages(r);
  metric_params params;
  params.zd = q.zero_division;
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
  insert_caret_overall(r, not_counts);
}

void add_undefined_notes(report& r, const evaluate_options& q) {
  const char* how = q.zero_division == zero_division::zero ? "counted as 0 (as scikit-learn)"
                    : q.zero_division == zero_division::one ? "counted as 1"
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
}

}  // namespace detail

namespace {

// A table evaluate() can read: one model, columns of `rows` entries (a table may be filled by hand).
void check_table(const prediction_table& t) {
  const std::size_t models = t.scores.size() + t.predictions.size() + t.values.size() + (t.proba.empty() ? 0 : 1);
  if (models != 1) {
    throw_usage(fmt::format("evaluate: the table has {} prediction columns; evaluate takes exactly one (compare "
                            "several models with stats::compare_predictions)", models));
  }
  if (t.rows == 0) throw_usage("evaluate: the table has no rows; there is nothing to evaluate");
  auto check = [&](const char* what, std::size_t n, std::size_t want) {
    if (n != want) throw_usage(fmt::format("evaluate: {} has {} entries, but the table has {}", what, n, want));
  };
  if (!t.weight.empty()) check("weight", t.weight.size(), t.rows);
  if (t.task == task_kind::regression) {
    check("target", t.target.size(), t.rows);
    if (t.values.empty()) throw_usage("evaluate: a regression table needs predicted values");
    check("values", t.values[0].values.size(), t.rows);
    return;
  }
  if (t.task == task_kind::automatic) throw_usage("evaluate: the table's task is automatic; build it with a builder");
  const std::size_t K = t.classes.size();
  if (K == 0) throw_usage("evaluate: the table has no classes");
  if ((t.task == task_kind::binary) != (t.positive.has_value() && K == 2 && *t.positive < 2)) {
    throw_usage("evaluate: a binary table needs two classes and a positive class, a multiclass table no positive class");
  }
  if (!t.values.empty()) throw_usage("evaluate: predicted values need a regression table");
  check("y", t.y.size(), t.rows);
  // A branch-free scan first (it vectorises); the loop names the first index out of range.
  auto in_range = [K](std::span<const std::int32_t> c) {
    bool ok = true;
    for (const std::int32_t v : c) ok &= static_cast<std::uint32_t>(v) < K;  // a negative v wraps above K
    return ok;
  };
  if (!in_range(t.y)) {
    for (std::size_t i = 0; i < t.rows; ++i) {
      if (t.y[i] < 0 || static_cast<std::size_t>(t.y[i]) >= K) {
        throw_usage(fmt::format("evaluate: y[{}] is {}; class indices must be in [0, {})", i, t.y[i], K));
      }
    }
  }
  if (!t.scores.empty()) {
    if (t.task != task_kind::binary) throw_usage("evaluate: scores need a binary table");
    check("scores", t.scores[0].values.size(), t.rows);
  }
  if (!t.predictions.empty()) {
    const auto& c = t.predictions[0].codes;
    check("predictions", c.size(), t.rows);
    for (std::size_t i = 0, n = in_range(c) ? 0 : c.size(); i < n; ++i) {
      if (c[i] < 0 || static_cast<std::size_t>(c[i]) >= K) {
        throw_usage(fmt::format("evaluate: predictions[{}] is {}, not one of the table's {} classes (a class the "
                                "true labels lack must be a class of the table: class_set::truth_and_predictions)",
                                i, c[i], K));
      }
    }
  }
  if (!t.proba.empty()) check("proba", t.proba.size(), t.rows * K);
}

// The predicted classes of binary scores, out[i] = pos when s[i] >= threshold else neg, and whether
// every score lies in [0, 1] (then they are read as probabilities), in one pass; two fixed halves on
// two threads from 2^20 rows.
bool predict_at_threshold(std::span<const double> s, double threshold, std::int32_t pos, std::int32_t neg,
                          std::span<std::int32_t> out) {
  auto part = [&](std::size_t b, std::size_t e) {
    bool unit = true;
    for (std::size_t i = b; i < e; ++i) {
      out[i] = s[i] >= threshold ? pos : neg;
      unit &= (s[i] >= 0) & (s[i] <= 1);
    }
    return unit;
  };
  const std::size_t n = s.size();
  if (n < (std::size_t{1} << 20)) return part(0, n);
  bool first = true, second = true;
  assay::detail::run_both([&] { first = part(0, n / 2); }, [&] { second = part(n / 2, n); });
  return first && second;
}

// The predicted classes of a classification table: its column of predictions, the scores at the
// threshold, or the argmax of the class probabilities; or, when nothing later reads them, none, the
// matrix being counted at the threshold directly.
struct predicted_classes {
  // Made here: uninitialised memory (every element is written), not a vector's zero fill, a
  // single-threaded pass over 4 bytes a row that the pass below overwrites.
  assay::detail::buffer_ptr<std::int32_t> own;
  std::span<const std::int32_t> yhat;
  std::optional<bool> scores_in_unit;  // every score in [0, 1] (binary scores), when already known
  bool counted = false;                // r.cm counted already (binary scores, no array of predictions)
};

// Predicts the classes of `t` and counts the report's confusion matrix.
predicted_classes count_predictions(report& r, const prediction_table& t, const evaluate_options& q) {
  predicted_classes p;
  const std::size_t K = r.labels.size();
  const std::span<const std::int32_t> y = t.y;
  const bool binary_scores = !t.scores.empty();
  std::span<const double> s;
  if (binary_scores) s = t.scores[0].values;
  if (!t.predictions.empty()) {
    p.yhat = t.predictions[0].codes;
  } else if (binary_scores && t.weight.empty() && !q.ci_level) {
    // Nothing later reads the predicted classes (the intervals would): the matrix is counted at the
    // threshold directly, without an array of 4 bytes a row to allocate, fault in and write.
    bool unit = true;
    label_tally at = tally_at_threshold(y, s, q.threshold, static_cast<std::int32_t>(*r.positive), unit, "evaluate");
    r.cm = confusion_matrix::from_cells(K, std::move(at.cells));
    p.counted = true;
    p.scores_in_unit = unit;
    r.threshold = q.threshold;
  } else if (binary_scores) {
    const auto pos = static_cast<std::int32_t>(*r.positive), neg = 1 - pos;
    p.own = assay::detail::make_buffer<std::int32_t>(t.rows);
    p.scores_in_unit = predict_at_threshold(s, q.threshold, pos, neg, {p.own.get(), t.rows});
    p.yhat = {p.own.get(), t.rows};
    r.threshold = q.threshold;
  } else {  // argmax of the probabilities; the first of equal maxima (numpy's argmax)
    p.own = assay::detail::make_buffer<std::int32_t>(t.rows);
    for (std::size_t i = 0; i < t.rows; ++i) {
      const double* row = &t.proba[i * K];
      p.own[i] = static_cast<std::int32_t>(std::max_element(row, row + K) - row);
    }
    p.yhat = {p.own.get(), t.rows};
  }
  if (!p.counted) r.cm = confusion_matrix::from_labels(y, p.yhat, K, t.weight);
  return p;
}

// What the intervals read of the probabilities once their view is gone: the view, and the class of
// each row as the view counts them.
struct kept_probabilities {
  std::optional<proba_view> proba;
  std::vector<std::int32_t> y01;
  std::span<const std::int32_t> ys;
};

// scikit-learn's roc_auc_score(multi_class='ovr'|'ovo', average='macro'|'weighted') of class
// probabilities, which needs rows that sum to 1.
void add_multiclass_aucs(report& r, const prediction_table& t, const proba_view& pv) {
  const auto& bad = t.proba_row_off;
  const std::string off = bad ? fmt::format("the probability columns of data row {} sum to {}, not 1 (rule: "
                                            "|sum - 1| <= 1e-8 + 1e-5 |sum|)", bad->first + 1, bad->second)
                              : std::string();
  for (const metric_info& m : multiclass_auc_rows()) {
    value v = bad ? value::undefined(off) : m.probabilistic(t.y, pv, t.weight, {});
    r.metrics.push_back({std::string(m.name), std::string(m.title), std::move(v)});
  }
}

// The probabilistic metrics, from class probabilities or from a score column that holds
// probabilities: log loss and Brier score, top-k accuracy and the multiclass AUCs, the per-class
// areas and the reliability diagram. Returns what the intervals need.
kept_probabilities add_probabilistic_metrics(report& r, const prediction_table& t, const evaluate_options& q,
                                             bool scores_are_probabilities) {
  kept_probabilities kept;
  const std::size_t K = r.labels.size();
  const bool binary_scores = !t.scores.empty(), has_proba = !t.proba.empty();
  const std::span<const std::int32_t> y = t.y;
  const std::span<const double> w = t.weight;
  const proba_view pv = has_proba ? proba_view::matrix(t.proba, K) : proba_view::scores(t.scores[0].values);
  std::vector<std::int32_t> y01;
  std::span<const std::int32_t> ys = y;
  if (binary_scores && *r.positive == 0) {  // the score is P(labels[0]); make it class 1 of the view
    y01.resize(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) y01[i] = 1 - y[i];
    ys = y01;
  }
  if (q.ci_level) {  // the views die with this call: keep what the intervals need
    kept.proba = pv;
    if (!y01.empty()) kept.y01 = std::move(y01), ys = kept.y01;
    kept.ys = ys;
  }
  {  // the registry's log_loss and brier_score_loss, computed in one pass over the cases
    const bool defined = !binary_scores || scores_are_probabilities;
    std::pair<value, value> both;
    if (defined) both = log_loss_and_brier_score(ys, pv, w);
    const std::pair<const char*, value*> losses[] = {{"log_loss", &both.first}, {"brier_score_loss", &both.second}};
    for (const auto& [name, v] : losses) {
      const metric_info* m = find_metric(name, metric_kind::probabilistic);
      r.metrics.push_back({std::string(name), std::string(m->title),
                           defined ? std::move(*v)
                                   : value::undefined("the scores are not probabilities (some are outside [0, 1])")});
    }
  }
  if (q.keep_curves && has_proba) {  // needs rows that sum to 1, as the multiclass AUCs
    if (const auto& bad = t.proba_row_off) {
      r.notes.push_back(fmt::format("no reliability diagram: the class probabilities of data row {} sum to {}, not 1 "
                                    "(rule: |sum - 1| <= 1e-8 + 1e-5 |sum|)", bad->first + 1, bad->second));
    } else {
      r.calibration = detail::keep_top_label_calibration(y, pv, w);
    }
  }
  if (has_proba && K > 2) {
    metric_params params;
    params.zd = q.zero_division;
    params.k = q.top_k;
    const metric_info* m = find_metric("top_k_accuracy", metric_kind::probabilistic);
    r.metrics.push_back({"top_k_accuracy", fmt::format("top-{} accuracy", q.top_k), m->probabilistic(ys, pv, w, params)});
    add_multiclass_aucs(r, t, pv);
  }
  if (has_proba) {  // the per-class ROC and PR areas (rows need not sum to 1)
    std::vector<std::size_t> same(K);
    for (std::size_t k = 0; k < K; ++k) same[k] = k;
    detail::set_class_areas(r, y, pv, w, same);
  }
  return kept;
}

// The ranking rows of a binary score (ROC AUC, average precision, the best thresholds) and the
// per-class areas, for the common case where nothing later needs the rows in row order: the score
// column is sorted in place (a copy when the table is not ours) and summarised in one streaming pass
// (no per-threshold arrays), so the report's memory stays within twice its columns however many
// distinct scores there are.
void add_ranking_in_place(report& r, prediction_table& t, bool own) {
  // The sort reorders the scores (a copy when the table is not ours) and only reads the labels,
  // which are copied only to flip them when class 0 is the positive one.
  const std::span<const std::int32_t> y = t.y;
  std::vector<std::int32_t> y_copy;
  std::vector<double> s_copy;
  std::span<const std::int32_t> labels01 = y;
  std::span<double> scores;
  if (own) {
    scores = t.scores[0].values;
  } else {
    s_copy.assign(t.scores[0].values.begin(), t.scores[0].values.end());
    scores = s_copy;
  }
  if (*r.positive == 0) {
    std::span<std::int32_t> flipped = t.y;
    if (!own) y_copy.assign(y.begin(), y.end()), flipped = y_copy;
    for (auto& v : flipped) v = 1 - v;
    labels01 = flipped;
  }
  // The per-class areas: the positive class's are the summary's; the other class is ranked by -score.
  const curves::class_summaries both = curves::summarize_in_place(labels01, scores);
  const curves::ranking_summary& sum = both.positive;
  const curves::ranking_areas& other = both.negative;
  r.by_class[*r.positive].roc_auc = sum.roc_auc;
  r.by_class[*r.positive].average_precision = sum.average_precision;
  r.by_class[1 - *r.positive].roc_auc = other.roc_auc;
  r.by_class[1 - *r.positive].average_precision = other.average_precision;
  detail::set_ranking_averages(r);
  for (const metric_info* m : ranking_rows()) {
    r.metrics.push_back({std::string(m->name), std::string(m->title), m->from_summary(sum)});
  }
}

// The curves of a binary score kept for the figures: ROC and PR (with intervals, pointwise bands at
// fixed thresholds by the report's proportion method, Wilson by default; docs/definitions/intervals.md),
// the threshold sweep, and the reliability diagram when the scores are probabilities.
void keep_score_curves(report& r, const evaluate_options& q, const curves::score_sweep& sw,
                       std::span<const std::int32_t> ypos, std::span<const double> s, std::span<const double> w,
                       bool scores_are_probabilities) {
  // TPR = TP / P on the ROC curve, whose point i > 0 is sweep entry i - 1 (point 0 the origin);
  // precision = TP / (TP + FP) on the PR curve, whose point j < m is sweep entry m - 1 - j (point m
  // the closing (0, 1), without counts).
  const auto band_method = detail::proportion_method_of(q.ci_method);
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

// The ranking rows of a binary score and the per-class areas from one sweep of the scores in row
// order (weights, intervals, kept curves or constraints), with the operating points under the
// constraints and the kept curves.
void add_ranking_sweep(report& r, const prediction_table& t, const evaluate_options& q, bool scores_are_probabilities) {
  const std::span<const std::int32_t> y = t.y;
  const std::span<const double> s = t.scores[0].values, w = t.weight;
  std::vector<std::int32_t> ypos(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) ypos[i] = y[i] == static_cast<std::int32_t>(*r.positive);
  const curves::score_sweep sw = curves::sweep_scores("assay report", ypos, s, w);
  const std::size_t first = r.metrics.size();
  for (const metric_info* m : ranking_rows()) {
    r.metrics.push_back({std::string(m->name), std::string(m->title), m->from_sweep(sw)});
  }
  {  // the per-class areas (ranking_rows: ROC AUC, then AP); the other class is ranked by -score (the
     // complement of the sweep)
    const curves::score_sweep other = curves::complement(sw);
    r.by_class[*r.positive].roc_auc = r.metrics[first].v;
    r.by_class[*r.positive].average_precision = r.metrics[first + 1].v;
    r.by_class[1 - *r.positive].roc_auc = curves::roc_auc(other);
    r.by_class[1 - *r.positive].average_precision = curves::average_precision(other);
    detail::set_ranking_averages(r);
  }
  if (q.constraints.any()) {
    std::vector<double> negatives;  // the umbrella threshold's order statistics (unweighted only)
    if (q.constraints.max_fpr && w.empty()) {
      for (std::size_t i = 0; i < y.size(); ++i)
        if (!ypos[i]) negatives.push_back(s[i]);
    }
    r.operating_points = curves::constrained_thresholds("evaluate", sw, q.constraints, negatives, !w.empty());
  }
  if (q.keep_curves) keep_score_curves(r, q, sw, ypos, s, w, scores_are_probabilities);
}

// The report of a regression table.
report evaluate_regression(report r, const prediction_table& t, const evaluate_options& q) {
  r.prediction_column = t.values[0].name;
  regression_report(r, t, q);
  if (q.ci_level) {
    detail::report_rows rows;
    rows.w = t.weight;
    rows.target = t.target;
    rows.predicted = t.values[0].values;
    detail::attach_intervals(r, q, rows);
  }
  keep_wanted_rows(r, q);
  return r;
}

// evaluate() on a table it may use as scratch space (`own`: the score and label columns may be
// reordered once they are no longer needed in row order).
report evaluate_table(prediction_table& t, const evaluate_options& q, bool own) {
  check_options(q);
  check_table(t);
  detail::check_constraints_apply(q, !t.scores.empty(),
                                  t.task == task_kind::regression ? "regression predictions"
                                  : !t.proba.empty()              ? "class probabilities"
                                                                  : "predicted classes");
  report r;
  r.zd = q.zero_division;
  r.source = t.source;
  r.rows = t.rows;
  r.label_column = t.label_name;
  r.weighted = t.weighted();
  r.total_weight = t.total_weight;
  if (t.task == task_kind::regression) return evaluate_regression(std::move(r), t, q);

  r.labels = t.classes;
  r.positive = t.positive;
  r.task = t.task;
  const bool binary_scores = !t.scores.empty();
  const bool has_proba = !t.proba.empty();
  if (!t.predictions.empty()) r.prediction_column = t.predictions[0].name;
  else if (binary_scores) r.prediction_column = t.scores[0].name;
  else r.prediction_column = fmt::format("argmax of {} probability columns", t.proba_names.size());

  predicted_classes predicted = count_predictions(r, t, q);
  detail::add_confusion_metrics(r, q, detail::not_counts_reason(detail::smallest_fractional_weight(t.weight)));

  std::span<const double> s;
  if (binary_scores) s = t.scores[0].values;
  const bool scores_are_probabilities =
      binary_scores && (predicted.scores_in_unit
                            ? *predicted.scores_in_unit
                            : std::all_of(s.begin(), s.end(), [](double x) { return x >= 0 && x <= 1; }));
  kept_probabilities kept;
  const bool probabilistic_wanted = q.keep_curves || part_wanted(q, [](const std::string& n) {
    const metric_info* m = find_report_metric(n, task_kind::multiclass);
    return m != nullptr && m->kind == metric_kind::probabilistic;
  });
  if ((has_proba || binary_scores) && probabilistic_wanted) {
    kept = add_probabilistic_metrics(r, t, q, scores_are_probabilities);
  }

  // Ranking metrics and the best thresholds of a binary score (include/assay/curves/): one sweep of the
  // sorted scores serves them all.
  const bool ranking_wanted = q.keep_curves || q.constraints.any() || part_wanted(q, [](const std::string& n) {
                                return std::any_of(ranking_rows().begin(), ranking_rows().end(),
                                                   [&](const metric_info* m) { return m->name == n; });
                              });
  if (binary_scores && ranking_wanted && t.weight.empty() && !q.ci_level && !q.keep_curves && !q.constraints.any()) {
    predicted.own.reset();  // not read again on this path: freed before the sort takes its buffers
    add_ranking_in_place(r, t, own);
  } else if (binary_scores && ranking_wanted) {
    add_ranking_sweep(r, t, q, scores_are_probabilities);
  }

  detail::add_undefined_notes(r, q);
  if (q.ci_level) {
    detail::report_rows rows;
    rows.y = t.y;
    rows.yhat = predicted.yhat;
    rows.w = t.weight;
    rows.score = s;
    if (kept.proba) {
      rows.proba = &*kept.proba;
      rows.y_proba = kept.ys;
    }
    detail::attach_intervals(r, q, rows);
  }
  keep_wanted_rows(r, q);
  return r;
}

}  // namespace

report evaluate(const prediction_table& table, const evaluate_options& options) {
  return evaluate_table(const_cast<prediction_table&>(table), options, false);
}

report evaluate(prediction_table&& table, const evaluate_options& options) {
  return evaluate_table(table, options, true);
}

evaluate_options options_of(const report_request& q) {
  evaluate_options o;
  o.threshold = q.threshold;
  o.beta = q.beta;
  o.top_k = q.top_k;
  o.zero_division = q.zd;
  o.ci_level = q.ci_level;
  o.ci_method = q.ci;
  o.replicates = q.bootstrap_replicates;
  o.seed = q.seed;
  o.progress = q.progress;
  o.keep_curves = q.keep_curves;
  o.constraints = q.constraints;
  return o;
}

prediction_file prediction_file_of(const report_request& request) {
  check_request(request);
  prediction_file f;
  f.path = request.path;
  f.csv = request.csv;
  f.label = request.label;
  if (request.score) f.scores = {*request.score};
  if (request.pred) f.predictions = {*request.pred};
  f.proba = request.proba;
  f.weight = request.weight;
  f.task = request.task;
  f.pos_label = request.pos_label;
  return f;
}

report make_report(const report_request& request) {
  prediction_table t = read_predictions(prediction_file_of(request));
  const std::uint64_t missing = t.missing;
  report r = evaluate(std::move(t), options_of(request));
  if (request.csv.drop_missing) r.missing = missing;
  return r;
}

}  // namespace assay
