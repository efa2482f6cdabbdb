// `assay report --by` on a file read in pieces within a memory cap: one sliced state of the whole
// file (include/assay/scale/out_of_core.hpp, docs/scaling.md "Out of core").
#include <fmt/format.h>

#include "assay/error.hpp"
#include "assay/scale/file_parts.hpp"
#include "assay/scale/out_of_core.hpp"
#include "assay/scale/sliced_state.hpp"
#include "sliced_parts.hpp"

namespace assay::scale {

sliced_report make_sliced_report_out_of_core(const report_request& q, const std::vector<std::string>& by,
                                             const out_of_core_options& options, out_of_core_info* info) {
  const char* fn = "make_sliced_report_out_of_core";
  if (options.max_memory < (std::uint64_t{1} << 20)) {
    throw_usage(fmt::format("{}: {} is {} bytes; it must be at least 1 MiB", fn, param("max_memory"),
                            options.max_memory));
  }
  if (q.path == "-") throw_usage(fmt::format("{}: standard input cannot be read out of core (give a file)", fn));
  const std::uint64_t budget = options.max_memory;
  out_of_core_info local;
  out_of_core_info& inf = info != nullptr ? *info : local;
  inf = {};
  // A piece's text and its columns (about as many bytes again) are an eighth of the cap; the rest is
  // the state's.
  const auto piece_bytes = static_cast<std::size_t>(budget / 16);
  const auto check = [&](const sliced_state& s, std::uint64_t piece) {
    ++inf.pieces;
    const std::uint64_t held = s.memory_bytes() + piece;
    if (held <= budget) return;
    throw_data(fmt::format(
        "{}: the sliced report needs {} KiB after {} rows (its state and the piece being read), more than the {} "
        "of {} KiB: it holds one run per distinct score, true class and slice ({} slices so far), and the runs "
        "of slices are not spilled to disk; raise {}, round the scores, or read the file in memory",
        s.options().source, (held + 1023) >> 10, s.rows(), param("max_memory"), budget >> 10, s.slices(),
        param("max_memory")));
  };
  const sliced_state s = detail::sliced_state_of_file_part(q, by, part_of_file(q, 0, 1), piece_bytes, check);
  if (s.rows() == 0) {
    // read_table's message for a file without rows (make_sliced_report reads the whole file with it).
    io::table t;
    t.source = s.options().source;
    t.missing.rows = s.missing();
    check_rows(t);
  }
  sliced_report r = s.finish(options_of(q));
  if (q.csv.drop_missing) r.overall.missing = s.missing();  // as make_sliced_report: the rows skipped
  return r;
}

}  // namespace assay::scale
