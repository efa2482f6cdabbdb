// `assay detection --iou-type segm|keypoints` end to end: names, pycocotools' numbers (from
// tests/detection/data/masks/expected.json, written by generate_coco_masks.py), intervals, the HTML
// page, and whole messages for bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_cli.hpp"

namespace {

using assay::test::run_assay;

const std::string dir = "tests/detection/data/masks/";  // run_assay runs in the source tree

nlohmann::json expected_case(const std::string& name) {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/detection/data/masks/expected.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return nlohmann::json::parse(ss.str())["cases"][name];
}

std::vector<std::string> args(const std::string& name, const std::string& type, std::vector<std::string> more = {}) {
  std::vector<std::string> a = {"detection", "--gt", dir + name + "_gt.json", "--dt", dir + name + "_dt.json",
                                "--iou-type", type};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

TEST(DetectionMasksCli, SegmJsonHasPycocotoolsNumbersAndIntervals) {
  const auto r = run_assay(args("segm", "segm", {"-f", "json", "--ci", "--bootstrap", "20"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["iou_type"], "segm");
  const auto e = expected_case("segm");
  const char* names[12] = {"AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(j["stats"][names[i]].get<double>(), e["stats"][i].get<double>()) << names[i];
  EXPECT_EQ(j["stats_ci"].size(), 12u);
}

TEST(DetectionMasksCli, KeypointsHaveTenNumbersAndTakeSigmas) {
  auto r = run_assay(args("kp", "keypoints", {"-f", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  const auto e = expected_case("kp");
  const char* names[10] = {"AP", "AP50", "AP75", "APm", "APl", "AR", "AR50", "AR75", "ARm", "ARl"};
  ASSERT_EQ(j["stats"].size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(j["stats"][names[i]].get<double>(), e["stats"][i].get<double>()) << names[i];
  r = run_assay(args("kp5", "keypoints", {"-f", "json", "--sigmas", "0.05,0.06,0.07,0.08,0.1"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["stats"]["AP"].get<double>(), expected_case("kp5")["stats"][0].get<double>());
}

TEST(DetectionMasksCli, HtmlPageNamesTheIouType) {
  const std::string page = ::testing::TempDir() + "masks_kp.html";
  const auto r = run_assay(args("kp", "keypoints", {"--html", page}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream f(page);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_NE(ss.str().find("COCO evaluation (keypoints)"), std::string::npos);
  EXPECT_NE(ss.str().find("AR75, OKS 0.75"), std::string::npos);
}

TEST(DetectionMasksCli, BadInputIsAUsageOrDataError) {
  auto r = run_assay(args("kp5", "keypoints"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("kp5_gt.json: annotations[0]: field 'keypoints' must hold 51 numbers"), std::string::npos)
      << r.err;
  r = run_assay(args("segm", "segm", {"--protocol", "voc"}));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--iou-type segm: needs --protocol coco"), std::string::npos) << r.err;
  r = run_assay(args("segm", "bbox"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("segm_dt.json: [0]: missing field 'bbox'"), std::string::npos) << r.err;
}

}  // namespace
