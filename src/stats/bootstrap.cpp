#include "assay/stats/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <numeric>

#include "assay/error.hpp"
#include "assay/stats/delong.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/stats/detail/radix_sort.hpp"
#include "assay/stats/detail/replicates.hpp"
#include "assay/stats/detail/weighted_sweep.hpp"
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

namespace detail {

std::vector<bootstrap_result> summarise_replicates(std::vector<double>&& reps, std::span<const double> estimates,
                                                   const bootstrap_options& o) {
  const std::size_t B = o.replicates;
  std::vector<bootstrap_result> res(estimates.size());
  for (std::size_t s = 0; s < res.size(); ++s) {
    auto& x = res[s];
    const std::span<const double> v(reps.data() + s * B, B);
    x.estimate = estimates[s];
    x.level = o.level;
    x.method = bootstrap_method::percentile;
    x.replicates = B;
    double sum = 0;
    std::size_t defined = 0;
    for (double y : v) {
      if (std::isnan(y)) ++x.undefined_replicates;
      else sum += y, ++defined;
    }
    const double mean = defined ? sum / static_cast<double>(defined) : 0.0;
    double ss = 0;
    for (double y : v)
      if (!std::isnan(y)) ss += (y - mean) * (y - mean);
    x.std_error = defined > 1 ? std::sqrt(ss / static_cast<double>(defined - 1)) : 0.0;
    std::tie(x.lower, x.upper) = percentile_interval(v, o.level);
    if (o.keep_distribution) x.distribution.assign(v.begin(), v.end());
  }
  return res;
}

}  // namespace detail

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

/// Jackknife estimates: leave-one-out up to jackknife_max rows, else delete-a-group.
std::vector<double> jackknife(std::size_t n_rows, const resample_statistic& stat, const bootstrap_options& o) {
  const std::size_t groups = std::min(n_rows, o.jackknife_max);
  std::vector<double> out(groups);
  const unsigned threads = assay::detail::resolve_threads(o.threads, groups);
  std::vector<std::vector<std::uint32_t>> buf(threads);
  assay::detail::parallel_for(groups, threads, [&](unsigned t, std::size_t g) {
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
  const auto members = detail::strata_members(n_rows, o.strata);
  std::vector<double> reps(o.replicates);
  detail::for_each_replicate(o.replicates, o.seed, o.threads, std::vector<std::uint32_t>(n_rows),
                             [&](rng& gen, std::vector<std::uint32_t>& rows, std::size_t r) {
                               detail::draw_rows(members, gen, rows);
                               reps[r] = statistic(rows);
                             });
  finish(res, std::move(reps), o, [&] { return jackknife(n_rows, statistic, o); });
  return res;
}

namespace {
void set_bootstrap_z(paired_bootstrap_result& res, alternative alt);
}  // namespace

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
  const auto members = detail::strata_members(n_rows, o.strata);
  std::vector<double> reps(o.replicates);
  detail::for_each_replicate(o.replicates, o.seed, o.threads, std::vector<std::uint32_t>(n_rows),
                             [&](rng& gen, std::vector<std::uint32_t>& rows, std::size_t r) {
                               detail::draw_rows(members, gen, rows);
                               reps[r] = statistic_a(rows) - statistic_b(rows);
                             });
  auto diff = [&](std::span<const std::uint32_t> rows) { return statistic_a(rows) - statistic_b(rows); };
  finish(res.difference, std::move(reps), o, [&] { return jackknife(n_rows, diff, o); });
  set_bootstrap_z(res, alt);
  return res;
}

namespace {

void set_bootstrap_z(paired_bootstrap_result& res, alternative alt) {
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
}

/// The cases sorted by score, arranged for O(N) AUC sweeps over multiplicities.
struct sorted_auc_cases {
  std::size_t m = 0, n = 0;
  // Stratified: positives and negatives each sorted by score; for the k-th positive, the number of
  // negatives scored below it (lo) and at or below it (hi).
  std::vector<std::uint32_t> lo, hi;
  // Simple resampling: all cases sorted by score, with their class and the start of each tie group.
  std::vector<std::uint8_t> is_pos, group_start;
};

sorted_auc_cases sort_cases(std::span<const std::int32_t> y, std::span<const double> s) {
  struct item {
    double score;
    std::int32_t label;
  };
  // Stable: "the k-th case in score order" must not depend on the sort algorithm.
  const auto sorted = detail::sort_by_score(s, y);
  std::vector<item> items(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) items[i] = {sorted[i].score, sorted[i].label};
  sorted_auc_cases c;
  c.is_pos.resize(items.size());
  c.group_start.resize(items.size());
  std::size_t neg_seen = 0;
  for (std::size_t i = 0; i < items.size();) {
    std::size_t j = i, neg_here = 0;
    while (j < items.size() && items[j].score == items[i].score) {
      neg_here += items[j].label == 0;
      ++j;
    }
    for (std::size_t t = i; t < j; ++t) {
      c.is_pos[t] = static_cast<std::uint8_t>(items[t].label == 1);
      c.group_start[t] = static_cast<std::uint8_t>(t == i);
      if (items[t].label == 1) {
        c.lo.push_back(static_cast<std::uint32_t>(neg_seen));
        c.hi.push_back(static_cast<std::uint32_t>(neg_seen + neg_here));
      }
    }
    neg_seen += neg_here;
    i = j;
  }
  c.m = c.lo.size();
  c.n = neg_seen;
  return c;
}

/// Adds `draws` uniform picks from [0, size) to the counts (which start at 0); false if a count
/// overflowed. Checked after the draws: each wrap of an 8-bit count loses 256 from the total, so
/// the total equals `draws` exactly when nothing wrapped.
template <class Count>
bool draw_counts(rng& gen, std::uint64_t size, std::uint64_t draws, std::vector<Count>& counts) {
  for (std::uint64_t i = 0; i < draws; ++i) ++counts[gen.below(size)];
  std::uint64_t total = 0;
  for (const Count c : counts) total += c;
  return total == draws;
}

/// AUC of one stratified replicate from the multiplicities of the sorted positives (cp) and
/// negatives (cn): sum_k cp_k (negatives below + half the tied negatives) / (m n). Integer sums
/// (exact, and the same numbers as a sum in doubles, which is exact below 2^53 too); one walk over
/// the negatives, since in score order lo[k + 1] >= hi[k] unless positive k + 1 ties with k.
template <class Count>
double stratified_auc(const sorted_auc_cases& c, const std::vector<Count>& cp, const std::vector<Count>& cn) {
  std::uint64_t cum = 0, below = 0, through = 0, wins2 = 0;  // wins2 = 2 x pairs won
  std::size_t j = 0;
  std::uint32_t last_lo = 0, last_hi = 0;
  for (std::size_t k = 0; k < c.m; ++k) {
    if (k == 0 || c.lo[k] != last_lo || c.hi[k] != last_hi) {
      last_lo = c.lo[k];
      last_hi = c.hi[k];
      for (; j < c.lo[k]; ++j) cum += cn[j];
      below = cum;
      for (; j < c.hi[k]; ++j) cum += cn[j];
      through = cum;
    }
    wins2 += static_cast<std::uint64_t>(cp[k]) * (below + through);
  }
  return static_cast<double>(wins2) / (2.0 * static_cast<double>(c.m) * static_cast<double>(c.n));
}

/// AUC of one simple-resampling replicate from the multiplicities of all sorted cases, by the one
/// weighted sweep (detail/weighted_sweep.hpp), from the highest score down; NaN when the replicate
/// holds a single class.
template <class Count>
double simple_auc(const sorted_auc_cases& c, const std::vector<Count>& w) {
  detail::ranking_sweep sweep;
  double gp = 0, gn = 0;
  for (std::size_t t = w.size(); t-- > 0;) {
    (c.is_pos[t] ? gp : gn) += w[t];
    if (c.group_start[t]) {
      sweep.group(gp, gn);
      gp = gn = 0;
    }
  }
  return sweep.auc();
}

/// The same replicate with 32-bit counts: the fallback when an 8-bit count overflowed (a case drawn
/// 256 times or more; practically never, but handled exactly).
double replicate_wide(const sorted_auc_cases& c, const bootstrap_options& o, std::size_t r, bool stratified) {
  rng gen(o.seed, r);
  if (stratified) {
    std::vector<std::uint32_t> cp(c.m, 0), cn(c.n, 0);
    for (std::size_t i = 0; i < c.n; ++i) ++cn[gen.below(c.n)];
    for (std::size_t i = 0; i < c.m; ++i) ++cp[gen.below(c.m)];
    return stratified_auc(c, cp, cn);
  }
  std::vector<std::uint32_t> w(c.is_pos.size(), 0);
  for (std::size_t i = 0; i < w.size(); ++i) ++w[gen.below(w.size())];
  return simple_auc(c, w);
}

}  // namespace

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
  const auto cases = sort_cases(y_true, y_score);

  // Each replicate draws multiplicities of the cases in score order (negatives first, then
  // positives, when stratified) into 8-bit counters, which keeps the randomly accessed memory at one
  // byte per case, then sweeps them once. 8-bit overflow falls back to 32-bit counts.
  std::vector<double> reps(o.replicates);
  using counts = std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>>;
  detail::for_each_replicate(o.replicates, o.seed, o.threads, counts{}, [&](rng& gen, counts& c, std::size_t r) {
    bool ok = true;
    if (stratified) {
      auto& cp = c.first;
      auto& cn = c.second;
      cp.assign(cases.m, 0);
      cn.assign(cases.n, 0);
      ok = draw_counts(gen, cases.n, cases.n, cn) && draw_counts(gen, cases.m, cases.m, cp);
      if (ok) reps[r] = stratified_auc(cases, cp, cn);
    } else {
      auto& w = c.first;
      w.assign(n_all, 0);
      ok = draw_counts(gen, n_all, n_all, w);
      if (ok) reps[r] = simple_auc(cases, w);
    }
    if (!ok) reps[r] = replicate_wide(cases, o, r, stratified);
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

namespace {

/// One model's order of the cases for the paired AUC bootstrap: positives and negatives by score, as
/// their rank among the positives (negatives) in input order, and for each positive the number of
/// negatives scored below it (lo) and at or below it (hi).
struct paired_order {
  std::vector<std::uint32_t> pos_id, neg_id, lo, hi;
};

paired_order order_cases(std::span<const std::int32_t> y, std::span<const double> s) {
  std::vector<std::uint32_t> id(y.size());
  std::uint32_t np = 0, nn = 0;
  for (std::size_t i = 0; i < y.size(); ++i) id[i] = y[i] == 1 ? np++ : nn++;
  const auto sorted = detail::sort_by_score(s, y);
  paired_order o;
  o.pos_id.reserve(np);
  o.neg_id.reserve(nn);
  std::uint32_t neg_seen = 0;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    std::uint32_t neg_here = 0;
    while (j < sorted.size() && sorted[j].score == sorted[i].score) neg_here += sorted[j++].label == 0;
    for (std::size_t t = i; t < j; ++t) {
      if (sorted[t].label == 1) {
        o.pos_id.push_back(id[sorted[t].index]);
        o.lo.push_back(neg_seen);
        o.hi.push_back(neg_seen + neg_here);
      } else {
        o.neg_id.push_back(id[sorted[t].index]);
      }
    }
    neg_seen += neg_here;
    i = j;
  }
  return o;
}

/// The AUC of one model on a replicate given by the multiplicities of the positives (cp) and
/// negatives (cn) in input order: stratified_auc with the model's order applied.
template <class Count>
double paired_auc(const paired_order& o, const std::vector<Count>& cp, const std::vector<Count>& cn) {
  std::uint64_t cum = 0, below = 0, through = 0, wins2 = 0;
  std::size_t j = 0;
  for (std::size_t k = 0; k < o.pos_id.size(); ++k) {
    if (k == 0 || o.lo[k] != o.lo[k - 1] || o.hi[k] != o.hi[k - 1]) {
      for (; j < o.lo[k]; ++j) cum += cn[o.neg_id[j]];
      below = cum;
      for (; j < o.hi[k]; ++j) cum += cn[o.neg_id[j]];
      through = cum;
    }
    wins2 += static_cast<std::uint64_t>(cp[o.pos_id[k]]) * (below + through);
  }
  return static_cast<double>(wins2) /
         (2.0 * static_cast<double>(o.pos_id.size()) * static_cast<double>(o.neg_id.size()));
}

/// Replicate r's multiplicities: n_neg draws among the negatives, then n_pos among the positives,
/// from stream (seed, r): the draws of bootstrap_ci / paired_bootstrap with strata = y_true.
template <class Count>
bool draw_stratified(rng gen, std::vector<Count>& cp, std::vector<Count>& cn) {
  const bool ok_n = draw_counts(gen, cn.size(), cn.size(), cn);
  return draw_counts(gen, cp.size(), cp.size(), cp) && ok_n;
}

}  // namespace

paired_bootstrap_result paired_bootstrap_auc(std::span<const std::int32_t> y_true, std::span<const double> score_a,
                                             std::span<const double> score_b, const bootstrap_options& o_in,
                                             alternative alt) {
  bootstrap_options o = o_in;
  o.strata = {};
  check_options("paired_bootstrap_auc", y_true.size(), o);
  if (score_a.size() != y_true.size() || score_b.size() != y_true.size()) {
    throw_usage(fmt::format("paired_bootstrap_auc: y_true has {} cases but score_a has {} and score_b {}",
                            y_true.size(), score_a.size(), score_b.size()));
  }
  const auto pa = delong(y_true, score_a);  // validates labels and scores
  const auto pb = delong(y_true, score_b);
  if (!pa.auc.defined()) throw_data(fmt::format("paired_bootstrap_auc: the AUC is undefined: {}", pa.auc.reason));
  paired_bootstrap_result res;
  res.estimate_a = pa.auc.v;
  res.estimate_b = pb.auc.v;
  res.difference.estimate = res.estimate_a - res.estimate_b;
  const auto oa = order_cases(y_true, score_a), ob = order_cases(y_true, score_b);
  const std::size_t m = pa.n_pos, n = pa.n_neg;
  std::vector<double> reps(o.replicates);
  using counts = std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>>;
  detail::for_each_replicate(o.replicates, o.seed, o.threads, counts{}, [&](rng& gen, counts& c, std::size_t r) {
    auto& cp = c.first;
    auto& cn = c.second;
    cp.assign(m, 0);
    cn.assign(n, 0);
    const rng start = gen;  // draw_stratified takes a copy: `start` can replay the same draws
    if (draw_stratified(start, cp, cn)) {
      reps[r] = paired_auc(oa, cp, cn) - paired_auc(ob, cp, cn);
    } else {  // a case drawn 256 times or more: the same draws with 32-bit counts
      std::vector<std::uint32_t> wp(m, 0), wn(n, 0);
      draw_stratified(start, wp, wn);
      reps[r] = paired_auc(oa, wp, wn) - paired_auc(ob, wp, wn);
    }
  });
  finish(res.difference, std::move(reps), o, [&] {
    // Leave-one-out differences from both models' placements (see bootstrap_auc), in input order
    // of the positives, then of the negatives.
    const double md = static_cast<double>(m), nd = static_cast<double>(n);
    const double ua = pa.auc.v * md * nd, ub = pb.auc.v * md * nd;
    std::vector<double> jack;
    jack.reserve(m + n);
    for (std::size_t i = 0; i < m; ++i)
      jack.push_back(m > 1 ? ((ua - nd * pa.v10[i]) - (ub - nd * pb.v10[i])) / ((md - 1) * nd) : std::nan(""));
    for (std::size_t j = 0; j < n; ++j)
      jack.push_back(n > 1 ? ((ua - md * pa.v01[j]) - (ub - md * pb.v01[j])) / (md * (nd - 1)) : std::nan(""));
    return jack;
  });
  set_bootstrap_z(res, alt);
  return res;
}

}  // namespace assay::stats
