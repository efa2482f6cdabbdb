// Unit tests of the HTML report builder and of `assay report --html` (no browser: see browser_test.cpp).
#include "assay/report/html.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <regex>

#include "html/html_test_util.hpp"

namespace assay::html::test {
namespace {

const std::string script_label = "<script>alert(1)</script>";

TEST(HtmlEscape, SpecialCharactersBecomeEntities) {
  EXPECT_EQ(escape(script_label), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(escape("a&b \"c\" 'd'"), "a&amp;b &quot;c&quot; &#39;d&#39;");
  EXPECT_EQ(escape(std::string("x\0y\x1bz\tw", 7)), "x\uFFFDy\uFFFDz\tw");
  EXPECT_EQ(escape("caf\u00e9 \u6f22"), "caf\u00e9 \u6f22");  // UTF-8 passes through
}

// A CSV whose class labels are markup: the page must show them as text.
std::string hostile_csv() {
  return "y,p\n"
         "\"<script>alert(1)</script>\",\"<script>alert(1)</script>\"\n"
         "\"<script>alert(1)</script>\",\"<img src=x onerror=\"\"alert(2)\"\">\"\n"
         "\"<img src=x onerror=\"\"alert(2)\"\">\",\"<img src=x onerror=\"\"alert(2)\"\">\"\n"
         "\"a&b\",\"<script>alert(1)</script>\"\n";
}

TEST(HtmlReport, MarkupInLabelsIsShownAsText) {
  temp_dir dir;
  write_file(dir / "hostile.csv", hostile_csv());
  report_request q;
  q.path = (dir / "hostile.csv").string();
  q.label = "y";
  q.pred = "p";
  const std::string page = to_html(make_report(q), {q, {}, {}, {}});
  std::string lower = page;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  EXPECT_EQ(count(lower, "<script"), 0u);
  EXPECT_EQ(count(lower, "<img"), 0u);
  EXPECT_EQ(count(lower, "onerror=\""), 0u);
  EXPECT_GE(count(page, "&lt;script&gt;alert(1)&lt;/script&gt;"), 3u);  // matrix header, row header, per-class row
  EXPECT_GE(count(page, "&lt;img src=x onerror=&quot;alert(2)&quot;&gt;"), 3u);
  EXPECT_GE(count(page, "a&amp;b"), 2u);
}

TEST(HtmlReport, NoScriptNoNetworkAndAPolicyThatForbidsBoth) {
  report_request q;
  q.path = source_path("examples/iris_predictions.csv");
  q.label = "species";
  q.proba = {"setosa", "versicolor", "virginica"};
  const std::string page = to_html(make_report(q), {q, {}, {}, {}});
  EXPECT_NE(page.find("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\""), std::string::npos);
  for (const char* bad : {"<script", "<link", "<iframe", "<img", "url(", "@import", "http:", "https:", "//"})
    EXPECT_EQ(page.find(bad), std::string::npos) << bad;
  // Every href is an in-page anchor.
  const std::regex href("href=\"([^\"]*)\"");
  std::size_t anchors = 0;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), href); it != std::sregex_iterator(); ++it, ++anchors)
    EXPECT_EQ((*it)[1].str().substr(0, 1), "#") << (*it)[1].str();
  EXPECT_GE(anchors, 4u);
}

TEST(HtmlReport, HeatMapCellsShowCountAndRowPercentage) {
  // actual 0: 42 right, 8 as class 1; actual 1: 5 as class 0, 45 right; class 2 never occurs.
  confusion_matrix cm(3);
  cm.add(0, 0, 42);
  cm.add(0, 1, 8);
  cm.add(1, 0, 5);
  cm.add(1, 1, 45);
  const std::string t = confusion_heat_map({"a", "b", "c"}, cm);
  EXPECT_NE(t.find("<table class=\"heat\">"), std::string::npos);
  EXPECT_NE(
      t.find("style=\"--p:0.840\" title=\"actual a, predicted a: 42 (84.0% of the actual class)\">42<small>84.0%"),
      std::string::npos);
  EXPECT_NE(t.find("class=\"e\" style=\"--p:0.160\" title=\"actual a, predicted b: 8 (16.0% of the actual class)\""),
            std::string::npos);
  EXPECT_NE(t.find("class=\"d hi\" style=\"--p:0.900\""), std::string::npos);  // 45/50, dark cell: white text
  // An absent class has no row percentage (0/0), not 0%.
  EXPECT_NE(t.find("title=\"actual c, predicted c: 0 (&ndash; of the actual class)\""), std::string::npos);
  EXPECT_EQ(count(t, "<th scope=\"row\">"), 4u);  // 3 classes + total
  EXPECT_EQ(count(t, "<td class="), 9u);
}

// The naive reference: every off-diagonal non-zero cell, sorted by count (ties by index).
std::vector<confused_pair> naive_pairs(const confusion_matrix& cm, std::size_t top) {
  std::vector<confused_pair> all;
  for (std::size_t i = 0; i < cm.classes(); ++i)
    for (std::size_t j = 0; j < cm.classes(); ++j)
      if (i != j && cm(i, j) > 0) all.push_back({i, j, cm(i, j)});
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.count > b.count; });
  all.resize(std::min(top, all.size()));
  return all;
}

TEST(HtmlReport, MostConfusedPairsMatchANaiveSortWithTies) {
  std::mt19937_64 rng(20261126);
  for (int round = 0; round < 200; ++round) {
    const std::size_t k = 2 + rng() % 30, top = rng() % 40;
    confusion_matrix cm(k);
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j)
        if (rng() % 3 == 0) cm.add(i, j, static_cast<double>(rng() % 4));  // many ties and zeros
    const auto got = most_confused_pairs(cm, top), want = naive_pairs(cm, top);
    ASSERT_EQ(got.size(), want.size()) << "round " << round;
    for (std::size_t n = 0; n < got.size(); ++n) {
      EXPECT_EQ(got[n].actual, want[n].actual) << "round " << round << " rank " << n;
      EXPECT_EQ(got[n].predicted, want[n].predicted) << "round " << round << " rank " << n;
      EXPECT_EQ(got[n].count, want[n].count);
    }
  }
}

TEST(HtmlReport, ThousandsOfClassesDegradeToTheMostConfusedPairs) {
  const std::size_t k = 2000;
  confusion_matrix cm(k);
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < k; ++i) {
    labels.push_back("class " + std::to_string(i));
    cm.add(i, i, 10);
    cm.add(i, (i + 1) % k, static_cast<double>(i % 7));
  }
  const std::string t = confusion_heat_map(labels, cm);
  EXPECT_EQ(t.find("class=\"heat\""), std::string::npos);
  EXPECT_NE(t.find("2000 classes are too many"), std::string::npos);
  EXPECT_EQ(count(t, "<tr><td>"), 30u);
  // The largest error count is 6 (i % 7 == 6); the first is class 6 -> class 7: 6 of 16 = 37.5% of its row.
  EXPECT_NE(t.find("<tr><td>1</td><td class=\"t\">class 6</td><td class=\"t\">class 7</td><td>6</td><td>37.5%</td>"),
            std::string::npos);
  EXPECT_LT(t.size(), 10000u);
}

TEST(HtmlReport, ConfidenceIntervalColumnsOnlyWhenSomeRowHasOne) {
  const std::string none = headline_table({{"accuracy", value(0.9), std::nullopt}});
  EXPECT_EQ(none.find("Confidence interval"), std::string::npos);
  const std::string some = headline_table({{"accuracy", value(0.9), interval{0.85, 0.93, "Wilson"}},
                                           {"F1", value::undefined("no positive predictions"), std::nullopt}});
  EXPECT_NE(some.find("<td>0.9</td><td>[0.85, 0.93]</td><td class=\"t\">Wilson</td>"), std::string::npos);
  EXPECT_NE(some.find("undefined</span> (no positive predictions)"), std::string::npos);
  EXPECT_NE(some.find("<td></td><td></td>"), std::string::npos);  // F1 has no interval
}

TEST(HtmlReport, ExtrasAddIntervalsSetupRowsAndFigures) {
  report_request q;
  q.path = source_path("examples/breast_cancer_predictions.csv");
  q.label = "diagnosis";
  q.score = "p_malignant";
  q.pos_label = "malignant";
  html_extras x;
  x.intervals["accuracy"] = {0.95, 0.98, "Wilson <95%>"};
  x.setup.emplace_back("Seed", "42");
  x.figures.push_back({"roc curve!", "ROC <curve>", "caption & more", "<svg class=\"plot\"><rect/></svg>"});
  const std::string page = to_html(make_report(q), x);
  EXPECT_NE(page.find("[0.95, 0.98]</td><td class=\"t\">Wilson &lt;95%&gt;</td>"), std::string::npos);
  EXPECT_NE(page.find("<th scope=\"row\">Seed</th><td>42</td>"), std::string::npos);
  EXPECT_NE(page.find("<figure id=\"roc-curve-\"><svg class=\"plot\"><rect/></svg><figcaption><strong>ROC &lt;curve&gt;"
                      "</strong>. caption &amp; more</figcaption></figure>"),
            std::string::npos);
  EXPECT_EQ(page.find("To reproduce"), std::string::npos);  // no request given
}

// The page holds aggregates only: 100 and 20000 rows of the same classes give pages that differ
// only in the digits of the counts.
TEST(HtmlReport, SizeDoesNotGrowWithRows) {
  temp_dir dir;
  std::mt19937_64 rng(7);
  auto make = [&](const std::string& name, int rows) {
    std::string csv = "y,s\n";
    for (int i = 0; i < rows; ++i)
      csv += (rng() % 2 ? "pos," : "neg,") + std::to_string((rng() % 1000) / 1000.0) + "\n";
    write_file(dir / name, csv);
    report_request q;
    q.path = (dir / name).string();
    q.label = "y";
    q.score = "s";
    q.pos_label = "pos";
    return to_html(make_report(q));
  };
  const std::string small = make("small.csv", 100), large = make("large.csv", 20000);
  EXPECT_LT(large.size(), small.size() + 300);
  EXPECT_LT(large.size(), 40000u);
}

TEST(HtmlReport, CommandLineQuotesForTheShell) {
  report_request q;
  q.path = "my file's.csv";
  q.label = "y";
  q.score = "p";
  q.threshold = 0.3;
  q.pos_label = "M";
  q.zd = zero_division::skip;
  EXPECT_EQ(command_line(q),
            "assay report 'my file'\\''s.csv' --label y --score p --pos-label M --threshold 0.3 --zero-division skip");
}

// Running the command the page shows gives the same report as the run that made the page.
TEST(HtmlCli, TheCommandOnThePageReproducesTheReport) {
  temp_dir dir;
  write_file(dir / "odd name's.csv", "true class,p(pos)\npos,0.9\nneg,0.2\npos,0.35\nneg,0.6\n");
  const std::string cli = ASSAY_CLI_PATH;
  const std::string args = " report " + sh_quote((dir / "odd name's.csv").string()) +
                           " --label 'true class' --score 'p(pos)' --pos-label pos --threshold 0.3 --html " +
                           sh_quote((dir / "r.html").string());
  ASSERT_EQ(run_shell(sh_quote(cli) + args, dir / "first.txt", dir / "first.err"), 0) << read_file(dir / "first.err");
  const std::string page = read_file(dir / "r.html");
  const std::smatch m = [&] {
    std::smatch mm;
    std::regex_search(page, mm, std::regex("<pre class=\"command\"><code>assay([^<]*)</code></pre>"));
    return mm;
  }();
  ASSERT_FALSE(m.empty());
  std::string shown = m[1].str();  // un-escape the entities escape() writes
  for (auto [ent, ch] : {std::pair{"&#39;", "'"}, {"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
    for (std::size_t at; (at = shown.find(ent)) != std::string::npos;) shown.replace(at, std::string(ent).size(), ch);
  ASSERT_EQ(run_shell(sh_quote(cli) + shown, dir / "second.txt", dir / "second.err"), 0)
      << read_file(dir / "second.err");
  EXPECT_EQ(read_file(dir / "second.txt"), read_file(dir / "first.txt"));
  EXPECT_NE(read_file(dir / "first.txt").find(">= 0.3"), std::string::npos);
}

TEST(HtmlCli, UnwritablePathFailsWithExit4AndNoFile) {
  temp_dir dir;
  const std::string cli = ASSAY_CLI_PATH;
  const std::string base = sh_quote(cli) + " report " + sh_quote(source_path("examples/iris_predictions.csv")) +
                           " --label species --pred predicted --html ";
  const auto target = dir / "no-such-dir" / "r.html";
  EXPECT_EQ(run_shell(base + sh_quote(target.string()), dir / "out", dir / "err"), 4);
  const std::string err = read_file(dir / "err");
  EXPECT_NE(err.find("assay report"), std::string::npos) << err;
  EXPECT_NE(err.find(target.string()), std::string::npos) << err;
  EXPECT_EQ(read_file(dir / "out"), "");  // the HTML is written before the text report
  EXPECT_FALSE(fs::exists(target));
  // A directory as the target: nothing left behind in it (no temporary file).
  fs::create_directory(dir / "d");
  EXPECT_EQ(run_shell(base + sh_quote((dir / "d").string()), dir / "out", dir / "err"), 4);
  EXPECT_NE(read_file(dir / "err").find((dir / "d").string()), std::string::npos);
  EXPECT_TRUE(fs::is_empty(dir / "d"));
  // '-' is refused: standard output already carries the report.
  EXPECT_EQ(run_shell(base + "-", dir / "out", dir / "err"), 2);
}

TEST(HtmlCli, WritesThePageAndTheUsualOutput) {
  temp_dir dir;
  const std::string cli = ASSAY_CLI_PATH;
  ASSERT_EQ(run_shell(sh_quote(cli) + " report " + sh_quote(source_path("examples/iris_predictions.csv")) +
                          " --label species --pred predicted --html " + sh_quote((dir / "r.html").string()),
                      dir / "out", dir / "err"),
            0)
      << read_file(dir / "err");
  EXPECT_NE(read_file(dir / "out").find("Detailed accuracy by class"), std::string::npos);
  const std::string page = read_file(dir / "r.html");
  for (const char* id : {"setup", "metrics", "confusion", "per-class", "figures"})
    EXPECT_NE(page.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  EXPECT_FALSE(fs::exists(dir / "r.html.assay-tmp"));
}

}  // namespace
}  // namespace assay::html::test

namespace assay::html::test {
namespace {

TEST(HtmlReport, RegressionPageHasNoClassSections) {
  report_request q;
  q.path = source_path("examples/diabetes_predictions.csv");
  q.label = "progression";
  q.pred = "predicted";
  q.task = task_kind::regression;
  const std::string page = to_html(make_report(q));
  EXPECT_NE(page.find("<section id=\"metrics\""), std::string::npos);
  EXPECT_NE(page.find("<th scope=\"row\">Target column</th><td>progression</td>"), std::string::npos);
  EXPECT_EQ(page.find("<section id=\"confusion\""), std::string::npos);
  EXPECT_EQ(page.find("<section id=\"per-class\""), std::string::npos);
  EXPECT_EQ(page.find("<section id=\"figures\""), std::string::npos);
}

}  // namespace
}  // namespace assay::html::test

namespace assay::html::test {
namespace {

TEST(HtmlReport, PerClassTableKeepsTheLargestClassesWhenCapped) {
  temp_dir dir;
  write_file(dir / "three.csv", "y,p\na,a\nb,b\nb,a\nb,b\nc,c\nc,b\n");  // support a 1, b 3, c 2
  report_request q;
  q.path = (dir / "three.csv").string();
  q.label = "y";
  q.pred = "p";
  const report r = make_report(q);
  const std::string all = per_class_table(r), capped = per_class_table(r, 2);
  EXPECT_EQ(count(all, "<th scope=\"row\">"), 9u);  // 3 classes, 3 averages; 3 classes of caret's table
  EXPECT_EQ(count(capped, "<th scope=\"row\">"), 7u);  // 2 + 3 averages; 2 in caret's table
  EXPECT_NE(capped.find("The 2 largest of 3 classes by support are listed"), std::string::npos);
  EXPECT_NE(capped.find("<tr><th scope=\"row\">b</th>"), std::string::npos);
  EXPECT_NE(capped.find("<tr><th scope=\"row\">c</th>"), std::string::npos);
  EXPECT_EQ(capped.find("<tr><th scope=\"row\">a</th>"), std::string::npos);
  EXPECT_LT(capped.find(">b</th>"), capped.find(">c</th>"));  // largest first
}

}  // namespace
}  // namespace assay::html::test
