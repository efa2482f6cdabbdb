// Tests of one slice against the rest; see include/assay/stats/slices.hpp.
#include "assay/stats/slices.hpp"
#include "assay/stats/two_proportions.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <tuple>

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

// Sum over the groups [lo, hi) of W (X - f) and W (X - f)^2, from the prefix sums at lo and at hi.
void add_run(real lo_w, real lo_wx, real lo_wx2, real hi_w, real hi_wx, real hi_wx2, real f, real& s1, real& s2) {
  const real W = hi_w - lo_w, WX = hi_wx - lo_wx, WX2 = hi_wx2 - lo_wx2;
  s1 += WX - f * W;
  s2 += WX2 - 2 * f * WX + f * f * W;
}

// The rest's placement sums of every slice in one pass over the tied-score groups in order (ascending
// for the positives' side, descending for the negatives'), with O(slices) state and no random access.
// On the positives' side, with W(g) the positives of group g and X(g) the negatives a positive of g
// beats (ties 1/2), the rest's positives at g are W(g) - pos_k(g) and the negatives of the rest below
// them are X(g) - f_k(g), f_k(g) the slice's negatives below g plus half its negatives at g. So the
// rest's sums of (X - f)^p over its positives are, per slice, runs of untouched groups (f constant:
// prefix sums of W, W X, W X^2 since the slice's last group) plus one term per group the slice has rows
// in. The negatives' side is the mirror image (descending order, the roles of the classes swapped).
// `rows` visits the sorted rows (forwards or backwards): rows(i) = (score, label 0/1, slice code).
// Adds to s1[k] and s2[k] (sums of (X - f) and (X - f)^2 over the rest's members of the walked class).
template <class Row>
void rest_sums(std::size_t N, std::size_t K, Row rows, std::vector<real>& s1, std::vector<real>& s2) {
  struct slice_state {
    real w = 0, wx = 0, wx2 = 0;  // the prefix sums where the current run starts
    real c = 0;                    // the slice's members of the other class so far (f on a run)
    std::size_t from = 0;          // the group where the current run starts
  };
  std::vector<slice_state> st(K);
  std::vector<double> own(K, 0), other(K, 0);  // the slice's rows of the walked / the other class in the group
  std::vector<std::uint32_t> touched;
  real pre_w = 0, pre_wx = 0, pre_wx2 = 0;  // prefix sums over the groups before the current one
  double below = 0;                          // the other class's rows before the current group
  std::size_t g = 0;
  for (std::size_t i = 0; i < N; ++g) {
    // One group: rows [i, j) with the same score.
    const double score = std::get<0>(rows(i));
    double W = 0, Q = 0;  // the walked class's and the other class's rows in the group
    std::size_t j = i;
    for (; j < N; ++j) {
      const auto [sc, walked, k] = rows(j);
      if (sc != score) break;
      if (own[k] == 0 && other[k] == 0) touched.push_back(k);
      (walked ? own[k] : other[k]) += 1;
      (walked ? W : Q) += 1;
    }
    const double X = below + Q / 2;
    for (const std::uint32_t k : touched) {
      slice_state& t = st[k];
      if (g > t.from) add_run(t.w, t.wx, t.wx2, pre_w, pre_wx, pre_wx2, t.c, s1[k], s2[k]);
      const real f = t.c + static_cast<real>(other[k]) / 2, d = static_cast<real>(X) - f;
      const real rest = W - own[k];
      s1[k] += rest * d;
      s2[k] += rest * d * d;
      t.c += other[k];
      t.from = g + 1;
      own[k] = other[k] = 0;
    }
    pre_w += W;
    pre_wx += static_cast<real>(W) * X;
    pre_wx2 += static_cast<real>(W) * X * X;
    for (const std::uint32_t k : touched) st[k].w = pre_w, st[k].wx = pre_wx, st[k].wx2 = pre_wx2;
    touched.clear();
    below += Q;
    i = j;
  }
  for (std::size_t k = 0; k < K; ++k) {
    if (g > st[k].from) add_run(st[k].w, st[k].wx, st[k].wx2, pre_w, pre_wx, pre_wx2, st[k].c, s1[k], s2[k]);
  }
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
  double M = 0, Nn = 0;  // positives and negatives
  std::uint64_t g = 0;   // the tied-score group of row i
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0 && items[i].score != items[i - 1].score) ++g;
    const std::int32_t label = items[i].label & 1;
    (label == 1 ? M : Nn) += 1;
    dealt[next[static_cast<std::size_t>(items[i].label >> 1)]++] = (g << 1) | static_cast<std::uint64_t>(label);
  }
  // The rest's sums of both sides: the positives' walk ascending and the negatives' descending, at once.
  const std::size_t K = groups.size();
  std::vector<real> r1(K, 0), r2(K, 0), q1(K, 0), q2(K, 0);
  assay::detail::parallel_for(2, 0, [&](unsigned, std::size_t side) {
    if (side == 0) {
      rest_sums(N, K, [&](std::size_t i) {
        const auto& it = items[i];
        return std::tuple{it.score, (it.label & 1) == 1, static_cast<std::uint32_t>(it.label >> 1)};
      }, r1, r2);
    } else {
      rest_sums(N, K, [&](std::size_t i) {
        const auto& it = items[N - 1 - i];
        return std::tuple{it.score, (it.label & 1) == 0, static_cast<std::uint32_t>(it.label >> 1)};
      }, q1, q2);
    }
  });
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
    out[k] = {own, summary(M - m, Nn - n, r1[k], r2[k], q2[k])};
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
