// assay (internal): the states of the ranks' parts merged on rank 0 along a binary tree, for the
// protocols of include/assay/scale/over_ranks.hpp (src/scale/over_ranks.cpp, over_ranks_ranges.cpp).
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/scale/file_parts.hpp"
#include "assay/scale/transport.hpp"
#include "string_list.hpp"

namespace assay::scale::detail {

// Rows with an empty cell (without drop_missing) are refused for the whole file at once, after every
// part is read: the count of all parts and the file's first such row, the one-process message (a
// part's own count would depend on how many ranks read the file). Agreed, without a rank named.
inline void refuse_missing_over_ranks(transport& t, const io::missing_rows& unrefused, const std::string& source) {
  std::vector<io::missing_rows> parts;
  for (const auto& b : t.all_gather(pack_strings({std::to_string(unrefused.rows), std::to_string(unrefused.first_line),
                                                  unrefused.first_column}))) {
    const std::vector<std::string> f = unpack_strings(b);
    io::missing_rows m;
    m.rows = std::stoull(f.at(0));
    m.first_line = std::stoull(f.at(1));
    m.first_column = f.at(2);
    parts.push_back(std::move(m));
  }
  const std::uint64_t whole_file = 0;
  agreed(t, [&] {
    if (t.rank() == 0) refuse_missing_of_parts(parts, source);
  }, &whole_file);
}

// Runs `step` unless this rank has failed already; a throw marks it failed, keeping the first error.
template <class Step>
void unless_failed(bool& failed, std::exception_ptr& first, Step&& step) {
  if (failed) return;
  try {
    step();
  } catch (...) {
    failed = true;
    first = std::current_exception();
  }
}

// Merge along a binary tree: at step s (1, 2, 4, ...) rank r with r % 2s == s sends its state to
// rank r - s, which merges it into its own; after ceil(log2 n) steps rank 0 holds every row. Each
// state crosses the network once. A rank that fails sends a marker instead, so that no rank waits;
// the first error of this rank is thrown after its part of the tree is done.
template <class State, class Read>
void merge_along_tree(transport& t, std::optional<State>& state, const Read& read) {
  const int r = t.rank(), n = t.size();
  bool failed = false;
  std::exception_ptr first;
  for (int step = 1; step < n; step *= 2) {
    if (r % (2 * step) == step) {
      std::string blob;
      unless_failed(failed, first, [&] { blob = state->serialize(); });
      state.reset();
      t.send(r - step, failed ? nullptr : &blob);
      break;
    }
    if (r % (2 * step) == 0 && r + step < n) {
      // While the sender serialises its state, this rank merges its own run lists (else the merge
      // below would, after the bytes arrive: 0.18 s of rank 0's tail at 10^7 distinct scores).
      if constexpr (requires(State& s) { s.compact(); }) unless_failed(failed, first, [&] { state->compact(); });
      std::string blob;
      const bool got = t.receive(r + step, blob);
      if (failed) continue;
      if (!got) {  // the sender failed: its own message is the one agreed on
        failed = true;
        continue;
      }
      unless_failed(failed, first, [&] { state->merge(read(blob, *state)); });
    }
  }
  if (first) std::rethrow_exception(first);
}

// Rank r's state of part r of the file (`of_part(r, n, unrefused)`: about 1/n of the file's bytes),
// its row ids those of the file, then merged into rank 0's; agreed (an error on any rank is thrown on
// every rank). `State` is evaluation_state or sliced_state (rows, offset_row_ids, serialize, merge,
// options); `read` reads a serialised state with the options of this rank's.
template <class State, class OfPart, class Read>
void state_on_root(transport& t, std::optional<State>& state, const OfPart& of_part, const Read& read) {
  const int r = t.rank(), n = t.size();
  io::missing_rows unrefused;
  agreed(t, [&] { state.emplace(of_part(r, n, &unrefused)); });
  refuse_missing_over_ranks(t, unrefused, state->options().source);
  // A part's rows have ids from 0; its first row's index among the file's rows is the rows of the parts
  // before it (the row a message names, e.g. the first whose class probabilities do not sum to 1, and
  // the ids the Poisson bootstrap draws on). Rows skipped for an empty cell (drop_missing) have no
  // index, as in the one-process table, which does not hold them.
  const std::uint64_t before = t.sum_over_lower_ranks(state->rows());
  agreed(t, [&] { state->offset_row_ids(before); });
  agreed(t, [&] { merge_along_tree(t, state, read); });
}

// On rank 0: read_table's message for a file without rows (the one-process run reads the whole file
// with it) when no rank read a row, rather than the state's finish().
template <class State>
void check_rows_of(const State& state) {
  if (state.rows() > 0) return;
  io::table tb;
  tb.source = state.options().source;
  tb.missing.rows = state.missing();
  check_rows(tb);
}

}  // namespace assay::scale::detail
