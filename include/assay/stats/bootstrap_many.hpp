// assay: percentile bootstrap intervals of several statistics computed together on each resample
// (e.g. the 12 COCO numbers, or BLEU and its n-gram precisions), with the same resamples, the same
// streams and the same interval rule as bootstrap_ci (bootstrap.hpp): for a given seed, statistic i
// of bootstrap_many gets exactly the interval bootstrap_ci would give it alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "assay/stats/bootstrap.hpp"

namespace assay::stats {

/// Fills out[0..n_stats) with the statistics of a resample given as row indices (rows repeat).
/// Called concurrently from several threads: it must not mutate shared state.
using resample_statistics = std::function<void(std::span<const std::uint32_t> rows, std::span<double> out)>;

/// Percentile bootstrap of `n_stats` statistics over `n_rows` rows, simple (unstratified) resampling:
/// replicate r draws rows[i] uniform in [0, n_rows) from the stream (seed, r), as bootstrap_ci does.
/// Interval: [Q(a/2), Q(1 - a/2)] of the defined replicate values, a = 1 - level, Q = quantile_sorted.
/// Results do not depend on opts.threads. Uses opts.replicates, level, seed, threads and
/// keep_distribution; throws a usage error for n_rows = 0, replicates < 1, level outside (0, 1),
/// n_stats = 0, a method other than percentile or strata (not supported here).
/// Reference: Efron & Tibshirani (1993), ch. 13 (percentile interval).
std::vector<bootstrap_result> bootstrap_many(std::size_t n_rows, std::size_t n_stats,
                                             const resample_statistics& statistics,
                                             const bootstrap_options& opts = {});

/// Multiplicities of a resample: weights[i] = number of times row i occurs in `rows` (size n_rows).
std::vector<std::uint32_t> row_weights(std::span<const std::uint32_t> rows, std::size_t n_rows);

}  // namespace assay::stats
