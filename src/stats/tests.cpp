#include "assay/stats/tests.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "assay/error.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/stats/random.hpp"
#include "assay/validation/cancel.hpp"

namespace assay::stats {

discordant_counts count_discordant(std::span<const std::int32_t> y_true, std::span<const std::int32_t> pred_a,
                                   std::span<const std::int32_t> pred_b) {
  if (pred_a.size() != y_true.size() || pred_b.size() != y_true.size()) {
    throw_usage(fmt::format("count_discordant: y_true has {} cases but pred_a has {} and pred_b {}", y_true.size(),
                            pred_a.size(), pred_b.size()));
  }
  discordant_counts c;
  for (std::size_t i = 0; i < y_true.size(); ++i) {
    const bool a = pred_a[i] == y_true[i];
    const bool b = pred_b[i] == y_true[i];
    if (a && b) ++c.n11;
    else if (a) ++c.n01;
    else if (b) ++c.n10;
    else ++c.n00;
  }
  return c;
}

test_result mcnemar(std::int64_t n01, std::int64_t n10, mcnemar_method method) {
  if (n01 < 0 || n10 < 0) throw_usage(fmt::format("mcnemar: counts must be >= 0; got n01 = {}, n10 = {}", n01, n10));
  test_result r;
  const std::int64_t n = n01 + n10;
  switch (method) {
    case mcnemar_method::exact: {
      r.method = "mcnemar_exact";
      r.statistic = static_cast<double>(std::min(n01, n10));
      r.p_value = n == 0 ? 1.0 : std::min(1.0, 2.0 * binom_cdf(std::min(n01, n10), n, 0.5));
      break;
    }
    case mcnemar_method::chi2_corrected:
    case mcnemar_method::chi2: {
      const bool corrected = method == mcnemar_method::chi2_corrected;
      r.method = corrected ? "mcnemar_chi2_corrected" : "mcnemar_chi2";
      r.df = 1;
      if (n == 0) {
        r.statistic = 0;
        r.p_value = 1;
        break;
      }
      const double diff = std::fabs(static_cast<double>(n01 - n10)) - (corrected ? 1.0 : 0.0);
      r.statistic = diff * diff / static_cast<double>(n);
      r.p_value = chi2_sf(r.statistic, 1);
      break;
    }
  }
  return r;
}

test_result table_symmetry_test(std::span<const double> table, std::size_t K) {
  if (K < 2 || table.size() != K * K) {
    throw_usage(fmt::format("table_symmetry_test: the table has {} entries; it must be K x K with K >= 2 (K = {})",
                            table.size(), K));
  }
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (!(table[i] >= 0 && std::isfinite(table[i]))) {
      throw_usage(fmt::format("table_symmetry_test: entry [{}, {}] is {}; entries must be finite and >= 0", i / K,
                              i % K, table[i]));
    }
  }
  test_result r;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double stat = 0;
  for (std::size_t i = 0; i < K; ++i) {
    for (std::size_t j = i + 1; j < K; ++j) {
      const double a = table[i * K + j], b = table[j * K + i], n = a + b;
      if (n == 0) stat = nan;
      double d = std::fabs(a - b);
      if (K == 2 && a != b) d -= 1.0;  // R: continuity correction for 2 x 2 tables unless symmetric
      stat += d * d / n;
    }
  }
  r.method = K > 2 ? "bowker" : table[1] != table[2] ? "mcnemar_chi2_corrected" : "mcnemar_chi2";
  r.df = static_cast<double>(K * (K - 1) / 2);
  r.statistic = stat;
  r.p_value = std::isnan(stat) ? nan : chi2_sf(stat, r.df);
  return r;
}

test_result cochrans_q(std::span<const std::int32_t> success, std::size_t n_rows, std::size_t k) {
  if (k < 2) throw_usage(fmt::format("cochrans_q: k (classifiers) must be >= 2; got {}", k));
  if (n_rows == 0) throw_usage("cochrans_q: n_rows (cases) must be >= 1; got 0");
  if (success.size() != n_rows * k) {
    throw_usage(fmt::format("cochrans_q: success has {} entries but n_rows x k = {} x {} = {}", success.size(), n_rows,
                            k, n_rows * k));
  }
  std::vector<double> col(k, 0.0);
  double total = 0, row_sq = 0;
  for (std::size_t i = 0; i < n_rows; ++i) {
    double row = 0;
    for (std::size_t j = 0; j < k; ++j) {
      const std::int32_t v = success[i * k + j];
      if (v != 0 && v != 1) {
        throw_usage(fmt::format("cochrans_q: success[{}][{}] must be 0 or 1; got {}", i, j, v));
      }
      row += v;
      col[j] += v;
    }
    total += row;
    row_sq += row * row;
  }
  double col_sq = 0;
  for (double c : col) col_sq += c * c;
  const double kd = static_cast<double>(k);
  test_result r;
  r.method = "cochrans_q";
  r.df = kd - 1;
  const double denom = kd * total - row_sq;
  if (denom == 0) {
    r.statistic = 0;
    r.p_value = 1;
    return r;
  }
  r.statistic = (kd - 1) * (kd * col_sq - total * total) / denom;
  r.p_value = chi2_sf(r.statistic, r.df);
  return r;
}

namespace {
bool at_least_as_extreme(double d, double observed, alternative alt) {
  const double slack = 1e-12 * std::max(1.0, std::fabs(observed));
  switch (alt) {
    case alternative::greater: return d >= observed - slack;
    case alternative::less: return d <= observed + slack;
    case alternative::two_sided: return std::fabs(d) >= std::fabs(observed) - slack;
  }
  return false;
}
}  // namespace

permutation_result paired_permutation_test(std::span<const double> y_true, std::span<const double> pred_a,
                                           std::span<const double> pred_b, const metric_fn& metric,
                                           const permutation_options& opts) {
  const std::size_t n = y_true.size();
  if (pred_a.size() != n || pred_b.size() != n) {
    throw_usage(fmt::format("paired_permutation_test: y_true has {} cases but pred_a has {} and pred_b {}", n,
                            pred_a.size(), pred_b.size()));
  }
  if (n == 0) throw_usage("paired_permutation_test: no cases");
  if (opts.permutations < 1) throw_usage("paired_permutation_test: permutations must be >= 1; got 0");
  if (!metric) throw_usage("paired_permutation_test: metric is empty");
  permutation_result res;
  res.alt = opts.alt;
  res.permutations = opts.permutations;
  res.observed = metric(y_true, pred_a) - metric(y_true, pred_b);
  if (std::isnan(res.observed)) throw_data("paired_permutation_test: the metric difference is NaN on the data");

  const unsigned threads = assay::detail::resolve_threads(opts.threads, opts.permutations);
  std::vector<std::vector<double>> buf_a(threads, std::vector<double>(n)), buf_b(threads, std::vector<double>(n));
  std::vector<unsigned char> extreme(opts.permutations, 0);
  assay::detail::parallel_for(opts.permutations, threads, [&](unsigned t, std::size_t r) {
    if (validation::cancel_requested()) return;  // Ctrl-C: skip the rest, throw below
    rng gen(opts.seed, r);
    auto& a = buf_a[t];
    auto& b = buf_b[t];
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (i % 64 == 0) bits = gen.next();
      const bool swap = (bits >> (i % 64)) & 1u;
      a[i] = swap ? pred_b[i] : pred_a[i];
      b[i] = swap ? pred_a[i] : pred_b[i];
    }
    const double d = metric(y_true, a) - metric(y_true, b);
    extreme[r] = at_least_as_extreme(d, res.observed, opts.alt) ? 1 : 0;
  });
  if (validation::cancel_requested()) throw validation::interrupted();
  for (unsigned char e : extreme) res.extreme += e;
  res.p_value = static_cast<double>(res.extreme + 1) / static_cast<double>(opts.permutations + 1);
  return res;
}

}  // namespace assay::stats
