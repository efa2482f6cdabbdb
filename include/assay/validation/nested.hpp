// assay: nested cross-validation: a hyper-parameter chosen by an inner cross-validation on each
// outer training part, the chosen model scored on the outer test part (choose on a validation
// split, estimate on data not used for choosing: Cawley & Talbot, JMLR 11 (2010); Varma & Simon,
// BMC Bioinformatics 2006).
#pragma once

#include <string>
#include <vector>

#include "assay/validation/engine.hpp"
#include "assay/validation/split_plan.hpp"

namespace assay::validation {

struct nested_cv_result {
  std::string learner, param, metric;
  std::vector<std::string> chosen;        ///< the value chosen in each outer split
  std::vector<value> outer;               ///< the outer test score of each outer split
  std::vector<std::vector<value>> inner;  ///< [outer split][value]: inner cross-validated mean
  std::vector<std::string> values;
  metric_summary summary;  ///< mean and sd of the outer scores (pooled not computed)
};

/// For each outer split, `inner` (a split plan, e.g. 3-fold stratified) is drawn on the outer training
/// rows, every value of `param` is cross-validated there on the first metric, the best inner mean
/// (ties: the earlier value) is chosen, and the learner with that value is trained on the whole
/// outer training part and scored on the outer test part.
nested_cv_result nested_cv(const dataset& d, const std::string& learner_spec, const std::string& param,
                           const std::vector<std::string>& values, const split_list& outer, const split_request& inner,
                           const cv_options& options);

std::string to_text(const nested_cv_result& r);
std::string to_json(const nested_cv_result& r);

}  // namespace assay::validation
