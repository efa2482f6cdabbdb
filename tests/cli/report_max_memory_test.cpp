// assay report --max-memory: the same output as in memory (text and JSON), and its option errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>
#include <random>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

TEST(ReportMaxMemory, SameOutputAsInMemory) {
  temp_dir dir;
  std::string text = "y,p,w,pred\n";
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 120000; ++i) {
    const bool pos = u(g) < 0.4;
    text += fmt::format("{},{},{},{}\n", pos ? "1" : "0", std::round((0.7 * u(g) + (pos ? 0.3 : 0)) * 1000) / 1000,
                        std::round(u(g) * 20) * 0.1, u(g) < 0.8 ? (pos ? "1.0" : "0") : "1");
  }
  const std::string path = dir.file("preds.csv", text);
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--score", "p"}, std::vector<std::string>{"--score", "p", "--weight", "w"},
        std::vector<std::string>{"--pred", "pred", "--weight", "w", "--format", "json"},
        std::vector<std::string>{"--score", "p", "--format", "json", "--beta", "2", "--threshold", "0.4"},
        std::vector<std::string>{"--score", "p", "--ci", "--bootstrap-replicates", "300", "--format", "json"},
        std::vector<std::string>{"--pred", "pred", "--ci", "0.9", "--ci-method", "exact"}}) {
    std::vector<std::string> args{"report", path, "--label", "y"};
    args.insert(args.end(), extra.begin(), extra.end());
    const cli_result mem = run_assay(args);
    args.insert(args.end(), {"--max-memory", "1M"});
    const cli_result capped = run_assay(args);
    EXPECT_EQ(mem.exit_code, 0) << mem.err;
    EXPECT_EQ(capped.exit_code, 0) << capped.err;
    EXPECT_EQ(capped.out, mem.out);
    EXPECT_EQ(capped.err, "");
  }
}

TEST(ReportMaxMemory, OptionErrors) {
  const std::string data = std::string(ASSAY_SOURCE_DIR) + "/examples/data/asah.csv";
  cli_result r = run_assay({"report", data, "--label", "label", "--score", "s100b", "--max-memory", "lots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "assay report: --max-memory: cannot parse \"lots\" as a size (e.g. 256M, 2G, 1048576)\n");
  r = run_assay({"report", data, "--label", "label", "--score", "s100b", "--max-memory", "1M", "--ci",
                  "--ci-method", "bootstrap"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "assay report: --max-memory works with --score or --pred on a file (not --proba, --task regression, "
                   "--ci with --weight or --ci-method bootstrap, --max-fpr/--min-tpr/--min-precision/--min-recall, or "
                   "standard input)\n");
}

}  // namespace
}  // namespace assay::test
