// assay (internal): the headline tables of a sliced report (report/slices.hpp) from its slices'
// reports: one rule shared by evaluate_slices (rows in memory) and scale::sliced_state (merged
// states), so the two give the same tables bit for bit.
#pragma once

#include <span>

#include "assay/report/slices.hpp"
#include "assay/stats/slices.hpp"

namespace assay::detail {

/// Fills out.metrics (and adds to out.notes) from out.overall and out.slices (each slice's report,
/// or the reason it has none): for every headline metric of the task, each slice's value and
/// interval, its test against the rest (two-proportion z from the reports' counts; the unpaired
/// DeLong test from `aucs`, one per slice, for the AUC) adjusted over the slices, and the rates'
/// chi-square test of homogeneity. `aucs` may be empty when no AUC test can be made (weighted rows,
/// one slice, no score, not binary). `has_score`: the AUC is a headline metric.
void add_slice_tables(sliced_report& out, task_kind task, bool has_score, bool weighted,
                      std::span<const stats::auc_slice_vs_rest> aucs, const slice_options& slicing);

}  // namespace assay::detail
