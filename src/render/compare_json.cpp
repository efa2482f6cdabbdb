// The JSON renderings of `assay compare --format json`: k models on the same cases (model_comparison)
// and one model on two independent samples (sample_comparison). An undefined number is null.
#include <nlohmann/json.hpp>

#include "assay/stats/compare_models.hpp"
#include "assay/stats/compare_samples.hpp"
#include "json_values.hpp"

namespace assay::stats {

namespace {

using render::json_number;
using render::json_value;

nlohmann::json jv(double v) { return render::json_number(v); }
nlohmann::json jv(const value& v) { return render::json_finite(v); }

nlohmann::json delong_json(const pair_comparison& p, bool adjusted) {
  const auto& d = p.delong;
  nlohmann::json j = {{"method", d.test.method},
                      {"auc_difference", d.difference},
                      {"std_error", d.std_error},
                      {"z", json_number(d.test.statistic)},
                      {"p_value", d.test.p_value},
                      {"diff_ci", {json_value(d.diff_lower), json_value(d.diff_upper)}},
                      {"level", d.level}};
  if (adjusted) j["p_value_adjusted"] = p.delong_p_adjusted;
  return j;
}

nlohmann::json mcnemar_json(const pair_comparison& p, bool adjusted) {
  nlohmann::json j = {{"method", "exact"},
                      {"statistic", p.mcnemar.statistic},
                      {"p_value", p.mcnemar.p_value},
                      {"n01", p.counts.n01},
                      {"n10", p.counts.n10},
                      {"n11", p.counts.n11},
                      {"n00", p.counts.n00}};
  if (adjusted) j["p_value_adjusted"] = p.mcnemar_p_adjusted;
  return j;
}

void add_metric_tests(nlohmann::json& j, const model_comparison& c, const pair_comparison& p, bool adjusted) {
  if (p.metrics.empty()) return;
  nlohmann::json boot = nlohmann::json::array(), perm = nlohmann::json::array();
  for (const auto& m : p.metrics) {
    const auto& d = m.bootstrap.difference;
    nlohmann::json b = {{"metric", m.metric},
                        {"estimate_a", m.bootstrap.estimate_a},
                        {"estimate_b", m.bootstrap.estimate_b},
                        {"diff", d.estimate},
                        {"diff_ci", {json_value(d.lower), json_value(d.upper)}},
                        {"ci_method", "percentile"},
                        {"level", d.level},
                        {"std_error", d.std_error},
                        {"z", json_number(m.bootstrap.test.statistic)},
                        {"p_value", m.bootstrap.test.p_value},
                        {"p_value_method", m.bootstrap.test.method},
                        {"replicates", d.replicates},
                        {"undefined_replicates", d.undefined_replicates},
                        {"stratified", true},
                        {"seed", c.options.seed}};
    nlohmann::json q = {{"metric", m.metric},
                        {"diff", m.permutation.observed},
                        {"p_value", m.permutation.p_value},
                        {"extreme", m.permutation.extreme},
                        {"permutations", m.permutation.permutations},
                        {"alternative", "two-sided"},
                        {"seed", c.options.seed}};
    if (adjusted) {
      b["p_value_adjusted"] = m.bootstrap_p_adjusted;
      q["p_value_adjusted"] = m.permutation_p_adjusted;
    }
    boot.push_back(std::move(b));
    perm.push_back(std::move(q));
  }
  j["paired_bootstrap"] = std::move(boot);
  j["permutation"] = std::move(perm);
}

}  // namespace

std::string to_json(const model_comparison& c) {
  nlohmann::json j;
  j["source"] = c.source;
  j["n"] = c.n;
  j["task"] = c.multiclass ? "multiclass" : "binary";
  if (!c.label.empty()) j["label"] = c.label;
  if (c.multiclass) {
    j["n_classes"] = c.classes.size();
    j["classes"] = nlohmann::json::array();
    for (std::size_t k = 0; k < c.classes.size(); ++k) {
      j["classes"].push_back({{"class", c.classes[k]}, {"n", c.class_counts[k]}});
    }
  } else {
    if (!c.positive.empty()) j["positive_class"] = c.positive;
    j["n_positive"] = c.n_pos;
    j["n_negative"] = c.n_neg;
  }
  j["alpha"] = c.options.alpha;
  j["input"] = c.scores ? "score" : "pred";
  if (c.scores) j["threshold"] = c.options.threshold;
  for (const auto& m : c.models) {
    nlohmann::json o = {{"name", m.name}};
    if (m.has_auc) {
      o["auc"] = json_value(m.auc.auc);
      o["auc_ci"] = {json_value(m.auc.lower), json_value(m.auc.upper)};
      o["auc_ci_method"] = "delong";
    }
    o["accuracy"] = m.accuracy.estimate;
    o["accuracy_ci"] = {m.accuracy.lower, m.accuracy.upper};
    o["accuracy_ci_method"] = "wilson";
    o["correct"] = m.correct;
    if (c.multiclass) {
      o["unknown_predictions"] = m.unknown;
      o["unknown_classes"] = m.unknown_classes;
    }
    j["models"].push_back(std::move(o));
  }
  if (c.pairs.size() == 1) {
    const auto& p = c.pairs[0];
    if (p.has_delong) j["delong"] = delong_json(p, false);
    j["mcnemar"] = mcnemar_json(p, false);
    add_metric_tests(j, c, p, false);
  } else {
    j["cochrans_q"] = {{"statistic", c.cochran.statistic}, {"df", c.cochran.df}, {"p_value", c.cochran.p_value}};
    j["p_adjust"] = to_string(c.options.adjust);
    for (const auto& p : c.pairs) {
      nlohmann::json o = {{"a", c.models[p.a].name}, {"b", c.models[p.b].name}};
      if (p.has_delong) o["delong"] = delong_json(p, true);
      o["mcnemar"] = mcnemar_json(p, true);
      add_metric_tests(o, c, p, true);
      j["pairs"].push_back(std::move(o));
    }
  }
  j["verdict"] = c.verdict;
  return j.dump(2) + "\n";
}

std::string to_json(const sample_comparison& c) {
  nlohmann::json j;
  j["design"] = "two independent samples";
  j["label"] = c.label;
  if (!c.sample_column.empty()) j["sample_column"] = c.sample_column;
  j["task"] = c.multiclass ? "multiclass" : "binary";
  j["classes"] = c.classes;
  if (!c.positive.empty()) j["positive_class"] = c.positive;
  j["alpha"] = c.options.alpha;
  j["input"] = c.scores ? "score" : "pred";
  if (c.scores) j["threshold"] = c.options.threshold;
  for (const auto* m : {&c.a, &c.b}) {
    nlohmann::json o = {{"name", m->name}, {"model", m->model}, {"n", m->n}};
    if (!c.multiclass) o["n_positive"] = m->n_pos, o["n_negative"] = m->n_neg;
    o["errors"] = m->errors;
    o["error_rate"] = m->error_rate.estimate;
    o["error_rate_ci"] = {m->error_rate.lower, m->error_rate.upper};
    o["error_rate_ci_method"] = "wilson";
    if (m->has_auc) {
      o["auc"] = jv(m->auc.auc);
      o["auc_ci"] = {jv(m->auc.lower), jv(m->auc.upper)};
      o["auc_ci_method"] = "delong";
    }
    j["samples"].push_back(std::move(o));
  }
  const auto& e = c.error_difference;
  nlohmann::json d = {{"difference", e.difference},
                      {"wald_ci", {e.wald.lower, e.wald.upper}},
                      {"wald_std_error", e.wald_std_error},
                      {"newcombe_ci", {e.newcombe.lower, e.newcombe.upper}},
                      {"level", e.level}};
  d["z_test"] = {{"method", "two_proportion_z_pooled"}, {"z", jv(e.z_test.test.statistic)},
                 {"p_value", jv(e.z_test.test.p_value)}, {"alternative", "two-sided"}};
  if (!e.z_test.undefined.empty()) d["z_test"]["undefined"] = e.z_test.undefined;
  if (e.has_fisher) d["fisher_exact"] = {{"odds_ratio", jv(e.fisher.statistic)}, {"p_value", e.fisher.p_value}, {"alternative", "two-sided"}};
  j["error_rate_difference"] = std::move(d);
  if (c.has_delong) {
    j["delong_unpaired"] = {{"auc_a", c.delong.auc_a},      {"auc_b", c.delong.auc_b},
                            {"difference", c.delong.difference}, {"std_error", c.delong.std_error},
                            {"t", jv(c.delong.test.statistic)},  {"df", jv(c.delong.test.df)},
                            {"p_value", c.delong.test.p_value},  {"alternative", "two-sided"}};
  } else if (c.scores) {
    j["delong_unpaired"] = {{"p_value", nullptr}, {"undefined", c.delong_undefined}};
  }
  j["verdict"] = c.verdict;
  return j.dump(2) + "\n";
}

}  // namespace assay::stats
