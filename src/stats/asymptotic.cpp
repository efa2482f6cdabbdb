// Intervals from large-sample theory; see include/assay/stats/asymptotic.hpp.
#include "assay/stats/asymptotic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/detail/exact_sum.hpp"
#include "assay/error.hpp"
#include "assay/stats/distributions.hpp"

namespace assay::stats {

namespace {

void check_level(const char* fn, double level) {
  if (!(level > 0 && level < 1)) throw_usage(fmt::format("{}: level must be in (0, 1); got {}", fn, level));
}

asymptotic_interval undefined(const std::string& why) { return {value::undefined(why), value::undefined(why)}; }

// The interval from the exact sums: sw = sum w_i, mean = (sum w_i l_i) / sw, ss = sum (w_i (l_i - mean))^2.
asymptotic_interval normal_of_sums(std::size_t n, double sw, double mean, double ss, double level, double lower_bound) {
  const double nd = static_cast<double>(n);
  const double se = std::sqrt(nd / (nd - 1) * ss) / sw;
  if (!std::isfinite(se) || !std::isfinite(mean)) return undefined("the per-row values are not all finite");
  const double z = normal_quantile(0.5 + level / 2);
  return {value(std::max(lower_bound, mean - z * se)), value(mean + z * se)};
}

asymptotic_interval too_few(std::uint64_t n) {
  return undefined(fmt::format("{} row{} of positive weight; the variance needs 2", n, n == 1 ? "" : "s"));
}

}  // namespace

asymptotic_interval mean_normal_ci(std::span<const double> values, std::span<const double> w, double level,
                                   double lower_bound) {
  check_level("mean_normal_ci", level);
  if (!w.empty() && w.size() != values.size()) {
    throw_usage(fmt::format("mean_normal_ci: {} values but {} weights", values.size(), w.size()));
  }
  // Exact sums of the rounded terms (detail/exact_sum.hpp), rounded once: the result does not depend
  // on the order of the rows (a mergeable state gives it from pieces: mean_normal_ci_grouped).
  assay::detail::exact_sum sw, swl;
  std::size_t n = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double wi = w.empty() ? 1.0 : w[i];
    if (wi == 0) continue;
    sw.add(wi);
    swl.add(wi * values[i]);
    ++n;
  }
  if (n < 2) return too_few(n);
  const double total = sw.value(), mean = swl.value() / total;
  assay::detail::exact_sum ss;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double wi = w.empty() ? 1.0 : w[i];
    if (wi == 0) continue;
    const double d = wi * (values[i] - mean);
    ss.add(d * d);
  }
  return normal_of_sums(n, total, mean, ss.value(), level, lower_bound);
}

asymptotic_interval mean_normal_ci_grouped(std::span<const double> values, std::span<const std::uint64_t> counts,
                                           double level, double lower_bound) {
  check_level("mean_normal_ci_grouped", level);
  if (counts.size() != values.size()) {
    throw_usage(fmt::format("mean_normal_ci_grouped: {} values but {} counts", values.size(), counts.size()));
  }
  return mean_normal_ci_grouped(
      [&](const std::function<void(double, std::uint64_t)>& f) {
        for (std::size_t g = 0; g < values.size(); ++g) f(values[g], counts[g]);
      },
      level, lower_bound);
}

asymptotic_interval mean_normal_ci_grouped(const value_group_source& groups, double level, double lower_bound) {
  check_level("mean_normal_ci_grouped", level);
  // The sums of mean_normal_ci over the rows, each group's count of equal terms added at once.
  assay::detail::exact_sum swl;
  std::uint64_t n = 0;
  groups([&](double v, std::uint64_t c) {
    swl.add_times(v, c);
    n += c;
  });
  if (n < 2) return too_few(n);
  const double total = static_cast<double>(n), mean = swl.value() / total;
  assay::detail::exact_sum ss;
  groups([&](double v, std::uint64_t c) {
    const double d = v - mean;
    ss.add_times(d * d, c);
  });
  return normal_of_sums(n, total, mean, ss.value(), level, lower_bound);
}

asymptotic_interval average_precision_logit_ci(double ap, double n_pos, double level) {
  check_level("average_precision_logit_ci", level);
  if (!(ap > 0 && ap < 1)) return undefined(fmt::format("the logit interval needs 0 < AP < 1; AP is {}", ap));
  if (!(n_pos > 0)) return undefined("no positive case");
  const double mu = std::log(ap / (1 - ap));
  const double tau = 1 / std::sqrt(n_pos * ap * (1 - ap));
  const double z = normal_quantile(0.5 + level / 2);
  auto expit = [](double x) { return 1 / (1 + std::exp(-x)); };
  return {value(expit(mu - z * tau)), value(expit(mu + z * tau))};
}

}  // namespace assay::stats
