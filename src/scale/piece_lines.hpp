// assay (internal): messages about a piece of a prediction file (a part read by an MPI rank, a piece
// read out of core) name the line in the whole file. Private to src/scale.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "assay/error.hpp"

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

}  // namespace assay::scale::detail
