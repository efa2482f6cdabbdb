// assay (internal): what the readers of a prediction file in pieces share (a part read by an MPI
// rank, a piece read out of core): the state's options of a request, and a piece's rows into the state. Private to src/scale.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/scale/state.hpp"

namespace assay::scale::detail {

/// The state's options for a report request read from a file: the kind of prediction (a score,
/// predicted classes, class probabilities or, for regression, predicted values), task, positive class,
/// threshold, weights, whether rows are kept for the intervals, and the source's name. The column names are set from the file's header by the caller.
inline state_options state_options_of(const report_request& q, const std::string& source) {
  state_options so;
  so.kind = q.task == task_kind::regression ? prediction_kind::values
            : q.score                       ? prediction_kind::scores
            : q.pred                        ? prediction_kind::labels
                                            : prediction_kind::proba;
  so.task = q.task;
  so.pos_label = q.pos_label;
  so.threshold = q.threshold;
  so.weighted = q.weight.has_value();
  so.source = source;
  // The rows are kept (ids: their index among the file's rows that are read) for the intervals that
  // need them: any interval of regression or class probabilities, and with weights or the bootstrap
  // method (evaluation_state::finish).
  so.row_ids = q.ci_level.has_value() && (so.kind == prediction_kind::values || so.kind == prediction_kind::proba ||
                                          so.weighted || q.ci == ci_method::bootstrap);
  return so;
}

/// The rows [from, from + count) of a piece (count clipped to the piece), read as the columns {label
/// (numbers for regression), score, predicted class or predicted value, weight when weighted, one
/// probability column per class} (the order of column_specs; columns after those are not read) as a
/// batch for a state with the options `o`, the piece's first row having the id `first_row_id`. The
/// batch views the piece's columns; `proba` holds the views of the probability columns.
inline row_batch batch_of_piece(const state_options& o, const io::table& t, std::uint64_t first_row_id,
                                std::vector<std::span<const double>>& proba, std::size_t from = 0,
                                std::size_t count = SIZE_MAX) {
  from = std::min(from, t.rows);
  count = std::min(count, t.rows - from);
  const auto rows = [&](const auto& v) { return std::span(v).subspan(from, count); };
  const io::column& lab = t.columns[0];
  row_batch b;
  b.y_true = label_column::of_codes(rows(lab.codes), lab.levels);
  b.first_row_id = first_row_id + from;
  if (o.kind == prediction_kind::values) {  // regression: the target and the predicted value are numbers
    b.y_true = label_column::of_numbers(rows(lab.numbers));
    b.y_value = rows(t.columns[1].numbers);
  }
  std::size_t at = 1;
  if (o.kind == prediction_kind::values) ++at;
  else if (o.kind == prediction_kind::scores) b.y_score = rows(t.columns[at++].numbers);
  else if (o.kind == prediction_kind::labels) b.y_pred = label_column::of_codes(rows(t.columns[at].codes), t.columns[at].levels), ++at;
  if (o.weighted) b.sample_weight = rows(t.columns[at++].numbers);
  proba.clear();
  if (o.kind == prediction_kind::proba) {
    for (std::size_t k = 0; k < o.proba_names.size(); ++k) proba.emplace_back(rows(t.columns[at + k].numbers));
    b.y_proba = proba;
  }
  return b;
}

/// Adds the rows of a piece (batch_of_piece) to `state`, the piece's first row having the id
/// `first_row_id`. A refused row is an error that names the file `name` first. Only the rows
/// [from, from + count) of the piece when given (count clipped to the piece).
inline void update_with_piece(evaluation_state& state, const io::table& t, const std::string& name,
                              std::uint64_t first_row_id, std::size_t from = 0, std::size_t count = SIZE_MAX) {
  if (from >= t.rows) return;
  std::vector<std::span<const double>> proba;
  const row_batch b = batch_of_piece(state.options(), t, first_row_id, proba, from, count);
  try {
    state.update(b);
  } catch (const error& e) {
    throw error(e.kind(), fmt::format("{}: {}", name, e.marked()));
  }
}

}  // namespace assay::scale::detail
