#include "assay/sklearn/label_codes.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "assay/error.hpp"

namespace assay::sklearn {
namespace {

constexpr double max_table_span = 1 << 20;

void check_not_nan(std::span<const double> x, const char* caller, const char* name) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i])) throw_usage(fmt::format("{}: {}[{}] is nan; a class label must be a number", caller, name, i));
  }
}

}  // namespace

numeric_label_codes encode_numeric_labels(std::span<const double> first, std::span<const double> second,
                                          const char* caller) {
  check_not_nan(first, caller, "y_true");
  check_not_nan(second, caller, "y_pred");
  numeric_label_codes out;
  out.first.resize(first.size());
  out.second.resize(second.size());
  if (first.empty() && second.empty()) return out;

  double lo = INFINITY, hi = -INFINITY;
  bool integral = true;
  for (auto* x : {&first, &second}) {
    for (double v : *x) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      integral = integral && v == std::trunc(v);
    }
  }
  if (integral && std::isfinite(lo) && std::isfinite(hi) && hi - lo < max_table_span) {
    // Small integers: mark what occurs, number the marks in order, look every label up.
    const auto width = static_cast<std::size_t>(hi - lo) + 1;
    std::vector<std::int32_t> index(width, -1);
    for (auto* x : {&first, &second}) {
      for (double v : *x) index[static_cast<std::size_t>(v - lo)] = 0;
    }
    std::int32_t next = 0;
    for (std::size_t j = 0; j < width; ++j) {
      if (index[j] == 0) {
        index[j] = next++;
        out.classes.push_back(lo + static_cast<double>(j));
      }
    }
    for (std::size_t i = 0; i < first.size(); ++i) out.first[i] = index[static_cast<std::size_t>(first[i] - lo)];
    for (std::size_t i = 0; i < second.size(); ++i) out.second[i] = index[static_cast<std::size_t>(second[i] - lo)];
    return out;
  }
  out.classes.reserve(first.size() + second.size());
  out.classes.insert(out.classes.end(), first.begin(), first.end());
  out.classes.insert(out.classes.end(), second.begin(), second.end());
  std::sort(out.classes.begin(), out.classes.end());
  out.classes.erase(std::unique(out.classes.begin(), out.classes.end()), out.classes.end());
  for (double& c : out.classes) c += 0.0;  // -0.0 and 0.0 are one class, written 0
  auto code = [&](double v) {
    return static_cast<std::int32_t>(std::lower_bound(out.classes.begin(), out.classes.end(), v) - out.classes.begin());
  };
  for (std::size_t i = 0; i < first.size(); ++i) out.first[i] = code(first[i]);
  for (std::size_t i = 0; i < second.size(); ++i) out.second[i] = code(second[i]);
  return out;
}

}  // namespace assay::sklearn
