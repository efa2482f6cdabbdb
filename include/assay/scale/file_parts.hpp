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

#include "assay/report/report.hpp"
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

/// The evaluation state of the rows of `part`, read in pieces of about `piece_bytes` bytes (each with
/// the header line in front, parsed by io::read_table as make_report parses the whole file: the same
/// typed columns, the same messages, line numbers of the file). The state's options are the request's
/// (scores or predicted classes, weights, pos_label, threshold, the columns' header names); merged
/// over all parts and finished with options_of(request), it gives make_report(request), byte for byte
/// in JSON and text. The part's rows have ids 0, 1, ... (the row a message names, e.g. the first whose
/// class probabilities do not sum to 1): add the rows of the parts before it with
/// evaluation_state::offset_row_ids before merging. Supports what the state supports: refuses
/// (assay::error, usage, naming the request field) regression, intervals, kept curves and standard
/// input; refuses (data) a part with a quote character. A part with no rows gives an empty state.
evaluation_state state_of_file_part(const report_request& request, const file_part& part,
                                    std::size_t piece_bytes = std::size_t{64} << 20);

}  // namespace assay::scale
