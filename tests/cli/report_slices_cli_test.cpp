// `assay report --by`: whole messages of bad input (the same in memory, with --max-memory and by
// parts), and the sliced JSON on a small file whose numbers are checked by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;
using args_t = std::vector<std::string>;

class report_slices : public ::testing::Test {
 protected:
  temp_dir dir;
  cli_result run(const args_t& args) { return run_assay(args, "", dir.path().string()); }
  // The same message and exit code in memory, read in pieces (--max-memory: a sliced state of the
  // whole file) and by parts (ASSAY_REPORT_BY_PARTS=1: the MPI path on one process).
  void expect_error(const args_t& args, int code, const std::string& message) {
    for (int path = 0; path < 3; ++path) {
      args_t a = args;
      if (path == 1) a.insert(a.end(), {"--max-memory", "1M"});
      if (path == 2) ::setenv("ASSAY_REPORT_BY_PARTS", "1", 1);
      const cli_result r = run(a);
      if (path == 2) ::unsetenv("ASSAY_REPORT_BY_PARTS");
      const std::string how = path == 0 ? "" : path == 1 ? " (in pieces)" : " (by parts)";
      EXPECT_EQ(r.err, message) << show_args(a) << how;
      EXPECT_EQ(r.exit_code, code) << show_args(a) << how;
      EXPECT_EQ(r.out, "") << show_args(a) << how;
    }
  }
  void SetUp() override {
    // 12 rows, two countries; EU: 4 of 6 right, US: 6 of 6 right.
    (void)dir.file("p.csv",
                   "y,s,country,device\n"
                   "1,0.9,EU,phone\n0,0.2,EU,phone\n1,0.4,EU,desktop\n0,0.6,EU,desktop\n1,0.8,EU,phone\n0,0.1,EU,phone\n"
                   "1,0.7,US,phone\n0,0.3,US,desktop\n1,0.9,US,desktop\n0,0.2,US,phone\n1,0.6,US,phone\n0,0.4,US,desktop\n");
    (void)dir.file("one.csv", "y,s,k\n1,0.9,a\n0,0.2,a\n1,0.4,a\n0,0.6,a\n");
    (void)dir.file("empty_key.csv", "y,s,k\n1,0.9,a\n0,0.2,\n1,0.4,a\n0,0.6,\n");
    (void)dir.file("no_rows.csv", "y,s,k\n");
  }
};

TEST_F(report_slices, MissingColumn) {
  expect_error({"report", "p.csv", "--label", "y", "--score", "s", "--by", "region"}, 2,
               "assay report: --by: p.csv: no column named \"region\" (columns: \"y\", \"s\", \"country\", \"device\")\n");
}

TEST_F(report_slices, SameColumnTwice) {
  expect_error({"report", "p.csv", "--label", "y", "--score", "s", "--by", "country", "--by", "country"}, 2,
               "assay report: --by: 'country' is given twice; give two different columns\n");
  // The same column by name and by index.
  expect_error({"report", "p.csv", "--label", "y", "--score", "s", "--by", "country", "--by", "3"}, 2,
               "assay report: --by: the two slice columns are the same column ('country'); give two different "
               "columns\n");
}

TEST_F(report_slices, ThreeColumns) {
  expect_error({"report", "p.csv", "--label", "y", "--score", "s", "--by", "country", "--by", "device", "--by", "y"},
               2, "assay report: --by: given 3 times; give 1 or 2 slice columns\n");
}

TEST_F(report_slices, OneValueIsAllowedWithANote) {
  const cli_result r = run({"report", "one.csv", "--label", "y", "--score", "s", "--by", "k", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["notes"][0], "every row has the same key (a): one slice, the whole table; no test");
  EXPECT_EQ(j["metrics"][0]["slices"][0]["p_value_undefined"], "one slice: there is no rest to compare with");
}

TEST_F(report_slices, EmptyKeyIsBadData) {
  // A slice key must be given on every row: an empty cell is a missing value, refused (exit 3, bad
  // data) unless --drop-missing.
  expect_error({"report", "empty_key.csv", "--label", "y", "--score", "s", "--by", "k"}, 3,
               "assay report: empty_key.csv:3: column 'k': empty cell; 2 rows have a missing value (an empty cell in a "
               "column that is read), this is the first; fill or remove them, or skip them with --drop-missing\n");
}

TEST_F(report_slices, NoRows) {
  expect_error({"report", "no_rows.csv", "--label", "y", "--score", "s", "--by", "k"}, 3,
               "assay report: no_rows.csv: no data rows after the header\n");
}

TEST_F(report_slices, JsonByHand) {
  const cli_result r =
      run({"report", "p.csv", "--label", "y", "--score", "s", "--by", "country", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["by"], json::array({"country"}));
  ASSERT_EQ(j["slices"].size(), 2u);
  EXPECT_EQ(j["slices"][0]["key"], json::array({"EU"}));
  EXPECT_EQ(j["slices"][0]["rows"], 6);
  // EU at 0.5: predicted 1,0,0,1,1,0 against 1,0,1,0,1,0: 4 right of 6. US: all 6 right.
  EXPECT_EQ(j["slices"][0]["report"]["accuracy"], 4.0 / 6);
  EXPECT_EQ(j["slices"][1]["report"]["accuracy"], 1.0);
  const json& acc = j["metrics"][0];
  EXPECT_EQ(acc["name"], "accuracy");
  EXPECT_EQ(acc["overall"], 10.0 / 12);
  EXPECT_EQ(acc["slices"][0]["successes"], 4);
  EXPECT_EQ(acc["slices"][0]["trials"], 6);
  // 6 rows < 10: no test.
  EXPECT_EQ(acc["slices"][0]["p_value_undefined"], "6 rows; a test needs at least 10");
  // Homogeneity: 2 x 2 table [[4, 2], [6, 0]], E = [[5, 1], [5, 1]]: chi2 = 1/5 + 1 + 1/5 + 1 = 2.4.
  EXPECT_NEAR(acc["homogeneity_chi2"]["statistic"].get<double>(), 2.4, 1e-12);
  EXPECT_EQ(acc["homogeneity_chi2"]["df"], 1);
}

}  // namespace
}  // namespace assay::test
