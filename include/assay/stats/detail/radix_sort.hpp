// assay (internal): the record sort behind the DeLong placements and the AUC bootstrap, and the key
// sort of the DeLong totals: both instances of the shared radix kernel (assay/detail/radix.hpp).
// Scores must not be NaN; -0.0 sorts as +0.0.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "assay/detail/parallel.hpp"
#include "assay/detail/radix.hpp"

namespace assay::stats::detail {

using assay::detail::from_order_key;
using assay::detail::order_key;

struct scored_index {
  double score;
  std::uint32_t index;
  std::int32_t label;  ///< labels[index], carried through the sort (0 when no labels are given)
};

namespace radix_keys {
// During the sort, a record's `score` field holds the bits of its order key.
struct record_key {
  std::uint64_t operator()(const scored_index& r) const noexcept { return std::bit_cast<std::uint64_t>(r.score); }
};
struct identity_key {
  std::uint64_t operator()(std::uint64_t k) const noexcept { return k; }
};
}  // namespace radix_keys

/// (score, index, label) for scores[0..n), sorted by score, ties in index order (stable). `labels`
/// is empty or of the same length; carrying it through the sort spares the caller random reads.
/// With `threads` > 1 (and n >= 2^17) the passes are split over that many threads (at most 8); the
/// result is the same stable order whatever the thread count. n must be below 2^32.
inline std::vector<scored_index> sort_by_score(std::span<const double> scores,
                                               std::span<const std::int32_t> labels = {}, unsigned threads = 1) {
  const std::size_t n = scores.size();
  std::vector<scored_index> out(n);
  if (n == 0) return out;
  const unsigned T =
      n >= (std::size_t{1} << 17) ? assay::detail::team_threads(std::max(1u, std::min(threads, 8u))) : 1u;
  std::unique_ptr<scored_index[]> spare(new scored_index[n]);  // default-initialised: no zeroing pass
  assay::detail::radix_sorter<scored_index, radix_keys::record_key> sorter(out.data(), spare.get(), n, T, 1);
  std::vector<std::uint64_t> ors(sorter.threads(), 0), ands(sorter.threads(), ~std::uint64_t{0});
  assay::detail::run_team(sorter.threads(), [&](unsigned t, std::barrier<>& sync) {
    const std::size_t begin = sorter.input_begin(t), end = sorter.input_begin(t + 1);
    std::uint64_t o = 0, d = ~std::uint64_t{0};
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint64_t k = order_key(scores[i]);
      o |= k;
      d &= k;
      out[i] = {std::bit_cast<double>(k), static_cast<std::uint32_t>(i), labels.empty() ? 0 : labels[i]};
    }
    ors[t] = o;
    ands[t] = d;
    sync.arrive_and_wait();
    if (t == 0) {
      std::uint64_t or_all = 0, and_all = ~std::uint64_t{0};
      for (unsigned u = 0; u < sorter.threads(); ++u) or_all |= ors[u], and_all &= ands[u];
      sorter.plan(n, or_all ^ and_all);
    }
    sync.arrive_and_wait();
    sorter.sort(t, sync);
    // Back to doubles, into `out` (the result may sit in the spare buffer after an odd pass count).
    const scored_index* res = sorter.result();
    for (std::size_t i = begin; i < end; ++i) {
      out[i] = {from_order_key(std::bit_cast<std::uint64_t>(res[i].score)), res[i].index, res[i].label};
    }
  });
  return out;
}

/// Sorts order keys (order_key of the scores) ascending with the same kernel on one thread. Half
/// the memory traffic of sort_by_score (8-byte records), for callers that need only the sorted
/// values (e.g. the DeLong totals of each class).
inline void sort_keys(std::vector<std::uint64_t>& keys) {
  const std::size_t n = keys.size();
  if (n < 2) return;
  std::unique_ptr<std::uint64_t[]> spare(new std::uint64_t[n]);
  assay::detail::radix_sorter<std::uint64_t, radix_keys::identity_key> sorter(keys.data(), spare.get(), n, 1, 1);
  std::uint64_t o = 0, d = ~std::uint64_t{0};
  for (const std::uint64_t k : keys) o |= k, d &= k;
  sorter.plan(n, o ^ d);
  assay::detail::run_team(1, [&](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
  if (sorter.result() != keys.data()) std::memcpy(keys.data(), sorter.result(), n * sizeof(std::uint64_t));
}

}  // namespace assay::stats::detail
