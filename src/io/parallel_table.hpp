// Internal: the parallel reader behind assay::io::read_table for large regular files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"

namespace assay::io::detail {

/// Tuning of read_parallel (read_table sets max_threads to the cores, at most 8, and
/// max_record_bytes from its csv_options; the tests shrink min_bytes_per_thread to cut small files).
struct parallel_settings {
  std::size_t max_threads = 8;
  std::uint64_t min_bytes_per_thread = std::uint64_t{8} << 20;  ///< a file needs twice this (after the header)
  bool use_mmap = true;  ///< map the file a window at a time; false reads it with pread
  std::size_t chunk_bytes = std::size_t{8} << 20;        ///< pread block per thread
  /// Mapped window per thread (use_mmap): 32 MiB measured as fast as the whole file mapped at once
  /// (8 MiB: +10% for `assay curve roc` at 10^7 rows, the unmaps' TLB shootdowns), 64 MiB no faster.
  std::size_t window_bytes = std::size_t{32} << 20;
  std::size_t max_record_bytes = std::size_t{64} << 20;  ///< as csv_options::max_record_bytes
  /// Rows with an empty cell in a column read are skipped and counted in table::missing (as
  /// csv_options::drop_missing); without it, such a row makes the reader give up.
  bool drop_missing = false;
  /// The bytes to read, [first_byte, last_byte) of the file: a range that starts a line and ends just
  /// after a line feed or at the end of the file (a piece of a file read out of core). Both 0: the
  /// data after the header (head.offset()) to the end of the file.
  std::uint64_t first_byte = 0, last_byte = 0;
};

/// Reads the data rows of the regular file `path` after the header that `head` has read, into the
/// columns of `shape` (an empty table: source and columns' names and types), column k of `shape`
/// taken from field `index[k]`. The data is cut at line feeds into one byte range per thread.
/// A first pass counts each range's line feeds (an upper bound on its rows) and looks for quotes,
/// NUL bytes and lone CRs; each column is then allocated once and every thread writes its rows in place.
/// Returns nothing (and the caller reads serially, which gives every error its exact line number)
/// when the file is small, holds any quote (a line feed inside quotes would be a false cut), NUL
/// byte or lone CR (a classic Mac OS line end: the cuts and row counts go by line feeds), or any record is not exactly what the serial reader would accept without an error
/// (with drop_missing, a skipped row's labels are checked but do not become classes, as there).
/// `line_feeds`, when not null, receives the line feeds of the bytes read (when a table is returned).
std::optional<table> read_parallel(const std::string& path, const csv_reader& head, const table& shape,
                                   const std::vector<std::size_t>& index, const parallel_settings& settings,
                                   std::uint64_t* line_feeds = nullptr);

/// The rows of the bytes [first_byte, last_byte) of the regular file `path` (a range that starts a
/// line and ends just after a line feed or at the end of the file) whose header `head` has read, as
/// read_table(reader, specs, true) reads them from a reader of the header line followed by those
/// bytes (the same columns, codes in first-seen order of the range, rows with an empty cell counted
/// and skipped; line numbers of such rows counted from the header's, as there), parsed in parallel
/// by read_parallel with `settings` (its range is set here). Returns nothing where read_parallel
/// gives up or a column cannot be resolved: the caller then reads the range serially, which gives
/// every message. `line_feeds` receives the line feeds of the range. The readers of a file in pieces
/// (out of core) use it: one parser for the whole file and for its pieces.
std::optional<table> read_range_parallel(const std::string& path, const csv_reader& head,
                                         const std::vector<column_spec>& specs, std::uint64_t first_byte,
                                         std::uint64_t last_byte, parallel_settings settings,
                                         std::uint64_t* line_feeds);

}  // namespace assay::io::detail
