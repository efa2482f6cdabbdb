#include "assay/stats/delong.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>

#include "assay/error.hpp"

namespace assay::stats {
namespace {

void check_inputs(const char* fn, const char* label_arg, std::span<const std::int32_t> y,
                  const char* score_arg, std::span<const double> s) {
  if (y.size() != s.size()) {
    throw_usage(fmt::format("{}: {} has {} cases but {} has {}", fn, label_arg, y.size(), score_arg, s.size()));
  }
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] != 0 && y[i] != 1) throw_usage(fmt::format("{}: {}[{}] must be 0 or 1; got {}", fn, label_arg, i, y[i]));
    if (!std::isfinite(s[i])) throw_usage(fmt::format("{}: {}[{}] must be finite; got {}", fn, score_arg, i, s[i]));
  }
}

delong_placements placements(std::span<const std::int32_t> y, std::span<const double> s) {
  delong_placements p;
  const std::size_t n_all = y.size();
  for (auto v : y) (v == 1 ? p.n_pos : p.n_neg) += 1;
  if (p.n_pos == 0 || p.n_neg == 0) {
    p.auc = value::undefined(p.n_pos == 0 ? "no positive case" : "no negative case");
    p.s10 = p.s01 = p.variance = p.auc;
    return p;
  }
  // Position of each case among the positives / negatives, in input order.
  std::vector<std::uint32_t> slot(n_all);
  {
    std::size_t ip = 0, in = 0;
    for (std::size_t i = 0; i < n_all; ++i) slot[i] = static_cast<std::uint32_t>(y[i] == 1 ? ip++ : in++);
  }
  // Sort contiguous (score, case) pairs: far fewer cache misses than sorting indices by s[i].
  struct item {
    double score;
    std::uint32_t index;
  };
  std::vector<item> items(n_all);
  for (std::size_t i = 0; i < n_all; ++i) items[i] = {s[i], static_cast<std::uint32_t>(i)};
  std::sort(items.begin(), items.end(), [](const item& a, const item& b) { return a.score < b.score; });
  p.v10.resize(p.n_pos);
  p.v01.resize(p.n_neg);
  const double m = static_cast<double>(p.n_pos), n = static_cast<double>(p.n_neg);
  double pos_below = 0, neg_below = 0;
  for (std::size_t i = 0; i < n_all;) {
    std::size_t j = i;
    double pos_here = 0, neg_here = 0;
    while (j < n_all && items[j].score == items[i].score) {
      (y[items[j].index] == 1 ? pos_here : neg_here) += 1;
      ++j;
    }
    // Positives of this tie group beat the negatives below and tie with the negatives here;
    // negatives here lose to the positives above and tie with the positives here.
    const double v10 = (neg_below + 0.5 * neg_here) / n;
    const double v01 = (m - pos_below - pos_here + 0.5 * pos_here) / m;
    for (std::size_t t = i; t < j; ++t) {
      const auto c = items[t].index;
      if (y[c] == 1) p.v10[slot[c]] = v10; else p.v01[slot[c]] = v01;
    }
    pos_below += pos_here;
    neg_below += neg_here;
    i = j;
  }
  const double auc = std::accumulate(p.v10.begin(), p.v10.end(), 0.0) / m;
  p.auc = auc;
  if (p.n_pos < 2 || p.n_neg < 2) {
    const auto why = value::undefined(p.n_pos < 2 ? "fewer than 2 positive cases" : "fewer than 2 negative cases");
    p.s10 = p.n_pos < 2 ? why : value();
    p.s01 = p.n_neg < 2 ? why : value();
    p.variance = why;
  }
  if (p.n_pos >= 2) {
    double ss = 0;
    for (double v : p.v10) ss += (v - auc) * (v - auc);
    p.s10 = ss / (m - 1);
  }
  if (p.n_neg >= 2) {
    double ss = 0;
    for (double v : p.v01) ss += (v - auc) * (v - auc);
    p.s01 = ss / (n - 1);
  }
  if (p.n_pos >= 2 && p.n_neg >= 2) p.variance = p.s10.v / m + p.s01.v / n;
  return p;
}

double covariance(const std::vector<double>& a, double ma, const std::vector<double>& b, double mb) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (a[i] - ma) * (b[i] - mb);
  return s / static_cast<double>(a.size() - 1);
}

double ratio_or_limit(double d, double se) {
  if (se > 0) return d / se;
  if (d == 0) return 0.0;
  return d > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
}

}  // namespace

delong_placements delong(std::span<const std::int32_t> y_true, std::span<const double> y_score) {
  check_inputs("delong", "y_true", y_true, "y_score", y_score);
  return placements(y_true, y_score);
}

auc_interval delong_ci(std::span<const std::int32_t> y_true, std::span<const double> y_score, double level) {
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("delong_ci: level must be in (0, 1); got {}", level));
  check_inputs("delong_ci", "y_true", y_true, "y_score", y_score);
  const auto p = placements(y_true, y_score);
  auc_interval r;
  r.auc = p.auc;
  r.variance = p.variance;
  r.level = level;
  if (!p.variance.defined()) {
    r.lower = r.upper = p.variance;
    return r;
  }
  const double half = z_critical(level) * std::sqrt(p.variance.v);
  r.lower = std::clamp(p.auc.v - half, 0.0, 1.0);
  r.upper = std::clamp(p.auc.v + half, 0.0, 1.0);
  return r;
}

delong_test_result delong_paired_test(std::span<const std::int32_t> y_true, std::span<const double> score_a,
                                      std::span<const double> score_b, alternative alt, double level) {
  const char* fn = "delong_paired_test";
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("{}: level must be in (0, 1); got {}", fn, level));
  check_inputs(fn, "y_true", y_true, "score_a", score_a);
  check_inputs(fn, "y_true", y_true, "score_b", score_b);
  const auto pa = placements(y_true, score_a);
  const auto pb = placements(y_true, score_b);
  if (!pa.variance.defined()) throw_data(fmt::format("{}: the DeLong variance is undefined: {}", fn, pa.variance.reason));
  const double m = static_cast<double>(pa.n_pos), n = static_cast<double>(pa.n_neg);
  const double aa = pa.auc.v, ab = pb.auc.v;
  const double cov = covariance(pa.v10, aa, pb.v10, ab) / m + covariance(pa.v01, aa, pb.v01, ab) / n;
  const double var = std::max(0.0, pa.variance.v + pb.variance.v - 2 * cov);
  delong_test_result r;
  r.auc_a = aa;
  r.auc_b = ab;
  r.difference = aa - ab;
  r.std_error = std::sqrt(var);
  r.level = level;
  r.test.method = "delong_paired";
  r.test.alt = alt;
  r.test.statistic = ratio_or_limit(r.difference, r.std_error);
  const double z = r.test.statistic;
  if (r.difference == 0 && r.std_error == 0) r.test.p_value = 1;
  else if (alt == alternative::greater) r.test.p_value = normal_sf(z);
  else if (alt == alternative::less) r.test.p_value = normal_cdf(z);
  else r.test.p_value = std::min(1.0, 2 * normal_sf(std::fabs(z)));
  const double half = z_critical(level) * r.std_error;
  r.diff_lower = r.difference - half;
  r.diff_upper = r.difference + half;
  return r;
}

delong_test_result delong_unpaired_test(std::span<const std::int32_t> y_a, std::span<const double> score_a,
                                        std::span<const std::int32_t> y_b, std::span<const double> score_b,
                                        alternative alt) {
  const char* fn = "delong_unpaired_test";
  check_inputs(fn, "y_a", y_a, "score_a", score_a);
  check_inputs(fn, "y_b", y_b, "score_b", score_b);
  const auto pa = placements(y_a, score_a);
  const auto pb = placements(y_b, score_b);
  if (!pa.variance.defined()) throw_data(fmt::format("{}: sample a: {}", fn, pa.variance.reason));
  if (!pb.variance.defined()) throw_data(fmt::format("{}: sample b: {}", fn, pb.variance.reason));
  const double va = pa.variance.v, vb = pb.variance.v;
  delong_test_result r;
  r.auc_a = pa.auc.v;
  r.auc_b = pb.auc.v;
  r.difference = r.auc_a - r.auc_b;
  r.std_error = std::sqrt(va + vb);
  r.diff_lower = r.diff_upper = value::undefined("no interval for the unpaired test");
  r.test.method = "delong_unpaired";
  r.test.alt = alt;
  r.test.statistic = ratio_or_limit(r.difference, r.std_error);
  const double na = static_cast<double>(y_a.size()), nb = static_cast<double>(y_b.size());
  if (r.std_error == 0) {
    r.test.p_value = r.difference == 0 ? 1.0 : (alt == alternative::two_sided ||
                                                (alt == alternative::greater) == (r.difference > 0)) ? 0.0 : 1.0;
    return r;
  }
  r.test.df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
  const double t = r.test.statistic;
  if (alt == alternative::greater) r.test.p_value = t_sf(t, r.test.df);
  else if (alt == alternative::less) r.test.p_value = t_cdf(t, r.test.df);
  else r.test.p_value = std::min(1.0, 2 * t_sf(std::fabs(t), r.test.df));
  return r;
}

}  // namespace assay::stats
