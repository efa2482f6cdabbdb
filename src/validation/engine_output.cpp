// Text, JSON and CSV renderings of a cross-validation result.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>

#include "assay/stats/learner_tests.hpp"
#include "assay/validation/engine.hpp"

namespace assay::validation {

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string show(const value& v) {
  return v.defined() ? fmt::format("{:.4f}", v.v) : fmt::format("undefined ({})", v.reason);
}

nlohmann::json json_value(const value& v) { return v.defined() ? nlohmann::json(v.v) : nlohmann::json(nullptr); }

}  // namespace

std::string oof_csv(const dataset& d, const cv_result& r) {
  std::string out;
  auto put = std::back_inserter(out);
  const bool repeated = r.repeats > 1;
  fmt::format_to(put, "row{},fold,{},pred", repeated ? ",repeat" : "", csv_field(d.target_name));
  const bool proba = r.classification && !r.oof.empty() && !r.oof.front().proba.empty();
  if (proba)
    for (const auto& c : r.classes) fmt::format_to(put, ",{}", csv_field(c));
  out.push_back('\n');
  // Fold numbers restart at 0 in each repeat.
  std::vector<std::size_t> first_split_of_repeat(r.repeats, SIZE_MAX);
  for (const auto& f : r.folds) first_split_of_repeat[f.repeat] = std::min(first_split_of_repeat[f.repeat], f.split);
  for (const auto& o : r.oof) {
    fmt::format_to(put, "{}", o.row);
    if (repeated) fmt::format_to(put, ",{}", o.repeat);
    fmt::format_to(put, ",{}", o.split - first_split_of_repeat[o.repeat]);
    if (r.classification) {
      fmt::format_to(put, ",{},{}", csv_field(d.classes[static_cast<std::size_t>(d.y_class[o.row])]),
                     csv_field(d.classes[static_cast<std::size_t>(o.cls)]));
      if (proba)
        for (double p : o.proba) fmt::format_to(put, ",{}", p);
    } else {
      fmt::format_to(put, ",{},{}", d.y_value[o.row], o.value);
    }
    out.push_back('\n');
  }
  return out;
}

std::pair<value, value> corrected_mean_interval(const cv_result& r, std::size_t m) {
  std::vector<double> x;
  double n_train = 0, n_test = 0;
  for (const auto& f : r.folds) {
    if (!f.test[m].defined() || !std::isfinite(f.test[m].v)) continue;
    x.push_back(f.test[m].v);
    n_train += static_cast<double>(f.train_rows), n_test += static_cast<double>(f.test_rows);
  }
  if (x.size() < 2 || !(n_train > 0)) {
    const value u = value::undefined(x.size() < 2 ? "fewer than 2 splits" : "no training rows");
    return {u, u};
  }
  const auto ci = stats::corrected_resampled_interval(x, n_train, n_test);  // the ratio of the mean sizes
  return {ci.lower, ci.upper};
}

std::string to_text(const cv_result& r, bool per_fold) {
  std::string out = fmt::format("Cross-validation of {}: {} splits{}, {} thread{}, {:.3f} s\n", r.learner,
                                r.folds.size(), r.repeats > 1 ? fmt::format(" ({} repeats)", r.repeats) : "", r.threads,
                                r.threads == 1 ? "" : "s", r.seconds);
  if (r.positive) out += fmt::format("Positive class: {}\n", r.classes[*r.positive]);
  out += "\n";
  std::size_t w = 6;
  for (const auto& s : r.summary) w = std::max(w, s.name.size());
  out += fmt::format("{:<{}}  {:>10}  {:>10}  {:>10}  {:>19}\n", "metric", w, "mean", "sd", "pooled", "95% interval");
  for (std::size_t m = 0; m < r.summary.size(); ++m) {
    const auto& s = r.summary[m];
    auto cell = [](const value& v) { return v.defined() ? fmt::format("{:.4f}", v.v) : std::string("undefined"); };
    const auto [lo, hi] = corrected_mean_interval(r, m);
    const std::string ci = lo.defined() ? fmt::format("[{:.4f}, {:.4f}]", lo.v, hi.v) : "undefined";
    out += fmt::format("{:<{}}  {:>10}  {:>10}  {:>10}  {:>19}\n", s.name, w, cell(s.mean), cell(s.sd), cell(s.pooled),
                       ci);
  }
  out += "\n(mean and sd: over the splits' values; pooled: the metric of all test predictions together;\n"
         " interval: of the mean, corrected resampled t, Nadeau & Bengio 2003)\n";
  if (per_fold) {
    out += fmt::format("\n{:>5}  {:>6}  {:>6}  {:>6}", "split", "repeat", "train", "test");
    for (const auto& s : r.summary) out += fmt::format("  {:>{}}", s.name, std::max<std::size_t>(8, s.name.size()));
    out += fmt::format("  {:>9}\n", "fit s");
    for (const auto& f : r.folds) {
      out += fmt::format("{:>5}  {:>6}  {:>6}  {:>6}", f.split, f.repeat, f.train_rows, f.test_rows);
      for (std::size_t m = 0; m < r.summary.size(); ++m) {
        const auto& v = f.test[m];
        out += fmt::format("  {:>{}}", v.defined() ? fmt::format("{:.4f}", v.v) : "undef",
                           std::max<std::size_t>(8, r.summary[m].name.size()));
      }
      out += fmt::format("  {:>9.4f}\n", f.fit_seconds);
    }
  }
  for (const auto& s : r.summary) {
    if (!s.pooled.defined()) out += fmt::format("note: pooled {} is {}\n", s.name, show(s.pooled));
  }
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  return out;
}

std::string to_json(const cv_result& r) {
  nlohmann::json j;
  j["learner"] = r.learner;
  j["task"] = r.classification ? "classification" : "regression";
  if (r.classification) j["classes"] = r.classes;
  if (r.positive) j["positive"] = r.classes[*r.positive];
  j["splits"] = r.folds.size();
  j["repeats"] = r.repeats;
  j["threads"] = r.threads;
  j["seconds"] = r.seconds;
  auto& summary = j["summary"] = nlohmann::json::object();
  for (std::size_t k = 0; k < r.summary.size(); ++k) {
    const auto& s = r.summary[k];
    const auto [lo, hi] = corrected_mean_interval(r, k);
    nlohmann::json m{{"mean", json_value(s.mean)},
                     {"sd", json_value(s.sd)},
                     {"pooled", json_value(s.pooled)},
                     {"mean_ci_95", lo.defined() ? nlohmann::json::array({lo.v, hi.v}) : nlohmann::json(nullptr)},
                     {"defined_splits", s.defined},
                     {"higher_is_better", s.higher_is_better}};
    if (!lo.defined()) m["mean_ci_95_undefined"] = lo.reason;
    for (auto [key, v] : {std::pair{"mean", &s.mean}, {"sd", &s.sd}, {"pooled", &s.pooled}})
      if (!v->defined()) m[std::string(key) + "_undefined"] = v->reason;
    summary[s.name] = m;
  }
  auto& folds = j["folds"] = nlohmann::json::array();
  for (const auto& f : r.folds) {
    nlohmann::json o{{"split", f.split},
                     {"repeat", f.repeat},
                     {"train_rows", f.train_rows},
                     {"test_rows", f.test_rows},
                     {"fit_seconds", f.fit_seconds},
                     {"predict_seconds", f.predict_seconds},
                     {"cpu_seconds", f.cpu_seconds},
                     {"model_cpu_seconds", f.model_cpu_seconds},
                     {"encode_cpu_seconds", f.encode_cpu_seconds}};
    for (std::size_t m = 0; m < r.summary.size(); ++m) {
      o["test"][r.summary[m].name] = json_value(f.test[m]);
      if (!f.train.empty()) o["train"][r.summary[m].name] = json_value(f.train[m]);
    }
    folds.push_back(o);
  }
  j["notes"] = r.notes;
  return j.dump(2) + "\n";
}

}  // namespace assay::validation
