// Unit tests of typed column reading (include/assay/io/table.hpp): column selection, number
// parsing and its exactness, and every refusal with its whole message.
#include "assay/io/table.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <random>

#include "io_test_util.hpp"

namespace assay::io::test {
namespace {

table read(const std::string& text, const std::vector<column_spec>& specs, const std::string& name = "x.csv") {
  auto r = csv_reader::from_string(text, name);
  return read_table(r, specs);
}

void expect_read_error(const std::string& text, const std::vector<column_spec>& specs, error_kind kind,
                       const std::string& message) {
  expect_error([&] { read(text, specs); }, kind, message);
}

const column_spec score{"score", column_type::number, "--score"};

TEST(Table, ColumnsByNameAndIndex) {
  const std::string text = "label,score,w\nb,0.5,1\na,0.25,2\nb,1e-3,0\n";
  auto t = read(text, {{"score", column_type::number, ""}, {"1", column_type::label, ""}, {"3", column_type::weight, ""}});
  EXPECT_EQ(t.source, "x.csv");
  EXPECT_EQ(t.rows, 3u);
  ASSERT_EQ(t.columns.size(), 3u);
  EXPECT_EQ(t.columns[0].name, "score");
  EXPECT_EQ(t.columns[0].numbers, (std::vector<double>{0.5, 0.25, 0.001}));
  EXPECT_EQ(t.columns[1].name, "label");
  EXPECT_EQ(t.columns[1].levels, (std::vector<std::string>{"b", "a"}));  // first-seen order
  EXPECT_EQ(t.columns[1].codes, (std::vector<std::int32_t>{0, 1, 0}));
  EXPECT_EQ(t.columns[2].name, "w");
  EXPECT_EQ(t.columns[2].numbers, (std::vector<double>{1, 2, 0}));
  // The same column twice is fine.
  auto twice = read(text, {{"2", column_type::number, ""}, {"score", column_type::probability, ""}});
  EXPECT_EQ(twice.columns[0].numbers, twice.columns[1].numbers);
}

TEST(Table, HeaderNameBeatsIndex) {
  // A column called "1" is found by name, not taken as the first column.
  auto t = read("a,1\nx,7\n", {{"1", column_type::number, ""}});
  EXPECT_EQ(t.columns[0].name, "1");
  EXPECT_EQ(t.columns[0].numbers, (std::vector<double>{7}));
}

TEST(Table, TsvAndFilePath) {
  temp_file f(".tsv", "label\tscore\n1\t0.5\n");
  auto t = read_table(f.path(), {{"label", column_type::label, ""}, score});
  EXPECT_EQ(t.source, f.path());
  EXPECT_EQ(t.columns[1].numbers, (std::vector<double>{0.5}));
  expect_error([] { read_table("/nonexistent/p.csv", {score}); }, error_kind::io,
               "cannot open '/nonexistent/p.csv': No such file or directory");
}

TEST(Table, ManyLabelLevels) {
  // More than 16 levels switches the interner to a hash map; codes must stay right.
  std::string text = "label\n";
  std::vector<std::string> seq;
  for (int i = 0; i < 200; ++i) seq.push_back("c" + std::to_string((i * 37) % 50));
  for (const auto& s : seq) text += s + "\n";
  auto t = read(text, {{"label", column_type::label, ""}});
  ASSERT_EQ(t.columns[0].codes.size(), seq.size());
  EXPECT_EQ(t.columns[0].levels.size(), 50u);
  for (std::size_t i = 0; i < seq.size(); ++i) {
    EXPECT_EQ(t.columns[0].levels[static_cast<std::size_t>(t.columns[0].codes[i])], seq[i]);
  }
}

TEST(Table, UnknownColumn) {
  expect_read_error("label,score\n1,2\n", {{"scor", column_type::number, "--score"}}, error_kind::usage,
                    "--score: x.csv: no column named \"scor\" (columns: \"label\", \"score\")");
  expect_read_error("label,score\n1,2\n", {{"", column_type::number, ""}}, error_kind::usage,
                    "x.csv: no column named \"\" (columns: \"label\", \"score\")");
  expect_read_error("label,score\n1,2\n", {{"3", column_type::number, "--score"}}, error_kind::usage,
                    "--score: x.csv: column index 3 is out of range (the file has 2 columns)");
  expect_read_error("label,score\n1,2\n", {{"0", column_type::number, "--label"}}, error_kind::usage,
                    "--label: x.csv: column index 0 is out of range (the file has 2 columns)");
  // A huge index is a name that does not exist, not an overflow.
  expect_read_error("a\n1\n", {{"99999999999999999999", column_type::number, ""}}, error_kind::usage,
                    "x.csv: no column named \"99999999999999999999\" (columns: \"a\")");
}

TEST(Table, DuplicateHeaderNames) {
  // A name two columns share is refused when a column is looked up by it, naming both positions.
  const std::string text = "label,score,w,x,score\n1,0.5,1,2,0.25\n";
  expect_read_error(text, {score}, error_kind::usage,
                    "--score: x.csv: column \"score\" is ambiguous: header columns 2 and 5 both have that name");
  // Unused duplicates are fine; a duplicate can still be read by its index.
  auto t = read(text, {{"label", column_type::label, ""}, {"5", column_type::number, ""}, {"w", column_type::weight, ""}});
  EXPECT_EQ(t.columns[1].name, "score");
  EXPECT_EQ(t.columns[1].numbers, (std::vector<double>{0.25}));
  // A name that is also an index is a name first, and ambiguous if doubled.
  expect_read_error("2,a,2\n1,2,3\n", {{"2", column_type::number, "--y"}}, error_kind::usage,
                    "--y: x.csv: column \"2\" is ambiguous: header columns 1 and 3 both have that name");
  // Three of a kind: the first two are named.
  expect_read_error("s,s,s\n1,2,3\n", {{"s", column_type::number, ""}}, error_kind::usage,
                    "x.csv: column \"s\" is ambiguous: header columns 1 and 2 both have that name");
  EXPECT_EQ(find_column({"a", "b", "a"}, "b", "w"), 1u);
  EXPECT_EQ(find_column({"a", "b", "a"}, "3", "w"), 2u);
  EXPECT_EQ(find_column({"a", "b", "a"}, "c", "w"), 3u);
}

TEST(Table, LabelsAndColumnNamesMustBeUtf8) {
  // A label that is not UTF-8: file, line, column and the bytes as \xNN.
  expect_read_error("label,score\na,1\nb\xe9\xff,2\n", {{"label", column_type::label, "--label"}}, error_kind::data,
                    "x.csv:3: column 'label': label \"b\\xe9\\xff\" is not valid UTF-8 (byte \\xe9 at offset 1); "
                    "assay reads text as UTF-8");
  // Valid multi-byte labels are kept as they are.
  auto t = read("label\n\xc3\xa9t\xc3\xa9\n\xe2\x82\xac\n", {{"label", column_type::label, ""}});
  EXPECT_EQ(t.columns[0].levels, (std::vector<std::string>{"\xc3\xa9t\xc3\xa9", "\xe2\x82\xac"}));
  // A surrogate (U+D800 as ED A0 80) and an overlong '/' (C0 AF) are not UTF-8.
  expect_read_error("y\n\xed\xa0\x80\n", {{"y", column_type::label, ""}}, error_kind::data,
                    "x.csv:2: column 'y': label \"\\xed\\xa0\\x80\" is not valid UTF-8 (byte \\xed at offset 0); "
                    "assay reads text as UTF-8");
  expect_read_error("y\n\xc0\xaf\n", {{"y", column_type::label, ""}}, error_kind::data,
                    "x.csv:2: column 'y': label \"\\xc0\\xaf\" is not valid UTF-8 (byte \\xc0 at offset 0); "
                    "assay reads text as UTF-8");
  // The name of a column that is read; an unread column may have any name.
  expect_read_error("\n\nlab\xff" "el,score\nb,1\n", {{"1", column_type::label, "--label"}}, error_kind::data,
                    "--label: x.csv:3: the name of column 1 \"lab\\xffel\" is not valid UTF-8 (byte \\xff at offset 3); "
                    "assay reads text as UTF-8");
  EXPECT_EQ(read("l\xff,score\nb,1\n", {score}).rows, 1u);
  // A number column shows the bytes it could not parse the same way.
  expect_read_error("score\n0.\xff\n", {score}, error_kind::data,
                    "x.csv:2: column 'score': cannot parse \"0.\\xff\" as a number");
}

TEST(Table, HeaderOnlyAndEmpty) {
  expect_read_error("label,score\n", {score}, error_kind::data, "x.csv: no data rows after the header");
  expect_read_error("label,score\n\n\r\n", {score}, error_kind::data, "x.csv: no data rows after the header");
  expect_read_error("", {score}, error_kind::data, "x.csv: empty file: expected a header row");
}

TEST(Table, UnparsableNumbers) {  // (an empty cell, also quoted, is a missing value: EmptyCellIsAMissingValue)
  for (const std::string bad : {"0.7.1", "1e", "1e+", " ", "abc", "0x10", "1,5", "--1", "+-1", "++1", "+", ".", "1 2",
                                "1d", "1_000", "e5"}) {
    const std::string text = "label,score\n1,0.5\n0,\"" + bad + "\"\n";
    expect_read_error(text, {score}, error_kind::data,
                      "x.csv:3: column 'score': cannot parse \"" + bad + "\" as a number");
  }
  // Control characters are escaped and long values cut in the message.
  expect_read_error("score\n\"a\tb\"\n", {score}, error_kind::data, "x.csv:2: column 'score': cannot parse \"a\\x09b\" as a number");
  expect_read_error("score\n" + std::string(50, 'z') + "\n", {score}, error_kind::data,
                    "x.csv:2: column 'score': cannot parse \"" + std::string(40, 'z') + "...\" as a number");
  // The line of a record after a multi-line one.
  expect_read_error("label,score\n\"a\nb\",1\nc,x\n", {score}, error_kind::data,
                    "x.csv:4: column 'score': cannot parse \"x\" as a number");
}

TEST(Table, NumberSyntaxAccepted) {
  auto t = read("score\n+0.5\n -1.5 \n.25\n5.\n1E3\n007\n-0\n\t2\t\n", {score});
  const std::vector<double> want{0.5, -1.5, 0.25, 5.0, 1000.0, 7.0, -0.0, 2.0};
  ASSERT_EQ(t.columns[0].numbers, want);
  EXPECT_TRUE(std::signbit(t.columns[0].numbers[6]));
}

TEST(Table, NonFiniteRefused) {
  for (const std::string bad : {"nan", "NaN", "-nan", "inf", "-inf", "+inf", "Infinity", "1e999", "-1e400"}) {
    for (auto type : {column_type::number, column_type::weight, column_type::probability}) {
      expect_read_error("score\n" + bad + "\n", {{"score", type, ""}}, error_kind::data,
                        "x.csv:2: column 'score': value \"" + bad + "\" is not a finite number");
    }
  }
}

TEST(Table, Weights) {
  const column_spec w{"w", column_type::weight, "--weight"};
  auto t = read("w\n0\n-0\n2.5\n", {w});
  EXPECT_EQ(t.columns[0].numbers, (std::vector<double>{0, 0, 2.5}));
  expect_read_error("w\n1\n-1\n", {w}, error_kind::data,
                    "x.csv:3: column 'w': weight \"-1\" is negative (weights must be >= 0)");
  expect_read_error("w\n-1e-300\n", {w}, error_kind::data,
                    "x.csv:2: column 'w': weight \"-1e-300\" is negative (weights must be >= 0)");
}

TEST(Table, Probabilities) {
  const column_spec p{"p", column_type::probability, "--proba"};
  auto t = read("p\n0\n1\n0.5\n1e-300\n", {p});
  EXPECT_EQ(t.columns[0].numbers, (std::vector<double>{0, 1, 0.5, 1e-300}));
  for (const std::string bad : {"1.5", "-0.1", "1.0000000000000002", "-1e-300"}) {
    expect_read_error("p\n" + bad + "\n", {p}, error_kind::data,
                      "x.csv:2: column 'p': probability \"" + bad + "\" is outside [0, 1]");
  }
}

TEST(Table, EmptyCellIsAMissingValue) {
  // Refused after the whole input is read (the count and the first); without a way to skip rows
  // (the reader overload) the message does not offer drop_missing.
  expect_read_error("label,score\n,1\n", {{"label", column_type::label, "--label"}}, error_kind::data,
                    "x.csv:2: column 'label': empty cell; 1 row has a missing value (an empty cell in a column that is "
                    "read), this is the first; fill or remove them");
  // An empty number is missing, not a zero.
  expect_read_error("label,score\n1,\n2,0.5\n3,\n", {score}, error_kind::data,
                    "x.csv:2: column 'score': empty cell; 2 rows have a missing value (an empty cell in a column that "
                    "is read), this is the first; fill or remove them");
  // Skipped and counted with drop_missing; a label seen only on a skipped row is no level; an unused
  // column's empty cell does not count; a bad value on a skipped row is still an error.
  auto r = csv_reader::from_string("label,score,note\na,1,\nb,,x\n,0.5,x\nc,0.25,\n", "x.csv");
  const table t = read_table(r, {{"label", column_type::label, ""}, score}, true);
  EXPECT_EQ(t.rows, 2u);
  EXPECT_EQ(t.missing.rows, 2u);
  EXPECT_EQ(t.missing.first_line, 3u);
  EXPECT_EQ(t.missing.first_column, "score");
  EXPECT_EQ(t.columns[0].levels, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(t.columns[1].numbers, (std::vector<double>{1, 0.25}));
  auto bad = csv_reader::from_string("label,score\n,abc\n", "x.csv");
  expect_error([&] { read_table(bad, {{"label", column_type::label, ""}, score}, true); }, error_kind::data,
               "x.csv:2: column 'score': cannot parse \"abc\" as a number");
  // From a path: refused naming drop_missing (a parameter; the CLI shows its option), or skipped.
  temp_file f(".csv", "label,score\n1,0.5\n,0.5\n0,\n0,0.1\n");
  expect_error([&] { read_table(f.path(), {{"label", column_type::label, ""}, score}); }, error_kind::data,
               f.path() + ":3: column 'label': empty cell; 2 rows have a missing value (an empty cell in a column that "
               "is read), this is the first; fill or remove them, or skip them with drop_missing");
  csv_options drop;
  drop.drop_missing = true;
  const table d = read_table(f.path(), {{"label", column_type::label, ""}, score}, drop);
  EXPECT_EQ(d.rows, 2u);
  EXPECT_EQ(d.missing.rows, 2u);
  EXPECT_EQ(d.columns[1].numbers, (std::vector<double>{0.5, 0.1}));
}

TEST(Table, RaggedRowNamesTheLine) {
  expect_read_error("label,score\n1,2\n3\n", {score}, error_kind::data, "x.csv:3: expected 2 fields as in the header, found 1");
}

// ---- exactness of number parsing --------------------------------------------------------------

// Shortest round-trip text (what Python's repr() and fmt's "{}" write) must parse to the identical
// double. 200000 random bit patterns (all exponents, subnormals included) printed three ways,
// compared bit for bit with the double they came from and with std::from_chars. Deterministic.
TEST(ParseDouble, ShortestRoundTripIsExact) {
  std::mt19937_64 rng(12345);
  for (int i = 0; i < 200000; ++i) {
    const double x = std::bit_cast<double>(rng());
    if (!std::isfinite(x)) continue;
    for (const std::string& s : {fmt::format("{}", x), fmt::format("{:.17g}", x), fmt::format("{:e}", x)}) {
      double got = 0;
      ASSERT_TRUE(parse_double(s, got)) << s;
      double ref = 0;
      const auto r = std::from_chars(s.data(), s.data() + s.size(), ref);
      ASSERT_EQ(r.ec, std::errc()) << s;
      if (s == fmt::format("{:e}", x)) {
        // Six digits are not a round trip: compare with from_chars only.
        ASSERT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(ref)) << s;
      } else {
        ASSERT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(x)) << s;
      }
    }
  }
}

// Strings as Python 3's repr() writes them (exponent with sign and two digits, "-0.0", ...),
// against constants defined independently of any parser.
TEST(ParseDouble, PythonReprStrings) {
  struct known {
    const char* text;
    double value;
  };
  const known cases[] = {
      {"0.1", 0.1},
      {"1e-05", 1e-5},
      {"1e+16", 1e16},
      {"5e-324", std::numeric_limits<double>::denorm_min()},
      {"2.2250738585072014e-308", std::numeric_limits<double>::min()},
      {"1.7976931348623157e+308", std::numeric_limits<double>::max()},
      {"2.220446049250313e-16", std::numeric_limits<double>::epsilon()},
      {"0.30000000000000004", 0.1 + 0.2},
      {"-0.0", -0.0},
      {"123456789012345.67", 123456789012345.67},
      {"9007199254740993", 9007199254740992.0},  // 2^53 + 1 rounds to even
  };
  for (const auto& c : cases) {
    double got = 1;
    ASSERT_TRUE(parse_double(c.text, got)) << c.text;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(c.value)) << c.text;
  }
}

TEST(ParseDouble, WholeFieldOnly) {
  double x = 0;
  EXPECT_TRUE(parse_double(" 1.5\t", x));
  EXPECT_EQ(x, 1.5);
  EXPECT_TRUE(parse_double("nan", x));  // parses; read_table refuses it
  EXPECT_TRUE(std::isnan(x));
  for (const char* bad : {"", "  ", "1.5x", "x1.5", "1 .5", "+-2", "++2", "+", "- 1", "1e", "0.7.1"}) {
    EXPECT_FALSE(parse_double(bad, x)) << bad;
  }
}

}  // namespace
}  // namespace assay::io::test
