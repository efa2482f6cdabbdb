// The SVG chart writer; see include/assay/plot/svg.hpp.
#include "assay/plot/svg.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <fmt/format.h>

namespace assay::plot {

std::string escape_xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string clip_label(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t n = max_bytes > 0 ? max_bytes - 1 : 0;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;  // do not cut a UTF-8 sequence
  return std::string(text.substr(0, n)) + "\u2026";
}

namespace {

constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

// An id safe inside an attribute and url(#...): letters, digits, '-' and '_' only.
std::string clip_id(const std::string& id) {
  std::string out = id.empty() ? std::string("plot") : id;
  for (char& ch : out)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_') ch = '-';
  return out + "-clip";
}

// A round step for about `target` intervals over `span`: 1, 2, 2.5 or 5 times a power of ten
// (Heckbert, "Nice numbers for graph labels", Graphics Gems, 1990).
double nice_step(double span, int target) {
  const double raw = span / target;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / power;
  const double nice = m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10;
  return nice * power;
}

// The tick positions of [lo, hi]: every multiple of `step` inside the range (with a little slack
// for rounding, so 0.1 * 10 still reaches 1).
std::vector<double> ticks_of(double lo, double hi, double step) {
  std::vector<double> out;
  const double slack = step * 1e-9;
  for (double k = std::ceil((lo - slack) / step); k * step <= hi + slack; k += 1) {
    const double v = k * step;
    out.push_back(std::fabs(v) < slack ? 0.0 : v);
    // A step below the values' own precision (a one-value range at 1e26 has a step of 0.2, and
    // k + 1 == k there) would never end: one tick is all such a range gets. Never more than a
    // few hundred either (a range of NaN or infinity is not drawn this way).
    if (k + 1 == k || out.size() > 256) break;
  }
  return out;
}

// A label with just the decimals the step needs (0.25 -> 2 places, 20 -> none); very large or very
// small values in scientific notation.
std::string tick_label(double v, double step) {
  if (v != 0 && (std::fabs(v) >= 1e6 || std::fabs(v) < 1e-4)) return fmt::format("{:.3g}", v);
  int places = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  if (std::fabs(std::round(step * std::pow(10.0, places)) - step * std::pow(10.0, places)) > 1e-6) ++places;  // 2.5e-k
  return fmt::format("{:.{}f}", v, places);
}

}  // namespace

namespace {

// The drawing area of a chart: its margins, its size and the map from data to pixels.
struct frame {
  double left = 70, top = 40, plot_h = 380, plot_w;
  double width, height;
  double x_min, y_min, x_span, y_span;

  explicit frame(const chart& c)
      : plot_w(c.square ? 380 : 520),
        width(left + plot_w + 30),
        height(top + plot_h + 60),
        x_min(c.x_min),
        y_min(c.y_min),
        x_span(c.x_max > c.x_min ? c.x_max - c.x_min : 1),
        y_span(c.y_max > c.y_min ? c.y_max - c.y_min : 1) {}
  [[nodiscard]] double px(double x) const { return left + (x - x_min) / x_span * plot_w; }
  [[nodiscard]] double py(double y) const { return top + plot_h - (y - y_min) / y_span * plot_h; }
};

// The title, the grid, the tick labels, the plot's border and the axis labels.
void draw_axes(std::string& s, const chart& c, const frame& f) {
  const double left = f.left, top = f.top, plot_w = f.plot_w, plot_h = f.plot_h;
  s += fmt::format("<text x=\"{:.1f}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n", left + plot_w / 2,
                   escape_xml(c.title));
  // Labelled ticks at round numbers (about five per axis), light grid lines at half steps.
  const double x_step = nice_step(f.x_span, 5), y_step = nice_step(f.y_span, 5);
  for (double fx : ticks_of(c.x_min, c.x_max, x_step / 2))
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#e5e5e5\"/>\n", f.px(fx), top,
                     top + plot_h);
  for (double fy : ticks_of(c.y_min, c.y_max, y_step / 2))
    s += fmt::format("<line x1=\"{1:.1f}\" y1=\"{0:.1f}\" x2=\"{2:.1f}\" y2=\"{0:.1f}\" stroke=\"#e5e5e5\"/>\n", f.py(fy), left,
                     left + plot_w);
  if (c.x_ticks.empty()) {
    for (double fx : ticks_of(c.x_min, c.x_max, x_step))
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", f.px(fx), top + plot_h + 16,
                       tick_label(fx, x_step));
  }
  for (const auto& [fx, name] : c.x_ticks)
    if (std::isfinite(fx))
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", f.px(fx), top + plot_h + 16,
                       escape_xml(name));
  for (double fy : ticks_of(c.y_min, c.y_max, y_step))
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6, f.py(fy) + 4,
                     tick_label(fy, y_step));
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>\n", left, top,
                   plot_w, plot_h);
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"13\">{}</text>\n", left + plot_w / 2,
                   top + plot_h + 38, escape_xml(c.x_label));
  s += fmt::format("<text transform=\"translate({:.1f},{:.1f}) rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">{}</text>\n",
                   left - 48, top + plot_h / 2, escape_xml(c.y_label));
}

bool finite_point(const series& l, std::size_t i) { return std::isfinite(l.x[i]) && std::isfinite(l.y[i]); }

// The symmetric error of point i, or -1 when it has none.
double error_of(const series& l, std::size_t i) {
  return i < l.y_err.size() && std::isfinite(l.y_err[i]) && l.y_err[i] >= 0 ? l.y_err[i] : -1.0;
}

// The band of a line (asymmetric y_lo..y_hi, else y +- y_err): upper edge left to right, lower edge
// back; one polygon per run of points that have both ends.
void draw_band(std::string& s, const series& l, const frame& f, const std::string& colour) {
  const std::size_t n = std::min(l.x.size(), l.y.size());
  const bool asymmetric = !l.y_lo.empty() && !l.y_hi.empty();
  if (!asymmetric && !(l.band && !l.y_err.empty())) return;
  auto ends = [&](std::size_t i) -> std::pair<double, double> {
    constexpr double none = std::numeric_limits<double>::quiet_NaN();
    if (!finite_point(l, i)) return {none, none};
    if (!asymmetric) {
      if (error_of(l, i) < 0) return {none, none};
      return {l.y[i] - error_of(l, i), l.y[i] + error_of(l, i)};
    }
    if (i >= l.y_lo.size() || i >= l.y_hi.size() || !(l.y_lo[i] <= l.y_hi[i])) return {none, none};
    return {l.y_lo[i], l.y_hi[i]};
  };
  std::string up, down;
  auto close = [&] {
    if (!up.empty())
      s += fmt::format("<polygon class=\"band\" fill=\"{}\" fill-opacity=\"0.15\" stroke=\"none\" points=\"{}{}\"/>\n",
                       colour, up, down);
    up.clear();
    down.clear();
  };
  std::vector<std::string> lower;
  for (std::size_t i = 0; i < n; ++i) {
    const auto [lo, hi] = ends(i);
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
      for (auto it = lower.rbegin(); it != lower.rend(); ++it) down += *it;
      lower.clear();
      close();
      continue;
    }
    up += fmt::format("{:.2f},{:.2f} ", f.px(l.x[i]), f.py(hi));
    lower.push_back(fmt::format(" {:.2f},{:.2f}", f.px(l.x[i]), f.py(lo)));
  }
  for (auto it = lower.rbegin(); it != lower.rend(); ++it) down += *it;
  close();
}

// The points of a line: polylines through its runs of finite points, bars, error bars, dots and
// point labels.
void draw_points(std::string& s, const chart& c, const series& l, const frame& f, const std::string& colour) {
  std::string pts;
  auto flush = [&] {
    if (!pts.empty()) {
      s += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{} points=\"{}\"/>\n", colour,
                       l.dashed ? 1.2 : 2, l.dashed ? " stroke-dasharray=\"6 4\"" : "", pts);
    }
    pts.clear();
  };
  const double left = f.left, plot_w = f.plot_w;
  const std::size_t n = std::min(l.x.size(), l.y.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!finite_point(l, i)) {
      flush();
      continue;
    }
    const double x = f.px(l.x[i]), y = f.py(l.y[i]);
    if (l.bar_width > 0) {
      const double x0 = f.px(l.x[i] - l.bar_width / 2), x1 = f.px(l.x[i] + l.bar_width / 2), base = f.py(c.y_min);
      s += fmt::format("<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"{}\" fill-opacity=\"0.75\" "
                       "stroke=\"{}\"/>\n",
                       x0, std::min(y, base), std::max(x1 - x0, 0.5), std::abs(base - y), colour, colour);
      continue;
    }
    if (l.line) pts += fmt::format("{}{:.2f},{:.2f}", pts.empty() ? "" : " ", x, y);
    if (const double e = error_of(l, i); e >= 0) {
      const double y0 = f.py(l.y[i] - e), y1 = f.py(l.y[i] + e);
      s += fmt::format("<path d=\"M{0:.2f} {1:.2f}V{2:.2f}M{3:.2f} {1:.2f}H{4:.2f}M{3:.2f} {2:.2f}H{4:.2f}\" stroke=\"{5}\" "
                       "stroke-width=\"1.3\" fill=\"none\"/>\n",
                       x, y0, y1, x - 4, x + 4, colour);
    }
    if (l.markers || !l.line)
      s += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"{}\" fill=\"{}\"/>\n", x, y, l.line ? 2.5 : 3.5, colour);
    if (i < l.labels.size() && !l.labels[i].empty())
      s += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"10\"{}>{}</text>\n", x > left + plot_w - 60 ? x - 5 : x + 5,
                       y - 5, x > left + plot_w - 60 ? " text-anchor=\"end\"" : "", escape_xml(l.labels[i]));
  }
  flush();
}

// The lines, clipped to the plot area; returns the colour of each.
std::vector<std::string> draw_lines(std::string& s, const chart& c, const frame& f) {
  const std::string clip = clip_id(c.id);
  s += fmt::format("<clipPath id=\"{0}\"><rect x=\"{1}\" y=\"{2}\" width=\"{3}\" height=\"{4}\"/></clipPath>\n"
                   "<g clip-path=\"url(#{0})\">\n",
                   clip, f.left, f.top, f.plot_w, f.plot_h);
  std::size_t next_colour = 0;
  std::vector<std::string> colours;
  for (const auto& l : c.lines) {
    const std::string colour = !l.colour.empty() ? l.colour : l.dashed ? "#888888" : palette[next_colour++ % 8];
    colours.push_back(colour);
    draw_band(s, l, f, colour);
    draw_points(s, c, l, f, colour);
  }
  s += "</g>\n";
  return colours;
}

// The marked points, each circled and labelled.
void draw_markers(std::string& s, const chart& c, const frame& f) {
  for (const auto& m : c.markers) {
    if (!std::isfinite(m.x) || !std::isfinite(m.y)) continue;
    s += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"4.5\" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\"/>\n",
                     f.px(m.x), f.py(m.y));
    const bool near_top = f.py(m.y) < f.top + 24, near_right = f.px(m.x) > f.left + f.plot_w - 120;
    s += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"11\"{}>{}</text>\n", f.px(m.x) + (near_right ? -8 : 8),
                     f.py(m.y) + (near_top ? 18 : -8), near_right ? " text-anchor=\"end\"" : "", escape_xml(m.label));
  }
}

// The legend, lower right, inside the plot: the named lines.
void draw_legend(std::string& s, const chart& c, const frame& f, const std::vector<std::string>& colours) {
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < c.lines.size(); ++i) if (!c.lines[i].name.empty()) shown.push_back(i);
  if (shown.empty()) return;
  std::size_t longest = 0;
  for (auto i : shown) longest = std::max(longest, c.lines[i].name.size());
  const double w = 40 + 6.6 * static_cast<double>(longest), h = 8 + 18 * static_cast<double>(shown.size());
  const double x0 = f.left + f.plot_w - w - 8, y0 = f.top + f.plot_h - h - 8;
  s += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"white\" fill-opacity=\"0.9\" stroke=\"#bbb\"/>\n",
                   x0, y0, w, h);
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const auto& l = c.lines[shown[k]];
    const double yy = y0 + 16 + 18 * static_cast<double>(k);
    if (l.bar_width > 0)
      s += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"22\" height=\"9\" fill=\"{}\" fill-opacity=\"0.75\"/>\n", x0 + 6,
                       yy - 9, colours[shown[k]]);
    else if (!l.line)
      s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\"/>\n", x0 + 17, yy - 4, colours[shown[k]]);
    else
      s += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"{}/>\n",
                       x0 + 6, yy - 4, x0 + 28, yy - 4, colours[shown[k]], l.dashed ? " stroke-dasharray=\"6 4\"" : "");
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", x0 + 34, yy, escape_xml(l.name));
  }
}

}  // namespace

std::string render_svg(const chart& c) {
  const frame f(c);
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      f.width, f.height);
  draw_axes(s, c, f);
  const std::vector<std::string> colours = draw_lines(s, c, f);
  draw_markers(s, c, f);
  draw_legend(s, c, f, colours);
  s += "</svg>\n";
  return s;
}

std::pair<double, double> padded_range(const std::vector<std::vector<double>>& values, double pad) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& v : values)
    for (double x : v)
      if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  if (!std::isfinite(lo)) return {0, 1};
  if (hi - lo < 1e-12) return {lo - 0.5, hi + 0.5};
  const double p = (hi - lo) * pad;
  return {lo - p, hi + p};
}

std::string render_small_multiples(const small_multiples& m) {
  const std::size_t shown = m.panels.size();
  const std::size_t cols = std::min<std::size_t>(shown == 0 ? 1 : shown, std::max<std::size_t>(m.columns, 1));
  const std::size_t rows = (shown + cols - 1) / cols;
  const double pw = 150, ph = 110, gap_x = 30, gap_y = 44, left = 40, top = 50;
  const double width = left + static_cast<double>(cols) * (pw + gap_x);
  const double height = top + static_cast<double>(rows) * (ph + gap_y) + 30;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\" role=\"img\">\n"
      "<title>{2}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{3:.1f}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" fill=\"black\">{2}</text>\n"
      "<text x=\"{3:.1f}\" y=\"38\" text-anchor=\"middle\" fill=\"#555\">{4}</text>\n",
      width, height, escape_xml(m.title), width / 2, escape_xml(m.axes));
  for (std::size_t i = 0; i < shown; ++i) {
    const double ox = left + static_cast<double>(i % cols) * (pw + gap_x);
    const double oy = top + static_cast<double>(i / cols) * (ph + gap_y) + 16;
    const auto& p = m.panels[i];
    s += fmt::format("<g><text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"black\">{}</text>\n", ox, oy - 4, escape_xml(p.title));
    s += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.0f}\" height=\"{:.0f}\" fill=\"none\" stroke=\"#999\"/>\n",
                     ox, oy, pw, ph);
    for (int g = 1; g < 4; ++g)
      s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#e5e5e5\"/>\n", ox,
                       oy + ph * g / 4, ox + pw);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"black\">1</text>"
                     "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"black\">0</text>"
                     "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"black\">1</text>\n",
                     ox - 3, oy + 9, ox - 3, oy + ph, ox + pw, oy + ph + 12);
    const std::size_t n = std::min(p.x.size(), p.y.size());
    if (n > 0) {
      std::string pts;
      for (std::size_t j = 0; j < n; ++j)
        if (std::isfinite(p.x[j]) && std::isfinite(p.y[j]))
          pts += fmt::format("{:.1f},{:.1f} ", ox + std::clamp(p.x[j], 0.0, 1.0) * pw,
                             oy + ph - std::clamp(p.y[j], 0.0, 1.0) * ph);
      s += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>\n", pts,
                       palette[i % 8]);
    } else {
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#777\">no curve</text>\n",
                       ox + pw / 2, oy + ph / 2);
    }
    s += "</g>\n";
  }
  if (m.more > 0)
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"black\">{} more {} not drawn (see the table)</text>\n", left,
                     height - 10, m.more, escape_xml(m.more_what));
  return s + "</svg>\n";
}

chart scatter_with_diagonal(std::string title, std::string x_label, std::string y_label, std::vector<double> x,
                            std::vector<double> y, std::vector<std::string> labels) {
  chart c;
  c.title = std::move(title);
  c.x_label = std::move(x_label);
  c.y_label = std::move(y_label);
  const auto [lo, hi] = padded_range({x, y});
  c.x_min = c.y_min = lo;
  c.x_max = c.y_max = hi;
  c.square = true;
  series diagonal;
  diagonal.x = diagonal.y = {lo, hi};
  diagonal.dashed = true;
  series points;
  points.x = std::move(x);
  points.y = std::move(y);
  points.line = false;
  points.labels = std::move(labels);
  c.lines = {std::move(diagonal), std::move(points)};
  return c;
}

}  // namespace assay::plot
