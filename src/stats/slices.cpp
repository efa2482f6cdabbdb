// Tests of one slice against the rest; see include/assay/stats/slices.hpp.
#include "assay/stats/slices.hpp"
#include "assay/stats/two_proportions.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <memory>

#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"
#include "assay/stats/detail/radix_sort.hpp"
#include "assay/stats/distributions.hpp"

namespace assay::stats {

auc_variance delong_auc_variance(std::span<const std::int32_t> y_true, std::span<const double> y_score) {
  const auto p = delong(y_true, y_score);
  return {p.n_pos, p.n_neg, p.auc, p.variance};
}

delong_test_result delong_unpaired_from_variances(const auc_variance& a, const auc_variance& b, alternative alt) {
  const char* fn = "delong_unpaired_from_variances";
  if (!a.variance.defined()) throw_usage(fmt::format("{}: sample a: {}", fn, a.variance.reason));
  if (!b.variance.defined()) throw_usage(fmt::format("{}: sample b: {}", fn, b.variance.reason));
  const double va = a.variance.v, vb = b.variance.v;
  delong_test_result r;
  r.auc_a = a.auc.v;
  r.auc_b = b.auc.v;
  r.difference = r.auc_a - r.auc_b;
  r.std_error = std::sqrt(va + vb);
  r.diff_lower = r.diff_upper = value::undefined("no interval for the unpaired test");
  r.test.method = "delong_unpaired";
  r.test.alt = alt;
  if (r.std_error == 0) {
    const double inf = std::numeric_limits<double>::infinity();
    r.test.statistic = r.difference == 0 ? 0.0 : r.difference > 0 ? inf : -inf;
    r.test.p_value = r.difference == 0 ? 1.0
                     : (alt == alternative::two_sided || (alt == alternative::greater) == (r.difference > 0)) ? 0.0
                                                                                                                : 1.0;
    return r;
  }
  r.test.statistic = r.difference / r.std_error;
  const double na = static_cast<double>(a.n_pos + a.n_neg), nb = static_cast<double>(b.n_pos + b.n_neg);
  r.test.df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
  const double t = r.test.statistic;
  if (alt == alternative::greater) r.test.p_value = t_sf(t, r.test.df);
  else if (alt == alternative::less) r.test.p_value = t_cdf(t, r.test.df);
  else r.test.p_value = std::min(1.0, 2 * t_sf(std::fabs(t), r.test.df));
  return r;
}

row_groups group_rows(std::span<const std::int32_t> codes, std::size_t slices) {
  if (codes.size() >= (std::size_t{1} << 32)) {
    throw_usage(fmt::format("group_rows: {} rows; at most 2^32 - 1 are supported", codes.size()));
  }
  row_groups g;
  g.offsets.assign(slices + 1, 0);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const auto c = codes[i];
    if (c < 0 || static_cast<std::size_t>(c) >= slices) {
      throw_usage(fmt::format("group_rows: codes[{}] is {}; codes must be in [0, {})", i, c, slices));
    }
    ++g.offsets[static_cast<std::size_t>(c) + 1];
  }
  for (std::size_t s = 0; s < slices; ++s) g.offsets[s + 1] += g.offsets[s];
  g.code.assign(codes.begin(), codes.end());
  g.order.resize(codes.size());
  std::vector<std::size_t> next(g.offsets.begin(), g.offsets.end() - 1);
  for (std::size_t i = 0; i < codes.size(); ++i) g.order[next[static_cast<std::size_t>(codes[i])]++] = static_cast<std::uint32_t>(i);
  return g;
}

namespace {

using real = long double;  // the rest's sums of squared counts reach 10^21 at 10^7 rows

// Prefix sums over the tied-score groups of W, W X and W X^2 (W: a class's count in the group, X: the
// count of the other class it beats, ties counting 1/2), for sums over runs of groups. Entry g holds
// the sums over the groups before g and g's own W and X in one 64-byte cache line: a slice's walk
// touches each of its groups once, and with many distinct scores those touches are cache misses, so
// one line per touch (not one per array) is what the walk costs.
struct prefix {
  struct alignas(64) entry {
    real w, wx, wx2;  // over the groups before this one
    double W, X;      // this group's
  };
  std::unique_ptr<entry[]> e;  // not zeroed: set() writes every entry in order
  std::size_t groups;
  real w = 0, wx = 0, wx2 = 0;  // running sums while set() is called; then the totals
  explicit prefix(std::size_t n) : e(new entry[n]), groups(n) {}
  // Groups are set in order g = 0, 1, ...
  void set(std::size_t g, double W, double X) {
    e[g] = {w, wx, wx2, W, X};
    w += W;
    wx += static_cast<real>(W) * X;
    wx2 += static_cast<real>(W) * X * X;
  }
};

// Sum over the groups [lo, hi) of W (X - f) and W (X - f)^2, from the prefix sums at lo and at hi.
void add_run(real lo_w, real lo_wx, real lo_wx2, real hi_w, real hi_wx, real hi_wx2, real f, real& s1, real& s2) {
  const real W = hi_w - lo_w, WX = hi_wx - lo_wx, WX2 = hi_wx2 - lo_wx2;
  s1 += WX - f * W;
  s2 += WX2 - 2 * f * WX + f * f * W;
}

// Sum over every group of W (X - f(g))^k, k = 1, 2, where f(g) is the count of the slice's steps
// strictly before g plus half those at g (groups in the prefix's order). The slice's groups are
// visited in that order: visit i is group group_of(i) with step count count_of(i) (0: no step there,
// the group only lies in the slice), and X of every visited group is stored in xs[i], so the caller
// reads it from there instead of from the prefix again. The entries ahead are prefetched: the groups
// of one slice are scattered over all of them, and the walk would otherwise wait on each.
template <class GroupOf, class CountOf>
void stepped_sums(const prefix& P, std::size_t visits, GroupOf group_of, CountOf count_of, std::vector<double>& xs,
                  real& s1, real& s2) {
  constexpr std::size_t ahead = 16;
  for (std::size_t i = 0; i < std::min(ahead, visits); ++i) __builtin_prefetch(&P.e[group_of(i)]);
  real from_w = 0, from_wx = 0, from_wx2 = 0;  // the prefix sums where the current run starts
  std::size_t from = 0;
  real c = 0;
  xs.resize(visits);
  for (std::size_t i = 0; i < visits; ++i) {
    if (i + ahead < visits) __builtin_prefetch(&P.e[group_of(i + ahead)]);
    const std::size_t g = group_of(i);
    const prefix::entry& at = P.e[g];
    xs[i] = at.X;
    const double k = count_of(i);
    if (k == 0) continue;
    if (g > from) add_run(from_w, from_wx, from_wx2, at.w, at.wx, at.wx2, c, s1, s2);
    const real f = c + static_cast<real>(k) / 2, d = static_cast<real>(at.X) - f;
    s1 += at.W * d;
    s2 += at.W * d * d;
    c += k;
    from = g + 1;
    from_w = at.w + at.W;
    from_wx = at.wx + static_cast<real>(at.W) * at.X;
    from_wx2 = at.wx2 + static_cast<real>(at.W) * at.X * at.X;
  }
  if (from < P.groups) add_run(from_w, from_wx, from_wx2, P.w, P.wx, P.wx2, c, s1, s2);
}

// One group of tied scores that holds rows of the slice: its global group index and the slice's
// positives and negatives in it.
struct slice_group {
  std::uint32_t g;
  double pos, neg;
};

auc_variance summary(double m, double n, real sum_pos, real sum2_pos, real sum2_neg) {
  auc_variance r;
  r.n_pos = static_cast<std::size_t>(m);
  r.n_neg = static_cast<std::size_t>(n);
  if (m == 0 || n == 0) {
    r.auc = value::undefined(m == 0 ? "no positive case" : "no negative case");
    r.variance = r.auc;
    return r;
  }
  const real auc = sum_pos / (static_cast<real>(m) * n);
  r.auc = static_cast<double>(auc);
  if (m < 2 || n < 2) {
    r.variance = value::undefined(m < 2 ? "fewer than 2 positive cases" : "fewer than 2 negative cases");
    return r;
  }
  // sum of squared placements less m AUC^2 = sum of squared deviations (V10 = count / n, V01 = count / m)
  const real s10 = std::max<real>(0, (sum2_pos / (static_cast<real>(n) * n) - m * auc * auc) / (m - 1));
  const real s01 = std::max<real>(0, (sum2_neg / (static_cast<real>(m) * m) - n * auc * auc) / (n - 1));
  r.variance = static_cast<double>(s10 / m + s01 / n);
  return r;
}

}  // namespace

std::vector<auc_slice_vs_rest> delong_slices_vs_rest(std::span<const std::int32_t> y, std::span<const double> s,
                                                     const row_groups& groups) {
  const char* fn = "delong_slices_vs_rest";
  const std::size_t N = y.size();
  if (s.size() != N) throw_usage(fmt::format("{}: y_true has {} cases but y_score has {}", fn, N, s.size()));
  if (groups.order.size() != N || groups.offsets.empty() || groups.offsets.front() != 0 ||
      groups.offsets.back() != N) {
    throw_usage(fmt::format("{}: the groups hold {} rows, but there are {}", fn, groups.order.size(), N));
  }
  for (std::size_t i = 0; i < N; ++i) {
    if (y[i] != 0 && y[i] != 1) throw_usage(fmt::format("{}: y_true[{}] must be 0 or 1; got {}", fn, i, y[i]));
    if (!std::isfinite(s[i])) throw_usage(fmt::format("{}: y_score[{}] must be finite; got {}", fn, i, s[i]));
  }
  // Groups of tied scores, ascending. One pass over the sorted rows counts each group's classes and
  // deals (group, label) out to the rows' slices: each slice's list comes out sorted by group.
  // Each row's slice rides through the sort with its label (label + 2 slice), so dealing the sorted
  // rows out to their slices reads nothing at random.
  if (groups.code.size() != N || groups.size() >= (std::size_t{1} << 30)) {
    throw_usage(fmt::format("{}: the groups have {} row codes for {} rows (make them with group_rows)", fn,
                            groups.code.size(), N));
  }
  std::vector<std::int32_t> tagged(N);
  for (std::size_t i = 0; i < N; ++i) tagged[i] = y[i] | (groups.code[i] << 1);
  const auto items = detail::sort_by_score(s, tagged, assay::detail::team_threads(~0u));
  std::vector<std::uint64_t> dealt(N);
  std::vector<std::size_t> next(groups.offsets.begin(), groups.offsets.end() - 1);
  std::vector<double> P, Q;  // positives and negatives per group
  for (std::size_t i = 0; i < N; ++i) {
    if (i == 0 || items[i].score != items[i - 1].score) P.push_back(0), Q.push_back(0);
    const std::uint64_t g = P.size() - 1;
    const std::int32_t label = items[i].label & 1;
    (label == 1 ? P.back() : Q.back()) += 1;
    dealt[next[static_cast<std::size_t>(items[i].label >> 1)]++] = (g << 1) | static_cast<std::uint64_t>(label);
  }
  const std::size_t G = P.size();
  double M = 0, Nn = 0;
  for (std::size_t g = 0; g < G; ++g) M += P[g], Nn += Q[g];
  // A[g]: negatives a positive of group g beats; B (in reversed group order): positives that beat a
  // negative of group g. Prefix sums of the positives' side in ascending order, the negatives' side
  // in descending order (index G - 1 - g), so both steps run forwards.
  prefix PA(G), PB(G);
  {
    double below = 0;
    for (std::size_t g = 0; g < G; ++g) {
      PA.set(g, P[g], below + Q[g] / 2);
      below += Q[g];
    }
    double above = 0;
    for (std::size_t r = 0; r < G; ++r) {
      const std::size_t g = G - 1 - r;
      PB.set(r, Q[g], above + P[g] / 2);
      above += P[g];
    }
  }
  std::vector<auc_slice_vs_rest> out(groups.size());
  assay::detail::parallel_for(groups.size(), 0, [&](unsigned, std::size_t k) {
    const std::span<const std::uint64_t> keys(dealt.data() + groups.offsets[k], groups.offsets[k + 1] - groups.offsets[k]);
    std::vector<slice_group> sg;
    for (auto key : keys) {
      const auto g = static_cast<std::uint32_t>(key >> 1);
      if (sg.empty() || sg.back().g != g) sg.push_back({g, 0, 0});
      ((key & 1) ? sg.back().pos : sg.back().neg) += 1;
    }
    double m = 0, n = 0;
    for (const auto& e : sg) m += e.pos, n += e.neg;
    // The slice: a = slice negatives a positive beats, b = slice positives that beat a negative.
    std::vector<double> a(sg.size()), b(sg.size());
    {
      double below_neg = 0, below_pos = 0;
      for (std::size_t j = 0; j < sg.size(); ++j) {
        a[j] = below_neg + sg[j].neg / 2;
        b[j] = (m - below_pos - sg[j].pos) + sg[j].pos / 2;
        below_neg += sg[j].neg;
        below_pos += sg[j].pos;
      }
    }
    real s1 = 0, s2p = 0, s2n = 0;
    for (std::size_t j = 0; j < sg.size(); ++j) {
      s1 += sg[j].pos * static_cast<real>(a[j]);
    }
    auc_variance own;
    if (m > 0 && n > 0) {  // the slice's variance by deviations (two passes)
      const real auc = s1 / (static_cast<real>(m) * n);
      for (std::size_t j = 0; j < sg.size(); ++j) {
        const real d10 = a[j] / static_cast<real>(n) - auc, d01 = b[j] / static_cast<real>(m) - auc;
        s2p += sg[j].pos * d10 * d10;
        s2n += sg[j].neg * d01 * d01;
      }
      own.n_pos = static_cast<std::size_t>(m);
      own.n_neg = static_cast<std::size_t>(n);
      own.auc = static_cast<double>(auc);
      if (m < 2 || n < 2) own.variance = value::undefined(m < 2 ? "fewer than 2 positive cases" : "fewer than 2 negative cases");
      else own.variance = static_cast<double>(s2p / (m - 1) / m + s2n / (n - 1) / n);
    } else {
      own = summary(m, n, 0, 0, 0);
    }
    // The rest: every class member's count less the slice's, less the slice's own members.
    const std::size_t J = sg.size();
    std::vector<double> xs;  // X of each slice group, read during the walk
    real r1 = 0, r2 = 0;
    stepped_sums(PA, J, [&](std::size_t i) { return std::size_t{sg[i].g}; }, [&](std::size_t i) { return sg[i].neg; },
                 xs, r1, r2);
    for (std::size_t j = 0; j < J; ++j) {
      const real d = xs[j] - static_cast<real>(a[j]);
      r1 -= sg[j].pos * d;
      r2 -= sg[j].pos * d * d;
    }
    real q1 = 0, q2 = 0;  // the negatives' side walks the groups in descending score order
    stepped_sums(PB, J, [&](std::size_t i) { return G - 1 - sg[J - 1 - i].g; },
                 [&](std::size_t i) { return sg[J - 1 - i].pos; }, xs, q1, q2);
    for (std::size_t j = 0; j < J; ++j) {
      const real d = xs[J - 1 - j] - static_cast<real>(b[j]);
      q1 -= sg[j].neg * d;
      q2 -= sg[j].neg * d * d;
    }
    out[k] = {own, summary(M - m, Nn - n, r1, r2, q2)};
  });
  return out;
}

proportion_test two_proportion_z_test(double x1, double n1, double x2, double n2) {
  proportion_test r;
  if (n1 == 0 || n2 == 0) {
    r.statistic = r.p_value = value::undefined(n1 == 0 ? "no case in the first sample" : "no case in the second sample");
    return r;
  }
  const z_test_result z = two_proportions_z_test(x1, n1, x2, n2);  // the one pooled z test
  if (!z.undefined.empty()) {
    r.statistic = r.p_value = value::undefined(z.undefined);
    return r;
  }
  r.statistic = z.test.statistic;
  r.p_value = z.test.p_value;
  return r;
}

homogeneity_test chi2_homogeneity(std::span<const double> x, std::span<const double> n) {
  if (x.size() != n.size()) {
    throw_usage(fmt::format("chi2_homogeneity: x has {} entries but n has {}", x.size(), n.size()));
  }
  homogeneity_test r;
  double X = 0, T = 0;
  std::size_t k = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!(x[i] >= 0 && x[i] <= n[i]) || !std::isfinite(n[i])) {
      throw_usage(fmt::format("chi2_homogeneity: x[{}] = {} is not in [0, n[{}] = {}]", i, x[i], i, n[i]));
    }
    if (n[i] == 0) continue;
    X += x[i], T += n[i], ++k;
  }
  if (k < 2) {
    r.statistic = r.p_value = value::undefined(fmt::format("{} group{} with cases; the test needs 2", k, k == 1 ? "" : "s"));
    return r;
  }
  const double p = X / T;
  if (p == 0 || p == 1) {
    r.statistic = r.p_value = value::undefined(p == 0 ? "no success in any group: an expected count is 0"
                                                      : "every case is a success: an expected count is 0");
    return r;
  }
  double chi2 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (n[i] == 0) continue;
    const double e1 = n[i] * p, e0 = n[i] * (1 - p);
    const double d1 = x[i] - e1, d0 = (n[i] - x[i]) - e0;
    chi2 += d1 * d1 / e1 + d0 * d0 / e0;
  }
  r.df = static_cast<double>(k - 1);
  r.statistic = chi2;
  r.p_value = chi2_sf(chi2, r.df);
  return r;
}

}  // namespace assay::stats
