// Helpers for running the built `assay` binary from tests.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace assay::test {

struct run_result {
  int code = -1;
  std::string out;  ///< standard output, with standard error appended after it
};

/// Runs `assay ARGS` through the shell, capturing stdout and stderr (2>&1).
inline run_result run_assay(const std::string& args) {
  const std::string cmd = std::string(ASSAY_CLI_PATH) + " " + args + " 2>&1";
  run_result r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  std::size_t got;
  while ((got = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), got);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("assay_validation_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

inline void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

inline std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
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
