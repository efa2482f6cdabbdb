// Checks shared by the command-line tests (tests/cli): a failing command gives exactly one message on
// standard error, a given exit code and nothing on standard output.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/run_cli.hpp"

namespace assay::test {

using args_t = std::vector<std::string>;

/// Runs `assay args...` and expects standard error to be `message` whole, exit code `code` (2: usage)
/// and an empty standard output.
inline void expect_error(const args_t& args, const std::string& message, int code = 2) {
  const cli_result r = run_assay(args);
  EXPECT_EQ(r.err, message) << show_args(args);
  EXPECT_EQ(r.exit_code, code) << show_args(args);
  EXPECT_EQ(r.out, "") << show_args(args);
}

}  // namespace assay::test
