// The Poisson bootstrap; see include/assay/stats/poisson_bootstrap.hpp.
#include "assay/stats/poisson_bootstrap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"
#include "assay/stats/detail/poisson_draws.hpp"
#include "assay/stats/detail/radix_sort.hpp"
#include "assay/stats/detail/replicates.hpp"
#include "assay/stats/random.hpp"

namespace assay::stats {

namespace {

// Replicates per pass over the rows: enough to amortise reading the rows, few enough that the
// per-replicate sums stay in registers and L1.
constexpr std::size_t batch = detail::poisson_lanes;

void check(const char* fn, std::size_t rows, std::span<const double> weight, const bootstrap_options& o) {
  if (rows == 0) throw_usage(fmt::format("{}: no rows to resample", fn));
  if (o.replicates < 1) throw_usage(fmt::format("{}: replicates must be >= 1; got 0", fn));
  if (!(o.level > 0 && o.level < 1)) throw_usage(fmt::format("{}: level must be in (0, 1); got {}", fn, o.level));
  if (o.method != bootstrap_method::percentile) throw_usage(fmt::format("{}: only the percentile method", fn));
  if (!o.strata.empty()) throw_usage(fmt::format("{}: strata are not supported", fn));
  if (!weight.empty() && weight.size() != rows) {
    throw_usage(fmt::format("{}: {} rows but {} weights", fn, rows, weight.size()));
  }
}

// A case in decreasing score order: its row, whether it is positive, whether it starts a tie group.
struct sorted_case {
  std::uint32_t row;
  std::uint8_t positive, starts_group;
};

// Cases sorted once: tie groups from the highest score down, rows of a group in row order.
std::vector<sorted_case> order_cases(std::span<const std::int32_t> y, std::span<const double> s, unsigned threads) {
  const auto asc = detail::sort_by_score(s, y, threads == 0 ? 8u : threads);
  std::vector<sorted_case> out;
  out.reserve(asc.size());
  for (std::size_t j = asc.size(); j > 0;) {
    std::size_t i = j - 1;
    while (i > 0 && asc[i - 1].score == asc[j - 1].score) --i;
    for (std::size_t t = i; t < j; ++t) {
      out.push_back({asc[t].index, static_cast<std::uint8_t>(asc[t].label == 1), static_cast<std::uint8_t>(t == i)});
    }
    j = i;
  }
  return out;
}

// The weights of one batch for a block of positions [first, first + count): k[t * batch + b] for
// position first + t and replicate b, either the Poisson counts of replicates first..first+batch-1 of
// the rows' ids (detail::draw_poisson_counts), kept as bytes (a count is at most 20) for a second
// sweep of the same batch when `keep` is set; those kept counts; or 1 (the estimate).
struct poisson_weights {
  static constexpr bool needs_ids = true;
  std::array<std::uint64_t, batch> key;
  std::uint8_t* keep = nullptr;  // keep[t * batch + b] for position t, or null
  void operator()(std::size_t first, const std::uint64_t* ids, std::size_t count, double* k) const {
    detail::draw_poisson_counts(key.data(), ids, count, k);
    if (keep == nullptr) return;
    std::uint8_t* out = keep + first * batch;
    for (std::size_t i = 0; i < count * batch; ++i) out[i] = static_cast<std::uint8_t>(k[i]);
  }
};
struct kept_weights {
  static constexpr bool needs_ids = false;
  const std::uint8_t* kept;
  void operator()(std::size_t first, const std::uint64_t*, std::size_t count, double* k) const {
    const std::uint8_t* in = kept + first * batch;
    for (std::size_t i = 0; i < count * batch; ++i) k[i] = in[i];
  }
};
struct unit_weights {
  static constexpr bool needs_ids = false;
  void operator()(std::size_t, const std::uint64_t*, std::size_t count, double* k) const {
    std::fill(k, k + count * batch, 1.0);
  }
};

// Bytes of kept counts all lanes may hold at once (8 a row and lane); beyond, the second sweep of a
// batch draws its weights again (the same numbers, more time).
constexpr std::size_t keep_budget = std::size_t{256} << 20;

// Positions whose weights are drawn at a time: 2 KiB of ids and 16 KiB of weights, in L1.
constexpr std::size_t block = 256;

// The rows in the order of the pass (sorted cases when there is a score, else row order), with the
// mean columns and the weights copied into that order so that the pass reads memory sequentially.
struct pass_data {
  std::vector<sorted_case> cases;           // empty: row order, no ranking statistic
  std::vector<std::vector<double>> means;   // means[m][t]: value of mean m at position t
  std::vector<double> weight;               // weight at position t (empty: unit)
  const std::uint64_t* row_ids = nullptr;   // the rows' stable ids; null: the row index
  std::size_t rows = 0;
  bool auc = false, ap = false, other_ap = false;

  std::uint64_t id_at(std::size_t t) const {
    const std::size_t row = cases.empty() ? t : cases[t].row;
    return row_ids != nullptr ? row_ids[row] : row;
  }
  // Draws the weights of positions [first, first + count) (count <= block) into k, times the sample
  // weights if any: w_t k_bt, as the plain definition multiplies them.
  template <class Draw>
  void weights(const Draw& draw, std::size_t first, std::size_t count, double* k) const {
    std::array<std::uint64_t, block> ids;
    if constexpr (Draw::needs_ids)
      for (std::size_t t = 0; t < count; ++t) ids[t] = id_at(first + t);
    draw(first, ids.data(), count, k);
    if (weight.empty()) return;
    for (std::size_t t = 0; t < count; ++t)
#pragma GCC unroll 8
      for (std::size_t b = 0; b < batch; ++b) k[t * batch + b] = weight[first + t] * k[t * batch + b];
  }
};

namespace baseline {  // SSE2, part of x86-64 (the target's own 16-byte vectors elsewhere)
constexpr std::size_t width = 2;
using lanes = double __attribute__((vector_size(width * sizeof(double))));
#include "poisson_kernels.inc"
}  // namespace baseline

#if defined(__x86_64__) && defined(__GNUC__)
#define ASSAY_POISSON_AVX2 1
#pragma GCC push_options
#pragma GCC target("avx2")  // not "fma": no multiply-add is fused, so the bits are the baseline's
namespace avx2 {
constexpr std::size_t width = 4;
using lanes = double __attribute__((vector_size(width * sizeof(double))));
#include "poisson_kernels.inc"
}  // namespace avx2
#pragma GCC pop_options
#endif

// One batch by the kernels of the widest instruction set the processor has (the same numbers).
template <class Draw, class Again>
void run_pass(const pass_data& d, const Draw& draw, const Again& again, std::vector<std::array<double, batch>>& out) {
#ifdef ASSAY_POISSON_AVX2
  if (detail::poisson_kernels_wide()) {
    avx2::run_pass(d, draw, again, out);
    return;
  }
#endif
  baseline::run_pass(d, draw, again, out);
}

}  // namespace

std::vector<bootstrap_result> poisson_bootstrap(const poisson_statistics& s, const bootstrap_options& o) {
  const char* fn = "poisson_bootstrap";
  check(fn, s.rows, s.weight, o);
  const bool ranking = s.roc_auc || s.average_precision || s.other_average_precision;
  const std::size_t n_out = s.means.size() + (s.roc_auc ? 1 : 0) + (s.average_precision ? 1 : 0) +
                            (s.other_average_precision ? 1 : 0);
  if (n_out == 0) throw_usage(fmt::format("{}: no statistic to compute", fn));
  for (std::size_t m = 0; m < s.means.size(); ++m) {
    if (s.means[m].size() != s.rows) {
      throw_usage(fmt::format("{}: {} rows but mean {} has {} values", fn, s.rows, m, s.means[m].size()));
    }
  }
  if (!s.row_ids.empty() && s.row_ids.size() != s.rows) {
    throw_usage(fmt::format("{}: {} rows but {} row ids", fn, s.rows, s.row_ids.size()));
  }
  pass_data d;
  d.rows = s.rows;
  d.row_ids = s.row_ids.empty() ? nullptr : s.row_ids.data();
  d.auc = s.roc_auc;
  d.ap = s.average_precision;
  d.other_ap = s.other_average_precision;
  if (ranking) {
    if (s.y_true.size() != s.rows || s.y_score.size() != s.rows) {
      throw_usage(fmt::format("{}: {} rows but {} labels and {} scores", fn, s.rows, s.y_true.size(),
                              s.y_score.size()));
    }
    if (s.rows > std::numeric_limits<std::uint32_t>::max()) {
      throw_usage(fmt::format("{}: at most 4294967295 rows with a score; got {}", fn, s.rows));
    }
    for (std::size_t i = 0; i < s.rows; ++i) {
      if (s.y_true[i] != 0 && s.y_true[i] != 1) {
        throw_usage(fmt::format("{}: label {} of row {} is not 0 or 1", fn, s.y_true[i], i));
      }
    }
    d.cases = order_cases(s.y_true, s.y_score, o.threads);
  }
  auto in_pass_order = [&](std::span<const double> v) {
    if (d.cases.empty()) return std::vector<double>(v.begin(), v.end());
    std::vector<double> out(v.size());
    for (std::size_t t = 0; t < out.size(); ++t) out[t] = v[d.cases[t].row];
    return out;
  };
  for (const auto& m : s.means) d.means.push_back(in_pass_order(m));
  if (!s.weight.empty()) d.weight = in_pass_order(s.weight);

  std::vector<std::array<double, batch>> est(n_out);
  run_pass(d, unit_weights{}, unit_weights{}, est);
  std::vector<double> estimates(n_out);
  for (std::size_t k = 0; k < n_out; ++k) estimates[k] = est[k][0];

  const std::size_t B = o.replicates;
  std::vector<double> reps(n_out * B);
  // The other class's sweep reads the counts the first sweep drew, kept as bytes, when all lanes'
  // bytes fit the budget (and the baseline is not forced).
  const unsigned lanes = assay::detail::resolve_threads(o.threads, (B + batch - 1) / batch);
  const bool keep = d.other_ap && !detail::poisson_baseline_forced() && s.rows * batch * lanes <= keep_budget;
  struct batch_scratch {
    std::vector<std::array<double, batch>> out;
    std::vector<std::uint8_t> kept;
  };
  detail::for_each_replicate_batch(
      B, batch, o.threads, batch_scratch{std::vector<std::array<double, batch>>(n_out), {}},
      [&](batch_scratch& sc, std::size_t first, std::size_t count) {
        poisson_weights draw;
        for (std::size_t b = 0; b < batch; ++b) draw.key[b] = poisson1_key(o.seed, first + b);
        if (keep) {
          sc.kept.resize(s.rows * batch);
          draw.keep = sc.kept.data();
          run_pass(d, draw, kept_weights{sc.kept.data()}, sc.out);
        } else {
          run_pass(d, draw, draw, sc.out);
        }
        for (std::size_t k = 0; k < n_out; ++k)
          for (std::size_t b = 0; b < count; ++b) reps[k * B + first + b] = sc.out[k][b];
      },
      o.progress);
  return detail::summarise_replicates(std::move(reps), estimates, o);
}

std::vector<bootstrap_result> poisson_bootstrap_weighted(std::size_t rows, std::span<const double> weight,
                                                         std::size_t n_stats, const weighted_statistics& statistics,
                                                         const bootstrap_options& o) {
  return poisson_bootstrap_weighted(rows, weight, {}, n_stats, statistics, o);
}

std::vector<bootstrap_result> poisson_bootstrap_weighted(std::size_t rows, std::span<const double> weight,
                                                         std::span<const std::uint64_t> row_ids, std::size_t n_stats,
                                                         const weighted_statistics& statistics,
                                                         const bootstrap_options& o) {
  const char* fn = "poisson_bootstrap_weighted";
  check(fn, rows, weight, o);
  if (!row_ids.empty() && row_ids.size() != rows) {
    throw_usage(fmt::format("{}: {} rows but {} row ids", fn, rows, row_ids.size()));
  }
  if (n_stats == 0) throw_usage(fmt::format("{}: no statistic to compute", fn));
  std::vector<double> estimates(n_stats);
  {
    std::vector<double> w(rows, 1.0);
    if (!weight.empty()) w.assign(weight.begin(), weight.end());
    statistics(w, estimates);
  }
  const std::size_t B = o.replicates;
  std::vector<double> reps(n_stats * B);
  using scratch = std::pair<std::vector<double>, std::vector<double>>;
  detail::for_each_replicate_batch(
      B, 1, o.threads, scratch{std::vector<double>(rows), std::vector<double>(n_stats)},
      [&](scratch& sc, std::size_t r, std::size_t) {
        const std::uint64_t key = poisson1_key(o.seed, r);
        for (std::size_t i = 0; i < rows; ++i) {
          const double k = poisson1_at(key, row_ids.empty() ? i : row_ids[i]);
          sc.first[i] = weight.empty() ? k : weight[i] * k;
        }
        statistics(sc.first, sc.second);
        for (std::size_t k = 0; k < n_stats; ++k) reps[k * B + r] = sc.second[k];
      },
      o.progress);
  return detail::summarise_replicates(std::move(reps), estimates, o);
}

}  // namespace assay::stats
