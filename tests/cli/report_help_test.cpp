// `assay report --help` and docs/cli.md describe the same options.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

std::set<std::string> long_options(const std::string& text, const std::regex& re) {
  std::set<std::string> out;
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) out.insert((*it)[1].str());
  return out;
}

TEST(report_help, lists_every_option_of_docs_cli_md_and_no_other) {
  const cli_result r = run_assay({"report", "--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // Option names at the start of a help line ("  -l,--label COL", "  --task TASK").
  const auto in_help = long_options(r.out, std::regex(R"((?:^|\n)  (?:-[a-z],)?(--[a-z][a-z-]*))"));
  // Option names in the first column of the docs' option table ("| `-l, --label COL` |").
  const std::string doc = read_file(std::filesystem::path(ASSAY_SOURCE_DIR) / "docs" / "cli.md");
  const auto in_docs = long_options(doc, std::regex(R"(\n\| `(?:-[a-z], )?(--[a-z][a-z-]*))"));
  EXPECT_GE(in_help.size(), 15u);
  EXPECT_EQ(in_help, in_docs);
  EXPECT_NE(r.out.find("Exit codes: 0 success, 1 internal error, 2 usage error, 3 bad input data, 4 file I/O error."),
            std::string::npos);
}

TEST(report_help, main_help_names_the_command) {
  const cli_result r = run_assay({"--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("report"), std::string::npos);
  const cli_result none = run_assay({});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.out, "");
  EXPECT_FALSE(none.err.empty());
}

}  // namespace
}  // namespace assay::test
