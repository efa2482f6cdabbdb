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
    std::vector<double> v;
    v.reserve(rows.size());
    for (auto r : rows)
      if (!std::isnan(col.numbers[r])) v.push_back(col.numbers[r]);
    if (!v.empty()) {
      double m = 0;
      for (double x : v) m += x;
      m /= static_cast<double>(v.size());
      if (opt_.impute == impute_kind::median) {
        auto mid = v.begin() + static_cast<long>(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        double med = *mid;
        if (v.size() % 2 == 0) med = (med + *std::max_element(v.begin(), mid)) / 2;
        fill_[j] = med;
      } else {
        fill_[j] = m;
      }
      if (opt_.standardize) {
        // Mean and population standard deviation of the training values as imputed.
        const double n_missing = static_cast<double>(rows.size() - v.size());
        double mean = (m * static_cast<double>(v.size()) + fill_[j] * n_missing) / static_cast<double>(rows.size());
        double ss = 0;
        for (double x : v) ss += (x - mean) * (x - mean);
        ss += n_missing * (fill_[j] - mean) * (fill_[j] - mean);
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
  matrix m(rows.size(), names_.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::size_t r = rows[i];
    std::size_t c = 0;
    for (std::size_t j = 0; j < d.features.size(); ++j) {
      const auto& col = d.features[j];
      if (col.categorical) {
        std::int32_t code = col.codes[r];
        if (code < 0) {
          if (opt_.impute == impute_kind::refuse) {
            throw_data(fmt::format("{}: row {}: column '{}' is missing (use --impute mean or median)", d.source, r + 1,
                                   col.name));
          }
          code = fill_code_[j];
        }
        for (auto l : level_[j]) m(i, c++) = code == l ? 1.0 : 0.0;
        continue;
      }
      double x = col.numbers[r];
      if (std::isnan(x)) {
        if (opt_.impute == impute_kind::refuse) {
          throw_data(fmt::format("{}: row {}: column '{}' is missing or NaN (use --impute mean or median)", d.source,
                                 r + 1, col.name));
        }
        x = fill_[j];
      }
      x = (x - centre_[j]) / scale_[j];
      double power = x;
      m(i, c++) = x;
      for (std::size_t p = 2; p <= opt_.degree; ++p) {
        power *= x;
        m(i, c++) = power;
      }
    }
  }
  return m;
}

}  // namespace assay::validation
