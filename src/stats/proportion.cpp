#include "assay/stats/proportion.hpp"

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <cmath>
#include <fmt/format.h>

#include "assay/error.hpp"
#include "assay/stats/distributions.hpp"

namespace assay::stats {

std::string_view to_string(proportion_method m) {
  switch (m) {
    case proportion_method::wilson: return "wilson";
    case proportion_method::normal: return "normal";
    case proportion_method::agresti_coull: return "agresti_coull";
    case proportion_method::clopper_pearson: return "clopper_pearson";
  }
  return "wilson";
}

proportion_method parse_proportion_method(std::string_view text, std::string_view what) {
  if (text == "wilson") return proportion_method::wilson;
  if (text == "normal" || text == "wald") return proportion_method::normal;
  if (text == "agresti_coull" || text == "agresti-coull") return proportion_method::agresti_coull;
  if (text == "clopper_pearson" || text == "clopper-pearson" || text == "exact" || text == "beta") {
    return proportion_method::clopper_pearson;
  }
  throw_usage(fmt::format("{} must be one of wilson, normal, agresti_coull, clopper_pearson (or exact); got '{}'",
                          what, text));
}

proportion_interval proportion_ci(double x, double n, double level, proportion_method method) {
  if (!std::isfinite(n) || !(n > 0)) throw_usage(fmt::format("proportion_ci: n must be finite and > 0; got {}", n));
  if (!std::isfinite(x) || x < 0 || x > n) {
    throw_usage(fmt::format("proportion_ci: x (successes) must be in [0, n] = [0, {}]; got {}", n, x));
  }
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("proportion_ci: level must be in (0, 1); got {}", level));
  proportion_interval r;
  r.estimate = x / n;
  r.level = level;
  r.method = method;
  const double e = r.estimate;
  const double z = z_critical(level);
  const double z2 = z * z;
  switch (method) {
    case proportion_method::normal: {
      const double half = z * std::sqrt(e * (1 - e) / n);
      r.lower = std::clamp(e - half, 0.0, 1.0);
      r.upper = std::clamp(e + half, 0.0, 1.0);
      break;
    }
    case proportion_method::wilson: {
      const double denom = 1 + z2 / n;
      const double center = (e + z2 / (2 * n)) / denom;
      const double half = z * std::sqrt(e * (1 - e) / n + z2 / (4 * n * n)) / denom;
      // The Wilson limits lie in [0, 1] (exactly 0 at x = 0 and 1 at x = n); clamping only removes
      // the rounding of center - half there (-3.5e-18 at x = 0, n = 10, level 0.5).
      r.lower = std::max(0.0, center - half);
      r.upper = std::min(1.0, center + half);
      break;
    }
    case proportion_method::agresti_coull: {
      const double nc = n + z2;
      const double ec = (x + z2 / 2) / nc;
      const double half = z * std::sqrt(ec * (1 - ec) / nc);
      r.lower = std::clamp(ec - half, 0.0, 1.0);
      r.upper = std::clamp(ec + half, 0.0, 1.0);
      break;
    }
    case proportion_method::clopper_pearson: {
      const double a2 = (1 - level) / 2;
      namespace bm = boost::math;
      r.lower = x == 0 ? 0.0 : bm::quantile(bm::beta_distribution<double>(x, n - x + 1), a2);
      r.upper = x == n ? 1.0 : bm::quantile(bm::complement(bm::beta_distribution<double>(x + 1, n - x), a2));
      break;
    }
  }
  return r;
}

}  // namespace assay::stats
