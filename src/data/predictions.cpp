// The table of predictions and its class rules; see include/assay/data/predictions.hpp.
#include "assay/data/predictions.hpp"
#include "assay/detail/exact_sum.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <string_view>
#include <unordered_map>

#include "assay/curves/roc.hpp"
#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "number_codes.hpp"

namespace assay {

namespace {

// How messages name the inputs: a file's columns and the fields of prediction_file (marked with
// assay::param, so the CLI shows its options), or the parameters of an in-memory builder
// (`fn: y_true`, `fn: pos_label`, ...).
struct naming {
  bool file = true;
  std::string fn;  // the builder's name (memory)
};

// The layout of the columns of an io::table: label, scores, predictions, weight, proba.
struct layout {
  std::size_t scores = 0, preds = 0, proba = 0;
  bool weight = false;
  [[nodiscard]] std::size_t score_at(std::size_t k) const { return 1 + k; }
  [[nodiscard]] std::size_t pred_at(std::size_t k) const { return 1 + scores + k; }
  [[nodiscard]] std::size_t weight_at() const { return 1 + scores + preds; }
  [[nodiscard]] std::size_t proba_at(std::size_t k) const { return 1 + scores + preds + (weight ? 1 : 0) + k; }
};

// Codes into a column's levels become class indices in place (`map[level]`, decide_classes' codes of
// the column's spellings); nothing is done when every level already is its own index.
void recode_in_place(std::vector<std::int32_t>& codes, const std::vector<std::int32_t>& map) {
  bool identity = true;
  for (std::size_t i = 0; i < map.size(); ++i) identity = identity && map[i] == static_cast<std::int32_t>(i);
  if (identity) return;
  for (auto& c : codes) c = map[static_cast<std::size_t>(c)];
}

// From the columns as read to the table: the weights, the classes (decide_classes) and the codes.
prediction_table resolve(io::table&& t, const prediction_file& f, const layout& at, const naming& nm) {
  prediction_table p;
  p.source = t.source;
  p.rows = t.rows;
  p.threads = t.threads;
  p.missing = t.missing.rows;
  io::column& truth = t.columns[0];
  p.label_name = truth.name;

  // ---- weights ----
  if (at.weight) {
    p.weight = std::move(t.columns[at.weight_at()].numbers);
    // Summed exactly and rounded once (detail/exact_sum.hpp): independent of the rows' order, as the
    // mergeable state's total (scale/state.hpp). A negative or non-finite weight is refused below.
    assay::detail::exact_sum total;
    double plain = 0;
    bool valid = true;
    for (double x : p.weight) {
      valid = valid && x >= 0 && std::isfinite(x);
      if (valid) total.add(x);
      plain += x;
    }
    p.total_weight = valid ? total.value() : plain;
    if (p.total_weight == 0 && p.rows > 0) {
      throw_data(nm.file ? fmt::format("{}: every weight is 0: nothing to evaluate", p.source)
                         : fmt::format("{}: sample_weight: every weight is 0; there is nothing to evaluate", nm.fn));
    }
  } else {
    p.total_weight = static_cast<double>(p.rows);
  }

  if (f.task == task_kind::regression) {
    p.task = task_kind::regression;
    p.target = std::move(truth.numbers);
    for (std::size_t k = 0; k < at.preds; ++k) {
      auto& c = t.columns[at.pred_at(k)];
      p.values.push_back({c.name, std::move(c.numbers)});
    }
    return p;
  }

  // ---- the classes (decide_classes), then each column's codes ----
  label_spellings seen;
  seen.truth = truth.levels;
  for (std::size_t k = 0; k < at.preds; ++k) seen.predicted.push_back(t.columns[at.pred_at(k)].levels);
  for (std::size_t k = 0; k < at.proba; ++k) seen.proba_columns.push_back(t.columns[at.proba_at(k)].name);
  seen.score_columns = at.scores;
  label_source src{nm.file, nm.file ? p.source : nm.fn, truth.name, {}};
  for (std::size_t k = 0; k < at.preds; ++k) src.predicted_columns.push_back(t.columns[at.pred_at(k)].name);
  class_plan plan = decide_classes(std::move(seen), {f.pos_label, f.task, f.classes}, src);
  p.classes = std::move(plan.classes);
  p.positive = plan.positive;
  p.task = plan.task;
  p.unknown_classes = std::move(plan.unknown_classes);
  const std::size_t K = p.classes.size();
  p.y = std::move(truth.codes);
  recode_in_place(p.y, plan.truth);
  for (std::size_t k = 0; k < at.preds; ++k) {
    io::column& c = t.columns[at.pred_at(k)];
    class_column out{c.name, std::move(c.codes), std::move(plan.predicted_unknown[k])};
    recode_in_place(out.codes, plan.predicted[k]);
    p.predictions.push_back(std::move(out));
  }
  for (std::size_t k = 0; k < at.scores; ++k) {
    auto& c = t.columns[at.score_at(k)];
    p.scores.push_back({c.name, std::move(c.numbers)});
  }

  // ---- probabilities, in class order ----
  if (at.proba > 0) {
    p.proba.resize(p.rows * K);
    for (std::size_t c = 0; c < K; ++c) {
      const io::column& col = t.columns[at.proba_at(plan.proba_column[c])];
      p.proba_names.push_back(col.name);
      for (std::size_t i = 0; i < p.rows; ++i) p.proba[i * K + c] = col.numbers[i];
    }
    p.proba_row_off = curves::first_row_not_summing_to_one(proba_view::matrix(p.proba, K));
  }
  return p;
}

layout layout_of(const prediction_file& f) {
  return {f.scores.size(), f.predictions.size(), f.proba.size(), f.weight.has_value()};
}

}  // namespace

prediction_table make_predictions(io::table&& t, const prediction_file& f) {
  const layout at = layout_of(f);
  const std::size_t want = 1 + at.scores + at.preds + at.proba + (at.weight ? 1 : 0);
  if (t.columns.size() != want) {
    throw_usage(fmt::format("make_predictions: the table has {} columns, but the file description names {}",
                            t.columns.size(), want));
  }
  return resolve(std::move(t), f, at, naming{});
}

std::vector<io::column_spec> column_specs(const prediction_file& f) {
  const bool regression = f.task == task_kind::regression;
  const auto label_type = regression ? io::column_type::number : io::column_type::label;
  std::vector<io::column_spec> specs{{f.label, label_type, param("label")}};
  for (const auto& s : f.scores) specs.push_back({s, io::column_type::number, param("scores")});
  for (const auto& s : f.predictions) specs.push_back({s, label_type, param("predictions")});
  if (f.weight) specs.push_back({*f.weight, io::column_type::weight, param("weight")});
  for (const auto& s : f.proba) specs.push_back({s, io::column_type::probability, param("proba")});
  return specs;
}

prediction_table read_predictions(const prediction_file& f) {
  return make_predictions(io::read_table(f.path, column_specs(f), f.csv), f);
}

// ---- arrays in memory -----------------------------------------------------------------------------

namespace {

void check_size(const std::string& fn, const std::string& name, std::size_t n, std::size_t rows) {
  if (n != rows) {
    throw_usage(fmt::format("{}: {} has {} values but y_true has {}; they must have the same length", fn, name, n, rows));
  }
}

void check_finite(const std::string& fn, const std::string& name, std::span<const double> v, const char* what) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) throw_usage(fmt::format("{}: {}[{}] is {}; {} must be finite", fn, name, i, v[i], what));
  }
}

// A label column as the reader makes it: codes into levels in first-seen order. Numbers are named by
// canonical_number (so 0.0 and -0.0 are "0", 1.0 is "1").
io::column label_column(const std::string& fn, const std::string& name, labels_view v) {
  io::column c;
  c.name = name;
  c.type = io::column_type::label;
  c.codes.resize(v.size());
  if (v.is_text()) {
    std::unordered_map<std::string_view, std::int32_t> seen;
    const auto text = v.text();
    for (std::size_t i = 0; i < text.size(); ++i) {
      auto [it, added] = seen.try_emplace(text[i], static_cast<std::int32_t>(c.levels.size()));
      if (added) c.levels.push_back(text[i]);
      c.codes[i] = it->second;
    }
    return c;
  }
  check_finite(fn, name, v.numbers(), "numeric labels");
  detail::number_codes seen;
  const auto x = v.numbers();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double key = x[i] + 0.0;  // -0 and 0 are one class
    const auto [code, added] = seen.code(key);
    if (added) c.levels.push_back(canonical_number(key));
    c.codes[i] = code;
  }
  return c;
}

io::column number_column_of(const std::string& name, std::span<const double> v, io::column_type type) {
  io::column c;
  c.name = name;
  c.type = type;
  c.numbers.assign(v.begin(), v.end());
  return c;
}

// The table in memory: y_true first, then the predictions (columns in `t`), then the weights.
io::table start(const std::string& fn, std::size_t rows, io::column truth) {
  if (rows == 0) throw_usage(fmt::format("{}: y_true is empty; there is nothing to evaluate", fn));
  io::table t;
  t.source = fn;
  t.rows = rows;
  t.columns.push_back(std::move(truth));
  return t;
}

void add_weights(io::table& t, const std::string& fn, const prediction_options& o, prediction_file& f) {
  if (o.sample_weight.empty()) return;
  check_size(fn, "sample_weight", o.sample_weight.size(), t.rows);
  for (std::size_t i = 0; i < o.sample_weight.size(); ++i) {
    const double w = o.sample_weight[i];
    if (!(std::isfinite(w) && w >= 0)) {
      throw_usage(fmt::format("{}: sample_weight[{}] is {}; weights must be finite and >= 0", fn, i, w));
    }
  }
  t.columns.push_back(number_column_of("sample_weight", o.sample_weight, io::column_type::weight));
  f.weight = "sample_weight";
}

prediction_file memory_file(const prediction_options& o) {
  prediction_file f;
  f.pos_label = o.pos_label;
  f.task = o.task;
  f.classes = o.classes;
  return f;
}

void check_task(const std::string& fn, const prediction_options& o) {
  if (o.task == task_kind::regression) {
    throw_usage(fmt::format("{}: task is regression; give true and predicted values to predictions_from_values", fn));
  }
}

prediction_table finish(io::table&& t, const prediction_file& f, const std::string& fn) {
  return resolve(std::move(t), f, layout_of(f), naming{false, fn});
}

}  // namespace

prediction_table predictions_from_scores(labels_view y_true, std::span<const double> y_score,
                                         const prediction_options& options) {
  const std::string fn = "predictions_from_scores";
  check_task(fn, options);
  if (options.task == task_kind::multiclass) {
    throw_usage(fmt::format("{}: task is multiclass; scores of one positive class make a binary task", fn));
  }
  check_size(fn, "y_score", y_score.size(), y_true.size());
  io::table t = start(fn, y_true.size(), label_column(fn, "y_true", y_true));
  check_finite(fn, "y_score", y_score, "scores");
  prediction_file f = memory_file(options);
  t.columns.push_back(number_column_of("y_score", y_score, io::column_type::number));
  f.scores = {"y_score"};
  add_weights(t, fn, options, f);
  return finish(std::move(t), f, fn);
}

namespace {

// The name of model k as its column's name: its own, or "model <k + 1>".
std::string model_name(const std::string& name, std::size_t k) {
  return name.empty() ? fmt::format("model {}", k + 1) : name;
}

}  // namespace

prediction_table predictions_from_model_scores(labels_view y_true, const std::vector<scored_model>& models,
                                         const prediction_options& options) {
  const std::string fn = "predictions_from_model_scores";
  check_task(fn, options);
  if (options.task == task_kind::multiclass) {
    throw_usage(fmt::format("{}: task is multiclass; scores of one positive class make a binary task", fn));
  }
  if (models.empty()) throw_usage(fmt::format("{}: models is empty; give at least one model", fn));
  for (std::size_t k = 0; k < models.size(); ++k) {
    check_size(fn, fmt::format("models[{}].y_score", k), models[k].y_score.size(), y_true.size());
  }
  io::table t = start(fn, y_true.size(), label_column(fn, "y_true", y_true));
  prediction_file f = memory_file(options);
  for (std::size_t k = 0; k < models.size(); ++k) {
    check_finite(fn, fmt::format("models[{}].y_score", k), models[k].y_score, "scores");
    t.columns.push_back(number_column_of(model_name(models[k].name, k), models[k].y_score, io::column_type::number));
    f.scores.push_back(t.columns.back().name);
  }
  add_weights(t, fn, options, f);
  return finish(std::move(t), f, fn);
}

prediction_table predictions_from_model_labels(labels_view y_true, const std::vector<labelled_model>& models,
                                         const prediction_options& options) {
  const std::string fn = "predictions_from_model_labels";
  check_task(fn, options);
  if (models.empty()) throw_usage(fmt::format("{}: models is empty; give at least one model", fn));
  for (std::size_t k = 0; k < models.size(); ++k) {
    check_size(fn, fmt::format("models[{}].y_pred", k), models[k].y_pred.size(), y_true.size());
  }
  io::table t = start(fn, y_true.size(), label_column(fn, "y_true", y_true));
  prediction_file f = memory_file(options);
  for (std::size_t k = 0; k < models.size(); ++k) {
    t.columns.push_back(label_column(fn, fmt::format("models[{}].y_pred", k), models[k].y_pred));
    t.columns.back().name = model_name(models[k].name, k);
    f.predictions.push_back(t.columns.back().name);
  }
  add_weights(t, fn, options, f);
  return finish(std::move(t), f, fn);
}

prediction_table predictions_from_labels(labels_view y_true, labels_view y_pred, const prediction_options& options) {
  const std::string fn = "predictions_from_labels";
  check_task(fn, options);
  check_size(fn, "y_pred", y_pred.size(), y_true.size());
  io::table t = start(fn, y_true.size(), label_column(fn, "y_true", y_true));
  prediction_file f = memory_file(options);
  t.columns.push_back(label_column(fn, "y_pred", y_pred));
  f.predictions = {"y_pred"};
  add_weights(t, fn, options, f);
  return finish(std::move(t), f, fn);
}

prediction_table predictions_from_proba(labels_view y_true, std::span<const double> y_proba,
                                        const std::vector<std::string>& classes, const prediction_options& options) {
  const std::string fn = "predictions_from_proba";
  check_task(fn, options);
  const std::size_t n = y_true.size();
  io::table t = start(fn, n, label_column(fn, "y_true", y_true));
  if (y_proba.size() % n != 0 || y_proba.empty()) {
    throw_usage(fmt::format("{}: y_proba has {} values, not a whole number of rows of y_true's {} (rows x classes, "
                            "row-major)", fn, y_proba.size(), n));
  }
  const std::size_t K = y_proba.size() / n;
  if (!classes.empty() && classes.size() != K) {
    throw_usage(fmt::format("{}: classes has {} names but y_proba has {} columns ({} values for {} rows)", fn,
                            classes.size(), K, y_proba.size(), n));
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t c = 0; c < K; ++c) {
      const double x = y_proba[i * K + c];
      if (!(x >= 0 && x <= 1)) {
        throw_usage(fmt::format("{}: y_proba[{}, {}] is {}; probabilities must be in [0, 1]", fn, i, c, x));
      }
    }
  }
  if (const auto bad = curves::first_row_not_summing_to_one(proba_view::matrix(y_proba, K))) {
    throw_usage(fmt::format("{}: y_proba row {} sums to {}; each row must sum to 1 (rule: |sum - 1| <= 1e-8 + 1e-5 "
                            "|sum|)", fn, bad->first, bad->second));
  }
  prediction_file f = memory_file(options);
  add_weights(t, fn, options, f);
  for (std::size_t c = 0; c < K; ++c) {
    io::column col;
    col.name = classes.empty() ? fmt::format("y_proba[:, {}]", c) : classes[c];
    col.type = io::column_type::probability;
    col.numbers.resize(n);
    for (std::size_t i = 0; i < n; ++i) col.numbers[i] = y_proba[i * K + c];
    t.columns.push_back(std::move(col));
    f.proba.push_back(t.columns.back().name);
  }
  return finish(std::move(t), f, fn);
}

prediction_table predictions_from_values(std::span<const double> y_true, std::span<const double> y_pred,
                                         const prediction_options& options) {
  const std::string fn = "predictions_from_values";
  check_size(fn, "y_pred", y_pred.size(), y_true.size());
  check_finite(fn, "y_true", y_true, "values");
  io::table t = start(fn, y_true.size(), number_column_of("y_true", y_true, io::column_type::number));
  check_finite(fn, "y_pred", y_pred, "values");
  prediction_file f;
  f.task = task_kind::regression;
  t.columns.push_back(number_column_of("y_pred", y_pred, io::column_type::number));
  f.predictions = {"y_pred"};
  add_weights(t, fn, options, f);
  return finish(std::move(t), f, fn);
}

}  // namespace assay
