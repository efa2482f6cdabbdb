// assay: resampling splitters. Each returns the list of (train, test) index sets a validation
// scheme uses; the engine (engine.hpp) trains on `train` and evaluates on `test`.
//
// Definitions follow Kohavi, "A study of cross-validation and bootstrap for accuracy estimation and
// model selection" (IJCAI 1995: holdout, k-fold, stratified, leave-one-out) and scikit-learn's
// model_selection module where the scheme is the same (names: KFold, StratifiedKFold, LeaveOneOut,
// LeavePOut, GroupKFold, LeaveOneGroupOut, LeavePGroupsOut, StratifiedGroupKFold, TimeSeriesSplit,
// ShuffleSplit).
// Randomised splitters take a seed and use the library's random family (stats/random.hpp,
// split_rng), so a seed gives the same splits on every platform and compiler. Variants where
// assay differs from scikit-learn are in docs/definitions/validation.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "assay/stats/random.hpp"

namespace assay::validation {

/// One resampling split: row indices into the data set. `train` and `test` are sorted and
/// disjoint, except for bootstrap, whose `train` holds the draws with repeats (sorted) and whose
/// `test` holds the out-of-bag rows. `validation` is only used by train_validation_test.
struct split {
  std::vector<std::size_t> train;
  std::vector<std::size_t> validation;
  std::vector<std::size_t> test;
  std::size_t repeat = 0;  ///< which repetition (repeated k-fold, Monte Carlo, bootstrap)
};
using split_list = std::vector<split>;

/// The generator of the splitters: stats::split_rng of the library's one random family
/// (stats/random.hpp), identical on every platform for a seed.
using rng = stats::split_rng;

/// A seed for sub-stream `index` of `seed` (repeat r, fold f, permutation p ...), so that parallel
/// work draws the same numbers whatever the thread count: stats::stream_seed.
inline std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index) { return stats::stream_seed(seed, index); }

/// Holdout (Kohavi 1995): a random `train_fraction` of the rows (rounded down, at least one row in
/// each part) for training, the rest for testing. Default 2/3 - 1/3. When `strata` is non-empty
/// (class codes, or quantile bins of a regression target) the split is stratified: each stratum is
/// divided in the same proportion (largest-remainder rounding).
split holdout(std::size_t n, double train_fraction = 2.0 / 3.0, std::uint64_t seed = 0,
              std::span<const std::int32_t> strata = {});

/// Train / validation / test (Hastie, Tibshirani & Friedman, Elements of Statistical Learning,
/// 2nd ed., section 7.2: choose hyper-parameters on the validation part, estimate
/// on the test part once). Fractions of the rows; the test part gets the remainder.
split train_validation_test(std::size_t n, double train_fraction, double validation_fraction, std::uint64_t seed = 0,
                            std::span<const std::int32_t> strata = {});

/// Random resampling / Monte Carlo cross-validation (scikit-learn's ShuffleSplit, or
/// StratifiedShuffleSplit with strata): `repeats` independent holdout splits.
split_list shuffle_split(std::size_t n, std::size_t repeats, double train_fraction = 2.0 / 3.0, std::uint64_t seed = 0,
                         std::span<const std::int32_t> strata = {});

/// k-fold (Kohavi 1995): rows 0..n-1 (shuffled first when `shuffle`) cut into k consecutive folds,
/// the first n mod k of size floor(n/k)+1, the others floor(n/k); fold i is the test set of split
/// i. Without shuffling identical to scikit-learn's KFold(k). Requires 2 <= k <= n.
split_list kfold(std::size_t n, std::size_t k, bool shuffle = false, std::uint64_t seed = 0);

/// Stratified k-fold: each class is dealt over the folds so that every fold holds floor or ceil of
/// (class size / k) of its cases (within one case per class per fold). The allocation is
/// scikit-learn's StratifiedKFold (classes in order of first appearance, the sorted labels dealt
/// round-robin); without shuffling the folds equal scikit-learn's. With `shuffle`, each class's
/// fold assignment is permuted with assay's generator. `strata` are class codes >= 0.
split_list stratified_kfold(std::span<const std::int32_t> strata, std::size_t k, bool shuffle = false,
                            std::uint64_t seed = 0);

/// Repeated k-fold (scikit-learn's RepeatedKFold / RepeatedStratifiedKFold): `repeats` shuffled
/// k-fold runs with seeds derive_seed(seed, r); stratified when `strata` is non-empty.
split_list repeated_kfold(std::size_t n, std::size_t k, std::size_t repeats, std::uint64_t seed = 0,
                          std::span<const std::int32_t> strata = {});

/// Leave-one-out: n splits, split i tests row i (k-fold with k = n).
split_list leave_one_out(std::size_t n);

/// Number of p-subsets of n rows, C(n, p), saturating at SIZE_MAX.
std::size_t binomial(std::size_t n, std::size_t p);

/// Leave-p-out: one split per p-subset of the rows, in lexicographic order (as scikit-learn's
/// LeavePOut / itertools.combinations). Refuses (usage error naming C(n, p)) when there would be
/// more than `max_splits` splits.
split_list leave_p_out(std::size_t n, std::size_t p, std::size_t max_splits = 100000);

/// Group k-fold: no group is split between train and test. Groups are taken largest first (ties:
/// the group seen first in the data) and each goes to the fold with the fewest rows so far (ties:
/// the lowest fold), the greedy scheme of scikit-learn's GroupKFold. Requires k <= number of groups.
split_list group_kfold(std::span<const std::int32_t> groups, std::size_t k);

/// Leave-one-group-out (e.g. leave out one university of a web-page corpus, so the test
/// measures transfer to an unseen group): one split per distinct group, groups in
/// increasing code order; as scikit-learn's LeaveOneGroupOut when codes follow sorted group names.
split_list leave_one_group_out(std::span<const std::int32_t> groups);

/// Leave-p-groups-out: one split per p-subset of the distinct groups (lexicographic order), as
/// scikit-learn's LeavePGroupsOut. Refuses beyond `max_splits` splits.
split_list leave_p_groups_out(std::span<const std::int32_t> groups, std::size_t p, std::size_t max_splits = 100000);

/// Stratified group k-fold: groups are kept whole while class proportions are balanced across
/// folds. Greedy as scikit-learn's StratifiedGroupKFold: groups (shuffled when `shuffle`, then
/// stably sorted by decreasing standard deviation of their class counts) go one at a time to the
/// fold that minimises the mean over classes of the standard deviation across folds of the share
/// of that class in the fold; ties go to the fold with fewest rows.
split_list stratified_group_kfold(std::span<const std::int32_t> strata, std::span<const std::int32_t> groups,
                                  std::size_t k, bool shuffle = false, std::uint64_t seed = 0);

/// Forward-chaining time-series split (scikit-learn's TimeSeriesSplit): rows are in time order;
/// test sets are k consecutive blocks of `test_size` rows (default n / (k + 1)) ending at the last
/// row; split i trains on every row before its test block, minus `gap` rows, keeping at most
/// `max_train` of the latest rows (0 = no limit).
split_list time_series_split(std::size_t n, std::size_t k, std::size_t test_size = 0, std::size_t gap = 0,
                             std::size_t max_train = 0);

/// Bootstrap (Efron 1979; Efron & Tibshirani 1997 for .632/.632+): `repeats` samples of n rows drawn
/// with replacement; `test` holds the out-of-bag rows (about 36.8% of them).
split_list bootstrap(std::size_t n, std::size_t repeats, std::uint64_t seed = 0);

/// Quantile bins of a regression target, for stratifying it: bin b holds the values between the
/// b/bins and (b+1)/bins empirical quantiles (rank-based: the row of rank r goes to bin
/// floor(r * bins / n), ties broken by row order), so bins differ in size by at most one.
std::vector<std::int32_t> quantile_bins(std::span<const double> y, std::size_t bins);

/// Checks that every split's train and test parts are disjoint, sorted and inside [0, n); throws a
/// data error naming the split otherwise (a guard for splits read from files).
void check_splits(const split_list& splits, std::size_t n);

}  // namespace assay::validation
