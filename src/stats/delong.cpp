#include "assay/stats/delong.hpp"
#include "assay/stats/slices.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>

#include "assay/error.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/stats/detail/radix_sort.hpp"

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

/// The placements of one model. Totals (AUC, S10, S01, variance) always; with `per_case`, also
/// each case's placement (V10 for a positive, V01 for a negative) in input order.
delong_placements placements(std::span<const std::int32_t> y, std::span<const double> s,
                             std::vector<double>* per_case = nullptr, unsigned sort_threads = 1) {
  delong_placements p;
  const std::size_t n_all = y.size();
  for (auto v : y) (v == 1 ? p.n_pos : p.n_neg) += 1;
  if (p.n_pos == 0 || p.n_neg == 0) {
    p.auc = value::undefined(p.n_pos == 0 ? "no positive case" : "no negative case");
    p.s10 = p.s01 = p.variance = p.auc;
    return p;
  }
  // One stable radix sort of (score, case, label); then one sweep over the groups of tied scores.
  const auto items = detail::sort_by_score(s, y, sort_threads);
  const double m = static_cast<double>(p.n_pos), n = static_cast<double>(p.n_neg);
  if (per_case) per_case->resize(n_all);
  // visit(v10, v01, positives, negatives) for each group of tied scores, in score order.
  auto sweep = [&](auto&& visit) {
    double pos_below = 0, neg_below = 0;
    for (std::size_t i = 0; i < n_all;) {
      std::size_t j = i;
      double pos_here = 0, neg_here = 0;
      while (j < n_all && items[j].score == items[i].score) {
        (items[j].label == 1 ? pos_here : neg_here) += 1;
        ++j;
      }
      // Positives of this tie group beat the negatives below and tie with the negatives here;
      // negatives here lose to the positives above and tie with the positives here.
      const double v10 = (neg_below + 0.5 * neg_here) / n;
      const double v01 = (m - pos_below - pos_here + 0.5 * pos_here) / m;
      visit(i, j, v10, v01, pos_here, neg_here);
      pos_below += pos_here;
      neg_below += neg_here;
      i = j;
    }
  };
  double wins = 0;
  sweep([&](std::size_t i, std::size_t j, double v10, double v01, double pos, double) {
    wins += pos * v10;
    if (per_case) {
      for (std::size_t t = i; t < j; ++t) (*per_case)[items[t].index] = items[t].label == 1 ? v10 : v01;
    }
  });
  const double auc = wins / m;
  p.auc = auc;
  // Second sweep for the sums of squares about the AUC (two passes: no cancellation).
  double ss10 = 0, ss01 = 0;
  sweep([&](std::size_t, std::size_t, double v10, double v01, double pos, double neg) {
    ss10 += pos * (v10 - auc) * (v10 - auc);
    ss01 += neg * (v01 - auc) * (v01 - auc);
  });
  const auto too_few = [&](const char* why) { return value::undefined(why); };
  p.s10 = p.n_pos >= 2 ? value(ss10 / (m - 1)) : too_few("fewer than 2 positive cases");
  p.s01 = p.n_neg >= 2 ? value(ss01 / (n - 1)) : too_few("fewer than 2 negative cases");
  if (!p.s10.defined()) p.variance = p.s10;
  else if (!p.s01.defined()) p.variance = p.s01;
  else p.variance = p.s10.v / m + p.s01.v / n;
  return p;
}

/// The totals (AUC, S10, S01, variance) from the groups of tied scores in ascending score order:
/// `groups(f)` calls f(positives here, negatives here) once per group. The one body of
/// placement_totals and of delong_ci_grouped (the same sums in the same order as placements()).
template <class Groups>
delong_placements totals_of_groups(std::size_t n_pos, std::size_t n_neg, const Groups& groups) {
  delong_placements p;
  p.n_pos = n_pos;
  p.n_neg = n_neg;
  if (p.n_pos == 0 || p.n_neg == 0) {
    p.auc = value::undefined(p.n_pos == 0 ? "no positive case" : "no negative case");
    p.s10 = p.s01 = p.variance = p.auc;
    return p;
  }
  const double m = static_cast<double>(n_pos), n = static_cast<double>(n_neg);
  auto sweep = [&](auto&& visit) {
    double pos_below = 0, neg_below = 0;
    groups([&](double pos_here, double neg_here) {
      visit((neg_below + 0.5 * neg_here) / n, (m - pos_below - pos_here + 0.5 * pos_here) / m, pos_here, neg_here);
      pos_below += pos_here;
      neg_below += neg_here;
    });
  };
  double wins = 0;
  sweep([&](double v10, double, double pos, double) { wins += pos * v10; });
  const double auc = wins / m;
  p.auc = auc;
  double ss10 = 0, ss01 = 0;
  sweep([&](double v10, double v01, double pos, double neg) {
    ss10 += pos * (v10 - auc) * (v10 - auc);
    ss01 += neg * (v01 - auc) * (v01 - auc);
  });
  p.s10 = p.n_pos >= 2 ? value(ss10 / (m - 1)) : value::undefined("fewer than 2 positive cases");
  p.s01 = p.n_neg >= 2 ? value(ss01 / (n - 1)) : value::undefined("fewer than 2 negative cases");
  if (!p.s10.defined()) p.variance = p.s10;
  else if (!p.s01.defined()) p.variance = p.s01;
  else p.variance = p.s10.v / m + p.s01.v / n;
  return p;
}

/// The totals of placements() (AUC, S10, S01, variance) without per-case placements: each class's
/// order keys are sorted on their own (8-byte records; the two sorts on two threads for large N) and
/// the groups of tied scores are visited in the merged order. Same sums in the same order as
/// placements(), so the same numbers.
delong_placements placement_totals(std::span<const std::int32_t> y, std::span<const double> s) {
  std::size_t n_pos = 0, n_neg = 0;
  for (auto v : y) (v == 1 ? n_pos : n_neg) += 1;
  if (n_pos == 0 || n_neg == 0) return totals_of_groups(n_pos, n_neg, [](auto&&) {});
  std::vector<std::uint64_t> kp, kn;
  kp.reserve(n_pos);
  kn.reserve(n_neg);
  for (std::size_t i = 0; i < y.size(); ++i) (y[i] == 1 ? kp : kn).push_back(detail::order_key(s[i]));
  if (y.size() >= 100000) {
    assay::detail::run_both([&] { detail::sort_keys(kp); }, [&] { detail::sort_keys(kn); });
  } else {
    detail::sort_keys(kp);
    detail::sort_keys(kn);
  }
  const std::size_t mp = kp.size(), nn = kn.size();
  return totals_of_groups(n_pos, n_neg, [&](auto&& f) {
    std::size_t i = 0, j = 0;
    while (i < mp || j < nn) {
      const std::uint64_t k = i == mp ? kn[j] : j == nn ? kp[i] : std::min(kp[i], kn[j]);
      const std::size_t i0 = i, j0 = j;
      while (i < mp && kp[i] == k) ++i;
      while (j < nn && kn[j] == k) ++j;
      f(static_cast<double>(i - i0), static_cast<double>(j - j0));
    }
  });
}

auc_interval interval_of(const delong_placements& p, double level) {
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

/// S10_ab / m + S01_ab / n from the per-case placements of two models.
double placement_covariance(std::span<const std::int32_t> y, const std::vector<double>& a, double auc_a,
                            const std::vector<double>& b, double auc_b, double m, double n) {
  double c10 = 0, c01 = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double t = (a[i] - auc_a) * (b[i] - auc_b);
    (y[i] == 1 ? c10 : c01) += t;
  }
  return c10 / (m - 1) / m + c01 / (n - 1) / n;
}

/// The threads of the sort of one model (the result does not depend on it).
unsigned all_threads() { return assay::detail::team_threads(~0u); }

double ratio_or_limit(double d, double se) {
  if (se > 0) return d / se;
  if (d == 0) return 0.0;
  return d > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
}

}  // namespace

delong_placements delong(std::span<const std::int32_t> y_true, std::span<const double> y_score) {
  check_inputs("delong", "y_true", y_true, "y_score", y_score);
  std::vector<double> per_case;
  auto p = placements(y_true, y_score, &per_case, all_threads());
  if (!p.auc.defined()) return p;
  p.v10.reserve(p.n_pos);
  p.v01.reserve(p.n_neg);
  for (std::size_t i = 0; i < y_true.size(); ++i) (y_true[i] == 1 ? p.v10 : p.v01).push_back(per_case[i]);
  return p;
}

auc_interval delong_ci(std::span<const std::int32_t> y_true, std::span<const double> y_score, double level) {
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("delong_ci: level must be in (0, 1); got {}", level));
  check_inputs("delong_ci", "y_true", y_true, "y_score", y_score);
  return interval_of(placement_totals(y_true, y_score), level);
}

auc_interval delong_ci_grouped(std::span<const std::uint64_t> positives, std::span<const std::uint64_t> negatives,
                               double level) {
  const char* fn = "delong_ci_grouped";
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("{}: level must be in (0, 1); got {}", fn, level));
  if (positives.size() != negatives.size()) {
    throw_usage(fmt::format("{}: {} groups of positives but {} of negatives", fn, positives.size(), negatives.size()));
  }
  std::uint64_t n_pos = 0, n_neg = 0;
  for (std::size_t g = 0; g < positives.size(); ++g) {
    n_pos += positives[g];
    n_neg += negatives[g];
  }
  return delong_ci_grouped(
      n_pos, n_neg,
      [&](const std::function<void(std::uint64_t, std::uint64_t)>& f) {
        for (std::size_t g = 0; g < positives.size(); ++g) f(positives[g], negatives[g]);
      },
      level);
}

auc_interval delong_ci_grouped(std::uint64_t n_pos, std::uint64_t n_neg, const tie_group_source& groups, double level) {
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("delong_ci_grouped: level must be in (0, 1); got {}", level));
  return interval_of(totals_of_groups(static_cast<std::size_t>(n_pos), static_cast<std::size_t>(n_neg),
                                      [&](auto&& f) {
                                        groups([&](std::uint64_t p, std::uint64_t n) {
                                          if (p + n == 0) return;
                                          f(static_cast<double>(p), static_cast<double>(n));
                                        });
                                      }),
                     level);
}

delong_test_result delong_paired_test(std::span<const std::int32_t> y_true, std::span<const double> score_a,
                                      std::span<const double> score_b, alternative alt, double level) {
  const char* fn = "delong_paired_test";
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("{}: level must be in (0, 1); got {}", fn, level));
  check_inputs(fn, "y_true", y_true, "score_a", score_a);
  check_inputs(fn, "y_true", y_true, "score_b", score_b);
  std::vector<double> va, vb;
  delong_placements pa, pb;
  if (y_true.size() >= 100000) {  // the two models are independent work: one thread each
    assay::detail::run_both([&] { pa = placements(y_true, score_a, &va); },
                            [&] { pb = placements(y_true, score_b, &vb); });
  } else {
    pa = placements(y_true, score_a, &va);
    pb = placements(y_true, score_b, &vb);
  }
  if (!pa.variance.defined()) throw_data(fmt::format("{}: the DeLong variance is undefined: {}", fn, pa.variance.reason));
  const double m = static_cast<double>(pa.n_pos), n = static_cast<double>(pa.n_neg);
  const double aa = pa.auc.v, ab = pb.auc.v;
  const double cov = placement_covariance(y_true, va, aa, vb, ab, m, n);
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
  const auto pa = placement_totals(y_a, score_a);
  const auto pb = placement_totals(y_b, score_b);
  if (!pa.variance.defined()) throw_data(fmt::format("{}: sample a: {}", fn, pa.variance.reason));
  if (!pb.variance.defined()) throw_data(fmt::format("{}: sample b: {}", fn, pb.variance.reason));
  // The test itself from the two summaries: one implementation with the slices' tests.
  const auto summary = [](const auto& p) {
    auc_variance s;
    s.n_pos = p.n_pos;
    s.n_neg = p.n_neg;
    s.auc = p.auc;
    s.variance = p.variance;
    return s;
  };
  return delong_unpaired_from_variances(summary(pa), summary(pb), alt);
}

}  // namespace assay::stats
