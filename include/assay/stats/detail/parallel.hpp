// assay (internal): run f(thread_index, i) for i in [0, count) on `threads` std::threads.
// Work is handed out in small chunks from an atomic counter; results must be written by index so
// the outcome does not depend on the schedule. The first exception thrown by f is rethrown.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace assay::stats::detail {

/// 0 means "all hardware threads"; never more threads than items.
inline unsigned resolve_threads(unsigned requested, std::size_t count) {
  unsigned t = requested == 0 ? std::max(1u, std::thread::hardware_concurrency()) : requested;
  if (count < t) t = static_cast<unsigned>(std::max<std::size_t>(1, count));
  return t;
}

template <class F>
void parallel_for(std::size_t count, unsigned threads, F&& f) {
  threads = resolve_threads(threads, count);
  if (threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) f(0u, i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  const std::size_t chunk = std::max<std::size_t>(1, count / (threads * 16));
  auto worker = [&](unsigned t) {
    try {
      for (;;) {
        const std::size_t begin = next.fetch_add(chunk);
        if (begin >= count) break;
        const std::size_t end = std::min(count, begin + chunk);
        for (std::size_t i = begin; i < end; ++i) f(t, i);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      next.store(count);
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace assay::stats::detail
