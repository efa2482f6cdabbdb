#include "assay/validation/features.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/error.hpp"

namespace assay::validation {

void feature_encoder::fit(const dataset& d, std::span<const std::size_t> rows, const encoder_options& options) {
  opt_ = options;
  if (opt_.degree < 1) throw_usage(fmt::format("polynomial degree must be >= 1, got {}", opt_.degree));
  const std::size_t f = d.features.size();
  fill_.assign(f, 0);
  centre_.assign(f, 0);
  scale_.assign(f, 1);
  fill_code_.assign(f, -1);
  level_.assign(f, {});
  names_.clear();
  if (rows.empty()) throw_usage("feature_encoder: no training rows");
  for (std::size_t j = 0; j < f; ++j) {
    const auto& col = d.features[j];
    if (col.categorical) {
      std::vector<std::size_t> count(col.levels.size(), 0);
      for (auto r : rows)
        if (col.codes[r] >= 0) ++count[static_cast<std::size_t>(col.codes[r])];
      std::size_t best = 0;
      for (std::size_t l = 0; l < count.size(); ++l) {
        if (count[l] > 0) {
          level_[j].push_back(static_cast<std::int32_t>(l));
          names_.push_back(col.name + "=" + col.levels[l]);
        }
        if (count[l] > count[best]) best = l;
      }
      if (!count.empty() && count[best] > 0) fill_code_[j] = static_cast<std::int32_t>(best);
      continue;
    }
    // Mean (and median when asked) of the non-missing training values; then the mean and population
    // standard deviation of the values as imputed.
    const double* x = col.numbers.data();
    double sum = 0;
    std::size_t present = 0;
    for (auto r : rows) {
      if (!std::isnan(x[r])) {
        sum += x[r];
        ++present;
      }
    }
    if (present > 0) {
      const double m = sum / static_cast<double>(present);
      fill_[j] = m;
      if (opt_.impute == impute_kind::median) {
        std::vector<double> v;
        v.reserve(present);
        for (auto r : rows)
          if (!std::isnan(x[r])) v.push_back(x[r]);
        auto mid = v.begin() + static_cast<long>(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        double med = *mid;
        if (v.size() % 2 == 0) med = (med + *std::max_element(v.begin(), mid)) / 2;
        fill_[j] = med;
      }
      if (opt_.standardize) {
        const double n_missing = static_cast<double>(rows.size() - present);
        const double mean = (sum + fill_[j] * n_missing) / static_cast<double>(rows.size());
        double ss = n_missing * (fill_[j] - mean) * (fill_[j] - mean);
        for (auto r : rows)
          if (!std::isnan(x[r])) ss += (x[r] - mean) * (x[r] - mean);
        const double sd = std::sqrt(ss / static_cast<double>(rows.size()));
        centre_[j] = mean;
        scale_[j] = sd > 0 ? sd : 1.0;
      }
    }
    names_.push_back(col.name);
    for (std::size_t p = 2; p <= opt_.degree; ++p) names_.push_back(fmt::format("{}^{}", col.name, p));
  }
}

matrix feature_encoder::transform(const dataset& d, std::span<const std::size_t> rows) const {
  if (opt_.impute == impute_kind::refuse) {
    // Report the first missing cell in file order (row by row).
    bool any = false;
    for (const auto& col : d.features) any = any || col.missing > 0;
    for (std::size_t i = 0; any && i < rows.size(); ++i) {
      for (const auto& col : d.features) {
        if (col.categorical ? col.codes[rows[i]] < 0 : std::isnan(col.numbers[rows[i]])) {
          throw_data(fmt::format("{}: row {}: column '{}' is missing{} (use {} mean or median)", d.source,
                                 rows[i] + 1, col.name, col.categorical ? "" : " or NaN", param("impute")));
        }
      }
    }
  }
  matrix m(rows.size(), names_.size());
  const std::size_t stride = names_.size();
  std::size_t c = 0;  // first output column of the current input column
  for (std::size_t j = 0; j < d.features.size(); ++j) {
    const auto& col = d.features[j];
    if (col.categorical) {
      for (std::size_t i = 0; i < rows.size(); ++i) {
        std::int32_t code = col.codes[rows[i]];
        if (code < 0) {
          if (opt_.impute == impute_kind::refuse) {
            throw_data(fmt::format("{}: row {}: column '{}' is missing (use {} mean or median)", d.source,
                                   rows[i] + 1, col.name, param("impute")));
          }
          code = fill_code_[j];
        }
        for (std::size_t l = 0; l < level_[j].size(); ++l)
          m.data[i * stride + c + l] = code == level_[j][l] ? 1.0 : 0.0;
      }
      c += level_[j].size();
      continue;
    }
    const double centre = centre_[j], inv_scale = 1.0 / scale_[j];
    const double* src = col.numbers.data();
    double* out = m.data.data() + c;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      double x = src[rows[i]];
      if (std::isnan(x)) {
        if (opt_.impute == impute_kind::refuse) {
          throw_data(fmt::format("{}: row {}: column '{}' is missing or NaN (use {} mean or median)", d.source,
                                 rows[i] + 1, col.name, param("impute")));
        }
        x = fill_[j];
      }
      x = scale_[j] == 1.0 ? x - centre : (x - centre) * inv_scale;
      double* o = out + i * stride;
      o[0] = x;
      double power = x;
      for (std::size_t p = 2; p <= opt_.degree; ++p) {
        power *= x;
        o[p - 1] = power;
      }
    }
    c += opt_.degree;
  }
  return m;
}

matrix dense_features(const dataset& d) {
  for (const auto& c : d.features)
    if (c.categorical || c.missing > 0) return {};
  matrix m(d.rows, d.features.size());
  for (std::size_t j = 0; j < d.features.size(); ++j) {
    const auto& v = d.features[j].numbers;
    for (std::size_t i = 0; i < d.rows; ++i) {
      if (std::isnan(v[i])) return {};  // a NaN in a data set built by hand
      m(i, j) = v[i];
    }
  }
  return m;
}

void feature_encoder::fit(const dataset& d, const matrix& full, std::span<const std::size_t> rows,
                          const encoder_options& options) {
  if (full.rows != d.rows || full.cols != d.features.size() || options.degree != 1 ||
      options.impute == impute_kind::median) {
    fit(d, rows, options);
    return;
  }
  opt_ = options;
  const std::size_t f = full.cols;
  if (rows.empty()) throw_usage("feature_encoder: no training rows");
  fill_.assign(f, 0);
  centre_.assign(f, 0);
  scale_.assign(f, 1);
  fill_code_.assign(f, -1);
  level_.assign(f, {});
  names_.clear();
  for (const auto& c : d.features) names_.push_back(c.name);
  std::vector<double> sum(f, 0.0), ss(f, 0.0);
  for (auto r : rows) {
    const double* x = full.data.data() + r * f;
    for (std::size_t j = 0; j < f; ++j) sum[j] += x[j];
  }
  const double n = static_cast<double>(rows.size());
  for (std::size_t j = 0; j < f; ++j) fill_[j] = sum[j] / n;
  if (!opt_.standardize) return;
  for (auto r : rows) {
    const double* x = full.data.data() + r * f;
    for (std::size_t j = 0; j < f; ++j) ss[j] += (x[j] - fill_[j]) * (x[j] - fill_[j]);
  }
  for (std::size_t j = 0; j < f; ++j) {
    const double sd = std::sqrt(ss[j] / n);
    centre_[j] = fill_[j];
    scale_[j] = sd > 0 ? sd : 1.0;
  }
}

matrix feature_encoder::transform(const matrix& full, std::span<const std::size_t> rows) const {
  const std::size_t f = full.cols;
  matrix m(rows.size(), f);
  std::vector<double> inv(f);
  for (std::size_t j = 0; j < f; ++j) inv[j] = 1.0 / scale_[j];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double* x = full.data.data() + rows[i] * f;
    double* o = m.data.data() + i * f;
    if (opt_.standardize) {
      for (std::size_t j = 0; j < f; ++j) o[j] = scale_[j] == 1.0 ? x[j] - centre_[j] : (x[j] - centre_[j]) * inv[j];
    } else {
      std::copy(x, x + f, o);
    }
  }
  return m;
}

}  // namespace assay::validation
