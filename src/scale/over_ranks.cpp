// The report, the sliced report and the curves' sweeps over the ranks of a transport, by merged
// states (include/assay/scale/over_ranks.hpp); the range path is in over_ranks_ranges.cpp.
#include "assay/scale/over_ranks.hpp"

#include <fmt/format.h>

#include <optional>

#include "assay/error.hpp"
#include "assay/scale/file_parts.hpp"
#include "assay/scale/sliced_state.hpp"
#include "assay/scale/state.hpp"
#include "tree_merge.hpp"

namespace assay::scale {

namespace {

// The size of the pieces a rank reads its part in.
constexpr std::size_t piece_bytes = std::size_t{64} << 20;

// The state of the report `q` on rank 0 (unsliced).
void state_on_root(transport& t, const report_request& q, std::optional<evaluation_state>& state) {
  detail::state_on_root(
      t, state,
      [&](int r, int n, io::missing_rows* unrefused) {
        return state_of_file_part(q, part_of_file(q, static_cast<std::size_t>(r), static_cast<std::size_t>(n)),
                                  piece_bytes, unrefused);
      },
      [](const std::string& blob, const evaluation_state& mine) { return read_state(blob, mine.options()); });
}

}  // namespace

void report_by_parts(transport& t, const report_request& q, const std::function<void(const report&)>& on_root,
                     const over_ranks_options& options) {
  if (report_by_ranges(t, q, on_root, options)) return;
  std::optional<evaluation_state> state;
  state_on_root(t, q, state);
  // Rank 0 finishes the report; agreed, so a failure there fails every rank. Its message is about the
  // whole file (no rank prefix: the one-process message).
  const std::uint64_t whole_file = 0;
  agreed(t, [&] {
    if (t.rank() == 0) {
      detail::check_rows_of(*state);
      check_classes_as_file(*state, q);  // make_report's words for classes it refuses
      report rep = state->finish(options_of(q));
      if (q.csv.drop_missing) rep.missing = state->missing();  // rows skipped for an empty cell, all parts
      on_root(rep);
    }
  }, &whole_file);
}

void sliced_report_by_parts(transport& t, const report_request& q, const std::vector<std::string>& by,
                            const std::function<void(const sliced_report&)>& on_root) {
  std::optional<sliced_state> state;
  detail::state_on_root(
      t, state,
      [&](int r, int n, io::missing_rows* unrefused) {
        return sliced_state_of_file_part(q, by, part_of_file(q, static_cast<std::size_t>(r), static_cast<std::size_t>(n)),
                                         piece_bytes, unrefused);
      },
      [](const std::string& blob, const sliced_state& mine) { return read_sliced_state(blob, mine.options(), mine.by()); });
  agreed(t, [&] {
    if (t.rank() == 0) {
      detail::check_rows_of(*state);
      sliced_report rep = state->finish(options_of(q));
      if (q.csv.drop_missing) rep.overall.missing = state->missing();  // as make_sliced_report: all parts
      on_root(rep);
    }
  });
}

void curve_by_parts(transport& t, const curves::curve_request& c,
                    const std::function<void(curves::swept_models)>& on_root) {
  curves::swept_models out;
  // One state (one pass over the rank's part) per score column: the models' sweeps.
  for (const auto& score : c.scores) {
    report_request q;
    q.path = c.path;
    q.csv = c.csv;
    q.label = c.label;
    q.score = score;
    q.weight = c.weight;
    q.pos_label = c.pos_label;
    std::optional<evaluation_state> state;
    state_on_root(t, q, state);
    agreed(t, [&] {
      if (t.rank() != 0) return;
      const state_options& o = state->options();
      if (state->rows() == 0) throw_data(fmt::format("{}: no data rows", o.source));
      evaluation_state::scores_swept s = state->sweep_of_scores(c.max_fpr.has_value() && !c.weight);
      out.source = o.source;
      out.label_column = o.label_name;
      out.classes = s.classes;
      out.positive = s.classes[s.positive];
      out.weighted = o.weighted;
      if (c.csv.drop_missing) out.missing = state->missing();  // the same rows in every column's pass
      out.models.emplace_back(o.prediction_name, std::move(s.sweep));
      out.negatives.push_back(std::move(s.negatives));
    });
  }
  agreed(t, [&] {
    if (t.rank() == 0) on_root(std::move(out));
  });
}

}  // namespace assay::scale
