// assay: bias-variance decomposition of a learner's expected loss over repeated training sets.
//
// R training sets are bootstrap samples of the training part (as mlxtend's bias_variance_decomp);
// every model predicts the same test part. Per test case x with target y and predictions
// yhat_1..yhat_R:
//  - squared loss (regression): main prediction m = mean yhat_r; bias^2 = (m - y)^2; variance =
//    mean (yhat_r - m)^2; expected loss = mean (yhat_r - y)^2 = bias^2 + variance exactly (noise is
//    not separated from bias);
//  - 0-1 loss (classification; Domingos, "A unified bias-variance decomposition", ICML 2000): main
//    prediction m = the most frequent yhat_r (ties: lowest class); bias = [m != y]; variance =
//    share of yhat_r != m; expected loss = share of yhat_r != y = bias + net variance, where the
//    net variance adds the variance of unbiased cases and subtracts c * variance of biased ones,
//    c = P(yhat = y | yhat != m).
// All reported values are means over the test cases.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/validation/learners.hpp"
#include "assay/validation/splitters.hpp"

namespace assay::validation {

struct bias_variance_result {
  std::string learner, loss;  ///< loss: "squared" or "zero_one"
  std::size_t rounds = 0, train_rows = 0, test_rows = 0;
  double expected_loss = 0;
  double bias = 0;  ///< squared loss: mean bias^2; 0-1 loss: share of biased cases
  double variance = 0;
  double net_variance = 0;  ///< 0-1 loss: expected_loss - bias; squared loss: = variance
};

/// The decomposition alone, from the predictions of `rounds` models on the same n test cases:
/// `predictions` is row-major rounds x n (round r's prediction of case i at r * n + i). Classification
/// (k >= 2 classes): predictions and `target` hold class indices in [0, k) as doubles, 0-1 loss;
/// regression (k = 0): values, squared loss. Definitions as above; learner, rows and rounds of the
/// result are left for the caller except `rounds` and `test_rows`. Throws a usage error naming
/// `fn` for rounds < 2, no test case, a size mismatch, a class index outside [0, k) or a non-finite
/// value.
bias_variance_result decompose_bias_variance(std::span<const double> predictions, std::size_t rounds,
                                             std::span<const double> target, std::size_t k,
                                             std::string_view fn = "bias_variance");

/// The rows of bootstrap training set `round` drawn from `train` (n draws with replacement, sorted),
/// with rng(derive_seed(seed, round)): the samples of bias_variance.
std::vector<std::size_t> bias_variance_sample(std::span<const std::size_t> train, std::uint64_t seed,
                                              std::size_t round);

/// Trains `rounds` models on bootstrap samples of `part.train` (sample r drawn with
/// derive_seed(seed, r)) and decomposes their loss on `part.test`.
bias_variance_result bias_variance(const dataset& d, const any_learner& learner, const split& part, std::size_t rounds,
                                   std::uint64_t seed, std::size_t threads = 0);

std::string to_text(const bias_variance_result& r);
std::string to_json(const bias_variance_result& r);

}  // namespace assay::validation
