#include "assay/metrics/labels.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <unordered_map>

#include "assay/error.hpp"
#include "assay/io/table.hpp"

namespace assay {

bool label_number(std::string_view label, double& x) {
  if (label == "True" || label == "TRUE" || label == "true") {
    x = 1;
    return true;
  }
  if (label == "False" || label == "FALSE" || label == "false") {
    x = 0;
    return true;
  }
  return io::parse_double(label, x) && std::isfinite(x);
}

bool labels_are_numeric(const std::vector<std::string>& labels) {
  double x;
  return std::all_of(labels.begin(), labels.end(), [&](const std::string& l) { return label_number(l, x); });
}

std::vector<std::string> sort_labels(std::vector<std::string> labels) {
  std::sort(labels.begin(), labels.end());
  labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
  if (labels_are_numeric(labels)) {
    std::stable_sort(labels.begin(), labels.end(), [](const std::string& a, const std::string& b) {
      double x, y;
      label_number(a, x);
      label_number(b, y);
      return x < y;
    });
  }
  return labels;
}

std::string canonical_number(double x) { return fmt::format("{}", x == 0 ? 0.0 : x); }

void unify_numeric_labels(const std::vector<std::vector<std::string>*>& sets, const std::vector<std::string*>& extra) {
  for (const auto* set : sets) {
    if (!labels_are_numeric(*set)) return;
  }
  double x;
  for (auto* set : sets) {
    for (auto& l : *set) {
      label_number(l, x);
      l = canonical_number(x);
    }
  }
  for (auto* l : extra) {
    if (label_number(*l, x)) *l = canonical_number(x);
  }
}

std::vector<std::int32_t> recode(const std::vector<std::int32_t>& codes, const std::vector<std::string>& levels,
                                 const std::vector<std::string>& sorted) {
  std::vector<std::int32_t> map(levels.size(), -1);
  for (std::size_t i = 0; i < levels.size(); ++i) {
    auto it = std::find(sorted.begin(), sorted.end(), levels[i]);
    if (it != sorted.end()) map[i] = static_cast<std::int32_t>(it - sorted.begin());
  }
  std::vector<std::int32_t> out(codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) out[i] = map[static_cast<std::size_t>(codes[i])];
  return out;
}

std::optional<std::string> default_positive(const std::vector<std::string>& labels) {
  if (labels.empty() || labels.size() > 2 || !labels_are_numeric(labels)) return std::nullopt;
  std::vector<double> x(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) label_number(labels[i], x[i]);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (x[i] == 1) {
      bool other_ok = labels.size() == 1 || x[1 - i] == 0 || x[1 - i] == -1;
      if (other_ok) return labels[i];
    }
  }
  if (labels.size() == 2) return labels[1];  // the larger number
  if (x[0] == 0 || x[0] == -1) return std::string("1");  // only negatives present: the positive is 1
  return std::nullopt;
}

std::string join_labels(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < 10; ++i) s += fmt::format("{}\"{}\"", i ? ", " : "", v[i]);
  if (v.size() > 10) s += fmt::format(", ... ({} in all)", v.size());
  return s;
}

std::string require_positive(const std::vector<std::string>& labels, const std::optional<std::string>& pos_label,
                             std::string_view source) {
  if (pos_label) return *pos_label;
  auto pos = default_positive(labels);
  if (!pos) {
    throw_usage(fmt::format("{}: cannot tell which class is positive among {}: name it with {}", source,
                            join_labels(labels), param("pos_label")));
  }
  return *pos;
}

}  // namespace assay
