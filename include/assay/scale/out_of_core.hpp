// assay: `assay report` on a file larger than memory: the file is read in pieces into a mergeable
// evaluation state (scale/state.hpp), the score runs are spilled to temporary files partitioned by
// score range, and the report is identical to make_report's (docs/scaling.md: passes, bytes, memory).
#pragma once

#include <cstdint>
#include <string>

#include "assay/report/report.hpp"

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

/// The bytes of memory available to this process: MemAvailable of /proc/meminfo, capped by the
/// cgroup's memory limit; 0 when unknown.
std::uint64_t available_memory();

/// A rough upper estimate of the memory make_report needs for `path` (columns and sort buffers):
/// twice the file's size; 0 for standard input or a file that cannot be examined.
std::uint64_t in_memory_estimate(const std::string& path);

}  // namespace assay::scale
