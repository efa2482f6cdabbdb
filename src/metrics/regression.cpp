#include "assay/metrics/regression.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>
#include <vector>

#include "assay/detail/exact_sum.hpp"
#include "assay/error.hpp"

namespace assay {

namespace {

void check(const char* fn, std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  if (y.size() != yhat.size()) throw_usage(fmt::format("{}: {} targets but {} predictions", fn, y.size(), yhat.size()));
  if (!w.empty() && w.size() != y.size()) throw_usage(fmt::format("{}: {} targets but {} weights", fn, y.size(), w.size()));
}

inline double weight_at(std::span<const double> w, std::size_t i) { return w.empty() ? 1.0 : w[i]; }

// Weighted mean of f(i) over cases with positive weight. The sums are exact (each term w_i f(i)
// rounded once) and rounded once (detail/exact_sum.hpp): the result does not depend on the order of
// the cases, so a mergeable state (scale/state.hpp) gives the same bits from pieces.
template <class F>
value weighted_mean(std::span<const double> y, std::span<const double> w, F f) {
  assay::detail::signed_exact_sum num;
  assay::detail::exact_sum den;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double wi = weight_at(w, i);
    if (wi == 0) continue;
    num.add(wi * f(i));
    den.add(wi);
  }
  return ratio(num.value(), den.value(), "no cases");
}

// True when every case with positive weight has the same target. Decided on the values, not on
// SS_tot == 0: a weighted mean of equal numbers need not be exactly that number, which would leave
// SS_tot at ~1e-30 and R^2 at a huge negative value instead of undefined.
bool constant_target(std::span<const double> y, std::span<const double> w) {
  bool seen = false;
  double first = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (weight_at(w, i) == 0) continue;
    if (!seen) {
      first = y[i];
      seen = true;
    } else if (y[i] != first) {
      return false;
    }
  }
  return true;
}

value sqrt_of(value v) {
  if (v.defined()) v.v = std::sqrt(v.v);
  return v;
}

}  // namespace

value mean_absolute_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  check("mean_absolute_error", y, yhat, w);
  return weighted_mean(y, w, [&](std::size_t i) { return std::abs(y[i] - yhat[i]); });
}

value mean_squared_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  check("mean_squared_error", y, yhat, w);
  return weighted_mean(y, w, [&](std::size_t i) {
    const double d = y[i] - yhat[i];
    return d * d;
  });
}

value root_mean_squared_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  return sqrt_of(mean_squared_error(y, yhat, w));
}

namespace {

const char* zero_target(double y, double) { return y == 0 ? "the target is 0" : nullptr; }

const char* outside_poisson(double y, double yhat) {
  if (!(y >= 0)) return "the target is negative";
  if (!(yhat > 0)) return "the prediction is not positive";
  return nullptr;
}

const char* outside_gamma(double y, double yhat) {
  if (!(y > 0)) return "the target is not positive";
  if (!(yhat > 0)) return "the prediction is not positive";
  return nullptr;
}

}  // namespace

const row_term absolute_percentage_term{[](double y, double yhat) { return std::abs(y - yhat) / std::abs(y); },
                                        zero_target};
const row_term squared_percentage_term{[](double y, double yhat) {
                                         const double r = (y - yhat) / y;
                                         return r * r;
                                       },
                                       zero_target};

// 2 (y log(y / yhat) - y + yhat), with y log(y / yhat) = 0 at y = 0 (its limit; SciPy's xlogy).
const row_term poisson_deviance_term{[](double y, double yhat) {
                                       const double ylog = y == 0 ? 0.0 : y * std::log(y / yhat);
                                       return 2 * (ylog - y + yhat);
                                     },
                                     outside_poisson};

const row_term gamma_deviance_term{[](double y, double yhat) { return 2 * (std::log(yhat / y) + y / yhat - 1); },
                                   outside_gamma};

value mean_of_terms(const row_term& t, std::span<const double> y, std::span<const double> yhat,
                    std::span<const double> w) {
  check("mean_of_terms", y, yhat, w);
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (weight_at(w, i) == 0 || t.outside == nullptr) continue;
    if (const char* why = t.outside(y[i], yhat[i])) return value::undefined(fmt::format("{} in case {}", why, i + 1));
  }
  const value mean = weighted_mean(y, w, [&](std::size_t i) { return t.term(y[i], yhat[i]); });
  return t.root ? sqrt_of(mean) : mean;
}

value mean_absolute_percentage_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  check("mean_absolute_percentage_error", y, yhat, w);
  return mean_of_terms(absolute_percentage_term, y, yhat, w);
}

value mean_squared_percentage_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  check("mean_squared_percentage_error", y, yhat, w);
  return mean_of_terms(squared_percentage_term, y, yhat, w);
}

value root_mean_squared_percentage_error(std::span<const double> y, std::span<const double> yhat,
                                         std::span<const double> w) {
  return sqrt_of(mean_squared_percentage_error(y, yhat, w));
}

value r2(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  check("r2", y, yhat, w);
  value mean = weighted_mean(y, w, [&](std::size_t i) { return y[i]; });
  if (!mean) return mean;
  if (constant_target(y, w)) return value::undefined("the target is constant");
  assay::detail::exact_sum res, tot;  // exact sums of the rounded terms: any order, the same bits
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double wi = weight_at(w, i);
    const double r = y[i] - yhat[i], d = y[i] - mean.v;
    res.add(wi * r * r);
    tot.add(wi * d * d);
  }
  const double ss_res = res.value(), ss_tot = tot.value();
  if (ss_tot == 0) return value::undefined("the target is constant");
  return 1 - ss_res / ss_tot;
}

value explained_variance(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  check("explained_variance", y, yhat, w);
  value mean_y = weighted_mean(y, w, [&](std::size_t i) { return y[i]; });
  if (!mean_y) return mean_y;
  if (constant_target(y, w)) return value::undefined("the target is constant");
  value mean_r = weighted_mean(y, w, [&](std::size_t i) { return y[i] - yhat[i]; });
  assay::detail::exact_sum vr, vy;  // exact sums of the rounded terms: any order, the same bits
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double wi = weight_at(w, i);
    const double r = y[i] - yhat[i] - mean_r.v, d = y[i] - mean_y.v;
    vr.add(wi * r * r);
    vy.add(wi * d * d);
  }
  const double var_r = vr.value(), var_y = vy.value();
  if (var_y == 0) return value::undefined("the target is constant");
  return 1 - var_r / var_y;
}

value median_absolute_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  check("median_absolute_error", y, yhat, w);
  std::vector<std::pair<double, double>> e;  // (|error|, weight)
  e.reserve(y.size());
  assay::detail::exact_sum sum;  // exact: the same total whatever the order of the cases
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double wi = weight_at(w, i);
    if (wi == 0) continue;
    e.emplace_back(std::abs(y[i] - yhat[i]), wi);
    sum.add(wi);
  }
  const double total = sum.value();
  if (e.empty()) return value::undefined("no cases");
  std::sort(e.begin(), e.end());
  // Lower median: first value whose cumulative weight reaches half; upper: first that passes it.
  const double half = total / 2;
  double cum = 0, lower = e.back().first, upper = e.back().first;
  bool have_lower = false;
  for (const auto& [x, wi] : e) {
    cum += wi;
    if (!have_lower && cum >= half) {
      lower = x;
      have_lower = true;
    }
    if (cum > half) {
      upper = x;
      break;
    }
  }
  return (lower + upper) / 2;
}

value max_error(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  check("max_error", y, yhat, w);
  double m = -1;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (weight_at(w, i) > 0) m = std::max(m, std::abs(y[i] - yhat[i]));
  }
  if (m < 0) return value::undefined("no cases");
  return m;
}

value mean_poisson_deviance(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  check("mean_poisson_deviance", y, yhat, w);
  return mean_of_terms(poisson_deviance_term, y, yhat, w);
}

value mean_gamma_deviance(std::span<const double> y, std::span<const double> yhat, std::span<const double> w) {
  check("mean_gamma_deviance", y, yhat, w);
  return mean_of_terms(gamma_deviance_term, y, yhat, w);
}

}  // namespace assay
