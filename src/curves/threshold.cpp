// Threshold analysis, cost curves and rejection curves; see include/assay/curves/threshold.hpp.
#include "assay/curves/threshold.hpp"

#include "assay/curves/accumulate.hpp"

#include <cmath>
#include <fmt/format.h>
#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "assay/error.hpp"
#include "assay/metrics/classification.hpp"
#include "assay/stats/distributions.hpp"

namespace assay::curves {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

value need_both(const score_sweep& sw) {
  if (sw.positives == 0) return value::undefined("no positive cases: the true-positive rate is undefined");
  if (sw.negatives == 0) return value::undefined("no negative cases: the false-positive rate is undefined");
  return {};
}

// Scans the candidate thresholds (nothing positive, then every sweep entry) and keeps the first with
// the best `score(tp, fp)`; `better(a, b)` says a beats b.
template <typename Score, typename Better>
operating_point scan(const score_sweep& sw, Score score, Better better) {
  operating_point best;
  best.threshold = nan;
  best_threshold<Better> b{better};
  b.consider(inf, 0, 0, score(0.0, 0.0));
  for (std::size_t k = 0; k < sw.size(); ++k) b.consider(sw.thresholds[k], sw.tp[k], sw.fp[k], score(sw.tp[k], sw.fp[k]));
  if (b.found) {
    best.threshold = b.threshold;
    best.counts = {b.tp, b.fp, sw.positives - b.tp, sw.negatives - b.fp};
  }
  best.criterion = b.found ? value(b.value) : value::undefined("no threshold gives a defined value");
  best.fpr = sw.negatives > 0 ? best.counts.fp / sw.negatives : nan;
  best.tpr = sw.positives > 0 ? best.counts.tp / sw.positives : nan;
  return best;
}

operating_point undefined_point(value why) {
  operating_point p;
  p.criterion = std::move(why);
  p.threshold = p.fpr = p.tpr = nan;
  return p;
}

}  // namespace

threshold_table threshold_counts(const score_sweep& sw) {
  threshold_table t;
  t.thresholds.reserve(sw.size() + 1);
  t.counts.reserve(sw.size() + 1);
  t.thresholds.push_back(inf);
  t.counts.push_back({0, 0, sw.positives, sw.negatives});
  for (std::size_t k = 0; k < sw.size(); ++k) {
    t.thresholds.push_back(sw.thresholds[k]);
    t.counts.push_back({sw.tp[k], sw.fp[k], sw.positives - sw.tp[k], sw.negatives - sw.fp[k]});
  }
  return t;
}

std::vector<value> metric_vs_threshold(const threshold_table& t, std::string_view metric, const metric_params& params) {
  const metric_info* m = find_metric(metric, metric_kind::binary);
  if (!m) throw_usage(fmt::format("metric_vs_threshold: \"{}\" is not a binary metric of the registry", metric));
  std::vector<value> out;
  out.reserve(t.counts.size());
  for (const auto& c : t.counts) out.push_back(m->binary(c, params));
  return out;
}

operating_point best_youden(const score_sweep& sw) {
  if (value v = need_both(sw); !v.defined()) return undefined_point(v);
  return scan(sw, [&](double tp, double fp) { return youden_j(tp, fp, sw.positives, sw.negatives); },
              [](double a, double b) { return a > b; });
}

operating_point best_closest_to_corner(const score_sweep& sw) {
  if (value v = need_both(sw); !v.defined()) return undefined_point(v);
  return scan(sw,
              [&](double tp, double fp) {
                const double x = fp / sw.negatives, y = 1 - tp / sw.positives;
                return std::sqrt(x * x + y * y);
              },
              [](double a, double b) { return a < b; });
}

operating_point best_fbeta(const score_sweep& sw, double beta) {
  if (!(beta > 0 && std::isfinite(beta))) throw_usage(fmt::format("best_fbeta: beta = {} must be a finite number > 0", beta));
  if (sw.positives == 0) return undefined_point(value::undefined("no positive cases: F-beta is 0 or undefined everywhere"));
  return scan(sw, [&](double tp, double fp) { return fbeta(binary_counts{tp, fp, sw.positives - tp, 0}, beta).v; },
              [](double a, double b) { return a > b; });
}

operating_point min_expected_cost(const score_sweep& sw, const cost_model& c) {
  for (auto [name, v] : {std::pair{"cost(FP)", c.fp}, {"cost(FN)", c.fn}}) {
    if (!(v >= 0 && std::isfinite(v))) throw_usage(fmt::format("min_expected_cost: {} = {} must be a finite number >= 0", name, v));
  }
  for (auto [name, v] : {std::pair{"cost(TP)", c.tp}, {"cost(TN)", c.tn}}) {
    if (!std::isfinite(v)) throw_usage(fmt::format("min_expected_cost: {} = {} must be a finite number", name, v));
  }
  if (c.prior && !(*c.prior >= 0 && *c.prior <= 1)) {
    throw_usage(fmt::format("min_expected_cost: prior = {} must be in [0, 1]", *c.prior));
  }
  if (value v = need_both(sw); !v.defined()) return undefined_point(v);
  const double pi = c.prior ? *c.prior : sw.positives / (sw.positives + sw.negatives);
  return scan(sw,
              [&](double tp, double fp) {
                const double tpr = tp / sw.positives, fpr = fp / sw.negatives;
                return pi * ((1 - tpr) * c.fn + tpr * c.tp) + (1 - pi) * (fpr * c.fp + (1 - fpr) * c.tn);
              },
              [](double a, double b) { return a < b; });
}

std::string_view to_string(constraint_kind k) {
  switch (k) {
    case constraint_kind::max_fpr: return "max_fpr";
    case constraint_kind::min_tpr: return "min_tpr";
    case constraint_kind::min_precision: return "min_precision";
    case constraint_kind::min_recall: return "min_recall";
  }
  return "max_fpr";
}

constrained_point constrained_threshold(const score_sweep& sw, constraint_kind kind, double bound) {
  if (!(bound >= 0 && bound <= 1)) {
    throw_usage(fmt::format("constrained_threshold: {} = {} must be in [0, 1]", to_string(kind), bound));
  }
  constrained_point r;
  r.kind = kind;
  r.bound = bound;
  const bool fpr_based = kind == constraint_kind::max_fpr || kind == constraint_kind::min_tpr;
  value missing = fpr_based ? need_both(sw)
                  : sw.positives == 0 ? value::undefined("no positive cases: recall is undefined")
                                      : value{};
  if (!missing.defined()) {
    r.point = undefined_point(missing);
    r.constrained = missing;
    return r;
  }
  const double P = sw.positives, N = sw.negatives;
  // (objective, constrained quantity) of a candidate; NaN where undefined (precision at tp + fp = 0).
  auto measure = [&](double tp, double fp) -> std::pair<double, double> {
    const double tpr = tp / P, precision = tp + fp > 0 ? tp / (tp + fp) : nan;
    switch (kind) {
      case constraint_kind::max_fpr: return {tpr, fp / N};
      case constraint_kind::min_tpr: return {(N - fp) / N, tpr};
      case constraint_kind::min_precision: return {tpr, precision};
      case constraint_kind::min_recall: return {precision, tpr};
    }
    return {nan, nan};
  };
  const bool upper_bound = kind == constraint_kind::max_fpr;  // the constrained quantity must stay <= bound
  auto meets = [&](double c) { return upper_bound ? c <= bound : c >= bound; };
  auto better_constraint = [&](double a, double b) { return upper_bound ? a < b : a > b; };
  bool found = false;
  double best_obj = 0, best_con = 0, best_t = nan, best_tp = 0, best_fp = 0;
  double closest = nan, closest_t = nan;  // the constrained quantity nearest the bound, for the reason
  auto consider = [&](double t, double tp, double fp) {
    const auto [obj, con] = measure(tp, fp);
    if (std::isnan(con)) return;
    if (!meets(con)) {
      if (std::isnan(closest) || better_constraint(con, closest)) closest = con, closest_t = t;
      return;
    }
    if (std::isnan(obj)) return;
    if (!found || obj > best_obj || (obj == best_obj && better_constraint(con, best_con))) {
      found = true;
      best_obj = obj, best_con = con, best_t = t, best_tp = tp, best_fp = fp;
    }
  };
  consider(inf, 0, 0);
  for (std::size_t k = 0; k < sw.size(); ++k) consider(sw.thresholds[k], sw.tp[k], sw.fp[k]);
  if (!found) {
    static constexpr const char* names[] = {"false-positive rate", "true-positive rate", "precision", "recall"};
    const char* name = names[static_cast<int>(kind)];
    const value why = value::undefined(
        std::isnan(closest)
            ? fmt::format("no threshold has a defined {}", name)
            : fmt::format("no threshold has {} {} {}; the {} is {} at best (threshold {})", name,
                          upper_bound ? "<=" : ">=", bound, name, closest, closest_t));
    r.point = undefined_point(why);
    r.constrained = why;
    return r;
  }
  r.point.criterion = best_obj;
  r.point.threshold = best_t;
  r.point.counts = {best_tp, best_fp, P - best_tp, N - best_fp};
  r.point.tpr = best_tp / P;
  r.point.fpr = N > 0 ? best_fp / N : nan;
  r.constrained = best_con;
  return r;
}

void check_constraints(std::string_view function, const operating_constraints& c) {
  auto bad = [&](const char* name, double v, const char* range) {
    throw_usage(fmt::format("{}{}: {} must be in {}", in_function(function), param(name), v, range));
  };
  if (c.max_fpr && !(*c.max_fpr > 0 && *c.max_fpr < 1)) bad("max_fpr", *c.max_fpr, "(0, 1)");
  if (c.min_tpr && !(*c.min_tpr >= 0 && *c.min_tpr <= 1)) bad("min_tpr", *c.min_tpr, "[0, 1]");
  if (c.min_precision && !(*c.min_precision >= 0 && *c.min_precision <= 1)) bad("min_precision", *c.min_precision, "[0, 1]");
  if (c.min_recall && !(*c.min_recall >= 0 && *c.min_recall <= 1)) bad("min_recall", *c.min_recall, "[0, 1]");
  if (!(c.confidence > 0 && c.confidence < 1)) bad("confidence", c.confidence, "(0, 1)");
}

constrained_points constrained_thresholds(std::string_view function, const score_sweep& sw,
                                          const operating_constraints& c, std::span<const double> negative_scores,
                                          bool weighted) {
  check_constraints(function, c);
  constrained_points r;
  const std::pair<constraint_kind, const std::optional<double>*> asked[] = {
      {constraint_kind::max_fpr, &c.max_fpr},
      {constraint_kind::min_tpr, &c.min_tpr},
      {constraint_kind::min_precision, &c.min_precision},
      {constraint_kind::min_recall, &c.min_recall}};
  for (const auto& [kind, bound] : asked) {
    if (*bound) r.points.push_back(constrained_threshold(sw, kind, **bound));
  }
  if (c.max_fpr) {
    if (weighted) {
      r.umbrella_undefined =
          "the umbrella threshold is an order statistic of unweighted negative cases; the data are weighted";
    } else {
      r.umbrella = np_umbrella_threshold(negative_scores, sw, *c.max_fpr, 1 - c.confidence);
    }
  }
  return r;
}

std::size_t np_min_negatives(double alpha, double delta) {
  if (!(alpha > 0 && alpha < 1)) throw_usage(fmt::format("np_min_negatives: alpha = {} must be in (0, 1)", alpha));
  if (!(delta > 0 && delta < 1)) throw_usage(fmt::format("np_min_negatives: delta = {} must be in (0, 1)", delta));
  // The least n with (1 - alpha)^n <= delta: about log(delta) / log(1 - alpha), settled exactly on
  // the same expression the search uses, so the two never disagree by rounding.
  auto ok = [&](double n) { return stats::binom_upper_tail(static_cast<std::int64_t>(n), static_cast<std::int64_t>(n), 1 - alpha) <= delta; };
  double n = std::max(1.0, std::ceil(std::log(delta) / std::log1p(-alpha)));
  if (n > 9.0e15) throw_usage(fmt::format("np_min_negatives: alpha = {} is too small: more than 9e15 negatives needed", alpha));
  while (n > 1 && ok(n - 1)) --n;
  while (!ok(n)) ++n;
  return static_cast<std::size_t>(n);
}

np_umbrella_result np_umbrella_threshold(std::span<const double> negative_scores, const score_sweep& sw, double alpha,
                                         double delta) {
  if (!(alpha > 0 && alpha < 1)) throw_usage(fmt::format("np_umbrella_threshold: alpha = {} must be in (0, 1)", alpha));
  if (!(delta > 0 && delta < 1)) throw_usage(fmt::format("np_umbrella_threshold: delta = {} must be in (0, 1)", delta));
  for (std::size_t i = 0; i < negative_scores.size(); ++i) {
    if (!std::isfinite(negative_scores[i])) {
      throw_data(fmt::format("np_umbrella_threshold: negative_scores[{}] = {} is not finite", i, negative_scores[i]));
    }
  }
  np_umbrella_result r;
  r.alpha = alpha;
  r.delta = delta;
  const std::size_t n = negative_scores.size();
  r.negatives = n;
  r.min_negatives = np_min_negatives(alpha, delta);
  if (n < r.min_negatives) {
    const value why = value::undefined(fmt::format(
        "too few negatives: the umbrella threshold for alpha = {} at confidence {} needs at least {} negative "
        "cases; there are {}", alpha, 1 - delta, r.min_negatives, n));
    r.order_statistic = r.violation_bound = why;
    r.point = undefined_point(why);
    return r;
  }
  const auto ni = static_cast<std::int64_t>(n);
  auto v = [&](std::int64_t k) { return stats::binom_upper_tail(k, ni, 1 - alpha); };
  // v is decreasing in k and v(n) <= delta: the least k with v(k) <= delta by bisection on [1, n].
  std::int64_t lo = 1, hi = ni;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (v(mid) <= delta) hi = mid;
    else lo = mid + 1;
  }
  r.k = static_cast<std::size_t>(lo);
  r.violation_bound = v(lo);
  std::vector<double> sorted(negative_scores.begin(), negative_scores.end());
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(r.k - 1), sorted.end());
  const double tk = sorted[r.k - 1] + 0.0;  // -0 as 0
  r.order_statistic = tk;
  // "score > t(k)" is "score >= the next double above t(k)"; on the data, the counts are those of the
  // lowest sweep threshold above t(k) (none: nothing positive).
  r.point.threshold = std::nextafter(tk, inf);
  double tp = 0, fp = 0;
  for (std::size_t k = 0; k < sw.size() && sw.thresholds[k] > tk; ++k) tp = sw.tp[k], fp = sw.fp[k];
  r.point.counts = {tp, fp, sw.positives - tp, sw.negatives - fp};
  r.point.tpr = sw.positives > 0 ? tp / sw.positives : nan;
  r.point.fpr = sw.negatives > 0 ? fp / sw.negatives : nan;
  r.point.criterion = sw.positives > 0 ? value(r.point.tpr) : value::undefined("no positive cases: the true-positive rate is undefined");
  return r;
}

cost_curve_result cost_curve(const score_sweep& sw) {
  cost_curve_result r;
  if (value v = need_both(sw); !v.defined()) {
    r.undefined = v.reason;
    return r;
  }
  // ROC points including the origin.
  std::vector<double> x{0}, y{0};
  r.line_threshold.push_back(inf);
  for (std::size_t k = 0; k < sw.size(); ++k) {
    x.push_back(sw.fp[k] / sw.negatives);
    y.push_back(sw.tp[k] / sw.positives);
    r.line_threshold.push_back(sw.thresholds[k]);
  }
  r.line_fpr = x;
  r.line_tpr = y;
  // Upper convex hull of the ROC points (x non-decreasing; equal x keeps the highest y last).
  std::vector<std::size_t> hull;
  for (std::size_t i = 0; i < x.size(); ++i) {
    while (hull.size() >= 2) {
      const std::size_t a = hull[hull.size() - 2], b = hull.back();
      const double cross = (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a]);
      if (cross >= 0) hull.pop_back();  // b is on or below the segment a-i
      else break;
    }
    if (!hull.empty() && x[hull.back()] == x[i] && y[hull.back()] <= y[i]) hull.pop_back();
    hull.push_back(i);
  }
  // Lower envelope of the lines of the hull vertices: from pc = 0 (the origin's line, cost FPR = 0)
  // to pc = 1; consecutive vertices' lines cross at pc = dFPR / (dFPR + dTPR).
  r.envelope_pc.push_back(0);
  r.envelope_cost.push_back(x[hull.front()]);
  for (std::size_t h = 0; h + 1 < hull.size(); ++h) {
    const std::size_t a = hull[h], b = hull[h + 1];
    const double dx = x[b] - x[a], dy = y[b] - y[a];
    if (dx + dy <= 0) continue;
    const double pc = dx / (dx + dy);
    if (!(pc > 0 && pc < 1)) continue;  // a vertical (horizontal) hull edge meets at pc = 0 (1): an end
    r.envelope_pc.push_back(pc);
    r.envelope_cost.push_back((1 - y[a]) * pc + x[a] * (1 - pc));
  }
  r.envelope_pc.push_back(1);
  r.envelope_cost.push_back(1 - y[hull.back()]);
  return r;
}

namespace {

// Sweeps (correct, confidence) with the shared kernel: tp = weight of correct cases with confidence
// >= c, fp = weight of wrong ones. Point "reject confidence < c" accepts exactly these.
rejection_curve_result rejection_from(const char* caller, std::span<const std::int32_t> correct,
                                      std::span<const double> confidence, std::span<const double> weight) {
  const score_sweep sw = sweep_scores(caller, correct, confidence, weight);
  rejection_curve_result r;
  const double total = sw.positives + sw.negatives;
  for (std::size_t k = sw.size(); k-- > 0;) {  // lowest confidence first: rejects the fewest
    const double accepted = sw.tp[k] + sw.fp[k];
    r.rejected.push_back(1 - accepted / total);
    r.accuracy.push_back(sw.tp[k] / accepted);
    r.confidence.push_back(sw.thresholds[k]);
  }
  if (!r.rejected.empty()) r.rejected.front() = 0;  // exactly, not 1 - total/total rounding
  return r;
}

}  // namespace

rejection_curve_result rejection_curve(std::span<const std::int32_t> y, std::span<const double> score,
                                       std::span<const double> weight, double threshold) {
  check_binary_input("rejection_curve", y, score, weight);
  if (!std::isfinite(threshold)) throw_usage(fmt::format("rejection_curve: threshold {} is not finite", threshold));
  std::vector<std::int32_t> correct(y.size());
  std::vector<double> conf(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) {
    correct[i] = (score[i] >= threshold ? 1 : 0) == y[i];
    conf[i] = std::fabs(score[i] - threshold);
  }
  return rejection_from("rejection_curve", correct, conf, weight);
}

rejection_curve_result rejection_curve_multiclass(std::span<const std::int32_t> y, proba_view p,
                                                  std::span<const double> weight) {
  if (p.rows != y.size()) throw_data(fmt::format("rejection_curve_multiclass: y has {} values but the probabilities {} rows", y.size(), p.rows));
  if (p.cols < 2) throw_data("rejection_curve_multiclass: needs at least 2 probability columns");
  std::vector<std::int32_t> correct(y.size());
  std::vector<double> conf(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] < 0 || static_cast<std::size_t>(y[i]) >= p.cols) {
      throw_data(fmt::format("rejection_curve_multiclass: y[{}] = {} is not a class index in 0..{}", i, y[i], p.cols - 1));
    }
    std::size_t arg = 0;
    double first = -inf, second = -inf;
    for (std::size_t k = 0; k < p.cols; ++k) {
      const double v = p(i, k);
      if (!std::isfinite(v)) throw_data(fmt::format("rejection_curve_multiclass: probability [{}, {}] = {} is not finite", i, k, v));
      if (v > first) second = first, first = v, arg = k;
      else if (v > second) second = v;
    }
    correct[i] = static_cast<std::int32_t>(arg) == y[i];
    conf[i] = first - second;
  }
  return rejection_from("rejection_curve_multiclass", correct, conf, weight);
}

}  // namespace assay::curves
