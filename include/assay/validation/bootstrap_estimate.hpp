// assay: bootstrap estimates of prediction error (Efron & Tibshirani, "Improvements on
// cross-validation: the .632+ bootstrap method", JASA 92, 1997).
#pragma once

#include <cstdint>
#include <string>

#include "assay/validation/learners.hpp"

namespace assay::validation {

/// Error rates: 0-1 loss (misclassification rate) for classes, squared error for numbers.
struct bootstrap_estimate {
  std::string learner, loss;
  std::size_t repeats = 0;
  std::size_t cases_never_out = 0;  ///< cases in every bootstrap sample, left out of err_oob
  double err_train = 0;             ///< resubstitution error of the model trained on all rows
  /// Leave-one-out bootstrap Err^(1): for each case, the mean loss of the models whose bootstrap
  /// sample missed it, averaged over the cases.
  double err_oob = 0;
  double gamma = 0;             ///< no-information error: sum_k p_k (1 - q_k), or mean_{i,j} (y_i - yhat_j)^2
  double relative_overfit = 0;  ///< R' = (min(Err1, gamma) - err) / (gamma - err), 0 when not > 0
  double err_632 = 0;           ///< 0.368 err_train + 0.632 Err^(1)
  double err_632plus = 0;       ///< (1 - w) err_train + w min(Err^(1), gamma), w = 0.632 / (1 - 0.368 R')
};

/// Draws `repeats` bootstrap samples (splitters.hpp: bootstrap), trains on each, and computes the
/// estimates above. Threads as the engine (results independent of the count).
bootstrap_estimate bootstrap_632(const dataset& d, const any_learner& learner, std::size_t repeats, std::uint64_t seed,
                                 std::size_t threads = 0);

std::string to_text(const bootstrap_estimate& r);

}  // namespace assay::validation
