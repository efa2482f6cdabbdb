// A transport of N ranks in one process (tests only): each rank a thread, bytes passed through one
// queue per (sender, receiver, kind) (scale/transport.hpp). Sends never wait; receives wait on the
// queue's condition variable. Collectives (all_gather, and the defaults built on it) use their own
// queues, so they never take point-to-point bytes.
#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <stdexcept>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "assay/scale/transport.hpp"

namespace assay::testing {

class thread_hub {
 public:
  explicit thread_hub(int ranks) : ranks_(ranks) {}
  [[nodiscard]] int ranks() const { return ranks_; }

  // kind 0: point to point; 1: collectives. std::nullopt: a marker of absence.
  void push(int from, int to, int kind, std::optional<std::string> bytes) {
    {
      const std::lock_guard<std::mutex> lock(m_);
      queues_[{from, to, kind}].push_back(std::move(bytes));
    }
    cv_.notify_all();
  }
  std::optional<std::string> pop(int from, int to, int kind) {
    std::unique_lock<std::mutex> lock(m_);
    auto& q = queues_[{from, to, kind}];
    // A protocol that waits for bytes that never come fails the test instead of hanging it.
    if (!cv_.wait_for(lock, std::chrono::seconds(120), [&] { return !q.empty(); })) {
      throw std::runtime_error("thread_hub: rank " + std::to_string(to) + " waited 120 s for rank " +
                               std::to_string(from));
    }
    std::optional<std::string> out = std::move(q.front());
    q.pop_front();
    return out;
  }
  // Whether every queue is empty (after a run: every byte sent was received).
  bool drained() {
    const std::lock_guard<std::mutex> lock(m_);
    for (const auto& [k, q] : queues_) {
      if (!q.empty()) return false;
    }
    return true;
  }

 private:
  int ranks_;
  std::mutex m_;
  std::condition_variable cv_;
  std::map<std::tuple<int, int, int>, std::deque<std::optional<std::string>>> queues_;
};

class thread_transport final : public scale::transport {
 public:
  thread_transport(thread_hub& hub, int rank) : hub_(hub), rank_(rank) {}
  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return hub_.ranks(); }
  std::vector<std::string> all_gather(const std::string& mine) override {
    for (int k = 0; k < size(); ++k) {
      if (k != rank_) hub_.push(rank_, k, 1, mine);
    }
    std::vector<std::string> out(static_cast<std::size_t>(size()));
    for (int k = 0; k < size(); ++k) out[static_cast<std::size_t>(k)] = k == rank_ ? mine : *hub_.pop(k, rank_, 1);
    return out;
  }
  void send(int to, const std::string* bytes) override {
    hub_.push(rank_, to, 0, bytes != nullptr ? std::optional<std::string>(*bytes) : std::nullopt);
  }
  bool receive(int from, std::string& bytes) override {
    std::optional<std::string> got = hub_.pop(from, rank_, 0);
    if (!got) return false;
    bytes = std::move(*got);
    return true;
  }

 private:
  thread_hub& hub_;
  int rank_;
};

/// What each rank threw (null when it returned), in rank order, and whether every byte sent was
/// received.
struct ranks_run {
  std::vector<std::exception_ptr> thrown;
  bool drained = false;
};

/// Runs `body(transport)` on `ranks` threads, one rank each.
inline ranks_run run_ranks(int ranks, const std::function<void(scale::transport&)>& body) {
  thread_hub hub(ranks);
  std::vector<std::exception_ptr> thrown(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      thread_transport t(hub, r);
      try {
        body(t);
      } catch (...) {
        thrown[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  }
  for (auto& th : threads) th.join();
  return {std::move(thrown), hub.drained()};
}

}  // namespace assay::testing
