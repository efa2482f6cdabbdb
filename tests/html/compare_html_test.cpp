// `assay compare --html FILE`: the page exists, is self-contained, escapes names from the data, has
// its sections, and shows the numbers of the text output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <string>

#include "html/html_test_util.hpp"

namespace assay::html::test {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

TEST(CompareHtml, PageHasItsSectionsAndIsSelfContained) {
  temp_dir dir;
  const std::string cmd = sh_quote(ASSAY_CLI_PATH) + " compare " + sh_quote(source_path("examples/data/asah.csv")) +
                          " --label outcome --pos-label Poor --score s100b --score ndka --html " +
                          sh_quote((dir / "c.html").string());
  ASSERT_EQ(run_shell(cmd, dir / "out", dir / "err"), 0) << read_file(dir / "err");
  const std::string page = read_file(dir / "c.html");
  ASSERT_FALSE(page.empty());
  for (const char* id : {"setup", "auc", "delong", "mcnemar", "verdict"})
    EXPECT_NE(page.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  for (const char* bad : {"<script", "<link", "<iframe", "<img", "url(", "@import", "http:", "https:", "//"})
    EXPECT_EQ(lower(page).find(bad), std::string::npos) << bad;
  // scikit-learn 1.2.1 roc_auc_score on aSAH: 0.7313685636856369 and 0.6119579945799458 (6 digits shown).
  EXPECT_NE(page.find("0.731369"), std::string::npos);
  EXPECT_NE(page.find("0.611958"), std::string::npos);
  EXPECT_NE(page.find("assay compare"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "c.html.assay-tmp"));
  EXPECT_NE(read_file(dir / "out").find("DeLong"), std::string::npos);  // the usual output still goes to stdout
}

TEST(CompareHtml, NamesFromTheDataAreEscaped) {
  temp_dir dir;
  write_file(dir / "hostile.csv",
             "y,\"<script>alert(1)</script>\",b&c\n1,0.9,0.8\n1,0.7,0.4\n1,0.6,0.65\n0,0.3,0.5\n0,0.2,0.1\n0,0.55,0.3\n");
  const std::string cmd = sh_quote(ASSAY_CLI_PATH) + " compare " + sh_quote((dir / "hostile.csv").string()) +
                          " --label y --score '<script>alert(1)</script>' --score 'b&c' --html " +
                          sh_quote((dir / "c.html").string());
  ASSERT_EQ(run_shell(cmd, dir / "out", dir / "err"), 0) << read_file(dir / "err");
  const std::string page = read_file(dir / "c.html");
  EXPECT_EQ(lower(page).find("<script"), std::string::npos);
  EXPECT_GE(count(page, "&lt;script&gt;alert(1)&lt;/script&gt;"), 3u);  // title, setup table, AUC table
  EXPECT_GE(count(page, "b&amp;c"), 3u);
}

TEST(CompareHtml, UnwritablePathFailsWithExit4AndNoFile) {
  temp_dir dir;
  const auto target = dir / "no-such-dir" / "c.html";
  const std::string cmd = sh_quote(ASSAY_CLI_PATH) + " compare " + sh_quote(source_path("examples/data/asah.csv")) +
                          " --label outcome --pos-label Poor --score s100b --score ndka --html ";
  EXPECT_EQ(run_shell(cmd + sh_quote(target.string()), dir / "out", dir / "err"), 4);
  EXPECT_NE(read_file(dir / "err").find("assay compare"), std::string::npos) << read_file(dir / "err");
  EXPECT_EQ(read_file(dir / "out"), "");
  EXPECT_FALSE(fs::exists(target));
  EXPECT_EQ(run_shell(cmd + "-", dir / "out", dir / "err"), 2);
}

// Two independent samples (the first 60 aSAH patients against the other 53, threshold 0.2): the
// page's sections and pROC 1.18.0's numbers (tests/cli/compare_samples_proc.json: roc.test(paired =
// FALSE): AUCs 0.725625 and 0.727679, t = -0.0195039, df = 110.791, p = 0.984474; 14 and 15 errors).
TEST(CompareHtml, TwoSamplesPage) {
  temp_dir dir;
  std::ifstream in(source_path("examples/data/asah.csv"));
  std::string line, header, a, b;
  std::getline(in, header);
  for (int i = 1; std::getline(in, line); ++i) (i <= 60 ? a : b) += line + "\n";
  write_file(dir / "a&1.csv", header + "\n" + a);
  write_file(dir / "b.csv", header + "\n" + b);
  const std::string cmd = sh_quote(ASSAY_CLI_PATH) + " compare " + sh_quote((dir / "a&1.csv").string()) + " " +
                          sh_quote((dir / "b.csv").string()) +
                          " --label outcome --pos-label Poor --score s100b --threshold 0.2 --html " +
                          sh_quote((dir / "s.html").string());
  ASSERT_EQ(run_shell(cmd, dir / "out", dir / "err"), 0) << read_file(dir / "err");
  const std::string page = read_file(dir / "s.html");
  for (const char* id : {"setup", "samples", "errors", "delong", "verdict"})
    EXPECT_NE(page.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  for (const char* bad : {"<script", "<link", "<iframe", "<img", "url(", "@import", "http:", "https:"})
    EXPECT_EQ(lower(page).find(bad), std::string::npos) << bad;
  for (const char* number : {"0.725625", "0.727679", "-0.0195039", "110.791", "0.984474"})
    EXPECT_NE(page.find(number), std::string::npos) << number;
  EXPECT_NE(page.find("a&amp;1.csv"), std::string::npos);  // file names are escaped
  EXPECT_EQ(page.find("a&1.csv"), std::string::npos);
  EXPECT_NE(page.find("--threshold 0.2"), std::string::npos) << "the command that reproduces the page";
  EXPECT_NE(read_file(dir / "out").find("Unpaired DeLong"), std::string::npos);  // stdout keeps the text
}

}  // namespace
}  // namespace assay::html::test
