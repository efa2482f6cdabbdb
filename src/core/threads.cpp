// The one task scheduler of assay (oneTBB) and the thread cap; see include/assay/threads.hpp and
// include/assay/detail/parallel.hpp.
#include "assay/threads.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_invoke.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "assay/detail/parallel.hpp"

namespace assay {
namespace {

constexpr unsigned kNoLimit = ~0u;

/// The cap when nobody set one: ASSAY_NUM_THREADS if it is a positive integer, else the cores the
/// process may use (oneTBB reads the affinity mask and the cgroup quota).
unsigned default_cap() {
  const unsigned cores = static_cast<unsigned>(std::max(1, oneapi::tbb::info::default_concurrency()));
  if (const char* env = std::getenv("ASSAY_NUM_THREADS"); env != nullptr && *env != '\0') {
    char* end = nullptr;
    errno = 0;
    const unsigned long v = std::strtoul(env, &end, 10);
    if (errno == 0 && *end == '\0' && v > 0 && env[0] != '-') {
      return static_cast<unsigned>(std::min<unsigned long>(v, 1u << 16));
    }
  }
  return cores;
}

std::atomic<unsigned> process_cap{0};  // 0: not resolved yet

unsigned cap() {
  unsigned c = process_cap.load(std::memory_order_relaxed);
  if (c == 0) {
    c = default_cap();
    unsigned expected = 0;
    if (!process_cap.compare_exchange_strong(expected, c)) c = expected;
  }
  return c;
}

thread_local unsigned scoped_limit = kNoLimit;  // the innermost thread_limit of this thread
thread_local unsigned lane_limit = 0;           // > 0 while this thread runs a lane: that call's limit

/// One arena per concurrency, kept for the life of the process: arenas share oneTBB's one set of
/// worker threads, so a capped call and an uncapped one together never exceed the cores.
oneapi::tbb::task_arena& arena_of(unsigned concurrency) {
  // Workers get the stack of a std::thread (8 MiB on Linux) rather than oneTBB's smaller default:
  // learners run on them.
  static const oneapi::tbb::global_control stack(oneapi::tbb::global_control::thread_stack_size, std::size_t{8} << 20);
  static std::mutex mutex;
  static std::map<unsigned, std::unique_ptr<oneapi::tbb::task_arena>> arenas;
  std::lock_guard lock(mutex);
  auto& a = arenas[concurrency];
  if (!a) a = std::make_unique<oneapi::tbb::task_arena>(static_cast<int>(concurrency));
  return *a;
}

/// Marks the calling thread as running a lane of a call limited to `limit` threads.
class in_lane {
 public:
  explicit in_lane(unsigned limit) : saved_(lane_limit) { lane_limit = limit; }
  ~in_lane() { lane_limit = saved_; }
  in_lane(const in_lane&) = delete;
  in_lane& operator=(const in_lane&) = delete;

 private:
  unsigned saved_;
};

/// Runs f inside the arena of `concurrency`, isolated: a thread that waits for this work only takes
/// tasks of it, so a lane never starts under another lane of the same thread.
template <class F>
void execute_limited(unsigned concurrency, F&& f) {
  if (lane_limit == concurrency) {  // nested in a call with the same limit: its arena already
    oneapi::tbb::this_task_arena::isolate(f);
    return;
  }
  arena_of(concurrency).execute([&] { oneapi::tbb::this_task_arena::isolate(f); });
}

}  // namespace

unsigned max_threads() {
  unsigned m = std::min(cap(), scoped_limit);
  if (lane_limit > 0) m = std::min(m, lane_limit);
  return std::max(1u, m);
}

void set_max_threads(unsigned n) { process_cap.store(n == 0 ? default_cap() : n, std::memory_order_relaxed); }

thread_limit::thread_limit(unsigned n) : previous_(scoped_limit) {
  if (n > 0) scoped_limit = std::min(scoped_limit, n);
}

thread_limit::~thread_limit() { scoped_limit = previous_; }

namespace detail {

unsigned resolve_threads(unsigned requested, std::size_t count) {
  unsigned t = max_threads();
  if (requested > 0) t = std::min(t, requested);
  if (count < t) t = static_cast<unsigned>(std::max<std::size_t>(1, count));
  return t;
}

void run_lanes(unsigned lanes, const std::function<void(unsigned)>& body) {
  lanes = std::min(lanes, max_threads());
  if (lanes <= 1) {  // one lane: nested calls may still use the cores
    body(0);
    return;
  }
  execute_limited(lanes, [&] {
    oneapi::tbb::parallel_for(
        oneapi::tbb::blocked_range<unsigned>(0, lanes, 1),
        [&](const oneapi::tbb::blocked_range<unsigned>& r) {
          in_lane mark(lanes);
          for (unsigned l = r.begin(); l != r.end(); ++l) body(l);
        },
        oneapi::tbb::simple_partitioner());
  });
}

void run_both(const std::function<void()>& a, const std::function<void()>& b) {
  if (max_threads() < 2) {
    a();
    b();
    return;
  }
  execute_limited(2, [&] {
    oneapi::tbb::parallel_invoke(
        [&] {
          in_lane mark(2);
          a();
        },
        [&] {
          in_lane mark(2);
          b();
        });
  });
}

unsigned team_threads(unsigned wanted) {
  if (lane_limit > 0) return 1;
  return std::max(1u, std::min(wanted, max_threads()));
}

}  // namespace detail
}  // namespace assay
