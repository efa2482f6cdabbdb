// assay: a resampling scheme chosen by name (as on the command line) turned into splits, and the
// split file `assay split` writes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "assay/validation/splitters.hpp"

namespace assay::validation {

/// A resampling scheme by name. Methods: kfold, stratified-kfold, repeated-kfold,
/// repeated-stratified-kfold, group-kfold, stratified-group-kfold, logo, lpgo, loo, lpo, holdout,
/// tvt, shuffle, stratified-shuffle, timeseries, bootstrap.
struct split_request {
  std::string method = "kfold";
  std::size_t folds = 5;    ///< k (k-fold families), number of splits (timeseries)
  std::size_t repeats = 1;  ///< repeated k-fold, shuffle, bootstrap
  std::uint64_t seed = 0;
  bool shuffle = false;                    ///< k-fold / stratified / stratified group: shuffle before dealing
  bool stratify = false;                   ///< holdout, tvt, shuffle: stratify on the target
  double train_fraction = 2.0 / 3.0;       ///< holdout, tvt, shuffle
  double validation_fraction = 1.0 / 6.0;  ///< tvt
  std::size_t p = 2;                       ///< lpo, lpgo
  std::size_t max_splits = 100000;         ///< lpo, lpgo refuse beyond this
  std::size_t test_size = 0, gap = 0, max_train = 0;  ///< timeseries
  std::size_t bins = 0;  ///< quantile bins to stratify a regression target (0 = folds, or 5)
};

/// The methods make_splits knows, for help texts.
const std::vector<std::string>& split_methods();
/// True when the method needs strata (class codes or bins) / a group column.
bool method_needs_strata(const std::string& method);
bool method_needs_groups(const std::string& method);

/// Builds the splits for n rows. `classes` are class codes (classification target) or empty;
/// `target_values` a regression target (binned into quantiles for stratification) or empty;
/// `groups` group codes or empty. `who` prefixes messages ("assay split").
split_list make_splits(const split_request& q, std::size_t n, std::span<const std::int32_t> classes,
                       std::span<const double> target_values, std::span<const std::int32_t> groups,
                       const std::string& who);

/// The split file: one line per input row. Columns: `row` (0-based index of the data row), then
///  - `fold` (0-based index of the split whose test set holds the row; empty when no test set does,
///    as for the first block of a time series) for single-run fold schemes;
///  - `fold_r0`, `fold_r1`, ... for repeated k-fold, one column per repeat;
///  - `role` (train / validation / test) for holdout and tvt;
///  - `split_0`, `split_1`, ... with train / test for other schemes (shuffle, lpo, lpgo), or the
///    number of times the row was drawn (0 = out of bag) for bootstrap.
std::string split_csv(const split_request& q, const split_list& splits, std::size_t n);

}  // namespace assay::validation
