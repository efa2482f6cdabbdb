// Tests of one slice against the rest; see include/assay/stats/slices.hpp.
#include "assay/stats/slices.hpp"
#include "assay/stats/two_proportions.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

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

using real = long double;  // the AUC and variance from the sums, and each slice's own deviations

// The rest's placement sums are exact integers (counts doubled, so that half a tie is a whole
// number) in 128-bit arithmetic modulo 2^128: the running prefix sums of W X^2 reach N^3 and the
// rest's sum is their difference less the slice's share, which in floating point would lose the
// rest's AUC and variance to cancellation once those sums pass 2^64 and the rest is small beside
// the whole (in long double, a rest of 7 rows beside a slice of 2 10^10 in every other group had its
// AUC 0.417 for 0.458 and its variance 4.5 10^7 for 0.079). Modulo 2^128 the
// intermediate wrap-arounds cancel: only the final sums must be below 2^128, which holds for fewer
// than 2^42 rows (each is at most 4 m n^2 <= 16 N^3 / 27).
__extension__ typedef unsigned __int128 u128;  // GCC/Clang extension, silences -Wpedantic

// Sum over the groups [lo, hi) of W (X - f) and W (X - f)^2, from the prefix sums at lo and at hi.
void add_run(u128 lo_w, u128 lo_wx, u128 lo_wx2, u128 hi_w, u128 hi_wx, u128 hi_wx2, u128 f, u128& s1, u128& s2) {
  const u128 W = hi_w - lo_w, WX = hi_wx - lo_wx, WX2 = hi_wx2 - lo_wx2;
  s1 += WX - f * W;
  s2 += WX2 - 2 * f * WX + f * f * W;
}

// The rest's placement sums of every slice in one pass over the groups of tied scores in order
// (ascending for the positives' side, descending for the negatives'), with O(slices) state and no
// random access but the slices' own. On the positives' side, with W(g) the positives of group g and
// X(g) twice the negatives a positive of g beats (ties count 1 of 2), the rest's positives at g are
// W(g) - pos_k(g) and twice the negatives of the rest below them is X(g) - f_k(g), f_k(g) twice the
// slice's negatives below g plus its negatives at g. So the rest's sums of (X - f)^p over its
// positives are, per slice, runs of untouched groups (f constant: prefix sums of W, W X, W X^2 since
// the slice's last group) plus one term per group the slice has rows in. The negatives' side is the
// mirror image (descending order, the roles of the classes swapped). Integer sums: the order of the
// entries within a group cannot change a bit. Entries with no row are skipped (as if absent).
// `positives` walks the positives' side (pos is the walked class). Adds to s1[k] and s2[k] the sums
// of (X - f) and (X - f)^2 (2 and 4 times the placement counts' sums) over the rest's members of the
// walked class.
void rest_sums(std::span<const slice_tie_counts> counts, std::span<const std::size_t> starts,
               std::span<const std::uint64_t> walked_total, std::span<const std::uint64_t> other_total,
               bool positives, std::size_t K, std::vector<u128>& s1, std::vector<u128>& s2) {
  struct slice_state {
    u128 w = 0, wx = 0, wx2 = 0;  // the prefix sums where the current run starts
    std::uint64_t c = 0;           // twice the slice's members of the other class so far (f on a run)
    std::size_t from = 0;          // the group where the current run starts
  };
  std::vector<slice_state> st(K);
  u128 pre_w = 0, pre_wx = 0, pre_wx2 = 0;  // prefix sums over the groups before the current one
  std::uint64_t below = 0;                   // twice the other class's rows before the current group
  const std::size_t G = walked_total.size();
  for (std::size_t g = 0; g < G; ++g) {       // g: the group in walking order
    const std::size_t gi = positives ? g : G - 1 - g;  // the group in the input's order
    const std::uint64_t W = walked_total[gi], Q = other_total[gi];
    const std::uint64_t X = below + Q;
    const u128 next_w = pre_w + W, next_wx = pre_wx + u128{W} * X, next_wx2 = pre_wx2 + u128{W} * X * X;
    for (std::size_t e = starts[gi]; e < starts[gi + 1]; ++e) {
      const slice_tie_counts& c = counts[e];
      if (c.pos == 0 && c.neg == 0) continue;
      const std::uint64_t own = positives ? c.pos : c.neg, other = positives ? c.neg : c.pos;
      const std::uint32_t k = c.slice;
      slice_state& t = st[k];
      if (g > t.from) add_run(t.w, t.wx, t.wx2, pre_w, pre_wx, pre_wx2, t.c, s1[k], s2[k]);
      const u128 d = X - (t.c + other), rest = W - own;
      s1[k] += rest * d;
      s2[k] += rest * d * d;
      t.c += 2 * other;
      t.from = g + 1;
      t.w = next_w, t.wx = next_wx, t.wx2 = next_wx2;
    }
    pre_w = next_w, pre_wx = next_wx, pre_wx2 = next_wx2;
    below += 2 * Q;
  }
  for (std::size_t k = 0; k < K; ++k) {
    if (G > st[k].from) add_run(st[k].w, st[k].wx, st[k].wx2, pre_w, pre_wx, pre_wx2, st[k].c, s1[k], s2[k]);
  }
}

// One group of tied scores that holds rows of the slice: the slice's positives and negatives in it.
struct slice_group {
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

// The slice's own AUC and DeLong variance from its groups in ascending order: a = the slice's
// negatives a positive beats, b = the slice's positives that beat a negative (ties 1/2); the
// variance by deviations from the AUC (two passes).
auc_variance own_summary(std::span<const slice_group> sg) {
  double m = 0, n = 0;
  for (const auto& e : sg) m += e.pos, n += e.neg;
  if (m == 0 || n == 0) return summary(m, n, 0, 0, 0);
  std::vector<double> a(sg.size()), b(sg.size());
  double below_neg = 0, below_pos = 0;
  for (std::size_t j = 0; j < sg.size(); ++j) {
    a[j] = below_neg + sg[j].neg / 2;
    b[j] = (m - below_pos - sg[j].pos) + sg[j].pos / 2;
    below_neg += sg[j].neg;
    below_pos += sg[j].pos;
  }
  real s1 = 0, s2p = 0, s2n = 0;
  for (std::size_t j = 0; j < sg.size(); ++j) s1 += sg[j].pos * static_cast<real>(a[j]);
  const real auc = s1 / (static_cast<real>(m) * n);
  for (std::size_t j = 0; j < sg.size(); ++j) {
    const real d10 = a[j] / static_cast<real>(n) - auc, d01 = b[j] / static_cast<real>(m) - auc;
    s2p += sg[j].pos * d10 * d10;
    s2n += sg[j].neg * d01 * d01;
  }
  auc_variance own;
  own.n_pos = static_cast<std::size_t>(m);
  own.n_neg = static_cast<std::size_t>(n);
  own.auc = static_cast<double>(auc);
  if (m < 2 || n < 2) own.variance = value::undefined(m < 2 ? "fewer than 2 positive cases" : "fewer than 2 negative cases");
  else own.variance = static_cast<double>(s2p / (m - 1) / m + s2n / (n - 1) / n);
  return own;
}

// The one kernel, on counts already checked (every slice < K, group_starts well formed, no slice
// twice in a group, total below 2^42).
std::vector<auc_slice_vs_rest> slices_vs_rest(std::span<const slice_tie_counts> counts,
                                              std::span<const std::size_t> starts, std::size_t K) {
  const std::size_t G = starts.size() - 1;
  // Each group's positives and negatives, and each slice's groups (ascending) dealt out in one pass.
  std::vector<std::uint64_t> gpos(G, 0), gneg(G, 0);
  std::vector<std::size_t> offsets(K + 1, 0);
  for (const auto& c : counts) {
    if (c.pos != 0 || c.neg != 0) ++offsets[c.slice + 1];
  }
  for (std::size_t k = 0; k < K; ++k) offsets[k + 1] += offsets[k];
  std::vector<slice_group> dealt(offsets[K]);
  std::vector<std::size_t> next(offsets.begin(), offsets.end() - 1);
  std::uint64_t M = 0, Nn = 0;  // positives and negatives
  for (std::size_t g = 0; g < G; ++g) {
    std::uint64_t P = 0, Q = 0;
    for (std::size_t e = starts[g]; e < starts[g + 1]; ++e) {
      const auto& c = counts[e];
      if (c.pos == 0 && c.neg == 0) continue;
      P += c.pos, Q += c.neg;
      dealt[next[c.slice]++] = {static_cast<double>(c.pos), static_cast<double>(c.neg)};
    }
    gpos[g] = P, gneg[g] = Q;
    M += P, Nn += Q;
  }
  // The rest's sums of both sides: the positives' walk ascending and the negatives' descending, at once.
  std::vector<u128> r1(K, 0), r2(K, 0), q1(K, 0), q2(K, 0);
  assay::detail::parallel_for(2, 0, [&](unsigned, std::size_t side) {
    if (side == 0) rest_sums(counts, starts, gpos, gneg, true, K, r1, r2);
    else rest_sums(counts, starts, gneg, gpos, false, K, q1, q2);
  });
  std::vector<auc_slice_vs_rest> out(K);
  assay::detail::parallel_for(K, 0, [&](unsigned, std::size_t k) {
    const auto own = own_summary(std::span<const slice_group>(dealt.data() + offsets[k], offsets[k + 1] - offsets[k]));
    // The sums are of doubled placement counts: halve s1, quarter s2 (exact in long double).
    out[k] = {own, summary(static_cast<double>(M - own.n_pos), static_cast<double>(Nn - own.n_neg),
                           static_cast<real>(r1[k]) / 2, static_cast<real>(r2[k]) / 4, static_cast<real>(q2[k]) / 4)};
  });
  return out;
}

}  // namespace

std::vector<auc_slice_vs_rest> delong_slices_vs_rest(std::span<const slice_tie_counts> counts,
                                                     std::span<const std::size_t> group_starts, std::size_t slices) {
  const char* fn = "delong_slices_vs_rest";
  const std::size_t E = counts.size();
  if (group_starts.empty()) {
    throw_usage(fmt::format("{}: group_starts is empty; it must start at 0 and end at counts.size() = {}", fn, E));
  }
  if (group_starts.front() != 0) {
    throw_usage(fmt::format("{}: group_starts[0] is {}; it must be 0", fn, group_starts.front()));
  }
  for (std::size_t g = 1; g < group_starts.size(); ++g) {
    if (group_starts[g] < group_starts[g - 1]) {
      throw_usage(fmt::format("{}: group_starts[{}] is {}, less than group_starts[{}] = {}; it must never decrease",
                              fn, g, group_starts[g], g - 1, group_starts[g - 1]));
    }
  }
  if (group_starts.back() != E) {
    throw_usage(fmt::format("{}: group_starts[{}] is {}; the last entry must be counts.size() = {}", fn,
                            group_starts.size() - 1, group_starts.back(), E));
  }
  // Every slice in range and at most once per group (the group where each slice was last seen, + 1);
  // the total of rows below 2^42, so that the rest's sums fit in 128 bits (and counts add exactly in
  // double).
  constexpr std::uint64_t limit = std::uint64_t{1} << 42;
  std::vector<std::size_t> seen(slices, 0), seen_at(slices, 0);
  std::uint64_t total = 0;
  for (std::size_t g = 0; g + 1 < group_starts.size(); ++g) {
    for (std::size_t e = group_starts[g]; e < group_starts[g + 1]; ++e) {
      const auto& c = counts[e];
      if (c.slice >= slices) {
        throw_usage(fmt::format("{}: counts[{}].slice is {}; it must be < slices = {}", fn, e, c.slice, slices));
      }
      if (seen[c.slice] == g + 1) {
        throw_usage(fmt::format("{}: counts[{}].slice is {}, as is counts[{}], in the same group {} (counts[{} .. {})); "
                                "a slice has at most one entry per group",
                                fn, e, c.slice, seen_at[c.slice], g, group_starts[g], group_starts[g + 1]));
      }
      seen[c.slice] = g + 1, seen_at[c.slice] = e;
      if (c.pos >= limit || c.neg >= limit || (total += c.pos + c.neg) >= limit) {
        throw_usage(fmt::format("{}: at counts[{}] (pos {}, neg {}) the rows add up to 2^42 or more; the total of "
                                "pos and neg must stay below 2^42 = {}",
                                fn, e, c.pos, c.neg, limit));
      }
    }
  }
  return slices_vs_rest(counts, group_starts, slices);
}

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
  if (groups.code.size() != N || groups.size() >= (std::size_t{1} << 30)) {
    throw_usage(fmt::format("{}: the groups have {} row codes for {} rows (make them with group_rows)", fn,
                            groups.code.size(), N));
  }
  // Each row's slice rides through the sort with its label (label + 2 slice); one pass over the
  // sorted rows then counts every slice's positives and negatives in each group of tied scores.
  const std::size_t K = groups.size();
  std::vector<slice_tie_counts> counts;
  std::vector<std::size_t> starts{0};
  {
    std::vector<std::int32_t> tagged(N);
    for (std::size_t i = 0; i < N; ++i) tagged[i] = y[i] | (groups.code[i] << 1);
    const auto items = detail::sort_by_score(s, tagged, assay::detail::team_threads(~0u));
    tagged = {};
    std::vector<std::uint64_t> pos(K, 0), neg(K, 0);
    std::vector<std::uint32_t> touched;
    counts.reserve(N);
    for (std::size_t i = 0; i < N;) {
      std::size_t j = i;
      for (; j < N && items[j].score == items[i].score; ++j) {
        const auto k = static_cast<std::uint32_t>(items[j].label >> 1);
        if (pos[k] == 0 && neg[k] == 0) touched.push_back(k);
        ++((items[j].label & 1) ? pos[k] : neg[k]);
      }
      for (const std::uint32_t k : touched) {
        counts.push_back({k, pos[k], neg[k]});
        pos[k] = neg[k] = 0;
      }
      touched.clear();
      starts.push_back(counts.size());
      i = j;
    }
  }
  return slices_vs_rest(counts, starts, K);
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
