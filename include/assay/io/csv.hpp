// assay: a streaming RFC 4180 reader for delimited text (CSV, TSV).
//
// RFC 4180 (Shafranovich, 2005) with the liberties every real file needs: LF, CRLF or lone CR
// (classic Mac OS) line ends, read as Python's csv module reads a file opened with newline='' (a
// CR not followed by LF ends a record, CRLF is one line end, and each of LF, CRLF and lone CR is one
// physical line in messages), a UTF-8 byte-order mark, blank lines skipped, any one-byte delimiter.
// Quoted fields may hold delimiters, doubled quotes and line breaks (kept as they are: a CR inside
// quotes is data). The reader works on large buffered reads (4 MiB at a
// time), never holds more than one record beyond its buffer, and reports every problem with the
// file name and the physical line on which the record starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace assay::io {

struct csv_options {
  /// Field separator; 0 picks one: tab for *.tsv / *.tab files or a header with tabs and no
  /// commas, otherwise a comma. A quote or a line-break character is refused (error_kind::usage).
  char delimiter = 0;
  /// A record longer than this (counting its line break) is refused, a guard against reading a
  /// binary or broken file into memory whole. The reader never looks further than this into a record.
  std::size_t max_record_bytes = std::size_t{64} << 20;
  /// Size of the read buffer (at least 16; it grows only for a record that does not fit in half of it).
  std::size_t chunk_bytes = std::size_t{4} << 20;
  /// Not the tokenizer's: what io::read_table does with rows that have an empty cell in a column it
  /// reads (io::missing_rows): refused (false, the default), or skipped and counted (true).
  bool drop_missing = false;
};

/// Reads records one at a time. Construct from a path ("-" reads standard input) or, for tests and
/// fuzzing, from text in memory. The header is read by the constructor.
class csv_reader {
 public:
  csv_reader(const std::string& path, const csv_options& options = {});
  /// Reads `text` as if it were the content of a file called `display_name`, served `chunk_bytes` at
  /// a time exactly as a file would be (so tests and the fuzz target exercise the chunk boundaries).
  static csv_reader from_string(std::string text, std::string display_name, const csv_options& options = {});
  ~csv_reader();
  csv_reader(csv_reader&&) noexcept;
  csv_reader& operator=(csv_reader&&) noexcept;

  /// The header row's fields.
  [[nodiscard]] const std::vector<std::string>& header() const noexcept;
  /// Reads the next data record into `fields` (views valid until the next call). Returns false at
  /// the end of the input. Throws assay::error for a ragged row, an unterminated quote, a NUL byte
  /// or an over-long record.
  bool next(std::vector<std::string_view>& fields);
  /// Physical line (1-based) on which the current record starts.
  [[nodiscard]] std::size_t line() const noexcept;
  /// Numbers the records not yet read as if `n` more lines stood before them: a piece of a file read
  /// with the file's header line in front (from_string) then names the file's lines in line() and in
  /// every message, given the data lines of the file before the piece.
  void skip_lines(std::size_t n) noexcept;
  /// The name used in messages: the path as given, or "<stdin>".
  [[nodiscard]] const std::string& name() const noexcept;
  [[nodiscard]] char delimiter() const noexcept;
  /// Byte offset in the source of the next unread record (after the header, the first data row).
  [[nodiscard]] std::uint64_t offset() const noexcept;
  /// Whether a quote character has been seen in the data so far (quoted field or literal).
  [[nodiscard]] bool saw_quote() const noexcept;
  /// Reads on from byte `begin` of the file (at or after offset(): the header stays read) and stops
  /// at byte `end`, as if the file ended there: the records that start in [begin, end) when both are
  /// record boundaries (scale/file_parts.hpp cuts a file so). No byte is copied but into the read
  /// buffer, as for the whole file. line() then counts from the header's line + 1 at `begin` (lines
  /// before it are not counted: a caller that names lines of the file adds them). Throws
  /// assay::error (usage) for standard input or text in memory, and for begin before offset() or
  /// after end; (io) when the file cannot be positioned.
  void restrict_to(std::uint64_t begin, std::uint64_t end);

 private:
  struct impl;
  explicit csv_reader(std::unique_ptr<impl> p);
  std::unique_ptr<impl> impl_;
};

}  // namespace assay::io
