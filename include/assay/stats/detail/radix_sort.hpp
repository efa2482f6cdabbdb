// assay (internal): stable LSD radix sort of (double score, uint32 index, int32 label) by score, the
// one sort behind the DeLong placements and the AUC bootstrap. Scores must not be NaN; -0.0 sorts as
// +0.0. Five passes of 13-bit digits (8192 buckets: the 32 KB count tables stay in cache, and five
// passes measured 9% less CPU than six of 11 bits at 10^6), skipping digits shared by every key.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <thread>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace assay::stats::detail {

struct scored_index {
  double score;
  std::uint32_t index;
  std::int32_t label;  ///< labels[index], carried through the sort (0 when no labels are given)
};

/// An unsigned key with the order of the double (IEEE 754: flip all bits of negatives, the sign
/// bit of non-negatives).
inline std::uint64_t order_key(double x) {
  if (x == 0) x = 0.0;  // -0.0 == +0.0
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return (u >> 63) ? ~u : (u | 0x8000000000000000ULL);
}

/// The double whose order_key is k (-0.0 comes back as +0.0).
inline double from_order_key(std::uint64_t k) {
  const std::uint64_t u = (k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFULL) : ~k;
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

/// (score, index, label) for scores[0..n), sorted by score, ties in index order (stable). `labels`
/// is empty or of the same length; carrying it through the sort spares the caller random reads.
/// With `threads` > 1 (and n >= 2^17) each pass is split over that many threads: thread t counts and
/// scatters the t-th block of the current order into its own slice of every bucket, placed after the
/// slices of threads < t, so the result is the same stable order whatever the thread count.
inline std::vector<scored_index> sort_by_score(std::span<const double> scores,
                                               std::span<const std::int32_t> labels = {}, unsigned threads = 1) {
  const std::size_t n = scores.size();
  // The sort moves scored_index records whose `score` field holds the order key's bits until the
  // last pass, so the output needs no separate buffer.
  using item = scored_index;
  auto key_of = [](const item& it) {
    std::uint64_t k;
    std::memcpy(&k, &it.score, sizeof k);
    return k;
  };
  constexpr std::size_t kBits = 13, kDigits = 5, kBuckets = 1u << kBits, kMask = kBuckets - 1;
  const std::size_t T = n >= (std::size_t{1} << 17) ? std::max(1u, std::min(threads, 8u)) : 1;
  // Runs f(t) for t in [0, T) on T threads (the calling thread is thread 0).
  auto run = [T](auto&& f) {
    if (T == 1) return f(std::size_t{0});
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < T; ++t) pool.emplace_back([&f, t] { f(t); });
    f(std::size_t{0});
    for (auto& th : pool) th.join();
  };
  auto block_begin = [n, T](std::size_t t) { return n * t / T; };
  std::vector<item> out(n);
  std::unique_ptr<item[]> spare(new item[n]);  // default-initialised: no zeroing pass
  item* a = out.data();
  item* b = spare.get();
  // hist[t][d]: digit d of the keys in thread t's block; the first pass counts every digit at once.
  std::vector<std::vector<std::array<std::uint32_t, kBuckets>>> hist(T, std::vector<std::array<std::uint32_t, kBuckets>>(kDigits));
  run([&](std::size_t t) {
    for (auto& h : hist[t]) h.fill(0);
    for (std::size_t i = block_begin(t); i < block_begin(t + 1); ++i) {
      const std::uint64_t k = order_key(scores[i]);
      a[i].index = static_cast<std::uint32_t>(i);
      a[i].label = labels.empty() ? 0 : labels[i];
      std::memcpy(&a[i].score, &k, sizeof k);
      for (std::size_t d = 0; d < kDigits; ++d) ++hist[t][d][(k >> (kBits * d)) & kMask];
    }
  });
  bool first_pass = true;
  for (std::size_t d = 0; d < kDigits && n > 0; ++d) {
    std::array<std::uint32_t, kBuckets> total{};
    for (std::size_t t = 0; t < T; ++t) {
      for (std::size_t v = 0; v < kBuckets; ++v) total[v] += hist[t][d][v];
    }
    // Skip a digit every key shares. Which digits are shared does not depend on the order, so the
    // counts of the first pass decide it; after a scatter the per-block counts must be redone.
    // (Counting the next digit per destination block during the scatter instead measured slower.)
    if (std::find(total.begin(), total.end(), static_cast<std::uint32_t>(n)) != total.end()) continue;
    if (!first_pass && T > 1) {
      run([&](std::size_t t) {
        auto& h = hist[t][d];
        h.fill(0);
        for (std::size_t i = block_begin(t); i < block_begin(t + 1); ++i) ++h[(key_of(a[i]) >> (kBits * d)) & kMask];
      });
    }
    std::uint32_t sum = 0;
    for (std::size_t v = 0; v < kBuckets; ++v) {
      for (std::size_t t = 0; t < T; ++t) {
        const std::uint32_t c = hist[t][d][v];
        hist[t][d][v] = sum;
        sum += c;
      }
    }
    run([&](std::size_t t) {
      auto& h = hist[t][d];
      for (std::size_t i = block_begin(t); i < block_begin(t + 1); ++i) b[h[(key_of(a[i]) >> (kBits * d)) & kMask]++] = a[i];
    });
    std::swap(a, b);
    first_pass = false;
  }
  if (a != out.data() && n > 0) std::memcpy(out.data(), a, n * sizeof(item));  // an odd number of passes
  run([&](std::size_t t) {
    for (std::size_t i = block_begin(t); i < block_begin(t + 1); ++i) out[i].score = from_order_key(key_of(out[i]));
  });
  return out;
}

}  // namespace assay::stats::detail

namespace assay::stats::detail {

/// Sorts order keys (order_key of the scores) ascending: LSD radix, five passes of 13-bit digits,
/// skipping digits shared by every key. Half the memory traffic of sort_by_score (8-byte records),
/// for callers that need only the sorted values (e.g. the DeLong totals of each class).
inline void sort_keys(std::vector<std::uint64_t>& keys) {
  const std::size_t n = keys.size();
  if (n < 2) return;
  constexpr std::size_t kBits = 13, kDigits = 5, kBuckets = 1u << kBits, kMask = kBuckets - 1;
  std::vector<std::array<std::uint32_t, kBuckets>> hist(kDigits);
  for (auto& h : hist) h.fill(0);
  for (const std::uint64_t k : keys) {
    for (std::size_t d = 0; d < kDigits; ++d) ++hist[d][(k >> (kBits * d)) & kMask];
  }
  std::unique_ptr<std::uint64_t[]> spare(new std::uint64_t[n]);
  std::uint64_t* a = keys.data();
  std::uint64_t* b = spare.get();
  for (std::size_t d = 0; d < kDigits; ++d) {
    auto& h = hist[d];
    if (std::find(h.begin(), h.end(), static_cast<std::uint32_t>(n)) != h.end()) continue;
    std::uint32_t sum = 0;
    for (auto& c : h) {
      const std::uint32_t t = c;
      c = sum;
      sum += t;
    }
    for (std::size_t i = 0; i < n; ++i) b[h[(a[i] >> (kBits * d)) & kMask]++] = a[i];
    std::swap(a, b);
  }
  if (a != keys.data()) std::memcpy(keys.data(), a, n * sizeof(std::uint64_t));
}

}  // namespace assay::stats::detail
