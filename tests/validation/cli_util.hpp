// Helpers for running the built `assay` binary from tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_cli.hpp"

namespace assay::test {

struct run_result {
  int code = -1;
  std::string out;  ///< standard output, with standard error appended after it
};

/// Runs `assay ARGS` (ARGS split at spaces; no shell) through the shared spawner of
/// tests/cli/run_cli.hpp, with standard error appended to standard output.
inline run_result run_assay(const std::string& args) {
  std::vector<std::string> argv;
  std::istringstream words(args);
  for (std::string w; words >> w;) argv.push_back(w);
  const cli_result r = run_assay(argv);
  return {r.exit_code, r.out + r.err};
}

inline std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("assay_validation_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

/// Splits CSV text without quoting into rows of fields.
inline std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::string cell;
    std::istringstream ls(line);
    while (std::getline(ls, cell, ',')) f.push_back(cell);
    if (!line.empty() && line.back() == ',') f.emplace_back();
    rows.push_back(std::move(f));
  }
  return rows;
}

inline std::string data_path(const std::string& name) {
  return std::string(ASSAY_SOURCE_DIR) + "/examples/data/" + name;
}

}  // namespace assay::test
