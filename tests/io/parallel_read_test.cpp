// The parallel column reader (used for regular files over 16 MiB) must give exactly what the
// serial reader gives, including label levels in first-seen order, and must fall back to the
// serial reader (with its exact line numbers) on quotes and errors.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "assay/error.hpp"
#include "assay/io/table.hpp"

namespace assay::io {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("assay_parallel_" + name)).string();
}

// Writes `rows` rows "label,score,w" with labels drawn so that a new label first appears late.
std::string write_big(const std::string& name, std::size_t rows, const std::string& inject_at_end = "") {
  std::string path = temp_path(name);
  std::ofstream f(path, std::ios::binary);
  f << "label,score,w\n";
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  for (std::size_t i = 0; i < rows; ++i) {
    const char* label = i < rows * 3 / 4 ? (rng() % 2 ? "pos" : "neg") : (rng() % 3 == 0 ? "late" : "neg");
    f << label << ',' << fmt::format("{}", u(rng)) << ',' << (rng() % 4) << (i % 7 == 0 ? "\r\n" : "\n");
    if (i % 100000 == 5) f << "\n";  // blank lines are skipped
  }
  f << inject_at_end;
  return path;
}

const std::vector<column_spec> specs{{"label", column_type::label, "--label"},
                                     {"score", column_type::number, "--score"},
                                     {"w", column_type::weight, "--weight"}};

table serial(const std::string& path) {
  csv_reader r(path);
  return read_table(r, specs);  // the reader overload never goes parallel
}

TEST(ParallelRead, SameAsSerialOnLargeFile) {
  const std::string path = write_big("same.csv", 1'200'000);
  ASSERT_GT(std::filesystem::file_size(path), std::uintmax_t{16} << 20) << "file too small to take the parallel path";
  table p = read_table(path, specs);
  table s = serial(path);
  if (std::thread::hardware_concurrency() > 1) EXPECT_GE(p.threads, 2u) << "the parallel path was not taken";
  EXPECT_EQ(s.threads, 1u);
  ASSERT_EQ(p.rows, s.rows);
  EXPECT_EQ(p.rows, 1'200'000u);
  EXPECT_EQ(p.columns[0].levels, s.columns[0].levels);
  EXPECT_EQ(p.columns[0].levels, (std::vector<std::string>{s.columns[0].levels}));
  EXPECT_EQ(p.columns[0].codes, s.columns[0].codes);
  EXPECT_EQ(p.columns[1].numbers, s.columns[1].numbers);
  EXPECT_EQ(p.columns[2].numbers, s.columns[2].numbers);
  std::remove(path.c_str());
}

TEST(ParallelRead, ErrorNearTheEndHasTheSerialLineNumber) {
  const std::string path = write_big("error.csv", 1'200'000, "neg,0.7.1,1\n");
  // 1 header line + 1.2M rows + 12 blank lines; the bad row is the next line.
  const std::string expected = fmt::format("{}:{}: column 'score': cannot parse \"0.7.1\" as a number", path,
                                           1 + 1'200'000 + 12 + 1);
  try {
    read_table(path, specs);
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()), expected);
    EXPECT_EQ(e.kind(), error_kind::data);
  }
  std::remove(path.c_str());
}

TEST(ParallelRead, QuotedFieldWithLineBreakFallsBackToSerial) {
  // A quoted label holding a line feed, late in the file: a cut there would split the record.
  const std::string path = write_big("quoted.csv", 1'200'000, "\"multi\nline\",0.25,1\n");
  table p = read_table(path, specs);
  EXPECT_EQ(p.threads, 1u);
  EXPECT_EQ(p.rows, 1'200'001u);
  EXPECT_EQ(p.columns[0].levels.back(), "multi\nline");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace assay::io
