// `assay detection` end to end: output names and numbers, exit codes and messages for bad input.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct run_result {
  int code;
  std::string out;
};

run_result run(const std::string& args) {
  const std::string cmd = std::string(ASSAY_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WEXITSTATUS(status), out};
}

const std::string data = ASSAY_TEST_DIR "/detection/data/";

TEST(DetectionCli, CocoJsonHasTheTwelveNamesAndReferenceValues) {
  const auto r = run("detection --gt " + data + "fine_gt.json --dt " + data + "fine_dt.json --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"})
    EXPECT_TRUE(j["stats"].contains(k)) << k;
  // The same value the numpy reference gives (tests/detection/data/expected.json, case "fine").
  EXPECT_EQ(j["stats"]["AP"].get<double>(), 0.13590419923116284);
  EXPECT_EQ(j["per_category"].size(), 4u);
}

TEST(DetectionCli, VocProtocols) {
  const auto r = run("detection --gt " + data + "fine_gt.json --dt " + data + "fine_dt.json --protocol voc07 --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["mAP"].get<double>(), 0.37661777815517805);
}

TEST(DetectionCli, BadInputExitCodesAndMessages) {
  auto r = run("detection --gt " + data + "fine_gt.json --dt " + data + "missing.json");
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.out.find("assay detection: cannot open"), std::string::npos) << r.out;
  r = run("detection --gt " + data + "fine_gt.json --dt " + data + "few_dt.json");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.out.find("few_dt.json: [8]: category_id 30 is not in the ground truth file"), std::string::npos) << r.out;
  r = run("detection --gt " + data + "fine_gt.json --dt " + data + "fine_dt.json --protocol yolo");
  EXPECT_EQ(r.code, 2);
}

}  // namespace
