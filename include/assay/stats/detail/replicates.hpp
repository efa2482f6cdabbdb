// assay (internal): the one replicate loop of the bootstraps (bootstrap.cpp, bootstrap_many.cpp,
// poisson_bootstrap.cpp) and the one way a replicate draws its rows.
#pragma once

#include <cstddef>
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <span>
#include <vector>

#include "assay/detail/parallel.hpp"
#include "assay/stats/bootstrap.hpp"
#include "assay/stats/random.hpp"
#include "assay/validation/cancel.hpp"

namespace assay::stats::detail {

/// The percentile results of several statistics' replicates: reps[s * B + r] is statistic s in
/// replicate r (B = o.replicates; NaN = undefined, counted and left out), estimates[s] its value on
/// the data. The one summary of bootstrap_many and the Poisson bootstraps (src/stats/bootstrap.cpp).
std::vector<bootstrap_result> summarise_replicates(std::vector<double>&& reps, std::span<const double> estimates,
                                                   const bootstrap_options& o);

/// Runs body(gen, scratch, r) for every replicate r in [0, replicates), in parallel on at most
/// `threads` threads (0: the cap). `gen` is replicate r's own stream rng(seed, r) and `scratch` a
/// per-lane copy of `proto` that no other call uses at the same time; body stores its result at
/// index r. So a result depends on (seed, r) only, never on the thread count (Efron & Tibshirani,
/// "An Introduction to the Bootstrap", 1993, for the resampling; random.hpp for the streams).
///
/// Cancellation (validation/cancel.hpp): once cancellation is requested, the replicates not yet
/// started are skipped and the loop throws validation::interrupted, so Ctrl-C stops a long
/// bootstrap within one replicate's time.
template <class Scratch, class Body>
void for_each_replicate(std::size_t replicates, std::uint64_t seed, unsigned threads, const Scratch& proto,
                        Body&& body) {
  const unsigned lanes = assay::detail::resolve_threads(threads, replicates);
  std::vector<Scratch> scratch(lanes, proto);
  assay::detail::parallel_for(replicates, lanes, [&](unsigned lane, std::size_t r) {
    if (validation::cancel_requested()) return;
    rng gen(seed, r);
    body(gen, scratch[lane], r);
  });
  if (validation::cancel_requested()) throw validation::interrupted();
}

/// The same loop over batches of replicates, for kernels that make one pass over the rows per batch
/// (the Poisson bootstrap), cancelled as for_each_replicate is (between batches): body(scratch, first, count) computes replicates [first, first + count),
/// count <= batch, and stores them by index; it draws its own numbers from (seed, replicate), so the
/// result does not depend on the thread count either. `progress`, if set, is called with (replicates
/// done, replicates) after each batch, from one lane only (never from two threads at once), not
/// necessarily on the calling thread. Cancellation as for_each_replicate: within one batch's time.
template <class Scratch, class Body>
void for_each_replicate_batch(std::size_t replicates, std::size_t batch, unsigned threads, const Scratch& proto,
                              Body&& body,
                              const std::function<void(std::size_t, std::size_t)>& progress = {}) {
  const std::size_t batches = (replicates + batch - 1) / batch;
  const unsigned lanes = assay::detail::resolve_threads(threads, batches);
  std::vector<Scratch> scratch(lanes, proto);
  std::atomic<std::size_t> done{0};
  assay::detail::parallel_for(batches, lanes, [&](unsigned lane, std::size_t b) {
    if (validation::cancel_requested()) return;  // Ctrl-C: the batches not yet started are skipped
    const std::size_t first = b * batch, count = std::min(batch, replicates - first);
    body(scratch[lane], first, count);
    const std::size_t now = done.fetch_add(count) + count;
    if (progress && lane == 0) progress(now, replicates);
  });
  if (validation::cancel_requested()) throw validation::interrupted();
  if (progress) progress(replicates, replicates);
}

/// Row indices of each stratum (one stratum holding every row when there are no strata).
inline std::vector<std::vector<std::uint32_t>> strata_members(std::size_t n_rows,
                                                              std::span<const std::int32_t> strata) {
  if (strata.empty()) {
    std::vector<std::uint32_t> all(n_rows);
    std::iota(all.begin(), all.end(), 0u);
    return {all};
  }
  std::map<std::int32_t, std::vector<std::uint32_t>> by;
  for (std::size_t i = 0; i < n_rows; ++i) by[strata[i]].push_back(static_cast<std::uint32_t>(i));
  std::vector<std::vector<std::uint32_t>> out;
  for (auto& [k, v] : by) out.push_back(std::move(v));
  return out;
}

/// Draws a replicate's rows into `rows` (as many as there are members): within each stratum, in
/// stratum order, as many uniform draws with replacement as it has members. Without strata (one
/// stratum of every row) draw i is row gen.below(n_rows).
inline void draw_rows(const std::vector<std::vector<std::uint32_t>>& members, rng& gen,
                      std::vector<std::uint32_t>& rows) {
  std::size_t k = 0;
  for (const auto& m : members) {
    const std::uint64_t size = m.size();
    for (std::size_t i = 0; i < m.size(); ++i) rows[k++] = m[gen.below(size)];
  }
}

}  // namespace assay::stats::detail
