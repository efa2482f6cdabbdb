// `assay curve`: reading the rows and choosing the writer; see include/assay/curves/curve_report.hpp.
// The curves are computed by the kernels and rendered as CSV and JSON by src/render/ (curve_writers.hpp).
#include "assay/curves/curve_report.hpp"

#include <cmath>
#include <fmt/format.h>
#include <utility>

#include "../render/curve_writers.hpp"
#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "curve_input.hpp"

namespace assay::curves {

using detail::loaded;
using detail::model;

namespace {

// ---- input --------------------------------------------------------------------------------------

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
  detail::clear_array_writers();  // left over if an earlier document threw
  switch (q.kind) {
    case curve_kind::roc: return detail::roc_document(d, q);
    case curve_kind::pr: return detail::pr_document(d, q);
    case curve_kind::threshold: return detail::threshold_document(d, q);
    case curve_kind::rejection: return detail::rejection_document(d, q);
    case curve_kind::cost: return detail::cost_document(d, q);
    case curve_kind::calibration: return detail::calibration_document(d, q);
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
  detail::clear_array_writers();  // left over if an earlier document threw
  loaded d = load(q);
  if (q.kind == curve_kind::roc) detail::stream_roc(d, q, format, sink);
  else detail::stream_pr(d, format, sink);
}

void write_curve_of_sweeps(const curve_options& q, swept_models m, curve_format format, const text_sink& sink) {
  if (q.kind == curve_kind::rejection || q.kind == curve_kind::calibration) {
    throw_usage("write_curve_of_sweeps: only roc, pr, threshold and cost curves are made from sweeps");
  }
  curve_request checked;
  static_cast<curve_options&>(checked) = q;
  check_request(checked);
  detail::clear_array_writers();  // left over if an earlier document threw
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
  if (q.kind == curve_kind::roc) return detail::stream_roc(d, q, format, sink);
  if (q.kind == curve_kind::pr) return detail::stream_pr(d, format, sink);
  const curve_document doc =
      q.kind == curve_kind::threshold ? detail::threshold_document(d, q) : detail::cost_document(d, q);
  sink(format == curve_format::json ? doc.json : doc.csv);
}

}  // namespace assay::curves
