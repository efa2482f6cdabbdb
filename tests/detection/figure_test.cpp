// The PR figure and page of assay detection: overlay or small multiples, class names escaped,
// thinning for drawing, sections of the page.
#include <gtest/gtest.h>

#include <string>

#include "assay/report/detection_html.hpp"

namespace assay::detection_report {
namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

std::vector<pr_curve> curves(std::size_t n, std::size_t points) {
  std::vector<pr_curve> out;
  for (std::size_t k = 0; k < n; ++k) {
    pr_curve c;
    c.name = "c" + std::to_string(k);
    for (std::size_t i = 0; i < points; ++i) {
      c.recall.push_back(static_cast<double>(i + 1) / static_cast<double>(points));
      c.precision.push_back(1.0 - 0.5 * static_cast<double>(i) / static_cast<double>(points));
    }
    c.ap = 0.75;
    out.push_back(c);
  }
  return out;
}

TEST(DetectionFigure, OverlayUpToEightClassesThenSmallMultiples) {
  const auto few = pr_curves_svg(curves(3, 10), "t");
  EXPECT_NE(few.find("c2 (AP 0.750)"), std::string::npos);
  EXPECT_EQ(count(few, "(AP 0.750)"), 3u);
  const auto many = pr_curves_svg(curves(12, 10), "t");
  EXPECT_EQ(count(many, "<polyline"), 12u);  // one panel each
  EXPECT_EQ(count(many, "<rect x="), 12u);
  const auto capped = pr_curves_svg(curves(12, 10), "t", 8, 5);
  EXPECT_EQ(count(capped, "<polyline"), 5u);
  EXPECT_NE(capped.find("7 more classes not drawn"), std::string::npos);
}

TEST(DetectionFigure, ThinsLongCurvesAndEscapesNames) {
  auto c = curves(1, 100000);
  c[0].name = "<script>alert(1)</script>";
  const auto svg = pr_curves_svg(c, "t", 0, 100, 50);  // overlay_max 0: small multiples
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;"), std::string::npos);
  const auto poly = svg.substr(svg.find("points=\""), svg.find("\" fill", svg.find("points=\"")) - svg.find("points=\""));
  EXPECT_EQ(count(poly, ","), 50u);  // 50 points of x,y
}

TEST(DetectionFigure, PageHasItsSectionsAndEscapesText) {
  page p;
  p.title = "t";
  p.setup = {{"Ground truth", "a<b>.json"}};
  p.command = "assay detection --gt 'a<b>.json'";
  p.headlines = {{"AP", value(0.5), html::interval{0.4, 0.6, "bootstrap percentile, 95%"}}};
  p.columns = {"AP", "n"};
  p.count_columns = {false, true};
  p.classes = {{"<img src=x onerror=1>", {value(0.25), value(3.0)}}};
  p.pr_figure = {"pr", "PR", "", pr_curves_svg(curves(1, 3), "t")};
  const auto h = render_page(p);
  for (const char* id : {"id=\"setup\"", "id=\"metrics\"", "id=\"per-class\"", "id=\"pr-curves\""})
    EXPECT_NE(h.find(id), std::string::npos) << id;
  EXPECT_EQ(h.find("<img"), std::string::npos);
  EXPECT_NE(h.find("<td>0.250</td><td>3</td>"), std::string::npos);
  EXPECT_NE(h.find("[0.4, 0.6]"), std::string::npos);
}

}  // namespace
}  // namespace assay::detection_report
