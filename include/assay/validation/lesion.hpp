// assay: lesion study: retrain with each named group of features removed and report how much the
// cross-validated score drops, with a confidence interval.
#pragma once

#include <string>
#include <vector>

#include "assay/validation/engine.hpp"

namespace assay::validation {

struct feature_group {
  std::string name;
  std::vector<std::string> columns;  ///< feature column names
};

/// Parses "NAME=col1,col2" (as on the command line).
feature_group parse_feature_group(const std::string& spec);

struct lesion_entry {
  feature_group group;
  value lesioned;   ///< mean score without the group
  double drop = 0;  ///< mean over splits of (full - lesioned), sign flipped for losses: > 0 = worse
  value sd;         ///< sd of the per-split drops
  value low, high;  ///< confidence interval of the mean drop
};

struct lesion_result {
  std::string learner, metric;
  double confidence = 0.95;
  std::size_t splits = 0, mean_train = 0, mean_test = 0;
  value full;  ///< mean score with every feature
  std::vector<lesion_entry> entries;
};

/// Cross-validates with all features, then once per group with its columns removed, on the same
/// splits. The interval for the mean drop over J splits is stats::corrected_resampled_interval
/// (Nadeau & Bengio 2003), wider than the naive t interval because the training sets overlap. Throws a usage error for a
/// column that is not a feature.
lesion_result lesion_study(const dataset& d, const any_learner& learner, const split_list& splits,
                           const std::vector<feature_group>& groups, const cv_options& options,
                           double confidence = 0.95);

std::string to_text(const lesion_result& r);
std::string to_json(const lesion_result& r);

}  // namespace assay::validation
