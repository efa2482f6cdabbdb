// assay: learning curves: the score of a learner trained on growing shares of each training part,
// on the training rows it saw and on the test part, with the spread over the splits as error bars.
#pragma once

#include <string>
#include <vector>

#include "assay/validation/engine.hpp"

namespace assay::validation {

struct learning_curve_options {
  /// Training sizes as shares of each split's training part, in (0, 1]. Each split's training rows
  /// are permuted once (seed derive_seed(seed, split)) and the first round(share * size) are used,
  /// so smaller training sets are nested in larger ones.
  std::vector<double> sizes{0.1, 0.325, 0.55, 0.775, 1.0};
  std::uint64_t seed = 0;
  cv_options cv;
};

struct learning_curve_point {
  double share = 0;
  std::size_t train_rows = 0;         ///< mean training rows over the splits (rounded)
  std::vector<metric_summary> test;   ///< over the splits; `pooled` is the pooled test value
  std::vector<metric_summary> train;  ///< training score (mean, sd over splits; pooled undefined)
};

struct learning_curve_result {
  std::string learner;
  std::size_t splits = 0;
  std::vector<learning_curve_point> points;
};

/// Runs the engine once per size with score_training on. Throws a usage error for a share outside
/// (0, 1] or a training subset with fewer than 2 rows.
learning_curve_result learning_curve(const dataset& d, const any_learner& learner, const split_list& splits,
                                     const learning_curve_options& options);

std::string to_text(const learning_curve_result& r);
std::string to_json(const learning_curve_result& r);
/// An SVG plot of the first metric: mean training and test score against training rows, error bars
/// of one standard deviation.
std::string to_svg(const learning_curve_result& r);

}  // namespace assay::validation
