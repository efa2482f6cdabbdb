// assay: gradient-boosted trees through xgboost's C API (Chen & Guestrin, KDD 2016), when assay is
// built with xgboost (Debian libxgboost-dev; ASSAY_HAVE_XGBOOST). Objective binary:logistic for two
// classes, multi:softprob for more, reg:squarederror for numbers; one xgboost thread per model
// (the engine parallelises over splits) and a fixed seed, so results do not depend on the thread count.
#pragma once

#include <memory>

#include "assay/validation/learners.hpp"

namespace assay::validation {

/// True when this build links xgboost.
bool xgboost_available() noexcept;

struct xgboost_learner {
  std::size_t n_estimators = 100;
  std::size_t max_depth = 6;
  double learning_rate = 0.3;
  double reg_lambda = 1;
  double min_child_weight = 1;
  struct fitted {
    std::size_t classes = 0, cols = 0;
    std::shared_ptr<void> booster;  // BoosterHandle, freed with XGBoosterFree
    [[nodiscard]] predictions predict(const matrix& x) const;
  };
  [[nodiscard]] fitted fit(const training_set& t) const;
};

}  // namespace assay::validation
