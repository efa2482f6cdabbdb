// assay (internal): the parallel loops of the library, on the one task scheduler (threads.hpp).
//
// parallel_for(count, threads, f) calls f(lane, i) once for every i in [0, count). The items are
// handed out in small chunks from an atomic counter to `lanes` tasks; a lane runs one chunk after
// the other, so per-lane scratch space indexed by `lane` is never used by two calls at once, even
// when the scheduler runs several lanes on one thread. Results must be written by index, so that
// they do not depend on the schedule. The first exception thrown by f is rethrown.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>

namespace assay::detail {

/// The number of lanes for `count` items when `requested` threads are asked for (0: as many as the
/// limit allows): min(requested, max_threads(), count), at least 1.
unsigned resolve_threads(unsigned requested, std::size_t count);

/// Runs body(lane) for every lane in [0, lanes) as tasks of the scheduler, on at most `lanes`
/// threads at once; returns when all have returned and rethrows the first exception. lanes <= 1 runs
/// body(0) on the calling thread. A lane must not wait for another lane.
void run_lanes(unsigned lanes, const std::function<void(unsigned)>& body);

/// Runs a() and b(), at the same time when the limit allows two threads; rethrows an exception.
void run_both(const std::function<void()>& a, const std::function<void()>& b);

/// The size of a team of threads that synchronise with a barrier (the radix sort kernels): they
/// need `wanted` threads running at once, which a task scheduler does not promise, so such kernels
/// start their own short-lived threads. Returns min(wanted, max_threads()), and 1 inside assay's
/// parallel work, where the cores are already busy.
unsigned team_threads(unsigned wanted);

template <class F>
void parallel_for(std::size_t count, unsigned threads, F&& f) {
  const unsigned lanes = resolve_threads(threads, count);
  if (lanes <= 1) {
    for (std::size_t i = 0; i < count; ++i) f(0u, i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  const std::size_t chunk = std::max<std::size_t>(1, count / (std::size_t{lanes} * 16));
  run_lanes(lanes, [&](unsigned lane) {
    try {
      for (;;) {
        const std::size_t begin = next.fetch_add(chunk);
        if (begin >= count) break;
        const std::size_t end = std::min(count, begin + chunk);
        for (std::size_t i = begin; i < end; ++i) f(lane, i);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      next.store(count);
    }
  });
  if (error) std::rethrow_exception(error);
}

}  // namespace assay::detail
