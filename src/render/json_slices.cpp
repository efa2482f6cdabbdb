// The JSON sliced report; schema in docs/report-json.md ("Sliced report").
#include <cmath>
#include <nlohmann/json.hpp>

#include "assay/report/slices.hpp"

namespace assay {

namespace {

using json = nlohmann::ordered_json;

void put(json& j, const std::string& key, const value& v) {
  if (v.defined() && std::isfinite(v.v)) {
    j[key] = v.v;
  } else if (v.defined()) {  // an infinite statistic (a zero standard error)
    j[key] = v.v > 0 ? "inf" : "-inf";
  } else {
    j[key] = nullptr;
    j[key + "_undefined"] = v.reason;
  }
}

}  // namespace

std::string to_json(const sliced_report& r) {
  json j;
  j["assay_version"] = ASSAY_VERSION;
  j["by"] = r.by;
  j["p_adjust"] = std::string(stats::to_string(r.p_adjust));
  j["min_rows"] = r.min_rows;
  j["overall"] = json::parse(to_json(r.overall));
  json slices = json::array();
  for (const auto& s : r.slices) {
    json e;
    e["key"] = s.key;
    e["rows"] = s.rows;
    if (s.r) {
      e["report"] = json::parse(to_json(*s.r));
    } else {
      e["report"] = nullptr;
      e["report_undefined"] = s.reason;
    }
    slices.push_back(std::move(e));
  }
  j["slices"] = std::move(slices);
  json metrics = json::array();
  for (const auto& m : r.metrics) {
    json e;
    e["name"] = m.name;
    e["title"] = m.title;
    put(e, "overall", m.overall);
    e["test"] = m.test;
    json rows = json::array();
    for (const auto& row : m.rows) {
      json x;
      x["slice"] = row.slice;
      x["key"] = r.slices[row.slice].key;
      put(x, "value", row.v);
      if (row.ci) {
        if (row.ci->lower.defined() && row.ci->upper.defined()) {
          x["ci"] = {row.ci->lower.v, row.ci->upper.v};
        } else {
          x["ci"] = nullptr;
          x["ci_undefined"] = row.ci->lower.defined() ? row.ci->upper.reason : row.ci->lower.reason;
        }
      }
      if (m.test == "two_proportion_z") {
        x["successes"] = row.successes;
        x["trials"] = row.trials;
      }
      put(x, "statistic", row.statistic);
      if (!std::isnan(row.df)) x["df"] = row.df;
      put(x, "p_value", row.p_value);
      put(x, "p_adjusted", row.p_adjusted);
      rows.push_back(std::move(x));
    }
    e["slices"] = std::move(rows);
    if (m.chi2) {
      json h;
      put(h, "statistic", *m.chi2);
      h["df"] = m.chi2_df;
      put(h, "p_value", *m.chi2_p);
      e["homogeneity_chi2"] = std::move(h);
    }
    metrics.push_back(std::move(e));
  }
  j["metrics"] = std::move(metrics);
  if (!r.notes.empty()) j["notes"] = r.notes;
  return j.dump(2) + "\n";
}

}  // namespace assay
