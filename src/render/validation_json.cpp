// The JSON renderings of the validation commands' results (the `--format json` of cv, learning-curve,
// validation-curve, permutation-test, bias-variance, lesion, compare-learners and nested-cv). An
// undefined number is null.
#include <nlohmann/json.hpp>

#include "assay/validation/bias_variance.hpp"
#include "assay/validation/compare_learners.hpp"
#include "assay/validation/engine.hpp"
#include "assay/validation/learning_curve.hpp"
#include "assay/validation/lesion.hpp"
#include "assay/validation/nested.hpp"
#include "assay/validation/permutation.hpp"
#include "assay/validation/validation_curve.hpp"
#include "json_values.hpp"

namespace assay::validation {

using render::json_number;
using render::json_value;

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

std::string to_json(const bias_variance_result& r) {
  return nlohmann::json{{"learner", r.learner},
                        {"loss", r.loss},
                        {"rounds", r.rounds},
                        {"train_rows", r.train_rows},
                        {"test_rows", r.test_rows},
                        {"expected_loss", r.expected_loss},
                        {"bias", r.bias},
                        {"variance", r.variance},
                        {"net_variance", r.net_variance}}
             .dump(2) +
         "\n";
}

std::string to_json(const learner_comparison& r) {
  auto jt = [&](const t_test& t) {
    return nlohmann::json{{"t", json_value(t.t)}, {"df", json_value(t.df)}, {"p_value", json_value(t.p_value)}};
  };
  return nlohmann::json{{"learner_a", r.learner_a},
                        {"learner_b", r.learner_b},
                        {"metric", r.metric},
                        {"scores_a", r.a},
                        {"scores_b", r.b},
                        {"mean_difference", r.tests.mean_difference},
                        {"paired_t", jt(r.tests.paired)},
                        {"corrected_resampled_t", jt(r.tests.corrected)},
                        {"five_by_two_cv_t", jt(r.tests.five_by_two)}}
             .dump(2) +
         "\n";
}

std::string to_json(const learning_curve_result& r) {
  nlohmann::json j;
  j["learner"] = r.learner;
  j["splits"] = r.splits;
  for (const auto& p : r.points) {
    nlohmann::json o{{"share", p.share}, {"train_rows", p.train_rows}};
    for (std::size_t m = 0; m < p.test.size(); ++m) {
      o["test"][p.test[m].name] = {{"mean", json_value(p.test[m].mean)}, {"sd", json_value(p.test[m].sd)}};
      o["train"][p.train[m].name] = {{"mean", json_value(p.train[m].mean)}, {"sd", json_value(p.train[m].sd)}};
    }
    j["points"].push_back(o);
  }
  return j.dump(2) + "\n";
}

std::string to_json(const lesion_result& r) {
  nlohmann::json j{{"learner", r.learner},
                   {"metric", r.metric},
                   {"confidence", r.confidence},
                   {"splits", r.splits},
                   {"full", json_value(r.full)}};
  auto& a = j["groups"] = nlohmann::json::array();
  for (const auto& e : r.entries) {
    a.push_back({{"name", e.group.name},
                 {"columns", e.group.columns},
                 {"score", json_value(e.lesioned)},
                 {"drop", json_number(e.drop)},
                 {"sd", json_value(e.sd)},
                 {"low", json_value(e.low)},
                 {"high", json_value(e.high)}});
  }
  return j.dump(2) + "\n";
}

std::string to_json(const nested_cv_result& r) {
  nlohmann::json j{{"learner", r.learner}, {"param", r.param},           {"metric", r.metric},    {"values", r.values},
                   {"chosen", r.chosen},   {"mean", json_value(r.summary.mean)}, {"sd", json_value(r.summary.sd)}};
  for (std::size_t s = 0; s < r.outer.size(); ++s) {
    nlohmann::json in = nlohmann::json::array();
    for (const auto& m : r.inner[s]) in.push_back(json_value(m));
    j["outer"].push_back({{"split", s}, {"chosen", r.chosen[s]}, {"score", json_value(r.outer[s])}, {"inner_means", in}});
  }
  return j.dump(2) + "\n";
}

std::string to_json(const permutation_result& r) {
  nlohmann::json j{{"learner", r.learner},
                   {"metric", r.metric},
                   {"score", r.score},
                   {"p_value", r.p_value},
                   {"permutations", r.permuted.size()}};
  auto& a = j["permuted_scores"] = nlohmann::json::array();
  for (double s : r.permuted) a.push_back(json_number(s));
  return j.dump(2) + "\n";
}

std::string to_json(const validation_curve_result& r) {
  nlohmann::json j{{"learner", r.learner}, {"param", r.param}, {"splits", r.splits}};
  j["points"] = nlohmann::json::array();
  for (const auto& p : r.points) {
    nlohmann::json o{{"value", p.value}};
    for (std::size_t m = 0; m < p.test.size(); ++m) {
      o["test"][p.test[m].name] = {{"mean", json_value(p.test[m].mean)}, {"sd", json_value(p.test[m].sd)}};
      o["train"][p.train[m].name] = {{"mean", json_value(p.train[m].mean)}, {"sd", json_value(p.train[m].sd)}};
    }
    j["points"].push_back(o);
  }
  return j.dump(2) + "\n";
}

}  // namespace assay::validation
