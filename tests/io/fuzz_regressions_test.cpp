// Replays every input on which the CSV fuzz target (fuzz/csv_fuzz.cpp) once failed, through the
// same check: no crash, only assay::error thrown, and the same records, line numbers and messages
// whatever the chunk size. The inputs in fuzz_regressions/ are libFuzzer's crash files, found against
// the reader as it was before the fuzzing fixes (see fuzz/run.sh); each of them failed then.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "../../fuzz/csv_fuzz_check.hpp"

namespace {

TEST(FuzzRegressions, EveryRecordedInputPasses) {
  const std::filesystem::path dir = std::filesystem::path(ASSAY_TEST_DIR) / "io" / "fuzz_regressions";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 50u) << "the regression inputs are missing from " << dir;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(csv_fuzz_check(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), "")
        << f.filename();
  }
}

}  // namespace
