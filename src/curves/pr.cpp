// Precision-recall curves and average precision; see include/assay/curves/pr.hpp.
#include "assay/curves/pr.hpp"

#include "assay/curves/accumulate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "assay/error.hpp"

namespace assay::curves {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

value no_positives() { return value::undefined("no positive cases: recall is undefined"); }

// Precision at sweep entry k (tp + fp > 0 always holds, since weight-0 cases are not in the sweep).
double precision_at(const score_sweep& sw, std::size_t k) { return sw.tp[k] / (sw.tp[k] + sw.fp[k]); }

// Interpolated precision: env[k] = max_{m >= k} precision(m), in sweep order (recall non-decreasing).
std::vector<double> envelope(const score_sweep& sw) {
  std::vector<double> env(sw.size());
  double best = 0;
  for (std::size_t k = sw.size(); k-- > 0;) {
    best = std::max(best, precision_at(sw, k));
    env[k] = best;
  }
  return env;
}

// Mean over t = i / n, i = 0..n, of the highest precision with recall >= t (0 when none).
double sampled_ap(const score_sweep& sw, int n) {
  const std::vector<double> env = envelope(sw);
  double sum = 0;
  std::size_t k = 0;
  for (int i = 0; i <= n; ++i) {
    const double t = static_cast<double>(i) / n;
    while (k < sw.size() && sw.tp[k] / sw.positives < t) ++k;
    if (k < sw.size()) sum += env[k];
  }
  return sum / (n + 1);
}

// The two axes of the precision-recall plane.
enum class pr_axis { precision, recall };

const char* axis_name(pr_axis a) { return a == pr_axis::precision ? "precision" : "recall"; }

// The one scan behind precision_at_recall and recall_at_precision: among sweep entries whose value on
// the `bound` axis is >= `floor`, the entry with the highest value on the other axis (the first, i.e.
// highest threshold, on ties). Undefined when no positive case exists or no entry reaches `floor`.
pr_point best_pr_point(const score_sweep& sw, const char* caller, pr_axis bound, double floor) {
  if (!(floor >= 0 && floor <= 1)) {
    throw_usage(fmt::format("{}: {} {} is not in [0, 1]", caller, axis_name(bound), floor));
  }
  pr_point out;
  out.threshold = nan;
  if (sw.positives == 0) {
    out.v = no_positives();
    return out;
  }
  double best = -1;
  for (std::size_t k = 0; k < sw.size(); ++k) {
    const double p = precision_at(sw, k), r = sw.tp[k] / sw.positives;
    const double bounded = bound == pr_axis::recall ? r : p, maximised = bound == pr_axis::recall ? p : r;
    if (bounded < floor) continue;
    if (maximised > best) best = maximised, out.threshold = sw.thresholds[k], out.precision = p, out.recall = r;
  }
  // With a recall bound, recall 1 is always reached at the lowest threshold, so best >= 0 there.
  if (best < 0) out.v = value::undefined(fmt::format("no threshold reaches {} {}", axis_name(bound), floor));
  else out.v = value(best);
  return out;
}

}  // namespace

pr_curve_result precision_recall_curve(const score_sweep& sw) {
  pr_curve_result r;
  const std::size_t m = sw.size();
  r.precision.resize(m + 1);
  r.recall.resize(m + 1);
  r.thresholds.resize(m);
  const double np = sw.positives;
  for (std::size_t j = 0; j < m; ++j) {
    const std::size_t k = m - 1 - j;  // increasing thresholds
    r.precision[j] = precision_at(sw, k);
    r.recall[j] = np > 0 ? sw.tp[k] / np : nan;
    r.thresholds[j] = sw.thresholds[k];
  }
  r.precision[m] = 1;
  r.recall[m] = 0;
  if (sw.positives == 0) r.undefined = "no positive cases: recall is undefined";
  return r;
}

pr_curve_result precision_recall_curve(std::span<const std::int32_t> y, std::span<const double> score,
                                       std::span<const double> weight) {
  return precision_recall_curve(sweep_scores("precision_recall_curve", y, score, weight));
}

ap_variant parse_ap_variant(std::string_view name, std::string_view option) {
  if (name == "step") return ap_variant::step;
  if (name == "all_point") return ap_variant::all_point;
  if (name == "voc11") return ap_variant::voc11;
  if (name == "coco101") return ap_variant::coco101;
  throw_usage(fmt::format("{}: unknown average-precision variant \"{}\" (step, all_point, voc11, coco101)", option, name));
}

const char* ap_variant_name(ap_variant v) {
  switch (v) {
    case ap_variant::step: return "step";
    case ap_variant::all_point: return "all_point";
    case ap_variant::voc11: return "voc11";
    case ap_variant::coco101: return "coco101";
  }
  return "?";
}

value average_precision(const score_sweep& sw, ap_variant variant) {
  if (sw.positives == 0) return no_positives();
  switch (variant) {
    case ap_variant::step:
    case ap_variant::all_point: {
      if (variant == ap_variant::step) {
        ap_step_sum step;
        for (std::size_t k = 0; k < sw.size(); ++k) step.add(sw.tp[k], sw.fp[k], sw.positives);
        return value(step.sum);
      }
      const std::vector<double> env = envelope(sw);
      double sum = 0, r0 = 0;
      for (std::size_t k = 0; k < sw.size(); ++k) {
        const double r = sw.tp[k] / sw.positives;
        const double p = env.empty() ? precision_at(sw, k) : env[k];
        sum += (r - r0) * p;
        r0 = r;
      }
      return value(sum);
    }
    case ap_variant::voc11: return value(sampled_ap(sw, 10));
    case ap_variant::coco101: return value(sampled_ap(sw, 100));
  }
  return no_positives();
}

value average_precision(std::span<const std::int32_t> y, std::span<const double> score,
                        std::span<const double> weight, ap_variant variant) {
  return average_precision(sweep_scores("average_precision", y, score, weight), variant);
}

pr_point precision_at_recall(const score_sweep& sw, double recall) {
  return best_pr_point(sw, "precision_at_recall", pr_axis::recall, recall);
}

pr_point recall_at_precision(const score_sweep& sw, double precision) {
  return best_pr_point(sw, "recall_at_precision", pr_axis::precision, precision);
}

value break_even_point(const score_sweep& sw) {
  if (sw.positives == 0) return no_positives();
  const double target = sw.positives;  // predicted-positive weight at the break-even cut
  double tp0 = 0, pp0 = 0;
  for (std::size_t k = 0; k < sw.size(); ++k) {
    const double pp = sw.tp[k] + sw.fp[k];
    if (pp >= target) {
      const double frac = (target - pp0) / (pp - pp0);
      const double tp = tp0 + (sw.tp[k] - tp0) * frac;
      return value(tp / target);
    }
    tp0 = sw.tp[k];
    pp0 = pp;
  }
  return value(tp0 / target);  // unreachable: the last cut predicts everything, pp >= P
}

}  // namespace assay::curves
