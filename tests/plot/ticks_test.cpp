// Axis labels of the SVG charts sit at round numbers (1, 2, 2.5 or 5 times a power of ten) inside
// the drawn range, whatever the range.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "assay/plot/svg.hpp"

namespace assay::plot {
namespace {

// The text of the x-axis tick labels (text-anchor middle at the baseline below the plot) and the
// y-axis labels (text-anchor end), in document order.
std::vector<std::string> labels_of(const std::string& svg, const char* anchor) {
  std::vector<std::string> out;
  const std::regex re(std::string("<text x=\"[0-9.]+\" y=\"[0-9.]+\" text-anchor=\"") + anchor + "\">([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

std::string render(double x_lo, double x_hi, double y_lo, double y_hi) {
  chart c;
  c.x_min = x_lo, c.x_max = x_hi, c.y_min = y_lo, c.y_max = y_hi;
  c.square = false;
  return render_svg(c);
}

// Found by fuzz/cli_fuzz.py: `assay report --html` on one row with the score 1e26 drew its score
// histogram over [1e26, 1e26] (a zero span taken as 1), and the tick loop never ended, since
// 1e27 + 1 == 1e27. It must finish, with one label.
TEST(Ticks, HugeValuesWithATinySpanFinish) {
  const auto svg = render(1e26, 1e26, 0, 1);
  const auto x = labels_of(svg, "middle");
  ASSERT_GE(x.size(), 1u);
  EXPECT_EQ(x.back(), "1e+26");
  EXPECT_EQ(labels_of(svg, "end").size(), 6u);
}

TEST(Ticks, UnitSquareIsLabelledInFifths) {
  const auto svg = render(0, 1, 0, 1);
  const std::vector<std::string> want{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"};
  const auto x = labels_of(svg, "middle");
  // The title is centred too; the tick labels are the last six.
  ASSERT_GE(x.size(), want.size());
  EXPECT_EQ(std::vector<std::string>(x.end() - 6, x.end()), want);
  EXPECT_EQ(labels_of(svg, "end"), want);
}

TEST(Ticks, OddRangesGetRoundLabelsInside) {
  // A learning curve's training sizes and an accuracy axis, as in `assay learning-curve`.
  const auto svg = render(25.5, 475, 0.895, 1.01);
  const auto x = labels_of(svg, "middle");
  const std::vector<std::string> want_x{"100", "200", "300", "400"};
  ASSERT_GE(x.size(), want_x.size());
  EXPECT_EQ(std::vector<std::string>(x.end() - 4, x.end()), want_x);
  const std::vector<std::string> want_y{"0.900", "0.925", "0.950", "0.975", "1.000"};
  EXPECT_EQ(labels_of(svg, "end"), want_y);
}

TEST(Ticks, NegativeAndLargeRanges) {
  const auto y = labels_of(render(0, 1, -3, 7), "end");
  EXPECT_EQ(y, (std::vector<std::string>{"-2", "0", "2", "4", "6"}));
  const auto big = labels_of(render(0, 1, 0, 5e6), "end");
  EXPECT_EQ(big, (std::vector<std::string>{"0", "1e+06", "2e+06", "3e+06", "4e+06", "5e+06"}));
}

}  // namespace
}  // namespace assay::plot
