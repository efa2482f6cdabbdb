// One model on two independent samples; see include/assay/stats/compare_samples.hpp.
#include "assay/stats/compare_samples.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/stats/delong.hpp"

namespace assay::stats {

namespace {

std::string list_of(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "\"" : ", \"") + x + "\"";
  return "{" + s + "}";
}

// The one model column of a table: its name; a usage error otherwise.
void check_one_model(const prediction_table& t) {
  const std::size_t models = t.scores.size() + t.predictions.size();
  if (models != 1 || !t.proba.empty() || t.task == task_kind::regression) {
    throw_usage(fmt::format("compare_samples: {}: give exactly one score or prediction column per sample; got {} "
                            "score and {} prediction columns", t.source, t.scores.size(), t.predictions.size()));
  }
}

// A sample's right/wrong and (binary) 0/1 labels.
struct sample_data {
  std::vector<std::int32_t> y01;  // binary: 1 = positive
  std::vector<std::int32_t> wrong;
};

sample_data evaluate_sample(const prediction_table& t, double threshold, sample_summary& s, double level) {
  sample_data d;
  const bool binary = t.task == task_kind::binary;
  s.n = t.rows;
  const auto pos = binary ? static_cast<std::int32_t>(*t.positive) : -1;
  d.wrong.resize(t.rows);
  if (binary) {
    d.y01.resize(t.rows);
    for (std::size_t i = 0; i < t.rows; ++i) d.y01[i] = t.y[i] == pos;
    for (auto v : d.y01) (v ? s.n_pos : s.n_neg) += 1;
  }
  if (!t.scores.empty()) {
    s.model = t.scores[0].name;
    const auto& sc = t.scores[0].values;
    for (std::size_t i = 0; i < t.rows; ++i) d.wrong[i] = (sc[i] >= threshold ? 1 : 0) != d.y01[i];
  } else {
    s.model = t.predictions[0].name;
    if (binary && !t.predictions[0].unknown.empty()) {  // as compare_predictions: a binary prediction must be a class
      throw_data(fmt::format("compare_samples: {}: prediction column '{}' predicts class \"{}\", which column '{}' does not have", t.source,
                             s.model, t.predictions[0].unknown[0], t.label_name));
    }
    const auto& p = t.predictions[0].codes;  // class codes (unknown classes: codes outside the class list)
    for (std::size_t i = 0; i < t.rows; ++i) d.wrong[i] = p[i] != t.y[i];
  }
  for (auto w : d.wrong) s.errors += w;
  s.error_rate = proportion_ci(static_cast<double>(s.errors), static_cast<double>(s.n), level, proportion_method::wilson);
  return d;
}

std::string verdict_of(const sample_comparison& c) {
  const double alpha = c.options.alpha;
  std::string s;
  const auto& e = c.error_difference;
  if (!c.error_difference.z_test.undefined.empty()) {
    s = fmt::format("Error rates: {}.", c.error_difference.z_test.undefined);
  } else {
    const bool sig = e.z_test.test.p_value < alpha;
    s = fmt::format("Error rates: {} ({:.4f}) {} {} ({:.4f}) at alpha = {:g} (two-proportion z test, p = {:.4g}).",
                    c.a.name, e.p1, sig ? (e.difference > 0 ? "is significantly higher than" : "is significantly lower than")
                                        : "is not significantly different from",
                    c.b.name, e.p2, alpha, e.z_test.test.p_value);
  }
  if (c.has_delong) {
    const bool sig = c.delong.test.p_value < alpha;
    s += fmt::format(" AUC: {} {} ({:.4f} vs {:.4f}, unpaired DeLong p = {:.4g}).", c.a.name,
                     sig ? (c.delong.difference > 0 ? "is significantly higher" : "is significantly lower")
                         : "is not significantly different",
                     c.delong.auc_a, c.delong.auc_b, c.delong.test.p_value);
  } else if (c.scores) {
    s += fmt::format(" AUC: no test ({}).", c.delong_undefined);
  }
  return s;
}

}  // namespace

sample_comparison compare_samples(const prediction_table& a, const prediction_table& b, const compare_options& opts) {
  check_one_model(a);
  check_one_model(b);
  if (a.scores.empty() != b.scores.empty()) {
    throw_usage(fmt::format("compare_samples: {} has a {} column but {} a {} column; compare like with like", a.source,
                            a.scores.empty() ? "prediction" : "score", b.source, b.scores.empty() ? "prediction" : "score"));
  }
  if (!(opts.alpha > 0 && opts.alpha < 1)) throw_usage(fmt::format("compare_samples: alpha must be in (0, 1); got {}", opts.alpha));
  if (!std::isfinite(opts.threshold)) throw_usage(fmt::format("compare_samples: threshold must be finite; got {}", opts.threshold));
  if (a.classes != b.classes) {
    throw_data(fmt::format("compare_samples: the samples have different label sets: {} has classes {}, {} has {}",
                           a.source, list_of(a.classes), b.source, list_of(b.classes)));
  }
  if (a.task != b.task || (a.positive && b.positive && *a.positive != *b.positive)) {
    throw_data(fmt::format("compare_samples: {} and {} do not have the same positive class", a.source, b.source));
  }
  if (a.rows == 0 || b.rows == 0) {
    throw_data(fmt::format("compare_samples: {} has no rows", a.rows == 0 ? a.source : b.source));
  }
  sample_comparison c;
  c.scores = !a.scores.empty();
  c.multiclass = a.task == task_kind::multiclass;
  c.label = a.label_name;
  c.classes = a.classes;
  if (a.positive) c.positive = a.classes[*a.positive];
  c.options = opts;
  c.a.name = a.source;
  c.b.name = b.source;
  const double level = 1 - opts.alpha;
  const sample_data da = evaluate_sample(a, opts.threshold, c.a, level);
  const sample_data db = evaluate_sample(b, opts.threshold, c.b, level);
  c.error_difference = compare_two_proportions(static_cast<double>(c.a.errors), static_cast<double>(c.a.n),
                                               static_cast<double>(c.b.errors), static_cast<double>(c.b.n), level);
  if (c.scores) {
    c.a.has_auc = c.b.has_auc = true;
    c.a.auc = delong_ci(da.y01, a.scores[0].values, level);
    c.b.auc = delong_ci(db.y01, b.scores[0].values, level);
    for (const auto* s : {&c.a, &c.b}) {
      if (c.delong_undefined.empty() && (s->n_pos < 2 || s->n_neg < 2)) {
        c.delong_undefined = fmt::format("{} has {} positive and {} negative cases; DeLong's variance needs at least 2 of each",
                                         s->name, s->n_pos, s->n_neg);
      }
    }
    if (c.delong_undefined.empty()) {
      c.has_delong = true;
      c.delong = delong_unpaired_test(da.y01, a.scores[0].values, db.y01, b.scores[0].values);
      c.delong.level = level;
    }
  }
  c.verdict = verdict_of(c);
  return c;
}

sample_comparison compare_samples_table(io::table&& t, bool scores, const std::optional<std::string>& pos_label,
                                        const compare_options& opts) {
  if (t.columns.size() != 3) {
    throw_usage(fmt::format("compare_samples_table: give the label, one model column and the sample column; got {} columns",
                            t.columns.size()));
  }
  const io::column& sample = t.columns[2];
  std::vector<std::int32_t> present(sample.levels.size(), 0);
  for (auto code : sample.codes) present[static_cast<std::size_t>(code)] = 1;
  std::vector<std::string> values;
  for (std::size_t k = 0; k < present.size(); ++k)
    if (present[k]) values.push_back(sample.levels[k]);
  if (values.size() != 2) {
    throw_data(fmt::format("{}: sample column '{}' has {} value{}{}; it must have exactly two (one per sample)", t.source,
                           sample.name, values.size(), values.size() == 1 ? "" : "s",
                           values.size() == 1 ? " (\"" + values[0] + "\")" : ""));
  }
  values = sort_labels(values);
  prediction_file f;
  f.label = t.columns[0].name;
  (scores ? f.scores : f.predictions).push_back(t.columns[1].name);
  f.pos_label = pos_label;
  f.classes = class_set::truth;
  prediction_table part[2];
  for (int s = 0; s < 2; ++s) {
    const auto code = static_cast<std::int32_t>(std::find(sample.levels.begin(), sample.levels.end(), values[s]) - sample.levels.begin());
    io::table sub;
    sub.source = fmt::format("{} ({} = {})", t.source, sample.name, values[s]);
    for (int k = 0; k < 2; ++k) {
      io::column col;
      col.name = t.columns[k].name;
      col.type = t.columns[k].type;
      col.levels = t.columns[k].levels;  // every class in both samples
      sub.columns.push_back(std::move(col));
    }
    for (std::size_t i = 0; i < t.rows; ++i) {
      if (sample.codes[i] != code) continue;
      for (int k = 0; k < 2; ++k) {
        const io::column& from = t.columns[k];
        io::column& to = sub.columns[k];
        if (from.type == io::column_type::number) to.numbers.push_back(from.numbers[i]);
        else to.codes.push_back(from.codes[i]);
      }
      ++sub.rows;
    }
    part[s] = make_predictions(std::move(sub), f);
  }
  sample_comparison c = compare_samples(part[0], part[1], opts);
  c.a.name = values[0];
  c.b.name = values[1];
  c.sample_column = sample.name;
  c.verdict = verdict_of(c);
  return c;
}

}  // namespace assay::stats
