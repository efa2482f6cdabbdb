// assay: the result of a hypothesis test, shared by every test in assay::stats.
#pragma once

#include <limits>
#include <string>

#include "assay/stats/distributions.hpp"

namespace assay::stats {

/// A named test result: the statistic, its reference distribution's degrees of freedom (NaN when it
/// has none, e.g. a normal z or an exact test) and the p-value. `method` names the exact variant,
/// e.g. "mcnemar_chi2_corrected", so a caller can print it next to the number.
struct test_result {
  std::string method;
  double statistic = 0;
  double p_value = 1;
  double df = std::numeric_limits<double>::quiet_NaN();   ///< degrees of freedom (numerator for F)
  double df2 = std::numeric_limits<double>::quiet_NaN();  ///< denominator degrees of freedom for F
  alternative alt = alternative::two_sided;
};

}  // namespace assay::stats
