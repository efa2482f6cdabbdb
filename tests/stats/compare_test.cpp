// assay compare: the library comparison and the CLI end to end, on the aSAH data carried in
// proc_asah.json, against pROC's numbers.
#include "assay/stats/compare.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::load_reference;
using testing::num;
using testing::nums;

const nlohmann::json& asah_pair(const std::string& name) {
  for (const auto& c : load_reference("proc_asah.json")["paired"]) {
    if (c["name"] == name) return c;
  }
  throw std::runtime_error("no case " + name);
}

std::vector<std::int32_t> labels(const nlohmann::json& j) {
  std::vector<std::int32_t> v;
  for (const auto& e : j) v.push_back(static_cast<std::int32_t>(num(e)));
  return v;
}

TEST(Compare, LibraryMatchesPROCAndCountsMcNemar) {
  const auto& c = asah_pair("asah_s100b_ndka");
  const auto y = labels(c["labels"]);
  const auto a = nums(c["a"]), b = nums(c["b"]);
  const auto r = compare_models(y, a, b, "s100b", "ndka");
  EXPECT_NEAR(r.delong.test.statistic, num(c["z"]), 1e-9);
  EXPECT_NEAR(r.delong.test.p_value, num(c["p_value"]), 1e-9);
  EXPECT_NEAR(r.a.auc.auc.v, num(c["auc_a"]), 1e-9);
  // McNemar counts by hand from the data at threshold 0.5.
  std::int64_t n01 = 0, n10 = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const bool ra = (a[i] >= 0.5) == (y[i] == 1), rb = (b[i] >= 0.5) == (y[i] == 1);
    n01 += ra && !rb;
    n10 += !ra && rb;
  }
  EXPECT_EQ(r.counts.n01, n01);
  EXPECT_EQ(r.counts.n10, n10);
  EXPECT_EQ(r.mcnemar.p_value, mcnemar(n01, n10).p_value);
  EXPECT_NE(r.verdict.find("No significant difference in AUC"), std::string::npos);
}

TEST(Compare, CliJsonEndToEnd) {
  const auto& c = asah_pair("asah_s100b_wfns");
  const auto y = labels(c["labels"]);
  const auto a = nums(c["a"]), b = nums(c["b"]);
  const auto dir = std::filesystem::temp_directory_path() / ("assay_compare_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto csv = dir / "asah.csv";
  {
    std::ofstream f(csv);
    f << "outcome,s100b,wfns\n";
    f.precision(17);
    for (std::size_t i = 0; i < y.size(); ++i) f << (y[i] ? "Poor" : "Good") << "," << a[i] << "," << b[i] << "\n";
  }
  const auto out = dir / "out.json";
  const std::string cmd = std::string(ASSAY_CLI_PATH) + " compare " + csv.string() +
                          " --label outcome --pos-label Poor --score s100b --score wfns --format json -o " + out.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(out);
  const auto j = nlohmann::json::parse(in);
  EXPECT_NEAR(j["delong"]["z"].get<double>(), num(c["z"]), 1e-9);
  EXPECT_NEAR(j["delong"]["p_value"].get<double>(), num(c["p_value"]), 1e-9);
  EXPECT_NEAR(j["delong"]["diff_ci"][0].get<double>(), num(c["diff_lower"]), 1e-9);
  EXPECT_NEAR(j["delong"]["diff_ci"][1].get<double>(), num(c["diff_upper"]), 1e-9);
  EXPECT_EQ(j["mcnemar"]["method"], "exact");
  EXPECT_EQ(j["models"][0]["name"], "s100b");
  EXPECT_EQ(j["n_positive"], 41);
  // Bad input: one score column is a usage error (exit code 2) with the option named.
  const std::string bad = std::string(ASSAY_CLI_PATH) + " compare " + csv.string() +
                          " --label outcome --pos-label Poor --score s100b 2> " + (dir / "err.txt").string();
  const int status = std::system(bad.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  std::ifstream err(dir / "err.txt");
  std::string line;
  std::getline(err, line);
  EXPECT_EQ(line, "assay compare: --score: give exactly two score columns (--score A --score B); got 1");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace assay::stats
