// assay: the Poisson bootstrap -- percentile intervals from replicates in which every row gets an
// independent Poisson(1) weight poisson1(seed, replicate, row) (random.hpp) instead of a multinomial
// resample (Hanley & MacGibbon 2006, Computer Methods and Programs in Biomedicine 83(1):57-62;
// Chamandy, Muralidharan, Najmi & Naidu 2012, "Estimating uncertainty for massive data streams",
// Google). Each batch of replicates is one pass over the rows, nothing is gathered or re-sorted, and
// a replicate depends only on (seed, replicate, row index): never on the thread count, nor on the
// order or the machine rows are visited on (the weights of a partition of the rows are the weights of
// the whole). The resample size is random (mean n), and nothing is stratified: a replicate may hold
// no positive, and a statistic it leaves undefined (NaN) is dropped and counted, as in bootstrap_ci.
// Interval rule and result fields: as bootstrap_ci's percentile interval (bootstrap.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "assay/stats/bootstrap.hpp"

namespace assay::stats {

/// What poisson_bootstrap computes on each replicate, all in the same pass per batch.
struct poisson_statistics {
  std::size_t rows = 0;
  /// Sample weights w_i (empty: all 1); replicate b weighs row i by w_i k_bi, k_bi = poisson1(seed, b, i).
  std::span<const double> weight;
  /// Weighted means of per-row values x (each of `rows` values): sum_i w_i k_bi x_i / sum_i w_i k_bi,
  /// (NaN when the weights sum to 0), e.g. per-row log losses or squared errors. Summed in the order
  /// of the pass: by decreasing score, ties in row order, when a score is given (below), else in
  /// row order.
  std::vector<std::span<const double>> means;
  /// Ranking statistics of a 0/1 truth against a score (both of `rows` values, or both empty): the
  /// ROC AUC and the average precision of the weighted cases by detail::ranking_sweep, tie groups
  /// swept from the highest score down (the cases are sorted once, ties kept in row order).
  std::span<const std::int32_t> y_true;
  std::span<const double> y_score;
  bool roc_auc = false, average_precision = false;
  /// The average precision of the other class: truth 1 - y_true ranked by -y_score (tie groups swept
  /// from the lowest score up, a group's rows in row order), the same numbers as average_precision of
  /// a second call with those columns, from the same Poisson weights without a second sort; the
  /// negative class's area of a binary score (report --ci --ci-method bootstrap). Needs y_true and
  /// y_score.
  bool other_average_precision = false;
  /// The stable id of each row (`rows` values), drawn on instead of its index: replicate b weighs
  /// row i by poisson1(seed, b, row_ids[i]). Empty: the index. A mergeable state (scale/state.hpp)
  /// passes the global row ids its rows were given, so its replicates are those of all rows at once.
  std::span<const std::uint64_t> row_ids;
};

/// Percentile intervals of the statistics of `s` by the Poisson bootstrap: one result per mean, in
/// order, then the ROC AUC if asked, then the average precision if asked, then the other class's
/// average precision if asked. estimate: the statistic with every k = 1. Uses opts.replicates,
/// level, seed, threads, keep_distribution and progress.
/// Throws a usage error for no rows, replicates < 1, level outside (0, 1), columns of the wrong
/// length, a method other than percentile, strata, nothing to compute, or labels other than 0/1.
std::vector<bootstrap_result> poisson_bootstrap(const poisson_statistics& s, const bootstrap_options& opts = {});

/// Fills out[0..n_stats) with statistics of the rows weighted by `weights` (w_i k_bi, one per row).
/// Called concurrently from several threads: it must not mutate shared state.
using weighted_statistics = std::function<void(std::span<const double> weights, std::span<double> out)>;

/// The Poisson bootstrap of any statistics that take row weights (e.g. a registered metric): each
/// replicate calls `statistics` once with weights w_i k_bi (w_i = 1 when `weight` is empty). O(n)
/// per replicate plus the statistic's cost. The estimate is statistics(w). Same checks as above.
std::vector<bootstrap_result> poisson_bootstrap_weighted(std::size_t rows, std::span<const double> weight,
                                                         std::size_t n_stats, const weighted_statistics& statistics,
                                                         const bootstrap_options& opts = {});

/// The same with the Poisson weight of row i drawn on its stable id row_ids[i] (`rows` ids; empty:
/// the index), as poisson_statistics::row_ids.
std::vector<bootstrap_result> poisson_bootstrap_weighted(std::size_t rows, std::span<const double> weight,
                                                         std::span<const std::uint64_t> row_ids, std::size_t n_stats,
                                                         const weighted_statistics& statistics,
                                                         const bootstrap_options& opts = {});

}  // namespace assay::stats
