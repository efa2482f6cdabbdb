// ROC curves and AUC; see include/assay/curves/roc.hpp.
#include "assay/curves/roc.hpp"

#include "assay/curves/accumulate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "assay/detail/exact_sum.hpp"
#include "assay/error.hpp"

namespace assay::curves {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

value undefined_auc(const score_sweep& sw) {
  if (sw.positives == 0 && sw.negatives == 0) return value::undefined("no cases (or every weight is 0)");
  if (sw.positives == 0) return value::undefined("only one class present: no positive cases");
  if (sw.negatives == 0) return value::undefined("only one class present: no negative cases");
  return {};
}

// Integral of y dx over [lo, hi] for the polyline (x[k], y[k]), x non-decreasing.
double area_between(const std::vector<double>& x, const std::vector<double>& y, double lo, double hi) {
  double area = 0;
  for (std::size_t k = 1; k < x.size(); ++k) {
    const double x0 = x[k - 1], x1 = x[k];
    if (!(x1 > x0)) continue;
    const double a = std::max(x0, lo), b = std::min(x1, hi);
    if (!(a < b)) continue;
    const double slope = (y[k] - y[k - 1]) / (x1 - x0);
    const double ya = a == x0 ? y[k - 1] : y[k - 1] + slope * (a - x0);
    const double yb = b == x1 ? y[k] : y[k - 1] + slope * (b - x0);
    area += (b - a) * (ya + yb) / 2;
  }
  return area;
}

void check_range(const char* caller, double lo, double hi) {
  if (!(lo >= 0 && hi <= 1 && lo < hi)) {
    throw_usage(fmt::format("{}: the range [{}, {}] must satisfy 0 <= lo < hi <= 1", caller, lo, hi));
  }
}

double mcclish(double area, double a_min, double a_max) { return 0.5 * (1 + (area - a_min) / (a_max - a_min)); }

}  // namespace

roc_curve_result roc_curve(const score_sweep& sw, const roc_options& options) {
  roc_curve_result r;
  const std::size_t m = sw.size();
  std::vector<std::size_t> keep;  // only used with drop_intermediate
  if (options.drop_intermediate && m > 2) {
    keep.push_back(0);
    for (std::size_t i = 0; i + 2 < m; ++i) {
      const double *fp = &sw.fp[i], *tp = &sw.tp[i];
      if (keeps_roc_point(fp[0], tp[0], fp[1], tp[1], fp[2], tp[2])) keep.push_back(i + 1);
    }
    keep.push_back(m - 1);
  }
  const bool all = keep.empty();
  const std::size_t n = (all ? m : keep.size()) + 1;
  r.fps.resize(n);
  r.tps.resize(n);
  r.thresholds.resize(n);
  r.fpr.resize(n);
  r.tpr.resize(n);
  double first = inf;
  if (options.first == first_threshold::max_plus_one && m > 0) first = sw.thresholds[0] + 1;
  r.thresholds[0] = first;
  r.fps[0] = r.tps[0] = 0;
  const double nn = sw.negatives, np = sw.positives;
  r.fpr[0] = nn > 0 ? 0.0 : nan;
  r.tpr[0] = np > 0 ? 0.0 : nan;
  for (std::size_t k = 1; k < n; ++k) {
    const std::size_t i = all ? k - 1 : keep[k - 1];
    const double fp = sw.fp[i], tp = sw.tp[i];
    r.fps[k] = fp;
    r.tps[k] = tp;
    r.thresholds[k] = sw.thresholds[i];
    r.fpr[k] = nn > 0 ? fp / nn : nan;
    r.tpr[k] = np > 0 ? tp / np : nan;
  }
  if (sw.negatives == 0 && sw.positives == 0) r.undefined = "no cases: both rates are undefined";
  else if (sw.negatives == 0) r.undefined = "no negative cases: the false-positive rate is undefined";
  else if (sw.positives == 0) r.undefined = "no positive cases: the true-positive rate is undefined";
  return r;
}

roc_curve_result roc_curve(std::span<const std::int32_t> y, std::span<const double> score,
                           std::span<const double> weight, const roc_options& options) {
  return roc_curve(sweep_scores("roc_curve", y, score, weight), options);
}

roc_curve_result roc_curve_corners(const score_sweep& sw) {
  if (sw.positives == 0 || sw.negatives == 0) {
    throw_data(fmt::format("roc_curve_corners: needs both classes, but the data hold {} positive and {} negative weight",
                           sw.positives, sw.negatives));
  }
  roc_curve_result r;
  auto emit = [&](double fp, double tp, double t) {
    r.fps.push_back(fp);
    r.tps.push_back(tp);
    r.fpr.push_back(fp / sw.negatives);
    r.tpr.push_back(tp / sw.positives);
    r.thresholds.push_back(t);
  };
  emit(0, 0, inf);
  double last_tp = 0;
  for (std::size_t k = 1; k < sw.size(); ++k) {
    const bool group_has_negative = sw.fp[k] > sw.fp[k - 1];
    if (group_has_negative && sw.tp[k - 1] > last_tp) {
      emit(sw.fp[k - 1], sw.tp[k - 1], sw.thresholds[k - 1]);
      last_tp = sw.tp[k - 1];
    }
  }
  emit(sw.negatives, sw.positives, sw.thresholds.back());
  return r;
}

value roc_auc(const score_sweep& sw) {
  if (sw.positives == 0 || sw.negatives == 0) return undefined_auc(sw);
  // Trapezoids between consecutive points, starting at the origin. For integer weights every term is
  // an integer or a half-integer, so the sum is exact below 2^53.
  auc_sum sum;
  for (std::size_t k = 0; k < sw.size(); ++k) sum.add(sw.tp[k], sw.fp[k]);
  return value(sum.auc(sw.positives, sw.negatives));
}

value roc_auc(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight) {
  return roc_auc(sweep_scores("roc_auc", y, score, weight));
}

value partial_auc_fpr(const score_sweep& sw, double lo, double hi, bool standardise) {
  check_range("partial_auc_fpr", lo, hi);
  if (sw.positives == 0 || sw.negatives == 0) return undefined_auc(sw);
  const roc_curve_result c = roc_curve(sw);
  const double area = area_between(c.fpr, c.tpr, lo, hi);
  if (!standardise) return value(area);
  return value(mcclish(area, (hi * hi - lo * lo) / 2, hi - lo));
}

value partial_auc_tpr(const score_sweep& sw, double lo, double hi, bool standardise) {
  check_range("partial_auc_tpr", lo, hi);
  if (sw.positives == 0 || sw.negatives == 0) return undefined_auc(sw);
  const roc_curve_result c = roc_curve(sw);
  // The integral of (1 - fpr) d tpr over [lo, hi]: tpr is the abscissa and 1 - fpr the ordinate.
  std::vector<double> x = c.tpr, y(c.fpr.size());
  for (std::size_t k = 0; k < y.size(); ++k) y[k] = 1 - c.fpr[k];
  const double area = area_between(x, y, lo, hi);
  if (!standardise) return value(area);
  return value(mcclish(area, (hi - lo) - (hi * hi - lo * lo) / 2, hi - lo));
}

std::optional<std::pair<std::size_t, double>> first_row_not_summing_to_one(proba_view p) {
  for (std::size_t i = 0; i < p.rows; ++i) {
    double s = 0;
    for (std::size_t k = 0; k < p.cols; ++k) s += p(i, k);
    if (!(std::fabs(s - 1) <= 1e-8 + 1e-5 * std::fabs(s))) return std::pair{i, s};
  }
  return std::nullopt;
}

void check_rows_sum_to_one(std::string_view caller, proba_view p) {
  if (const auto bad = first_row_not_summing_to_one(p)) {
    throw_data(fmt::format("{}: the probabilities of row {} sum to {}, not 1 (multiclass AUC needs class "
                           "probabilities; rule: |sum - 1| <= 1e-8 + 1e-5 |sum|)",
                           caller, bad->first, bad->second));
  }
}

namespace {

void check_multiclass(const char* caller, std::span<const std::int32_t> y, proba_view p, std::span<const double> w) {
  if (p.rows != y.size()) throw_data(fmt::format("{}: y has {} values but the probabilities {} rows", caller, y.size(), p.rows));
  if (p.cols < 2) throw_data(fmt::format("{}: needs at least 2 classes, got {} probability columns", caller, p.cols));
  if (!w.empty() && w.size() != y.size()) {
    throw_data(fmt::format("{}: y has {} values but weight has {}", caller, y.size(), w.size()));
  }
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] < 0 || static_cast<std::size_t>(y[i]) >= p.cols) {
      throw_data(fmt::format("{}: y[{}] = {} is not a class index in 0..{}", caller, i, y[i], p.cols - 1));
    }
    for (std::size_t k = 0; k < p.cols; ++k) {
      if (!std::isfinite(p(i, k))) throw_data(fmt::format("{}: probability [{}, {}] = {} is not finite", caller, i, k, p(i, k)));
    }
  }
  check_rows_sum_to_one(caller, p);
}

}  // namespace

std::vector<roc_curve_result> roc_curves_ovr(std::span<const std::int32_t> y, proba_view p,
                                             std::span<const double> weight, const roc_options& options) {
  check_multiclass("roc_curves_ovr", y, p, weight);
  std::vector<roc_curve_result> out;
  std::vector<std::int32_t> yk(y.size());
  std::vector<double> sk(y.size());
  for (std::size_t k = 0; k < p.cols; ++k) {
    for (std::size_t i = 0; i < y.size(); ++i) {
      yk[i] = y[i] == static_cast<std::int32_t>(k);
      sk[i] = p(i, k);
    }
    out.push_back(roc_curve(sweep_scores("roc_curves_ovr", yk, sk, weight), options));
  }
  return out;
}

value roc_auc_ovr(std::span<const std::int32_t> y, proba_view p, std::span<const double> weight,
                  multiclass_average average) {
  check_multiclass("roc_auc_ovr", y, p, weight);
  std::vector<std::int32_t> yk(y.size());
  std::vector<double> sk(y.size());
  double sum = 0, total = 0;
  for (std::size_t k = 0; k < p.cols; ++k) {
    for (std::size_t i = 0; i < y.size(); ++i) {
      yk[i] = y[i] == static_cast<std::int32_t>(k);
      sk[i] = p(i, k);
    }
    const score_sweep sw = sweep_scores("roc_auc_ovr", yk, sk, weight);
    const value a = roc_auc(sw);
    if (!a) return value::undefined(fmt::format("class {} against the rest: {}", k, a.reason));
    const double wk = average == multiclass_average::weighted ? sw.positives : 1.0;
    sum += wk * a.v;
    total += wk;
  }
  return value(sum / total);
}

value roc_auc_ovo(std::span<const std::int32_t> y, proba_view p, std::span<const double> weight,
                  multiclass_average average) {
  check_multiclass("roc_auc_ovo", y, p, weight);
  double sum = 0, total = 0;
  // The weights' sums are exact and rounded once (detail/exact_sum.hpp), so they do not depend on the
  // order of the cases (the mergeable state, scale/state.hpp, sums them per class).
  assay::detail::exact_sum all_sum;
  for (std::size_t i = 0; i < y.size(); ++i) all_sum.add(weight.empty() ? 1.0 : weight[i]);
  const double all = all_sum.value();
  std::vector<std::int32_t> ya;
  std::vector<double> sa, sb, wab;
  for (std::size_t a = 0; a < p.cols; ++a) {
    for (std::size_t b = a + 1; b < p.cols; ++b) {
      ya.clear(), sa.clear(), sb.clear(), wab.clear();
      assay::detail::exact_sum pair_sum;
      for (std::size_t i = 0; i < y.size(); ++i) {
        const auto c = static_cast<std::size_t>(y[i]);
        if (c != a && c != b) continue;
        ya.push_back(c == a);
        sa.push_back(p(i, a));
        sb.push_back(p(i, b));
        const double w = weight.empty() ? 1.0 : weight[i];
        wab.push_back(w);
        pair_sum.add(w);
      }
      const double pair_weight = pair_sum.value();
      const value auc_a = roc_auc(sweep_scores("roc_auc_ovo", ya, sa, wab));
      if (!auc_a) return value::undefined(fmt::format("classes {} and {}: {}", a, b, auc_a.reason));
      for (auto& v : ya) v = 1 - v;
      const value auc_b = roc_auc(sweep_scores("roc_auc_ovo", ya, sb, wab));
      if (!auc_b) return value::undefined(fmt::format("classes {} and {}: {}", b, a, auc_b.reason));
      const double wp = average == multiclass_average::weighted ? pair_weight / all : 1.0;
      sum += wp * (auc_a.v + auc_b.v) / 2;
      total += wp;
    }
  }
  return value(sum / total);
}

}  // namespace assay::curves
