// assay (internal): what the readers of a prediction file in pieces share (a part read by an MPI
// rank, a piece read out of core): a piece's rows into the state, and messages that name the line in
// the whole file. Private to src/scale.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/scale/state.hpp"

namespace assay::scale::detail {

/// Rethrows `e`, rewriting a leading "name:N: ..." (line N of a piece that holds the header line and
/// then the piece's rows) into the file's line N + lines_before. Keeps the parameter marks.
[[noreturn]] inline void rethrow_with_line(const error& e, const std::string& name, std::uint64_t lines_before) {
  const std::string m = e.marked();
  const std::string prefix = name + ":";
  if (m.rfind(prefix, 0) == 0) {
    std::size_t i = prefix.size(), j = i;
    while (j < m.size() && m[j] >= '0' && m[j] <= '9') ++j;
    if (j > i && j < m.size() && m[j] == ':') {
      const std::uint64_t line = std::stoull(m.substr(i, j - i)) + lines_before;
      throw error(e.kind(), fmt::format("{}{}{}", prefix, line, m.substr(j)));
    }
  }
  throw e;
}

/// Adds the rows of a piece, read as the columns {label, score or predicted class, weight when
/// `weighted`}, to `state`. A refused row is an error that names the file `name` first.
inline void update_with_piece(evaluation_state& state, const io::table& t, bool scores, bool weighted,
                              const std::string& name) {
  if (t.rows == 0) return;
  const io::column& lab = t.columns[0];
  row_batch b;
  b.y_true = label_column::of_codes(lab.codes, lab.levels);
  if (scores) b.y_score = t.columns[1].numbers;
  else b.y_pred = label_column::of_codes(t.columns[1].codes, t.columns[1].levels);
  if (weighted) b.sample_weight = t.columns[2].numbers;
  try {
    state.update(b);
  } catch (const error& e) {
    throw error(e.kind(), fmt::format("{}: {}", name, e.marked()));
  }
}

}  // namespace assay::scale::detail
