// Unit tests of the delimited-text reader (include/assay/io/csv.hpp): RFC 4180 quoting, line ends,
// BOM, delimiter detection, blank lines, every refusal with its whole message, and a randomized
// differential test of the reader against a reference splitter and against itself across chunk
// sizes.
#include <gtest/gtest.h>

#include <random>

#include "io_test_util.hpp"

namespace assay::io::test {
namespace {

using rows_t = std::vector<std::vector<std::string>>;

TEST(Csv, HeaderAndRows) {
  auto p = parse("label,score\n1,0.9\n0,0.1\n");
  EXPECT_EQ(p.header, (std::vector<std::string>{"label", "score"}));
  EXPECT_EQ(p.header_line, 1u);
  EXPECT_EQ(p.rows, (rows_t{{"1", "0.9"}, {"0", "0.1"}}));
  EXPECT_EQ(p.lines, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(p.delimiter, ',');
}

TEST(Csv, LastRecordWithoutLineBreak) {
  EXPECT_EQ(parse("a,b\n1,2").rows, (rows_t{{"1", "2"}}));
  EXPECT_EQ(parse("a,b\n1,\"2\"").rows, (rows_t{{"1", "2"}}));
  EXPECT_EQ(parse("a,b\n1,").rows, (rows_t{{"1", ""}}));
}

TEST(Csv, QuotedFieldsAndLineNumbers) {
  // Embedded delimiter, doubled quotes, a line break inside quotes, an empty quoted field.
  auto p = parse("name,text\n\"a,b\",\"say \"\"hi\"\"\"\n\"two\nlines\",\"\"\nx,\"three\n\nlines\"\nlast,1\n");
  EXPECT_EQ(p.rows, (rows_t{{"a,b", "say \"hi\""}, {"two\nlines", ""}, {"x", "three\n\nlines"}, {"last", "1"}}));
  // Records start on lines 2, 3 (spans 3-4), 5 (spans 5-7) and 8.
  EXPECT_EQ(p.lines, (std::vector<std::size_t>{2, 3, 5, 8}));
}

TEST(Csv, QuotedHeader) {
  auto p = parse("\"a,1\",\"b\"\"\"\n1,2\n");
  EXPECT_EQ(p.header, (std::vector<std::string>{"a,1", "b\""}));
}

TEST(Csv, QuoteInsideUnquotedFieldIsKept) {
  // RFC 4180 forbids it; the reader keeps the bytes as they are instead of failing.
  EXPECT_EQ(parse("a,b\n5\"x,y\"\n").rows, (rows_t{{"5\"x", "y\""}}));
}

TEST(Csv, Crlf) {
  auto p = parse("a,b\r\n1,2\r\n\"x\r\ny\",\"3\"\r\n4,5");
  EXPECT_EQ(p.header, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p.rows, (rows_t{{"1", "2"}, {"x\r\ny", "3"}, {"4", "5"}}));
  EXPECT_EQ(p.lines, (std::vector<std::size_t>{2, 3, 5}));
  // A lone CR at the very end is a line end too.
  EXPECT_EQ(parse("a,b\r\n1,\"2\"\r").rows, (rows_t{{"1", "2"}}));
  EXPECT_EQ(parse("a,b\r\n1,2\r").rows, (rows_t{{"1", "2"}}));
}

TEST(Csv, ByteOrderMark) {
  auto p = parse("\xEF\xBB\xBFlabel,score\n1,2\n");
  EXPECT_EQ(p.header[0], "label");
  // Only at the start of the file.
  EXPECT_EQ(parse("a,b\n\xEF\xBB\xBF" "1,2\n").rows[0][0], "\xEF\xBB\xBF" "1");
  // A BOM followed by a quoted header field.
  EXPECT_EQ(parse("\xEF\xBB\xBF\"a\",b\n1,2\n").header[0], "a");
}

TEST(Csv, DelimiterDetection) {
  EXPECT_EQ(parse("a\tb\n1\t2\n").delimiter, '\t');
  EXPECT_EQ(parse("a\tb\n1\t2\n").rows, (rows_t{{"1", "2"}}));
  // Both in the header: comma.
  EXPECT_EQ(parse("a\tb,c\n1\t2,3\n").delimiter, ',');
  // By file name, even with commas in the header.
  EXPECT_EQ(parse("a,b\tc\n1,2\t3\n", "x.tsv").delimiter, '\t');
  EXPECT_EQ(parse("a,b\tc\n1,2\t3\n", "x.tab").delimiter, '\t');
  EXPECT_EQ(parse("a,b\tc\n1,2\t3\n", "x.tab").rows, (rows_t{{"1,2", "3"}}));
  // Neither: comma (a one-column file).
  EXPECT_EQ(parse("a\n1\n").delimiter, ',');
  // Leading blank lines do not decide: the first non-blank line does.
  EXPECT_EQ(parse("\n\r\na\tb\n1\t2\n").delimiter, '\t');
  // A long first line is looked at whole, whatever the chunk size.
  const std::string header = std::string(100, 'h') + "\tz";
  csv_options small;
  small.chunk_bytes = 16;
  EXPECT_EQ(parse(header + "\n1\t2\n", "x.csv", small).delimiter, '\t');
  // An explicit delimiter wins.
  csv_options semi;
  semi.delimiter = ';';
  auto p = parse("a;b\n1,5;2\n", "x.tsv", semi);
  EXPECT_EQ(p.rows, (rows_t{{"1,5", "2"}}));
}

TEST(Csv, BlankLinesAreSkipped) {
  auto p = parse("\n\na,b\n\n1,2\r\n\r\n\n3,4\n\n");
  EXPECT_EQ(p.header_line, 3u);
  EXPECT_EQ(p.rows, (rows_t{{"1", "2"}, {"3", "4"}}));
  EXPECT_EQ(p.lines, (std::vector<std::size_t>{5, 8}));
  // In a one-column file an empty value must be quoted to count.
  EXPECT_EQ(parse("a\n1\n\n\"\"\n2\n").rows, (rows_t{{"1"}, {""}, {"2"}}));
  // A line of spaces is not blank.
  EXPECT_EQ(parse("a\n \n").rows, (rows_t{{" "}}));
}

TEST(Csv, HeaderOnly) {
  EXPECT_TRUE(parse("a,b\n").rows.empty());
  EXPECT_TRUE(parse("a,b").rows.empty());
  EXPECT_TRUE(parse("a,b\n\n\n").rows.empty());
}

TEST(Csv, EmptyFile) {
  for (const char* text : {"", "\n", "\r\n\n", "\xEF\xBB\xBF"}) {
    expect_error([&] { parse(text); }, error_kind::data, "x.csv: empty file: expected a header row");
  }
}

TEST(Csv, RaggedRows) {
  expect_error([] { parse("a,b\n1,2\n1,2,3\n"); }, error_kind::data, "x.csv:3: expected 2 fields as in the header, found 3");
  expect_error([] { parse("a,b\n\"1\n\",2\n1\n"); }, error_kind::data, "x.csv:4: expected 2 fields as in the header, found 1");
  expect_error([] { parse("a\tb\tc\n1\t2\n", "x.tsv"); }, error_kind::data,
               "x.tsv:2: expected 3 fields as in the header, found 2");
}

TEST(Csv, UnterminatedQuote) {
  expect_error([] { parse("a,b\n1,\"2\n3,4\n"); }, error_kind::data,
               "x.csv:2: unterminated quoted field (the quote opened on line 2 is never closed)");
  // The record starts on line 2; its second field opens a quote on line 3.
  expect_error([] { parse("a,b\n\"x\ny\",\"z\n\n"); }, error_kind::data,
               "x.csv:2: unterminated quoted field (the quote opened on line 3 is never closed)");
  expect_error([] { parse("\"a,b\n"); }, error_kind::data,
               "x.csv:1: unterminated quoted field (the quote opened on line 1 is never closed)");
}

TEST(Csv, CharacterAfterClosingQuote) {
  expect_error([] { parse("a,b\n\"1\"x,2\n"); }, error_kind::data,
               "x.csv:2: field 1: unexpected character \"x\" after a closing quote");
  expect_error([] { parse("a,b\n1,\"2\" \n"); }, error_kind::data,
               "x.csv:2: field 2: unexpected character \" \" after a closing quote");
  // A lone CR after a closing quote ends the record (as in Python's csv module): "2,3" is the next.
  expect_error([] { parse("a,b\n\"1\"\r2,3\n"); }, error_kind::data, "x.csv:2: expected 2 fields as in the header, found 1");
  expect_error([] { parse("a,b\n\"1\n\n2\"\t,3\n"); }, error_kind::data,
               "x.csv:4: field 1: unexpected character \"\\x09\" after a closing quote");
}

TEST(Csv, NulByte) {
  using namespace std::string_literals;
  expect_error([] { parse("a,b\n1,\0\n"s); }, error_kind::data,
               "x.csv:2: NUL byte: this looks like a binary file, not delimited text");
  expect_error([] { parse("a,b\n1,\"x\ny\0\"\n"s); }, error_kind::data,
               "x.csv:3: NUL byte: this looks like a binary file, not delimited text");
  expect_error([] { parse("a,b\n1,\"x\"\0\n"s); }, error_kind::data,
               "x.csv:2: NUL byte: this looks like a binary file, not delimited text");
  expect_error([] { parse("\0\0\0\0"s); }, error_kind::data,
               "x.csv:1: NUL byte: this looks like a binary file, not delimited text");
}

TEST(Csv, OverLongRecord) {
  csv_options o;
  o.max_record_bytes = 10;
  o.chunk_bytes = 16;
  // A record of exactly 10 bytes with its line break passes; 11 do not.
  EXPECT_EQ(parse("a,b\n1234567,9\n", "x.csv", o).rows, (rows_t{{"1234567", "9"}}));
  EXPECT_EQ(parse("a,b\n12345678,9", "x.csv", o).rows, (rows_t{{"12345678", "9"}}));
  EXPECT_EQ(parse("a,b\n\"12345\",9\n", "x.csv", o).rows, (rows_t{{"12345", "9"}}));
  const std::string message =
      "x.csv:2: record longer than 10 bytes: not a delimited text file, or a quote is never closed";
  expect_error([&] { parse("a,b\n12345678,9\n", "x.csv", o); }, error_kind::data, message);
  expect_error([&] { parse("a,b\n12345678,90", "x.csv", o); }, error_kind::data, message);
  expect_error([&] { parse("a,b\n\"123456\",9\n", "x.csv", o); }, error_kind::data, message);
  expect_error([&] { parse("a,b\n\"1234567,9\n\n\n", "x.csv", o); }, error_kind::data, message);
  // The same for any chunk size, including one holding the whole text.
  o.chunk_bytes = 1 << 20;
  expect_error([&] { parse("a,b\n12345678,9\n", "x.csv", o); }, error_kind::data, message);
  expect_error([&] { parse("a,b\n" + std::string(100000, 'x'), "x.csv", o); }, error_kind::data, message);
  // A header too long.
  expect_error([&] { parse(std::string(50, 'h') + "\n1\n", "x.csv", o); }, error_kind::data,
               "x.csv:1: record longer than 10 bytes: not a delimited text file, or a quote is never closed");
}

TEST(Csv, ForbiddenDelimiters) {
  for (char d : {'"', '\n', '\r'}) {
    csv_options o;
    o.delimiter = d;
    const std::string shown = d == '"' ? "\"\\\"\"" : d == '\n' ? "\"\\x0a\"" : "\"\\x0d\"";
    expect_error([&] { parse("a,b\n", "x.csv", o); }, error_kind::usage, "x.csv: " + shown + " cannot be the field delimiter");
  }
}

TEST(Csv, Files) {
  temp_file f(".csv", "\xEF\xBB\xBF" "a,b\r\n\"1\n2\",3\r\n");
  csv_reader r(f.path());
  auto p = drain(r);
  EXPECT_EQ(r.name(), f.path());
  EXPECT_EQ(p.header, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p.rows, (rows_t{{"1\n2", "3"}}));
  // chunk_bytes 0 is raised to the minimum, not taken as "read nothing".
  csv_options zero;
  zero.chunk_bytes = 0;
  csv_reader z(f.path(), zero);
  EXPECT_EQ(drain(z), p);
  // The name decides TSV for files too.
  temp_file t(".tsv", "a,b\tc\n1,2\t3\n");
  csv_reader rt(t.path());
  EXPECT_EQ(rt.delimiter(), '\t');
}

TEST(Csv, FileErrors) {
  expect_error([] { csv_reader r("/nonexistent/dir/x.csv"); }, error_kind::io,
               "cannot open '/nonexistent/dir/x.csv': No such file or directory");
  const std::string dir = std::filesystem::temp_directory_path().string();
  expect_error([&] { csv_reader r(dir); }, error_kind::io, dir + ": read failed: Is a directory");
  temp_file empty(".csv", "");
  expect_error([&] { csv_reader r(empty.path()); }, error_kind::data, empty.path() + ": empty file: expected a header row");
}

// ---- randomized differential tests ------------------------------------------------------------

// A random well-formed file and what it holds.
struct generated {
  std::string text;
  rows_t records;                  // header first
  std::vector<std::size_t> lines;  // physical line each record starts on
  char delimiter;
};

generated generate(std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  generated g;
  g.delimiter = pick(2) ? ',' : '\t';
  const std::size_t cols = 1 + pick(5), records = 1 + pick(40);
  static constexpr char alphabet[] = {'a', 'b', '1', '.', ' ', ',', '\t', '"', '\n', '\r', 'z', '-'};
  std::size_t line = 1;
  if (pick(4) == 0) g.text += "\xEF\xBB\xBF";
  for (std::size_t r = 0; r < records; ++r) {
    while (pick(5) == 0) {  // blank lines
      g.text += pick(2) ? "\n" : "\r\n";
      ++line;
    }
    std::vector<std::string> rec;
    g.lines.push_back(line);
    for (std::size_t c = 0; c < cols; ++c) {
      std::string f;
      const std::size_t len = pick(4) == 0 ? pick(30) : pick(6);
      for (std::size_t k = 0; k < len; ++k) f += alphabet[pick(sizeof alphabet)];
      // The header is read before the delimiter is known: keep it free of tabs and commas so the
      // detection sees the chosen one.
      if (r == 0) std::erase_if(f, [](char ch) { return ch == ',' || ch == '\t'; });
      const bool needs_quotes = f.find_first_of(std::string{g.delimiter, '"', '\n', '\r'}) != std::string::npos ||
                                (cols == 1 && f.empty());
      if (c) g.text += g.delimiter;
      if (needs_quotes || pick(4) == 0) {
        g.text += '"';
        for (std::size_t k = 0; k < f.size(); ++k) {
          const char ch = f[k];
          g.text += ch;
          if (ch == '"') g.text += '"';
          // Physical lines inside quotes: LF, CRLF (once) and a lone CR each count one.
          if (ch == '\n' || (ch == '\r' && (k + 1 == f.size() || f[k + 1] != '\n'))) ++line;
        }
        g.text += '"';
      } else {
        g.text += f;
      }
      rec.push_back(std::move(f));
    }
    g.records.push_back(std::move(rec));
    if (r + 1 < records || pick(2)) {
      g.text += pick(2) ? "\n" : "\r\n";
      ++line;
    }
  }
  return g;
}

// A straightforward RFC 4180 splitter over a whole string (the reader's rules: BOM, blank lines,
// LF, CRLF or a lone CR ending a record and counting one line, as Python's csv module; no error
// handling, for well-formed text only).
std::pair<rows_t, std::vector<std::size_t>> reference_split(std::string_view s, char delim) {
  rows_t rows;
  std::vector<std::size_t> lines;
  std::size_t i = 0, line = 1;
  if (s.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < s.size()) {
    std::vector<std::string> rec;
    bool quoted_any = false;
    const std::size_t start_line = line;
    for (;;) {
      std::string f;
      if (i < s.size() && s[i] == '"') {
        quoted_any = true;
        ++i;
        for (;;) {
          if (s[i] == '"') {
            if (i + 1 < s.size() && s[i + 1] == '"') {
              f += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          if (s[i] == '\n' || (s[i] == '\r' && (i + 1 == s.size() || s[i + 1] != '\n'))) ++line;
          f += s[i++];
        }
      } else {
        while (i < s.size() && s[i] != delim && s[i] != '\n' && s[i] != '\r') f += s[i++];
      }
      rec.push_back(f);
      if (i < s.size() && s[i] == delim) {
        ++i;
        continue;
      }
      if (i < s.size() && s[i] == '\r') {
        ++i;
        if (i < s.size() && s[i] == '\n') ++i;
        ++line;
      } else if (i < s.size() && s[i] == '\n') {
        ++i;
        ++line;
      }
      break;
    }
    if (rec.size() == 1 && rec[0].empty() && !quoted_any) continue;
    rows.push_back(std::move(rec));
    lines.push_back(start_line);
  }
  return {rows, lines};
}

// Every record the reader gives, or its error message.
std::string describe(const std::string& text, const csv_options& o) {
  try {
    auto p = parse(text, "r.csv", o);
    std::string out = std::string(1, p.delimiter) + "@" + std::to_string(p.header_line);
    for (const auto& h : p.header) out += "|" + h;
    for (std::size_t i = 0; i < p.rows.size(); ++i) {
      out += "\n@" + std::to_string(p.lines[i]);
      for (const auto& f : p.rows[i]) out += "|" + std::to_string(f.size()) + ":" + f;
    }
    return out;
  } catch (const assay::error& e) {
    return std::string("error: ") + e.what();
  }
}

// 400 random well-formed files, each read with every chunk size from 16 to 64 and with one chunk:
// all readings must give the generator's records and lines, as the reference splitter does.
// Deterministic (fixed seed); it fails only if the reader is wrong.
TEST(CsvRandomized, MatchesGeneratorAndReferenceForEveryChunkSize) {
  std::mt19937_64 rng(20261126);
  for (int iter = 0; iter < 400; ++iter) {
    const generated g = generate(rng);
    auto [ref_rows, ref_lines] = reference_split(g.text, g.delimiter);
    ASSERT_FALSE(ref_rows.empty());
    ASSERT_EQ(ref_rows, g.records) << "reference splitter disagrees with the generator (test bug)";
    ASSERT_EQ(ref_lines, g.lines);
    rows_t data(g.records.begin() + 1, g.records.end());
    std::vector<std::size_t> data_lines(g.lines.begin() + 1, g.lines.end());
    for (std::size_t chunk : {std::size_t{16}, std::size_t{17}, std::size_t{23}, std::size_t{31}, std::size_t{32},
                              std::size_t{47}, std::size_t{64}, std::size_t{1} << 20}) {
      csv_options o;
      o.delimiter = g.delimiter;
      o.chunk_bytes = chunk;
      auto p = parse(g.text, "r.csv", o);
      ASSERT_EQ(p.header, g.records[0]) << "chunk " << chunk << " text:\n" << g.text;
      ASSERT_EQ(p.header_line, g.lines[0]);
      ASSERT_EQ(p.rows, data) << "chunk " << chunk << " text:\n" << g.text;
      ASSERT_EQ(p.lines, data_lines) << "chunk " << chunk;
    }
  }
}

// Random damage (stray quotes, NUL bytes, deleted bytes, CRs, short max_record_bytes) to random
// files: whatever the reader makes of the text, records or an error message, must be the same for
// every chunk size. Deterministic (fixed seed).
TEST(CsvRandomized, DamagedTextReadsTheSameForEveryChunkSize) {
  std::mt19937_64 rng(7);
  static constexpr char junk[] = {'"', '\0', '\r', '\n', ',', '\t', 'x'};
  for (int iter = 0; iter < 300; ++iter) {
    std::string text = generate(rng).text;
    const std::size_t damage = 1 + rng() % 3;
    for (std::size_t d = 0; d < damage && !text.empty(); ++d) {
      const std::size_t at = rng() % text.size();
      if (rng() % 3 == 0) text.erase(at, 1);
      else text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), junk[rng() % sizeof junk]);
    }
    csv_options o;
    if (rng() % 4 == 0) o.max_record_bytes = 1 + rng() % 60;
    o.chunk_bytes = std::size_t{1} << 20;
    const std::string whole = describe(text, o);
    for (std::size_t chunk = 16; chunk <= 64; chunk += 3) {
      o.chunk_bytes = chunk;
      ASSERT_EQ(describe(text, o), whole) << "chunk " << chunk << " text:\n" << text;
    }
  }
}

// The file path (read(2) into the buffer) against the in-memory path, with a tiny buffer.
TEST(CsvRandomized, FilesReadAsStrings) {
  std::mt19937_64 rng(99);
  for (int iter = 0; iter < 40; ++iter) {
    const generated g = generate(rng);
    temp_file f(".csv", g.text);
    csv_options o;
    o.delimiter = g.delimiter;
    o.chunk_bytes = 16 + rng() % 48;
    csv_reader r(f.path(), o);
    auto from_file = drain(r);
    EXPECT_EQ(from_file, parse(g.text, f.path(), o));
    EXPECT_EQ(from_file.rows, rows_t(g.records.begin() + 1, g.records.end()));
  }
}

}  // namespace
}  // namespace assay::io::test

namespace assay::io::test {
namespace {

// restrict_to: the records that start in [begin, end) of the file, whether `begin` lies in the bytes
// the reader holds already (small chunks: it does not; the default 4 MiB: it does) and whether the
// limit cuts the bytes held. Every cut of a random file at line starts gives the records of that
// byte range, in order, as the whole file's reader gives them.
TEST(CsvRestrict, RecordsOfAByteRangeAreTheWholeFilesRecordsThere) {
  std::mt19937_64 g(25);
  std::string text = "label,score\n";
  std::vector<std::uint64_t> starts;  // byte offset of each data record
  std::vector<std::vector<std::string>> rows;
  for (int i = 0; i < 3000; ++i) {
    starts.push_back(text.size());
    const std::string a = std::to_string(g() % 3), b = std::to_string(g() % 1000000) + "." + std::to_string(g() % 97);
    rows.push_back({a, b});
    text += a + "," + b + (i % 7 == 0 ? "\r\n" : "\n");
  }
  starts.push_back(text.size());
  temp_file f(".csv", text);
  for (const std::size_t chunk : {std::size_t{16}, std::size_t{1000}, std::size_t{4} << 20}) {
    csv_options o;
    o.chunk_bytes = chunk;
    for (int trial = 0; trial < 40; ++trial) {
      std::size_t i = g() % starts.size(), j = g() % starts.size();
      if (i > j) std::swap(i, j);
      csv_reader r(f.path(), o);
      r.restrict_to(starts[i], starts[j]);
      const parsed p = drain(r);
      ASSERT_EQ(p.rows, (std::vector<std::vector<std::string>>(rows.begin() + static_cast<std::ptrdiff_t>(i),
                                                                 rows.begin() + static_cast<std::ptrdiff_t>(j))))
          << "chunk " << chunk << ", records " << i << " to " << j;
      // Lines count from the header's line + 1 at `begin`.
      if (!p.lines.empty()) EXPECT_EQ(p.lines.front(), 2U);
      EXPECT_EQ(r.offset(), starts[j]);
    }
  }
}

TEST(CsvRestrict, RefusesWhatCannotBePositioned) {
  temp_file f(".csv", "a,b\n1,2\n3,4\n");
  csv_reader r(f.path());
  const std::uint64_t at = r.offset();  // 4: after the header
  EXPECT_EQ(at, 4U);
  auto message = [](auto&& fn) {
    try {
      fn();
    } catch (const error& e) {
      EXPECT_EQ(e.kind(), error_kind::usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // Before the reader's position, and an end before the beginning.
  EXPECT_NE(message([&] { r.restrict_to(at - 1, 8); }).find("the reader is at byte 4"), std::string::npos);
  EXPECT_NE(message([&] { r.restrict_to(8, 6); }).find("bytes 8 to 6"), std::string::npos);
  // Text in memory has no file to position.
  csv_reader m = csv_reader::from_string("a,b\n1,2\n", "mem.csv");
  EXPECT_NE(message([&] { m.restrict_to(4, 8); }).find("mem.csv is not a file that can be positioned"),
            std::string::npos);
  // An empty range: no records; the last record alone.
  r.restrict_to(8, 8);
  std::vector<std::string_view> fields;
  EXPECT_FALSE(r.next(fields));
  csv_reader last(f.path());
  last.restrict_to(8, 12);
  ASSERT_TRUE(last.next(fields));
  EXPECT_EQ(fields[0], "3");
  EXPECT_FALSE(last.next(fields));
}

}  // namespace
}  // namespace assay::io::test
