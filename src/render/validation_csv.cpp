// The CSV of a cross-validation's out-of-fold predictions (`assay cv --oof`).
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "assay/validation/engine.hpp"

namespace assay::validation {

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string oof_csv(const dataset& d, const cv_result& r) {
  std::string out;
  auto put = std::back_inserter(out);
  const bool repeated = r.repeats > 1;
  fmt::format_to(put, "row{},fold,{},pred", repeated ? ",repeat" : "", csv_field(d.target_name));
  const bool proba = r.classification && !r.oof.empty() && !r.oof.front().proba.empty();
  if (proba)
    for (const auto& c : r.classes) fmt::format_to(put, ",{}", csv_field(c));
  out.push_back('\n');
  // Fold numbers restart at 0 in each repeat.
  std::vector<std::size_t> first_split_of_repeat(r.repeats, SIZE_MAX);
  for (const auto& f : r.folds) first_split_of_repeat[f.repeat] = std::min(first_split_of_repeat[f.repeat], f.split);
  for (const auto& o : r.oof) {
    fmt::format_to(put, "{}", o.row);
    if (repeated) fmt::format_to(put, ",{}", o.repeat);
    fmt::format_to(put, ",{}", o.split - first_split_of_repeat[o.repeat]);
    if (r.classification) {
      fmt::format_to(put, ",{},{}", csv_field(d.classes[static_cast<std::size_t>(d.y_class[o.row])]),
                     csv_field(d.classes[static_cast<std::size_t>(o.cls)]));
      if (proba)
        for (double p : o.proba) fmt::format_to(put, ",{}", p);
    } else {
      fmt::format_to(put, ",{},{}", d.y_value[o.row], o.value);
    }
    out.push_back('\n');
  }
  return out;
}

}  // namespace assay::validation
