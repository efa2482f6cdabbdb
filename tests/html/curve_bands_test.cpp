// Pointwise interval bands on the ROC and PR figures of `assay report --ci --html`: TPR = TP/P and
// precision = TP/(TP+FP) at each drawn point, threshold held fixed (docs/definitions/intervals.md).
// Reference: statsmodels' proportion_confint at every point of a small curve with ties
// (tests/html/generate_bands.py -> data/bands_statsmodels.json); on a curve thinned to 2000 points,
// counts recounted from the rows at the drawn points and the library's proportion_ci (itself tested
// against statsmodels in tests/stats).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>

#include "assay/report/html.hpp"
#include "assay/report/report.hpp"
#include "assay/stats/proportion.hpp"
#include "html/html_test_util.hpp"

namespace assay::html::test {
namespace {

nlohmann::json reference() {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/html/data/bands_statsmodels.json");
  return nlohmann::json::parse(f);
}

report_request request(const std::string& path, std::optional<double> level) {
  report_request q;
  q.path = path;
  q.label = "y";
  q.score = "s";
  q.pos_label = "1";
  q.keep_curves = true;
  q.ci_level = level;
  q.bootstrap_replicates = 10;  // the bands do not resample; this keeps the other intervals cheap
  return q;
}

// The band polygons of one figure of the page.
std::size_t bands_in_figure(const std::string& page, const std::string& id) {
  const auto a = page.find("<figure id=\"" + id + "\"");
  if (a == std::string::npos) return 0;
  const auto b = page.find("</figure>", a);
  return count(page.substr(a, b - a), "<polygon class=\"band\"");
}

// statsmodels and assay evaluate the same closed forms (Wilson) or beta quantiles (Clopper-Pearson)
// in different orders: agreement to 1e-12 absolute.
constexpr double tol = 1e-12;

void expect_bands_match(const report& r, const nlohmann::json& ref, const char* method) {
  ASSERT_TRUE(r.roc && r.pr);
  ASSERT_EQ(r.roc->x.size(), ref["roc"].size()) << "not thinned: one drawn point per curve point";
  ASSERT_EQ(r.roc->y_lo.size(), r.roc->x.size());
  for (std::size_t i = 0; i < r.roc->x.size(); ++i) {
    const auto& p = ref["roc"][i];
    EXPECT_DOUBLE_EQ(r.roc->y[i], p["tp"].get<double>() / p["p"].get<double>()) << i;
    EXPECT_NEAR(r.roc->y_lo[i], p[method][0].get<double>(), tol) << "ROC point " << i;
    EXPECT_NEAR(r.roc->y_hi[i], p[method][1].get<double>(), tol) << "ROC point " << i;
  }
  ASSERT_EQ(r.pr->x.size(), ref["pr"].size());
  for (std::size_t j = 0; j < r.pr->x.size(); ++j) {
    const auto& p = ref["pr"][j];
    if (p.is_null()) {  // the closing (recall 0, precision 1): no counts, no band
      EXPECT_TRUE(std::isnan(r.pr->y_lo[j]) && std::isnan(r.pr->y_hi[j])) << j;
      continue;
    }
    EXPECT_DOUBLE_EQ(r.pr->y[j], p["tp"].get<double>() / p["pp"].get<double>()) << j;
    EXPECT_NEAR(r.pr->y_lo[j], p[method][0].get<double>(), tol) << "PR point " << j;
    EXPECT_NEAR(r.pr->y_hi[j], p[method][1].get<double>(), tol) << "PR point " << j;
  }
}

TEST(CurveBands, WilsonAtEveryPointEqualsStatsmodels) {
  const auto ref = reference();
  const report r = make_report(request(std::string(ASSAY_TEST_DIR) + "/html/data/bands.csv", ref["levels"]["wilson"]));
  EXPECT_EQ(r.roc->band_method, "wilson");
  expect_bands_match(r, ref, "wilson");
}

TEST(CurveBands, TheReportsProportionMethodServesTheBand) {
  const auto ref = reference();
  report_request q = request(std::string(ASSAY_TEST_DIR) + "/html/data/bands.csv", ref["levels"]["clopper_pearson"]);
  q.ci = ci_method::clopper_pearson;
  const report r = make_report(q);
  EXPECT_EQ(r.pr->band_method, "clopper_pearson");
  expect_bands_match(r, ref, "beta");
}

TEST(CurveBands, PresentWithIntervalsAbsentWithout) {
  const std::string path = std::string(ASSAY_TEST_DIR) + "/html/data/bands.csv";
  const report plain = make_report(request(path, std::nullopt));
  EXPECT_TRUE(plain.roc->y_lo.empty() && plain.pr->y_hi.empty());
  const std::string without = to_html(plain);
  EXPECT_EQ(count(without, "class=\"band\""), 0u);
  EXPECT_EQ(without.find("pointwise"), std::string::npos);

  const std::string with = to_html(make_report(request(path, 0.95)));
  EXPECT_EQ(bands_in_figure(with, "fig-roc"), 1u);
  EXPECT_EQ(bands_in_figure(with, "fig-pr"), 1u) << "the closing point without counts ends the band, not splits it";
  EXPECT_EQ(bands_in_figure(with, "fig-threshold"), 0u);
  EXPECT_NE(with.find("Shaded: the pointwise 95% Wilson interval of the TPR (TP of the P positives) at each drawn "
                      "point, its threshold held fixed"),
            std::string::npos);
  EXPECT_NE(with.find("not a simultaneous band for the whole curve"), std::string::npos);
  EXPECT_NE(with.find("interval of the precision (TP of the TP + FP cases predicted positive)"), std::string::npos);
  EXPECT_EQ(with.find("weighted counts are used"), std::string::npos);
}

// A curve with more than 2000 points: the band is computed at the drawn points only, from the
// counts of the full curve's point each one is. Counts are recounted here from the rows.
TEST(CurveBands, ThinnedCurveBandsAtDrawnPointsAndWeights) {
  temp_dir dir;
  const fs::path path = dir / "thin.csv";
  std::vector<int> y;
  std::vector<double> s, w;
  {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(0, 1);
    std::string text = "y,s,w\n";
    for (int i = 0; i < 5000; ++i) {
      y.push_back(static_cast<int>(rng() % 2));
      s.push_back(std::round(1e4 * std::min(1.0, 0.3 * y.back() + 0.7 * u(rng))) / 1e4);  // some ties
      w.push_back(0.5 + static_cast<double>(rng() % 4));
      text += fmt::format("{},{},{}\n", y.back(), s.back(), w.back());
    }
    write_file(path, text);
  }
  std::set<double, std::greater<>> distinct(s.begin(), s.end());
  const std::vector<double> desc(distinct.begin(), distinct.end());
  for (bool weighted : {false, true}) {
    report_request q = request(path.string(), 0.9);
    if (weighted) q.weight = "w";
    const report r = make_report(q);
    ASSERT_TRUE(r.roc && r.pr);
    ASSERT_EQ(r.roc->points, desc.size() + 1);
    ASSERT_EQ(r.roc->x.size(), curve_sample::max_points);
    const std::size_t n = r.roc->points, m = r.roc->x.size();
    auto counts_at = [&](double t) {  // weighted TP, positives and predicted positives at score >= t
      double tp = 0, p = 0, pp = 0;
      for (std::size_t i = 0; i < y.size(); ++i) {
        const double wi = weighted ? w[i] : 1.0;
        p += y[i] * wi;
        if (s[i] >= t) tp += y[i] * wi, pp += wi;
      }
      return std::array<double, 3>{tp, p, pp};
    };
    for (std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{777}, std::size_t{1998}, m - 1}) {
      const std::size_t i = k * (n - 1) / (m - 1);  // the documented thinning rule
      const auto [tp, p, pp] = counts_at(desc[i - 1]);
      EXPECT_NEAR(r.roc->y[k], tp / p, 1e-12) << k;
      const auto ci = stats::proportion_ci(tp, p, 0.9);
      EXPECT_NEAR(r.roc->y_lo[k], ci.lower, 1e-12) << k << (weighted ? " weighted" : "");
      EXPECT_NEAR(r.roc->y_hi[k], ci.upper, 1e-12) << k << (weighted ? " weighted" : "");
      // PR point j is the j-th lowest distinct score; the last point (m - 1) is the closing one.
      if (k == m - 1) {
        EXPECT_TRUE(std::isnan(r.pr->y_lo[k]));
        continue;
      }
      const auto [tp2, p2, pp2] = counts_at(desc[desc.size() - 1 - i]);
      EXPECT_NEAR(r.pr->y[k], tp2 / pp2, 1e-12) << k;
      const auto ci2 = stats::proportion_ci(tp2, pp2, 0.9);
      EXPECT_NEAR(r.pr->y_lo[k], ci2.lower, 1e-12) << k;
      EXPECT_NEAR(r.pr->y_hi[k], ci2.upper, 1e-12) << k;
    }
    const std::string page = to_html(r);
    EXPECT_EQ(bands_in_figure(page, "fig-roc"), 1u);
    EXPECT_EQ(page.find("weighted counts are used as counts") != std::string::npos, weighted);
    // The page is bounded by the 2000 drawn points, whatever the number of rows; 10^7 rows must stay < 2 MB.
    EXPECT_LT(page.size(), 600000u);
  }
}

}  // namespace
}  // namespace assay::html::test
