// Which engine can evaluate a request; see include/assay/scale/support.hpp.
#include "assay/scale/support.hpp"

#include <fmt/format.h>

#include "assay/error.hpp"

namespace assay::scale {

namespace {

int prediction_kinds(const report_request& q) {
  return (q.score ? 1 : 0) + (q.pred ? 1 : 0) + (q.proba.empty() ? 0 : 1);
}

std::string constraint_names() {
  return fmt::format("{}/{}/{}/{}", param("max_fpr"), param("min_tpr"), param("min_precision"), param("min_recall"));
}

}  // namespace

std::optional<std::string> why_not(const report_request& q, engine e, bool automatic) {
  // Class probabilities and regression keep every row (their intervals resample them), and so do the
  // intervals that resample rows (with weights, or by the bootstrap).
  const bool regression_or_proba = !q.proba.empty() || q.task == task_kind::regression;
  const bool resampled = q.ci_level && (q.weight || q.ci == ci_method::bootstrap);
  bool fits = !q.constraints.any() && q.path != "-" && prediction_kinds(q) == 1;
  if (e == engine::out_of_core) {
    fits = fits && (!q.ci_level || (regression_or_proba ? !automatic : !resampled));
    if (fits) return std::nullopt;
    return fmt::format("{} works with {}, {} or {} on a file (not {} with {} or {} bootstrap but with {} or {} "
                       "regression, {}, or standard input)",
                       param("max_memory"), param("scores"), param("predictions"), param("proba"), param("ci_level"),
                       param("weight"), param("ci_method"), param("proba"), param("task"), constraint_names());
  }
  fits = fits && (!automatic || !(regression_or_proba || resampled));
  if (fits) return std::nullopt;
  return fmt::format("{} with {} works on a file (not standard input), without {}", param("max_memory"), param("by"),
                     constraint_names());
}

}  // namespace assay::scale
