// csv_reader::skip_lines: a piece of a file read with the header line in front, told the data lines
// before it, names every record by the file's line, in line() and in messages, as a reader of the
// whole file does (what the out-of-core reader and the MPI parts rely on).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"

namespace assay::io {
namespace {

// The line of every record, read from `text`, skipping `skip` lines after the header.
std::vector<std::size_t> lines_of(const std::string& text, std::size_t skip) {
  csv_reader r = csv_reader::from_string(text, "f.csv");
  r.skip_lines(skip);
  std::vector<std::string_view> fields;
  std::vector<std::size_t> out;
  while (r.next(fields)) out.push_back(r.line());
  return out;
}

// The message of reading `text` as a table of columns y (label) and s (number); "" when none.
std::string message_of(const std::string& text, std::size_t skip, std::uint64_t* first_missing = nullptr) {
  try {
    csv_reader r = csv_reader::from_string(text, "f.csv");
    r.skip_lines(skip);
    const table t = read_table(r, {{"y", column_type::label, "y"}, {"s", column_type::number, "s"}}, true);
    if (first_missing != nullptr) *first_missing = t.missing.first_line;
    return "";
  } catch (const error& e) {
    return e.what();
  }
}

TEST(CsvSkipLines, APieceNamesTheFilesLines) {
  for (const std::string eol : {"\n", "\r\n"}) {
    std::vector<std::string> rows;
    for (int i = 0; i < 12; ++i) rows.push_back(std::to_string(i % 2) + ",0." + std::to_string(i) + eol);
    rows.insert(rows.begin() + 4, eol);  // a blank line: counted, not a record
    const std::string header = "y,s" + eol;
    std::string whole = header;
    for (const auto& r : rows) whole += r;
    const std::vector<std::size_t> all = lines_of(whole, 0);
    ASSERT_EQ(all.size(), 12U);
    for (std::size_t cut = 0; cut <= rows.size(); ++cut) {
      std::string piece = header;
      for (std::size_t k = cut; k < rows.size(); ++k) piece += rows[k];
      const std::vector<std::size_t> got = lines_of(piece, cut);
      // The records of the piece are the last got.size() records of the file, on the same lines.
      ASSERT_LE(got.size(), all.size());
      EXPECT_TRUE(std::equal(got.begin(), got.end(), all.end() - static_cast<std::ptrdiff_t>(got.size())))
          << "cut at row " << cut;
    }
  }
}

TEST(CsvSkipLines, MessagesAndMissingRowsNameTheFilesLine) {
  const std::string header = "y,s\n";
  std::vector<std::string> rows;
  for (int i = 0; i < 10; ++i) rows.push_back(std::to_string(i % 2) + ",0." + std::to_string(i) + "\n");
  for (const auto& [bad, want] : {std::pair<std::string, std::string>{"1,0.7.1\n", "f.csv:10: column 's': cannot parse "
                                                                                   "\"0.7.1\" as a number"},
                                  {"1,0.5,3\n", "f.csv:10: expected 2 fields as in the header, found 3"}}) {
    std::vector<std::string> r = rows;
    r[8] = bad;  // line 10 of the file
    for (std::size_t cut = 0; cut <= 8; ++cut) {
      std::string piece = header;
      for (std::size_t k = cut; k < r.size(); ++k) piece += r[k];
      EXPECT_EQ(message_of(piece, cut), want) << "cut at row " << cut;
    }
  }
  std::vector<std::string> r = rows;
  r[6] = "1,\n";  // line 8: a missing value
  for (std::size_t cut = 0; cut <= 6; ++cut) {
    std::string piece = header;
    for (std::size_t k = cut; k < r.size(); ++k) piece += r[k];
    std::uint64_t first = 0;
    EXPECT_EQ(message_of(piece, cut, &first), "");
    EXPECT_EQ(first, 8U) << "cut at row " << cut;
  }
}

}  // namespace
}  // namespace assay::io
