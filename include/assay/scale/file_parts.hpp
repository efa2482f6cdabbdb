// assay: a prediction file cut into parts of about equal bytes, and the evaluation state of one part,
// so that P processes (MPI ranks, jobs of a batch system) each read only their part and the merged
// states give make_report's report (scale/state.hpp). No communication here: the caller moves the
// states' bytes (cli/mpi_*.cpp does it with MPI).
//
// The rule (docs/scaling.md, "MPI"): the data bytes [D, F) of a file of F bytes whose header ends at
// byte D are split at the offsets s_k = D + (F - D) * k / P, k = 0..P. Part k holds the records that
// start in [cut(s_k), cut(s_{k+1})), where cut(s) is the first byte after the first line feed at or
// after byte s - 1 (so a record starting exactly at s is in the part that starts at s), cut(D) = D,
// and F when there is no such line feed. Every record starts in exactly one part, whatever P: the
// parts are the file's records in order, and the union of the parts' states is the file's state.
//
// Cutting after a line feed is a record boundary only when no quoted field holds a line break; a
// part does not know what came before it, so a file with any quote character is refused (the same
// rule as the out-of-core reader: scale/out_of_core.hpp). A file whose records end with lone CRs
// (classic Mac OS) has no line feed to cut at: its first part holds every record.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "assay/io/table.hpp"
#include "assay/report/report.hpp"
#include "assay/scale/sliced_state.hpp"
#include "assay/scale/state.hpp"

namespace assay::scale {

/// Where one part's records are: bytes [begin, end) of the file.
struct file_part {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

/// Part `index` (0-based) of `count` parts of `request.path` (the rule above). Reads the header and
/// at most one record around each end of the part. Throws assay::error (usage) when index >= count or
/// the path is standard input, (io) when the file cannot be read.
file_part part_of_file(const report_request& request, std::size_t index, std::size_t count);
/// The same for a file `path` read with the reader options `csv` (header detection, delimiter).
file_part part_of_file(const std::string& path, const io::csv_options& csv, std::size_t index, std::size_t count);

/// The evaluation state of the rows of `part`, read in pieces of about `piece_bytes` bytes (each with
/// the header line in front, parsed by io::read_table as make_report parses the whole file: the same
/// typed columns, the same messages, line numbers of the file). The state's options are the request's
/// (scores or predicted classes, weights, pos_label, threshold, the columns' header names); merged
/// over all parts and finished with options_of(request), it gives make_report(request), byte for byte
/// in JSON and text. The part's rows have ids 0, 1, ... (the row a message names, e.g. the first whose
/// class probabilities do not sum to 1): add the rows of the parts before it with
/// evaluation_state::offset_row_ids before merging (the rows read by the parts before it: rows
/// skipped for an empty cell have no id, as evaluate's row indices skip them). With intervals
/// (request.ci_level) that need every row (any interval of regression or class probabilities, with
/// weights or the bootstrap method) the state keeps its rows (state_options::row_ids). Refuses
/// (assay::error, usage, naming the request field) kept curves and standard input; refuses (data) a
/// part with a quote character. A part with no rows gives an empty state.
/// With `unrefused` (and without request.csv.drop_missing), the part's rows with an empty cell are
/// not refused but described there (count, first line of the file, column), for a caller that refuses
/// the rows of all parts at once with the whole file's message (refuse_missing_of_parts).
evaluation_state state_of_file_part(const report_request& request, const file_part& part,
                                    std::size_t piece_bytes = std::size_t{64} << 20,
                                    io::missing_rows* unrefused = nullptr);
/// Refuses (assay::error, data) the rows with an empty cell of a file's parts, `parts` in file order
/// (what state_of_file_part left in `unrefused`): the message io::read_table gives on the whole file,
/// the count of all parts and the first such row of the file. Nothing when no part has one.
void refuse_missing_of_parts(const std::vector<io::missing_rows>& parts, const std::string& source);

/// The sliced state (scale/sliced_state.hpp) of the rows of `part`, slices by the columns `by` (1 or 2
/// header names or 1-based indices, read as labels: io::column_type::label), read in pieces as
/// state_of_file_part reads them: the same state options, the same row ids (0, 1, ... in the part: add
/// the rows of the parts before it with sliced_state::offset_row_ids before merging), the same
/// refusals and messages. The state's slice columns are the header names. Merged over all parts and
/// finished with options_of(request), it gives make_sliced_report(request, by), byte for byte in JSON
/// and text, once the caller sets the overall report's `missing` to sliced_state::missing() under
/// request.csv.drop_missing (the rows with an empty cell are counted there: sliced_state::add_missing).
/// Throws assay::error (usage) naming `by` for no or more than 2 slice columns, or one column twice,
/// and what state_of_file_part throws.
sliced_state sliced_state_of_file_part(const report_request& request, const std::vector<std::string>& by,
                                       const file_part& part, std::size_t piece_bytes = std::size_t{64} << 20,
                                       io::missing_rows* unrefused = nullptr);

/// The columns `specs` of the rows of `part` of `path`, read in pieces as state_of_file_part reads them:
/// the same typed columns io::read_table gives on the whole file, restricted to the part's rows (label
/// levels in their order of first appearance in the part), the same messages with the file's line
/// numbers. Rows with an empty cell in a column read: skipped and counted in table::missing with
/// csv.drop_missing, else refused naming the part's bytes (the whole file's message when the part is
/// the whole file). Joined in file order with append_rows, the parts give the whole file's columns:
/// what `assay compare` under MPI gathers on rank 0 (docs/scaling.md, "MPI"). A part without rows gives
/// the columns with no rows (check_rows on the joined table refuses a file without rows). Throws assay::error
/// (usage) for standard input, (data) for a part with a quote character, as state_of_file_part.
io::table table_of_file_part(const std::string& path, const io::csv_options& csv,
                             const std::vector<io::column_spec>& specs, const file_part& part,
                             std::size_t piece_bytes = std::size_t{64} << 20);

/// Throws make_report's message for the classes of `state` (the merged state of a file's parts, read
/// for `request`) when make_report would refuse them (more than two classes for a score column, a
/// positive class it cannot tell, a pos_label not found, ...): the file's columns and the request's
/// parameters named, where evaluation_state::finish names y_true and its own function. Binary scores
/// and predicted classes; nothing for other kinds or a state without rows.
void check_classes_as_file(const evaluation_state& state, const report_request& request);
/// Throws io::read_table's error (data) for a file without rows ("no data rows after the header", and
/// the rows skipped for a missing value, if any, with the first one's line unless it is 0: unknown)
/// when `t`, a file's parts joined (or a table with no columns standing for a merged state), has no rows.
void check_rows(const io::table& t);

/// Appends the rows of `rows` (the same columns: names and types, in the same order) to `into`, label
/// codes recoded into `into`'s levels (a level new to `into` appended, so first-seen order is kept when
/// the rows follow `into`'s in the file); adds the missing-row counts (the first kept). Throws
/// assay::error (usage) naming the column when the columns differ.
void append_rows(io::table& into, io::table&& rows);

/// A table as bytes, to move a part's columns between processes: magic "ASSAYTB\0", format version 1,
/// then source, rows, and per column its name, type, levels and codes (labels) or numbers (8 bytes
/// a row), little-endian, and the missing-row count. Not checksummed (for the transport of one job's
/// processes); read_table_bytes checks the structure.
std::string serialize_table(const io::table& t);

/// Reads serialize_table's bytes. Throws assay::error (data) naming what is wrong: no magic, another
/// format version, truncated, a code outside its column's levels, bytes after the end.
io::table read_table_bytes(std::string_view bytes);

}  // namespace assay::scale
