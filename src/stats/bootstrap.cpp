#include "assay/stats/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <numeric>

#include "assay/error.hpp"
#include "assay/stats/delong.hpp"
#include "assay/stats/detail/parallel.hpp"
#include "assay/stats/distributions.hpp"
#include "assay/stats/random.hpp"

namespace assay::stats {

const char* to_string(bootstrap_method m) { return m == bootstrap_method::bca ? "bca" : "percentile"; }

double quantile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) throw_usage("quantile_sorted: no values");
  if (!(q >= 0 && q <= 1)) throw_usage(fmt::format("quantile_sorted: q must be in [0, 1]; got {}", q));
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

namespace {

std::vector<double> sorted_defined(std::span<const double> v) {
  std::vector<double> s;
  s.reserve(v.size());
  for (double x : v) if (!std::isnan(x)) s.push_back(x);
  std::sort(s.begin(), s.end());
  return s;
}

void check_level(const char* fn, double level) {
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("{}: level must be in (0, 1); got {}", fn, level));
}

}  // namespace

std::pair<value, value> percentile_interval(std::span<const double> replicates, double level) {
  check_level("percentile_interval", level);
  const auto s = sorted_defined(replicates);
  if (s.empty()) {
    const auto u = value::undefined("no defined bootstrap replicate");
    return {u, u};
  }
  const double a = 1 - level;
  return {quantile_sorted(s, a / 2), quantile_sorted(s, 1 - a / 2)};
}

bca_result bca_interval(double estimate, std::span<const double> replicates, std::span<const double> jackknife,
                        double level) {
  check_level("bca_interval", level);
  bca_result r;
  const auto s = sorted_defined(replicates);
  if (s.empty()) {
    r.lower = r.upper = value::undefined("no defined bootstrap replicate");
    return r;
  }
  const auto below = static_cast<double>(std::lower_bound(s.begin(), s.end(), estimate) - s.begin());
  const auto at_or_below = static_cast<double>(std::upper_bound(s.begin(), s.end(), estimate) - s.begin());
  const double frac = (below + at_or_below) / (2 * static_cast<double>(s.size()));
  if (frac <= 0 || frac >= 1) {
    r.lower = r.upper =
        value::undefined("BCa undefined: every bootstrap replicate lies on one side of the estimate");
    r.z0 = frac <= 0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return r;
  }
  r.z0 = normal_quantile(frac);
  double mean = 0;
  std::size_t nj = 0;
  for (double t : jackknife) {
    if (std::isnan(t)) continue;
    mean += t;
    ++nj;
  }
  if (nj == 0) {
    r.lower = r.upper = value::undefined("BCa undefined: no defined jackknife estimate");
    return r;
  }
  mean /= static_cast<double>(nj);
  double num = 0, den = 0;
  for (double t : jackknife) {
    if (std::isnan(t)) continue;
    const double d = mean - t;
    num += d * d * d;
    den += d * d;
  }
  r.acceleration = den > 0 ? num / (6 * std::pow(den, 1.5)) : 0.0;
  const double za = normal_quantile((1 - level) / 2);
  auto adjusted = [&](double z) {
    const double t = r.z0 + z;
    const double denom = 1 - r.acceleration * t;
    return normal_cdf(r.z0 + t / denom);
  };
  const double a1 = adjusted(za), a2 = adjusted(-za);
  if (std::isnan(a1) || std::isnan(a2)) {
    r.lower = r.upper = value::undefined("BCa undefined: the adjusted levels are not numbers");
    return r;
  }
  r.lower = quantile_sorted(s, std::clamp(a1, 0.0, 1.0));
  r.upper = quantile_sorted(s, std::clamp(a2, 0.0, 1.0));
  return r;
}

namespace {

void check_options(const char* fn, std::size_t n_rows, const bootstrap_options& o) {
  if (n_rows == 0) throw_usage(fmt::format("{}: no rows to resample", fn));
  if (n_rows > std::numeric_limits<std::uint32_t>::max()) {
    throw_usage(fmt::format("{}: at most 4294967295 rows; got {}", fn, n_rows));
  }
  if (o.replicates < 1) throw_usage(fmt::format("{}: replicates must be >= 1; got 0", fn));
  check_level(fn, o.level);
  if (!o.strata.empty() && o.strata.size() != n_rows) {
    throw_usage(fmt::format("{}: strata has {} entries but there are {} rows", fn, o.strata.size(), n_rows));
  }
  if (o.method == bootstrap_method::bca && o.jackknife_max < 2) {
    throw_usage(fmt::format("{}: jackknife_max must be >= 2; got {}", fn, o.jackknife_max));
  }
}

/// Row indices of each stratum (one stratum holding every row when there are no strata).
std::vector<std::vector<std::uint32_t>> strata_members(std::size_t n_rows, std::span<const std::int32_t> strata) {
  if (strata.empty()) {
    std::vector<std::uint32_t> all(n_rows);
    std::iota(all.begin(), all.end(), 0u);
    return {all};
  }
  std::map<std::int32_t, std::vector<std::uint32_t>> by;
  for (std::size_t i = 0; i < n_rows; ++i) by[strata[i]].push_back(static_cast<std::uint32_t>(i));
  std::vector<std::vector<std::uint32_t>> out;
  for (auto& [k, v] : by) out.push_back(std::move(v));
  return out;
}

/// Draws replicate r's rows into `rows` (size n_rows).
void draw_rows(const std::vector<std::vector<std::uint32_t>>& members, std::uint64_t seed, std::size_t r,
               std::vector<std::uint32_t>& rows) {
  rng gen(seed, r);
  std::size_t k = 0;
  for (const auto& m : members) {
    const std::uint64_t size = m.size();
    for (std::size_t i = 0; i < m.size(); ++i) rows[k++] = m[gen.below(size)];
  }
}

/// Jackknife estimates: leave-one-out up to jackknife_max rows, else delete-a-group.
std::vector<double> jackknife(std::size_t n_rows, const resample_statistic& stat, const bootstrap_options& o) {
  const std::size_t groups = std::min(n_rows, o.jackknife_max);
  std::vector<double> out(groups);
  const unsigned threads = detail::resolve_threads(o.threads, groups);
  std::vector<std::vector<std::uint32_t>> buf(threads);
  detail::parallel_for(groups, threads, [&](unsigned t, std::size_t g) {
    auto& rows = buf[t];
    rows.clear();
    for (std::size_t i = 0; i < n_rows; ++i) {
      if (i % groups != g) rows.push_back(static_cast<std::uint32_t>(i));
    }
    out[g] = stat(rows);
  });
  return out;
}

/// The interval and summary from the replicate values; `jack` is called only for BCa.
template <class Jackknife>
void finish(bootstrap_result& res, std::vector<double>&& reps, const bootstrap_options& o, Jackknife&& jack) {
  res.level = o.level;
  res.method = o.method;
  res.replicates = reps.size();
  double sum = 0, sum_sq = 0;
  std::size_t defined = 0;
  for (double v : reps) {
    if (std::isnan(v)) {
      ++res.undefined_replicates;
      continue;
    }
    ++defined;
    sum += v;
  }
  const double mean = defined ? sum / static_cast<double>(defined) : 0.0;
  for (double v : reps) if (!std::isnan(v)) sum_sq += (v - mean) * (v - mean);
  res.std_error = defined > 1 ? std::sqrt(sum_sq / static_cast<double>(defined - 1)) : 0.0;
  if (o.method == bootstrap_method::percentile) {
    std::tie(res.lower, res.upper) = percentile_interval(reps, o.level);
  } else {
    const auto b = bca_interval(res.estimate, reps, jack(), o.level);
    res.lower = b.lower;
    res.upper = b.upper;
    res.z0 = b.z0;
    res.acceleration = b.acceleration;
  }
  if (o.keep_distribution) res.distribution = std::move(reps);
}

}  // namespace

bootstrap_result bootstrap_ci(std::size_t n_rows, const resample_statistic& statistic, const bootstrap_options& o) {
  check_options("bootstrap_ci", n_rows, o);
  if (!statistic) throw_usage("bootstrap_ci: statistic is empty");
  std::vector<std::uint32_t> all(n_rows);
  std::iota(all.begin(), all.end(), 0u);
  bootstrap_result res;
  res.estimate = statistic(all);
  const auto members = strata_members(n_rows, o.strata);
  std::vector<double> reps(o.replicates);
  const unsigned threads = detail::resolve_threads(o.threads, o.replicates);
  std::vector<std::vector<std::uint32_t>> buf(threads, std::vector<std::uint32_t>(n_rows));
  detail::parallel_for(o.replicates, threads, [&](unsigned t, std::size_t r) {
    draw_rows(members, o.seed, r, buf[t]);
    reps[r] = statistic(buf[t]);
  });
  finish(res, std::move(reps), o, [&] { return jackknife(n_rows, statistic, o); });
  return res;
}

paired_bootstrap_result paired_bootstrap(std::size_t n_rows, const resample_statistic& statistic_a,
                                         const resample_statistic& statistic_b, const bootstrap_options& o,
                                         alternative alt) {
  check_options("paired_bootstrap", n_rows, o);
  if (!statistic_a || !statistic_b) throw_usage("paired_bootstrap: a statistic is empty");
  std::vector<std::uint32_t> all(n_rows);
  std::iota(all.begin(), all.end(), 0u);
  paired_bootstrap_result res;
  res.estimate_a = statistic_a(all);
  res.estimate_b = statistic_b(all);
  res.difference.estimate = res.estimate_a - res.estimate_b;
  const auto members = strata_members(n_rows, o.strata);
  std::vector<double> reps(o.replicates);
  const unsigned threads = detail::resolve_threads(o.threads, o.replicates);
  std::vector<std::vector<std::uint32_t>> buf(threads, std::vector<std::uint32_t>(n_rows));
  detail::parallel_for(o.replicates, threads, [&](unsigned t, std::size_t r) {
    draw_rows(members, o.seed, r, buf[t]);
    reps[r] = statistic_a(buf[t]) - statistic_b(buf[t]);
  });
  auto diff = [&](std::span<const std::uint32_t> rows) { return statistic_a(rows) - statistic_b(rows); };
  finish(res.difference, std::move(reps), o, [&] { return jackknife(n_rows, diff, o); });
  res.test.method = "bootstrap_z";
  res.test.alt = alt;
  const double d = res.difference.estimate, sd = res.difference.std_error;
  if (sd > 0) res.test.statistic = d / sd;
  else res.test.statistic = d == 0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), d);
  const double z = res.test.statistic;
  if (d == 0 && sd == 0) res.test.p_value = 1;
  else if (alt == alternative::greater) res.test.p_value = normal_sf(z);
  else if (alt == alternative::less) res.test.p_value = normal_cdf(z);
  else res.test.p_value = std::min(1.0, 2 * normal_sf(std::fabs(z)));
  return res;
}

bootstrap_result bootstrap_auc(std::span<const std::int32_t> y_true, std::span<const double> y_score,
                               const bootstrap_options& o_in, bool stratified) {
  bootstrap_options o = o_in;
  o.strata = {};
  check_options("bootstrap_auc", y_true.size(), o);
  // delong() validates the labels and scores and gives the AUC and the placements (for the jackknife).
  const auto pl = delong(y_true, y_score);
  if (!pl.auc.defined()) throw_data(fmt::format("bootstrap_auc: the AUC is undefined: {}", pl.auc.reason));
  bootstrap_result res;
  res.estimate = pl.auc.v;
  const std::size_t n_all = y_true.size();

  // Sort once; number the groups of tied scores; record each case's group.
  std::vector<std::uint32_t> order(n_all);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return y_score[a] < y_score[b]; });
  std::vector<std::uint32_t> group_of(n_all);
  std::uint32_t groups = 0;
  for (std::size_t i = 0; i < n_all; ++i) {
    if (i > 0 && y_score[order[i]] != y_score[order[i - 1]]) ++groups;
    group_of[order[i]] = groups;
  }
  ++groups;
  // Group of each negative / positive / case, in input order: a replicate draws the same row
  // numbers as bootstrap_ci with the same seed (strata: negatives first, as label 0 sorts first).
  std::vector<std::uint32_t> pos_group, neg_group;
  std::vector<std::uint8_t> is_pos(n_all);
  for (std::size_t i = 0; i < n_all; ++i) {
    (y_true[i] == 1 ? pos_group : neg_group).push_back(group_of[i]);
    is_pos[i] = static_cast<std::uint8_t>(y_true[i] == 1);
  }

  std::vector<double> reps(o.replicates);
  const unsigned threads = detail::resolve_threads(o.threads, o.replicates);
  std::vector<std::vector<std::uint32_t>> cpos(threads, std::vector<std::uint32_t>(groups)),
      cneg(threads, std::vector<std::uint32_t>(groups));
  detail::parallel_for(o.replicates, threads, [&](unsigned t, std::size_t r) {
    auto& cp = cpos[t];
    auto& cn = cneg[t];
    std::fill(cp.begin(), cp.end(), 0u);
    std::fill(cn.begin(), cn.end(), 0u);
    rng gen(o.seed, r);
    if (stratified) {
      const std::uint64_t m = pos_group.size(), n = neg_group.size();
      for (std::uint64_t i = 0; i < n; ++i) ++cn[neg_group[gen.below(n)]];
      for (std::uint64_t i = 0; i < m; ++i) ++cp[pos_group[gen.below(m)]];
    } else {
      const std::uint64_t n = n_all;
      for (std::uint64_t i = 0; i < n; ++i) {
        const auto k = gen.below(n);
        ++(is_pos[k] ? cp : cn)[group_of[k]];
      }
    }
    double wins = 0, neg_below = 0, m = 0;
    for (std::uint32_t g = 0; g < groups; ++g) {
      const double p = cp[g], q = cn[g];
      wins += p * (neg_below + 0.5 * q);
      neg_below += q;
      m += p;
    }
    reps[r] = m == 0 || neg_below == 0 ? std::numeric_limits<double>::quiet_NaN() : wins / (m * neg_below);
  });
  finish(res, std::move(reps), o, [&] {
    // Leave-one-out AUC from the placements: U = sum_i n V10_i pairs won; removing positive i
    // leaves (U - n V10_i) / ((m - 1) n); removing negative j leaves (U - m V01_j) / (m (n - 1)).
    const double m = static_cast<double>(pl.n_pos), n = static_cast<double>(pl.n_neg);
    const double u = pl.auc.v * m * n;
    std::vector<double> jack;
    jack.reserve(n_all);
    for (double v : pl.v10) jack.push_back(m > 1 ? (u - n * v) / ((m - 1) * n) : std::nan(""));
    for (double v : pl.v01) jack.push_back(n > 1 ? (u - m * v) / (m * (n - 1)) : std::nan(""));
    return jack;
  });
  return res;
}

}  // namespace assay::stats
