// `assay cv --html FILE`: the page exists, is self-contained, escapes names from the data and has
// the setup, summary and per-split sections with one row per split.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "html/html_test_util.hpp"

namespace assay::html::test {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

TEST(CvHtml, PageHasItsSectionsAndOneRowPerSplit) {
  temp_dir dir;
  const std::string cmd = sh_quote(ASSAY_CLI_PATH) + " cv " + sh_quote(source_path("examples/data/iris.csv")) +
                          " --target species --learner gaussian_nb --folds 4 --repeats 2 --seed 7 --threads 1 --html " +
                          sh_quote((dir / "cv.html").string());
  ASSERT_EQ(run_shell(cmd, dir / "out", dir / "err"), 0) << read_file(dir / "err");
  const std::string page = read_file(dir / "cv.html");
  for (const char* id : {"setup", "summary", "folds"})
    EXPECT_NE(page.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  for (const char* bad : {"<script", "<link", "<iframe", "<img", "url(", "@import", "http:", "https:", "//"})
    EXPECT_EQ(lower(page).find(bad), std::string::npos) << bad;
  EXPECT_NE(page.find("<th scope=\"row\">Random seed</th><td>7</td>"), std::string::npos);
  EXPECT_NE(page.find("repeated-stratified-kfold"), std::string::npos);
  const auto folds = page.find("<section id=\"folds\"");
  ASSERT_NE(folds, std::string::npos);
  EXPECT_EQ(count(page.substr(folds), "<tr><td>"), 8u);  // 4 folds x 2 repeats
  EXPECT_FALSE(fs::exists(dir / "cv.html.assay-tmp"));
  EXPECT_NE(read_file(dir / "out").find("gaussian_nb"), std::string::npos);  // the usual output still on stdout
}

TEST(CvHtml, NamesFromTheDataAreEscaped) {
  temp_dir dir;
  std::string csv = "x,<script>alert(1)</script>\n";
  for (int i = 0; i < 20; ++i) csv += std::to_string(i) + (i % 2 ? ",a&b\n" : ",c<d\n");
  write_file(dir / "h<b>.csv", csv);
  const std::string cmd = sh_quote(ASSAY_CLI_PATH) + " cv " + sh_quote((dir / "h<b>.csv").string()) +
                          " --target '<script>alert(1)</script>' --pos-label 'c<d' --folds 2 --html " + sh_quote((dir / "cv.html").string());
  ASSERT_EQ(run_shell(cmd, dir / "out", dir / "err"), 0) << read_file(dir / "err");
  const std::string page = read_file(dir / "cv.html");
  EXPECT_EQ(lower(page).find("<script"), std::string::npos);
  EXPECT_EQ(page.find("h<b>"), std::string::npos);
  EXPECT_GE(count(page, "&lt;script&gt;alert(1)&lt;/script&gt;"), 1u);  // the target column in the setup table
  EXPECT_GE(count(page, "h&lt;b&gt;.csv"), 2u);                          // title and setup table
}

TEST(CvHtml, UnwritablePathFailsWithExit4AndNoFile) {
  temp_dir dir;
  const auto target = dir / "no-such-dir" / "cv.html";
  const std::string cmd = sh_quote(ASSAY_CLI_PATH) + " cv " + sh_quote(source_path("examples/data/iris.csv")) +
                          " --target species --learner gaussian_nb --html ";
  EXPECT_EQ(run_shell(cmd + sh_quote(target.string()), dir / "out", dir / "err"), 4);
  EXPECT_NE(read_file(dir / "err").find("assay cv"), std::string::npos) << read_file(dir / "err");
  EXPECT_EQ(read_file(dir / "out"), "");
  EXPECT_FALSE(fs::exists(target));
  EXPECT_EQ(run_shell(cmd + "-", dir / "out", dir / "err"), 2);
}

}  // namespace
}  // namespace assay::html::test
