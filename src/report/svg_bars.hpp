// assay: a minimal SVG grouped bar chart for the HTML report (per-class precision, recall, F1).
// Private to src/report; the general plot writer lives elsewhere.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "assay/value.hpp"

namespace assay::html::detail {

/// One series of bars: a name for the legend and one value per category (undefined: no bar, the
/// word "undefined" instead).
struct bar_series {
  std::string name;
  std::vector<value> values;
};

/// Horizontal grouped bars on a fixed 0..1 axis, one group per category, one bar per series.
/// Colours come from the page stylesheet (classes bar-0, bar-1, ...), so light, dark and print
/// modes apply. Text is escaped. Values outside [0, 1] are clipped for drawing only.
std::string grouped_bar_chart(std::string_view title, std::string_view x_label, std::string_view y_label,
                              const std::vector<std::string>& categories, const std::vector<bar_series>& series);

}  // namespace assay::html::detail
