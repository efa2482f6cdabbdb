// `assay compare` over MPI ranks (cli/mpi.hpp, docs/scaling.md "MPI"): each rank parses one part of
// the file (scale::table_of_file_part), rank 0 gathers the parts' columns in file order and runs the
// one-process comparison on them.
#include <string>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/scale/file_parts.hpp"
#include "mpi.hpp"

namespace assay::cli::mpi {

void columns_by_parts(const std::string& path, const io::csv_options& csv, const std::vector<io::column_spec>& specs,
                      const std::function<void(io::table&&)>& on_root) {
  const int r = rank(), n = ranks();
  io::table mine;
  // Rows with an empty cell are skipped and counted in every part, and refused (without drop_missing)
  // once the parts are joined: the count of all parts and the file's first such row, the one-process
  // message whatever the number of ranks.
  io::csv_options counted = csv;
  counted.drop_missing = true;
  agreed([&] { mine = scale::table_of_file_part(path, counted, specs, scale::part_of_file(path, csv, r, n)); });
  // Rank 0 receives the parts of ranks 1, 2, ... in rank (= file) order and appends them to its own;
  // each part crosses the network once. A rank that fails to serialise sends a marker instead.
  agreed([&] {
    if (r != 0) {
      std::string blob;
      bool failed = false;
      std::exception_ptr first;
      try {
        blob = scale::serialize_table(mine);
      } catch (...) {
        failed = true;
        first = std::current_exception();
      }
      mine = io::table();
      send_bytes(failed ? nullptr : &blob, 0);
      if (first) std::rethrow_exception(first);
      return;
    }
    bool failed = false;
    std::exception_ptr first;
    for (int from = 1; from < n; ++from) {
      std::string blob;
      const bool got = receive_bytes(blob, from);  // every sender is received, also after a failure
      if (failed) continue;
      if (!got) {  // the sender failed: its own message is the one agreed on
        failed = true;
        continue;
      }
      try {
        scale::append_rows(mine, scale::read_table_bytes(blob));
      } catch (...) {
        failed = true;
        first = std::current_exception();
      }
    }
    if (first) std::rethrow_exception(first);
  });
  // Rank 0 computes and writes; agreed, so a failure there fails every rank. Its message is about the
  // whole file (no rank prefix: the one-process message).
  const std::uint64_t whole_file = 0;
  agreed([&] {
    if (r != 0) return;
    if (!csv.drop_missing) io::refuse_missing(mine.missing, mine.source);
    scale::check_rows(mine);  // read_table's message for a file without rows
    on_root(std::move(mine));
  }, &whole_file);
}

}  // namespace assay::cli::mpi
