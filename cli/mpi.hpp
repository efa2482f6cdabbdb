// assay CLI under mpirun: the MPI glue of the command-line tool (docs/scaling.md, "MPI"). The core
// library knows nothing of MPI; this front end starts MPI when the process was launched by mpirun
// (only in a build with MPI: ASSAY_HAVE_MPI) and gives the library's protocols (scale/over_ranks.hpp)
// its MPI transport (world()). With more than one rank `assay report` (and `assay curve
// roc|pr|threshold|cost` of scores) reads one part of the file per rank and merges the ranks'
// evaluation states on rank 0 (or, for distinct binary scores, ranks the rows range by range),
// `assay compare` and the other curves gather the parts' parsed columns on rank 0, and `assay cv`
// spreads its splits over the ranks. Rank 0 alone writes output and messages.
//
// Failures: every step that may fail on some ranks only is followed by an agreement (scale::agreed: a
// minimum over the ranks of the lowest failing rank, then its message), so either every rank goes on
// or every rank throws the same error: no rank waits for one that gave up, and rank 0 writes nothing.
// Without MPI in the build, ranks() is 1 and the functions below run as one process.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/curves/curve_report.hpp"
#include "assay/io/table.hpp"
#include "assay/report/report.hpp"
#include "assay/report/slices.hpp"
#include "assay/scale/transport.hpp"
#include "assay/validation/engine.hpp"

namespace assay::cli::mpi {

/// MPI for the lifetime of main(): initialised when the process was started by mpirun (or another
/// PMI launcher), finalised at the end. A no-op without MPI in the build or outside a launcher.
class session {
 public:
  session(int& argc, char**& argv);
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;
};

/// This process's rank and the number of ranks (0 and 1 without MPI).
int rank();
int ranks();

/// The ranks of this run as the library's transport (scale/transport.hpp): MPI's collectives and
/// point-to-point messages; without MPI (or outside a launcher), one rank.
scale::transport& world();

/// Under more than one rank, refuses (usage error) a command that does not spread its work over
/// ranks: `command` is its name as typed (argv[1]); nothing happens for report, curve, compare and cv.
void check_command(std::string_view command);

/// scale::agreed(world(), local, key): when `local` threw on some rank, every rank throws the error of
/// the lowest rank that failed (or of the lowest *key).
void agreed(const std::function<void()>& local, const std::uint64_t* key = nullptr);

/// `assay report` over the ranks: scale::report_by_parts over world() (the range path for distinct
/// binary scores, else the parts' states merged on rank 0); rank 0 calls `on_root` with the report
/// make_report gives. Agreed: an error on any rank is thrown on every rank, before `on_root` runs.
/// ASSAY_MPI_RANGES=0 never takes the range path, =1 takes it whatever the scores; ASSAY_MPI_TRACE=1
/// prints on rank 0's standard error that it ran and each rank's steps (docs/scaling.md, "MPI").
void report_by_parts(const report_request& request, const std::function<void(const report&)>& on_root);

/// `assay report --by` over the ranks: scale::sliced_report_by_parts over world(); rank 0 calls
/// `on_root` with the sliced report make_sliced_report(request, by) gives.
void sliced_report_by_parts(const report_request& request, const std::vector<std::string>& by,
                            const std::function<void(const sliced_report&)>& on_root);

/// `assay curve roc|pr|threshold|cost --score ...` over the ranks: scale::curve_by_parts over world();
/// rank 0 calls `on_root` with the models' sweeps, from which curves::write_curve_of_sweeps writes
/// make_curve's bytes.
void curve_by_parts(const curves::curve_request& request,
                    const std::function<void(curves::swept_models)>& on_root);

/// `assay compare` (and `assay curve` where the sweeps do not suffice) over the ranks: rank r reads
/// the columns `specs` of part r of the file
/// (scale::table_of_file_part: the parallel part), sends them to rank 0 (scale::serialize_table, point
/// to point), which joins them in file order (scale::append_rows) and calls `on_root` with the columns
/// io::read_table gives on the whole file. Agreed: an error on any rank (a bad row in its part: "rank R
/// of N: ...") is thrown on every rank; so is a failure in `on_root` (the whole file's: no rank named). Bytes moved: each rank's columns once (8 bytes a row
/// per number column, 4 per label column, plus its levels); rank 0 holds every row, as one process does.
void columns_by_parts(const std::string& path, const io::csv_options& csv, const std::vector<io::column_spec>& specs,
                      const std::function<void(io::table&&)>& on_root);

/// cross_validate over the ranks: rank r runs the splits s with s % ranks() == r (run_splits), the
/// outcomes are sent to rank 0, which returns summarize_splits' result: the same as cross_validate's on
/// one process (`threads`: the lanes of every rank together; `seconds`: the wall time). Other ranks
/// return an empty result. Agreed: the error of the first failing split (in split order) is thrown
/// on every rank.
validation::cv_result cross_validate_over_ranks(const validation::dataset& d, const validation::any_learner& learner,
                                                const validation::split_list& splits,
                                                const validation::cv_options& options);

/// Sends and receives byte strings of any size (64-bit length, then pieces of at most 1 GiB); an
/// absent string (a failed sender) is sent as a marker and received as false (world()'s send and
/// receive).
void send_bytes(const std::string* bytes, int to);
bool receive_bytes(std::string& bytes, int from);

}  // namespace assay::cli::mpi
