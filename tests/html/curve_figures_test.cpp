// ROC and PR figures on the HTML page of a binary score report, thinned for drawing.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include "assay/report/html.hpp"
#include "assay/report/report.hpp"

namespace assay {
namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

// Writes a `y,s` CSV of `rows` cases under the temp dir: labels 0/1 at random, scores in [0, 1] higher for
// positives (so they are probabilities and every chart of a binary report applies). Returns its path.
std::string write_scores(const std::string& name, int rows, std::uint64_t seed) {
  const auto path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream f(path);
  f << "y,s\n";
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < rows; ++i) {
    const int y = static_cast<int>(rng() % 2);
    f << y << ',' << std::min(1.0, 0.3 * y + 0.7 * u(rng)) << '\n';
  }
  return path;
}

TEST(CurveFigures, RocAndPrArePlottedAndThinned) {
  const auto path = write_scores("assay_curve_figures.csv", 6000, 7);
  report_request q;
  q.path = path;
  q.label = "y";
  q.score = "s";
  const report plain = make_report(q);
  EXPECT_FALSE(plain.roc.has_value()) << "curves are kept only when asked for";
  q.keep_curves = true;
  const report r = make_report(q);
  ASSERT_TRUE(r.roc && r.pr);
  EXPECT_GT(r.roc->points, curve_sample::max_points);
  EXPECT_EQ(r.roc->x.size(), curve_sample::max_points);
  EXPECT_EQ(r.roc->x.front(), 0.0);  // the origin and (1, 1) survive thinning
  EXPECT_EQ(r.roc->x.back(), 1.0);
  EXPECT_EQ(r.roc->y.back(), 1.0);
  const std::string page = to_html(r);
  EXPECT_EQ(count(page, "id=\"fig-roc\""), 1u);
  EXPECT_EQ(count(page, "id=\"fig-pr\""), 1u);
  EXPECT_NE(page.find("model (AUC 0."), std::string::npos);
  EXPECT_NE(page.find("prevalence (chance)"), std::string::npos);
  EXPECT_NE(page.find(fmt::format("Drawn from {} of its {} points", curve_sample::max_points, r.roc->points)),
            std::string::npos);
  std::remove(path.c_str());
}

// Several SVGs are inlined in one page: a clip-path id shared by two of them makes every chart clip to the
// first one's rectangle (and is invalid HTML). Every clipPath id must be unique and every reference defined.
TEST(CurveFigures, ClipIdsAreUniqueOnTheReportPage) {
  const auto path = write_scores("assay_curve_figures_clip.csv", 200, 3);
  report_request q;
  q.path = path;
  q.label = "y";
  q.score = "s";
  q.keep_curves = true;
  const report r = make_report(q);
  std::remove(path.c_str());
  ASSERT_TRUE(r.roc && r.pr && r.thresholds && r.calibration) << "all four charts must be on the page";
  const std::string page = to_html(r);
  const std::string def = "<clipPath id=\"", ref = "url(#";
  std::set<std::string> ids;
  std::size_t defs = 0;
  for (auto p = page.find(def); p != std::string::npos; p = page.find(def, p + 1)) {
    const std::size_t b = p + def.size();
    const std::string id = page.substr(b, page.find('"', b) - b);
    EXPECT_TRUE(ids.insert(id).second) << "clip id \"" << id << "\" is used twice";
    ++defs;
  }
  EXPECT_EQ(defs, 4u);  // ROC, PR, metrics vs threshold, reliability diagram
  for (auto p = page.find(ref); p != std::string::npos; p = page.find(ref, p + 1)) {
    const std::size_t b = p + ref.size();
    EXPECT_EQ(ids.count(page.substr(b, page.find(')', b) - b)), 1u) << page.substr(p, 40);
  }
}

TEST(CurveFigures, ThinKeepsShortCurvesWhole) {
  const std::vector<double> x{0, 0.5, 1}, y{0, 0.7, 1};
  const auto c = curve_sample::thin(x, y);
  EXPECT_EQ(c.x, x);
  EXPECT_EQ(c.y, y);
  EXPECT_EQ(c.points, 3u);
}

}  // namespace
}  // namespace assay
