// assay: typed columns read from a delimited file, selected by header name or 1-based index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "assay/io/csv.hpp"

namespace assay::io {

/// How a selected column is parsed.
enum class column_type {
  number,         ///< a finite double (shortest round-trip exact, via fast_float)
  weight,         ///< a finite double >= 0
  probability,    ///< a finite double in [0, 1]
  label,          ///< any string, interned into a small dictionary of levels
};

/// One column to read. `ref` is a header name, or a 1-based index when no header has that name
/// (see find_column). The name of a column that is read must be valid UTF-8 (assay/io/text.hpp).
/// `option` names the parameter it came from, for messages (assay::param, e.g. param("scores"): the
/// CLI shows its option).
struct column_spec {
  std::string ref;
  column_type type = column_type::number;
  std::string option;
};

/// A column as read. Numbers are in `numbers`; labels are codes into `levels` (first-seen order).
struct column {
  std::string name;  ///< the header name of the column
  column_type type = column_type::number;
  std::vector<double> numbers;
  std::vector<std::int32_t> codes;
  std::vector<std::string> levels;
};

/// Rows with a missing value: an empty cell (a field of zero bytes) in a column that is read. Only
/// the empty cell: a CSV file has no other null, and tokens such as "NA" or "null" are real labels
/// in some files (a class "NA"); "nan" in a number column stays a bad value (a model that scores NaN
/// is broken, not missing an observation), refused as not finite. docs/cli.md, "Missing values".
struct missing_rows {
  std::uint64_t rows = 0;        ///< how many rows have one
  std::uint64_t first_line = 0;  ///< the physical line of the first such row (0 when none)
  std::string first_column;      ///< the header name of its first empty cell's column
  /// Adds the count of rows read after these (a later piece of the same file), keeping the first.
  void add(const missing_rows& later);
};

/// Throws assay::error (data) when `m` holds any row: `preds.csv:5: column 'score': empty cell; 3
/// rows have a missing value (an empty cell in a column that is read), this is the first; fill or
/// remove them, or skip them with drop_missing` (drop_missing marked with assay::param, so the CLI
/// names its option). `scope`, when not empty, follows "rows" (e.g. " of bytes 0 to 99"). Without
/// `offer_drop` (a reader whose caller cannot skip rows) the message ends at "fill or remove them".
void refuse_missing(const missing_rows& m, const std::string& source, std::string_view scope = {},
                    bool offer_drop = true);

struct table {
  std::string source;  ///< file name used in messages
  std::size_t rows = 0;  ///< rows read (rows skipped as missing not counted)
  std::size_t threads = 1;  ///< how many threads parsed it (large regular files are read in parallel)
  std::vector<column> columns;  ///< in the order of the specs
  missing_rows missing;  ///< rows skipped for a missing value (only with drop_missing; else refused)
};

/// Reads the requested columns of `path` ("-" for standard input). Every cell is validated as it is
/// read; the first problem throws assay::error naming file, line, column and value, e.g.
/// `preds.csv:18: column 'score': cannot parse "0.7.1" as a number`. A row with an empty cell in a
/// column that is read (missing_rows) is skipped and counted in table::missing; at the end, unless
/// options.drop_missing, they are refused (refuse_missing: the count and the first). Any other
/// problem, also after such rows, throws first (skipping them would not make the file readable).
/// Large regular files are read in parallel; a file with an empty cell is read serially.
table read_table(const std::string& path, const std::vector<column_spec>& specs, const csv_options& options = {});
/// The same from an open reader (used by tests on in-memory text, by readers whose callers cannot
/// skip rows (their refusal does not offer drop_missing), and by the readers of a file in pieces,
/// which pass drop_missing = true and refuse the rows of all pieces at the end). `expected_bytes`,
/// when known (the bytes the reader has left), sizes the columns once, as read_table(path) does.
table read_table(csv_reader& reader, const std::vector<column_spec>& specs, bool drop_missing = false,
                 std::uint64_t expected_bytes = 0);

/// The 0-based position of the column `ref` names in `header`: the column with that exact name, or,
/// when no column has it and `ref` is a number from 1 to header.size(), the column at that 1-based
/// position; header.size() when neither. A name two columns share is refused when it is used
/// (error_kind::usage, `<where>: column "score" is ambiguous: header columns 2 and 5 both have that
/// name`); pandas renames the second one ("score.1"), we refuse to guess. Duplicates nobody uses
/// are fine. Every lookup of a column by name goes through here (read_table, the dataset reader).
std::size_t find_column(const std::vector<std::string>& header, std::string_view ref, std::string_view where);

/// Parses a whole field as a double, accepting surrounding spaces. Returns false if the field is not
/// exactly one number. NaN and infinities parse (the caller decides whether they are allowed).
bool parse_double(std::string_view field, double& out) noexcept;

}  // namespace assay::io
