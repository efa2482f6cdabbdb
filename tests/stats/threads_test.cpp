// The one scheduler and its cap (assay/threads.hpp): results do not depend on the cap, nested calls
// stay within it, and a cap of 1 keeps everything on the calling thread.
#include "assay/threads.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "assay/detail/parallel.hpp"
#include "assay/stats/bootstrap.hpp"
#include "assay/stats/tests.hpp"

namespace {

using namespace assay;

/// Sets the process-wide cap for one test and restores the default afterwards.
class capped {
 public:
  explicit capped(unsigned n) { set_max_threads(n); }
  ~capped() { set_max_threads(0); }
};

/// The ids of the threads that ran f's items, nested items included.
class thread_ids {
 public:
  void add() {
    std::lock_guard lock(mutex_);
    ids_.insert(std::this_thread::get_id());
  }
  std::set<std::thread::id> get() const { return ids_; }

 private:
  mutable std::mutex mutex_;
  std::set<std::thread::id> ids_;
};

void spin() {
  volatile double x = 0;
  for (int k = 0; k < 20000; ++k) x = x + 1e-9 * k;
}

TEST(Threads, CapAndScopedLimits) {
  capped c(6);
  EXPECT_EQ(max_threads(), 6u);
  {
    thread_limit two(2);
    EXPECT_EQ(max_threads(), 2u);
    {
      thread_limit five(5);  // limits nest; the smallest wins
      EXPECT_EQ(max_threads(), 2u);
    }
    thread_limit none(0);  // 0: no further limit
    EXPECT_EQ(max_threads(), 2u);
  }
  EXPECT_EQ(max_threads(), 6u);
  EXPECT_EQ(detail::resolve_threads(0, 1000), 6u);
  EXPECT_EQ(detail::resolve_threads(4, 1000), 4u);
  EXPECT_EQ(detail::resolve_threads(0, 3), 3u);
  EXPECT_EQ(detail::resolve_threads(0, 0), 1u);
  // A scoped limit belongs to its thread.
  thread_limit one(1);
  unsigned other = 0;
  std::thread([&] { other = max_threads(); }).join();
  EXPECT_EQ(other, 6u);
  EXPECT_EQ(max_threads(), 1u);
}

TEST(Threads, EnvironmentVariableIsTheDefaultCap) {
  ASSERT_EQ(setenv("ASSAY_NUM_THREADS", "3", 1), 0);
  set_max_threads(0);
  EXPECT_EQ(max_threads(), 3u);
  set_max_threads(5);  // an explicit cap wins over the environment
  EXPECT_EQ(max_threads(), 5u);
  for (const char* bad : {"0", "-2", "two", "3x", ""}) {
    ASSERT_EQ(setenv("ASSAY_NUM_THREADS", bad, 1), 0);
    set_max_threads(0);
    EXPECT_GE(max_threads(), 1u) << bad;
    EXPECT_NE(max_threads(), 3u) << bad;  // ignored: the cores (unless the machine has exactly 3)
  }
  unsetenv("ASSAY_NUM_THREADS");
  set_max_threads(0);
}

TEST(Threads, NestedCallsUnderACapOfOneRunOnTheCallingThread) {
  thread_limit one(1);
  thread_ids ids;
  std::atomic<int> calls{0};
  detail::parallel_for(64, 0, [&](unsigned lane, std::size_t) {
    EXPECT_EQ(lane, 0u);
    ids.add();
    detail::parallel_for(64, 0, [&](unsigned, std::size_t) {
      ids.add();
      ++calls;
    });
    detail::run_both([&] { ids.add(); }, [&] { ids.add(); });
  });
  EXPECT_EQ(calls.load(), 64 * 64);
  ASSERT_EQ(ids.get().size(), 1u);
  EXPECT_EQ(*ids.get().begin(), std::this_thread::get_id());
  EXPECT_EQ(detail::team_threads(8), 1u);
}

TEST(Threads, NestedCallsShareTheCappedThreads) {
  for (unsigned cap : {2u, 3u}) {
    capped c(cap);
    thread_ids ids;
    std::atomic<int> active{0}, most{0};
    detail::parallel_for(16, 0, [&](unsigned lane, std::size_t) {
      EXPECT_LT(lane, cap);
      EXPECT_LE(max_threads(), cap);             // the limit reaches nested calls
      EXPECT_EQ(detail::team_threads(8), 1u);  // no extra team inside pool work
      detail::parallel_for(16, 0, [&](unsigned inner, std::size_t) {
        EXPECT_LT(inner, cap);
        const int now = ++active;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        ids.add();
        spin();
        --active;
      });
    });
    EXPECT_LE(ids.get().size(), cap);
    EXPECT_LE(most.load(), static_cast<int>(cap));
  }
}

TEST(Threads, EveryItemOnceAndTheFirstErrorRethrown) {
  capped c(4);
  std::vector<int> hits(10000, 0);
  detail::parallel_for(hits.size(), 0, [&](unsigned, std::size_t i) { ++hits[i]; });
  EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), 10000);
  EXPECT_THROW(detail::parallel_for(1000, 0,
                                    [&](unsigned, std::size_t i) {
                                      if (i == 500) throw std::runtime_error("item 500");
                                    }),
               std::runtime_error);
  EXPECT_THROW(detail::run_both([] {}, [] { throw std::runtime_error("b"); }), std::runtime_error);
}

// The resampling results are the same whatever the cap: replicate r draws from stream (seed, r) and
// is stored by index.
TEST(Threads, ResamplingResultsDoNotDependOnTheCap) {
  std::mt19937_64 gen(11);
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> x(400), y(400), a(400), b(400);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = nd(gen);
    y[i] = i % 3 == 0;
    a[i] = y[i] + nd(gen);
    b[i] = y[i] + 1.2 * nd(gen);
  }
  auto run = [&] {
    stats::bootstrap_options o;
    o.replicates = 700;
    o.seed = 5;
    o.method = stats::bootstrap_method::bca;
    o.keep_distribution = true;
    const auto boot = stats::bootstrap_ci(
        x.size(),
        [&](std::span<const std::uint32_t> rows) {
          double s = 0;
          for (auto r : rows) s += x[r];
          return s / static_cast<double>(rows.size());
        },
        o);
    stats::permutation_options p;
    p.permutations = 999;
    p.seed = 9;
    const auto perm = stats::paired_permutation_test(y, a, b, [](std::span<const double> t, std::span<const double> s) {
      double e = 0;
      for (std::size_t i = 0; i < t.size(); ++i) e += (t[i] - s[i]) * (t[i] - s[i]);
      return e;
    }, p);
    return std::tuple{boot.distribution, boot.lower.v, boot.upper.v, perm.extreme, perm.p_value};
  };
  std::vector<decltype(run())> results;
  for (unsigned cap : {1u, 2u, 3u, 8u}) {
    capped c(cap);
    results.push_back(run());
  }
  {
    thread_limit one(1);  // and under a scoped limit
    results.push_back(run());
  }
  for (std::size_t k = 1; k < results.size(); ++k) EXPECT_TRUE(results[k] == results[0]) << k;
}

}  // namespace
