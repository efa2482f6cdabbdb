// `assay curve`: reading, computing and rendering; see include/assay/curves/curve_report.hpp.
#include "assay/curves/curve_report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <exception>
#include <limits>
#include <optional>
#include <thread>
#include <nlohmann/json.hpp>

#include "assay/curves/accumulate.hpp"
#include "assay/curves/class_sort.hpp"
#include "assay/curves/roc.hpp"
#include "assay/data/predictions.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/labels.hpp"
#include "multiclass_curves.hpp"
#include "operating_json.hpp"

namespace assay::curves {

namespace {

using json = nlohmann::json;
constexpr double inf = std::numeric_limits<double>::infinity();

// ---- formatting helpers -------------------------------------------------------------------------

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Shortest round-trip text of a finite double (std::to_chars), appended.
void append_double(std::string& s, double x) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  s.append(buf, res.ptr);
}

// The text std::to_chars gives finite x, written at p (at most 24 characters); returns the end. Whole
// numbers below 2^53 take the integer conversion, several times faster: for them to_chars writes the
// plain digits unless they end in 5 or more zeros (then "1e+05" and the like are shorter).
char* put_double(char* p, double x) {
  if (x >= 0 && x < 9007199254740992.0) {
    const auto u = static_cast<std::uint64_t>(x);
    if (static_cast<double>(u) == x && (u % 100000 != 0 || u == 0) && !(x == 0 && std::signbit(x))) {
      return std::to_chars(p, p + 24, u).ptr;
    }
  }
  return std::to_chars(p, p + 24, x).ptr;
}

// A comma and a CSV cell at p (at most 25 characters): nothing after the comma for NaN, inf / -inf.
char* put_csv_next(char* p, double x) {
  *p++ = ',';
  if (std::isnan(x)) return p;
  if (std::isinf(x)) {
    if (x < 0) *p++ = '-';
    *p++ = 'i', *p++ = 'n', *p++ = 'f';
    return p;
  }
  return put_double(p, x);
}

// A CSV cell: empty for NaN (undefined), "inf"/"-inf", else the shortest round-trip number.
void csv_cell(std::string& s, double x) {
  if (std::isnan(x)) return;
  if (std::isinf(x)) s += x > 0 ? "inf" : "-inf";
  else append_double(s, x);
}

// One CSV row: the (escaped) model field, then the cells.
void csv_row(std::string& s, const std::string& model_field, std::initializer_list<double> cells) {
  s += model_field;
  for (double x : cells) {
    s += ',';
    csv_cell(s, x);
  }
  s += '\n';
}

// A double for JSON: non-finite numbers become null (the schema says what null means per field).
json jnum(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

// Long arrays are written straight as text (std::to_chars) instead of through nlohmann::json nodes,
// which would take ~50 bytes per number: jvec() / jstream() register a writer for the array and
// return a marker string that write_json() replaces, in the dumped document, by what the writer
// sends. One document is built at a time per thread.
thread_local std::vector<std::function<void(const text_sink&)>> array_writers;
constexpr char array_marker = '\x01';

json jstream(std::function<void(const text_sink&)> writer) {
  array_writers.push_back(std::move(writer));
  return std::string(1, array_marker) + std::to_string(array_writers.size() - 1) + array_marker;
}

// A JSON array element: the shortest round-trip number, or null when not finite.
void json_cell(std::string& s, double x) {
  if (std::isfinite(x)) {
    char buf[24];
    s.append(buf, put_double(buf, x));
  } else {
    s += "null";
  }
}

json jvec(const std::vector<double>& v) {
  std::string a;
  a.reserve(v.size() * 20 + 2);
  a += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) a += ',';
    json_cell(a, v[i]);
  }
  a += ']';
  return jstream([a = std::move(a)](const text_sink& sink) { sink(a); });
}
json jvec(const std::vector<value>& v) {
  std::vector<double> x(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) x[i] = v[i].defined() ? v[i].v : std::nan("");
  return jvec(x);
}

// Dumps `j` to `sink`, the arrays' writers in place of their markers ("\u0001<id>\u0001" once escaped).
void write_json(const json& j, const text_sink& sink) {
  const std::string text = j.dump(1);
  const std::string open = "\"\\u0001";
  std::size_t pos = 0;
  while (true) {
    const std::size_t at = text.find(open, pos);
    if (at == std::string::npos) break;
    const std::size_t id_begin = at + open.size();
    const std::size_t id_end = text.find("\\u0001\"", id_begin);
    sink(std::string_view(text).substr(pos, at - pos));
    array_writers[std::stoul(text.substr(id_begin, id_end - id_begin))](sink);
    pos = id_end + 7;
  }
  sink(std::string_view(text).substr(pos));
  sink("\n");
  array_writers.clear();
}

std::string finish_json(const json& j) {
  std::string out;
  write_json(j, [&out](std::string_view piece) { out += piece; });
  return out;
}

void put(json& o, const std::string& key, const value& v) {
  o[key] = v.defined() ? jnum(v.v) : json(nullptr);
  if (!v.defined()) o[key + "_undefined"] = v.reason;
}
plot::chart make_chart(std::string title, std::string x_label, std::string y_label) {
  plot::chart c;
  c.title = std::move(title), c.x_label = std::move(x_label), c.y_label = std::move(y_label);
  return c;
}
plot::series line(std::string name, std::vector<double> x, std::vector<double> y, bool dashed = false) {
  plot::series s;
  s.name = std::move(name), s.x = std::move(x), s.y = std::move(y), s.dashed = dashed;
  return s;
}
std::string short_value(const value& v) { return v.defined() ? fmt::format("{:.3f}", v.v) : "undefined"; }

// ---- input --------------------------------------------------------------------------------------

// One curve to draw: a model (score column) or, for --proba, one class against the rest.
struct model {
  std::string name;
  std::vector<std::int32_t> y;  // 0/1
  std::vector<double> score;
  std::optional<score_sweep> swept;  // instead of y and score: the sweep (write_curve_of_sweeps)
  std::vector<double> negatives;     // with `swept`: the negative cases' scores (threshold's umbrella)
};

struct loaded {
  std::string source, label_column;
  std::vector<std::string> labels;  // sorted classes
  std::string positive;             // binary only
  bool multiclass = false;
  std::vector<model> models;
  std::vector<std::int32_t> y_class;  // multiclass: class index per row
  std::vector<double> proba;          // multiclass: n x K, class order of `labels`
  std::vector<double> weight;         // empty = unweighted
  bool weighted = false;              // weights given (even when `weight` is not held: swept models)
  std::optional<std::uint64_t> missing;  // rows skipped for an empty cell (read with csv.drop_missing)
};

// The curves' view of a prediction table (data/predictions.hpp, where the class rules live): one
// model per score column, or per class of a probability matrix (one-vs-rest).
loaded from_table(prediction_table&& t) {
  loaded d;
  d.source = t.source;
  d.label_column = t.label_name;
  d.labels = t.classes;
  d.weight = std::move(t.weight);
  d.weighted = !d.weight.empty();
  if (t.rows == 0) throw_data(fmt::format("{}: no data rows", d.source));
  if (!t.scores.empty()) {
    const auto pos = static_cast<std::int32_t>(*t.positive);
    d.positive = t.classes[*t.positive];
    std::vector<std::int32_t> y = std::move(t.y);  // 0/1, in place: class 1 is positive unless pos is 0
    if (pos == 0) {
      for (auto& c : y) c = 1 - c;
    }
    for (std::size_t k = 0; k < t.scores.size(); ++k) {  // the last model takes y, the others copy it
      d.models.push_back({t.scores[k].name, k + 1 < t.scores.size() ? y : std::move(y), std::move(t.scores[k].values), {}, {}});
    }
    return d;
  }
  d.multiclass = true;
  if (const auto& bad = t.proba_row_off) {
    throw_data(fmt::format("{}: data row {}: the {} columns sum to {}, not 1 (rule: |sum - 1| <= 1e-8 + 1e-5 |sum|)",
                           d.source, bad->first + 1, param("proba"), bad->second));
  }
  const std::size_t K = d.labels.size();
  d.y_class = std::move(t.y);
  d.proba = std::move(t.proba);
  for (std::size_t c = 0; c < K; ++c) {
    model m{d.labels[c], std::vector<std::int32_t>(t.rows), std::vector<double>(t.rows), {}, {}};
    for (std::size_t i = 0; i < t.rows; ++i) {
      m.y[i] = d.y_class[i] == static_cast<std::int32_t>(c);
      m.score[i] = d.proba[i * K + c];
    }
    d.models.push_back(std::move(m));
  }
  return d;
}

prediction_file file_of(const curve_request& q) {
  prediction_file f;
  f.path = q.path;
  f.csv = q.csv;
  f.label = q.label;
  f.scores = q.scores;
  f.proba = q.proba;
  f.weight = q.weight;
  f.pos_label = q.pos_label;
  f.task = q.proba.empty() ? task_kind::automatic : task_kind::multiclass;  // probabilities: one-vs-rest
  return f;
}

// The table read for request `q` (read_predictions(file_of(q)), or the same columns read elsewhere).
loaded loaded_of(prediction_table&& t, const curve_request& q) {
  const std::uint64_t missing = t.missing;
  loaded d = from_table(std::move(t));
  if (q.csv.drop_missing) d.missing = missing;
  return d;
}

loaded load(const curve_request& q) {
  if (q.scores.empty() == q.proba.empty()) {
    throw_usage(q.scores.empty() ? fmt::format("{}give the predictions with {} COL... (binary) or {} COL... (multiclass)",
                                               in_function("make_curve"), param("scores"), param("proba"))
                                 : fmt::format("{}{} and {} are alternatives: give one", in_function("make_curve"),
                                               param("scores"), param("proba")));
  }
  return loaded_of(read_predictions(file_of(q)), q);
}

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

constexpr const char* roc_csv_header = "model,threshold,fpr,tpr,tps,fps\n";
constexpr const char* pr_csv_header = "model,threshold,precision,recall\n";

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
struct pr_summary {
  value ap;
  double prevalence;
};
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

curve_document roc(const loaded& d, const curve_options& q) {
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

curve_document pr(const loaded& d, const curve_options&) {
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

curve_document threshold(const loaded& d, const curve_options& q) {
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

curve_document rejection(const loaded& d, const curve_options& q) {
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

curve_document cost(const loaded& d, const curve_options& q) {
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

curve_document calibration(const loaded& d, const curve_options& q) {
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

// ---- streaming roc and pr (write_curve) --------------------------------------------------------

constexpr std::size_t flush_bytes = std::size_t{1} << 20;

// The r-th smallest (1-based, 1 <= r <= |a| + |b|) value of the union of the ascending runs a and b:
// binary search for how many of the r come from a.
double kth_smallest(std::span<const double> a, std::span<const double> b, std::size_t r) {
  std::size_t lo = r > b.size() ? r - b.size() : 0, hi = std::min(r, a.size());
  while (lo < hi) {
    const std::size_t i = lo + (hi - lo) / 2;  // i from a and r - i from b: too few from a if a[i] < b[r - i - 1]
    if (a[i] < b[r - i - 1]) lo = i + 1;
    else hi = i;
  }
  const std::size_t j = r - lo;
  if (lo == 0) return b[j - 1];
  if (j == 0) return a[lo - 1];
  return std::max(a[lo - 1], b[j - 1]);
}

struct roc_point {
  double t, tp, fp;
};

// Passes on to f the points of a stretch of a ROC curve (highest threshold first) that scikit-learn's
// drop_intermediate keeps: call it for each point, then finish(). `before` / `after` are the curve's
// points just outside the stretch; none = the stretch starts / ends the curve (an end is always kept).
template <typename F>
class roc_thinner {
 public:
  roc_thinner(std::optional<roc_point> before, F& f) : has_prev_(before.has_value()), f_(f) {
    if (before) prev_ = *before;
  }
  void operator()(double t, double tp, double fp) {
    const roc_point c{t, tp, fp};
    if (has_cur_) {
      send(&c);
      prev_ = cur_, has_prev_ = true;
    }
    cur_ = c, has_cur_ = true;
  }
  void finish(std::optional<roc_point> after) {
    if (has_cur_) send(after ? &*after : nullptr);
  }

 private:
  void send(const roc_point* next) {
    if (!has_prev_ || next == nullptr || keeps_roc_point(prev_.fp, prev_.tp, cur_.fp, cur_.tp, next->fp, next->tp)) {
      f_(cur_.t, cur_.tp, cur_.fp);
    }
  }
  roc_point prev_{}, cur_{};
  bool has_prev_ = false, has_cur_ = false;
  F& f_;
};

// The cumulative counts (TP, FP) of one binary model at each distinct threshold, walked on demand
// from the highest threshold down or from the lowest up. Unweighted: the two runs of class_sort, and
// the walk can be cut into independent pieces (every count is an exact integer, so a piece can start
// anywhere with the counts above it); weighted: the sweep.
class model_points {
 public:
  // From a sweep made elsewhere (sweep_scores on the rows): its points are the same as the runs'.
  explicit model_points(score_sweep&& sw) : weighted_(true), has_sweep_(true), sweep_(std::move(sw)) {
    P_ = sweep_.positives;
    N_ = sweep_.negatives;
  }
  model_points(std::span<const std::int32_t> y, std::vector<double>&& score, std::span<const double> weight,
               const char* caller) {
    if (weight.empty()) {
      if (y.size() != score.size()) check_binary_input(caller, y, score, {});  // names the lengths
      const std::span<const double> view(score);  // the scores are read before their storage is reused
      sorted_ = sort_by_class(y, view, std::move(score), 0, caller);  // checks the values as it reads them
      P_ = static_cast<double>(sorted_.pos().size());
      N_ = static_cast<double>(sorted_.neg().size());
    } else {
      weighted_ = true;
      sweep_ = sweep_scores(caller, y, score, weight);
      has_sweep_ = true;
      std::vector<double>().swap(score);
      P_ = sweep_.positives;
      N_ = sweep_.negatives;
    }
  }
  [[nodiscard]] double positives() const { return P_; }
  [[nodiscard]] double negatives() const { return N_; }
  [[nodiscard]] bool weighted() const { return weighted_; }

  // The sweep (built from the runs on first use when unweighted).
  const score_sweep& sweep() {
    if (!has_sweep_) {
      sweep_.positives = P_, sweep_.negatives = N_;
      walk_sorted_classes(sorted_.pos(), sorted_.neg(), [this](double t, double tp, double fp) {
        sweep_.thresholds.push_back(t);
        sweep_.tp.push_back(tp);
        sweep_.fp.push_back(fp);
      });
      has_sweep_ = true;
    }
    return sweep_;
  }

  // f(threshold, tp, fp) for every point, highest threshold first (descending) or lowest first.
  template <typename F>
  void each(bool descending, F&& f) const {
    if (weighted_) {
      const std::size_t m = sweep_.size();
      for (std::size_t i = 0; i < m; ++i) {
        const std::size_t k = descending ? i : m - 1 - i;
        f(sweep_.thresholds[k], sweep_.tp[k], sweep_.fp[k]);
      }
      return;
    }
    piece(descending, 0, sorted_.pos().size(), 0, sorted_.neg().size(), f);
  }

  // Appends fmt(out, threshold, tp, fp) for every point to text sent to `sink` in order, in pieces of
  // about flush_bytes. With `thin` (ROC, highest threshold first only), only the points kept by
  // scikit-learn's drop_intermediate rule (keeps_roc_point). Unweighted large inputs are formatted on
  // several threads, a piece each; a thinned piece is told its neighbouring points outside it.
  template <typename Fmt>
  void emit(bool descending, bool thin, const Fmt& fmt, const text_sink& sink) const {
    const std::size_t n = weighted_ ? sweep_.size() : sorted_.size();
    const unsigned threads = assay::detail::team_threads(8);  // within the thread cap (threads.hpp)
    if (weighted_ || n < (std::size_t{1} << 15) || threads < 2) {
      std::string buf;
      buf.reserve(flush_bytes + 4096);
      auto put = [&](double t, double tp, double fp) {
        fmt(buf, t, tp, fp);
        if (buf.size() >= flush_bytes) {
          sink(buf);
          buf.clear();
        }
      };
      if (thin) {
        roc_thinner<decltype(put)> keep(std::nullopt, put);
        each(true, keep);
        keep.finish(std::nullopt);
      } else {
        each(descending, put);
      }
      if (!buf.empty()) sink(buf);
      return;
    }
    // Cut points at even ranks of the merged runs; piece k holds the thresholds in (cut[k-1], cut[k]];
    // ip[k] / in[k] = how many positives / negatives score <= cut[k] (so no tie group is split).
    const auto pos = sorted_.pos(), neg = sorted_.neg();
    const std::size_t pieces = std::max<std::size_t>(2, n >> 16);
    std::vector<std::size_t> ip{0}, in{0};
    for (std::size_t k = 1; k < pieces; ++k) {
      const double cut = kth_smallest(pos, neg, n * k / pieces);
      ip.push_back(static_cast<std::size_t>(std::upper_bound(pos.begin(), pos.end(), cut) - pos.begin()));
      in.push_back(static_cast<std::size_t>(std::upper_bound(neg.begin(), neg.end(), cut) - neg.begin()));
    }
    ip.push_back(pos.size());
    in.push_back(neg.size());
    auto run = [&](std::size_t k, std::string& out) {
      out.clear();
      out.reserve((ip[k + 1] - ip[k] + in[k + 1] - in[k]) * (thin ? 16 : 64));
      auto put = [&](double t, double tp, double fp) { fmt(out, t, tp, fp); };
      if (!thin) {
        piece(descending, ip[k], ip[k + 1], in[k], in[k + 1], put);
        return;
      }
      if (ip[k] == ip[k + 1] && in[k] == in[k + 1]) return;
      // The piece's highest and lowest scores; its neighbours on the curve are the points at the
      // next distinct score above and below it.
      double hi = -inf, lo = inf;
      if (ip[k] < ip[k + 1]) hi = std::max(hi, pos[ip[k + 1] - 1]), lo = std::min(lo, pos[ip[k]]);
      if (in[k] < in[k + 1]) hi = std::max(hi, neg[in[k + 1] - 1]), lo = std::min(lo, neg[in[k]]);
      roc_thinner<decltype(put)> keep(point_above(hi), put);
      piece(true, ip[k], ip[k + 1], in[k], in[k + 1], keep);
      keep.finish(point_below(lo));
    };
    std::vector<std::string> out(threads);
    std::vector<std::exception_ptr> errors(threads);
    for (std::size_t r = 0; r < pieces; r += threads) {
      {
        std::vector<std::jthread> pool;
        for (unsigned u = 0; u < threads && r + u < pieces; ++u) {
          const std::size_t k = descending ? pieces - 1 - (r + u) : r + u;
          auto task = [&, k, u] {
            try {
              run(k, out[u]);
            } catch (...) {
              errors[u] = std::current_exception();
            }
          };
          if (u == 0) continue;
          pool.emplace_back(task);
        }
        const std::size_t k0 = descending ? pieces - 1 - r : r;
        run(k0, out[0]);
      }
      for (unsigned u = 0; u < threads && r + u < pieces; ++u) {
        if (errors[u]) std::rethrow_exception(errors[u]);
        if (!out[u].empty()) sink(out[u]);
      }
    }
  }

 private:
  // The curve's point at the next distinct score above v / below v (none past the ends); unweighted.
  std::optional<roc_point> point_above(double v) const {
    const auto pos = sorted_.pos(), neg = sorted_.neg();
    const auto a = std::upper_bound(pos.begin(), pos.end(), v), b = std::upper_bound(neg.begin(), neg.end(), v);
    if (a == pos.end() && b == neg.end()) return std::nullopt;
    return point_at(a == pos.end() ? *b : b == neg.end() ? *a : std::min(*a, *b));
  }
  std::optional<roc_point> point_below(double v) const {
    const auto pos = sorted_.pos(), neg = sorted_.neg();
    const auto a = std::lower_bound(pos.begin(), pos.end(), v), b = std::lower_bound(neg.begin(), neg.end(), v);
    if (a == pos.begin() && b == neg.begin()) return std::nullopt;
    return point_at(a == pos.begin() ? b[-1] : b == neg.begin() ? a[-1] : std::max(a[-1], b[-1]));
  }
  // Threshold t with the counts of the scores >= t.
  roc_point point_at(double t) const {
    const auto pos = sorted_.pos(), neg = sorted_.neg();
    return {t, static_cast<double>(pos.end() - std::lower_bound(pos.begin(), pos.end(), t)),
            static_cast<double>(neg.end() - std::lower_bound(neg.begin(), neg.end(), t))};
  }

  // The points whose thresholds lie in the slice pos[ip0, ip1) / neg[in0, in1) of the runs (a slice
  // never splits a tie group), with the counts of everything above it.
  template <typename F>
  void piece(bool descending, std::size_t ip0, std::size_t ip1, std::size_t in0, std::size_t in1, F&& f) const {
    const auto pos = sorted_.pos().subspan(ip0, ip1 - ip0), neg = sorted_.neg().subspan(in0, in1 - in0);
    const double tp_above = static_cast<double>(sorted_.pos().size() - ip1);
    const double fp_above = static_cast<double>(sorted_.neg().size() - in1);
    if (descending) {
      walk_sorted_classes(pos, neg, [&](double t, double tp, double fp) { f(t, tp_above + tp, fp_above + fp); });
      return;
    }
    // Lowest threshold first: at a group, TP = positives from it upwards.
    const std::size_t np = pos.size(), nn = neg.size();
    std::size_t a = 0, b = 0;
    while (a < np || b < nn) {
      const double t = a == np ? neg[b] : b == nn ? pos[a] : std::min(pos[a], neg[b]);
      const double tp = tp_above + static_cast<double>(np - a), fp = fp_above + static_cast<double>(nn - b);
      while (a < np && pos[a] == t) ++a;
      while (b < nn && neg[b] == t) ++b;
      f(t + 0.0, tp, fp);
    }
  }

  bool weighted_ = false, has_sweep_ = false;
  class_sorted sorted_;
  score_sweep sweep_;
  double P_ = 0, N_ = 0;
};

model_points points_of(loaded& d, model& m, const char* caller) {
  if (m.swept) return model_points(std::move(*m.swept));
  return model_points(m.y, std::move(m.score), d.weight, caller);
}

std::vector<model_points> sort_models(loaded& d, const char* caller) {
  std::vector<model_points> pts;
  pts.reserve(d.models.size());
  for (auto& m : d.models) pts.push_back(points_of(d, m, caller));
  return pts;
}

// Sends the ROC points (all, or those scikit-learn's drop_intermediate keeps) through fmt.
template <typename Fmt>
void emit_roc_points(const model_points& mp, bool drop, const Fmt& fmt, const text_sink& sink) {
  mp.emit(true, drop, fmt, sink);
}

std::string roc_undefined(double P, double N) {
  if (N == 0 && P == 0) return "no cases: both rates are undefined";
  if (N == 0) return "no negative cases: the false-positive rate is undefined";
  if (P == 0) return "no positive cases: the true-positive rate is undefined";
  return {};
}

void stream_roc(loaded& d, const curve_options& q, curve_format format, const text_sink& sink) {
  const char* caller = "assay curve roc";
  const bool partial = q.partial_fpr.size() == 2 || q.partial_tpr.size() == 2;
  if (format == curve_format::csv) {
    sink(roc_csv_header);
    for (auto& m : d.models) {
      const model_points mp = points_of(d, m, caller);
      const std::string field = csv_field(m.name);
      const double P = mp.positives(), N = mp.negatives();
      const double n_or_nan = N > 0 ? N : std::nan(""), p_or_nan = P > 0 ? P : std::nan("");
      std::string first;
      csv_row(first, field, {inf, N > 0 ? 0.0 : std::nan(""), P > 0 ? 0.0 : std::nan(""), 0, 0});
      sink(first);
      emit_roc_points(mp, q.drop_intermediate, [&](std::string& out, double t, double tp, double fp) {
        char row[5 * 25 + 1];
        char* p = put_csv_next(row, t);
        p = put_csv_next(p, fp / n_or_nan);
        p = put_csv_next(p, tp / p_or_nan);
        p = put_csv_next(p, tp);
        p = put_csv_next(p, fp);
        *p++ = '\n';
        out += field;
        out.append(row, p);
      }, sink);
    }
    return;
  }
  json j = roc_header(d);
  std::vector<model_points> pts = sort_models(d, caller);
  for (std::size_t i = 0; i < pts.size(); ++i) {
    model_points& mp = pts[i];
    const double P = mp.positives(), N = mp.negatives();
    const bool drop = q.drop_intermediate;
    // One array of the curve: its value at the origin, then one per point.
    auto array = [&mp, drop](double origin, auto value_of) {
      return jstream([&mp, drop, origin, value_of](const text_sink& out) {
        std::string head = "[";
        json_cell(head, origin);
        out(head);
        emit_roc_points(mp, drop, [&](std::string& s, double t, double tp, double fp) {
          s += ',';
          json_cell(s, value_of(t, tp, fp));
        }, out);
        out("]");
      });
    };
    const double n_or_nan = N > 0 ? N : std::nan(""), p_or_nan = P > 0 ? P : std::nan("");
    json o;
    o["model"] = d.models[i].name;
    o["thresholds"] = array(inf, [](double t, double, double) { return t; });
    o["fpr"] = array(N > 0 ? 0.0 : std::nan(""), [n_or_nan](double, double, double fp) { return fp / n_or_nan; });
    o["tpr"] = array(P > 0 ? 0.0 : std::nan(""), [p_or_nan](double, double tp, double) { return tp / p_or_nan; });
    const std::string undefined = roc_undefined(P, N);
    if (!undefined.empty()) o["curve_undefined"] = undefined;
    value auc;
    if (P > 0 && N > 0) {
      auc_sum sum;
      mp.each(true, [&sum](double, double tp, double fp) { sum.add(tp, fp); });
      auc = value(sum.auc(P, N));
    } else {
      auc = roc_auc(score_sweep{{}, {}, {}, P, N});
    }
    put(o, "roc_auc", auc);
    if (partial) put_partial_aucs(o, mp.sweep(), q);
    j["models"].push_back(o);
  }
  put_multiclass_roc_aucs(j, d);
  write_json(j, sink);
}

void stream_pr(loaded& d, curve_format format, const text_sink& sink) {
  const char* caller = "assay curve pr";
  if (format == curve_format::csv) {
    sink(pr_csv_header);
    for (auto& m : d.models) {
      const model_points mp = points_of(d, m, caller);
      const std::string field = csv_field(m.name);
      const double P = mp.positives();
      const double p_or_nan = P > 0 ? P : std::nan("");
      mp.emit(false, false, [&](std::string& out, double t, double tp, double fp) {
        char row[3 * 25 + 1];
        char* p = put_csv_next(row, t);
        p = put_csv_next(p, tp / (tp + fp));
        p = put_csv_next(p, tp / p_or_nan);
        *p++ = '\n';
        out += field;
        out.append(row, p);
      }, sink);
      std::string last;
      csv_row(last, field, {std::nan(""), 1, 0});
      sink(last);
    }
    return;
  }
  json j = pr_header(d);
  std::vector<model_points> pts = sort_models(d, caller);
  for (std::size_t i = 0; i < pts.size(); ++i) {
    model_points& mp = pts[i];
    const score_sweep& sw = mp.sweep();  // the interpolated AP variants need it
    const double P = mp.positives();
    const double p_or_nan = P > 0 ? P : std::nan("");
    // One array, lowest threshold first, then its end value (none for the thresholds).
    auto array = [&mp](std::optional<double> end, auto value_of) {
      return jstream([&mp, end, value_of](const text_sink& out) {
        out("[");
        // Every element is written with a leading comma (pieces are formatted independently); the
        // first comma sent is dropped.
        bool any = false;
        const text_sink rest = [&](std::string_view piece) {
          if (!any && !piece.empty()) piece.remove_prefix(1), any = true;
          out(piece);
        };
        mp.emit(false, false, [&value_of](std::string& s, double t, double tp, double fp) {
          s += ',';
          json_cell(s, value_of(t, tp, fp));
        }, rest);
        if (end) {
          std::string tail = any ? "," : "";
          json_cell(tail, *end);
          out(tail);
        }
        out("]");
      });
    };
    json o;
    o["model"] = d.models[i].name;
    o["thresholds"] = array(std::nullopt, [](double t, double, double) { return t; });
    o["precision"] = array(1.0, [](double, double tp, double fp) { return tp / (tp + fp); });
    o["recall"] = array(0.0, [p_or_nan](double, double tp, double) { return tp / p_or_nan; });
    if (P == 0) o["curve_undefined"] = "no positive cases: recall is undefined";
    put_pr_summary(o, sw);
    j["models"].push_back(o);
  }
  write_json(j, sink);
}

}  // namespace

curve_kind parse_curve_kind(const std::string& name) {
  if (name == "roc") return curve_kind::roc;
  if (name == "pr") return curve_kind::pr;
  if (name == "threshold") return curve_kind::threshold;
  if (name == "rejection") return curve_kind::rejection;
  if (name == "cost") return curve_kind::cost;
  if (name == "calibration") return curve_kind::calibration;
  throw_usage(fmt::format("unknown curve \"{}\" (roc, pr, threshold, rejection, cost, calibration)", name));
}

namespace {

// The request's checks, named by its fields (assay::param: the CLI shows them as its options).
void check_request(const curve_request& q) {
  const std::string who = in_function("make_curve");
  if (!(q.beta > 0 && std::isfinite(q.beta))) {
    throw_usage(fmt::format("{}{}: {} must be a finite number > 0", who, param("beta"), q.beta));
  }
  check_constraints("make_curve", q);
  if (!std::isfinite(q.threshold)) {
    throw_usage(fmt::format("{}{}: {} is not a finite number", who, param("threshold"), q.threshold));
  }
  if (q.bins < 1) throw_usage(fmt::format("{}{}: must be >= 1", who, param("bins")));
  for (auto [name, r] : {std::pair{"partial_fpr", &q.partial_fpr}, {"partial_tpr", &q.partial_tpr}}) {
    if (r->empty()) continue;
    if (r->size() != 2 || !((*r)[0] >= 0 && (*r)[1] <= 1 && (*r)[0] < (*r)[1])) {
      throw_usage(fmt::format("{}{}: give two numbers LO HI with 0 <= LO < HI <= 1", who, param(name)));
    }
  }
}

}  // namespace

namespace {

curve_document document(const loaded& d, const curve_options& q) {
  array_writers.clear();  // left over if an earlier document threw
  switch (q.kind) {
    case curve_kind::roc: return roc(d, q);
    case curve_kind::pr: return pr(d, q);
    case curve_kind::threshold: return threshold(d, q);
    case curve_kind::rejection: return rejection(d, q);
    case curve_kind::cost: return cost(d, q);
    case curve_kind::calibration: return calibration(d, q);
  }
  return {};
}

}  // namespace

curve_document make_curve(const curve_request& q) {
  check_request(q);
  return document(load(q), q);
}

prediction_file prediction_file_of(const curve_request& request) { return file_of(request); }

curve_document make_curve(io::table&& columns, const curve_request& q) {
  check_request(q);
  if (q.scores.empty() == q.proba.empty()) (void)load(q);  // its message (nothing is read)
  return document(loaded_of(make_predictions(std::move(columns), file_of(q)), q), q);
}

curve_document make_curve(const prediction_table& table, const curve_options& q) {
  if (!(q.beta > 0 && std::isfinite(q.beta))) {
    throw_usage(fmt::format("curve: beta is {}; it must be a finite number > 0", q.beta));
  }
  if (!std::isfinite(q.threshold)) throw_usage(fmt::format("curve: threshold is {}; it must be a finite number", q.threshold));
  if (q.bins < 1) throw_usage("curve: bins is 0; it must be >= 1");
  check_constraints("curve", q);
  for (auto [name, r] : {std::pair{"partial_fpr", &q.partial_fpr}, {"partial_tpr", &q.partial_tpr}}) {
    if (r->empty()) continue;
    if (r->size() != 2 || !((*r)[0] >= 0 && (*r)[1] <= 1 && (*r)[0] < (*r)[1])) {
      throw_usage(fmt::format("curve: {} must be two numbers {{lo, hi}} with 0 <= lo < hi <= 1", name));
    }
  }
  if (table.scores.empty() && table.proba.empty()) {
    throw_usage("curve: the table has neither scores nor class probabilities (predicted classes have no curve)");
  }
  if (!table.scores.empty() && (table.task != task_kind::binary || table.y.size() != table.rows)) {
    throw_usage("curve: scores need a binary table");
  }
  prediction_table copy = table;
  if (!copy.proba.empty()) {  // class probabilities: one-vs-rest per class, as `assay curve --proba`
    copy.positive.reset();
    copy.task = task_kind::multiclass;
  }
  return document(from_table(std::move(copy)), q);
}

void write_curve(const curve_request& q, curve_format format, const text_sink& sink) {
  if (q.kind != curve_kind::roc && q.kind != curve_kind::pr) {
    const curve_document doc = make_curve(q);
    sink(format == curve_format::json ? doc.json : doc.csv);
    return;
  }
  check_request(q);
  array_writers.clear();  // left over if an earlier document threw
  loaded d = load(q);
  if (q.kind == curve_kind::roc) stream_roc(d, q, format, sink);
  else stream_pr(d, format, sink);
}

void write_curve_of_sweeps(const curve_options& q, swept_models m, curve_format format, const text_sink& sink) {
  if (q.kind == curve_kind::rejection || q.kind == curve_kind::calibration) {
    throw_usage("write_curve_of_sweeps: only roc, pr, threshold and cost curves are made from sweeps");
  }
  curve_request checked;
  static_cast<curve_options&>(checked) = q;
  check_request(checked);
  array_writers.clear();  // left over if an earlier document threw
  loaded d;
  d.source = std::move(m.source);
  d.label_column = std::move(m.label_column);
  d.labels = std::move(m.classes);
  d.positive = std::move(m.positive);
  d.weighted = m.weighted;
  d.missing = m.missing;
  for (std::size_t k = 0; k < m.models.size(); ++k) {
    d.models.push_back({std::move(m.models[k].first), {}, {}, std::move(m.models[k].second),
                        k < m.negatives.size() ? std::move(m.negatives[k]) : std::vector<double>{}});
  }
  if (q.kind == curve_kind::roc) return stream_roc(d, q, format, sink);
  if (q.kind == curve_kind::pr) return stream_pr(d, format, sink);
  const curve_document doc = q.kind == curve_kind::threshold ? threshold(d, q) : cost(d, q);
  sink(format == curve_format::json ? doc.json : doc.csv);
}

}  // namespace assay::curves
