// assay: the JSON of operating points (best and constrained thresholds, the Neyman-Pearson umbrella
// threshold), shared by `assay curve threshold` (src/render/curve_documents.cpp) and the report
// (src/render/json.cpp), so both documents spell a point the same way. Private to the library; the schema is in
// docs/curves.md ("best") and docs/report-json.md ("operating_points").
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "assay/curves/threshold.hpp"

namespace assay::curves::detail {

/// A double, or null when not finite.
template <class Json>
Json json_number(double x) {
  return std::isfinite(x) ? Json(x) : Json(nullptr);
}

/// o[key] = the number, or null and o[key + "_undefined"] = the reason.
template <class Json>
void put_value(Json& o, const std::string& key, const value& v) {
  o[key] = v.defined() ? json_number<Json>(v.v) : Json(nullptr);
  if (!v.defined()) o[key + "_undefined"] = v.reason;
}

/// value (the criterion), threshold (null and threshold_is_infinite for "nothing positive"), the ROC
/// point and the four counts.
template <class Json>
Json point_json(const operating_point& p) {
  Json o;
  put_value(o, "value", p.criterion);
  o["threshold"] = json_number<Json>(p.threshold);
  if (std::isinf(p.threshold)) o["threshold_is_infinite"] = true;
  o["fpr"] = json_number<Json>(p.fpr);
  o["tpr"] = json_number<Json>(p.tpr);
  o["tp"] = p.counts.tp, o["fp"] = p.counts.fp, o["fn"] = p.counts.fn, o["tn"] = p.counts.tn;
  return o;
}

/// A constrained point: the point, the bound and constraint, the objective's name, the constrained
/// quantity at the threshold, and the remaining rates (precision, specificity, FNR) when defined.
template <class Json>
Json constrained_json(const constrained_point& c) {
  static constexpr const char* objective[] = {"tpr", "specificity", "recall", "precision"};
  static constexpr const char* constrained[] = {"fpr", "tpr", "precision", "recall"};
  const int i = static_cast<int>(c.kind);
  Json o = point_json<Json>(c.point);
  o["bound"] = c.bound;
  o["constraint"] = fmt::format("{} {} {}", constrained[i], c.kind == constraint_kind::max_fpr ? "<=" : ">=", c.bound);
  o["objective"] = objective[i];
  put_value(o, constrained[i] + std::string("_at_threshold"), c.constrained);
  const double P = c.point.counts.tp + c.point.counts.fn, N = c.point.counts.fp + c.point.counts.tn;
  if (c.point.criterion.defined()) {
    const double pp = c.point.counts.tp + c.point.counts.fp;
    o["precision"] = pp > 0 ? Json(c.point.counts.tp / pp) : Json(nullptr);
    o["specificity"] = N > 0 ? Json(c.point.counts.tn / N) : Json(nullptr);
    o["fnr"] = P > 0 ? Json(c.point.counts.fn / P) : Json(nullptr);
  }
  return o;
}

/// The umbrella threshold: the point at "score > order statistic", alpha, confidence, the negatives
/// it had and needs, k and the violation bound.
template <class Json>
Json umbrella_json(const np_umbrella_result& u) {
  Json o = point_json<Json>(u.point);
  o["rule"] = "positive when score > order_statistic (threshold is the next double above it)";
  o["alpha"] = u.alpha;
  o["confidence"] = 1 - u.delta;
  o["negatives"] = u.negatives;
  o["min_negatives"] = u.min_negatives;
  put_value(o, "order_statistic", u.order_statistic);
  o["k"] = u.k;
  put_value(o, "violation_bound", u.violation_bound);
  return o;
}

/// Adds each constrained point under its constraint's name ("max_fpr", ...) and the umbrella
/// threshold under "np_umbrella" to `o`.
template <class Json>
void add_constrained_json(Json& o, const constrained_points& cp) {
  for (const constrained_point& c : cp.points) o[std::string(to_string(c.kind))] = constrained_json<Json>(c);
  if (cp.umbrella) o["np_umbrella"] = umbrella_json<Json>(*cp.umbrella);
  if (cp.umbrella_undefined) {
    Json u;
    u["value"] = nullptr;
    u["value_undefined"] = *cp.umbrella_undefined;
    o["np_umbrella"] = u;
  }
}

}  // namespace assay::curves::detail
