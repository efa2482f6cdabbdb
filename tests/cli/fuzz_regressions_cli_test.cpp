// Replays every input on which the command-line mutation fuzzer (fuzz/cli_fuzz.py) once failed,
// with the command line that failed: each must now end with the whole message and exit code in
// tests/cli/fuzz_regressions/cases.json, never an internal error, a signal or a hang (ctest's
// timeout).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

TEST(CliFuzzRegressions, EveryRecordedInputGivesItsMessage) {
  const std::filesystem::path dir = std::filesystem::path(ASSAY_TEST_DIR) / "cli" / "fuzz_regressions";
  std::ifstream f(dir / "cases.json");
  const auto doc = nlohmann::json::parse(f);
  ASSERT_GE(doc["cases"].size(), 2u);
  for (const auto& c : doc["cases"]) {
    const std::string input = c["input"];
    ASSERT_TRUE(std::filesystem::exists(dir / input)) << input;
    std::vector<std::string> args;
    for (const auto& a : c["args"]) args.push_back(a == "{file}" ? input : a.get<std::string>());
    temp_dir work;  // outputs (--html, --output) land here, not in the source tree
    std::filesystem::copy_file(dir / input, work.path() / input);
    const cli_result r = run_assay(args, "", work.path().string());
    EXPECT_EQ(r.err, c["stderr"].get<std::string>()) << input;
    EXPECT_EQ(r.exit_code, c["exit"].get<int>()) << input;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << input;
  }
}

}  // namespace
}  // namespace assay::test
