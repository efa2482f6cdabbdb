// The check behind the CSV fuzz target (fuzz/csv_fuzz.cpp), shared with the regression test that
// replays every input the fuzzer ever failed on (tests/io/fuzz_regressions_test.cpp).
//
// Input layout: byte 0 picks a chunk size (16..64), byte 1 the delimiter (auto, common ones, or
// byte 2 itself), byte 2 also a small max_record_bytes when its top bit is set, byte 3 the file
// name (.csv or .tsv); the rest is the file. The text is read twice, with the small chunk size and
// with one chunk holding everything, and then through read_table with a few column specs.
// Properties: nothing crashes, leaks or hits undefined behaviour; assay::error is the only
// exception; and both readings give the same records, line numbers and error messages (the
// reader's output must not depend on where the buffer boundaries fall).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"

namespace csv_fuzz_detail {

using assay::io::column_spec;
using assay::io::column_type;
using assay::io::csv_options;
using assay::io::csv_reader;

// Everything a reading produced, flattened into one string for comparison.
inline std::string read_all(const std::string& text, const std::string& name, const csv_options& options) {
  std::string out;
  try {
    auto reader = csv_reader::from_string(text, name, options);
    out += "delim=" + std::to_string(static_cast<int>(reader.delimiter())) + "\nheader@" +
           std::to_string(reader.line());
    for (const auto& h : reader.header()) out += "|" + std::to_string(h.size()) + ":" + h;
    std::vector<std::string_view> fields;
    while (reader.next(fields)) {
      out += "\nrow@" + std::to_string(reader.line());
      for (auto f : fields) {
        out += "|" + std::to_string(f.size()) + ":";
        out.append(f.data(), f.size());
      }
    }
  } catch (const assay::error& e) {
    out += "\nerror " + std::to_string(e.exit_code()) + ": " + e.what();
  }
  return out;
}

inline std::string read_columns(const std::string& text, const std::string& name, const csv_options& options,
                         const std::vector<column_spec>& specs) {
  std::string out;
  try {
    auto reader = csv_reader::from_string(text, name, options);
    const auto t = assay::io::read_table(reader, specs);
    out += "rows=" + std::to_string(t.rows);
    for (const auto& c : t.columns) {
      if (c.type == column_type::label) {
        if (c.codes.size() != t.rows) return "label column with a wrong number of codes";
        for (auto code : c.codes) {
          if (code < 0 || static_cast<std::size_t>(code) >= c.levels.size()) return "label code out of range";
          out += "|" + c.levels[static_cast<std::size_t>(code)];
        }
      } else {
        if (c.numbers.size() != t.rows) return "number column with a wrong number of values";
        for (double x : c.numbers) {
          std::uint64_t bits;
          std::memcpy(&bits, &x, sizeof bits);
          out += "|" + std::to_string(bits);
        }
      }
    }
  } catch (const assay::error& e) {
    out += "error " + std::to_string(e.exit_code()) + ": " + e.what();
  }
  return out;
}

inline std::string differs(const std::string& a, const std::string& b, const char* what) {
  if (a == b) return {};
  return std::string(what) + " differs between chunk sizes:\n--- small chunks:\n" + a + "\n--- one chunk:\n" + b;
}

}  // namespace csv_fuzz_detail

/// Runs one fuzz input (layout above). Returns an empty string when every property holds, otherwise
/// what went wrong. Throws whatever the reader throws other than assay::error.
inline std::string csv_fuzz_check(const std::uint8_t* data, std::size_t size) {
  using namespace csv_fuzz_detail;

  if (size < 4) return {};
  csv_options small;
  small.chunk_bytes = 16 + data[0] % 49;
  static constexpr char delimiters[] = {0, ',', '\t', ';', '|', ' ', 0, 0};
  small.delimiter = delimiters[data[1] % 8];
  if (data[1] % 8 == 7) small.delimiter = static_cast<char>(data[2]);
  if (data[2] & 0x80) small.max_record_bytes = 1 + data[2] % 128;
  const std::string name = (data[3] & 1) ? "fuzz.tsv" : "fuzz.csv";
  const std::string text(reinterpret_cast<const char*>(data + 4), size - 4);
  csv_options whole = small;
  whole.chunk_bytes = text.size() + 1024;

  if (auto d = differs(read_all(text, name, small), read_all(text, name, whole), "csv_reader output"); !d.empty()) {
    return d;
  }

  const std::vector<std::vector<column_spec>> spec_sets = {
      {{"1", column_type::number, "--score"}},
      {{"2", column_type::label, "--label"}, {"1", column_type::probability, "--proba"}},
      {{"a", column_type::weight, "--weight"}, {"3", column_type::number, ""}},
      {{"label", column_type::label, "--label"}, {"score", column_type::number, "--score"}},
  };
  for (const auto& specs : spec_sets) {
    auto d = differs(read_columns(text, name, small, specs), read_columns(text, name, whole, specs), "read_table output");
    if (!d.empty()) return d;
  }
  return {};
}
