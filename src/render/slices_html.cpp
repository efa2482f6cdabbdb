// assay: the HTML page of a sliced report (include/assay/report/slices_html.hpp).
#include "assay/report/slices_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "assay/plot/svg.hpp"
#include "assay/report/html.hpp"

namespace assay {

namespace {

std::string key_name(const std::vector<std::string>& key) {
  std::string s;
  for (std::size_t c = 0; c < key.size(); ++c) {
    if (c) s += " / ";
    s += key[c].empty() ? "(empty)" : key[c];
  }
  return s;
}

std::string cell(const value& v) {
  return v.defined() ? html::escape(html::number(v.v))
                     : fmt::format("<span class=\"undefined\">undefined ({})</span>", html::escape(v.reason));
}

std::vector<html::headline> headlines(const report& r) {
  std::vector<html::headline> out;
  for (const auto& m : r.metrics) {
    html::headline h{m.title, m.v, std::nullopt};
    if (m.ci && m.ci->lower.defined() && m.ci->upper.defined()) h.ci = html::interval{m.ci->lower.v, m.ci->upper.v, m.ci->method};
    out.push_back(std::move(h));
  }
  return out;
}

// The forest plot of one metric: a point per slice (first slice on top), its interval as a
// horizontal segment, the overall value as a dashed vertical line.
std::string forest(const sliced_report& r, const slice_metric& m, std::size_t index) {
  const std::size_t n = std::min(m.rows.size(), forest_max_slices);
  plot::series points, bars, ref;
  points.name = "slice value";
  points.line = false;
  points.markers = true;
  bars.name = r.overall.ci_level ? fmt::format("{:g}% interval", *r.overall.ci_level * 100) : "";
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> xs;
  for (std::size_t k = 0; k < n; ++k) {
    const auto& row = m.rows[k];
    const double y = static_cast<double>(n - 1 - k);
    points.x.push_back(row.v.defined() ? row.v.v : nan);
    points.y.push_back(y);
    points.labels.push_back(key_name(r.slices[row.slice].key));
    if (row.v.defined()) xs.push_back(row.v.v);
    if (row.ci && row.ci->lower.defined() && row.ci->upper.defined()) {
      bars.x.insert(bars.x.end(), {row.ci->lower.v, row.ci->upper.v, nan});
      bars.y.insert(bars.y.end(), {y, y, nan});
      xs.push_back(row.ci->lower.v);
      xs.push_back(row.ci->upper.v);
    }
  }
  plot::chart c;
  c.id = fmt::format("forest-{}", index);
  c.title = m.title + " by slice";
  c.x_label = m.title;
  c.y_label = fmt::format("slice (top: first of {})", n);
  c.square = false;
  if (m.overall.defined()) xs.push_back(m.overall.v);
  const auto [lo, hi] = plot::padded_range({xs}, 0.08);
  c.x_min = lo;
  c.x_max = hi;
  c.y_min = -1;
  c.y_max = static_cast<double>(n);
  if (m.overall.defined()) {
    ref.name = "overall";
    ref.dashed = true;
    ref.x = {m.overall.v, m.overall.v};
    ref.y = {-1, static_cast<double>(n)};
    c.lines.push_back(std::move(ref));
  }
  if (!bars.x.empty()) c.lines.push_back(std::move(bars));
  c.lines.push_back(std::move(points));
  return plot::render_svg(c);
}

std::string metric_table(const sliced_report& r, const slice_metric& m) {
  const bool ci = r.overall.ci_level.has_value();
  const std::string adjust(stats::to_string(r.p_adjust));
  std::string t = "<table class=\"slices\"><thead><tr><th scope=\"col\">slice</th><th scope=\"col\">rows</th>"
                  "<th scope=\"col\">value</th>";
  if (ci) t += "<th scope=\"col\">interval</th>";
  t += fmt::format("<th scope=\"col\">{}</th><th scope=\"col\">p</th><th scope=\"col\">p ({})</th></tr></thead><tbody>",
                   m.test == "delong_unpaired" ? "t (DeLong)" : "z", html::escape(adjust));
  for (const auto& row : m.rows) {
    const auto& s = r.slices[row.slice];
    t += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td>", html::escape(key_name(s.key)), s.rows,
                     cell(row.v));
    if (ci) {
      if (row.ci && row.ci->lower.defined() && row.ci->upper.defined()) {
        t += fmt::format("<td>[{}, {}]</td>", html::escape(html::number(row.ci->lower.v)),
                         html::escape(html::number(row.ci->upper.v)));
      } else {
        t += "<td>-</td>";
      }
    }
    t += fmt::format("<td>{}</td><td>{}</td><td>{}</td></tr>", cell(row.statistic), cell(row.p_value),
                     cell(row.p_adjusted));
  }
  t += "</tbody></table>";
  return t;
}

}  // namespace

std::string to_html(const sliced_report& r) {
  const std::string by = fmt::format("{}", fmt::join(r.by, " and "));
  html::document doc("assay sliced report", fmt::format("{} by {}: {} slices", r.overall.source, by, r.slices.size()));
  std::vector<std::pair<std::string, std::string>> setup{
      {"file", r.overall.source},
      {"rows", std::to_string(r.overall.rows)},
      {"slice columns", by},
      {"slices", std::to_string(r.slices.size())},
      {"tests", "each slice against the rest: rates by the two-proportion z test, ROC AUC by DeLong's unpaired test"},
      {"p-value adjustment", std::string(stats::to_string(r.p_adjust)) + " over the slices, per metric"},
      {"minimum rows for a test", std::to_string(r.min_rows)}};
  std::string body = html::setup_table(setup);
  for (const auto& n : r.notes) body += html::document::paragraph(n, "note");
  doc.add_section("setup", "Data and options", body);
  doc.add_section("overall", "Overall", html::headline_table(headlines(r.overall)));
  for (std::size_t i = 0; i < r.metrics.size(); ++i) {
    const auto& m = r.metrics[i];
    std::string b = metric_table(r, m);
    if (m.chi2) {
      b += html::document::paragraph(
          m.chi2->defined() ? fmt::format("Homogeneity over all slices: chi-square = {}, df = {}, p = {}",
                                          html::number(m.chi2->v), html::number(m.chi2_df), html::number(m.chi2_p->v))
                            : fmt::format("Homogeneity over all slices: undefined ({})", m.chi2->reason));
    }
    html::figure f;
    f.id = "forest-" + m.name;
    f.title = m.title + ": forest plot";
    f.caption = fmt::format("Each slice's value{} (first slice on top{}); the dashed line is the overall value.",
                            r.overall.ci_level ? " and interval" : "",
                            m.rows.size() > forest_max_slices
                                ? fmt::format("; the first {} of {} slices", forest_max_slices, m.rows.size())
                                : "");
    f.svg = forest(r, m, i);
    b += html::figure_block(f);
    doc.add_section("metric-" + m.name, m.title + " by slice", b);
  }
  std::string each;
  for (const auto& s : r.slices) {
    each += html::document::paragraph(fmt::format("{} ({} rows)", key_name(s.key), s.rows));
    each += s.r ? html::headline_table(headlines(*s.r)) : html::document::paragraph("no report: " + s.reason);
  }
  doc.add_section("slices", "Every slice", each);
  return doc.render();
}

}  // namespace assay
