// assay: the external-command learner. assay writes the training and test parts of a split to CSV
// files and runs a user's command (any language) that trains on the first and writes predictions
// for the second. The protocol is documented in docs/validation.md ("External learners").
#pragma once

#include <string>

#include "assay/validation/learners.hpp"

namespace assay::validation {

/// Runs `command` through /bin/sh once per split, after replacing the placeholders
///   {train}        training part: columns x0..x{d-1} (encoded features) and y (class index 0..K-1,
///                  or the target value)
///   {test}         test part: columns x0..x{d-1}
///   {predictions}  the file the command must write: a header and one row per test row, column
///                  `pred` (class index or value) and optionally p0..p{K-1} (class probabilities)
///   {classes}      K, the number of classes (0 for regression)
/// (file names are shell-quoted; the files live in a fresh temporary directory removed afterwards;
/// the command runs in assay's working directory with standard input from /dev/null). Exit status 0
/// is success; any other status, a
/// signal, a timeout (the whole process group is killed) or a malformed prediction file is a data
/// error naming the command, with the tail of its standard error.
struct external_learner {
  std::string command;
  double timeout_seconds = 600;
  struct fitted {
    std::string command;
    double timeout_seconds = 600;
    std::size_t classes = 0;
    matrix x;
    std::vector<std::int32_t> y_class;
    std::vector<double> y_value;
    [[nodiscard]] predictions predict(const matrix& test) const;
  };
  [[nodiscard]] fitted fit(const training_set& t) const;
};

static_assert(learner<external_learner>);

/// An any_learner named "external" for `command` (preprocessing: encoding only, no scaling).
any_learner make_external_learner(const std::string& command, double timeout_seconds);

}  // namespace assay::validation
