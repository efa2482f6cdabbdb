// assay: a small SVG line-chart writer for curves (ROC, PR, threshold sweeps, calibration). No
// dependencies; every text is XML-escaped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace assay::plot {

/// One polyline of a chart. Points with a non-finite coordinate split the line.
struct series {
  std::string name;              ///< legend text ("" = not in the legend)
  std::vector<double> x, y;
  bool dashed = false;           ///< for reference lines (chance diagonal, prevalence baseline)
  bool markers = false;          ///< draw a dot at every point
  std::string colour;            ///< "" = the next colour of the palette
};

/// A point to mark and label (e.g. the best threshold).
struct marker {
  double x = 0, y = 0;
  std::string label;
};

struct chart {
  std::string title, x_label, y_label;
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
  bool square = true;            ///< equal axis lengths (ROC, PR)
  std::vector<series> lines;
  std::vector<marker> markers;
};

/// Replaces & < > " ' by their XML entities.
std::string escape_xml(std::string_view text);

/// The chart as a standalone SVG document (about 560 x 480 px, axes with ticks at tenths of the range,
/// legend in the lower right).
std::string render_svg(const chart& c);

}  // namespace assay::plot
