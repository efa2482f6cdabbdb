// Figures and HTML page of assay detection; see include/assay/report/detection_html.hpp.
#include "assay/report/detection_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/plot/svg.hpp"

namespace assay::detection_report {

namespace {

constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string ap_text(const value& v) { return v.defined() ? fmt::format("{:.3f}", v.v) : std::string("undefined"); }

// At most max_points points: evenly spaced ranks, first and last kept.
void thin(const pr_curve& c, std::size_t max_points, std::vector<double>& x, std::vector<double>& y) {
  x.clear();
  y.clear();
  const std::size_t n = std::min(c.recall.size(), c.precision.size());
  if (n == 0) return;
  const std::size_t keep = std::max<std::size_t>(2, std::min(n, max_points));
  std::size_t last = n;
  for (std::size_t k = 0; k < keep; ++k) {
    const std::size_t i = keep == 1 ? 0 : (n - 1) * k / (keep - 1);
    if (i == last) continue;
    x.push_back(c.recall[i]);
    y.push_back(c.precision[i]);
    last = i;
  }
}

std::string small_multiples(const std::vector<pr_curve>& curves, const std::string& title, std::size_t max_panels,
                            std::size_t max_points) {
  const std::size_t shown = std::min(curves.size(), max_panels);
  const std::size_t cols = std::min<std::size_t>(shown == 0 ? 1 : shown, 6);
  const std::size_t rows = (shown + cols - 1) / cols;
  const double pw = 150, ph = 110, gap_x = 30, gap_y = 44, left = 40, top = 50;
  const double width = left + cols * (pw + gap_x), height = top + rows * (ph + gap_y) + 30;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\" role=\"img\">\n"
      "<title>{2}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{3:.1f}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" fill=\"black\">{2}</text>\n"
      "<text x=\"{3:.1f}\" y=\"38\" text-anchor=\"middle\" fill=\"#555\">x: recall, y: precision (0 to 1)</text>\n",
      width, height, plot::escape_xml(title), width / 2);
  std::vector<double> x, y;
  for (std::size_t i = 0; i < shown; ++i) {
    const double ox = left + static_cast<double>(i % cols) * (pw + gap_x);
    const double oy = top + static_cast<double>(i / cols) * (ph + gap_y) + 16;
    const auto& c = curves[i];
    s += fmt::format("<g><text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"black\">{} (AP {})</text>\n", ox, oy - 4,
                     plot::escape_xml(c.name.size() > 22 ? c.name.substr(0, 21) + "\u2026" : c.name), ap_text(c.ap));
    s += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.0f}\" height=\"{:.0f}\" fill=\"none\" stroke=\"#999\"/>\n",
                     ox, oy, pw, ph);
    for (int g = 1; g < 4; ++g)
      s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#e5e5e5\"/>\n", ox,
                       oy + ph * g / 4, ox + pw);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"black\">1</text>"
                     "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"black\">0</text>"
                     "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"black\">1</text>\n",
                     ox - 3, oy + 9, ox - 3, oy + ph, ox + pw, oy + ph + 12);
    thin(c, max_points, x, y);
    if (!x.empty()) {
      std::string pts;
      for (std::size_t j = 0; j < x.size(); ++j)
        if (std::isfinite(x[j]) && std::isfinite(y[j]))
          pts += fmt::format("{:.1f},{:.1f} ", ox + std::clamp(x[j], 0.0, 1.0) * pw, oy + ph - std::clamp(y[j], 0.0, 1.0) * ph);
      s += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>\n", pts,
                       palette[i % 8]);
    } else {
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#777\">no curve</text>\n",
                       ox + pw / 2, oy + ph / 2);
    }
    s += "</g>\n";
  }
  if (shown < curves.size())
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"black\">{} more classes not drawn (see the table)</text>\n",
                     left, height - 10, curves.size() - shown);
  return s + "</svg>\n";
}

}  // namespace

std::string pr_curves_svg(const std::vector<pr_curve>& curves, const std::string& title, std::size_t overlay_max,
                          std::size_t max_panels, std::size_t max_points) {
  if (curves.size() > overlay_max) return small_multiples(curves, title, max_panels, max_points);
  plot::chart c;
  c.title = title;
  c.x_label = "Recall";
  c.y_label = "Precision";
  for (const auto& cv : curves) {
    plot::series s;
    s.name = fmt::format("{} (AP {})", cv.name, ap_text(cv.ap));
    thin(cv, max_points, s.x, s.y);
    c.lines.push_back(std::move(s));
  }
  return plot::render_svg(c);
}

std::string render_page(const page& p) {
  html::document doc(p.title, p.subtitle);
  doc.add_section("setup", "Data and options", html::setup_table(p.setup) + html::command_block(p.command));
  doc.add_section("metrics", "Headline numbers", html::headline_table(p.headlines));
  std::string t = fmt::format("<div class=\"scroll\"><table><caption>{}</caption><thead><tr><th scope=\"col\">class</th>",
                              html::escape(p.table_caption));
  for (const auto& c : p.columns) t += fmt::format("<th scope=\"col\">{}</th>", html::escape(c));
  t += "</tr></thead><tbody>";
  for (const auto& r : p.classes) {
    t += fmt::format("<tr><th scope=\"row\">{}</th>", html::escape(r.name));
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const auto& v = r.cells[i];
      if (!v.defined()) t += fmt::format("<td title=\"{}\">&ndash;</td>", html::escape(v.reason));
      else if (i < p.count_columns.size() && p.count_columns[i]) t += fmt::format("<td>{:.0f}</td>", v.v);
      else t += fmt::format("<td>{:.3f}</td>", v.v);
    }
    t += "</tr>";
  }
  t += "</tbody></table></div>";
  doc.add_section("per-class", "Per class", t);
  doc.add_section("pr-curves", "Precision-recall curves", html::figure_block(p.pr_figure));
  if (!p.notes.empty()) {
    std::string n;
    for (const auto& x : p.notes) n += html::document::paragraph(x);
    doc.add_section("notes", "Notes", n);
  }
  return doc.render();
}

}  // namespace assay::detection_report
