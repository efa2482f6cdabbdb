// assay compare on columns read from a file: the label's classes, the task (binary or multiclass),
// the positive class, and the class codes handed to compare_models / compare_models_multiclass.
#include <fmt/format.h>

#include <algorithm>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/stats/compare.hpp"

namespace assay::stats {

namespace {

/// The --metric names that can compare this task, or a usage error listing the choices.
void check_metric_names(const std::vector<std::string>& metrics, bool scores, bool multiclass) {
  const auto ok = comparable_metrics(scores, multiclass);
  for (const auto& m : metrics) {
    if (std::find(ok.begin(), ok.end(), m) != ok.end()) continue;
    std::string list;
    for (const auto& c : ok) list += (list.empty() ? "" : ", ") + c;
    throw_usage(fmt::format("--metric: \"{}\" cannot compare {}; choose from: {}", m,
                            scores       ? "score columns"
                            : multiclass ? "prediction columns of a multiclass label"
                                         : "prediction columns",
                            list));
  }
}

}  // namespace

comparison compare_table(const io::table& t, bool scores, const std::optional<std::string>& pos_label,
                         const compare_options& opts) {
  if (t.columns.size() < 3) {
    throw_usage(fmt::format("compare_table: give a label column and at least two model columns; got {} columns",
                            t.columns.size()));
  }
  const io::column& truth = t.columns[0];
  // Numeric labels are classes by value ("1.0" predicts "1"): unify the label's and the predictions'
  // levels (copies: the table stays as read).
  std::vector<std::vector<std::string>> levels{truth.levels};
  if (!scores) {
    for (std::size_t k = 1; k < t.columns.size(); ++k) levels.push_back(t.columns[k].levels);
  }
  std::optional<std::string> pos = pos_label;
  {
    std::vector<std::vector<std::string>*> sets;
    for (auto& l : levels) sets.push_back(&l);
    std::vector<std::string*> extra;
    if (pos) extra.push_back(&*pos);
    unify_numeric_labels(sets, extra);
  }
  const auto labels = sort_labels(levels[0]);
  if (labels.size() < 2) {
    throw_data(fmt::format("{}: column '{}' has a single class{}; compare needs cases of both classes", t.source,
                           truth.name, labels.empty() ? "" : " (\"" + labels[0] + "\")"));
  }
  const bool multiclass = labels.size() > 2;
  if (multiclass && scores) {
    throw_usage(fmt::format("{}: column '{}' has {} classes ({}); --score compares binary classifiers: compare "
                            "multiclass models by their predicted classes with --pred (compare does not take "
                            "class-probability columns)",
                            t.source, truth.name, labels.size(), join_labels(labels)));
  }
  if (multiclass && pos) {
    throw_usage(fmt::format("--pos-label: column '{}' has {} classes ({}); a positive class has no meaning when "
                            "comparing multiclass predictions: leave --pos-label out",
                            truth.name, labels.size(), join_labels(labels)));
  }
  check_metric_names(opts.metrics, scores, multiclass);

  // Class index of each level of a column (the label's sorted classes), -1 for a class it lacks.
  auto codes_of = [&](const std::vector<std::string>& lv) {
    std::vector<std::int32_t> out(lv.size(), -1);
    for (std::size_t i = 0; i < lv.size(); ++i) {
      const auto it = std::find(labels.begin(), labels.end(), lv[i]);
      if (it != labels.end()) out[i] = static_cast<std::int32_t>(it - labels.begin());
    }
    return out;
  };
  std::vector<std::int32_t> y(t.rows);
  std::vector<std::vector<std::int32_t>> preds;
  std::vector<model_input> models;
  comparison c;
  if (multiclass) {
    const auto ty = codes_of(levels[0]);
    for (std::size_t i = 0; i < t.rows; ++i) y[i] = ty[static_cast<std::size_t>(truth.codes[i])];
    // Predicted classes the label lacks: codes K, K + 1, ... in sorted order over all models.
    std::vector<std::string> unknown;
    for (std::size_t k = 1; k < levels.size(); ++k) {
      for (const auto& l : levels[k]) {
        if (std::find(labels.begin(), labels.end(), l) == labels.end()) unknown.push_back(l);
      }
    }
    unknown = sort_labels(unknown);
    const auto n_classes = static_cast<std::int32_t>(labels.size());
    for (std::size_t k = 1; k < levels.size(); ++k) {
      auto map = codes_of(levels[k]);
      for (std::size_t l = 0; l < map.size(); ++l) {
        if (map[l] < 0) {
          map[l] = n_classes + static_cast<std::int32_t>(std::find(unknown.begin(), unknown.end(), levels[k][l]) -
                                                         unknown.begin());
        }
      }
      auto& p = preds.emplace_back(t.rows);
      const auto& col = t.columns[k];
      for (std::size_t i = 0; i < t.rows; ++i) p[i] = map[static_cast<std::size_t>(col.codes[i])];
    }
    for (std::size_t k = 0; k < preds.size(); ++k) models.push_back({t.columns[k + 1].name, {}, preds[k]});
    c = compare_models_multiclass(y, labels.size(), models, opts);
    c.classes = labels;
    for (std::size_t k = 0; k < preds.size(); ++k) {
      for (const auto& l : levels[k + 1]) {
        if (std::find(labels.begin(), labels.end(), l) == labels.end()) c.models[k].unknown_classes.push_back(l);
      }
      c.models[k].unknown_classes = sort_labels(c.models[k].unknown_classes);
    }
  } else {
    std::string positive;
    if (pos) {
      if (std::find(labels.begin(), labels.end(), *pos) == labels.end()) {
        throw_usage(fmt::format("--pos-label: class \"{}\" not found in column '{}'", *pos, truth.name));
      }
      positive = *pos;
    } else if (auto d = default_positive(labels)) {
      positive = *d;
    } else {
      throw_usage(fmt::format("{}: cannot tell which class is positive in column '{}': name it with --pos-label",
                              t.source, truth.name));
    }
    // 1 for the positive class, per level of a column (one string comparison per level, not per row).
    auto positive_of = [&positive](const std::vector<std::string>& lv) {
      std::vector<std::int32_t> out(lv.size());
      for (std::size_t i = 0; i < lv.size(); ++i) out[i] = lv[i] == positive;
      return out;
    };
    const auto ty = positive_of(levels[0]);
    for (std::size_t i = 0; i < t.rows; ++i) y[i] = ty[static_cast<std::size_t>(truth.codes[i])];
    for (std::size_t k = 1; k < t.columns.size(); ++k) {
      const auto& col = t.columns[k];
      if (scores) {
        models.push_back({col.name, col.numbers, {}});
        continue;
      }
      for (const auto& level : levels[k]) {
        if (std::find(labels.begin(), labels.end(), level) == labels.end()) {
          throw_data(fmt::format("{}: --pred column '{}' predicts class \"{}\", which column '{}' does not have",
                                 t.source, col.name, level, truth.name));
        }
      }
      const auto tp = positive_of(levels[k]);
      auto& p = preds.emplace_back(t.rows);
      for (std::size_t i = 0; i < t.rows; ++i) p[i] = tp[static_cast<std::size_t>(col.codes[i])];
    }
    for (std::size_t k = 0; k < preds.size(); ++k) models.push_back({t.columns[k + 1].name, {}, preds[k]});
    c = compare_models(y, models, opts);
    c.positive = positive;
  }
  c.source = t.source;
  c.label = truth.name;
  return c;
}

}  // namespace assay::stats
