// `assay report` (with --by too) and `assay curve` of scores over MPI ranks (cli/mpi.hpp, docs/scaling.md
// "MPI"): the protocols are the library's (scale/over_ranks.hpp), run over the MPI transport (world());
// here only the process's allocator settings and the environment's choices.
#include <malloc.h>

#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "assay/scale/over_ranks.hpp"
#include "mpi.hpp"

namespace assay::cli::mpi {

namespace {

// The pieces' columns and the state's run lists are large vectors made and freed again and again;
// glibc maps each one afresh (above 32 MiB) and faults its pages in anew (page clearing and faults
// were about 15% of rank 0's perf samples at 10^7 distinct scores). Large blocks then come from the
// heap, which is not trimmed, so their pages are reused.
void keep_large_blocks() {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

// ASSAY_MPI_RANGES=0 never takes the range path, =1 takes it whatever the scores; ASSAY_MPI_TRACE
// prints on rank 0's standard error that it ran and each rank's steps (docs/scaling.md, "MPI").
scale::over_ranks_options options_of_environment() {
  scale::over_ranks_options o;
  const char* env = std::getenv("ASSAY_MPI_RANGES");
  const std::string_view mode = env != nullptr ? env : "";
  if (mode == "0") o.ranges = scale::over_ranks_options::range_path::never;
  if (mode == "1") o.ranges = scale::over_ranks_options::range_path::always;
  if (std::getenv("ASSAY_MPI_TRACE") != nullptr) {
    o.trace = [](const std::string& text) { fmt::print(stderr, "assay report: {}", text); };
  }
  return o;
}

}  // namespace

void report_by_parts(const report_request& q, const std::function<void(const report&)>& on_root) {
  keep_large_blocks();
  scale::report_by_parts(world(), q, on_root, options_of_environment());
}

void sliced_report_by_parts(const report_request& q, const std::vector<std::string>& by,
                            const std::function<void(const sliced_report&)>& on_root) {
  keep_large_blocks();
  scale::sliced_report_by_parts(world(), q, by, on_root);
}

void curve_by_parts(const curves::curve_request& c, const std::function<void(curves::swept_models)>& on_root) {
  keep_large_blocks();
  scale::curve_by_parts(world(), c, on_root);
}

}  // namespace assay::cli::mpi
