// assay: the label-permutation test of a cross-validated score (Ojala & Garriga, "Permutation tests
// for studying classifier performance", JMLR 11, 2010, test 1; scikit-learn's
// permutation_test_score).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assay/validation/engine.hpp"

namespace assay::validation {

struct permutation_options {
  std::size_t permutations = 100;
  std::uint64_t seed = 0;
  cv_options cv;  ///< the first metric (or the default first metric) is tested
};

struct permutation_result {
  std::string learner, metric;
  bool higher_is_better = true;
  double score = 0;              ///< cross-validated mean of the metric on the real labels
  std::vector<double> permuted;  ///< the same on each permutation of the labels
  /// p = (1 + #{permutations scoring at least as well as the real labels}) / (permutations + 1):
  /// the chance of a score this good if features and labels were independent.
  double p_value = 1;
};

/// Cross-validates on the real target, then on `permutations` random permutations of it (permutation
/// i uses generator derive_seed(seed, i)), retraining on the same splits each time. Throws a data
/// error when the metric is undefined on the real labels.
permutation_result permutation_test(const dataset& d, const any_learner& learner, const split_list& splits,
                                    const permutation_options& options);

std::string to_text(const permutation_result& r);
std::string to_json(const permutation_result& r);

}  // namespace assay::validation
