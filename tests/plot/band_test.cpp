// Shaded bands of the SVG charts: the asymmetric band (series::y_lo, y_hi, e.g. Wilson intervals)
// and the symmetric one (y_err with band), checked against pixel positions computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "assay/plot/svg.hpp"

namespace assay::plot {
namespace {

// The points of every <polygon class="band">, in document order.
std::vector<std::vector<std::pair<double, double>>> bands_of(const std::string& svg) {
  std::vector<std::vector<std::pair<double, double>>> out;
  const std::regex re("<polygon class=\"band\"[^>]* points=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    std::stringstream ss((*it)[1].str());
    std::vector<std::pair<double, double>> pts;
    double x = 0, y = 0;
    char comma = 0;
    while (ss >> x >> comma >> y) pts.emplace_back(x, y);
    out.push_back(pts);
  }
  return out;
}

// A square chart over [0, 1]^2: the plot area is 380 px wide and high, from (70, 40) at the top left,
// so x maps to 70 + 380 x and y to 420 - 380 y.
chart unit_chart(series s) {
  chart c;
  c.lines.push_back(std::move(s));
  return c;
}

double px(double x) { return 70 + 380 * x; }
double py(double y) { return 420 - 380 * y; }

TEST(PlotBand, AsymmetricBandIsUpperEdgeThenLowerEdgeBack) {
  series s;
  s.x = {0, 0.5, 1};
  s.y = {0.3, 0.4, 0.6};
  s.y_lo = {0.1, 0.2, 0.3};
  s.y_hi = {0.5, 0.6, 0.9};
  const std::string svg = render_svg(unit_chart(s));
  const auto bands = bands_of(svg);
  ASSERT_EQ(bands.size(), 1u) << svg;
  const std::vector<std::pair<double, double>> want{{px(0), py(0.5)},   {px(0.5), py(0.6)}, {px(1), py(0.9)},
                                                    {px(1), py(0.3)},   {px(0.5), py(0.2)}, {px(0), py(0.1)}};
  ASSERT_EQ(bands[0].size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(bands[0][i].first, want[i].first, 0.006) << i;
    EXPECT_NEAR(bands[0][i].second, want[i].second, 0.006) << i;
  }
  EXPECT_EQ(svg.find("<path"), std::string::npos) << "a band draws no error bars";
  EXPECT_NE(svg.find("<polyline"), std::string::npos) << "the line itself is still drawn";
}

TEST(PlotBand, MissingOrInvertedEndsBreakTheBand) {
  series s;
  s.x = {0, 0.25, 0.5, 0.75, 1};
  s.y = {0.5, 0.5, 0.5, 0.5, 0.5};
  s.y_lo = {0.4, 0.4, NAN, 0.4, 0.4};
  s.y_hi = {0.6, 0.6, 0.6, 0.6, 0.6};
  auto bands = bands_of(render_svg(unit_chart(s)));
  ASSERT_EQ(bands.size(), 2u);
  EXPECT_EQ(bands[0].size(), 4u);
  EXPECT_EQ(bands[1].size(), 4u);
  s.y_lo = {0.4, 0.7, 0.4, 0.4, 0.4};  // lo > hi at the second point
  bands = bands_of(render_svg(unit_chart(s)));
  ASSERT_EQ(bands.size(), 2u);
  EXPECT_EQ(bands[0].size(), 2u);
  EXPECT_EQ(bands[1].size(), 6u);
  s.y_lo = {0.4, 0.4};  // shorter than the series: the points beyond it have no band
  bands = bands_of(render_svg(unit_chart(s)));
  ASSERT_EQ(bands.size(), 1u);
  EXPECT_EQ(bands[0].size(), 4u);
}

TEST(PlotBand, NoBandWithoutEnds) {
  series s;
  s.x = {0, 1};
  s.y = {0.2, 0.8};
  EXPECT_TRUE(bands_of(render_svg(unit_chart(s))).empty());
  s.y_lo = {0.1, 0.7};  // y_hi missing
  EXPECT_TRUE(bands_of(render_svg(unit_chart(s))).empty());
}

TEST(PlotBand, SymmetricBandFromErrors) {
  series s;
  s.x = {0, 1};
  s.y = {0.5, 0.5};
  s.y_err = {0.1, 0.2};
  s.band = true;
  const auto bands = bands_of(render_svg(unit_chart(s)));
  ASSERT_EQ(bands.size(), 1u);
  const std::vector<std::pair<double, double>> want{
      {px(0), py(0.6)}, {px(1), py(0.7)}, {px(1), py(0.3)}, {px(0), py(0.4)}};
  ASSERT_EQ(bands[0].size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(bands[0][i].first, want[i].first, 0.006) << i;
    EXPECT_NEAR(bands[0][i].second, want[i].second, 0.006) << i;
  }
}

}  // namespace
}  // namespace assay::plot
