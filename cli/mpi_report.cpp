// `assay report` (with --by too) over MPI ranks (cli/mpi.hpp, docs/scaling.md "MPI"): one part of the
// file per rank (scale::part_of_file / state_of_file_part / sliced_state_of_file_part), the states
// merged on rank 0 along a binary tree.
#include <malloc.h>

#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "assay/error.hpp"
#include "assay/scale/file_parts.hpp"
#include "assay/scale/sliced_state.hpp"
#include "assay/scale/state.hpp"
#include "mpi.hpp"

namespace assay::cli::mpi {

namespace {

// Rank r's state of part r of the file (pass 1: about 1/n of the file's bytes; `of_part`), its row ids
// those of the file, then merged into rank 0's; agreed (an error on any rank is thrown on every rank).
// `State` is scale::evaluation_state or scale::sliced_state (rows, offset_row_ids, serialize, merge);
// `read` reads a serialised state with the options of this rank's.
template <class State, class OfPart, class Read>
void state_on_root(std::optional<State>& state, const OfPart& of_part, const Read& read) {
  const int r = rank(), n = ranks();
  agreed([&] { state.emplace(of_part(r, n)); });
  // A part's rows have ids from 0; its first row's index among the file's rows is the rows of the parts
  // before it (the row a message names, e.g. the first whose class probabilities do not sum to 1, and
  // the ids the Poisson bootstrap draws on). Rows skipped for an empty cell (--drop-missing) have no
  // index, as in the one-process table, which does not hold them.
  const std::uint64_t before = sum_over_lower_ranks(state->rows());
  agreed([&] { state->offset_row_ids(before); });
  // Merge along a binary tree: at step s (1, 2, 4, ...) rank r with r % 2s == s sends its state to
  // rank r - s, which merges it into its own; after ceil(log2 n) steps rank 0 holds every row. Each
  // state crosses the network once. A rank that fails sends a marker instead, so that no rank waits.
  agreed([&] {
    bool failed = false;
    std::exception_ptr first;
    for (int step = 1; step < n; step *= 2) {
      if (r % (2 * step) == step) {
        std::string blob;
        if (!failed) {
          try {
            blob = state->serialize();
          } catch (...) {
            failed = true;
            first = std::current_exception();
          }
        }
        state.reset();
        send_bytes(failed ? nullptr : &blob, r - step);
        break;
      }
      if (r % (2 * step) == 0 && r + step < n) {
        // While the sender serialises its state, this rank merges its own run lists (else the merge
        // below would, after the bytes arrive: 0.18 s of rank 0's tail at 10^7 distinct scores).
        if constexpr (requires(State& s) { s.compact(); }) {
          if (!failed) {
            try {
              state->compact();
            } catch (...) {
              failed = true;
              first = std::current_exception();
            }
          }
        }
        std::string blob;
        const bool got = receive_bytes(blob, r + step);
        if (failed) continue;
        if (!got) {  // the sender failed: its own message is the one agreed on
          failed = true;
          continue;
        }
        try {
          state->merge(read(blob, *state));
        } catch (...) {
          failed = true;
          first = std::current_exception();
        }
      }
    }
    if (first) std::rethrow_exception(first);
  });
}

// On rank 0: read_table's message for a file without rows (the one-process run reads the whole file
// with it) when no rank read a row, rather than the state's finish().
template <class State>
void check_rows_of(const State& state) {
  if (state.rows() > 0) return;
  io::table t;
  t.source = state.options().source;
  t.missing.rows = state.missing();
  scale::check_rows(t);
}

// The state of the report `q` on rank 0 (unsliced).
void state_on_root(const report_request& q, std::optional<scale::evaluation_state>& state) {
  state_on_root(
      state, [&](int r, int n) { return scale::state_of_file_part(q, scale::part_of_file(q, r, n)); },
      [](const std::string& blob, const scale::evaluation_state& mine) { return scale::read_state(blob, mine.options()); });
}

// The pieces' columns and the state's run lists are large vectors made and freed again and again;
// glibc maps each one afresh (above 32 MiB) and faults its pages in anew (page clearing and faults
// were about 15% of rank 0's perf samples at 10^7 distinct scores). Large blocks then come from the
// heap, which is not trimmed, so their pages are reused.
void keep_large_blocks() {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

}  // namespace

void report_by_parts(const report_request& q, const std::function<void(const report&)>& on_root) {
  keep_large_blocks();
  std::optional<scale::evaluation_state> state;
  state_on_root(q, state);
  // Rank 0 finishes the report and writes it; agreed, so a failure there fails every rank.
  agreed([&] {
    if (rank() == 0) {
      check_rows_of(*state);
      report rep = state->finish(options_of(q));
      if (q.csv.drop_missing) rep.missing = state->missing();  // rows skipped for an empty cell, all parts
      on_root(rep);
    }
  });
}

void sliced_report_by_parts(const report_request& q, const std::vector<std::string>& by,
                            const std::function<void(const sliced_report&)>& on_root) {
  keep_large_blocks();
  std::optional<scale::sliced_state> state;
  state_on_root(
      state, [&](int r, int n) { return scale::sliced_state_of_file_part(q, by, scale::part_of_file(q, r, n)); },
      [](const std::string& blob, const scale::sliced_state& mine) {
        return scale::read_sliced_state(blob, mine.options(), mine.by());
      });
  agreed([&] {
    if (rank() == 0) {
      check_rows_of(*state);
      sliced_report rep = state->finish(options_of(q));
      if (q.csv.drop_missing) rep.overall.missing = state->missing();  // as make_sliced_report: all parts
      on_root(rep);
    }
  });
}

void curve_by_parts(const curves::curve_request& c, const std::function<void(curves::swept_models)>& on_root) {
  keep_large_blocks();
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
    std::optional<scale::evaluation_state> state;
    state_on_root(q, state);
    agreed([&] {
      if (rank() != 0) return;
      const scale::state_options& o = state->options();
      if (state->rows() == 0) throw_data(fmt::format("{}: no data rows", o.source));
      scale::evaluation_state::scores_swept s = state->sweep_of_scores(c.max_fpr.has_value() && !c.weight);
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
  agreed([&] {
    if (rank() == 0) on_root(std::move(out));
  });
}

}  // namespace assay::cli::mpi
