// Figures and HTML page of assay detection; see include/assay/report/detection_html.hpp.
#include "assay/report/detection_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/plot/svg.hpp"

#include <optional>

namespace assay::detection_report {

namespace {

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
  plot::small_multiples m;
  m.title = title;
  m.axes = "x: recall, y: precision (0 to 1)";
  const std::size_t shown = std::min(curves.size(), max_panels);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& c = curves[i];
    plot::panel p;
    p.title = fmt::format("{} (AP {})", plot::clip_label(c.name, 22), ap_text(c.ap));
    thin(c, max_points, p.x, p.y);
    m.panels.push_back(std::move(p));
  }
  m.more = curves.size() - shown;
  return plot::render_small_multiples(m);
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

namespace {

std::vector<std::pair<std::string, std::string>> setup_rows(const page_inputs& o, const detection::dataset& d) {
  std::vector<std::pair<std::string, std::string>> rows{
      {"Ground truth", o.gt_path},
      {"Detections", o.dt_path},
      {"Images", std::to_string(d.images.size())},
      {"Categories", std::to_string(d.categories.size())},
      {"Ground-truth boxes", std::to_string(d.truths.size())},
      {"Detections (boxes)", std::to_string(d.detections.size())},
      {"Protocol", o.protocol == "coco"    ? "COCO (pycocotools COCOeval, bbox)"
                   : o.protocol == "voc07" ? "PASCAL VOC2007, 11-point AP"
                                           : "PASCAL VOC2010+, all-point AP"}};
  if (o.protocol != "coco") {
    rows.emplace_back("IoU threshold (match when IoU >)", fmt::format("{}", o.iou));
    rows.emplace_back("+1 pixel convention", o.plus_one ? "yes" : "no");
  }
  if (!o.ci_method.empty()) {
    rows.emplace_back("Confidence level", fmt::format("{:g}%", 100 * o.ci_level));
    rows.emplace_back("Interval method", o.ci_method);
  }
  rows.emplace_back("assay version", ASSAY_VERSION);
  return rows;
}

std::optional<html::interval> html_ci(const stats::bootstrap_result& b) {
  if (!b.lower.defined() || !b.upper.defined()) return std::nullopt;
  return html::interval{b.lower.v, b.upper.v, fmt::format("bootstrap percentile, {:g}%", 100 * b.level)};
}

}  // namespace

std::vector<pr_curve> coco_curves(const detection::dataset& d, const detection::coco_result& r) {
  std::vector<pr_curve> out;
  for (std::size_t k = 0; k < d.categories.size(); ++k) {
    pr_curve c;
    c.name = d.category_names[k];
    c.ap = r.category_ap50[k];
    if (r.category_ap50[k].defined()) {
      c.recall = r.params.recall_thresholds;
      for (std::size_t q = 0; q < r.R; ++q) c.precision.push_back(r.precision_at(0, q, k, 0, r.M - 1));
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<pr_curve> voc_curves(const detection::dataset& d, const detection::voc_result& r) {
  std::vector<pr_curve> out;
  for (std::size_t k = 0; k < d.categories.size(); ++k) {
    const auto& c = r.classes[k];
    pr_curve x;
    x.name = d.category_names[k];
    x.ap = c.ap;
    // The interpolated (monotone from the right) precision at each ranked detection.
    x.recall = c.recall;
    x.precision = c.precision;
    for (std::size_t i = x.precision.size(); i-- > 1;) x.precision[i - 1] = std::max(x.precision[i - 1], x.precision[i]);
    out.push_back(std::move(x));
  }
  return out;
}

std::string coco_html(const page_inputs& o, const detection::dataset& d, const detection::coco_result& r,
                      const std::array<stats::bootstrap_result, 12>* ci, const std::string& svg) {
  page p;
  const bool kp = r.params.type == detection::iou_type::keypoints;
  p.title = fmt::format("assay detection: COCO evaluation ({})", detection::iou_type_name(r.params.type));
  p.subtitle = o.dt_path + " against " + o.gt_path;
  p.setup = setup_rows(o, d);
  p.command = o.command;
  static const char* titles[12] = {
      "AP, IoU 0.50:0.95, all areas, 100 detections", "AP50, IoU 0.50",        "AP75, IoU 0.75",
      "APs, small objects (area < 32\u00b2)",          "APm, medium objects",   "APl, large objects (area > 96\u00b2)",
      "AR1, 1 detection per image",                    "AR10, 10 detections",   "AR100, 100 detections",
      "ARs, small objects",                            "ARm, medium objects",   "ARl, large objects"};
  static const char* kp_titles[10] = {
      "AP, OKS 0.50:0.95, all areas, 20 detections", "AP50, OKS 0.50",     "AP75, OKS 0.75",
      "APm, medium objects",                         "APl, large objects (area > 96\u00b2)",
      "AR, OKS 0.50:0.95, 20 detections",            "AR50, OKS 0.50",     "AR75, OKS 0.75",
      "ARm, medium objects",                         "ARl, large objects"};
  for (std::size_t i = 0; i < r.stat_count(); ++i) {
    html::headline h{kp ? kp_titles[i] : titles[i], r.stats[i], std::nullopt};
    if (ci) h.ci = html_ci((*ci)[i]);
    p.headlines.push_back(std::move(h));
  }
  p.table_caption = fmt::format("Per category: AP over {0} 0.50:0.95, at 0.50 and at 0.75 (area all, {1} detections per "
                                "image); ground truths not ignored; all detections",
                                kp ? "OKS" : "IoU", r.params.max_dets.back());
  p.columns = {"AP", "AP50", "AP75", "ground truths", "detections"};
  p.count_columns = {false, false, false, true, true};
  for (std::size_t k = 0; k < d.categories.size(); ++k)
    p.classes.push_back({d.category_names[k],
                         {r.category_ap[k], r.category_ap50[k], r.category_ap75[k],
                          static_cast<double>(r.category_gt[k]), static_cast<double>(r.category_dt[k])}});
  p.pr_figure = {"pr",
                 kp ? "Precision-recall curves per class at OKS 0.50" : "Precision-recall curves per class at IoU 0.50",
                 fmt::format("COCO's interpolated precision on its 101-point recall grid (area all, {} detections per "
                             "image); the AP shown is AP50, the mean of that curve",
                             r.params.max_dets.back()),
                 svg};
  p.notes.push_back("Undefined numbers (pycocotools prints -1) have no ground truth in that area range or class.");
  if (ci)
    p.notes.push_back("Intervals resample images with replacement and re-accumulate the stored matches; a replicate "
                      "where a number is undefined is dropped for that number.");
  return render_page(p);
}

std::string voc_html(const page_inputs& o, const detection::dataset& d, const detection::voc_result& r,
                     const value& map_range, const stats::bootstrap_result* ci, const std::string& svg) {
  page p;
  p.title = "assay detection: PASCAL VOC evaluation";
  p.subtitle = o.dt_path + " against " + o.gt_path;
  p.setup = setup_rows(o, d);
  p.command = o.command;
  html::headline m{fmt::format("mAP, IoU > {}", o.iou), r.map, std::nullopt};
  if (ci) m.ci = html_ci(*ci);
  p.headlines = {m, {"mAP averaged over IoU 0.50:0.05:0.95", map_range, std::nullopt}};
  p.table_caption = "Per class: AP, ground truths that are not difficult, detections";
  p.columns = {"AP", "ground truths (not difficult)", "detections"};
  p.count_columns = {false, true, true};
  for (std::size_t k = 0; k < d.categories.size(); ++k)
    p.classes.push_back({d.category_names[k],
                         {r.classes[k].ap, static_cast<double>(r.classes[k].npos),
                          static_cast<double>(r.classes[k].detections)}});
  p.pr_figure = {"pr", "Precision-recall curves per class",
                 "Precision made monotone from the right (the envelope all-point AP integrates), at every ranked "
                 "detection; long curves are drawn with at most 1000 points",
                 svg};
  if (ci) p.notes.push_back("The interval resamples images with replacement and re-accumulates the stored matches.");
  return render_page(p);
}

}  // namespace assay::detection_report
