#include "assay/stats/learner_tests.hpp"

#include <algorithm>
#include <boost/math/quadrature/gauss.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <utility>

#include "assay/error.hpp"

namespace assay::stats {
namespace {

void check_finite(const char* fn, const char* arg, std::span<const double> v) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) throw_usage(fmt::format("{}: {}[{}] must be finite; got {}", fn, arg, i, v[i]));
  }
}

double t_p_value(double t, double df, alternative alt) {
  switch (alt) {
    case alternative::greater: return t_sf(t, df);
    case alternative::less: return t_cdf(t, df);
    case alternative::two_sided: return std::min(1.0, 2.0 * t_sf(std::fabs(t), df));
  }
  return 1.0;
}

double normal_p_value(double z, alternative alt) {
  switch (alt) {
    case alternative::greater: return normal_sf(z);
    case alternative::less: return normal_cdf(z);
    case alternative::two_sided: return std::min(1.0, 2.0 * normal_sf(std::fabs(z)));
  }
  return 1.0;
}

/// mean / se with the conventions for se = 0 (see paired_t_test).
double t_ratio(double mean, double se) {
  if (se > 0) return mean / se;
  if (mean == 0) return 0.0;
  return mean > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
}

/// The mean and the sample variance (k - 1) of k >= 2 finite values.
std::pair<double, double> mean_and_variance(const char* fn, const char* arg, std::span<const double> d) {
  if (d.size() < 2) throw_usage(fmt::format("{}: need at least 2 values; got {}", fn, d.size()));
  check_finite(fn, arg, d);
  const double k = static_cast<double>(d.size());
  const double mean = std::accumulate(d.begin(), d.end(), 0.0) / k;
  double ss = 0;
  for (double v : d) ss += (v - mean) * (v - mean);
  return {mean, ss / (k - 1)};
}

void check_sizes(const char* fn, double n_train, double n_test, bool n_test_may_be_zero) {
  if (!(n_train > 0) || !std::isfinite(n_train)) {
    throw_usage(fmt::format("{}: n_train must be finite and > 0; got {}", fn, n_train));
  }
  if (!(n_test > 0 || (n_test_may_be_zero && n_test == 0)) || !std::isfinite(n_test)) {
    throw_usage(fmt::format("{}: n_test must be finite and {}; got {}", fn, n_test_may_be_zero ? ">= 0" : "> 0",
                            n_test));
  }
}

t_test_result mean_t_test(const char* fn, const char* method, std::span<const double> d, double variance_factor,
                          alternative alt) {
  const auto [mean, s2] = mean_and_variance(fn, "deltas", d);
  const double k = static_cast<double>(d.size());
  t_test_result r;
  r.mean = mean;
  r.std_error = std::sqrt(variance_factor * s2);
  r.test.method = method;
  r.test.alt = alt;
  r.test.df = k - 1;
  r.test.statistic = t_ratio(mean, r.std_error);
  r.test.p_value = mean == 0 && r.std_error == 0 ? 1.0 : t_p_value(r.test.statistic, r.test.df, alt);
  return r;
}

}  // namespace

t_test_result paired_t_test(std::span<const double> deltas, alternative alt) {
  return mean_t_test("paired_t_test", "paired_t", deltas, 1.0 / static_cast<double>(std::max<std::size_t>(1, deltas.size())),
                     alt);
}

t_test_result paired_t_test(std::span<const double> a, std::span<const double> b, alternative alt) {
  if (a.size() != b.size()) {
    throw_usage(fmt::format("paired_t_test: a has {} values but b has {}", a.size(), b.size()));
  }
  std::vector<double> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  return paired_t_test(d, alt);
}

double corrected_resampled_variance_factor(std::size_t k, double n_train, double n_test) {
  return 1.0 / static_cast<double>(std::max<std::size_t>(1, k)) + n_test / n_train;
}

t_test_result corrected_resampled_t_test(std::span<const double> deltas, double n_train, double n_test,
                                         alternative alt) {
  check_sizes("corrected_resampled_t_test", n_train, n_test, false);
  return mean_t_test("corrected_resampled_t_test", "corrected_resampled_t", deltas,
                     corrected_resampled_variance_factor(deltas.size(), n_train, n_test), alt);
}

corrected_interval corrected_resampled_interval(std::span<const double> values, double n_train, double n_test,
                                                double level) {
  const char* fn = "corrected_resampled_interval";
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("{}: level must be in (0, 1); got {}", fn, level));
  check_sizes(fn, n_train, n_test, true);
  const auto [mean, s2] = mean_and_variance(fn, "values", values);
  corrected_interval r;
  r.mean = mean;
  r.std_error = std::sqrt(corrected_resampled_variance_factor(values.size(), n_train, n_test) * s2);
  r.df = static_cast<double>(values.size()) - 1;
  r.level = level;
  const double half = t_quantile((1 + level) / 2, r.df) * r.std_error;
  r.lower = mean - half;
  r.upper = mean + half;
  return r;
}

t_test_result corrected_resampled_t_test(std::span<const double> a, std::span<const double> b, double n_train,
                                         double n_test, alternative alt) {
  if (a.size() != b.size()) {
    throw_usage(fmt::format("corrected_resampled_t_test: a has {} values but b has {}", a.size(), b.size()));
  }
  std::vector<double> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  return corrected_resampled_t_test(d, n_train, n_test, alt);
}

namespace {
/// sum_i s_i^2 of a 5x2cv table, after checking it.
double cv52_variance_sum(const char* fn, std::span<const double> p) {
  if (p.size() != 10) throw_usage(fmt::format("{}: p must hold 5 x 2 = 10 differences; got {}", fn, p.size()));
  check_finite(fn, "p", p);
  double s = 0;
  for (int i = 0; i < 5; ++i) {
    const double m = (p[2 * i] + p[2 * i + 1]) / 2;
    s += (p[2 * i] - m) * (p[2 * i] - m) + (p[2 * i + 1] - m) * (p[2 * i + 1] - m);
  }
  return s;
}
}  // namespace

test_result cv52_paired_t_test(std::span<const double> p, alternative alt) {
  const double s = cv52_variance_sum("cv52_paired_t_test", p);
  test_result r;
  r.method = "cv52_paired_t";
  r.alt = alt;
  r.df = 5;
  const double se = std::sqrt(s / 5);
  r.statistic = t_ratio(p[0], se);
  r.p_value = p[0] == 0 && se == 0 ? 1.0 : t_p_value(r.statistic, r.df, alt);
  return r;
}

test_result cv52_combined_f_test(std::span<const double> p) {
  const double s = cv52_variance_sum("cv52_combined_f_test", p);
  double num = 0;
  for (double v : p) num += v * v;
  test_result r;
  r.method = "cv52_combined_f";
  r.alt = alternative::greater;
  r.df = 10;
  r.df2 = 5;
  if (s == 0) {
    r.statistic = num == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    r.p_value = num == 0 ? 1.0 : 0.0;
    return r;
  }
  r.statistic = num / (2 * s);
  r.p_value = f_sf(r.statistic, 10, 5);
  return r;
}

std::vector<double> midranks(std::span<const double> v) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1;
    while (j < order.size() && v[order[j]] == v[order[i]]) ++j;
    const double rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;  // mean of ranks i+1..j
    for (std::size_t t = i; t < j; ++t) r[order[t]] = rank;
    i = j;
  }
  return r;
}

namespace {
/// sum over tie groups of t^3 - t, for values that are exact multiples of 0.5 (ranks).
double tie_term(std::span<const double> ranks) {
  std::vector<double> s(ranks.begin(), ranks.end());
  std::sort(s.begin(), s.end());
  double term = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t j = i + 1;
    while (j < s.size() && s[j] == s[i]) ++j;
    const double t = static_cast<double>(j - i);
    term += t * t * t - t;
    i = j;
  }
  return term;
}

/// P(R+ <= r) and P(R+ >= r) for the exact null distribution of the signed-rank sum with n ranks.
std::pair<double, double> wilcoxon_exact_tails(std::size_t n, std::int64_t r) {
  const std::size_t max_sum = n * (n + 1) / 2;
  // counts[s] = number of subsets of {1..n} with sum s, scaled by 1/2 per element to stay finite.
  std::vector<double> counts(max_sum + 1, 0.0);
  counts[0] = 1;
  for (std::size_t m = 1; m <= n; ++m) {
    const std::size_t top = m * (m + 1) / 2;
    for (std::size_t s = top; s >= m; --s) counts[s] = 0.5 * (counts[s] + counts[s - m]);
    for (std::size_t s = 0; s < m && s <= top; ++s) counts[s] *= 0.5;
  }
  double less = 0, greater = 0;
  for (std::size_t s = 0; s <= max_sum; ++s) {
    if (static_cast<std::int64_t>(s) <= r) less += counts[s];
    if (static_cast<std::int64_t>(s) >= r) greater += counts[s];
  }
  return {std::min(1.0, less), std::min(1.0, greater)};
}
}  // namespace

test_result wilcoxon(std::span<const double> x, std::span<const double> y, const wilcoxon_options& opts) {
  if (x.size() != y.size()) throw_usage(fmt::format("wilcoxon: x has {} values but y has {}", x.size(), y.size()));
  check_finite("wilcoxon", "x", x);
  check_finite("wilcoxon", "y", y);
  std::vector<double> d(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) d[i] = x[i] - y[i];
  return wilcoxon(d, opts);
}

test_result wilcoxon(std::span<const double> d_in, const wilcoxon_options& opts) {
  if (d_in.empty()) throw_usage("wilcoxon: no differences");
  check_finite("wilcoxon", "d", d_in);
  std::vector<double> d(d_in.begin(), d_in.end());
  const auto n_zero = static_cast<std::size_t>(std::count(d.begin(), d.end(), 0.0));
  if (n_zero == d.size() && opts.zeros != wilcoxon_zeros::zsplit) {
    throw_data("wilcoxon: every difference x - y is zero; the test is undefined (use zeros = zsplit to get p = 1)");
  }
  if (opts.zeros == wilcoxon_zeros::wilcox) std::erase(d, 0.0);
  const std::size_t n = d.size();
  std::vector<double> absd(n);
  for (std::size_t i = 0; i < n; ++i) absd[i] = std::fabs(d[i]);
  const std::vector<double> r = midranks(absd);
  double r_plus = 0, r_minus = 0, r_zero = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (d[i] > 0) r_plus += r[i];
    else if (d[i] < 0) r_minus += r[i];
    else r_zero += r[i];
  }
  if (opts.zeros == wilcoxon_zeros::zsplit) {
    r_plus += r_zero / 2;
    r_minus += r_zero / 2;
  }
  test_result res;
  res.alt = opts.alt;
  res.statistic = opts.alt == alternative::two_sided ? std::min(r_plus, r_minus) : r_plus;
  const bool has_zero = n_zero > 0 && opts.zeros != wilcoxon_zeros::wilcox;
  const bool has_ties = tie_term(r) > 0;
  const bool exact = opts.mode != wilcoxon_mode::approx && !has_zero && !has_ties && n > 0 &&
                     (opts.mode == wilcoxon_mode::exact || n <= 50);
  if (exact) {
    res.method = "wilcoxon_exact";
    const auto rp = static_cast<std::int64_t>(std::llround(r_plus));
    const auto [p_less, p_greater] = wilcoxon_exact_tails(n, rp);
    if (opts.alt == alternative::greater) res.p_value = p_greater;
    else if (opts.alt == alternative::less) res.p_value = p_less;
    else res.p_value = std::min(1.0, 2 * std::min(p_less, p_greater));
    return res;
  }
  res.method = "wilcoxon_approx";
  const double nd = static_cast<double>(n);
  double mean = nd * (nd + 1) * 0.25;
  double var24 = nd * (nd + 1) * (2 * nd + 1);
  std::vector<double> ranks_for_ties = r;
  if (opts.zeros == wilcoxon_zeros::pratt) {
    const double z = static_cast<double>(n_zero);
    mean -= z * (z + 1) * 0.25;
    var24 -= z * (z + 1) * (2 * z + 1);
    ranks_for_ties.clear();
    for (std::size_t i = 0; i < n; ++i) if (d[i] != 0) ranks_for_ties.push_back(r[i]);
  }
  var24 -= 0.5 * tie_term(ranks_for_ties);
  const double se = std::sqrt(var24 / 24);
  double cc = 0;
  if (opts.correction) {
    if (opts.alt == alternative::two_sided) cc = 0.5 * ((res.statistic > mean) - (res.statistic < mean));
    else cc = opts.alt == alternative::less ? -0.5 : 0.5;
  }
  if (!(se > 0)) throw_data("wilcoxon: the variance of the statistic is 0 (no non-zero differences)");
  const double z = (res.statistic - mean - cc) / se;
  res.p_value = normal_p_value(z, opts.alt);
  return res;
}

friedman_result friedman(std::span<const double> data, std::size_t n_rows, std::size_t k) {
  if (k < 3) throw_usage(fmt::format("friedman: k (treatments) must be >= 3; got {}", k));
  if (n_rows < 2) throw_usage(fmt::format("friedman: n_rows (blocks) must be >= 2; got {}", n_rows));
  if (data.size() != n_rows * k) {
    throw_usage(fmt::format("friedman: data has {} values but n_rows x k = {} x {} = {}", data.size(), n_rows, k,
                            n_rows * k));
  }
  check_finite("friedman", "data", data);
  std::vector<double> rank_sum(k, 0.0);
  double ties = 0;
  for (std::size_t i = 0; i < n_rows; ++i) {
    const auto r = midranks(data.subspan(i * k, k));
    for (std::size_t j = 0; j < k; ++j) rank_sum[j] += r[j];
    ties += tie_term(r);
  }
  const double n = static_cast<double>(n_rows), kd = static_cast<double>(k);
  friedman_result res;
  res.test.method = "friedman";
  res.test.alt = alternative::greater;
  res.test.df = kd - 1;
  for (double s : rank_sum) res.mean_ranks.push_back(s / n);
  const double c = 1 - ties / (kd * (kd * kd - 1) * n);
  double ssbn = 0;
  for (double s : rank_sum) ssbn += s * s;
  if (c <= 0) {
    res.test.statistic = 0;
    res.test.p_value = 1;
    return res;
  }
  res.test.statistic = (12.0 / (kd * n * (kd + 1)) * ssbn - 3 * n * (kd + 1)) / c;
  res.test.p_value = chi2_sf(res.test.statistic, res.test.df);
  return res;
}

namespace {
/// P(W <= w) for the range W of k independent standard normals.
double normal_range_cdf(double w, std::size_t k) {
  if (w <= 0) return 0.0;
  const double km1 = static_cast<double>(k - 1);
  auto integrand = [&](double z) {
    const double inner = normal_cdf(z + w) - normal_cdf(z);
    if (inner <= 0) return 0.0;
    return std::exp(-0.5 * z * z) * std::pow(inner, km1);
  };
  // The integrand is smooth and negligible outside [-9 - w, 9] (phi(9) ~ 1e-18): composite 20-point
  // Gauss-Legendre on 64 pieces is accurate to ~1e-14 here and much faster than adaptive quadrature.
  const double a = -9.0 - w, b = 9.0;
  const int pieces = 64;
  const double h = (b - a) / pieces;
  double v = 0;
  for (int i = 0; i < pieces; ++i) {
    v += boost::math::quadrature::gauss<double, 20>::integrate(integrand, a + i * h, a + (i + 1) * h);
  }
  return static_cast<double>(k) * v / std::sqrt(2 * M_PI);
}
}  // namespace

double nemenyi_q(std::size_t k, double alpha) {
  if (k < 2 || k > 1000) throw_usage(fmt::format("nemenyi_q: k must be in [2, 1000]; got {}", k));
  if (!(alpha > 0 && alpha < 1)) throw_usage(fmt::format("nemenyi_q: alpha must be in (0, 1); got {}", alpha));
  const double target = 1 - alpha;
  auto f = [&](double w) { return normal_range_cdf(w, k) - target; };
  double lo = 1e-6, hi = 20;
  std::uintmax_t iters = 200;
  const auto tol = boost::math::tools::eps_tolerance<double>(50);
  const auto [a, b] = boost::math::tools::toms748_solve(f, lo, hi, tol, iters);
  return (a + b) / 2 / std::sqrt(2.0);
}

double nemenyi_critical_difference(std::size_t k, std::size_t n, double alpha) {
  if (n < 1) throw_usage("nemenyi_critical_difference: n (data sets) must be >= 1; got 0");
  const double kd = static_cast<double>(k);
  return nemenyi_q(k, alpha) * std::sqrt(kd * (kd + 1) / (6 * static_cast<double>(n)));
}

std::vector<double> nemenyi_p_values(std::span<const double> mean_ranks, std::size_t n) {
  const std::size_t k = mean_ranks.size();
  if (k < 2 || k > 1000) throw_usage(fmt::format("nemenyi_p_values: {} mean ranks given; k must be in [2, 1000]", k));
  if (n < 1) throw_usage("nemenyi_p_values: n (data sets) must be >= 1; got 0");
  check_finite("nemenyi_p_values", "mean_ranks", mean_ranks);
  const double kd = static_cast<double>(k);
  const double scale = std::sqrt(2.0) / std::sqrt(kd * (kd + 1) / (6 * static_cast<double>(n)));
  std::vector<double> p(k * k, 1.0);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = i + 1; j < k; ++j) {
      const double q = std::abs(mean_ranks[i] - mean_ranks[j]) * scale;
      const double v = std::clamp(1 - normal_range_cdf(q, k), 0.0, 1.0);
      p[i * k + j] = p[j * k + i] = v;
    }
  }
  return p;
}

}  // namespace assay::stats
