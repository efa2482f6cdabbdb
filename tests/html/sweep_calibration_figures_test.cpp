// The threshold-sweep and reliability figures of the HTML report page (report::thresholds,
// report::calibration), against brute-force references computed here from the rows.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "assay/report/html.hpp"
#include "assay/report/report.hpp"
#include "html/html_test_util.hpp"

namespace assay {
namespace {

using html::test::temp_dir;

std::string file_in(const temp_dir& dir, const std::string& name, const std::string& text) {
  html::test::write_file(dir / name, text);
  return (dir / name).string();
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

struct rows {
  std::vector<int> y;
  std::vector<double> s;
};

// n rows, y 0/1, score a probability with `digits` decimals (0 = full precision: distinct scores).
rows make_rows(std::uint64_t seed, int n, int digits) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  rows r;
  for (int i = 0; i < n; ++i) {
    const int y = static_cast<int>(rng() % 2);
    double s = std::min(1.0, 0.35 * y + 0.65 * u(rng));
    if (digits > 0) s = std::round(s * std::pow(10, digits)) / std::pow(10, digits);
    r.y.push_back(y);
    r.s.push_back(s);
  }
  return r;
}

std::string write_csv(const temp_dir& dir, const rows& r) {
  const auto path = (dir.path() / "scores.csv").string();
  std::ofstream f(path);
  f << "y,s\n";
  for (std::size_t i = 0; i < r.y.size(); ++i) f << r.y[i] << ',' << fmt::format("{}", r.s[i]) << '\n';
  return path;
}

// The report of `assay report --label y --score s` on the rows, keeping the curves the HTML page draws.
report report_with_curves(const temp_dir& dir, const rows& d) {
  report_request q;
  q.path = write_csv(dir, d);
  q.label = "y";
  q.score = "s";
  q.keep_curves = true;
  return make_report(q);
}

struct counts {
  double tp = 0, fp = 0, fn = 0, tn = 0;
};
counts at(const rows& r, double t) {
  counts c;
  for (std::size_t i = 0; i < r.y.size(); ++i) {
    const bool hit = r.s[i] >= t;
    if (r.y[i])
      (hit ? c.tp : c.fn) += 1;
    else
      (hit ? c.fp : c.tn) += 1;
  }
  return c;
}

TEST(SweepAndCalibrationFigures, ValuesEqualBruteForceAndArePlotted) {
  temp_dir dir;
  const rows d = make_rows(31, 3000, 0);  // ~3000 distinct scores: thinned to 2000
  const report r = report_with_curves(dir, d);
  ASSERT_TRUE(r.thresholds && r.calibration);
  const threshold_sample& t = *r.thresholds;
  std::vector<double> distinct = d.s;
  std::sort(distinct.begin(), distinct.end(), std::greater<>());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  EXPECT_EQ(t.f1.points, distinct.size());
  ASSERT_EQ(t.f1.x.size(), curve_sample::max_points);
  EXPECT_EQ(t.f1.x.front(), distinct.front());  // the highest and lowest thresholds survive thinning
  EXPECT_EQ(t.f1.x.back(), distinct.back());
  // Every 37th kept threshold against counts made from the rows.
  for (std::size_t k = 0; k < t.f1.x.size(); k += 37) {
    const counts c = at(d, t.f1.x[k]);
    EXPECT_NEAR(t.f1.y[k], 2 * c.tp / (2 * c.tp + c.fp + c.fn), 1e-12) << k;
    EXPECT_NEAR(t.precision.y[k], c.tp / (c.tp + c.fp), 1e-12) << k;
    EXPECT_NEAR(t.recall.y[k], c.tp / (c.tp + c.fn), 1e-12) << k;
    EXPECT_NEAR(t.fpr.y[k], c.fp / (c.fp + c.tn), 1e-12) << k;
  }
  // Best thresholds over every distinct score (not only the drawn ones); ties to the highest.
  double best_f1 = -1, best_f1_t = 0, best_j = -2, best_j_t = 0;
  for (double x : distinct) {
    const counts c = at(d, x);
    const double f1 = 2 * c.tp / (2 * c.tp + c.fp + c.fn), j = c.tp / (c.tp + c.fn) - c.fp / (c.fp + c.tn);
    if (f1 > best_f1) best_f1 = f1, best_f1_t = x;
    if (j > best_j) best_j = j, best_j_t = x;
  }
  ASSERT_TRUE(t.max_f1_threshold && t.youden_threshold);
  EXPECT_EQ(*t.max_f1_threshold, best_f1_t);
  EXPECT_NEAR(*t.max_f1, best_f1, 1e-12);
  EXPECT_EQ(*t.youden_threshold, best_j_t);
  EXPECT_NEAR(*t.youden_tpr - *t.youden_fpr, best_j, 1e-12);

  // Reliability: 10 uniform bins, edges i * 0.1 as numpy.linspace, a score on an edge in the lower bin.
  std::vector<double> n(10, 0), pos(10, 0), sum(10, 0);
  for (std::size_t i = 0; i < d.y.size(); ++i) {
    std::size_t b = 0;
    for (int e = 1; e < 10; ++e) b += e * (1.0 / 10) < d.s[i];
    n[b] += 1, pos[b] += d.y[i], sum[b] += d.s[i];
  }
  const calibration_sample& c = *r.calibration;
  EXPECT_FALSE(c.top_label);
  double ece = 0;
  std::size_t kept = 0;
  for (std::size_t b = 0; b < 10; ++b) {
    if (n[b] == 0) continue;
    ASSERT_LT(kept, c.prob_true.size());
    EXPECT_NEAR(c.prob_true[kept], pos[b] / n[b], 1e-12);
    EXPECT_NEAR(c.prob_pred[kept], sum[b] / n[b], 1e-12);
    ece += n[b] / 3000 * std::fabs(pos[b] / n[b] - sum[b] / n[b]);
    ++kept;
  }
  EXPECT_EQ(kept, c.prob_true.size());
  EXPECT_NEAR(c.ece.v, ece, 1e-12);

  const std::string page = to_html(r);
  EXPECT_EQ(count(page, "id=\"fig-threshold\""), 1u);
  EXPECT_EQ(count(page, "id=\"fig-calibration\""), 1u);
  EXPECT_NE(page.find(fmt::format("Drawn from {} of its {} points", curve_sample::max_points, distinct.size())),
            std::string::npos);
  EXPECT_NE(page.find(fmt::format("Expected calibration error (ECE, bin-weighted mean distance to the diagonal) = "
                                  "{:.4f}.",
                                  ece)),
            std::string::npos);
  EXPECT_NE(page.find(fmt::format("max F1 at {:.4g}", best_f1_t)), std::string::npos);
  EXPECT_NE(page.find("perfectly calibrated"), std::string::npos);
  EXPECT_LT(page.size(), 400000u) << "each figure is thinned to at most 2000 points";
}

TEST(SweepAndCalibrationFigures, ScoresThatAreNotProbabilitiesHaveNoReliabilityDiagram) {
  temp_dir dir;
  rows d = make_rows(32, 200, 2);
  for (double& s : d.s) s = 6 * s - 3;
  const report r = report_with_curves(dir, d);
  EXPECT_TRUE(r.thresholds);
  EXPECT_FALSE(r.calibration);
  const std::string page = to_html(r);
  EXPECT_EQ(count(page, "id=\"fig-threshold\""), 1u);
  EXPECT_EQ(count(page, "id=\"fig-calibration\""), 0u);
  EXPECT_EQ(page.find("Drawn from"), std::string::npos) << "200 points are drawn whole";
}

TEST(SweepAndCalibrationFigures, ProbaGivesTopLabelDiagramOrANote) {
  temp_dir dir;
  // Hand example (as tests/curves/multiclass_test.cpp): 5 uniform bins there; here 10 bins:
  // confidences .7 .4 .8 .4 .9, correct 1 0 1 0 1. Bins (.3,.4]: acc 0, conf .4 (2 cases);
  // (.6,.7]: acc 1, conf .7; (.7,.8]: acc 1, conf .8; (.8,.9]: acc 1, conf .9.
  // ECE = (2 * .4 + .3 + .2 + .1) / 5 = 0.28.
  const std::string ok =
      file_in(dir, "p.csv", "y,a,b,c\na,.7,.2,.1\nb,.4,.4,.2\nb,.1,.8,.1\na,.3,.3,.4\nc,.05,.05,.9\n");
  report_request q;
  q.path = ok;
  q.label = "y";
  q.proba = {"a", "b", "c"};
  q.keep_curves = true;
  const report r = make_report(q);
  ASSERT_TRUE(r.calibration);
  EXPECT_TRUE(r.calibration->top_label);
  EXPECT_NEAR(r.calibration->ece.v, 0.28, 1e-12);
  EXPECT_FALSE(r.thresholds);
  const std::string page = to_html(r);
  EXPECT_EQ(count(page, "id=\"fig-calibration\""), 1u);
  EXPECT_NE(page.find("Top-label reliability diagram"), std::string::npos);
  EXPECT_NE(page.find("= 0.2800."), std::string::npos);

  q.path = file_in(dir, "bad.csv", "y,a,b,c\na,.7,.2,.1\nb,.4,.4,.1\nc,.05,.05,.9\n");
  const report bad = make_report(q);
  EXPECT_FALSE(bad.calibration);
  const std::string note =
      "no reliability diagram: the class probabilities of data row 2 sum to 0.9, not 1 (rule: "
      "|sum - 1| <= 1e-8 + 1e-5 |sum|)";
  EXPECT_NE(std::find(bad.notes.begin(), bad.notes.end(), note), bad.notes.end())
      << ::testing::PrintToString(bad.notes);
  EXPECT_EQ(count(to_html(bad), "id=\"fig-calibration\""), 0u);
}

}  // namespace
}  // namespace assay
