// assay (internal): the MSD-first radix sort of records by a 64-bit key (one parallel pass into
// buckets of neighbouring keys, each bucket then finished in cache), shared by the class sort of the
// curves (src/curves/class_sort.cpp: doubles and labelled keys) and the compaction of the mergeable
// state's pending score rows (src/scale/state_impl.hpp). Not public API.
#pragma once

#include <algorithm>
#include <atomic>
#include <barrier>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "assay/detail/radix.hpp"

namespace assay::detail::msd {

// The MSD-first plan (see sort_by_class): from kMsdMinCases cases, one parallel pass into about
// 2^kTopBits buckets (msd_first); then each bucket by one thread: again a top digit while it holds more than
// kCacheCases cases (about 512 KB: it then fits in a core's cache), then LSD passes of at most
// kBucketDigitBits (2^11 counters: in L1).
constexpr std::size_t kMsdMinCases = std::size_t{1} << 16;
constexpr unsigned kTopBits = 12;
// The smallest bucket msd_first aims at (instead of n / 2^kTopBits below 2^24 cases): 4096 doubles (32 KB, in L1
// with their scratch half in L2) sort in fewer passes per case than smaller ones. Measured at 10^6
// uniform scores on one thread: 42 ms with buckets of about n / 2^12 = 244 cases, 27 ms with 4096
// (1024: 31 ms; 8192 and 16384: no faster); at 10^7 no slower.
constexpr std::size_t kMinBucketCases = 4096;
constexpr std::size_t kCacheCases = std::size_t{1} << 16;
constexpr unsigned kBucketDigitBits = 11;

template <class Key, class E>
std::size_t top_digit(E x, unsigned shift) {
  return static_cast<std::size_t>((Key{}(x) >> shift) & ((1u << kTopBits) - 1));
}

// Sorts v[0, m) ascending (normalised doubles, no NaN) by one thread, `tmp` being m doubles of
// scratch: insertion sort when short; else, over the bits that vary in v, a top digit first while
// the bucket is large, then LSD counting passes with the counts of every pass taken in one read.
template <class E, class Key>
void sort_bucket(E* v, E* tmp, std::size_t m) {
  constexpr Key key_of{};
  if (m <= 32) {
    for (std::size_t i = 1; i < m; ++i) {
      const E x = v[i];
      std::size_t j = i;
      for (; j > 0 && key_of(v[j - 1]) > key_of(x); --j) v[j] = v[j - 1];
      v[j] = x;
    }
    return;
  }
  std::uint64_t o = 0, d = ~std::uint64_t{0};
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint64_t k = key_of(v[i]);
    o |= k, d &= k;
  }
  const std::uint64_t varying = o ^ d;
  if (varying == 0) return;
  const auto low = static_cast<unsigned>(std::countr_zero(varying));
  const auto width = static_cast<unsigned>(std::bit_width(varying)) - low;
  if (m > kCacheCases && width > kTopBits) {
    const unsigned shift = static_cast<unsigned>(std::bit_width(varying)) - kTopBits;
    std::vector<std::size_t> at(std::size_t{1} << kTopBits, 0), start;
    for (std::size_t i = 0; i < m; ++i) ++at[top_digit<Key>(v[i], shift)];
    std::size_t sum = 0;
    for (auto& c : at) start.push_back(sum), sum += std::exchange(c, sum);
    start.push_back(m);
    for (std::size_t i = 0; i < m; ++i) tmp[at[top_digit<Key>(v[i], shift)]++] = v[i];
    for (std::size_t k = 0; k + 1 < start.size(); ++k) sort_bucket<E, Key>(tmp + start[k], v + start[k], start[k + 1] - start[k]);
    std::copy(tmp, tmp + m, v);
    return;
  }
  // Narrower digits for short buckets, so that the counters do not outnumber the cases.
  const unsigned max_bits = std::clamp(static_cast<unsigned>(std::bit_width(m)) - 1, 8u, kBucketDigitBits);
  // Stable LSD counting passes over the bits [from, from + w) of the keys.
  auto lsd = [&](unsigned from, unsigned w) {
    const unsigned passes = (w + max_bits - 1) / max_bits;
    const unsigned bits = (w + passes - 1) / passes;
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    constexpr std::size_t kMaxPasses = (64 + 8 - 1) / 8;
    std::uint32_t count[kMaxPasses][std::size_t{1} << kBucketDigitBits];
    for (unsigned p = 0; p < passes; ++p) std::fill_n(count[p], mask + 1, 0u);
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint64_t k = key_of(v[i]) >> from;
      for (unsigned p = 0; p < passes; ++p) ++count[p][(k >> (p * bits)) & mask];
    }
    E* src = v;
    E* dst = tmp;
    for (unsigned p = 0; p < passes; ++p) {
      std::uint32_t at = 0;
      for (std::size_t b = 0; b <= mask; ++b) at += std::exchange(count[p][b], at);
      const unsigned shift = from + p * bits;
      for (std::size_t i = 0; i < m; ++i) dst[count[p][(key_of(src[i]) >> shift) & mask]++] = src[i];
      std::swap(src, dst);
    }
    if (src != v) std::copy(src, src + m, v);
  };
  // Wide keys: two passes over the top 2 x max_bits varying bits only, then an insertion sort, which
  // has little to do when few keys share those top bits (m^2 / 2^(2 max_bits + 1) pairs expected of
  // spread-out keys: about 7 for 7800 cases); it gives up after 4m moves (keys that share their top
  // bits: clusters, heavy ties) and the full LSD passes sort the bucket instead. Measured at 10^6
  // uniform scores: 5 passes of 10 bits per bucket became 2 passes and one nearly idle read.
  if (width > 2 * max_bits && m >= 256) {
    const unsigned top = 2 * max_bits;
    lsd(low + width - top, top);
    std::size_t moved = 0;
    bool done = true;
    for (std::size_t i = 1; i < m && done; ++i) {
      const E x = v[i];
      std::size_t j = i;
      for (; j > 0 && key_of(v[j - 1]) > key_of(x); --j) v[j] = v[j - 1];
      v[j] = x;
      moved += i - j;
      done = moved <= 4 * i + 64;
    }
    if (done) return;
  }
  lsd(low, width);
}

// The MSD-first sort of the two runs a[0, P) and a[P, n) (the bits in `varying` differ between
// some keys, and more than kTopBits of them). One parallel read counts the cases of each (run, cell),
// a cell being the top 16 varying bits (fewer below 2^20 cases: 2^(bit_width(n) - 4) cells per run,
// at least 2^10, so that the tables do not cost more than the cases); neighbouring cells are grouped
// into buckets of about max(n / 2^kTopBits, kMinBucketCases) cases (the cells adapt the buckets to
// where the scores are: doubles crowd into few exponents); one parallel pass scatters a into b bucket by bucket; then the threads take the
// buckets, largest first, and finish each in place (sort_bucket, a as scratch). Returns b.
template <class E, class Key>
E* msd_first(E* a, E* b, std::size_t n, std::size_t P, std::uint64_t varying, unsigned T) {
  const unsigned cell_bits = std::clamp(static_cast<unsigned>(std::bit_width(n)) - 4u, 10u, 16u);
  const std::size_t cells = std::size_t{1} << cell_bits;
  const auto top = static_cast<unsigned>(std::bit_width(varying));
  const unsigned shift = top - std::min(cell_bits, top - static_cast<unsigned>(std::countr_zero(varying)));
  auto cell_of = [shift, cells](E x, std::size_t run) {
    return run * cells + static_cast<std::size_t>((Key{}(x) >> shift) & (cells - 1));
  };
  std::vector<std::vector<std::uint32_t>> count(T, std::vector<std::uint32_t>(2 * cells));
  std::vector<std::uint32_t> bucket_of(2 * cells);
  std::vector<std::vector<std::size_t>> at(T);  // per thread: its next place in each bucket
  std::vector<std::size_t> start, order;
  std::atomic<std::size_t> next{0};
  run_team(T, [&](unsigned t, std::barrier<>& sync) {
    const std::size_t lo = n * t / T, hi = n * (t + 1) / T;
    std::uint32_t* c = count[t].data();
    for (std::size_t j = lo; j < hi; ++j) ++c[cell_of(a[j], j >= P)];
    sync.arrive_and_wait();
    if (t == 0) {
      // Buckets: runs of neighbouring cells (never across the runs) up to `target` cases.
      const std::size_t target = std::max<std::size_t>(n >> kTopBits, kMinBucketCases);
      std::vector<std::size_t> cells_end;  // one past each bucket's last cell
      std::size_t size = 0;
      for (std::size_t k = 0; k < 2 * cells; ++k) {
        std::size_t m = 0;
        for (unsigned u = 0; u < T; ++u) m += count[u][k];
        if ((size > 0 && size + m > target) || k == cells) cells_end.push_back(k), size = 0;
        bucket_of[k] = static_cast<std::uint32_t>(cells_end.size());
        size += m;
      }
      cells_end.push_back(2 * cells);
      const std::size_t buckets = cells_end.size();
      for (auto& v : at) v.resize(buckets);
      std::size_t pos = 0, first = 0;
      for (std::size_t bk = 0; bk < buckets; ++bk) {
        start.push_back(pos);
        for (unsigned u = 0; u < T; ++u) {
          at[u][bk] = pos;
          for (std::size_t k = first; k < cells_end[bk]; ++k) pos += count[u][k];
        }
        first = cells_end[bk];
      }
      start.push_back(pos);
      order.resize(buckets);
      for (std::size_t k = 0; k < buckets; ++k) order[k] = k;
      std::sort(order.begin(), order.end(), [&start](std::size_t x, std::size_t y) {
        return start[x + 1] - start[x] > start[y + 1] - start[y];
      });
    }
    sync.arrive_and_wait();
    std::size_t* place = at[t].data();
    const std::uint32_t* bucket = bucket_of.data();
    for (std::size_t j = lo; j < hi; ++j) b[place[bucket[cell_of(a[j], j >= P)]]++] = a[j];
    sync.arrive_and_wait();
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < order.size();) {
      const std::size_t k = order[i];
      sort_bucket<E, Key>(b + start[k], a + start[k], start[k + 1] - start[k]);
    }
  });
  return b;
}

}  // namespace assay::detail::msd
