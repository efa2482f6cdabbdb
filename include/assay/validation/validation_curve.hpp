// assay: validation curve: training and test score over the values of one hyper-parameter
// (scikit-learn's validation_curve).
#pragma once

#include <string>
#include <vector>

#include "assay/validation/engine.hpp"

namespace assay::validation {

struct validation_curve_point {
  std::string value;                  ///< the parameter value as given
  std::vector<metric_summary> test;   ///< over the splits (pooled: all test predictions)
  std::vector<metric_summary> train;  ///< training score over the splits
};

struct validation_curve_result {
  std::string learner, param;
  std::size_t splits = 0;
  std::vector<validation_curve_point> points;
};

/// Cross-validates `learner_spec` + `param=value` for each value on the same splits, scoring the
/// training parts too. Throws the learner's usage error for an unknown parameter or a bad value.
validation_curve_result validation_curve(const dataset& d, const std::string& learner_spec, const std::string& param,
                                         const std::vector<std::string>& values, const split_list& splits,
                                         const cv_options& options);

std::string to_text(const validation_curve_result& r);
std::string to_json(const validation_curve_result& r);

}  // namespace assay::validation
