// assay curve with --proba: the multiclass additions to the per-class (one-vs-rest) curves that
// src/render/curve_documents.cpp renders. Private to the library.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "assay/curves/curve_report.hpp"

namespace assay::curves::detail {

/// The rows of a multiclass file as curve_report.cpp loads them.
struct multiclass_rows {
  std::span<const std::int32_t> y;  ///< class index per row
  std::span<const double> proba;    ///< n x K, row-major, class order of `classes`
  std::span<const double> weight;   ///< empty = unweighted
  const std::vector<std::string>* classes = nullptr;
};

/// `assay curve calibration --proba`: adds the top-label (confidence) reliability curve and its
/// ECE (Guo et al. 2017) to the document whose per-class one-vs-rest curves are already in `j`,
/// `csv` and `chart`: JSON key "top_label", CSV rows with model "top-label", one more chart line.
void add_top_label_calibration(const multiclass_rows& rows, const curve_options& q, nlohmann::json& j, std::string& csv,
                               plot::chart& chart);

}  // namespace assay::curves::detail
