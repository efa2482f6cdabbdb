// `assay report` over MPI ranks (cli/mpi.hpp, docs/scaling.md "MPI"): one part of the file per rank
// (scale::part_of_file / state_of_file_part), the states merged on rank 0 along a binary tree.
#include <malloc.h>

#include <optional>
#include <stdexcept>

#include "assay/scale/file_parts.hpp"
#include "assay/scale/state.hpp"
#include "mpi.hpp"

namespace assay::cli::mpi {

void report_by_parts(const report_request& q, const std::function<void(const report&)>& on_root) {
  const int r = rank(), n = ranks();
  // The pieces' columns and the state's run lists are large vectors made and freed again and again;
  // glibc maps each one afresh (above 32 MiB) and faults its pages in anew (page clearing and faults
  // were about 15% of rank 0's perf samples at 10^7 distinct scores). Large blocks then come from
  // the heap, which is not trimmed, so their pages are reused.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  std::optional<scale::evaluation_state> state;
  // Pass 1: each rank reads its part (about 1/n of the file's bytes) into its state.
  agreed([&] { state.emplace(scale::state_of_file_part(q, scale::part_of_file(q, r, n))); });
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
        std::string blob;
        const bool got = receive_bytes(blob, r + step);
        if (failed) continue;
        if (!got) {  // the sender failed: its own message is the one agreed on
          failed = true;
          continue;
        }
        try {
          state->merge(scale::read_state(blob, state->options()));
        } catch (...) {
          failed = true;
          first = std::current_exception();
        }
      }
    }
    if (first) std::rethrow_exception(first);
  });
  // Rank 0 finishes the report and writes it; agreed, so a failure there fails every rank.
  agreed([&] {
    if (r == 0) {
      report rep = state->finish(options_of(q));
      if (q.csv.drop_missing) rep.missing = state->missing();  // rows skipped for an empty cell, all parts
      on_root(rep);
    }
  });
}

}  // namespace assay::cli::mpi
