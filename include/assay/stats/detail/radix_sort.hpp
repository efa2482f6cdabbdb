// assay (internal): stable LSD radix sort of (double score, uint32 index, int32 label) by score, the
// one sort behind the DeLong placements and the AUC bootstrap. Scores must not be NaN; -0.0 sorts as
// +0.0. Six passes of 11-bit digits (bucket tables stay in cache), skipping digits shared by every key.
#pragma once

#include <array>
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
inline std::vector<scored_index> sort_by_score(std::span<const double> scores,
                                               std::span<const std::int32_t> labels = {}) {
  const std::size_t n = scores.size();
  struct item {
    std::uint64_t key;
    std::uint32_t index;
    std::int32_t label;
  };
  std::vector<item> a(n), b(n);
  constexpr std::size_t kBits = 11, kDigits = 6, kBuckets = 1u << kBits, kMask = kBuckets - 1;
  std::vector<std::array<std::uint32_t, kBuckets>> hist(kDigits);
  for (auto& h : hist) h.fill(0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t k = order_key(scores[i]);
    a[i] = {k, static_cast<std::uint32_t>(i), labels.empty() ? 0 : labels[i]};
    for (std::size_t d = 0; d < kDigits; ++d) ++hist[d][(k >> (kBits * d)) & kMask];
  }
  for (std::size_t d = 0; d < kDigits; ++d) {
    auto& h = hist[d];
    bool trivial = false;
    for (std::size_t v = 0; v < kBuckets; ++v) {
      if (h[v] == n) trivial = true;
      if (h[v] != 0) break;
    }
    if (trivial || n == 0) continue;  // every key has the same digit here
    std::uint32_t sum = 0;
    for (auto& c : h) {
      const std::uint32_t t = c;
      c = sum;
      sum += t;
    }
    for (const auto& it : a) b[h[(it.key >> (kBits * d)) & kMask]++] = it;
    a.swap(b);
  }
  std::vector<scored_index> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = {from_order_key(a[i].key), a[i].index, a[i].label};
  return out;
}

}  // namespace assay::stats::detail
