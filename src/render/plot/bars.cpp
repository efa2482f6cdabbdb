// The grouped bar chart of the SVG writer; see include/assay/plot/svg.hpp.
#include <fmt/format.h>

#include <algorithm>

#include "assay/plot/svg.hpp"

namespace assay::plot {

namespace {

// Labels longer than this are cut (with an ellipsis) for drawing; the full label is in the tables.
constexpr std::size_t max_label_chars = 24;

}  // namespace

std::string render_grouped_bars(std::string_view title, std::string_view x_label, std::string_view y_label,
                              const std::vector<std::string>& categories, const std::vector<bar_series>& series) {
  const double bar_h = 12, group_gap = 10, plot_w = 420;
  std::size_t longest = 4;
  for (const auto& c : categories) longest = std::max(longest, std::min(c.size(), max_label_chars));
  const double left = 30 + 7.0 * static_cast<double>(longest), top = 44, right = 70;
  const double group_h = bar_h * static_cast<double>(series.size()) + group_gap;
  const double plot_h = std::max(group_h * static_cast<double>(categories.size()), 20.0);
  const double width = left + plot_w + right, height = top + plot_h + 76;

  std::string s = fmt::format(
      "<svg class=\"plot\" role=\"img\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\">"
      "<title>{2}</title>",
      width, height, escape_xml(title));
  s += fmt::format("<text class=\"plot-title\" x=\"{}\" y=\"22\" text-anchor=\"middle\">{}</text>", left + plot_w / 2,
                   escape_xml(title));
  // Grid and x axis ticks.
  for (int i = 0; i <= 4; ++i) {
    const double x = left + plot_w * i / 4.0;
    s += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", x, top, top + plot_h);
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", x, top + plot_h + 16,
                     fmt::format("{:g}", i / 4.0));
  }
  s += fmt::format("<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", left, top, top + plot_h);
  s += fmt::format("<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>", left, top + plot_h,
                   left + plot_w);
  s += fmt::format("<text class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", left + plot_w / 2,
                   top + plot_h + 36, escape_xml(x_label));
  s += fmt::format(
      "<text class=\"axis-label\" transform=\"translate(14 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
      top + plot_h / 2, escape_xml(y_label));
  // Bars.
  for (std::size_t c = 0; c < categories.size(); ++c) {
    const double y0 = top + group_h * static_cast<double>(c) + group_gap / 2;
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", left - 6,
                     y0 + bar_h * static_cast<double>(series.size()) / 2 + 4, escape_xml(clip_label(categories[c], max_label_chars)));
    for (std::size_t k = 0; k < series.size(); ++k) {
      const double y = y0 + bar_h * static_cast<double>(k);
      const value& v = c < series[k].values.size() ? series[k].values[c] : value::undefined("missing");
      if (!v.defined()) {
        s += fmt::format("<text class=\"undef-label\" x=\"{}\" y=\"{}\">undefined</text>", left + 4, y + bar_h - 3);
        continue;
      }
      const double w = plot_w * std::clamp(v.v, 0.0, 1.0);
      s += fmt::format(
          "<rect class=\"bar-{}\" x=\"{}\" y=\"{}\" width=\"{:.2f}\" height=\"{}\"><title>{}, {}: "
          "{:.3f}</title></rect>",
          k, left, y + 1, w, bar_h - 2, escape_xml(categories[c]), escape_xml(series[k].name), v.v);
      s += fmt::format("<text class=\"value-label\" x=\"{:.2f}\" y=\"{}\">{:.3f}</text>", left + w + 4, y + bar_h - 2,
                       v.v);
    }
  }
  // Legend.
  double lx = left;
  const double ly = top + plot_h + 52;
  for (std::size_t k = 0; k < series.size(); ++k) {
    s += fmt::format("<rect class=\"bar-{}\" x=\"{}\" y=\"{}\" width=\"12\" height=\"12\"/>", k, lx, ly);
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\">{}</text>", lx + 16, ly + 10, escape_xml(series[k].name));
    lx += 30 + 7.0 * static_cast<double>(series[k].name.size());
  }
  s += "</svg>";
  return s;
}

}  // namespace assay::plot
