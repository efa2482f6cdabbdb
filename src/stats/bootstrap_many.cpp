// Percentile bootstrap of several statistics at once; see include/assay/stats/bootstrap_many.hpp.
#include "assay/stats/bootstrap_many.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "assay/error.hpp"
#include "assay/stats/detail/replicates.hpp"
#include "assay/stats/random.hpp"

namespace assay::stats {

std::vector<std::uint32_t> row_weights(std::span<const std::uint32_t> rows, std::size_t n_rows) {
  std::vector<std::uint32_t> w(n_rows, 0);
  for (std::uint32_t r : rows) {
    if (r >= n_rows) throw_usage(fmt::format("row_weights: row {} is out of range (n_rows = {})", r, n_rows));
    ++w[r];
  }
  return w;
}

std::vector<bootstrap_result> bootstrap_many(std::size_t n_rows, std::size_t n_stats,
                                             const resample_statistics& statistics, const bootstrap_options& o) {
  const char* fn = "bootstrap_many";
  if (n_rows == 0) throw_usage(fmt::format("{}: no rows to resample", fn));
  if (n_rows > std::numeric_limits<std::uint32_t>::max())
    throw_usage(fmt::format("{}: at most 4294967295 rows; got {}", fn, n_rows));
  if (n_stats == 0) throw_usage(fmt::format("{}: no statistic to compute", fn));
  if (o.replicates < 1) throw_usage(fmt::format("{}: replicates must be >= 1; got 0", fn));
  if (!(o.level > 0 && o.level < 1)) throw_usage(fmt::format("{}: level must be in (0, 1); got {}", fn, o.level));
  if (o.method != bootstrap_method::percentile) throw_usage(fmt::format("{}: only the percentile method", fn));
  if (!o.strata.empty()) throw_usage(fmt::format("{}: strata are not supported", fn));

  std::vector<double> identity_out(n_stats);
  {
    std::vector<std::uint32_t> all(n_rows);
    for (std::size_t i = 0; i < n_rows; ++i) all[i] = static_cast<std::uint32_t>(i);
    statistics(all, identity_out);
  }
  // reps[s * B + r]: statistic s of replicate r, written by index so threads cannot change it.
  const std::size_t B = o.replicates;
  std::vector<double> reps(n_stats * B);
  // The replicate loop and draws of bootstrap_ci (simple resampling): the same rows for a seed.
  const auto members = detail::strata_members(n_rows, {});
  using scratch = std::pair<std::vector<std::uint32_t>, std::vector<double>>;
  const scratch proto{std::vector<std::uint32_t>(n_rows), std::vector<double>(n_stats)};
  detail::for_each_replicate(B, o.seed, o.threads, proto, [&](rng& gen, scratch& w, std::size_t r) {
    detail::draw_rows(members, gen, w.first);
    statistics(w.first, w.second);
    for (std::size_t s = 0; s < n_stats; ++s) reps[s * B + r] = w.second[s];
  });

  return detail::summarise_replicates(std::move(reps), identity_out, o);
}

}  // namespace assay::stats
