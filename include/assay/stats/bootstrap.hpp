// assay: bootstrap confidence intervals (percentile and BCa) for any statistic of the rows,
// stratified resampling (e.g. by class, pROC's default for AUC), the paired bootstrap of a
// difference between two models, and a fast path for the AUC that sorts once for all replicates.
//
// Reproducibility: replicate r of a run with seed s draws from its own random stream seeded from
// (s, r) (random.hpp), and replicates are stored by index, so results are identical for any thread
// count. Replicates whose statistic is NaN (undefined on that resample) are dropped and counted.
//
// References: Efron & Tibshirani, "An Introduction to the Bootstrap" (1993), ch. 13-14 (percentile,
// BCa, jackknife acceleration); Efron (1987) JASA 82:171-185 (BCa); Carpenter & Bithell (2000)
// Statistics in Medicine 19:1141-1164; pROC (Robin et al. 2011) for stratified AUC bootstrap.
// Choices (default method, quantile rule, degenerate cases): docs/definitions/stats.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "assay/stats/test_result.hpp"
#include "assay/value.hpp"

namespace assay::stats {

enum class bootstrap_method {
  percentile,  ///< the level-central quantiles of the bootstrap distribution (pROC's); the default
  bca,         ///< bias-corrected and accelerated (Efron 1987)
};

/// "percentile" or "bca".
const char* to_string(bootstrap_method m);

struct bootstrap_options {
  std::size_t replicates = 2000;
  double level = 0.95;
  std::uint64_t seed = 0;
  unsigned threads = 0;  ///< at most this many (0: assay::max_threads()); results do not depend on it
  bootstrap_method method = bootstrap_method::percentile;
  /// Optional stratum of each row (e.g. the class label): each replicate then draws, within every
  /// stratum, as many rows as it has, so the class counts stay fixed. Empty = simple resampling.
  std::span<const std::int32_t> strata = {};
  /// BCa's acceleration uses the leave-one-out jackknife when there are at most this many rows,
  /// else the delete-a-group jackknife with this many groups (row i in group i mod G).
  std::size_t jackknife_max = 2000;
  bool keep_distribution = false;  ///< return the replicate values (in replicate order)
  /// Called with (replicates done, replicates) as the work goes on, by the Poisson bootstraps
  /// (poisson_bootstrap.hpp); from one thread at a time, not necessarily the caller's. Optional.
  std::function<void(std::size_t, std::size_t)> progress;
};

struct bootstrap_result {
  double estimate = 0;  ///< the statistic on the data as given
  value lower, upper;   ///< undefined (with the reason) when the interval cannot be formed
  double level = 0.95;
  bootstrap_method method = bootstrap_method::percentile;
  std::size_t replicates = 0;            ///< replicates requested
  std::size_t undefined_replicates = 0;  ///< replicates whose statistic was NaN, dropped
  double std_error = 0;                  ///< standard deviation of the defined replicates (n - 1)
  double z0 = 0;                         ///< BCa bias correction (0 for percentile)
  double acceleration = 0;               ///< BCa acceleration (0 for percentile)
  std::vector<double> distribution;      ///< replicate values if keep_distribution (NaN kept)
};

/// A statistic of a resample, given as row indices into the caller's data (rows repeat). Called
/// concurrently from several threads: it must not mutate shared state.
using resample_statistic = std::function<double(std::span<const std::uint32_t> rows)>;

/// Bootstrap interval of `statistic` over `n_rows` rows. Throws a usage error for n_rows = 0,
/// replicates < 1, level outside (0, 1), strata of the wrong length.
bootstrap_result bootstrap_ci(std::size_t n_rows, const resample_statistic& statistic,
                              const bootstrap_options& opts = {});

/// The paired bootstrap of a difference between two models on the same cases.
struct paired_bootstrap_result {
  double estimate_a = 0, estimate_b = 0;
  bootstrap_result difference;  ///< interval of statistic_a - statistic_b from the same resamples
  /// z = (a - b) / sd(replicate differences), p from the normal (pROC's roc.test(method =
  /// "bootstrap")); method "bootstrap_z". Zero spread: z = 0, p = 1 if a = b.
  test_result test;
};

/// Bootstrap of statistic_a - statistic_b, both computed on each resample of the same rows.
paired_bootstrap_result paired_bootstrap(std::size_t n_rows, const resample_statistic& statistic_a,
                                         const resample_statistic& statistic_b, const bootstrap_options& opts = {},
                                         alternative alt = alternative::two_sided);

/// Bootstrap interval of the ROC AUC of `y_score` against `y_true` (0/1). Sorts the scores once;
/// each replicate only draws multiplicities and sweeps the sorted cases (O(N) per replicate).
/// Stratified by class by default (opts.strata is ignored; set `stratified` false for simple
/// resampling, where replicates with a single class are undefined and dropped). BCa uses the exact
/// leave-one-out jackknife of the AUC, from the DeLong placements in O(N).
bootstrap_result bootstrap_auc(std::span<const std::int32_t> y_true, std::span<const double> y_score,
                               const bootstrap_options& opts = {}, bool stratified = true);

/// The paired bootstrap of AUC(score_a) - AUC(score_b) on the same cases, stratified by class, with
/// one sort per model for all replicates (O(N) per replicate). Replicate r draws exactly the cases
/// that paired_bootstrap with strata = y_true draws (negatives first, then positives), so the two
/// agree replicate by replicate (up to rounding in the AUC sums). opts.strata is ignored. BCa uses
/// the exact leave-one-out jackknife from the DeLong placements. Test: bootstrap_z as paired_bootstrap.
paired_bootstrap_result paired_bootstrap_auc(std::span<const std::int32_t> y_true, std::span<const double> score_a,
                                             std::span<const double> score_b, const bootstrap_options& opts = {},
                                             alternative alt = alternative::two_sided);

// ---- the interval rules, on given replicate values (exposed for testing and reuse) -------------

/// Quantile q in [0, 1] of sorted values by linear interpolation between order statistics,
/// h = (B - 1) q (Hyndman & Fan type 7; numpy's default, R's quantile() default).
double quantile_sorted(std::span<const double> sorted, double q);

/// Percentile interval [Q(a/2), Q(1 - a/2)], a = 1 - level, of the replicate values (NaN dropped).
std::pair<value, value> percentile_interval(std::span<const double> replicates, double level);

/// BCa interval from the replicates, the estimate on the full data and jackknife estimates:
///   z0 = Phi^{-1}((#{t* < t} + #{t* <= t}) / (2 B)),
///   a = sum (tbar - t_(i))^3 / (6 (sum (tbar - t_(i))^2)^(3/2))  (0 when the jackknife is constant),
///   a_{1,2} = Phi(z0 + (z0 + z_{a/2, 1-a/2}) / (1 - a (z0 + z_{a/2, 1-a/2}))),
/// interval [Q(a_1), Q(a_2)] with quantile_sorted; as scipy.stats.bootstrap(method = "BCa").
/// Undefined when z0 is infinite (every replicate on one side of the estimate).
struct bca_result {
  value lower, upper;
  double z0 = 0, acceleration = 0;
};
bca_result bca_interval(double estimate, std::span<const double> replicates, std::span<const double> jackknife,
                        double level);

}  // namespace assay::stats
