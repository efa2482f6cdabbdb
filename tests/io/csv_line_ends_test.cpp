// LF, CRLF and lone-CR (classic Mac OS) line ends against Python's csv module: the records and the
// line each starts on, as tests/io/make_csv_line_ends.py recorded them (csv.reader over
// io.StringIO(text, newline=''); peer version in the JSON), for several chunk sizes of the serial
// reader; and through read_table from a file, where the parallel reader must give up on a lone CR
// so that the serial reader's records and line numbers hold.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../../src/io/parallel_table.hpp"
#include "assay/io/table.hpp"
#include "io_test_util.hpp"

namespace assay::io::test {
namespace {

nlohmann::json load_cases() {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/io/csv_line_ends.json");
  return nlohmann::json::parse(f);
}

TEST(CsvLineEnds, SameRecordsAndLinesAsPythonCsv) {
  const auto doc = load_cases();
  ASSERT_GE(doc["cases"].size(), 300u);
  std::size_t lone_cr = 0;
  for (const auto& c : doc["cases"]) {
    const std::string text = c["text"];
    const auto records = c["records"].get<std::vector<std::vector<std::string>>>();
    const auto lines = c["lines"].get<std::vector<std::size_t>>();
    for (std::size_t chunk : {16u, 17u, 23u, 4096u}) {
      csv_options o;
      o.chunk_bytes = chunk;
      o.delimiter = ',';
      parsed p;
      try {
        p = parse(text, "x.csv", o);
      } catch (const error& e) {
        ADD_FAILURE() << nlohmann::json(text).dump() << ": " << e.what();
        continue;
      }
      ASSERT_EQ(p.header, records[0]) << nlohmann::json(text).dump();
      EXPECT_EQ(p.header_line, lines[0]) << nlohmann::json(text).dump();
      EXPECT_EQ(p.rows, std::vector<std::vector<std::string>>(records.begin() + 1, records.end()))
          << nlohmann::json(text).dump() << " chunk " << chunk;
      EXPECT_EQ(p.lines, std::vector<std::size_t>(lines.begin() + 1, lines.end()))
          << nlohmann::json(text).dump() << " chunk " << chunk;
    }
    for (std::size_t i = 0; i + 1 < text.size(); ++i) lone_cr += text[i] == '\r' && text[i + 1] != '\n';
  }
  EXPECT_GT(lone_cr, 300u);  // the cases do exercise lone CRs
}

TEST(CsvLineEnds, ErrorsCountLoneCrAsALine) {
  // Line 4 in a CR-only file (Python's csv line_num counts the same lines).
  expect_error(
      [] {
        auto r = csv_reader::from_string("y,s\r1,0.5\r\r0,x\r", "m.csv");
        read_table(r, {{"s", column_type::number, ""}});
      },
               error_kind::data, "m.csv:4: column 's': cannot parse \"x\" as a number");
  expect_error([] { parse("a,b\r1,2\r3\r"); }, error_kind::data, "x.csv:3: expected 2 fields as in the header, found 1");
  // A CR inside quotes is data and a line: the next record starts on line 4.
  expect_error([] { parse("a,b\r\"1\r2\",2\r3\r"); }, error_kind::data,
               "x.csv:4: expected 2 fields as in the header, found 1");
}

// Through read_table from a file: the parallel reader sees no lone CR among its line feeds, so it
// must give up on any, and the serial reader answers with Python's records and lines.
TEST(CsvLineEnds, ParallelReaderGivesUpOnLoneCr) {
  std::string cr_only = "label,score\r", mixed = "label,score\n", late_error = "label,score\n";
  for (int i = 0; i < 2000; ++i) {
    const std::string row = (i % 3 ? "a," : "b,") + std::to_string(i % 10) + ".5";
    cr_only += row + "\r";
    mixed += row + (i == 1500 ? "\r" : "\r\n");
    late_error += row + (i == 1500 ? "\r" : "\n");
  }
  late_error += "a,zz\n";
  const std::vector<column_spec> specs{{"label", column_type::label, ""}, {"score", column_type::number, ""}};
  for (const auto* text : {&cr_only, &mixed}) {
    temp_file f(".csv", *text);
    csv_reader head(f.path());
    table shape;
    shape.source = head.name();
    shape.columns = {column{"label", column_type::label, {}, {}, {}}, column{"score", column_type::number, {}, {}, {}}};
    detail::parallel_settings settings;
    settings.max_threads = 3;
    settings.min_bytes_per_thread = 1;
    EXPECT_FALSE(detail::read_parallel(f.path(), head, shape, {0, 1}, settings).has_value());
    const table t = read_table(f.path(), specs);
    EXPECT_EQ(t.rows, 2000u);
    EXPECT_EQ(t.columns[0].levels, (std::vector<std::string>{"b", "a"}));
    EXPECT_EQ(t.columns[1].numbers[1999], 9.5);
  }
  temp_file f(".csv", late_error);
  expect_error([&] { read_table(f.path(), specs); }, error_kind::data,
               f.path() + ":2002: column 'score': cannot parse \"zz\" as a number");
}

}  // namespace
}  // namespace assay::io::test
