// The JSON report; schema in docs/report-json.md.
#include <cmath>
#include <nlohmann/json.hpp>

#include "assay/report/report.hpp"
#include "operating_json.hpp"

namespace assay {

namespace {

using json = nlohmann::ordered_json;

// A number, or null; the reason goes under "<key>_undefined".
void put(json& j, const std::string& key, const value& v) {
  if (v.defined()) {
    j[key] = v.v;
  } else {
    j[key] = nullptr;
    j[key + "_undefined"] = v.reason;
  }
}

json averages(const averaged& a, double support, const ranking_average* ranking = nullptr) {
  json j;
  put(j, "precision", a.precision);
  put(j, "recall", a.recall);
  put(j, "f1", a.f1);
  put(j, "fp_rate", a.fp_rate);
  if (ranking != nullptr) {
    put(j, "roc_auc", ranking->roc_auc);
    put(j, "average_precision", ranking->average_precision);
  }
  j["support"] = support;
  return j;
}

// The interval of number `name` (the headline's and the per-class areas' one spelling):
// "<name>_ci": [lower, upper] or null with "<name>_ci_undefined", and "<name>_ci_method".
void put_ci(json& j, const std::string& name, const std::optional<confidence_interval>& ci) {
  if (!ci) return;
  if (ci->lower.defined() && ci->upper.defined()) {
    j[name + "_ci"] = {ci->lower.v, ci->upper.v};
  } else {
    j[name + "_ci"] = nullptr;
    j[name + "_ci_undefined"] = ci->lower.defined() ? ci->upper.reason : ci->lower.reason;
  }
  j[name + "_ci_method"] = ci->method;
}

}  // namespace

std::string to_json(const report& r) {
  json j;
  j["assay_version"] = ASSAY_VERSION;
  j["source"] = r.source;
  j["task"] = task_name(r.task);
  j["n"] = r.rows;
  if (r.missing) j["missing"] = *r.missing;
  j["weighted"] = r.weighted;
  if (r.weighted) j["total_weight"] = r.total_weight;
  if (r.task != task_kind::regression) {
    if (r.positive) j["positive_label"] = r.labels[*r.positive];
    if (r.threshold) j["threshold"] = *r.threshold;
    json cm;
    cm["labels"] = r.labels;
    cm["rows"] = "actual";
    cm["columns"] = "predicted";
    const std::size_t K = r.labels.size();
    json m = json::array(), norm = json::array();
    const auto rn = r.cm.row_normalised();
    for (std::size_t i = 0; i < K; ++i) {
      json row = json::array(), nrow = json::array();
      for (std::size_t k = 0; k < K; ++k) {
        row.push_back(r.cm(i, k));
        if (std::isnan(rn[i * K + k])) nrow.push_back(nullptr);
        else nrow.push_back(rn[i * K + k]);
      }
      m.push_back(row);
      norm.push_back(nrow);
    }
    cm["matrix"] = m;
    cm["normalized"] = norm;
    j["confusion_matrix"] = cm;
  }
  if (r.ci_level) j["ci_level"] = *r.ci_level;
  for (const auto& mr : r.metrics) {
    put(j, mr.name, mr.v);
    put_ci(j, mr.name, mr.ci);
  }
  if (r.operating_points) {  // the same spelling as `assay curve threshold`'s "best" object
    json op = json::object();
    curves::detail::add_constrained_json(op, *r.operating_points);
    j["operating_points"] = op;
  }
  if (r.task != task_kind::regression) {
    json pc = json::object();
    for (std::size_t k = 0; k < r.per_class.size(); ++k) {
      const auto& c = r.per_class[k];
      json e;
      put(e, "precision", c.precision);
      put(e, "recall", c.recall);
      put(e, "f1", c.f1);
      put(e, "tp_rate", c.tp_rate);
      put(e, "fp_rate", c.fp_rate);
      put(e, "matthews_corrcoef", c.mcc);
      if (k < r.by_class.size()) {
        const auto& d = r.by_class[k];
        put(e, "sensitivity", d.sensitivity);
        put(e, "specificity", d.specificity);
        put(e, "ppv", d.ppv);
        put(e, "npv", d.npv);
        put(e, "prevalence", d.prevalence);
        put(e, "detection_rate", d.detection_rate);
        put(e, "detection_prevalence", d.detection_prevalence);
        put(e, "balanced_accuracy", d.balanced_accuracy);
        put(e, "roc_auc", d.roc_auc);
        put_ci(e, "roc_auc", d.roc_auc_ci);
        put(e, "average_precision", d.average_precision);
        put_ci(e, "average_precision", d.average_precision_ci);
      }
      e["support"] = c.support;
      pc[r.labels[k]] = e;
    }
    j["per_class"] = pc;
    j["micro_avg"] = averages(r.micro, r.total_weight);
    j["macro_avg"] = averages(r.macro, r.total_weight, &r.macro_ranking);
    j["weighted_avg"] = averages(r.weighted_avg, r.total_weight, &r.weighted_ranking);
    j["zero_division"] = r.zd == zero_division::zero ? "0" : r.zd == zero_division::one ? "1" : "skip";
  }
  if (!r.notes.empty()) j["notes"] = r.notes;
  return j.dump(2) + "\n";
}

}  // namespace assay
