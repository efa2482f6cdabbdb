// Helpers shared by the tests of include/assay/io.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

#include "assay/error.hpp"
#include "assay/io/csv.hpp"

namespace assay::io::test {

/// Everything a csv_reader yields: the header, the data records and the line each record starts on.
struct parsed {
  std::vector<std::string> header;
  std::size_t header_line = 0;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> lines;
  char delimiter = 0;
  bool operator==(const parsed&) const = default;
};

inline parsed drain(csv_reader& r) {
  parsed p;
  p.header = r.header();
  p.header_line = r.line();
  p.delimiter = r.delimiter();
  std::vector<std::string_view> fields;
  while (r.next(fields)) {
    p.rows.emplace_back(fields.begin(), fields.end());
    p.lines.push_back(r.line());
  }
  return p;
}

inline parsed parse(const std::string& text, const std::string& name = "x.csv", const csv_options& o = {}) {
  auto r = csv_reader::from_string(text, name, o);
  return drain(r);
}

/// Runs `f`, which must throw assay::error of `kind` with exactly `message`.
inline void expect_error(const std::function<void()>& f, error_kind kind, const std::string& message) {
  try {
    f();
  } catch (const assay::error& e) {
    EXPECT_EQ(e.what(), message);
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(kind)) << message;
    return;
  }
  ADD_FAILURE() << "no assay::error thrown; expected: " << message;
}

/// A file in the temporary directory, removed when this object dies.
class temp_file {
 public:
  temp_file(const std::string& suffix, const std::string& content) {
    static int counter = 0;
    path_ = (std::filesystem::temp_directory_path() /
             ("assay_io_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + suffix))
                .string();
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~temp_file() { std::remove(path_.c_str()); }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace assay::io::test
