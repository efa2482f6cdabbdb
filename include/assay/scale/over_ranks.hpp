// assay::scale, over ranks: `assay report` (with --by too) and the curves of scores spread over the
// ranks of a transport (scale/transport.hpp), e.g. MPI processes: rank r reads part r of the file
// (scale/file_parts.hpp) and rank 0 ends with the report the one-process run gives, byte for byte.
// Every function here is a collective: every rank calls it with the same request, and an error on any
// rank is thrown on every rank (scale::agreed), before `on_root` runs; so is an error in `on_root`.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "assay/curves/curve_report.hpp"
#include "assay/report/report.hpp"
#include "assay/report/slices.hpp"
#include "assay/scale/transport.hpp"

namespace assay::scale {

/// How report_by_parts chooses its path, and what it says about it.
struct over_ranks_options {
  /// The range-partitioned path (report_by_ranges): taken when it applies and the scores are mostly
  /// distinct (automatic), never, or whatever the scores (always; it still needs what it needs).
  enum class range_path { automatic, never, always };
  range_path ranges = range_path::automatic;
  /// When set, called on rank 0 with lines that say the range path ran and each rank's steps (wall
  /// and CPU time).
  std::function<void(const std::string&)> trace;
};

/// The report of `request` over the ranks: report_by_ranges when it applies (options.ranges), else
/// rank r evaluates part r of the file into a state, the states are merged on rank 0 along a binary
/// tree (serialised bytes, point to point: each state crosses the network once), and rank 0 calls
/// `on_root` with the report make_report gives.
void report_by_parts(transport& t, const report_request& request, const std::function<void(const report&)>& on_root,
                     const over_ranks_options& options = {});

/// The ranking metrics of a binary score range by range (scale/ranges.hpp): each rank reads its part,
/// the rows go to the rank of their score range, and the walks of the ranges are chained, so rank 0's
/// report is make_report's to the bit while no rank walks more than its own range. Returns false on
/// every rank, before `on_root` runs, when it does not apply: one rank, no score column,
/// regression, intervals, kept curves, constraints, options.ranges never; scores with few distinct
/// values (unless always), one class, classes it cannot decide, a part that fails to read (whose
/// message the state path gives). report_by_parts tries it first.
bool report_by_ranges(transport& t, const report_request& request, const std::function<void(const report&)>& on_root,
                      const over_ranks_options& options = {});

/// The sliced report (`--by`) over the ranks: as report_by_parts' state path, with one sliced state
/// per rank (sliced_state_of_file_part); rank 0 calls `on_root` with make_sliced_report(request, by).
void sliced_report_by_parts(transport& t, const report_request& request, const std::vector<std::string>& by,
                            const std::function<void(const sliced_report&)>& on_root);

/// The sweeps of the curves of scores (roc, pr, threshold, cost) over the ranks: per score column, the
/// parts' states merged on rank 0 as in report_by_parts, and rank 0 calls `on_root` with the models'
/// sweeps (evaluation_state::sweep_of_scores), from which curves::write_curve_of_sweeps writes
/// make_curve's bytes. One pass over the part per score column.
void curve_by_parts(transport& t, const curves::curve_request& request,
                    const std::function<void(curves::swept_models)>& on_root);

}  // namespace assay::scale
