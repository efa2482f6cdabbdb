// The MPI session and the MPI transport of the library's protocols (scale/transport.hpp) for the CLI
// under mpirun (cli/mpi.hpp). Compiled to one-process stand-ins when the build has no MPI
// (ASSAY_HAVE_MPI unset).
#include "mpi.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <stdexcept>
#include <thread>

#include "assay/error.hpp"

#ifdef ASSAY_HAVE_MPI
#include <mpi.h>
#endif

namespace assay::cli::mpi {

#ifdef ASSAY_HAVE_MPI

namespace {

bool started = false;  // this process called MPI_Init
int my_rank = 0, my_ranks = 1;

// Whether a process launcher (mpirun / mpiexec of Open MPI or MPICH, srun with PMI) started us. MPI
// is initialised only then: MPI_Init in a plain process would make it a singleton MPI job, which
// with Open MPI starts a helper daemon (slow, and refused in some containers).
bool launched() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(v) != nullptr) return true;
  }
  return false;
}

constexpr int tag_length = 101, tag_bytes = 102, tag_exchange_length = 103, tag_exchange = 104;
constexpr std::uint64_t absent = ~std::uint64_t{0};
constexpr std::uint64_t piece = std::uint64_t{1} << 30;

// Waits for `request` without spinning a core: MPI_Test, then sleeps growing from 50 us to 2 ms.
// A blocking MPI call polls the network at full speed, and a rank that is done early (or waits for
// rank 0's merge) would take a core from the ranks still working on a machine with few cores.
void wait_idle(MPI_Request& request) {
  int done = 0;
  for (auto pause = std::chrono::microseconds(50);; pause = std::min(2 * pause, std::chrono::microseconds(2000))) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done != 0) return;
    std::this_thread::sleep_for(pause);
  }
}

void allreduce(const void* in, void* out, MPI_Datatype type, MPI_Op op) {
  MPI_Request r;
  MPI_Iallreduce(in, out, 1, type, op, MPI_COMM_WORLD, &r);
  wait_idle(r);
}

}  // namespace

session::session(int& argc, char**& argv) {
  if (!launched()) return;
  int provided = 0;
  // Only the main thread calls MPI (the library's worker threads never do).
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return;
  started = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &my_ranks);
}

session::~session() {
  if (started) MPI_Finalize();
}

int rank() { return my_rank; }
int ranks() { return my_ranks; }

void check_command(std::string_view command) {
  // curve: roc, pr, threshold and cost of scores from the merged states, the rest from the parts'
  // columns gathered on rank 0; compare: the columns gathered too.
  if (my_ranks <= 1 || command == "report" || command == "cv" || command == "curve" || command == "compare") return;
  if (command.empty() || command.front() == '-') return;  // --help, --version: answered by rank 0
  throw_usage(fmt::format("this command does not run on several MPI ranks ({} ranks): run it as one process. Only "
                          "report, curve, compare and cv spread their work over ranks",
                          my_ranks));
}

void send_bytes(const std::string* bytes, int to) {
  const std::uint64_t n = bytes != nullptr ? bytes->size() : absent;
  MPI_Request r;
  MPI_Isend(&n, 1, MPI_UINT64_T, to, tag_length, MPI_COMM_WORLD, &r);
  wait_idle(r);
  if (bytes == nullptr) return;
  // The payload: the receiver is waiting for it (it has the length), so a blocking wait, which drives
  // MPI's progress at full speed: a large message moves in many fragments, each needing a progress
  // call, and wait_idle's pauses made a 30 MB transfer take about 1 s instead of a few ms.
  for (std::uint64_t at = 0; at < n; at += piece) {
    const auto k = static_cast<int>(std::min(piece, n - at));
    MPI_Isend(bytes->data() + at, k, MPI_BYTE, to, tag_bytes, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
}

bool receive_bytes(std::string& bytes, int from) {
  std::uint64_t n = 0;
  MPI_Request r;
  MPI_Irecv(&n, 1, MPI_UINT64_T, from, tag_length, MPI_COMM_WORLD, &r);
  wait_idle(r);
  if (n == absent) return false;
  bytes.resize(n);
  for (std::uint64_t at = 0; at < n; at += piece) {  // the sender is sending: a blocking wait (send_bytes)
    const auto k = static_cast<int>(std::min(piece, n - at));
    MPI_Irecv(bytes.data() + at, k, MPI_BYTE, from, tag_bytes, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  return true;
}

namespace {

std::vector<std::string> all_gather_bytes(const std::string& mine) {
  if (ranks() <= 1) return {mine};
  if (mine.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::length_error(fmt::format("all_gather_bytes: {} bytes; at most 2^31 - 1 a rank", mine.size()));
  }
  const int n = ranks();
  const int size = static_cast<int>(mine.size());
  std::vector<int> sizes(static_cast<std::size_t>(n)), at(static_cast<std::size_t>(n));
  MPI_Request r;
  MPI_Iallgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD, &r);
  wait_idle(r);
  std::int64_t total = 0;
  for (int k = 0; k < n; ++k) {
    at[static_cast<std::size_t>(k)] = static_cast<int>(total);
    total += sizes[static_cast<std::size_t>(k)];
  }
  if (total > std::numeric_limits<int>::max()) {
    throw std::length_error(fmt::format("all_gather_bytes: {} bytes in all; at most 2^31 - 1", total));
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Iallgatherv(mine.data(), size, MPI_BYTE, all.data(), sizes.data(), at.data(), MPI_BYTE, MPI_COMM_WORLD, &r);
  wait_idle(r);
  std::vector<std::string> out;
  for (int k = 0; k < n; ++k) out.push_back(all.substr(static_cast<std::size_t>(at[static_cast<std::size_t>(k)]),
                                                       static_cast<std::size_t>(sizes[static_cast<std::size_t>(k)])));
  return out;
}

// All to all (scale::transport::exchange): nonblocking sends and receives in rounds, since a large
// send waits for its receiver.
std::vector<scale::range_bytes> exchange_bytes(std::span<const std::string_view> to_each) {
  const int n = ranks(), me = rank();
  if (to_each.size() != static_cast<std::size_t>(n)) {
    throw std::logic_error(fmt::format("exchange_bytes: {} strings for {} ranks", to_each.size(), n));
  }
  std::vector<scale::range_bytes> from(static_cast<std::size_t>(n));
  // Round k: send to rank me + k, receive from rank me - k (mod n); both at once, so no rank waits
  // on a send that its peer has not yet posted a receive for.
  for (int k = 1; k < n; ++k) {
    const int to = (me + k) % n, src = (me - k + n) % n;
    const std::string_view out = to_each[static_cast<std::size_t>(to)];
    std::uint64_t out_n = out.size(), in_n = 0;
    MPI_Request rq[2];
    MPI_Isend(&out_n, 1, MPI_UINT64_T, to, tag_exchange_length, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&in_n, 1, MPI_UINT64_T, src, tag_exchange_length, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    scale::range_bytes& in = from[static_cast<std::size_t>(src)];
    in = scale::range_bytes::of_size(in_n);  // not zero-filled: every byte is received
    for (std::uint64_t at = 0; at < std::max(out_n, in_n); at += piece) {
      int count = 0;
      if (at < out_n) {
        MPI_Isend(out.data() + at, static_cast<int>(std::min(piece, out_n - at)), MPI_BYTE, to, tag_exchange,
                  MPI_COMM_WORLD, &rq[count++]);
      }
      if (at < in_n) {
        MPI_Irecv(in.data.get() + at, static_cast<int>(std::min(piece, in_n - at)), MPI_BYTE, src, tag_exchange,
                  MPI_COMM_WORLD, &rq[count++]);
      }
      MPI_Waitall(count, rq, MPI_STATUSES_IGNORE);
    }
  }
  return from;
}

std::uint64_t sum_over_lower_ranks(std::uint64_t mine) {
  if (ranks() <= 1) return 0;  // one process (MPI may not be initialised)
  std::uint64_t below = 0;
  MPI_Request r;
  MPI_Iexscan(&mine, &below, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &r);
  wait_idle(r);
  return rank() == 0 ? 0 : below;  // MPI leaves rank 0's result undefined
}

std::uint64_t min_over_ranks(std::uint64_t mine) {
  if (ranks() <= 1) return mine;
  std::uint64_t low = mine;
  allreduce(&mine, &low, MPI_UINT64_T, MPI_MIN);
  return low;
}

// The ranks of MPI_COMM_WORLD (one rank outside a launcher).
class mpi_transport final : public scale::transport {
 public:
  [[nodiscard]] int rank() const override { return my_rank; }
  [[nodiscard]] int size() const override { return my_ranks; }
  std::vector<std::string> all_gather(const std::string& mine) override { return all_gather_bytes(mine); }
  void send(int to, const std::string* bytes) override { send_bytes(bytes, to); }
  bool receive(int from, std::string& bytes) override { return receive_bytes(bytes, from); }
  std::uint64_t min_over_ranks(std::uint64_t mine) override { return mpi::min_over_ranks(mine); }
  std::uint64_t sum_over_lower_ranks(std::uint64_t mine) override { return mpi::sum_over_lower_ranks(mine); }
  std::vector<scale::range_bytes> exchange(std::span<const std::string_view> to_each) override {
    return exchange_bytes(to_each);
  }
};

}  // namespace

scale::transport& world() {
  static mpi_transport t;
  return t;
}

#else  // no MPI in this build: one process

session::session(int&, char**&) {}
session::~session() = default;
int rank() { return 0; }
int ranks() { return 1; }
void check_command(std::string_view) {}
void send_bytes(const std::string*, int) { throw std::logic_error("send_bytes: this build has no MPI"); }
bool receive_bytes(std::string&, int) { throw std::logic_error("receive_bytes: this build has no MPI"); }
scale::transport& world() {
  static scale::solo_transport t;
  return t;
}

#endif

void agreed(const std::function<void()>& local, const std::uint64_t* key) { scale::agreed(world(), local, key); }

}  // namespace assay::cli::mpi
