// The parallel reader (src/io/parallel_table.cpp) on small files cut into many ranges, mapped or
// read with pread in tiny pieces: wherever it answers it must give exactly what the serial reader
// gives (rows, numbers bit for bit, label codes and levels in first-seen order), and it must give
// up (so that read_table reads serially and reports the error with its line) on anything unusual.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../../src/io/parallel_table.hpp"
#include "assay/io/table.hpp"
#include "io_test_util.hpp"

namespace assay::io {
namespace {

using test::temp_file;

struct setup {
  std::size_t threads;
  bool mmap;
  std::size_t chunk;
};

// Mapped (windows of 32 MiB, or of one page when the chunk is smaller) or read with pread in pieces.
const std::vector<setup> setups{{2, true, 0},   {3, true, 0},   {7, true, 0},    {3, true, 16},
                                {2, false, 16}, {5, false, 16}, {4, false, 1000}};

std::optional<table> parallel(const std::string& path, const std::vector<column_spec>& specs, const setup& s,
                              const csv_options& options = {}) {
  csv_reader head(path, options);
  table shape;
  shape.source = head.name();
  std::vector<std::size_t> index;
  for (const auto& spec : specs) {
    const auto& h = head.header();
    const auto it = std::find(h.begin(), h.end(), spec.ref);
    index.push_back(static_cast<std::size_t>(it - h.begin()));
    column c;
    c.name = spec.ref;
    c.type = spec.type;
    shape.columns.push_back(c);
  }
  detail::parallel_settings settings;
  settings.max_threads = s.threads;
  settings.min_bytes_per_thread = 1;
  settings.use_mmap = s.mmap;
  if (s.chunk > 0) settings.chunk_bytes = settings.window_bytes = s.chunk;  // windows: at least a page
  settings.drop_missing = options.drop_missing;
  return detail::read_parallel(path, head, shape, index, settings);
}

table serial(const std::string& path, const std::vector<column_spec>& specs, const csv_options& options = {}) {
  csv_reader r(path, options);
  return read_table(r, specs, options.drop_missing);
}

void expect_same(const table& p, const table& s, const std::string& what) {
  ASSERT_EQ(p.rows, s.rows) << what;
  EXPECT_EQ(p.missing.rows, s.missing.rows) << what;
  EXPECT_EQ(p.missing.first_line, s.missing.first_line) << what;
  EXPECT_EQ(p.missing.first_column, s.missing.first_column) << what;
  ASSERT_EQ(p.columns.size(), s.columns.size()) << what;
  for (std::size_t k = 0; k < s.columns.size(); ++k) {
    EXPECT_EQ(p.columns[k].levels, s.columns[k].levels) << what << " column " << k;
    EXPECT_EQ(p.columns[k].codes, s.columns[k].codes) << what << " column " << k;
    ASSERT_EQ(p.columns[k].numbers.size(), s.columns[k].numbers.size()) << what << " column " << k;
    for (std::size_t i = 0; i < s.columns[k].numbers.size(); ++i) {
      ASSERT_EQ(std::bit_cast<std::uint64_t>(p.columns[k].numbers[i]),
                std::bit_cast<std::uint64_t>(s.columns[k].numbers[i]))
          << what << " column " << k << " row " << i;
    }
  }
}

// Every setup must answer, and answer as the serial reader does.
void expect_parallel_same(const std::string& text, const std::vector<column_spec>& specs, const std::string& what,
                          const csv_options& options = {}) {
  temp_file f(".csv", text);
  const table s = serial(f.path(), specs, options);
  for (const auto& st : setups) {
    const auto p = parallel(f.path(), specs, st, options);
    const std::string label = fmt::format("{} (threads {}, mmap {}, chunk {})", what, st.threads, st.mmap, st.chunk);
    ASSERT_TRUE(p.has_value()) << label << ": gave up on a valid file";
    EXPECT_GE(p->threads, 2u) << label;
    expect_same(*p, s, label);
  }
}

// Every setup must give up.
void expect_gives_up(const std::string& text, const std::vector<column_spec>& specs, const std::string& what) {
  temp_file f(".csv", text);
  for (const auto& st : setups) {
    EXPECT_FALSE(parallel(f.path(), specs, st).has_value()) << what << " (threads " << st.threads << ")";
  }
}

const std::vector<column_spec> label_score{{"y", column_type::label, ""}, {"s", column_type::number, ""}};

std::string random_number(std::mt19937_64& rng, bool point_allowed) {
  if (!point_allowed) {  // '.' is the delimiter: integers only
    const std::string forms[] = {"0", "-0", "12e3", " 7 ", "+5", "123456789012345678901234", "-42"};
    return forms[rng() % 7];
  }
  const double x = std::uniform_real_distribution<double>(-2, 2)(rng);
  switch (rng() % 10) {
    case 0:
      return fmt::format("{}", static_cast<long long>(rng() % 100000) - 50000);
    case 1:
      return fmt::format("{:.25f}", x);  // more than 19 digits
    case 2:
      return fmt::format("{:e}", x);
    case 3:
      return fmt::format(" {} ", std::abs(x));  // spaces around, handled as before
    case 4:
      return fmt::format("+{}", std::abs(x));
    case 5:
      return "-0.0";
    case 6:
      return fmt::format("{}", std::abs(x) * 1e-30);
    default:
      return fmt::format("{}", std::abs(x) / 2);
  }
}

// A random valid file: labels from a pool (some longer than 8 bytes, sometimes more than 16 of
// them), numbers in many forms, an unread text column, CRLF or LF, blank lines ("" and "\r"), the
// last line with or without its line feed.
std::string random_file(std::mt19937_64& rng, char delim, std::size_t rows) {
  const bool many_levels = rng() % 3 == 0;
  const bool point_allowed = delim != '.';
  std::string text = fmt::format("y{0}s{0}w{0}note\n", delim);
  for (std::size_t i = 0; i < rows; ++i) {
    if (rng() % 6 == 0) text += rng() % 2 ? "\n" : "\r\n";
    const std::size_t level = rng() % (many_levels ? 40 : 3);
    const std::string label = level == 2 ? "a-rather-long-label" : fmt::format("c{}", level);
    const std::string w = fmt::format("{}", rng() % 5);
    const std::string note = rng() % 2 ? "" : "free text\twith 'marks'";
    text += label + delim + random_number(rng, point_allowed) + delim + w + delim + (delim == '\t' ? "x" : note);
    text += rng() % 3 == 0 ? "\r\n" : "\n";
  }
  switch (rng() % 4) {
    case 0:
      text.pop_back();
      if (text.back() == '\r') text.pop_back();
      break;  // no final line feed
    case 1:
      text += "\r";
      break;  // a blank last line of one '\r'
    default:
      break;
  }
  return text;
}

TEST(ParallelRanges, SameAsSerialOnRandomFiles) {
  std::mt19937_64 rng(11);
  const std::vector<column_spec> specs{{"y", column_type::label, ""},
                                       {"s", column_type::number, ""},
                                       {"w", column_type::weight, ""},
                                       {"y", column_type::label, ""},  // a field read twice
                                       {"w", column_type::number, ""}};
  for (int file = 0; file < 24; ++file) {
    const char delim = ",\t;."[file % 4];
    csv_options o;
    o.delimiter = delim;
    expect_parallel_same(random_file(rng, delim, 1 + rng() % 300), specs, fmt::format("file {}", file), o);
  }
}

TEST(ParallelRanges, BlankLinesAndRangesWithoutRows) {
  // Most ranges hold only blank lines: their rows are 0, and the rows after them move down.
  std::string text = "y,s\na,1\n";
  for (int i = 0; i < 200; ++i) text += i % 3 ? "\n" : "\r\n";
  text += "b,2\n\n\n";
  for (int i = 0; i < 50; ++i) text += "\r\n";
  text += "a,3";
  expect_parallel_same(text, label_score, "blank lines");
}

TEST(ParallelRanges, CrlfEverywhere) {
  std::string text = "y,s\r\n";
  for (int i = 0; i < 300; ++i) text += fmt::format("{},{}\r\n", i % 2 ? "p" : "n", i * 0.25);
  expect_parallel_same(text, label_score, "CRLF");
  // The label last (its '\r' dropped), numbers that need the general path (spaces, exponents).
  std::string swapped = "s,y\r\n";
  for (int i = 0; i < 300; ++i) swapped += fmt::format("{} ,{}\r\n", i % 3 ? "1e-3" : " 2", i % 2 ? "p" : "n");
  expect_parallel_same(swapped, label_score, "CRLF, label last");
}

TEST(ParallelRanges, LabelLevelsInFirstSeenOrderAcrossRanges) {
  // The first range sees only "m"; later ranges see new labels in other orders.
  std::string text = "y,s\n";
  for (int i = 0; i < 100; ++i) text += "m,0.5\n";
  for (int i = 0; i < 100; ++i) text += i % 2 ? "z,1\n" : "y,2\n";
  for (int i = 0; i < 100; ++i) text += i % 3 ? "x,1\n" : "y,3\n";
  for (int i = 0; i < 100; ++i) text += i % 2 ? "m,1\n" : "w,4\n";
  expect_parallel_same(text, label_score, "levels");
  temp_file f(".csv", text);
  EXPECT_EQ(serial(f.path(), label_score).columns[0].levels, (std::vector<std::string>{"m", "y", "z", "x", "w"}));
}

// A column of ids: thousands of distinct labels per range, some shared between ranges (the levels
// of the ranges are merged through a hash, not a scan per level).
TEST(ParallelRanges, ThousandsOfLevels) {
  std::string text = "y,s\n";
  for (int i = 0; i < 20000; ++i) text += fmt::format("id{},{}\n", (i * 7919) % 12000, i % 10);
  expect_parallel_same(text, label_score, "ids");
  temp_file f(".csv", text);
  EXPECT_EQ(serial(f.path(), label_score).columns[0].levels.size(), 12000u);
}

// Files of many pages read through one-page windows (and pread pieces), with a line longer than
// a page in the middle: the window (piece) grows until the line fits.
TEST(ParallelRanges, WindowsAndPiecesSmallerThanALine) {
  std::string text = "y,s\n";
  for (int i = 0; i < 3000; ++i) {
    text += (i == 1500 ? std::string(9000, 'L') : std::string(i % 2 ? "a" : "bb")) + fmt::format(",{}\n", i * 0.125);
  }
  expect_parallel_same(text, label_score, "long line");
}

TEST(ParallelRanges, GivesUpOnAnythingTheSerialReaderWouldRefuseOrQuote) {
  std::string rows;
  for (int i = 0; i < 200; ++i) rows += fmt::format("{},{}\n", i % 2 ? "p" : "n", i * 0.5);
  const std::string head = "y,s\n";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"a quote", "\"q\",1\n"},
      {"a quote inside a field", "p\"q,1\n"},
      {"a NUL byte", std::string("p,1\0\n", 5)},
      {"too few fields", "p\n"},
      {"too many fields", "p,1,2\n"},
      {"not a number", "p,0.7.1\n"},
      {"an empty number", "p,\n"},
      {"an empty label", ",1\n"},
      {"infinity", "p,inf\n"},
      {"NaN", "p,nan\n"},
      {"a lone CR inside the number", "p,1\r\r\n"},
      {"spaces only", "   \n"},
  };
  for (const auto& [what, bad] : cases) {
    expect_gives_up(head + rows + bad + rows, label_score, what);
  }
  const std::vector<column_spec> weight{{"y", column_type::label, ""}, {"s", column_type::weight, ""}};
  expect_gives_up(head + rows + "p,-0.5\n" + rows, weight, "a negative weight");
  const std::vector<column_spec> prob{{"y", column_type::label, ""}, {"s", column_type::probability, ""}};
  expect_gives_up(head + rows + "p,1.5\n" + rows, prob, "a probability above 1");
}

// Rows with an empty cell in a column read, skipped with drop_missing: the same rows, numbers and
// levels as the serial reader, and the same count, first line and first column of the skipped rows
// (lines counted across ranges, blank lines and CRLF included). An empty cell in a column not read
// is no missing value.
TEST(ParallelRanges, SkipsRowsWithMissingValuesAsTheSerialReader) {
  std::mt19937_64 rng(23);
  const std::vector<column_spec> specs{{"y", column_type::label, ""},
                                       {"s", column_type::number, ""},
                                       {"w", column_type::weight, ""}};
  for (int file = 0; file < 16; ++file) {
    std::string text = "y,s,w,note\n";
    const std::size_t rows = 50 + rng() % 400;
    for (std::size_t i = 0; i < rows; ++i) {
      if (rng() % 8 == 0) text += rng() % 2 ? "\n" : "\r\n";
      std::string y = rng() % 2 ? "p" : "n", sc = fmt::format("{}", (rng() % 1000) * 0.001), w = "1", note = "x";
      switch (rng() % 12) {
        case 0: y.clear(); break;
        case 1: sc.clear(); break;
        case 2: w.clear(); break;
        case 3: sc.clear(), w.clear(); break;
        case 4: note.clear(); break;  // not read: not missing
        default: break;
      }
      if (file % 4 == 0 && i == 0) sc.clear();  // the very first row
      text += y + "," + sc + "," + w + "," + note + (rng() % 3 == 0 ? "\r\n" : "\n");
    }
    if (file % 4 == 1) text += ",0.5,1,x";  // the last row, without a line feed
    csv_options o;
    o.drop_missing = true;
    temp_file f(".csv", text);
    ASSERT_GT(serial(f.path(), specs, o).missing.rows, 0u) << file;
    expect_parallel_same(text, specs, fmt::format("file {}", file), o);
  }
}

// A label seen first on a skipped row is no class (the serial reader checks it without keeping it),
// and a class's code goes by its first kept row: labels first seen on skipped rows, one byte or
// longer, past 8 and past 16 levels (the interner's other lookups). A label that is not UTF-8 on a
// skipped row is still refused (the parallel reader gives up; the serial one names it). Without
// drop_missing any empty cell read makes it give up (the serial reader refuses, counting them).
TEST(ParallelRanges, LabelsOfSkippedRowsAreNoClasses) {
  std::string rows;
  for (int i = 0; i < 200; ++i) rows += fmt::format("{},{}\n", i % 2 ? "p" : "n", i * 0.5);
  for (const int extra : {0, 7, 20}) {
    std::string text = "y,s\nfirst,\nq,\n" + rows + "new,\nnewer-than-eight,\n";
    for (int i = 0; i < extra; ++i) text += fmt::format("L{},{}\n", i, i);  // more levels, kept
    text += "x,\nq,1\nlong-label-seen-skipped,\n" + rows + "first,2\n";
    csv_options o;
    o.drop_missing = true;
    expect_parallel_same(text, label_score, fmt::format("skipped labels, {} more levels", extra), o);
    temp_file f(".csv", text);
    csv_reader r(f.path(), o);
    const table s = read_table(r, label_score, true);
    EXPECT_EQ(s.columns[0].levels.front(), "n");
    EXPECT_EQ(s.missing.rows, 6u);
  }
  expect_gives_up("y,s\n" + rows + "p,\n" + rows, label_score, "an empty cell without drop_missing");
  temp_file bad(".csv", "y,s\n" + rows + "\xff,\n" + rows);
  csv_options o;
  o.drop_missing = true;
  for (const auto& st : setups) EXPECT_FALSE(parallel(bad.path(), label_score, st, o).has_value()) << st.threads;
}

TEST(ParallelRanges, GivesUpOnAnOverlongRecord) {
  std::string text = "y,s\n";
  for (int i = 0; i < 200; ++i) text += "p,1\n";
  text += "p," + std::string(100, '1') + "\n";
  for (int i = 0; i < 200; ++i) text += "p,1\n";
  temp_file f(".csv", text);
  csv_reader head(f.path());
  table shape;
  shape.columns = {column{"y", column_type::label, {}, {}, {}}, column{"s", column_type::number, {}, {}, {}}};
  detail::parallel_settings settings;
  settings.max_threads = 3;
  settings.min_bytes_per_thread = 1;
  settings.max_record_bytes = 64;
  EXPECT_FALSE(detail::read_parallel(f.path(), head, shape, {0, 1}, settings).has_value());
  settings.max_record_bytes = 200;
  EXPECT_TRUE(detail::read_parallel(f.path(), head, shape, {0, 1}, settings).has_value());
}

// A piece of a file (read_range_parallel: the readers of a file in pieces, out of core): the file cut
// into two pieces at every line start, and into a middle piece between random line starts. Each
// piece gives the table the serial reader gives for the header line followed by the piece's bytes
// (rows with an empty cell skipped and counted, their first line counted from the header's as
// there), and its line feeds; it gives up only on a piece the serial reader finds no row in.
TEST(ParallelRanges, APieceOfTheFileCutAtEveryLineStartAsTheSerialReaderReadsIt) {
  std::mt19937_64 rng(31);
  const std::vector<column_spec> specs{{"y", column_type::label, ""},
                                       {"s", column_type::number, ""},
                                       {"w", column_type::weight, ""}};
  for (int file = 0; file < 6; ++file) {
    std::string text = "y,s,w,note\n";
    const std::size_t header = text.size();
    const std::size_t rows = 40 + rng() % 60;
    for (std::size_t i = 0; i < rows; ++i) {
      if (rng() % 8 == 0) text += rng() % 2 ? "\n" : "\r\n";
      const std::size_t level = rng() % (file % 2 ? 30 : 3);  // past 16 levels in odd files
      std::string y = fmt::format("c{}", level), sc = fmt::format("{}", (rng() % 1000) * 0.001), w = "1";
      if (rng() % 10 == 0) sc.clear();  // a missing value
      text += y + "," + sc + "," + w + ",x" + (rng() % 3 == 0 ? "\r\n" : "\n");
    }
    if (file % 3 == 1) text += "c1,0.5,1,x";  // the last row without a line feed
    temp_file f(".csv", text);
    csv_options o;
    o.drop_missing = true;
    csv_reader head(f.path(), o);
    ASSERT_EQ(head.offset(), header);
    std::vector<std::size_t> starts{header};
    for (std::size_t i = header; i < text.size(); ++i) {
      if (text[i] == '\n') starts.push_back(i + 1);  // the last one may be the end of the file
    }
    if (starts.back() != text.size()) starts.push_back(text.size());
    auto check = [&](std::size_t a, std::size_t b, const setup& st) {
      const std::string what = fmt::format("file {} bytes [{}, {}) threads {} mmap {}", file, a, b, st.threads, st.mmap);
      detail::parallel_settings settings;
      settings.max_threads = st.threads;
      settings.min_bytes_per_thread = 1;
      settings.use_mmap = st.mmap;
      if (st.chunk > 0) settings.chunk_bytes = settings.window_bytes = st.chunk;
      std::uint64_t lines = ~std::uint64_t{0};
      const auto p = detail::read_range_parallel(f.path(), head, specs, a, b, settings, &lines);
      auto r = csv_reader::from_string(text.substr(0, header) + text.substr(a, b - a), "piece.csv", o);
      const table s = read_table(r, specs, true);  // a piece of blank lines only throws: caught below
      if (!p) {
        EXPECT_EQ(s.rows, 0u) << what << ": gave up on a piece with rows";
        return;
      }
      EXPECT_EQ(lines, static_cast<std::uint64_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(a),
                                                              text.begin() + static_cast<std::ptrdiff_t>(b), '\n')))
          << what;
      expect_same(*p, s, what);
    };
    auto check_or_none = [&](std::size_t a, std::size_t b, const setup& st) {
      try {
        check(a, b, st);
      } catch (const error&) {  // the serial reader finds no row: the parallel one must have given up
        detail::parallel_settings settings;
        settings.max_threads = st.threads;
        settings.min_bytes_per_thread = 1;
        EXPECT_FALSE(detail::read_range_parallel(f.path(), head, specs, a, b, settings, nullptr).has_value())
            << "file " << file << " [" << a << ", " << b << ")";
      }
    };
    for (const std::size_t c : starts) {
      const setup& st = setups[rng() % setups.size()];
      if (c > header) check_or_none(header, c, st);
      if (c < text.size()) check_or_none(c, text.size(), st);
    }
    for (int k = 0; k < 40; ++k) {
      std::size_t a = starts[rng() % starts.size()], b = starts[rng() % starts.size()];
      if (a > b) std::swap(a, b);
      if (a < b) check_or_none(a, b, setups[rng() % setups.size()]);
    }
  }
}

}  // namespace
}  // namespace assay::io
