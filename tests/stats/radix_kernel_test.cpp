// The shared radix kernel (assay/detail/radix.hpp) against std::stable_sort: records sorted in one
// or two runs, on 1 to 5 threads, at sizes around the narrow-digit limit (2^15) and, for the record
// sort, above its threading limit (2^17), with keys whose varying bits sit anywhere (low, middle, a single bit, none), heavy ties,
// -0.0 next to +0.0 and signed values. Fixed seeds: a failure is a bug, never chance.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "assay/detail/radix.hpp"
#include "assay/stats/detail/radix_sort.hpp"

namespace assay::detail {
namespace {

struct pair_rec {
  std::uint64_t key;
  std::uint32_t index;
};
struct pair_key {
  std::uint64_t operator()(const pair_rec& r) const noexcept { return r.key; }
};

// Sorts recs (runs [0, split) and [split, n)) with the kernel on `threads` threads.
std::vector<pair_rec> kernel_sort(std::vector<pair_rec> a, std::size_t split, unsigned threads, unsigned runs) {
  const std::size_t n = a.size();
  std::vector<pair_rec> b(n);
  radix_sorter<pair_rec, pair_key> sorter(a.data(), b.data(), n, threads, runs);
  std::uint64_t o = 0, d = ~std::uint64_t{0};
  for (const auto& r : a) o |= r.key, d &= r.key;
  sorter.plan(split, o ^ d);
  run_team(sorter.threads(), [&](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
  return sorter.result() == a.data() ? a : b;
}

TEST(RadixKernel, StableInEachRunWhateverTheThreadsAndBits) {
  std::mt19937_64 rng(20261126);
  const std::uint64_t masks[] = {0xFFFFFFFFFFFFFFFFULL, 0xFFULL, 0x0000FFFF00000000ULL, 0x10ULL, 0, 0x8000000000000001ULL};
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{37}, std::size_t{5000},
                              std::size_t{33000}}) {
    for (const std::uint64_t mask : masks) {
      std::vector<pair_rec> recs(n);
      for (std::size_t i = 0; i < n; ++i) recs[i] = {(rng() & mask & (rng() | 0xFFF0ULL)) | 0x0400000000000000ULL, static_cast<std::uint32_t>(i)};
      const std::size_t split = n / 3;
      for (const unsigned runs : {1u, 2u}) {
        std::vector<pair_rec> want = recs;
        const std::size_t cut = runs == 1 ? n : split;
        auto less = [](const pair_rec& x, const pair_rec& y) { return x.key < y.key; };
        std::stable_sort(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(cut), less);
        std::stable_sort(want.begin() + static_cast<std::ptrdiff_t>(cut), want.end(), less);
        for (const unsigned threads : {1u, 2u, 5u}) {
          const auto got = kernel_sort(recs, split, threads, runs);
          ASSERT_EQ(got.size(), n);
          for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(got[i].key, want[i].key) << "n " << n << " mask " << mask << " runs " << runs << " threads " << threads << " at " << i;
            ASSERT_EQ(got[i].index, want[i].index) << "n " << n << " mask " << mask << " runs " << runs << " threads " << threads << " at " << i;
          }
        }
      }
    }
  }
}

TEST(RadixKernel, OrderKeyOrdersDoublesAndRoundTrips) {
  const double xs[] = {-1e308, -1.0, -4.9e-324, -0.0, 0.0, 4.9e-324, 1e-300, 1.0, 1e308};
  for (std::size_t i = 0; i + 1 < std::size(xs); ++i) {
    EXPECT_LE(order_key(xs[i]), order_key(xs[i + 1])) << xs[i] << " vs " << xs[i + 1];
    EXPECT_EQ(from_order_key(order_key(xs[i])), xs[i] + 0.0);
  }
  EXPECT_EQ(order_key(-0.0), order_key(0.0));
  EXPECT_FALSE(std::signbit(from_order_key(order_key(-0.0))));
}

// The record sort on two and three threads (n >= 2^17 so the passes are split) equals std::stable_sort.
TEST(RadixKernel, RecordSortMatchesStableSortOnManyThreads) {
  std::mt19937_64 rng(7);
  const std::size_t n = 140000;
  std::vector<double> s(n);
  std::vector<std::int32_t> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = (rng() % 3 == 0) ? ((rng() & 1) ? 0.0 : -0.0) : static_cast<double>(static_cast<int>(rng() % 2001) - 1000) / 7.0;
    y[i] = static_cast<std::int32_t>(rng() & 1);
  }
  std::vector<std::uint32_t> want(n);
  for (std::uint32_t i = 0; i < n; ++i) want[i] = i;
  std::stable_sort(want.begin(), want.end(), [&](std::uint32_t a, std::uint32_t b) { return s[a] < s[b]; });
  for (const unsigned threads : {2u, 3u}) {
    const auto got = stats::detail::sort_by_score(s, y, threads);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i].index, want[i]) << "threads " << threads << " at " << i;
      ASSERT_EQ(got[i].label, y[want[i]]);
      ASSERT_EQ(std::bit_cast<std::uint64_t>(got[i].score), std::bit_cast<std::uint64_t>(s[want[i]] + 0.0));
    }
  }
}

}  // namespace
}  // namespace assay::detail
