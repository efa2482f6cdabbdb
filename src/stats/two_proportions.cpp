// Two independent proportions: intervals for the difference and tests; see
// include/assay/stats/two_proportions.hpp.
#include "assay/stats/two_proportions.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <vector>

#include "assay/error.hpp"
#include "assay/stats/proportion.hpp"

namespace assay::stats {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

void check_counts(const char* fn, double x1, double n1, double x2, double n2) {
  for (auto [xn, nn, x, n] : {std::tuple{"x1", "n1", x1, n1}, {"x2", "n2", x2, n2}}) {
    if (!std::isfinite(n) || !(n > 0)) throw_usage(fmt::format("{}: {} must be finite and > 0; got {}", fn, nn, n));
    if (!std::isfinite(x) || x < 0 || x > n) {
      throw_usage(fmt::format("{}: {} must be in [0, {}] = [0, {}]; got {}", fn, xn, nn, n, x));
    }
  }
}

void check_level(const char* fn, double level) {
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("{}: level must be in (0, 1); got {}", fn, level));
}

double p_from_z(double z, alternative alt) {
  switch (alt) {
    case alternative::greater: return normal_sf(z);
    case alternative::less: return normal_cdf(z);
    case alternative::two_sided: return std::min(1.0, 2 * normal_sf(std::fabs(z)));
  }
  return nan;
}

}  // namespace

std::string_view to_string(difference_method m) { return m == difference_method::wald ? "wald" : "newcombe"; }

difference_interval two_proportions_ci(double x1, double n1, double x2, double n2, double level,
                                       difference_method method) {
  check_counts("two_proportions_ci", x1, n1, x2, n2);
  check_level("two_proportions_ci", level);
  difference_interval r;
  const double p1 = x1 / n1, p2 = x2 / n2;
  r.estimate = p1 - p2;
  r.level = level;
  r.method = method;
  if (method == difference_method::wald) {
    const double half = z_critical(level) * std::sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2);
    r.lower = r.estimate - half;
    r.upper = r.estimate + half;
    return r;
  }
  const proportion_interval w1 = proportion_ci(x1, n1, level, proportion_method::wilson);
  const proportion_interval w2 = proportion_ci(x2, n2, level, proportion_method::wilson);
  r.lower = r.estimate - std::hypot(p1 - w1.lower, w2.upper - p2);
  r.upper = r.estimate + std::hypot(w1.upper - p1, p2 - w2.lower);
  return r;
}

z_test_result two_proportions_z_test(double x1, double n1, double x2, double n2, alternative alt) {
  check_counts("two_proportions_z_test", x1, n1, x2, n2);
  z_test_result r;
  r.test.method = "two_proportion_z";
  r.test.alt = alt;
  const double p = (x1 + x2) / (n1 + n2);
  r.std_error = std::sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
  if (!(r.std_error > 0)) {
    r.undefined = p == 0 ? "no successes in either sample: the pooled proportion is 0 and z is 0/0"
                         : "only successes in both samples: the pooled proportion is 1 and z is 0/0";
    r.test.statistic = r.test.p_value = nan;
    return r;
  }
  r.test.statistic = (x1 / n1 - x2 / n2) / r.std_error;
  r.test.p_value = p_from_z(r.test.statistic, alt);
  return r;
}

test_result fisher_exact_test(std::int64_t x1, std::int64_t n1, std::int64_t x2, std::int64_t n2, alternative alt) {
  check_counts("fisher_exact_test", static_cast<double>(x1), static_cast<double>(n1), static_cast<double>(x2),
               static_cast<double>(n2));
  test_result r;
  r.method = "fisher_exact";
  r.alt = alt;
  const double a = static_cast<double>(x1), b = static_cast<double>(n1 - x1), c = static_cast<double>(x2),
               d = static_cast<double>(n2 - x2);
  r.statistic = (b * c == 0) ? (a * d == 0 ? nan : std::numeric_limits<double>::infinity()) : a * d / (b * c);
  // X1 given the margins is hypergeometric on [lo, hi]. Its masses relative to the mode, from the
  // ratio P(k + 1) / P(k) = (n1 - k) (m - k) / ((k + 1) (n2 - m + k + 1)), then normalised: no
  // factorials, no overflow; masses far in the tails underflow to 0, as they should.
  const std::int64_t m = x1 + x2;
  const std::int64_t lo = std::max<std::int64_t>(0, m - n2), hi = std::min(n1, m);
  const auto size = static_cast<std::size_t>(hi - lo + 1);
  std::vector<double> w(size, 0.0);
  // Mode of the hypergeometric: floor((m + 1) (n1 + 1) / (n1 + n2 + 2)), within [lo, hi].
  const double mode_d = std::floor((static_cast<double>(m) + 1) * (static_cast<double>(n1) + 1) /
                                   (static_cast<double>(n1 + n2) + 2));
  const std::int64_t mode = std::clamp(static_cast<std::int64_t>(mode_d), lo, hi);
  auto ratio_up = [&](std::int64_t k) {  // P(k + 1) / P(k)
    return static_cast<double>(n1 - k) * static_cast<double>(m - k) /
           (static_cast<double>(k + 1) * static_cast<double>(n2 - m + k + 1));
  };
  w[static_cast<std::size_t>(mode - lo)] = 1;
  for (std::int64_t k = mode; k < hi; ++k) w[static_cast<std::size_t>(k + 1 - lo)] = w[static_cast<std::size_t>(k - lo)] * ratio_up(k);
  for (std::int64_t k = mode; k > lo; --k) w[static_cast<std::size_t>(k - 1 - lo)] = w[static_cast<std::size_t>(k - lo)] / ratio_up(k - 1);
  double total = 0;
  for (double v : w) total += v;
  const std::size_t obs = static_cast<std::size_t>(x1 - lo);
  double s = 0;
  switch (alt) {
    case alternative::greater:
      for (std::size_t k = obs; k < size; ++k) s += w[k];
      break;
    case alternative::less:
      for (std::size_t k = 0; k <= obs; ++k) s += w[k];
      break;
    case alternative::two_sided: {
      const double cut = w[obs] * (1 + 1e-7);
      for (double v : w)
        if (v <= cut) s += v;
      break;
    }
  }
  r.p_value = std::min(1.0, s / total);
  return r;
}

two_proportions_result compare_two_proportions(double x1, double n1, double x2, double n2, double level,
                                               alternative alt) {
  check_counts("compare_two_proportions", x1, n1, x2, n2);
  check_level("compare_two_proportions", level);
  two_proportions_result r;
  r.x1 = x1, r.n1 = n1, r.x2 = x2, r.n2 = n2;
  r.p1 = x1 / n1, r.p2 = x2 / n2;
  r.difference = r.p1 - r.p2;
  r.level = level;
  r.wald_std_error = std::sqrt(r.p1 * (1 - r.p1) / n1 + r.p2 * (1 - r.p2) / n2);
  r.wald = two_proportions_ci(x1, n1, x2, n2, level, difference_method::wald);
  r.newcombe = two_proportions_ci(x1, n1, x2, n2, level, difference_method::newcombe);
  r.z_test = two_proportions_z_test(x1, n1, x2, n2, alt);
  auto integral = [](double v) { return v == std::floor(v) && v < 9.0e15; };
  r.has_fisher = integral(x1) && integral(n1) && integral(x2) && integral(n2) && n1 + n2 <= 1e7;
  if (r.has_fisher) {
    r.fisher = fisher_exact_test(static_cast<std::int64_t>(x1), static_cast<std::int64_t>(n1),
                                 static_cast<std::int64_t>(x2), static_cast<std::int64_t>(n2), alt);
  }
  return r;
}

}  // namespace assay::stats
