// Threshold sweep and reliability curve kept for the HTML page; see src/report/kept_curves.hpp.
#include "kept_curves.hpp"

#include <algorithm>
#include <cmath>

#include "assay/curves/calibration.hpp"
#include "assay/curves/multiclass.hpp"
#include "assay/curves/threshold.hpp"

namespace assay::detail {

std::size_t thinned_index(std::size_t k, std::size_t n, std::size_t m) { return m <= 1 ? 0 : k * (n - 1) / (m - 1); }

void set_proportion_band(curve_sample& c, const std::function<std::pair<double, double>(std::size_t)>& counts,
                         double level, stats::proportion_method method) {
  const std::size_t m = c.x.size();
  c.y_lo.assign(m, std::nan(""));
  c.y_hi.assign(m, std::nan(""));
  c.band_method = std::string(stats::to_string(method));
  for (std::size_t k = 0; k < m; ++k) {
    auto [x, n] = counts(thinned_index(k, c.points, m));
    if (!(n > 0) || !std::isfinite(n)) continue;
    x = std::clamp(x, 0.0, n);  // guards a rounding step of summed weights
    const stats::proportion_interval ci = stats::proportion_ci(x, n, level, method);
    c.y_lo[k] = ci.lower;
    c.y_hi[k] = ci.upper;
  }
}

threshold_sample keep_threshold_sweep(const curves::score_sweep& sw) {
  // A subsequence of a sweep's entries is a sweep with the same counts at the kept thresholds, so
  // the existing functions give exact values there while the page stays small.
  curves::score_sweep thin;
  thin.positives = sw.positives;
  thin.negatives = sw.negatives;
  const std::size_t n = sw.size(), m = std::min(n, curve_sample::max_points);
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t i = thinned_index(k, n, m);
    thin.thresholds.push_back(sw.thresholds[i]);
    thin.tp.push_back(sw.tp[i]);
    thin.fp.push_back(sw.fp[i]);
  }
  return keep_threshold_sample(thin, n, curves::best_fbeta(sw, 1), curves::best_youden(sw));
}

threshold_sample keep_threshold_sample(const curves::score_sweep& thin, std::size_t n,
                                       const curves::operating_point& f1, const curves::operating_point& j) {
  const curves::threshold_table t = curves::threshold_counts(thin);
  const std::vector<double> x(t.thresholds.begin() + 1, t.thresholds.end());  // without +inf
  const auto sample = [&](const char* metric) {
    const std::vector<value> v = curves::metric_vs_threshold(t, metric);
    curve_sample c;
    c.x = x;
    for (std::size_t k = 1; k < v.size(); ++k) c.y.push_back(v[k].defined() ? v[k].v : std::nan(""));
    c.points = n;
    return c;
  };
  threshold_sample s{sample("f1"), sample("precision"), sample("recall"), sample("fpr"), {}, {}, {}, {}, {}};
  if (f1.criterion.defined() && std::isfinite(f1.threshold))
    s.max_f1_threshold = f1.threshold, s.max_f1 = f1.criterion.v;
  if (j.criterion.defined() && std::isfinite(j.threshold)) {
    s.youden_threshold = j.threshold, s.youden_tpr = j.tpr, s.youden_fpr = j.fpr;
  }
  return s;
}

calibration_sample keep_calibration(std::span<const std::int32_t> y, std::span<const double> prob,
                                    std::span<const double> weight) {
  calibration_sample c;
  const curves::reliability_result r = curves::reliability_curve(y, prob, weight, c.bins);
  c.prob_pred = r.prob_pred, c.prob_true = r.prob_true, c.weight = r.weight;
  c.ece = curves::expected_calibration_error(r);
  return c;
}

calibration_sample keep_top_label_calibration(std::span<const std::int32_t> y, proba_view p,
                                              std::span<const double> weight) {
  calibration_sample c;
  c.top_label = true;
  const curves::reliability_result r = curves::top_label_reliability_curve(y, p, weight, c.bins);
  c.prob_pred = r.prob_pred, c.prob_true = r.prob_true, c.weight = r.weight;
  c.ece = curves::expected_calibration_error(r);
  return c;
}

}  // namespace assay::detail
