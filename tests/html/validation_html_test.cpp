// `--html FILE` on the validation commands (learning-curve, validation-curve, permutation-test,
// bias-variance, lesion, compare-learners, nested-cv): each page has its sections, its figure, a
// table, the command that made it; it is written atomically (an unwritable path: exit 4 and no
// file); names from the data (a <script> target column, a file name with markup) are escaped.
// Also the plot helpers the pages use (error bars, scatter with diagonal, histogram bars) and the
// corrected resampled interval of the headline numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "assay/plot/svg.hpp"
#include "assay/report/html_validation.hpp"
#include "assay/stats/learner_tests.hpp"
#include "html/html_test_util.hpp"

namespace assay::html::test {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

struct page_case {
  std::string name;  // test name and the subcommand
  std::string args;  // after "assay <command> <file> --target <target>"
  std::vector<std::string> sections;
  std::size_t svgs;   // figures on the page
  std::string table;  // a string only the page's own table has
};

const std::vector<page_case>& cases() {
  static const std::vector<page_case> c{
      {"learning-curve",
       "--learner gaussian_nb --folds 3 --sizes 0.5 1 --seed 3",
       {"setup", "summary", "plot", "table"},
       4,
       "<th scope=\"col\">Training rows</th>"},
      {"validation-curve",
       "--learner knn --param k --values 1 5 --folds 3",
       {"setup", "summary", "plot", "table"},
       4,
       "<th scope=\"row\">5</th>"},
      {"permutation-test",
       "--learner gaussian_nb --folds 3 --permutations 12 --metric accuracy",
       {"setup", "summary", "plot", "table"},
       1,
       "<th scope=\"col\">Permutations</th>"},
      {"bias-variance", "--learner tree --rounds 8", {"setup", "summary", "table"}, 0, "Share of the expected loss"},
      {"lesion",
       "--learner gaussian_nb --folds 3 --metric accuracy --group-features petals=petal_length,petal_width",
       {"setup", "summary", "table"},
       0,
       "petal_length, petal_width"},
      {"compare-learners",
       "--learner gaussian_nb --learner-b knn --folds 2 --repeats 5 --metric accuracy",
       {"setup", "summary", "plot", "folds"},
       1,
       "<th scope=\"col\">A - B</th>"},
      {"nested-cv",
       "--learner knn --param k --values 1 5 --folds 3 --inner-folds 2 --metric accuracy",
       {"setup", "summary", "folds"},
       0,
       "inner mean, k = 5"},
  };
  return c;
}

// Test names show the command, not the bytes of the struct.
void PrintTo(const page_case& c, std::ostream* os) { *os << c.name; }

class ValidationHtml : public ::testing::TestWithParam<page_case> {};

TEST_P(ValidationHtml, PageHasItsSectionsFigureTableAndCommand) {
  const auto& c = GetParam();
  temp_dir dir;
  const std::string cmd = sh_quote(ASSAY_CLI_PATH) + " " + c.name + " " +
                          sh_quote(source_path("examples/data/iris.csv")) + " --target species --threads 1 " + c.args +
                          " --html " + sh_quote((dir / "page.html").string());
  ASSERT_EQ(run_shell(cmd, dir / "out", dir / "err"), 0) << read_file(dir / "err");
  EXPECT_FALSE(read_file(dir / "out").empty()) << "the usual output still goes to standard output";
  EXPECT_FALSE(fs::exists(dir / "page.html.assay-tmp"));
  const std::string page = read_file(dir / "page.html");
  ASSERT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  for (const auto& id : c.sections)
    EXPECT_NE(page.find("<section id=\"" + id + "\""), std::string::npos) << c.name << ": section " << id;
  EXPECT_EQ(count(page, "<svg "), c.svgs) << c.name;
  EXPECT_NE(page.find(c.table), std::string::npos) << c.name;
  // The SVG namespace is a name, not a request; nothing else may mention a URL.
  std::string text = lower(page);
  for (auto at = text.find(" xmlns=\"http://www.w3.org/2000/svg\""); at != std::string::npos;
       at = text.find(" xmlns=\"http://www.w3.org/2000/svg\"", at))
    text.erase(at, 35);
  for (const char* bad : {"<script", "<link", "<iframe", "<img", "@import", "http:", "https:"})
    EXPECT_EQ(text.find(bad), std::string::npos) << c.name << ": " << bad;
  EXPECT_NE(page.find("<th scope=\"row\">assay version</th>"), std::string::npos);
  EXPECT_NE(page.find("<pre class=\"command\"><code>assay " + c.name + " "), std::string::npos) << c.name;
  // Every figure has its own clip path id: several plots on one page do not share one.
  std::vector<std::string> ids;
  for (auto at = page.find("<clipPath id=\""); at != std::string::npos; at = page.find("<clipPath id=\"", at + 1))
    ids.push_back(page.substr(at + 14, page.find('"', at + 14) - at - 14));
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end()) << c.name;
}

TEST_P(ValidationHtml, NamesFromTheDataAreEscaped) {
  const auto& c = GetParam();
  temp_dir dir;
  // iris with the target column renamed to a script, in a file whose name has markup.
  std::string csv = read_file(source_path("examples/data/iris.csv"));
  csv.replace(csv.find("species"), 7, "<script>alert(1)</script>");
  write_file(dir / "h<b>.csv", csv);
  std::string args = c.args;
  const std::string cmd = sh_quote(ASSAY_CLI_PATH) + " " + c.name + " " + sh_quote((dir / "h<b>.csv").string()) +
                          " --target '<script>alert(1)</script>' --threads 1 " + args + " --html " +
                          sh_quote((dir / "page.html").string());
  ASSERT_EQ(run_shell(cmd, dir / "out", dir / "err"), 0) << read_file(dir / "err");
  const std::string page = read_file(dir / "page.html");
  EXPECT_EQ(lower(page).find("<script"), std::string::npos) << c.name;
  EXPECT_EQ(page.find("h<b>"), std::string::npos) << c.name;
  EXPECT_GE(count(page, "&lt;script&gt;alert(1)&lt;/script&gt;"), 2u) << c.name << ": setup table and command";
  EXPECT_GE(count(page, "h&lt;b&gt;.csv"), 3u) << c.name << ": title, setup table and command";
}

TEST_P(ValidationHtml, UnwritablePathFailsWithExit4AndNoFile) {
  const auto& c = GetParam();
  temp_dir dir;
  const auto target = dir / "no-such-dir" / "page.html";
  const std::string cmd = sh_quote(ASSAY_CLI_PATH) + " " + c.name + " " +
                          sh_quote(source_path("examples/data/iris.csv")) + " --target species --threads 1 " + c.args +
                          " --html ";
  EXPECT_EQ(run_shell(cmd + sh_quote(target.string()), dir / "out", dir / "err"), 4) << c.name;
  EXPECT_EQ(read_file(dir / "err").rfind("assay " + c.name + ": cannot write '" + target.string() + "'", 0), 0u)
      << read_file(dir / "err");
  EXPECT_EQ(read_file(dir / "out"), "") << "nothing printed when the page cannot be written";
  EXPECT_FALSE(fs::exists(target));
  EXPECT_EQ(run_shell(cmd + "-", dir / "out", dir / "err"), 2) << c.name;
  EXPECT_NE(read_file(dir / "err").find("--html: needs a file name, not '-'"), std::string::npos)
      << read_file(dir / "err");
}

INSTANTIATE_TEST_SUITE_P(Commands, ValidationHtml, ::testing::ValuesIn(cases()), [](const auto& info) {
  std::string n = info.param.name;
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
});

// The permutation page's histogram counts every permutation once: the bins in its table add up to
// the number of permutations, and the p-value interval is Clopper-Pearson of the count.
TEST(ValidationHtmlPermutation, HistogramCountsEveryPermutation) {
  validation::permutation_result r;
  r.learner = "x";
  r.metric = "accuracy";
  r.score = 0.9;
  r.permuted = {0.3, 0.35, 0.35, 0.4, 0.5, 0.55, 0.9, 0.31, 0.32, 0.33};
  r.p_value = 2.0 / 11;  // one permutation scored 0.9 (at least as good)
  const std::string page = validation_page(r, {"t", "", {{"File", "f.csv"}}, ""});
  const auto table = page.substr(page.find("<section id=\"table\""));
  double total = 0;
  for (auto at = table.find("</td><td>"); at != std::string::npos; at = table.find("</td><td>", at + 1)) {
    const auto end = table.find("</td>", at + 9);
    total += std::stod(table.substr(at + 9, end - at - 9));
  }
  EXPECT_EQ(total, 10.0);
  // scipy.stats.binomtest(1, 10).proportion_ci('exact') = (0.0025286, 0.4450161)
  EXPECT_NE(page.find("[0.00252858, 0.445016]"), std::string::npos);
  EXPECT_NE(page.find("(1 of 10 at least as good)"), std::string::npos);
}

// The interval's end points are where the corrected resampled t-test (checked against SciPy in
// tests/stats) of the scores against that value has p = 1 - level.
TEST(CorrectedMeanInterval, EndPointsAreWhereTheCorrectedTestRejects) {
  const std::vector<double> scores{0.81, 0.79, 0.84, 0.9, 0.77, 0.86, 0.83, 0.8, 0.85, 0.82};
  for (double level : {0.9, 0.95, 0.99}) {
    const auto ci = corrected_mean_interval(scores, 90, 10, level);
    ASSERT_TRUE(ci.has_value());
    for (double end : {ci->lo, ci->hi}) {
      std::vector<double> d;
      for (double s : scores) d.push_back(s - end);
      const auto t = stats::corrected_resampled_t_test(std::span<const double>(d), 90, 10);
      EXPECT_NEAR(t.test.p_value, 1 - level, 1e-9) << level;
    }
  }
  EXPECT_FALSE(corrected_mean_interval(std::vector<double>{0.8}, 90, 10).has_value());
  EXPECT_FALSE(corrected_mean_interval(std::vector<double>{0.8, NAN}, 90, 10).has_value());
  EXPECT_FALSE(corrected_mean_interval(scores, 0, 10).has_value());
}

std::size_t count_tag(const std::string& svg, const std::string& tag) { return count(svg, "<" + tag + " "); }

TEST(PlotSvg, ErrorBarsBandsScatterAndBars) {
  plot::chart c;
  c.id = "a<b";
  c.square = false;
  plot::series s;
  s.name = "test";
  s.x = {1, 2, 3};
  s.y = {0.5, 0.6, 0.7};
  s.y_err = {0.1, NAN, 0.05};  // no bar at the second point
  s.band = true;
  c.lines.push_back(s);
  const std::string svg = plot::render_svg(c);
  EXPECT_EQ(count(svg, "stroke-width=\"1.3\""), 2u) << "two error bars";
  EXPECT_EQ(count_tag(svg, "polygon"), 2u) << "the band breaks at the point without a bar";
  EXPECT_NE(svg.find("<clipPath id=\"a-b-clip\">"), std::string::npos);
  EXPECT_NE(svg.find("clip-path=\"url(#a-b-clip)\""), std::string::npos);

  auto sc = plot::scatter_with_diagonal("<t>", "A", "B", {0.2, 0.4, 0.9}, {0.3, 0.4, 0.1}, {"x<y", "", "z"});
  ASSERT_EQ(sc.lines.size(), 2u);
  EXPECT_TRUE(sc.lines[0].dashed);
  EXPECT_EQ(sc.x_min, sc.y_min);
  EXPECT_EQ(sc.x_max, sc.y_max);
  EXPECT_LT(sc.x_min, 0.1);
  EXPECT_GT(sc.x_max, 0.9);
  const std::string ssvg = plot::render_svg(sc);
  EXPECT_EQ(count_tag(ssvg, "circle"), 3u);
  EXPECT_EQ(count_tag(ssvg, "polyline"), 1u) << "only the diagonal is a line";
  EXPECT_NE(ssvg.find(">x&lt;y</text>"), std::string::npos);
  EXPECT_NE(ssvg.find("&lt;t&gt;"), std::string::npos);
  EXPECT_EQ(ssvg.find("<t>"), std::string::npos);

  plot::chart h;
  h.y_max = 5;
  plot::series bars;
  bars.x = {0.25, 0.75};
  bars.y = {2, 5};
  bars.bar_width = 0.5;
  h.lines.push_back(bars);
  const std::string hsvg = plot::render_svg(h);
  // Square plot: 380 px for a range of 1, so a bar 0.5 wide is 190 px; heights 2/5 and 5/5 of 380.
  EXPECT_NE(hsvg.find("width=\"190.00\" height=\"152.00\""), std::string::npos) << hsvg;
  EXPECT_NE(hsvg.find("width=\"190.00\" height=\"380.00\""), std::string::npos) << hsvg;
}

}  // namespace
}  // namespace assay::html::test
