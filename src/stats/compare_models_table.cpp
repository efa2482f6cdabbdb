// assay compare on a prediction table (data/predictions.hpp decides the classes, the task and the
// positive class): the class codes handed to compare_models / compare_models_multiclass.
#include <fmt/format.h>

#include <algorithm>

#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/stats/compare_models.hpp"

namespace assay::stats {

namespace {

/// The metric names that can compare this task, or a usage error listing the choices.
void check_metric_names(const std::vector<std::string>& metrics, bool scores, bool multiclass) {
  const auto ok = comparable_metrics(scores, multiclass);
  for (const auto& m : metrics) {
    if (std::find(ok.begin(), ok.end(), m) != ok.end()) continue;
    std::string list;
    for (const auto& c : ok) list += (list.empty() ? "" : ", ") + c;
    throw_usage(fmt::format("{}{}: \"{}\" cannot compare {}; choose from: {}", in_function("compare_predictions"),
                            param("metrics"), m,
                            scores       ? "score columns"
                            : multiclass ? "prediction columns of a multiclass label"
                                         : "prediction columns",
                            list));
  }
}

}  // namespace

model_comparison compare_predictions(const prediction_table& t, const compare_options& opts) {
  const bool scores = !t.scores.empty();
  if (t.scores.size() + t.predictions.size() < 2 || (scores && !t.predictions.empty())) {
    throw_usage(fmt::format("compare_predictions: give at least two models, all score columns or all prediction "
                            "columns; got {} score and {} prediction columns", t.scores.size(), t.predictions.size()));
  }
  if (t.task == task_kind::regression || !t.proba.empty()) {
    throw_usage("compare_predictions: compares classifiers by scores or predicted classes");
  }
  // The classes with cases: compare needs two of them.
  std::vector<std::size_t> count(t.classes.size());
  for (const auto c : t.y) ++count[static_cast<std::size_t>(c)];
  std::vector<std::string> present;
  for (std::size_t k = 0; k < count.size(); ++k)
    if (count[k] > 0) present.push_back(t.classes[k]);
  if (present.size() < 2) {
    throw_data(fmt::format("{}: column '{}' has a single class{}; compare needs cases of both classes", t.source,
                           t.label_name, present.empty() ? "" : " (\"" + present[0] + "\")"));
  }
  const bool multiclass = t.task == task_kind::multiclass;
  check_metric_names(opts.metrics, scores, multiclass);

  std::vector<model_input> models;
  model_comparison c;
  if (multiclass) {
    for (const auto& p : t.predictions) models.push_back({p.name, {}, p.codes});
    c = compare_models_multiclass(t.y, t.classes.size(), models, opts);
    c.classes = t.classes;
    for (std::size_t k = 0; k < t.predictions.size(); ++k) c.models[k].unknown_classes = t.predictions[k].unknown;
  } else {
    const auto pos = static_cast<std::int32_t>(*t.positive);
    auto is_positive = [pos](std::span<const std::int32_t> codes) {
      std::vector<std::int32_t> out(codes.size());
      for (std::size_t i = 0; i < codes.size(); ++i) out[i] = codes[i] == pos;
      return out;
    };
    const std::vector<std::int32_t> y = is_positive(t.y);
    std::vector<std::vector<std::int32_t>> preds;
    for (const auto& p : t.predictions) {
      if (!p.unknown.empty()) {
        throw_data(fmt::format("{}: {} column '{}' predicts class \"{}\", which column '{}' does not have", t.source,
                               param("predictions"), p.name, p.unknown[0], t.label_name));
      }
      preds.push_back(is_positive(p.codes));
    }
    for (const auto& s : t.scores) models.push_back({s.name, s.values, {}});
    for (std::size_t k = 0; k < preds.size(); ++k) models.push_back({t.predictions[k].name, {}, preds[k]});
    c = compare_models(y, models, opts);
    c.positive = t.classes[*t.positive];
  }
  c.source = t.source;
  c.label = t.label_name;
  return c;
}

model_comparison compare_table(const io::table& t, bool scores, const std::optional<std::string>& pos_label,
                         const compare_options& opts) {
  if (t.columns.size() < 3) {
    throw_usage(fmt::format("compare_table: give a label column and at least two model columns; got {} columns",
                            t.columns.size()));
  }
  prediction_file f;
  f.label = t.columns[0].name;
  for (std::size_t k = 1; k < t.columns.size(); ++k) (scores ? f.scores : f.predictions).push_back(t.columns[k].name);
  f.pos_label = pos_label;
  f.classes = class_set::truth;
  io::table copy = t;  // the table stays as read
  return compare_predictions(make_predictions(std::move(copy), f), opts);
}

}  // namespace assay::stats
