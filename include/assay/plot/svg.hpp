// assay: a small SVG chart writer for curves (ROC, PR, threshold sweeps, calibration), learning
// curves with error bars, scatter plots and histograms. No dependencies; every text is XML-escaped.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "assay/value.hpp"

namespace assay::plot {

/// One polyline of a chart. Points with a non-finite coordinate split the line.
struct series {
  std::string name;              ///< legend text ("" = not in the legend)
  std::vector<double> x, y;
  bool dashed = false;           ///< for reference lines (chance diagonal, prevalence baseline)
  bool markers = false;          ///< draw a dot at every point
  std::string colour;            ///< "" = the next colour of the palette
  bool line = true;              ///< false: points only (a scatter plot; markers are drawn)
  /// Error bars: y[i] +- y_err[i], a vertical bar with caps at each point (empty: none; a
  /// non-finite or negative entry: no bar at that point).
  std::vector<double> y_err;
  bool band = false;             ///< with y_err: also shade the band between y - y_err and y + y_err
  /// An asymmetric shaded band (e.g. Wilson intervals): from y_lo[i] to y_hi[i] at x[i], no bars.
  /// Both empty: none. A point where either is missing or non-finite, or y_lo > y_hi, breaks the
  /// band (one polygon per run of points). Drawn instead of the y_err band when both are given.
  std::vector<double> y_lo, y_hi;
  std::vector<std::string> labels;  ///< optional text next to each point
  /// > 0: every point is drawn as a bar from y_min up to y, this wide in x units (histograms).
  double bar_width = 0;
};

/// A point to mark and label (e.g. the best threshold).
struct marker {
  double x = 0, y = 0;
  std::string label;
};

struct chart {
  std::string id = "plot";       ///< prefix of the ids inside the SVG: unique per page when several are inlined
  std::string title, x_label, y_label;
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
  bool square = true;            ///< equal axis lengths (ROC, PR)
  /// Named x ticks (e.g. {0, "A"}, {1, "B"}) instead of the numeric ones; empty = numeric ticks.
  std::vector<std::pair<double, std::string>> x_ticks;
  std::vector<series> lines;
  std::vector<marker> markers;
};

/// Replaces & < > " ' by their XML entities.
std::string escape_xml(std::string_view text);

/// `text` cut for drawing to at most about `max_bytes` bytes, with an ellipsis when cut, never inside a
/// UTF-8 sequence.
std::string clip_label(std::string_view text, std::size_t max_bytes);

/// [lo, hi] of the finite values of all spans, widened by `pad` times the span on each side (a
/// zero span becomes +-0.5 around the value; no finite value gives [0, 1]).
std::pair<double, double> padded_range(const std::vector<std::vector<double>>& values, double pad = 0.05);

/// A scatter plot of paired values (x[i], y[i]) with the diagonal y = x dashed: both axes share one
/// range covering every point, so a point above the diagonal has y > x. `labels` (optional, one per
/// point) are written next to the points. There is no legend (it could hide points): say in the
/// title or caption that the dashed line is y = x.
chart scatter_with_diagonal(std::string title, std::string x_label, std::string y_label, std::vector<double> x,
                            std::vector<double> y, std::vector<std::string> labels = {});

/// One series of a grouped bar chart: a name for the legend and one value per category (undefined:
/// no bar, the word "undefined" instead).
struct bar_series {
  std::string name;
  std::vector<value> values;
};

/// Horizontal grouped bars on a fixed 0..1 axis, one group per category, one bar per series, as an
/// inline SVG for an HTML page: colours come from the page stylesheet (classes bar-0, bar-1, ...,
/// grid, axis, tick), so light, dark and print modes apply. Text is escaped; long category names are
/// cut for drawing. Values outside [0, 1] are clipped for drawing only.
std::string render_grouped_bars(std::string_view title, std::string_view x_label, std::string_view y_label,
                                const std::vector<std::string>& categories, const std::vector<bar_series>& series);

/// One small panel of a grid of curves on [0, 1] x [0, 1] (e.g. one precision-recall curve per class).
struct panel {
  std::string title;            ///< above the panel (cut for drawing when long)
  std::vector<double> x, y;     ///< the polyline; empty: "no curve"
};

/// A grid of small panels sharing one title, one axis caption and the 0..1 scales; `more` > 0 adds
/// the line "`more` more <what> not drawn (see the table)".
struct small_multiples {
  std::string title, axes;      ///< e.g. "x: recall, y: precision (0 to 1)"
  std::vector<panel> panels;
  std::size_t columns = 6;      ///< at most this many panels per row
  std::size_t more = 0;
  std::string more_what = "classes";
};
std::string render_small_multiples(const small_multiples& m);

/// The chart as a standalone SVG document (about 560 x 480 px, axes labelled at round numbers: steps of
/// 1, 2, 2.5 or 5 times a power of ten, about five per axis, grid lines at half steps;
/// legend in the lower right).
std::string render_svg(const chart& c);

}  // namespace assay::plot
