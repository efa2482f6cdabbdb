// assay::scale::transport: what the scale-out protocols (scale/over_ranks.hpp) need of the processes
// they run on: each process's rank among `size()` ranks, an all-gather of bytes, and bytes sent from
// one rank to another. The library knows no MPI: a front end implements the interface over its own
// network (the CLI over MPI, cli/mpi_runtime.cpp; the tests over threads and queues).
//
// Failures: a step that may fail on some ranks only runs inside scale::agreed, after which either
// every rank goes on or every rank throws the same error, so no rank waits for one that gave up.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/scale/ranges.hpp"

namespace assay::scale {

/// The ranks of one run, as seen from one of them. Every rank calls the collectives (all_gather,
/// min_over_ranks, sum_over_lower_ranks, exchange) in the same order; send and receive pair up
/// in the order they are called between two ranks. Implementations need not be thread-safe: a
/// rank calls its transport from one thread.
class transport {
 public:
  virtual ~transport() = default;

  /// This rank, 0 .. size() - 1.
  [[nodiscard]] virtual int rank() const = 0;
  /// The number of ranks (at least 1).
  [[nodiscard]] virtual int size() const = 0;

  /// Every rank's `mine`, in rank order, on every rank.
  virtual std::vector<std::string> all_gather(const std::string& mine) = 0;
  /// Sends `bytes` to rank `to`; nullptr sends a marker of absence (a failed sender), which the
  /// receiver sees as receive() returning false. May wait until `to` receives.
  virtual void send(int to, const std::string* bytes) = 0;
  /// The next bytes rank `from` sent to this rank, into `bytes`; false for a marker of absence.
  virtual bool receive(int from, std::string& bytes) = 0;

  /// The smallest `mine` over the ranks (the error agreement's collective). By default from
  /// all_gather; a transport may do it more cheaply.
  virtual std::uint64_t min_over_ranks(std::uint64_t mine);
  /// The sum of `mine` over the ranks below this one (0 on rank 0). By default from all_gather.
  virtual std::uint64_t sum_over_lower_ranks(std::uint64_t mine);
  /// All to all: `to_each[k]` goes to rank k (to_each[rank()] is not sent: the caller keeps it);
  /// returns what each rank sent to this one, in rank order (this rank's entry empty). Needs
  /// size() views. By default by send and receive in rounds (round k: to rank + k, from rank - k),
  /// which needs a send that does not wait for its receiver; a transport whose send waits
  /// overrides it.
  virtual std::vector<range_bytes> exchange(std::span<const std::string_view> to_each);
};

/// One process alone: rank 0 of 1. Its collectives return its own values; send and receive throw
/// std::logic_error (no protocol calls them with one rank).
class solo_transport final : public transport {
 public:
  [[nodiscard]] int rank() const override { return 0; }
  [[nodiscard]] int size() const override { return 1; }
  std::vector<std::string> all_gather(const std::string& mine) override { return {mine}; }
  void send(int to, const std::string* bytes) override;
  bool receive(int from, std::string& bytes) override;
};

/// Runs `local` on every rank, then agrees: when it threw on some rank, every rank throws the error
/// of the lowest rank that failed: its assay::error kind and message, prefixed "rank R of N: "
/// unless every rank failed; any other exception as std::runtime_error with its what(); out of
/// memory as std::bad_alloc. With `key`: the failure agreed on is the one of the lowest *key (read
/// after `local` threw; ties: the lower rank), and its message has no rank prefix (e.g. a split
/// index, the same whatever the ranks). A collective: every rank calls it (with one rank too, the
/// error is thrown in the same forms).
void agreed(transport& t, const std::function<void()>& local, const std::uint64_t* key = nullptr);

/// Whether `ok` is true on every rank (a collective).
bool all_ok(transport& t, bool ok);

}  // namespace assay::scale
