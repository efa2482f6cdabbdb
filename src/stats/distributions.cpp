#include "assay/stats/distributions.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <fmt/format.h>

#include "assay/error.hpp"

namespace assay::stats {
namespace {

namespace bm = boost::math;

void check_probability(const char* fn, double p) {
  if (!(p > 0.0 && p < 1.0)) throw_usage(fmt::format("{}: p must be in (0, 1); got {}", fn, p));
}
void check_df(const char* fn, const char* name, double df) {
  if (!(df > 0.0) || std::isinf(df)) throw_usage(fmt::format("{}: {} must be finite and > 0; got {}", fn, name, df));
}
void check_not_nan(const char* fn, double x) {
  if (std::isnan(x)) throw_usage(fmt::format("{}: x must not be NaN", fn));
}

}  // namespace

std::string_view to_string(alternative alt) {
  switch (alt) {
    case alternative::two_sided: return "two-sided";
    case alternative::greater: return "greater";
    case alternative::less: return "less";
  }
  return "two-sided";
}

alternative parse_alternative(std::string_view text, std::string_view what) {
  if (text == "two-sided" || text == "two_sided" || text == "two.sided") return alternative::two_sided;
  if (text == "greater") return alternative::greater;
  if (text == "less") return alternative::less;
  throw_usage(fmt::format("{} must be one of two-sided, greater, less; got '{}'", what, text));
}

double normal_cdf(double x) {
  check_not_nan("normal_cdf", x);
  if (std::isinf(x)) return x > 0 ? 1.0 : 0.0;
  return bm::cdf(bm::normal_distribution<double>(), x);
}
double normal_sf(double x) {
  check_not_nan("normal_sf", x);
  if (std::isinf(x)) return x > 0 ? 0.0 : 1.0;
  return bm::cdf(bm::complement(bm::normal_distribution<double>(), x));
}
double normal_quantile(double p) {
  check_probability("normal_quantile", p);
  return bm::quantile(bm::normal_distribution<double>(), p);
}
double z_critical(double level) {
  if (!(level > 0.0 && level < 1.0)) throw_usage(fmt::format("z_critical: level must be in (0, 1); got {}", level));
  // Upper (1 - level) / 2 tail, computed as a complement so levels near 1 keep their precision.
  return bm::quantile(bm::complement(bm::normal_distribution<double>(), (1.0 - level) / 2.0));
}

double t_cdf(double x, double df) {
  check_not_nan("t_cdf", x);
  check_df("t_cdf", "df", df);
  if (std::isinf(x)) return x > 0 ? 1.0 : 0.0;
  return bm::cdf(bm::students_t_distribution<double>(df), x);
}
double t_sf(double x, double df) {
  check_not_nan("t_sf", x);
  check_df("t_sf", "df", df);
  if (std::isinf(x)) return x > 0 ? 0.0 : 1.0;
  return bm::cdf(bm::complement(bm::students_t_distribution<double>(df), x));
}
double t_quantile(double p, double df) {
  check_probability("t_quantile", p);
  check_df("t_quantile", "df", df);
  return bm::quantile(bm::students_t_distribution<double>(df), p);
}

double chi2_cdf(double x, double df) {
  check_not_nan("chi2_cdf", x);
  check_df("chi2_cdf", "df", df);
  if (x <= 0) return 0.0;
  if (std::isinf(x)) return 1.0;
  return bm::cdf(bm::chi_squared_distribution<double>(df), x);
}
double chi2_sf(double x, double df) {
  check_not_nan("chi2_sf", x);
  check_df("chi2_sf", "df", df);
  if (x <= 0) return 1.0;
  if (std::isinf(x)) return 0.0;
  return bm::cdf(bm::complement(bm::chi_squared_distribution<double>(df), x));
}
double chi2_quantile(double p, double df) {
  check_probability("chi2_quantile", p);
  check_df("chi2_quantile", "df", df);
  return bm::quantile(bm::chi_squared_distribution<double>(df), p);
}
double f_sf(double x, double df1, double df2) {
  check_not_nan("f_sf", x);
  check_df("f_sf", "df1", df1);
  check_df("f_sf", "df2", df2);
  if (x <= 0) return 1.0;
  if (std::isinf(x)) return 0.0;
  return bm::cdf(bm::complement(bm::fisher_f_distribution<double>(df1, df2), x));
}

namespace {
void check_binom(const char* fn, std::int64_t n, double p) {
  if (n < 0) throw_usage(fmt::format("{}: n must be >= 0; got {}", fn, n));
  if (!(p >= 0.0 && p <= 1.0)) throw_usage(fmt::format("{}: p must be in [0, 1]; got {}", fn, p));
}
bm::binomial_distribution<double> binom(std::int64_t n, double p) {
  return bm::binomial_distribution<double>(static_cast<double>(n), p);
}
}  // namespace

double binom_pmf(std::int64_t k, std::int64_t n, double p) {
  check_binom("binom_pmf", n, p);
  if (k < 0 || k > n) return 0.0;
  return bm::pdf(binom(n, p), static_cast<double>(k));
}
double binom_cdf(std::int64_t k, std::int64_t n, double p) {
  check_binom("binom_cdf", n, p);
  if (k < 0) return 0.0;
  if (k >= n) return 1.0;
  return bm::cdf(binom(n, p), static_cast<double>(k));
}
double binom_upper_tail(std::int64_t k, std::int64_t n, double p) {
  check_binom("binom_upper_tail", n, p);
  if (k <= 0) return 1.0;
  if (k > n) return 0.0;
  return bm::cdf(bm::complement(binom(n, p), static_cast<double>(k - 1)));
}

binom_test_result binom_test(std::int64_t k, std::int64_t n, double p, alternative alt) {
  if (n < 1) throw_usage(fmt::format("binom_test: n must be >= 1; got {}", n));
  if (k < 0 || k > n) throw_usage(fmt::format("binom_test: k must be in [0, n] = [0, {}]; got {}", n, k));
  if (!(p >= 0.0 && p <= 1.0)) throw_usage(fmt::format("binom_test: p must be in [0, 1]; got {}", p));
  binom_test_result r{k, n, p, alt, static_cast<double>(k) / static_cast<double>(n), 1.0};
  if (alt == alternative::greater) {
    r.p_value = binom_upper_tail(k, n, p);
    return r;
  }
  if (alt == alternative::less) {
    r.p_value = binom_cdf(k, n, p);
    return r;
  }
  const double expected = p * static_cast<double>(n);
  const double kd = static_cast<double>(k);
  if (kd == expected) return r;  // p-value 1
  const double threshold = binom_pmf(k, n, p) * (1.0 + 1e-7);
  double pval = 0;
  if (kd < expected) {
    // Other tail: the first j in [ceil(np), n] with pmf(j) <= threshold; pmf is non-increasing there.
    std::int64_t lo = static_cast<std::int64_t>(std::ceil(expected)), hi = n + 1;  // answer in [lo, hi]
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (binom_pmf(mid, n, p) <= threshold) hi = mid; else lo = mid + 1;
    }
    pval = binom_cdf(k, n, p) + binom_upper_tail(lo, n, p);
  } else {
    // Other tail: the last j in [0, floor(np)] with pmf(j) <= threshold; pmf is non-decreasing there.
    std::int64_t lo = -1, hi = static_cast<std::int64_t>(std::floor(expected));  // answer in [lo, hi]
    while (lo < hi) {
      const std::int64_t mid = hi - (hi - lo) / 2;
      if (binom_pmf(mid, n, p) <= threshold) lo = mid; else hi = mid - 1;
    }
    pval = binom_cdf(lo, n, p) + binom_upper_tail(k, n, p);
  }
  r.p_value = std::min(1.0, pval);
  return r;
}

}  // namespace assay::stats
