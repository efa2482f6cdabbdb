// The multiclass parts of `assay curve`; see src/render/curve_top_label.hpp.
#include "curve_top_label.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "assay/curves/multiclass.hpp"

namespace assay::curves::detail {

namespace {

std::string shortest(double x) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

}  // namespace

void add_top_label_calibration(const multiclass_rows& rows, const curve_options& q, nlohmann::json& j, std::string& csv,
                               plot::chart& chart) {
  const proba_view pv = proba_view::matrix(rows.proba, rows.classes->size());
  const reliability_result r = top_label_reliability_curve(rows.y, pv, rows.weight, q.bins, q.strategy);
  const value ece = expected_calibration_error(r);
  nlohmann::json o;
  o["variant"] =
      "top-label (confidence) calibration, Guo et al. 2017: prediction = argmax (first of equal maxima), "
      "prob_pred = mean max probability, prob_true = accuracy";
  o["prob_pred"] = r.prob_pred;
  o["prob_true"] = r.prob_true;
  o["weight"] = r.weight;
  o["edges"] = r.edges;
  if (ece.defined()) {
    o["expected_calibration_error"] = ece.v;
  } else {
    o["expected_calibration_error"] = nullptr;
    o["expected_calibration_error_undefined"] = ece.reason;
  }
  j["top_label"] = o;
  for (std::size_t k = 0; k < r.prob_true.size(); ++k) {
    csv +=
        fmt::format("top-label,{},{},{}\n", shortest(r.prob_pred[k]), shortest(r.prob_true[k]), shortest(r.weight[k]));
  }
  plot::series s;
  s.name = fmt::format("top-label (ECE {})", ece.defined() ? fmt::format("{:.3f}", ece.v) : "undefined");
  s.x = r.prob_pred;
  s.y = r.prob_true;
  s.markers = true;
  chart.lines.push_back(std::move(s));
  chart.title = "Reliability diagram: one-vs-rest per class and top-label";
}

}  // namespace assay::curves::detail
