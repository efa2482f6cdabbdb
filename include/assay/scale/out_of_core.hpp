// assay: `assay report` on a file larger than memory: the file is read in pieces into a mergeable
// evaluation state (scale/state.hpp), the score runs are spilled to temporary files partitioned by
// score range, and the report is identical to make_report's (docs/scaling.md: passes, bytes, memory).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assay/report/report.hpp"
#include "assay/report/slices.hpp"

namespace assay::scale {

struct out_of_core_options {
  /// The memory budget in bytes: the piece of the file being parsed, its columns, the state, the
  /// spill buffers and the partition being sorted together stay within about this (docs/scaling.md
  /// lists what counts). At least 1 MiB.
  std::uint64_t max_memory = std::uint64_t{256} << 20;
  std::string temp_dir;  ///< where the spill files go; empty: $TMPDIR, else /tmp
};

/// What the run did (for messages and benchmarks).
struct out_of_core_info {
  std::uint64_t pieces = 0;          ///< pieces of the file parsed
  std::uint64_t partitions = 0;      ///< spill partitions of the score runs
  std::uint64_t spilled_bytes = 0;   ///< bytes written to temporary files
  std::uint64_t largest_partition = 0;  ///< records in the largest partition sorted in memory
  /// Partitions read once more after pass 1 to complete the log-loss and Brier sums of spellings
  /// whose class changed as spellings came (pass 1 sums each row's terms for one class only).
  std::uint64_t loss_rereads = 0;
};

/// make_report(request) read in pieces within options.max_memory. The same report, byte for byte in
/// JSON. Supports a score, predicted classes, class probabilities and regression (task regression,
/// the predicted values in `pred`: targets and residuals spilled, the median absolute error by an
/// external sort of (|residual|, weight)), weights, --pos-label, --threshold, --beta,
/// --zero-division, analytic intervals; intervals that resample rows (weighted or bootstrap scores
/// and predicted classes) are refused (assay::error, usage), those of class probabilities and of
/// regression keep the rows in memory within a quarter of the cap (else assay::error, data). A
/// file with quote characters is refused (its records cannot be cut at line ends).
report make_report_out_of_core(const report_request& request, const out_of_core_options& options = {},
                               out_of_core_info* info = nullptr);

/// make_sliced_report(request, by) read in pieces (report/slices.hpp, `assay report --by`): the whole
/// file is one part read into a scale::sliced_state (sliced_state_of_file_part, pieces of
/// options.max_memory / 16 bytes), finished as make_sliced_report finishes it; the same report, byte
/// for byte in JSON and text. The state holds one run per distinct (score, true class, slice) (and,
/// for class probabilities, regression and the intervals that resample rows, every row's id): it fits
/// for rounded scores and few slices. After each piece the held memory (the state's memory_bytes and
/// the piece's text and columns) is checked against options.max_memory: more is an assay::error (data)
/// naming max_memory, the bytes held and why (the runs of slices are not spilled to disk). Refuses
/// (usage) standard input, kept curves and what sliced_state_of_file_part refuses; info->pieces counts
/// the pieces.
sliced_report make_sliced_report_out_of_core(const report_request& request, const std::vector<std::string>& by,
                                             const out_of_core_options& options = {},
                                             out_of_core_info* info = nullptr);

/// The bytes of memory available to this process: MemAvailable of /proc/meminfo, capped by the
/// cgroup's memory limit; 0 when unknown.
std::uint64_t available_memory();

/// A rough upper estimate of the memory make_report needs for `path` (columns and sort buffers):
/// twice the file's size; 0 for standard input or a file that cannot be examined.
std::uint64_t in_memory_estimate(const std::string& path);

}  // namespace assay::scale
