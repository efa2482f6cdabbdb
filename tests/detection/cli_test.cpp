// `assay detection` end to end: output names and numbers, intervals, the PR figure and the HTML
// page, exit codes and whole messages for bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/run_cli.hpp"

namespace {

using assay::test::run_assay;
using assay::test::show_args;

const std::string data = "tests/detection/data/";  // run_assay runs in the source tree
const std::vector<std::string> fine = {"detection", "--gt", data + "fine_gt.json", "--dt", data + "fine_dt.json"};

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

void expect_error(const std::vector<std::string>& args, int code, const std::string& message) {
  const auto r = run_assay(args);
  EXPECT_EQ(r.exit_code, code) << show_args(args) << "\n" << r.err;
  EXPECT_EQ(r.err, message + "\n") << show_args(args);
  EXPECT_EQ(r.out, "") << show_args(args);
}

TEST(DetectionCli, CocoJsonHasTheTwelveNamesAndReferenceValues) {
  const auto r = run_assay(with(fine, {"--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"})
    EXPECT_TRUE(j["stats"].contains(k)) << k;
  // The same value the numpy reference gives (tests/detection/data/expected.json, case "fine").
  EXPECT_EQ(j["stats"]["AP"].get<double>(), 0.13590419923116284);
  EXPECT_EQ(j["per_category"].size(), 4u);
  EXPECT_FALSE(j.contains("stats_ci"));
}

TEST(DetectionCli, VocProtocols) {
  const auto r = run_assay(with(fine, {"--protocol", "voc07", "--format", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["mAP"].get<double>(), 0.37661777815517805);
}

TEST(DetectionCli, CocoIntervalsBracketTheEstimateAndNameTheMethod) {
  const auto r = run_assay(with(fine, {"--ci", "0.9", "--bootstrap", "20", "--seed", "3", "-f", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ci_method"], "bootstrap percentile, resampling images, 20 replicates, seed 3");
  EXPECT_EQ(j["ci_level"].get<double>(), 0.9);
  ASSERT_EQ(j["stats_ci"].size(), 12u);
  const auto ap = j["stats_ci"]["AP"];
  EXPECT_LT(ap[0].get<double>(), ap[1].get<double>());
  // The same seed gives the same interval (the numbers do not depend on threads or runs).
  const auto again = nlohmann::json::parse(run_assay(with(fine, {"--ci", "0.9", "--bootstrap", "20", "--seed", "3",
                                                                 "-f", "json"}))
                                               .out);
  EXPECT_EQ(again["stats_ci"], j["stats_ci"]);
}

TEST(DetectionCli, VocIntervalInJsonAndText) {
  auto r = run_assay(with(fine, {"--protocol", "voc", "--ci", "--bootstrap", "40", "-f", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["mAP_ci"].size(), 2u);
  EXPECT_EQ(j["ci_method"], "bootstrap percentile, resampling images, 40 replicates, seed 0");
  r = run_assay(with(fine, {"--protocol", "voc", "--ci", "--bootstrap", "40"}));
  EXPECT_NE(r.out.find("Interval: 95% bootstrap percentile, resampling images, 40 replicates, seed 0\n"),
            std::string::npos)
      << r.out;
}

TEST(DetectionCli, PlotAndHtmlFiles) {
  assay::test::temp_dir dir;
  const std::string svg = (dir.path() / "pr.svg").string(), html = (dir.path() / "det.html").string();
  const auto r = run_assay(with(fine, {"--plot", svg, "--html", html, "--ci", "--bootstrap", "20"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string s = assay::test::read_file(svg), h = assay::test::read_file(html);
  EXPECT_EQ(s.rfind("<svg", 0), 0u);
  EXPECT_EQ(s.find("</svg>") + 7, s.size());
  EXPECT_NE(s.find("class0 (AP "), std::string::npos);  // legend names the class and its AP
  for (const char* part : {"id=\"setup\"", "id=\"metrics\"", "id=\"per-class\"", "id=\"pr-curves\"", "AR100",
                           "bootstrap percentile, resampling images, 20 replicates, seed 0", "<polyline"})
    EXPECT_NE(h.find(part), std::string::npos) << part;
  EXPECT_EQ(h.find("<script"), std::string::npos);
}

TEST(DetectionCli, BadOptionsWholeMessages) {
  expect_error(with(fine, {"--ci", "1.5"}), 2,
               "assay detection: --ci: the level is 1.5, but must be between 0 and 1 (e.g. 0.95)");
  expect_error(with(fine, {"--ci", "0"}), 2,
               "assay detection: --ci: the level is 0, but must be between 0 and 1 (e.g. 0.95)");
  expect_error(with(fine, {"--ci", "abc"}), 2, "assay detection: --ci: cannot parse \"abc\" as a finite number");
  expect_error(with(fine, {"--ci", "--bootstrap", "0"}), 2, "assay detection: --bootstrap: 0 is outside [1, 1000000]");
  expect_error(with(fine, {"--seed", "3"}), 2, "assay detection: --seed needs --ci");
}

TEST(DetectionCli, BadFilesWholeMessages) {
  expect_error(with(fine, {"--html", "-"}), 2,
               "assay detection: --html: needs a file name, not '-' (standard output carries the report)");
  expect_error(with(fine, {"--plot", "/nonexistent/pr.svg"}), 4,
               "assay detection: cannot write '/nonexistent/pr.svg': No such file or directory");
  expect_error({"detection", "--gt", data + "fine_gt.json", "--dt", data + "missing.json"}, 4,
               "assay detection: cannot open 'tests/detection/data/missing.json': No such file or directory");
  expect_error({"detection", "--gt", data + "fine_gt.json", "--dt", data + "few_dt.json"}, 3,
               "assay detection: tests/detection/data/few_dt.json: [8]: category_id 30 is not in the ground truth "
               "file tests/detection/data/fine_gt.json");
  expect_error(with(fine, {"--protocol", "yolo"}), 2, "assay detection: --protocol: yolo not in {coco,voc07,voc}");
}

}  // namespace
